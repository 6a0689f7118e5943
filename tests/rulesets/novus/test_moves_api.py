"""A Novus round with Combat Moves through the server against PostgreSQL, with reported dice (novus-gaps
N18, N19): an unknown move refused as problem details naming the field, a Basic Disarm whose save fails
(the disarmed weapon on the sheet a player is shown) and an All Out Attack."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import ORC
from tests.rulesets.novus.http import kael_and_orc
from tests.rulesets.novus.test_moves import KAEL


async def test_a_round_with_combat_moves(database_url: str) -> None:
    """N18: "AB is a modifier to every roll made with that Combat Skill while using the move. DEF is a
    modifier to the user's DEF for the whole round"; N19: "Basic Disarm: BMA AP; on a hit the foe saves vs
    Str at TN 15 + 1 for every 5 points the roll beat DEF, or the weapon flies 1-10 ft"."""
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "The mill", KAEL, ORC)
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3]})  # Kael 14, the Orc 8
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])

        async def kael(body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
            return await command(client, enc, body, expect=expect, **player)

        rules = (await client.get("/rulesets/novus")).json()["coverage"]
        assert any(row["heading"] == "Combat Move Name (#)" and row["support"] == "enforced" for row in rules)
        await gm({"type": "NovusDeclare", "combatant_id": "orc", "actions": [
            {"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        bad = await kael({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
            {"kind": "attack", "target": "orc", "weapon": "Broadsword", "move": "Whirlwind"}]}, expect=422)
        assert bad["code"] == "novus_unknown_move" and bad["detail"].startswith("move:")
        await kael({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
            {"kind": "attack", "target": "orc", "weapon": "Broadsword", "move": "Basic Disarm"}]})
        # 18 + 7 = 25, 9 over the Orc's DEF 16: it saves 3 + 4 + 2 + 5 = 14 against TN 16 and fails; 7 ft
        out = await kael({"type": "NovusResolve", "combatant_id": "kael", "dice": [9, 9, 3, 4, 7]})
        types = [e["type"] for e in out["events"]]
        assert types == ["NovusAttackRolled", "NovusDisarmSaveRolled", "NovusActionsResolved"]
        assert out["events"][1]["data"]["passed"] is False and out["events"][1]["data"]["feet"] == 7
        seen = (await client.get(f"/encounters/{enc}", headers=player)).json()
        assert seen["combatants"]["orc"]["sheet"]["disarmed"] == ["Axe"]
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "the Axe flies 7 ft away" in told and "a Basic Disarm" in told
        await kael({"type": "EndTurn", "combatant_id": "kael"})
        out = await gm({"type": "NovusResolve", "combatant_id": "orc"})
        assert out["events"][0]["data"]["lapsed"] is True
        await gm({"type": "EndTurn", "combatant_id": "orc"})

        # round 2: the Orc picks its Axe up; Kael's All Out Attack with the Dagger: 5 AP, his DEF 14 all round
        await gm({"type": "NovusDeclare", "combatant_id": "orc", "actions": [
            {"kind": "gm_action", "name": "Pick up an item", "weapon": "Axe"}]})
        await kael({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
            {"kind": "attack", "target": "orc", "weapon": "Dagger", "move": "All Out Attack"}]})
        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["combatants"]["kael"]["resources"]["AP"] == 0
        out = await kael({"type": "NovusResolve", "combatant_id": "kael", "dice": [5, 5]})  # 10 + 7 + 2 = 19 vs 16
        rolled = out["events"][0]["data"]
        assert (rolled["move"], rolled["attack_bonus"], rolled["damage"]) == ("All Out Attack", 9, 9 + 3 - 2)
