"""The projector: the read models' runner in a process of its own, beside the HTTP workers.

``fracas serve`` starts one (``fracas projections run``) and the workers run no runner of
their own (``FRACAS_PROJECTIONS=external``): following the log, decoding its events and
writing the read models then takes no CPU from the process that answers commands, which is
what bounds the server's throughput (bench/README.md). Several projectors, or a projector and
in-process runners, may run at once: each projection is led by one process at a time (its
leader lock, ``projections/runner.py``), the others stand by.

The projector applies the migrations first (under their advisory lock, a no-op when up to
date: ``fracas serve`` applied them before it started, as the owner, and with the embedded
default the projector connects as ``fracas_app``, a member of ``fracas_writer`` only), exits when asked (SIGTERM, SIGINT) and when the process that started it is gone, and
is started again by ``fracas serve`` if it stops on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading

log = logging.getLogger("fracas.projector")


async def run(dsn: str, parent_pid: int | None = None, poll_seconds: float = 0.5) -> None:
    """Keep the read models until stopped, or until ``parent_pid`` is no longer our parent."""
    from projections.catalog import all_projections
    from projections.runner import ProjectionRunner
    from projections.wakeup import Wakeup
    from server.store.migrations import migrate_dsn

    await migrate_dsn(dsn)
    wakeup = Wakeup(dsn)
    await wakeup.start()
    runner = ProjectionRunner(dsn, all_projections(), wakeup=wakeup, pause_wakeup=True)  # its wake-up alone
    await runner.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info("projector: following the log for the read models")
    try:
        while not stop.is_set():
            if parent_pid is not None and os.getppid() != parent_pid:
                log.warning("projector: the server that started it is gone; stopping")
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), poll_seconds)
    finally:
        await runner.stop()
        await wakeup.stop()


class ProjectorProcess:
    """``fracas projections run`` as a child process, started again (after a pause) whenever it
    stops on its own, until ``stop``."""

    def __init__(self, dsn: str, restart_seconds: float = 1.0) -> None:
        self.dsn = dsn
        self.restart_seconds = restart_seconds
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._spawn()
        self._thread = threading.Thread(target=self._watch, name="fracas-projector", daemon=True)
        self._thread.start()

    def _spawn(self) -> None:
        env = {**os.environ, "DATABASE_URL": self.dsn}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "projections", "run", "--parent", str(os.getpid())], env=env,
        )
        self.starts += 1

    def _watch(self) -> None:
        while not self._stopping.is_set():
            proc = self.process
            if proc is not None and proc.poll() is not None:
                log.warning("projector exited with %s; starting it again in %.0f s", proc.returncode,
                            self.restart_seconds)
                if self._stopping.wait(self.restart_seconds):
                    return
                self._spawn()
            self._stopping.wait(0.2)

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        proc = self.process
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
