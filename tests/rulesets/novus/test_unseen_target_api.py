"""A visible NPC declares against a combatant hidden from the table, through the server: DESIGN.md, "a player
learns nothing of a hidden combatant on any path". Novus: "Normally a character has only 5 Action Points to
use in a given round": were the table shown the Orc's AP spent on nothing it can see, it would learn that the
Orc acts against someone unseen."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC, sheet, stats
from tests.rulesets.novus.http import kael_and_orc


async def test_the_table_sees_no_ap_spent_on_a_hidden_target(database_url: str) -> None:
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "The hidden scout", KAEL, ORC)
        await gm({"type": "AddCombatant", "combatant_id": "scout", "name": "Scout", "controller": "gm",
                  "side": "party", "sheet": KAEL, "hidden": True})
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3, 2, 2]})  # Kael 14, the Orc 8, the Scout 4
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])
        spectator = await mint(client, enc, "spectator")
        await gm({"type": "NovusDeclare", "combatant_id": "scout", "actions": []})
        out = await gm({"type": "NovusDeclare", "combatant_id": "orc",
                        "actions": [{"kind": "move"}, {"kind": "attack", "target": "scout", "weapon": "Dagger"}]})
        assert out["events"][0]["data"]["ap"] == 1 and out["events"][0]["data"]["ap_on"] == {"scout": 3}
        state = (await client.get(f"/encounters/{enc}")).json()  # the GM: 1 + 3 AP spent
        assert state["combatants"]["orc"]["resources"]["AP"] == 1 and state["rules"]["declared"]["orc"]["ap"] == 4
        for who in (player, spectator):
            seen = (await client.get(f"/encounters/{enc}", headers=who)).json()
            orc: dict[str, Any] = seen["rules"]["declared"]["orc"]
            assert seen["combatants"]["orc"]["resources"]["AP"] == 4  # only the move's AP spent
            assert (orc["ap"], [a["kind"] for a in orc["actions"]], orc["unseen_ap"]) == (1, ["move"], {})
            events = (await client.get(f"/encounters/{enc}/events", headers=who)).json()
            [declared] = [e for e in events["events"] if e["type"] == "NovusActionsDeclared"
                          and e["data"].get("combatant_id") == "orc"]
            assert (declared["data"]["ap"], declared["data"]["ap_on"], len(declared["data"]["actions"])) == (1, {}, 1)
            told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"}, headers=who)).text
            assert "The Orc declares a move (1 AP)." in told and "Scout" not in told
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "The Orc declares a move and an attack on the Scout with Dagger (4 AP)." in told
        # cancelled into a Dodge: the refund the table is told of is the move's only
        out = await gm({"type": "NovusCancel", "combatant_id": "orc", "instead": [{"kind": "dodge"}]})
        assert out["events"][0]["data"]["refund"] == 1 and out["events"][0]["data"]["refund_on"] == {"scout": 3}
        events = (await client.get(f"/encounters/{enc}/events", headers=player)).json()["events"]
        [cancelled] = [e["data"] for e in events if e["type"] == "NovusActionsCancelled"]
        assert (cancelled["refund"], cancelled["refund_on"], cancelled["ap"]) == (1, {}, 3)
        seen = (await client.get(f"/encounters/{enc}", headers=player)).json()
        assert seen["combatants"]["orc"]["resources"]["AP"] == 4 + 1 - 3


def test_a_hold_after_declaring_against_a_hidden_target_refunds_apart() -> None:
    """"should the player decide to hold his character's action after he has already declared his actions,
    he will lose 1 AP": the AP that come back of an action at one hidden are apart (``refund_on``)."""
    from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
    from domain.novus.events import Hold
    from tests.rulesets.novus.fight import Fight, attack

    f = Fight()
    for cid, side, who, body, hidden in (("kael", "party", "player", KAEL, False), ("orc", "enemies", "gm", ORC, False),
                                         ("scout", "party", "gm", KAEL, True)):
        f.send(AddCombatant(combatant_id=cid, name=cid.title(), side=side, controller=who, sheet=body, hidden=hidden))
    f.send(RollInitiative(dice=[9, 5, 4, 3, 2, 2]))
    f.send(StartEncounter())
    f.declare("scout")
    f.declare("orc", {"kind": "move"}, attack("scout", "Dagger"))
    [held] = f.send(Hold(combatant_id="orc"))
    assert (held.refund, held.refund_on, held.lost) == (1, {"scout": 3}, 1) and f.ap("orc") == 4


async def test_attacks_from_high_skill_at_one_hidden_and_one_seen_show_only_the_one_seen(database_url: str) -> None:
    """"For every 10 points of total bonus a character has in a melee combat skill, he is allowed one additional
    attack. ... The remaining Attack Bonus is then divided between the individual attacks in whatever split the
    player desires": each attack is recorded on its own, with its share, so the table sees the attack on Kael
    (and the action's AP: it is an attack on Kael too) and neither the Scout's attack nor that there is one."""
    master = sheet(stats=stats(strength=2, speed=1), hit_points=30,
                   skills=[{"name": "Broadsword", "ranks": 14, "bonus": 22, "melee": True}])
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "The master's split", KAEL, master)
        await gm({"type": "AddCombatant", "combatant_id": "scout", "name": "Scout", "controller": "gm",
                  "side": "party", "sheet": KAEL, "hidden": True})
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3, 2, 2]})  # Kael 14, the Orc 8, the Scout 4
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])
        await gm({"type": "NovusDeclare", "combatant_id": "scout", "actions": []})
        # 22 - 4 (a second attack) - 2 (a second foe) = 16, split 9 on the Scout, 7 on Kael
        out = await gm({"type": "NovusDeclare", "combatant_id": "orc", "actions": [
            {"kind": "attack", "target": "scout", "weapon": "Broadsword", "more_targets": ["kael"], "split": [9, 7]}]})
        declared = out["events"][0]["data"]
        assert [(a["target"], a["share"]) for a in declared["actions"]] == [("scout", 9), ("kael", 7)]
        assert (declared["ap"], declared["ap_on"]) == (4, {})  # seen: an attack on Kael
        state = (await client.get(f"/encounters/{enc}")).json()
        assert [a["target"] for a in state["rules"]["declared"]["orc"]["actions"]] == ["scout", "kael"]
        seen = (await client.get(f"/encounters/{enc}", headers=player)).json()
        orc: dict[str, Any] = seen["rules"]["declared"]["orc"]
        assert [(a["target"], a["share"], a.get("split"), a.get("more_targets")) for a in orc["actions"]] == [
            ("kael", 7, None, None)]
        assert orc["ap"] == 4 and seen["combatants"]["orc"]["resources"]["AP"] == 1
        events = (await client.get(f"/encounters/{enc}/events", headers=player)).json()["events"]
        [told] = [e["data"] for e in events if e["type"] == "NovusActionsDeclared" and e["data"]["combatant_id"] == "orc"]
        assert [(a["target"], a.get("split"), a.get("more_targets")) for a in told["actions"]] == [("kael", None, None)]
        assert "scout" not in str(told) and "scout" not in str(orc)
        text = (await client.get(f"/encounters/{enc}/log", params={"format": "text"}, headers=player)).text
        assert "The Orc declares an attack on Kael with Broadsword (4 AP)." in text and "Scout" not in text


def test_ap_an_action_at_one_hidden_carries_into_the_next_round_are_not_seen_missing_there() -> None:
    """N11: "An action may run into the next round only if it also uses all of this round's AP": the next
    round has that much less. When the action was aimed at one hidden from the table, the table is shown
    that round's AP whole (the AP it takes are his), as in the round the action was declared."""
    from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
    from domain.novus.events import SetMounted
    from projections.visibility import Viewer, seen_by
    from tests.rulesets.novus.fight import Fight
    from tests.rulesets.novus.test_mounted import RIDER, charge

    f = Fight()
    for cid, side, who, body, hidden in (("kael", "party", "player", KAEL, False),
                                         ("orc", "enemies", "gm", RIDER, False), ("scout", "party", "gm", KAEL, True)):
        f.send(AddCombatant(combatant_id=cid, name=cid.title(), side=side, controller=who, sheet=body, hidden=hidden))
    f.send(RollInitiative(dice=[9, 5, 4, 3, 2, 2]))  # Kael 14, the Orc 8, the Scout 4
    f.send(StartEncounter())
    f.send(SetMounted(combatant_id="orc"))
    f.declare("scout")
    [declared] = f.declare("orc", charge("scout", "Broadsword"))  # 8 AP: 5 now, 3 of the next round
    assert (declared.ap, declared.carried, declared.ap_on, declared.carried_on) == (0, 0, {"scout": 5}, {"scout": 3})
    f.declare("kael", {"kind": "move"})
    player = Viewer("player", frozenset({"kael"}))
    assert seen_by(f.ruleset, f.state, player).combatants["orc"].resources["AP"] == 5
    for cid, dice in (("kael", None), ("orc", [9, 8, 5, 4]), ("scout", None)):  # the Orc: Riding, then the attack
        f.resolve(cid, dice)
        f.end_turn(cid)
    assert f.state.round == 2 and f.ap("orc") == 5 - 3  # the charge's AP this round took
    seen = seen_by(f.ruleset, f.state, player)
    assert seen.combatants["orc"].resources["AP"] == 5 and seen.rules.owed_unseen == {}
    assert seen.rules.carried_unseen == {} and f.rules.owed_unseen == {"orc": {"scout": 3}}
