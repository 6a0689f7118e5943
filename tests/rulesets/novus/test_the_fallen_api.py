"""The dead and the helpless through the server, with reported dice. N22: "At 0 to -10 hit points a
character is helpless and can do nothing but try to stabilise himself with First Aid (TN 25)"; the dead
(past the GM's ``death_below``, U-N4) do nothing at all."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC
from tests.rulesets.novus.http import kael_and_orc


async def test_the_helpless_only_roll_first_aid_on_themselves_and_the_dead_do_nothing(database_url: str) -> None:
    """"helpless and can do nothing but try to stabilise himself with First Aid": a helpless Orc may
    not hold, cancel nor roll Perception, but may roll First Aid; a dead Kael rolls nothing and holds nothing."""
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "The fallen", KAEL, ORC)
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3]})  # Kael 14, the Orc 8: the Orc declares first
        await gm({"type": "SetNovusRules", "data": {"death_below": -10}})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])

        async def kael(body: dict[str, Any], expect: int = 200) -> Any:
            return await command(client, enc, {"combatant_id": "kael", **body}, expect=expect, **player)

        async def orc(body: dict[str, Any], expect: int = 200) -> Any:
            return await gm({"combatant_id": "orc", **body}, expect=expect)

        await orc({"type": "NovusDeclare", "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        await gm({"type": "NovusHarm", "combatant_id": "orc", "amount": 30})  # 0 Hit Points: helpless
        for body in ({"type": "NovusHold"}, {"type": "NovusCancel", "instead": []},
                     {"type": "NovusRollSkill", "skill": "Perception", "tn": 15, "dice": [5, 5]}):
            refused = await orc(body, expect=422)
            assert refused["code"] == "novus_cannot_act", body
            assert "can do nothing but try to stabilise himself with First Aid" in refused["detail"]
        out = await orc({"type": "NovusRollSkill", "skill": "First Aid", "tn": 25, "dice": [9, 9]})
        assert [e["type"] for e in out["events"]] == ["NovusSkillRolled"]
        # what is offered to the helpless Orc: his First Aid, no Hold, no Cancel
        offered = (await client.get(f"/encounters/{enc}/actions")).json()
        orcs = [a["command"]["type"] for a in offered["actions"] if a.get("combatant_id") == "orc"]
        assert "NovusRollSkill" in orcs and "NovusHold" not in orcs and "NovusCancel" not in orcs

        await kael({"type": "NovusDeclare", "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        await gm({"type": "NovusHarm", "combatant_id": "kael", "amount": 51})  # 40 - 51 = -11: dead
        assert (await client.get(f"/encounters/{enc}")).json()["rules"]["dead"] == ["kael"]
        for body in ({"type": "NovusHold"}, {"type": "NovusRollSkill", "skill": "First Aid", "tn": 25, "dice": [9, 9]},
                     {"type": "NovusRollSave", "stat": "constitution", "dice": [9, 9]}):
            refused = await kael(body, expect=422)
            assert refused["code"] == "novus_cannot_act" and "the dead do nothing" in refused["detail"], body
