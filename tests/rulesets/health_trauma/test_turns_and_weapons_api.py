"""Health/Trauma's turns and readied weapons through the server with reported dice (issue 39):
Initiative Tests before Combat begins, the order descending with ties the GM's, an attack with the
readied weapon only and "Draw a weapon" offered to ready another, and the dead skipped."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.health_trauma.test_health_trauma_fights_api import Fight, types

MIRA = {"physique": 1, "combat_skill": 5, "guard": 3, "protection": 1,
        "weapons": [{"name": "Sword", "damage_dice": 1, "damage_sides": 6},
                    {"name": "Bow", "damage_dice": 1, "damage_sides": 6, "range": 10}]}
BANDIT = {"physique": 0, "combat_skill": 3, "guard": 2, "weapons": [{"name": "Club"}]}
DRAW = "Draw a weapon: the Bow, a Quick Action (1 quick action)"


async def labels(f: Fight) -> dict[str, dict[str, Any]]:
    r = await f.client.get(f"/encounters/{f.enc}/actions", headers=f.player)
    assert r.status_code == 200, r.text
    return {a["label"]: a for a in r.json()["actions"]}


async def test_initiative_turn_order_readied_weapons_and_the_dead_over_http(database_url: str, conn: Any) -> None:
    """"Each participant in Combat will make an Initiative Test before Combat begins." "These
    results will be placed in descending order to Track who acts when." "First, you must be in
    range of your target. This is either in base to base contact with the target or within your
    readied weapons listed Range or Reach." "The character is dead.\""""
    async with client_for(database_url) as client:
        f = await Fight(client).opened()
        await f.gm({"type": "SetHealthTraumaRules", "data": {"defence_die": 0, "reactions": []}})
        for cid, side, controller, sheet in (("mira", "party", "player", MIRA), ("bandit", "enemies", "gm", BANDIT),
                                             ("raider", "enemies", "gm", BANDIT)):
            await f.gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(), "side": side,
                        "controller": controller, "sheet": sheet})
        f.player = await mint(client, f.enc, "player", ["mira"])
        rolled = await f.gm({"type": "RollInitiative", "dice": [12, 15, 12]})  # Mira and the Raider tied at 12
        assert rolled["state"]["order"] == ["bandit", "mira", "raider"]
        r = await client.post(f"/encounters/{f.enc}/commands",
                              json={"type": "SetTurnOrder", "order": ["mira", "bandit", "raider"]})
        assert r.status_code == 422 and r.json()["code"] == "ht_initiative_order", r.text
        assert r.json()["detail"].startswith("Mira cannot act before the Bandit")
        ordered = await f.gm({"type": "SetTurnOrder", "order": ["bandit", "raider", "mira"]})  # the tie: the GM's
        assert ordered["state"]["order"] == ["bandit", "raider", "mira"]
        await f.gm({"type": "StartEncounter"})
        late = await f.mira({"type": "HTRollInitiativeTest", "combatant_id": "mira", "dice": [20]}, expect=422)
        assert late["code"] == "ht_combat_begun"
        await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
        await f.gm({"type": "EndTurn", "combatant_id": "raider"})

        offered = await labels(f)  # Mira's turn: the Sword is readied; the Bow is to be drawn
        assert "Attack the Bandit with the Sword (2 turn quarters)" in offered
        assert not any("with the Bow" in label for label in offered) and DRAW in offered
        unready = await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "weapon": "Bow",
                                "distance": 8}, expect=422)
        assert unready["code"] == "ht_not_readied" and "draw it first" in unready["detail"]
        drawn = await f.mira(offered[DRAW]["command"])
        assert drawn["events"][0]["data"]["weapon"] == "Bow"
        assert (await f.sheet("mira", f.player))["readied"] == "Bow"
        assert "Attack the Bandit with the Bow (2 turn quarters)" in await labels(f)
        await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "distance": 8,
                      "dice": [10, 5]})  # the Bandit at 0: dying
        await f.gm({"type": "HTRollInjury", "combatant_id": "bandit", "dice": [1]})
        await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "distance": 8,
                      "dice": [10, 5]})  # 5 Trauma: dead
        ended = await f.mira({"type": "EndTurn", "combatant_id": "mira"})
        # round 2 begins with the dead Bandit's turn, ended as it comes: the Raider's is next
        assert types(ended) == ["TurnEnded", "RoundStarted", "TurnEnded"]
        assert (ended["state"]["round"], ended["state"]["turn"]) == (2, "raider")
        told = (await client.get(f"/encounters/{f.enc}/log", params={"format": "text"})).text
        assert "Mira takes the Draw a weapon action (a Quick Action): the Bow is readied." in told
        await f.assert_replays(conn)
