"""A fight with seeded dice through the HTTP API, and access to its stored rows."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest

from tests.conftest import TEMPLATE, _admin, with_database
from tests.integration.fight import command, mint, open_encounter

LURKER = "Lurking Assassin"


@dataclass
class SeededFight:
    enc: str
    gm: dict[str, str]
    ids: dict[str, str]
    player: dict[str, str]  # Mira's player
    spectator: dict[str, str]
    initiative_versions: list[int] = field(default_factory=list)


async def seeded_fight(client: Any, *, hidden: bool = False, rounds: int = 2, end: bool = True) -> SeededFight:
    """Mira and Kess (players) against a Bandit (and, with ``hidden``, a hidden Lurking
    Assassin, and the GM's first initiative roll secret). Seeded dice: initiative, ``rounds``
    rounds of turns, initiative rolled again, and (with ``end``) the end, revealing the seed."""
    enc = await open_encounter(client, "A seeded fight", dice_policy="seeded")
    gm = {"Authorization": client.headers["Authorization"]}
    ids = {}
    cast = [("Mira", "player", 2, False), ("Kess", "player", 0, False), ("Bandit", "gm", 1, False)]
    if hidden:
        cast.append((LURKER, "gm", 3, True))
    for name, controller, modifier, is_hidden in cast:
        r = await client.post(f"/encounters/{enc}/combatants", json={
            "name": name, "side": "party" if controller == "player" else "enemies", "controller": controller,
            "sheet": {"initiative_modifier": modifier}, "hidden": is_hidden})
        assert r.status_code == 201, r.text
        ids[name] = r.json()["events"][0]["data"]["combatant_id"]
    fight = SeededFight(enc=enc, gm=gm, ids=ids, player=await mint(client, enc, "player", [ids["Mira"]]),
                        spectator=await mint(client, enc, "spectator"))
    fight.initiative_versions.append((await command(client, enc, {"type": "RollInitiative", "secret": hidden}))["version"])
    await command(client, enc, {"type": "StartEncounter"})
    for _ in range(rounds):
        state = (await client.get(f"/encounters/{enc}")).json()
        for cid in state["order"]:
            await command(client, enc, {"type": "EndTurn", "combatant_id": cid})
    fight.initiative_versions.append((await command(client, enc, {"type": "RollInitiative"}))["version"])
    if end:
        await command(client, enc, {"type": "EndEncounter"})
    return fight


async def stored_rows(conn: asyncpg.Connection, enc: str) -> list[asyncpg.Record]:
    return await conn.fetch(
        """SELECT version, event_id::text AS event_id, type, schema_version, data::text AS data,
                  metadata::text AS metadata, recorded_at, hash
           FROM events WHERE encounter_id = $1 ORDER BY version""",
        uuid.UUID(enc),
    )


async def seed_of(conn: asyncpg.Connection, enc: str) -> bytes:
    return bytes(await conn.fetchval("SELECT seed FROM encounters WHERE id = $1", uuid.UUID(enc)))


@pytest.fixture
async def second_database_url(pg_admin_dsn: str, template_dsn: str):
    """Another fresh, migrated database: another server's, to import into."""
    name = f"t2_{uuid.uuid4().hex[:16]}"
    await _admin(pg_admin_dsn, f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    try:
        yield with_database(pg_admin_dsn, name)
    finally:
        await _admin(pg_admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
