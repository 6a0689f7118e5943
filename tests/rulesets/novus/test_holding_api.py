"""A round through the server against PostgreSQL, with reported dice, where a held action is taken at
the Orc's Initiative Point: "Should the player want his character to perform his actions in the
initiative point as somebody else (PC or NPC), the GM should Opposed Saving Throws to determine which
goes first."."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC


async def test_a_held_action_at_the_orcs_ip_waits_for_the_opposed_saves_and_the_winner_goes_first(
        database_url: str) -> None:
    async with client_for(database_url) as client:
        r = await client.post("/encounters", json={"ruleset": "novus", "name": "The gate", "dice_policy": "reported"})
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"

        async def gm(body: dict[str, Any], expect: int = 200) -> Any:
            return await command(client, enc, body, expect=expect)

        for cid, who, sheet in (("kael", "player", KAEL), ("orc", "gm", ORC)):
            await gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(), "controller": who,
                      "side": "enemies" if who == "gm" else "party", "sheet": sheet})
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3]})  # Kael 14, the Orc 8
        await gm({"type": "StartEncounter"})
        token = await mint(client, enc, "player", ["kael"])

        async def kael(body: dict[str, Any], expect: int = 200) -> Any:
            return await command(client, enc, {"combatant_id": "kael", **body}, expect=expect, **token)

        await gm({"type": "NovusDeclare", "combatant_id": "orc",
                  "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        await kael({"type": "NovusHold"})
        await kael({"type": "NovusResolve"})
        await kael({"type": "EndTurn"})
        out = await kael({"type": "NovusActHeld", "at": "orc",
                          "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        assert [e["type"] for e in out["events"]] == ["NovusHeldActionsTaken"]
        contest = (await client.get(f"/encounters/{enc}")).json()["rules"]["contest"]
        assert contest == {"holder": "kael", "other": "orc", "saves": {}, "winner": None}
        refused = await gm({"type": "NovusResolve", "combatant_id": "orc", "dice": [2, 2]}, expect=422)
        assert refused["code"] == "novus_opposed_saves_due"
        # Kael 2 + 2 + 5 = 9; the Orc 6 + 6 + 1 + 5 = 18: the Orc goes first, then Kael's held attack
        await kael({"type": "NovusRollOpposedSave", "dice": [2, 2]})
        out = await gm({"type": "NovusRollOpposedSave", "combatant_id": "orc", "dice": [6, 6]})
        assert out["events"][0]["data"]["winner"] == "orc"
        out = await gm({"type": "NovusResolve", "combatant_id": "orc", "dice": [2, 2, 5, 5]})
        assert [e["type"] for e in out["events"]] == [
            "NovusAttackRolled", "NovusActionsResolved", "NovusHeldActionsDue", "NovusAttackRolled", "NovusDamaged"]
        await gm({"type": "EndTurn", "combatant_id": "orc"})
        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["round"] == 2 and state["rules"]["hits_lost"] == {"orc": 9 + 1 - 2}
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "Kael acts on the held actions: an attack on the Orc with Broadsword (4 AP), at the Orc's" in told
        assert "The Orc rolls an Opposed Saving Throw vs speed against Kael: 6 6 = 12 + 6 = 18; the Orc goes first." \
            in told
