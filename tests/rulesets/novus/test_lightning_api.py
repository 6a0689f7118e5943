"""Lightning Attack on another foe, through the server (novus-gaps N15: "2 BP: Lightning Attack: a second
attack on the same or another foe within range and sight"). Range and sight are the table's: the engine
keeps no positions, so the player is offered each foe he can see, and a hidden one is never named."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC
from tests.rulesets.novus.http import kael_and_orc

TWO_BP = [10, 8, 10, 2]  # 10 explodes: 30 + AB 7 = 37, 21 over DEF 16: 2 Boon Points


async def test_lightning_attack_strikes_another_foe_the_player_sees(database_url: str) -> None:
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "Two orcs and a lurker", KAEL, ORC)
        await gm({"type": "AddCombatant", "combatant_id": "grub", "name": "Grub", "controller": "gm",
                  "side": "enemies", "sheet": ORC})
        await gm({"type": "AddCombatant", "combatant_id": "lurker", "name": "Lurker", "controller": "gm",
                  "side": "enemies", "sheet": ORC, "hidden": True})
        # Kael 9 + 5 = 14, the Orc 4 + 3 + 1 = 8, Grub 3 + 2 + 1 = 6, the Lurker 2 + 2 + 1 = 5
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3, 3, 2, 2, 2]})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])
        for npc in ("lurker", "grub", "orc"):
            await gm({"type": "NovusDeclare", "combatant_id": npc, "actions": [{"kind": "move"}]})
        r = await client.post(f"/encounters/{enc}/commands", headers=player, json={
            "type": "NovusDeclare", "combatant_id": "kael",
            "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        assert r.status_code == 200, r.text
        r = await client.post(f"/encounters/{enc}/commands", headers=player,
                              json={"type": "NovusResolve", "combatant_id": "kael", "dice": TWO_BP})
        assert r.status_code == 200, r.text

        moves: dict[str, Any] = (await client.get(f"/encounters/{enc}/actions", headers=player)).json()
        boons = [a for a in moves["actions"] if a["command"]["type"] == "NovusSpendBoons"]
        on = {a["command"].get("lightning_target"): a for a in boons if "Lightning Attack" in a["command"]["boons"]}
        assert set(on) == {None, "grub"}  # the same foe, or Grub; never the Lurker the table does not see
        assert "lurker" not in str(moves) and "Lurker" not in str(moves)
        offered = on["grub"]
        assert offered["label"] == "Lightning Attack on Grub"
        r = await client.post(f"/encounters/{enc}/commands", headers=player,
                              json={**offered["command"], "dice": [5, 5]})  # 10 + 7 = 17 against DEF 16
        assert r.status_code == 200, r.text
        [second] = [e["data"] for e in r.json()["events"] if e["type"] == "NovusAttackRolled"]
        assert (second["target"], second["lightning"], second["hit"]) == ("grub", True, True)
        harmed = [e["data"]["combatant_id"] for e in r.json()["events"] if e["type"] == "NovusDamaged"]
        assert harmed == ["orc", "grub"]  # the first attack's damage, then the second's


async def test_lightning_attack_is_refused_on_a_friend_and_a_hidden_foe_is_unknown(database_url: str) -> None:
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "A lurker", KAEL, ORC)
        await gm({"type": "AddCombatant", "combatant_id": "lurker", "name": "Lurker", "controller": "gm",
                  "side": "enemies", "sheet": ORC, "hidden": True})
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3, 2, 2]})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])
        for npc in ("lurker", "orc"):
            await gm({"type": "NovusDeclare", "combatant_id": npc, "actions": [{"kind": "move"}]})
        for body in ({"type": "NovusDeclare", "combatant_id": "kael",
                      "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]},
                     {"type": "NovusResolve", "combatant_id": "kael", "dice": TWO_BP}):
            r = await client.post(f"/encounters/{enc}/commands", headers=player, json=body)
            assert r.status_code == 200, r.text
        spend = {"type": "NovusSpendBoons", "combatant_id": "kael", "boons": ["Lightning Attack"], "dice": [5, 5]}
        r = await client.post(f"/encounters/{enc}/commands", headers=player, json={**spend, "lightning_target": "kael"})
        assert r.status_code == 422 and r.json()["code"] == "novus_not_a_target", r.text
        hidden = await client.post(f"/encounters/{enc}/commands", headers=player,
                                   json={**spend, "lightning_target": "lurker"})
        unknown = await client.post(f"/encounters/{enc}/commands", headers=player,
                                    json={**spend, "lightning_target": "nobody"})
        assert (hidden.status_code, hidden.json()["code"]) == (unknown.status_code, unknown.json()["code"])
        assert hidden.json()["detail"].replace("lurker", "nobody") == unknown.json()["detail"]
        r = await client.post(f"/encounters/{enc}/commands", headers=player,
                              json={**spend, "boons": [], "dice": [], "lightning_target": "orc"})  # the same foe: nothing to name
        assert r.status_code == 200, r.text
