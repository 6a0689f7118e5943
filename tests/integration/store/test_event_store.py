"""The event store on a real PostgreSQL: migrations, immutability, appends, the hash chain."""

from __future__ import annotations

import hashlib
import uuid

import asyncpg
import msgspec
import pytest

from server.store.migrations import discover, migrate
from server.store.events import GENESIS_HASH, canonical_bytes, StoredRow
from tests.integration.fight import command, open_encounter, started_fight


async def test_migrations_apply_once(conn: asyncpg.Connection) -> None:
    # the template database is already migrated: a second run applies nothing
    assert await migrate(conn) == []
    rows = await conn.fetch("SELECT number, name FROM schema_migrations ORDER BY number")
    assert [r["name"] for r in rows] == [m.name for m in discover()]
    assert await migrate(conn) == []


async def test_events_table_has_the_designed_columns(conn: asyncpg.Connection) -> None:
    cols = {
        r["column_name"]: r["data_type"]
        for r in await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'events'"
        )
    }
    assert cols == {
        "global_position": "bigint",
        "encounter_id": "uuid",
        "version": "integer",
        "event_id": "uuid",
        "type": "text",
        "schema_version": "smallint",
        "data": "jsonb",
        "metadata": "jsonb",
        "recorded_at": "timestamp with time zone",
        "transaction_id": "xid8",
        "hash": "bytea",
    }


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET type = 'Tampered'",
        "DELETE FROM events",
        "TRUNCATE events",
    ],
)
async def test_history_cannot_be_changed(client, conn: asyncpg.Connection, statement: str) -> None:
    await open_encounter(client)
    before = await conn.fetchval("SELECT count(*) FROM events")
    assert before == 1
    with pytest.raises(asyncpg.PostgresError, match="events are immutable"):
        await conn.execute(statement)
    assert await conn.fetchval("SELECT count(*) FROM events") == before
    assert await conn.fetchval("SELECT type FROM events") == "EncounterOpened"


async def test_versions_are_unique_per_encounter(client, conn: asyncpg.Connection) -> None:
    enc = await open_encounter(client)
    with pytest.raises(asyncpg.UniqueViolationError):
        await conn.execute(
            """INSERT INTO events (encounter_id, version, event_id, type, data, hash)
               VALUES ($1, 1, $2, 'Duplicate', '{}', '\\x00')""",
            uuid.UUID(enc), uuid.uuid4(),
        )


async def test_hash_chain_links_every_event(client, conn: asyncpg.Connection) -> None:
    enc, _, _ = await started_fight(client)
    rows = await conn.fetch(
        """SELECT version, event_id::text, type, schema_version, data::text, metadata::text, recorded_at, hash
           FROM events WHERE encounter_id = $1 ORDER BY version""",
        uuid.UUID(enc),
    )
    assert [r["version"] for r in rows] == list(range(1, len(rows) + 1))
    prev = GENESIS_HASH
    enc_sorted = msgspec.json.Encoder(order="sorted").encode
    for r in rows:
        row = StoredRow(
            version=r["version"], event_id=r["event_id"], type=r["type"], schema_version=r["schema_version"],
            data=enc_sorted(msgspec.json.decode(r["data"])), metadata=enc_sorted(msgspec.json.decode(r["metadata"])),
            recorded_at=r["recorded_at"], hash=b"",
        )
        expected = hashlib.sha256(prev + canonical_bytes(enc, row)).digest()
        assert bytes(r["hash"]) == expected, f"hash chain broken at version {r['version']}"
        prev = expected


async def test_one_command_appends_all_its_events_in_one_transaction(client, conn: asyncpg.Connection) -> None:
    enc, _, _ = await started_fight(client)
    rows = await conn.fetch(
        "SELECT version, type, transaction_id::text AS tx FROM events WHERE encounter_id = $1 ORDER BY version",
        uuid.UUID(enc),
    )
    started = [r for r in rows if r["type"] in ("EncounterStarted", "RoundStarted")]
    assert len(started) == 2 and started[0]["tx"] == started[1]["tx"]


async def test_event_metadata_records_the_command_and_actor(client, conn: asyncpg.Connection) -> None:
    enc, _, _ = await started_fight(client)
    await command(client, enc, {"type": "EndEncounter"}, **{"Idempotency-Key": "end-1"})
    meta = msgspec.json.decode(
        await conn.fetchval(
            "SELECT metadata::text FROM events WHERE encounter_id = $1 AND type = 'EncounterEnded'", uuid.UUID(enc)
        )
    )
    assert meta["command"] == "EndEncounter"
    assert meta["idempotency_key"] == "end-1"
    gm_token_id = await conn.fetchval("SELECT id::text FROM tokens WHERE encounter_id = $1", uuid.UUID(enc))
    assert meta["actor"] == {"role": "gm", "token_id": gm_token_id}
    uuid.UUID(meta["request_id"])


async def test_concurrent_migrations_apply_each_file_once(pg_admin_dsn: str) -> None:
    """Five servers starting at once on an empty database: the advisory lock serialises them."""
    import asyncio

    from server.store.migrations import migrate_dsn
    from tests.conftest import with_database

    name = f"m_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(pg_admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        results = await asyncio.gather(*(migrate_dsn(with_database(pg_admin_dsn, name)) for _ in range(5)))
        applied = [n for r in results for n in r]
        assert sorted(applied) == [m.name for m in discover()]
        conn = await asyncpg.connect(with_database(pg_admin_dsn, name))
        try:
            assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == len(discover())
        finally:
            await conn.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
