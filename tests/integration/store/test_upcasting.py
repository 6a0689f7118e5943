"""Upcasting (issue 7): "change one event's shape in a later version with an upcaster, and a
fight stored under the old shape still replays and verifies."

``EncounterOpened`` version 2 publishes ``seed_commitment: "sha256:<hex>"`` where version 1
had ``seed_sha256: "<hex>"`` (domain/core/upcasting.py). A fight is played on one server;
its rows are written into another database as an older server would have stored them (the
opening under version 1, every hash of the chain computed over those bytes), and the other
server replays it, audits it, and plays on, appending version-2 events to the old chain.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import asyncpg
import httpx

from projections.chain import StoredRow, encode_sorted, link, row_from
from server.store.transfer import insert_encounter
from tests.conftest import app_client
from tests.integration.fight import command
from tests.integration.seeded import second_database_url, seed_of, seeded_fight, stored_rows  # noqa: F401 - a fixture


def as_version_1(enc: str, rows: list[StoredRow]) -> list[StoredRow]:
    """The rows as a server before EncounterOpened 2 wrote them: same events, old opening, its own chain."""
    opened = json.loads(rows[0].data)
    opened["seed_sha256"] = opened.pop("seed_commitment").removeprefix("sha256:")
    return link(enc, [replace(rows[0], schema_version=1, data=encode_sorted(opened)), *rows[1:]])


async def get(client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> Any:
    r = await client.get(url, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


async def play_on(client: httpx.AsyncClient, enc: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """The same continuation on either server: initiative rolled again (seeded), a round, the end."""
    client.headers.update(headers)
    events = (await command(client, enc, {"type": "RollInitiative"}))["events"]
    state = await get(client, f"/encounters/{enc}", headers)
    start = state["round"]
    while state["round"] == start:
        events += (await command(client, enc, {"type": "EndTurn", "combatant_id": state["turn"]}))["events"]
        state = await get(client, f"/encounters/{enc}", headers)
    events += (await command(client, enc, {"type": "EndEncounter"}))["events"]
    return events


async def test_a_fight_stored_under_version_1_replays_verifies_and_plays_on(
    client: httpx.AsyncClient, conn: asyncpg.Connection, second_database_url: str  # noqa: F811
) -> None:
    f = await seeded_fight(client, rounds=1, end=False)
    rows = [row_from(r) for r in await stored_rows(conn, f.enc)]
    assert (rows[0].type, rows[0].schema_version) == ("EncounterOpened", 2)
    rec = await conn.fetchrow("SELECT ruleset, name, created_at FROM encounters WHERE id = $1::uuid", f.enc)
    old = as_version_1(f.enc, rows)

    other = await asyncpg.connect(second_database_url)
    try:
        async with other.transaction():
            _, secret = await insert_encounter(other, f.enc, rec["ruleset"], rec["name"], rec["created_at"],
                                               await seed_of(conn, f.enc), old)
        stored = await other.fetchrow("SELECT schema_version, data::text AS data FROM events "
                                      "WHERE encounter_id = $1::uuid AND version = 1", f.enc)
    finally:
        await other.close()
    assert stored["schema_version"] == 1 and "seed_sha256" in json.loads(stored["data"])

    gm_b = {"Authorization": f"Bearer {secret}"}
    async with app_client(second_database_url) as b:
        # it replays: the same state as the fight that was stored under version 2
        assert await get(b, f"/encounters/{f.enc}", gm_b) == await get(client, f"/encounters/{f.enc}", f.gm)
        # the events are served as stored, each with its schema version
        events = (await get(b, f"/encounters/{f.enc}/events", gm_b))["events"]
        assert (events[0]["schema_version"], set(events[0]["data"]) >= {"seed_sha256"}) == (1, True)
        assert [e["hash"] for e in events] == [r.hash.hex() for r in old]
        # it verifies: the commitment comes through the upcaster
        report = await get(b, f"/encounters/{f.enc}/audit", gm_b)
        assert report["ok"] is True and report["seed"]["commitment"] == json.loads(rows[0].data)["seed_commitment"]

        # and it plays on: new events (version 2 shapes) chained onto the old ones, the same
        # dice as on the first server, and the whole log verifies once the seed is revealed
        here = await play_on(b, f.enc, gm_b)
        there = await play_on(client, f.enc, f.gm)
        assert [(e["type"], e["data"]) for e in here] == [(e["type"], e["data"]) for e in there]
        assert await get(b, f"/encounters/{f.enc}", gm_b) == await get(client, f"/encounters/{f.enc}", f.gm)
        report = await get(b, f"/encounters/{f.enc}/audit", gm_b)
        assert report["ok"] is True and report["seed"]["matches"] is True and report["dice"]["verified"] is True
        assert report["dice"]["rederived"] == report["dice"]["seeded"] > 0
