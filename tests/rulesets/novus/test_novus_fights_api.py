"""A whole Novus fight through the server against PostgreSQL, with reported dice: two combatants
declaring from the lowest IP up and resolving from the highest down, exploding and imploding dice,
Boon Points spent at once, a cancel into a Dodge, what a player is shown of an NPC, the readable
log, the exact odds, and a replay of the stored events equal to the state the server serves."""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

from domain.rulesets import default_registry
from projections.visibility import GM, state_for
from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC
from tests.rulesets.novus.http import kael_and_orc

RULESET = default_registry().get("novus")


async def test_a_whole_round_declared_low_to_high_and_resolved_high_to_low(database_url: str, conn: Any) -> None:
    """"Actions are declared from the lowest IP to the highest and resolved from the highest to the
    lowest"; "A 10 on either die is added and that die is rolled again"; "A 1 on either die ... the
    new roll is subtracted"; Boon Points "must be spent at once"; "an action declared by a character
    may be canceled at any time prior to its resolution ... Perform a Dodge"."""
    async with client_for(database_url) as client:
        coverage = (await client.get("/rulesets/novus")).json()["coverage"]
        assert any(row["heading"] == "Cancelling an Action" for row in coverage)
        enc, gm = await kael_and_orc(client, "At the ford", KAEL, ORC)
        # Kael 10 explodes (10 + 4 + 3 = 17); the Orc 1 implodes (1 + 6 - 2 = 5, + 1 Speed = 6)
        await gm({"type": "RollInitiative", "dice": [10, 4, 3, 1, 6, 2]})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])

        async def kael(body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
            return await command(client, enc, body, expect=expect, **player)

        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["order"] == ["kael", "orc"] and state["rules"]["ip"] == {"kael": 17, "orc": 6}
        # the lowest IP declares first: Kael is refused, the Orc declares, then Kael
        refused = await kael({"type": "NovusDeclare", "combatant_id": "kael",
                              "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]}, expect=422)
        assert refused["code"] == "not_your_move"
        await gm({"type": "NovusDeclare", "combatant_id": "orc",
                  "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        await kael({"type": "NovusDeclare", "combatant_id": "kael",
                    "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        # the highest resolves first: Kael's 10 explodes, 10 + 8 + 10 + 2 = 30 + 7 = 37 vs DEF 16: 2 Boon Points
        out = await kael({"type": "NovusResolve", "combatant_id": "kael", "dice": [10, 8, 10, 2]})
        [rolled] = [e["data"] for e in out["events"]]
        assert (rolled["total"], rolled["boon_points"], rolled["damage"]) == (37, 2, 9 + 21 - 2)
        assert "defence" not in rolled  # the Orc's DEF is off its sheet: Kael's player is told the hit, not it
        await kael({"type": "EndTurn", "combatant_id": "kael"}, expect=422)  # the Boons first
        out = await kael({"type": "NovusSpendBoons", "combatant_id": "kael", "boons": ["Strong Attack", "Daze Foe"]})
        assert [e["type"] for e in out["events"]] == ["NovusBoonsSpent", "NovusDamaged", "NovusActionsResolved"]
        await kael({"type": "EndTurn", "combatant_id": "kael"})
        # the Orc, at 1 Hit Point, swings: 1 implodes (1 + 9 - 3 = 7 + 5 = 12 vs Kael's DEF 16): a miss
        out = await gm({"type": "NovusResolve", "combatant_id": "orc", "dice": [1, 9, 3]})
        assert out["events"][0]["data"]["hit"] is False and out["events"][0]["data"]["rolled"] == 7
        await gm({"type": "EndTurn", "combatant_id": "orc"})

        # round 2: the Orc declares an attack, Kael an attack, then cancels into a Dodge before the Orc's IP... Kael is
        # first; so the Orc cancels, into a Dodge, as Kael's attack comes
        await gm({"type": "NovusDeclare", "combatant_id": "orc",
                  "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        await kael({"type": "NovusDeclare", "combatant_id": "kael",
                    "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        out = await gm({"type": "NovusCancel", "combatant_id": "orc", "instead": [{"kind": "dodge"}]})
        assert [e["type"] for e in out["events"]] == ["NovusActionsCancelled", "NovusActionTaken"]
        out = await kael({"type": "NovusResolve", "combatant_id": "kael", "dice": [6, 5]})  # 11 + 7 = 18 vs 16 + 3
        assert out["events"][0]["data"]["hit"] is False
        gm_feed = (await client.get(f"/encounters/{enc}/events")).json()["events"]
        assert [e["data"]["defence"] for e in gm_feed if e["type"] == "NovusAttackRolled"] == [16, 16, 19]

        # a player sees the Orc's hit and damage, never its Hit Points, its DEF or its sheet
        seen = (await client.get(f"/encounters/{enc}", headers=player)).json()
        assert seen["combatants"]["orc"]["sheet"] == {"helpless": False, "dead": False, "prone": False,
                                                      "useless_limbs": [], "disarmed": [],
                                                      "control_zone_reach": 5}  # its state, not its Hit Points
        assert seen["combatants"]["kael"]["sheet"]["hits"] == 40  # a player's own sheet, whole
        assert (await client.get(f"/encounters/{enc}")).json()["combatants"]["orc"]["sheet"]["hits"] == 1
        feed = (await client.get(f"/encounters/{enc}/events", headers=player)).json()["events"]
        damaged = [e["data"] for e in feed if e["type"] == "NovusDamaged"]
        assert damaged and all("hit_points" not in d for d in damaged)
        attacks = [e["data"] for e in feed if e["type"] == "NovusAttackRolled" and e["data"]["target"] == "orc"]
        assert attacks and all("defence" not in a for a in attacks)
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "Kael spends the Boon Points on Strong Attack and Daze Foe (+1 damage): 29 damage." in told
        assert "The Orc takes 29 damage: 1 Hit Point left." in told
        assert "The Orc cancels the declared actions and performs a Dodge at once." in told

        rows = await conn.fetch("SELECT type, schema_version, data::text AS data FROM events "
                                "WHERE encounter_id = $1 ORDER BY version", uuid.UUID(enc))
        replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
        served = (await client.get(f"/encounters/{enc}")).json()
        assert msgspec.json.decode(msgspec.json.encode(state_for(replayed, GM))) == served


async def test_the_odds_of_an_attack_are_exact_to_the_stated_bound(database_url: str) -> None:
    """GET /rulesets/novus/odds: the chance of a hit, of each number of Boon Points and of a Nova Roll."""
    async with client_for(database_url) as client:
        r = await client.get("/rulesets/novus/odds", params={"attack_bonus": "5", "defence": "17"})
        assert r.status_code == 200, r.text
        odds = r.json()
        assert abs(odds["hit"]["chance"] - 0.45) <= odds["bound"]["chance"] < 1e-8
        assert (odds["nova"]["numerator"], odds["nova"]["denominator"]) == (1, 50)
        assert odds["boon_points"][0]["boon_points"] == 0


RIDER = {**KAEL, "skills": [*KAEL["skills"], {"name": "Riding", "ranks": 4, "bonus": 6}]}
MIRA = {**KAEL, "stats": {**KAEL["stats"], "strength": {"value": 10, "bonus": 0}, "dexterity": {"value": 14, "bonus": 2}},
        "hit_points": 30, "skills": [{"name": "Bow", "ranks": 5, "bonus": 9}], "shield": "small", "armour": {"ar": 2},
        "weapons": [{"name": "Bow", "size": "small", "dr": 6, "kind": "missile", "range": 50, "skill": "Bow",
                     "stat": "dexterity"}]}


async def test_a_held_action_an_opportunity_attack_a_shot_into_melee_a_charge_and_end_of_round_attacks(
        database_url: str, conn: Any) -> None:
    """"perform his actions at any initiative point that he desires, so long as it is lower"; "Opportunity
    Attacks are triggered by a potential foe entering or crossing a character's Control Zone"; "If it
    misses, then all other potential targets within 5' of the path of the attack must make a Saving Throw
    vs. Spd"; "the attack will deal an extra 30 hit points of damage"; "any remaining attack rolls are
    made at the end of the round"."""
    async with client_for(database_url) as client:
        r = await client.post("/encounters", json={"ruleset": "novus", "name": "The bridge", "dice_policy": "reported"})
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"

        async def gm(body: dict[str, Any]) -> list[dict[str, Any]]:
            return (await command(client, enc, body))["events"]

        for cid, who, sheet in (("kael", "player", RIDER), ("orc", "gm", ORC), ("mira", "player", MIRA)):
            await gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(), "controller": who,
                      "side": "enemies" if who == "gm" else "party", "sheet": sheet})
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3, 2, 3]})  # Kael 14, the Orc 8, Mira 5
        await gm({"type": "NovusSetHaste", "combatant_id": "mira"})  # 10 AP
        await gm({"type": "StartEncounter"})
        tokens = {cid: await mint(client, enc, "player", [cid]) for cid in ("kael", "mira")}

        async def player(cid: str, body: dict[str, Any]) -> list[str]:
            out = await command(client, enc, {"combatant_id": cid, **body}, **tokens[cid])
            return [e["type"] for e in out["events"]]

        shot = {"kind": "attack", "target": "orc", "weapon": "Bow", "into_melee": True, "near": ["kael"]}
        await player("mira", {"type": "NovusDeclare", "actions": [shot, shot]})
        await gm({"type": "NovusDeclare", "combatant_id": "orc", "actions": [
            {"kind": "run", "through": ["mira"]}, {"kind": "attack", "target": "kael", "weapon": "Dagger"}]})
        assert await player("kael", {"type": "NovusHold"}) == ["NovusActionHeld"]  # before declaring: free
        assert await player("kael", {"type": "NovusResolve"}) == ["NovusActionsResolved"]
        await player("kael", {"type": "EndTurn"})
        # Kael's held attack, at a lower IP (before the Orc's): 10 + 7 = 17 against 16
        held = await player("kael", {"type": "NovusActHeld", "dice": [5, 5],
                                     "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        assert held == ["NovusHeldActionsTaken", "NovusAttackRolled", "NovusDamaged"]
        # the Orc runs by Mira: she may make an Opportunity Attack (Brawling: she has no melee weapon)
        assert [e["type"] for e in await gm({"type": "NovusResolve", "combatant_id": "orc"})] == [
            "NovusActionTaken", "ReactionsOpened"]
        window = (await client.get(f"/encounters/{enc}")).json()["rules"]["window"]["id"]
        oa = await player("mira", {"type": "React", "window": window, "reaction": "opportunity attack",
                                   "dice": [6, 6, 5, 4]})
        assert oa == ["NovusAttackRolled", "NovusAttackRolled", "NovusActionsResolved"]  # hers, then the Orc's dagger
        await gm({"type": "EndTurn", "combatant_id": "orc"})
        # her other shot, into the melee: 6 + 9 - 2 = 13 misses; Kael, near its path, fails his save 10 vs 13
        assert await player("mira", {"type": "NovusResolve", "dice": [3, 3]}) == ["NovusAttackRolled"]
        saved = await player("kael", {"type": "NovusRollStraySave", "dice": [2, 3]})
        assert saved == ["NovusStraySaveRolled", "NovusDamaged", "NovusActionsResolved"]
        await player("mira", {"type": "EndTurn"})

        # round 2: Kael charges, mounted; Mira's second shot waits for the end of the round
        await gm({"type": "NovusSetMounted", "combatant_id": "kael", "trained": True})
        plain = {"kind": "attack", "target": "orc", "weapon": "Bow"}
        await player("mira", {"type": "NovusDeclare", "actions": [plain, plain]})
        await gm({"type": "NovusDeclare", "combatant_id": "orc",
                  "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        await player("kael", {"type": "NovusDeclare", "actions": [
            {"kind": "mounted_charge", "target": "orc", "weapon": "Broadsword", "pace": 2}]})
        charge = await command(client, enc, {"type": "NovusResolve", "combatant_id": "kael", "dice": [7, 7, 6, 5]},
                               **tokens["kael"])
        assert [e["type"] for e in charge["events"]] == ["NovusRidingRolled", "NovusAttackRolled", "NovusDamaged",
                                                         "NovusActionsResolved"]
        assert charge["events"][1]["data"]["charge_damage"] == 30 and charge["events"][1]["data"]["damage"] == 38
        # the Orc is helpless: his turn passes with Kael's end of turn (N22: he "can do nothing")
        passed = await player("kael", {"type": "EndTurn"})
        assert passed == ["TurnEnded", "NovusActionsResolved", "TurnEnded"], passed
        assert await player("mira", {"type": "NovusResolve", "dice": [4, 4]}) == [
            "NovusAttackRolled", "NovusDamaged", "NovusActionsResolved"]
        refused = await command(client, enc, {"type": "EndTurn", "combatant_id": "mira"}, expect=422, **tokens["mira"])
        assert refused["code"] == "novus_end_of_round_attacks"
        assert await player("mira", {"type": "NovusResolve", "dice": [2, 2]}) == [
            "NovusAttackRolled", "NovusDamaged", "NovusLateAttacksResolved"]
        await player("mira", {"type": "EndTurn"})
        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["round"] == 3 and state["rules"]["hits_lost"] == {"orc": 8 + 38 + 11 + 7, "kael": 7}

        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "Kael acts on the held actions: an attack on the Orc with Broadsword (4 AP)." in told
        assert "Mira's Opportunity Attack on the Orc with Brawling" in told
        assert "Kael, near the path of Mira's missed shot, saves vs Spd" in told
        assert "Mira's remaining attacks are made." in told

        rows = await conn.fetch("SELECT type, schema_version, data::text AS data FROM events "
                                "WHERE encounter_id = $1 ORDER BY version", uuid.UUID(enc))
        replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
        assert msgspec.json.decode(msgspec.json.encode(state_for(replayed, GM))) == state
