"""Numbered SQL migrations, applied in order, once, under an advisory lock."""

from __future__ import annotations

import hashlib
import logging
import re
from importlib import resources
from dataclasses import dataclass
from pathlib import Path

import asyncpg

log = logging.getLogger("fracas")

MIGRATIONS_DIR = Path(str(resources.files("migrations")))
LOCK_KEY = 0x46524143  # "FRAC"
_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found = []
    for path in sorted(directory.glob("*.sql")):
        m = _NAME.match(path.name)
        if not m:
            raise ValueError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(m.group(1)), path.name, path.read_text()))
    if not found:
        raise FileNotFoundError(f"no migrations found in {directory}")
    numbers = [m.number for m in found]
    if len(set(numbers)) != len(numbers):
        raise ValueError("two migrations share a number")
    return found


async def migrate(conn: asyncpg.Connection, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Apply what is missing; return the names applied. A second run applies nothing."""
    migrations = discover(directory)
    applied_now: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
        # created only where missing: a server connecting as a user that may not create
        # tables (a login member of fracas_writer) still starts on a migrated database
        if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
            await conn.execute(
                """CREATE TABLE IF NOT EXISTS schema_migrations (
                       number integer PRIMARY KEY,
                       name text NOT NULL,
                       checksum text NOT NULL,
                       applied_at timestamptz NOT NULL DEFAULT now())"""
            )
        rows = await conn.fetch("SELECT number, name, checksum FROM schema_migrations")
        done = {r["number"]: r for r in rows}
        for m in migrations:
            if m.number in done:
                if done[m.number]["checksum"] != m.checksum:
                    log.warning("migration %s changed after it was applied", m.name)
                continue
            await conn.execute(m.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (number, name, checksum) VALUES ($1, $2, $3)",
                m.number, m.name, m.checksum,
            )
            applied_now.append(m.name)
    return applied_now


async def migrate_dsn(dsn: str) -> list[str]:
    conn = await asyncpg.connect(dsn)
    try:
        return await migrate(conn)
    finally:
        await conn.close()
