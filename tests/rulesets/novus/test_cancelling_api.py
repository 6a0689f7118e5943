"""Cancelling while others still declare, through the server with reported dice: "During a round, an
action declared by a character may be canceled at any time prior to its resolution ... The new action is
performed at the time that the old action was canceled"."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC
from tests.rulesets.novus.http import kael_and_orc


async def test_a_declared_action_is_cancelled_while_others_still_declare(database_url: str) -> None:
    """The Orc (IP 8) declares first and cancels into a Dodge while Kael (IP 14) has yet to declare: the
    Dodge is performed at once (DEF +3 for the round); Kael, who has declared nothing, has nothing to cancel."""
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "The ford", KAEL, ORC)
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3]})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])

        async def kael(body: dict[str, Any], expect: int = 200) -> Any:
            return await command(client, enc, {"combatant_id": "kael", **body}, expect=expect, **player)

        await gm({"type": "NovusDeclare", "combatant_id": "orc",
                  "actions": [{"kind": "attack", "target": "kael", "weapon": "Axe"}]})
        refused = await kael({"type": "NovusCancel", "instead": []}, expect=422)
        assert refused["code"] == "novus_nothing_declared" and "has not declared" in refused["detail"]
        # the GM looks for it where it is offered: the Orc's cancel, now, into a Dodge
        offered = (await client.get(f"/encounters/{enc}/actions")).json()["actions"]
        [dodge] = [a for a in offered if a["label"].startswith("Cancel, and instead: Dodge")
                   and a.get("combatant_id") == "orc"]
        out = await gm(dodge["command"])
        assert [e["type"] for e in out["events"]] == ["NovusActionsCancelled", "NovusActionTaken"]
        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["rules"]["declared"]["orc"]["cancelled"] and state["rules"]["resolved"] == []
        again = await gm({"type": "NovusCancel", "combatant_id": "orc", "instead": []}, expect=422)
        assert again["code"] == "novus_not_now"
        await kael({"type": "NovusDeclare", "actions": [{"kind": "attack", "target": "orc", "weapon": "Broadsword"}]})
        # 6 + 5 + 7 = 18 against the Orc's DEF 16 + 3 (the Dodge, for the whole round): a miss
        out = await kael({"type": "NovusResolve", "dice": [6, 5]})
        rolled = out["events"][0]["data"]
        assert rolled["hit"] is False
        await kael({"type": "EndTurn"})
        out = await gm({"type": "NovusResolve", "combatant_id": "orc"})  # nothing left at its IP
        assert [e["type"] for e in out["events"]] == ["NovusActionsResolved"]
        await gm({"type": "EndTurn", "combatant_id": "orc"})
        assert (await client.get(f"/encounters/{enc}")).json()["round"] == 2
