"""Twenty clients race on one encounter through two app instances (two caches, like two
server processes) on one PostgreSQL: versions stay gapless, no event is lost or
duplicated, every If-Match loser gets 412, and a command sent without If-Match is decided
again on the new state (and refused when no longer legal)."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import pytest

from server.app import create_app
from tests.conftest import app_client
from tests.integration.fight import reroll_initiative, started_fight

CLIENTS = 20




async def versions(conn, enc: str) -> list[int]:
    return [r["version"] for r in await conn.fetch(
        "SELECT version FROM events WHERE encounter_id = $1 ORDER BY global_position", uuid.UUID(enc))]


async def test_racing_without_if_match_is_decided_again(two_clients, conn) -> None:
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    await b.get(f"/encounters/{enc}")  # b caches the encounter too
    body = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}

    async def one(i: int):
        return await (a if i % 2 else b).post(f"/encounters/{enc}/commands", json=body)

    results = await asyncio.gather(*(one(i) for i in range(CLIENTS)))
    statuses = Counter(r.status_code for r in results)
    # Mira has 3 Action Points: three arrows are notched, the other 17 are refused on the new state
    assert statuses == {200: 3, 422: CLIENTS - 3}
    assert {r.json()["code"] for r in results if r.status_code == 422} == {"not_enough_action_points"}
    assert sorted(r.json()["version"] for r in results if r.status_code == 200) == [7, 8, 9]
    assert await versions(conn, enc) == list(range(1, 10))
    for c in (a, b):
        assert (await c.get(f"/encounters/{enc}")).json()["combatants"][mira]["action_points"] == 0


async def test_racing_with_if_match_every_loser_gets_412(two_clients, conn) -> None:
    a, b = two_clients
    enc, _, _ = await started_fight(a, b)
    etag = (await b.get(f"/encounters/{enc}")).headers["etag"]

    async def one(i: int):
        return await (a if i % 2 else b).post(
            f"/encounters/{enc}/commands", json={"type": "RollInitiative"}, headers={"If-Match": etag}
        )

    results = await asyncio.gather(*(one(i) for i in range(CLIENTS)))
    statuses = Counter(r.status_code for r in results)
    assert statuses == {200: 1, 412: CLIENTS - 1}
    assert all(r.json()["code"] == "version_mismatch" for r in results if r.status_code == 412)
    assert await versions(conn, enc) == list(range(1, 8))


async def test_many_racing_writes_all_land_exactly_once(two_clients, conn) -> None:
    a, b = two_clients
    enc, _, _ = await started_fight(a, b)
    per_client = 5

    racing = (reroll_initiative(a if i % 2 else b, enc, per_client) for i in range(CLIENTS))
    got = [v for vs in await asyncio.gather(*racing) for v in vs]
    assert sorted(got) == list(range(7, 7 + CLIENTS * per_client))
    assert await versions(conn, enc) == list(range(1, 7 + CLIENTS * per_client))
    event_ids = await conn.fetchval("SELECT count(DISTINCT event_id) FROM events WHERE encounter_id = $1",
                                    uuid.UUID(enc))
    assert event_ids == 6 + CLIENTS * per_client


async def test_reads_racing_writes_leave_the_cache_equal_to_a_replay(two_clients, database_url) -> None:
    a, b = two_clients
    enc, _, _ = await started_fight(a, b)

    async def writer(c):
        for _ in range(5):
            assert (await c.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"})).status_code == 200

    async def reader(c):
        for _ in range(10):
            r = await c.get(f"/encounters/{enc}")
            assert r.status_code == 200
            assert r.headers["etag"] == f'"{r.json()["version"]}"'

    await asyncio.gather(*(writer(a if i % 2 else b) for i in range(8)), *(reader(a if i % 2 else b) for i in range(8)))
    async with app_client(database_url) as cold:
        cold.headers["Authorization"] = a.headers["Authorization"]
        truth = (await cold.get(f"/encounters/{enc}")).json()
    assert truth["version"] == 6 + 8 * 5
    assert (await a.get(f"/encounters/{enc}")).json() == truth
    assert (await b.get(f"/encounters/{enc}")).json() == truth
