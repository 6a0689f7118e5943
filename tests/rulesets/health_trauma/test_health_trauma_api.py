"""A Health/Trauma fight through the server against PostgreSQL, with reported dice: the GM sets
the encounter's data, a character is cut down, rolls the injury the fight waits for, takes Trauma
while dying and dies of it; the log tells it in the game's words, the statistics count it, and
the odds route answers."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

import httpx

from tests.integration.app_client import app_client
from tests.integration.fight import command, mint
from tests.integration.read_models import until_projected

MIRA = {"physique": 1, "combat_skill": 5, "guard": 3, "protection": 1,
        "weapons": [{"name": "Sword", "damage_dice": 1, "damage_sides": 6}]}
BANDIT = {"physique": 0, "combat_skill": 3, "guard": 2, "weapons": [{"name": "Club"}]}


def client_for(database_url: str) -> AbstractAsyncContextManager[httpx.AsyncClient]:
    return app_client(database_url)  # the default registry serves health-trauma


async def test_a_character_dies_of_trauma_taken_while_dying(database_url: str) -> None:
    async with client_for(database_url) as client:
        ruleset = (await client.get("/rulesets/health-trauma")).json()
        assert any(row["heading"] == "Dying" for row in ruleset["coverage"])
        r = await client.post("/encounters", json={"ruleset": "health-trauma", "name": "At the mill",
                                                   "dice_policy": "reported"})
        assert r.status_code == 201, r.text
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        # the GM's data: a fixed Guard (no defence die), the default chart and Reactions
        await command(client, enc, {"type": "SetHealthTraumaRules", "data": {"defence_die": 0}})
        for cid, controller, sheet in (("mira", "player", MIRA), ("bandit", "gm", BANDIT)):
            await command(client, enc, {"type": "AddCombatant", "combatant_id": cid, "name": cid.title(),
                                        "side": "party" if controller == "player" else "enemies",
                                        "controller": controller, "sheet": sheet})
        await command(client, enc, {"type": "RollInitiative", "dice": [15, 3]})
        started = await command(client, enc, {"type": "StartEncounter"})
        assert started["state"]["combatants"]["mira"]["resources"] == {
            "turn quarters": 4, "quick action": 1, "reaction": 1}
        mira = await mint(client, enc, "player", ["mira"])

        # out of range: refused in words a player understands
        r = await client.post(f"/encounters/{enc}/commands", headers=mira,
                              json={"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "distance": 3})
        assert r.status_code == 422 and r.json()["code"] == "ht_out_of_range", r.text

        # the attack waits for the Bandit's Reaction; the GM passes for them
        opened = (await client.post(f"/encounters/{enc}/commands", headers=mira,
                                    json={"type": "HTAttack", "combatant_id": "mira", "target": "bandit"})).json()
        window = opened["events"][-1]["data"]["window"]["id"]
        passed = await command(client, enc, {"type": "PassReaction", "combatant_id": "bandit", "window": window,
                                             "dice": [12, 6]})  # 12 + 5 = 17 > Guard 2; 6 damage
        assert [e["type"] for e in passed["events"]] == ["ReactionPassed", "HTAttackRolled", "HTHarmed"]
        assert passed["events"][-1]["data"] == {"type": "HTHarmed", "combatant_id": "bandit", "damage": 6, "health": -1,
                                                "cause": "attack", "trauma": 0, "dying": True}
        r = await client.post(f"/encounters/{enc}/commands", headers=mira,
                              json={"type": "EndTurn", "combatant_id": "mira"})
        assert r.status_code == 422 and r.json()["code"] == "ht_injury_due", r.text
        injured = await command(client, enc, {"type": "HTRollInjury", "combatant_id": "bandit", "dice": [5]})
        assert injured["events"][0]["data"]["result"] == "sliced_muscle"

        # round's end: one point of damage while dying, one Trauma
        r = await client.post(f"/encounters/{enc}/commands", headers=mira,
                              json={"type": "EndTurn", "combatant_id": "mira"})
        assert r.status_code == 200, r.text
        ended = await command(client, enc, {"type": "EndTurn", "combatant_id": "bandit"})
        assert [e["type"] for e in ended["events"]] == ["TurnEnded", "HTHarmed", "RoundStarted"]
        assert ended["state"]["rules"]["bodies"]["bandit"]["trauma"] == 1

        # damage taken while dying is Trauma: 4 more reach the Bandit's maximum Health of 5
        # (the Bandit's Reaction came back at the end of their turn: the GM passes again)
        r = await client.post(f"/encounters/{enc}/commands", headers=mira,
                              json={"type": "HTAttack", "combatant_id": "mira", "target": "bandit"})
        window = r.json()["events"][-1]["data"]["window"]["id"]
        died = await command(client, enc, {"type": "PassReaction", "combatant_id": "bandit", "window": window,
                                           "dice": [10, 4]})
        assert [e["type"] for e in died["events"]] == ["ReactionPassed", "HTAttackRolled", "HTHarmed", "HTDied"]
        r = await client.post(f"/encounters/{enc}/commands",
                              json={"type": "HTHeal", "combatant_id": "bandit", "amount": 5})
        assert r.status_code == 422 and r.json()["code"] == "ht_dead", r.text

        text = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "The Bandit takes 6 damage: health -1. At or below 0: dying, and an injury is due." in text
        assert "The Bandit has taken Trauma equal to their maximum Health, and is dead." in text
        await until_projected(client, enc, dict(client.headers))
        stats = (await client.get(f"/encounters/{enc}/statistics")).json()
        mira_row = next(c for c in stats["combatants"] if c["combatant_id"] == "mira")
        # two attacks made and landed, 6 + 4 damage dealt
        assert (mira_row["attacks_made"], mira_row["attacks_landed"], mira_row["hits_dealt"]) == (2, 2, 10)

        odds = (await client.get("/rulesets/health-trauma/odds",
                                 params={"combat_skill": 5, "guard": 8, "defence_die": 0})).json()
        assert (odds["numerator"], odds["denominator"]) == (17, 20)  # 1D20 + 5 above 8: faces 4 to 20
