"""``GET /encounters/{id}/audit`` (issue 7) against the real server and PostgreSQL.

"verifies the hash chain of the encounter's events and, once the seed is revealed,
re-derives every seeded roll and compares; reports the first event that fails, if any."
Any token of the encounter may audit; a player or spectator is never told what a hidden
event holds.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import asyncpg
import httpx

from domain.core.dice import seeded_face
from tests.integration.fight import command
from tests.integration.seeded import LURKER, seed_of, seeded_fight, stored_rows


async def audit_as(client: httpx.AsyncClient, enc: str, headers: dict[str, str]) -> dict[str, Any]:
    r = await client.get(f"/encounters/{enc}/audit", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def seeded_dice(rows: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if v.get("source") == "seeded" and "face" in v:
                out.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for r in rows:
        walk(json.loads(r["data"]))
    return out


async def test_an_ended_fight_verifies_every_seeded_roll(client: httpx.AsyncClient, conn: asyncpg.Connection) -> None:
    f = await seeded_fight(client)
    rows = await stored_rows(conn, f.enc)
    dice = seeded_dice(rows)
    seed = await seed_of(conn, f.enc)
    assert dice and all(seeded_face(seed, f.enc, d["index"], d["sides"]) == d["face"] for d in dice)

    report = await audit_as(client, f.enc, f.gm)
    assert report["ok"] is True and report["chain_ok"] is True and report["first"] is None
    assert report["problems"] == []
    assert report["events"] == len(rows) and report["head_hash"] == bytes(rows[-1]["hash"]).hex()
    assert report["seed"] == {"commitment": json.loads(rows[0]["data"])["seed_commitment"], "revealed": True,
                              "matches": True}
    assert report["dice"] == {"seeded": len(dice), "reported": 0, "rederived": len(dice), "verified": True}
    # "any token of the encounter may audit": the players and spectators get the verdict, not the counts
    for headers in (f.player, f.spectator):
        seen = await audit_as(client, f.enc, headers)
        assert seen["ok"] is True and seen["seed"]["matches"] is True
        assert seen["dice"] == {"seeded": None, "reported": None, "rederived": None, "verified": True}


async def test_before_the_end_the_chain_verifies_and_the_dice_wait_for_the_seed(client: httpx.AsyncClient) -> None:
    f = await seeded_fight(client, end=False)
    report = await audit_as(client, f.enc, f.gm)
    assert report["ok"] is True and report["seed"]["revealed"] is False and report["seed"]["matches"] is None
    assert report["dice"]["seeded"] > 0 and report["dice"]["rederived"] == 0 and report["dice"]["verified"] is False


async def tamper(conn: asyncpg.Connection, enc: str, version: int, change: Any) -> None:
    """What a rogue database administrator could do: rewrite a stored event in place (the
    trigger that forbids it switched off for the moment)."""
    data = json.loads(await conn.fetchval(
        "SELECT data::text FROM events WHERE encounter_id = $1 AND version = $2", uuid.UUID(enc), version))
    change(data)
    async with conn.transaction():
        await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        await conn.execute("UPDATE events SET data = $3::jsonb WHERE encounter_id = $1 AND version = $2",
                           uuid.UUID(enc), version, json.dumps(data))
        await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")


async def test_a_rewritten_event_is_named_and_a_player_learns_no_hidden_thing(
    client: httpx.AsyncClient, conn: asyncpg.Connection
) -> None:
    """A changed face in the GM's secret initiative roll (an ambush: it stays secret after the
    end) and a renamed hidden NPC: the GM is told which die and faces; a player and a
    spectator the versions and codes only."""
    f = await seeded_fight(client, hidden=True)
    lurker = f.ids[LURKER]
    rolled_at = f.initiative_versions[0]
    rows = await stored_rows(conn, f.enc)
    added_at = next(r["version"] for r in rows if r["type"] == "CombatantAdded"
                    and json.loads(r["data"])["combatant_id"] == lurker)
    npcs = next(x for x in json.loads(rows[rolled_at - 1]["data"])["rolls"] if x["who"] == "npcs")
    assert npcs["secret"] is True and npcs["die"]["source"] == "seeded"
    true_face, sides = npcs["die"]["face"], npcs["die"]["sides"]
    forged = true_face % sides + 1

    def change_face(data: dict[str, Any]) -> None:
        roll = next(x for x in data["rolls"] if x["who"] == "npcs")
        roll["die"]["face"], roll["total"] = forged, roll["total"] - true_face + forged

    def rename(data: dict[str, Any]) -> None:
        data["name"] = "Innocent Bystander"

    await tamper(conn, f.enc, rolled_at, change_face)
    await tamper(conn, f.enc, added_at, rename)

    gm = await audit_as(client, f.enc, f.gm)
    assert gm["ok"] is False and gm["chain_ok"] is False
    assert (gm["first"]["version"], gm["first"]["code"]) == (added_at, "hash_mismatch")
    named = {(p["version"], p["code"]) for p in gm["problems"]}
    assert named == {(added_at, "hash_mismatch"), (rolled_at, "hash_mismatch"), (rolled_at, "die_mismatch")}
    mismatch = next(p for p in gm["problems"] if p["code"] == "die_mismatch")
    assert mismatch["die"] == {"purpose": "initiative: the GM, for all NPCs", "sides": sides,
                               "index": npcs["die"]["index"], "stored_face": forged, "derived_face": true_face}
    assert gm["dice"]["verified"] is False

    for headers in (f.player, f.spectator):
        r = await client.get(f"/encounters/{f.enc}/audit", headers=headers)
        assert r.status_code == 200
        seen = r.json()
        assert {(p["version"], p["code"]) for p in seen["problems"]} == named
        assert all(p["die"] is None for p in seen["problems"])
        assert seen["first"] == seen["problems"][0] and seen["ok"] is False
        text = r.text
        for trace in (lurker, LURKER, "Innocent Bystander", "CombatantAdded", "for all NPCs",
                      f"shows {forged}", f"gives {true_face}"):
            assert trace not in text, trace


async def test_a_retcon_takes_the_roll_numbers_back_and_the_log_still_verifies(client: httpx.AsyncClient) -> None:
    """A retcon goes back with the seeded dice: the command sent again rolls the same numbers
    and faces. The audit follows the story (no roll number taken as reused) and verifies."""
    f = await seeded_fight(client, rounds=1, end=False)
    rolled = await command(client, f.enc, {"type": "RollInitiative"})
    await command(client, f.enc, {"type": "Retcon", "to_version": rolled["version"] - 1, "reason": "wrong button"})
    again = await command(client, f.enc, {"type": "RollInitiative"})
    assert again["events"][0]["data"]["rolls"] == rolled["events"][0]["data"]["rolls"]
    await command(client, f.enc, {"type": "EndEncounter"})
    report = await audit_as(client, f.enc, f.gm)
    assert report["ok"] is True, report["problems"]
    assert report["dice"]["verified"] is True and report["dice"]["rederived"] == report["dice"]["seeded"]
