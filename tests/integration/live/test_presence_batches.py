"""Presence rows are written in batches (server/live/presence.py): thousands of streams opening
at once once made PostgreSQL answer too slowly for the outage guard, a statement and a NOTIFY
each (issue 43, bench/journal/2026-12-07-tables.md)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg

from projections.wakeup import CHANNEL
from server.live.presence import PresenceStore, _payloads
from server.store.database import create_pool


async def test_streams_opening_together_are_written_in_a_few_statements_and_wake_every_encounter(
        database_url: str, conn: Any) -> None:
    pool = await create_pool(database_url, 4)
    heard: list[str] = []
    listener = await asyncpg.connect(database_url)
    await listener.add_listener(CHANNEL, lambda *args: heard.append(args[3]))
    try:
        store = PresenceStore(pool, 45)
        encounters = [str(uuid.uuid4()) for _ in range(300)]
        opened = [(str(uuid.uuid4()), enc) for enc in encounters for _ in range(2)]
        await asyncio.gather(*(store.add(cid, enc, str(uuid.uuid4()), "player", ["c1", "c2"], "websocket")
                               for cid, enc in opened))
        assert store.statements <= 3, store.statements
        ids = [uuid.UUID(cid) for cid, _ in opened]
        rows = await conn.fetch("SELECT id, combatant_ids, transport FROM live_connections WHERE id = ANY($1)", ids)
        assert len(rows) == 600 and {tuple(r["combatant_ids"]) for r in rows} == {("c1", "c2")}
        async with asyncio.timeout(5):
            while {e for payload in heard for e in payload.split(",")} < set(encounters):
                await asyncio.sleep(0.02)
        assert all(len(p.encode()) < 8000 for p in heard)  # a NOTIFY's payload limit

        written = store.statements
        await asyncio.gather(*(store.remove(cid, enc) for cid, enc in opened))
        assert store.statements - written <= 2
        assert await conn.fetchval("SELECT count(*) FROM live_connections WHERE id = ANY($1)", ids) == 0
    finally:
        await listener.close()
        await pool.close()


async def test_a_stream_closed_before_its_row_was_written_leaves_no_row(database_url: str, conn: Any) -> None:
    pool = await create_pool(database_url, 2)
    try:
        store = PresenceStore(pool, 45)
        cid, enc = str(uuid.uuid4()), str(uuid.uuid4())
        adding = asyncio.ensure_future(store.add(cid, enc, str(uuid.uuid4()), "gm", [], "sse"))
        await asyncio.sleep(0)  # queued, not written
        await store.remove(cid, enc)
        await adding
        assert await conn.fetchval("SELECT count(*) FROM live_connections WHERE id = $1", uuid.UUID(cid)) == 0
    finally:
        await pool.close()


def test_the_wake_up_payloads_name_every_encounter_within_the_notify_limit() -> None:
    ids = [str(uuid.uuid4()) for _ in range(1000)]
    payloads = _payloads(ids)
    assert [e for p in payloads for e in p.split(",")] == ids
    assert max(len(p) for p in payloads) < 8000
