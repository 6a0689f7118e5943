"""Holding an Action at someone else's Initiative Point: "Should the player want his character to perform
his actions in the initiative point as somebody else (PC or NPC), the GM should Opposed Saving Throws to
determine which goes first." (novus-gaps 1.8 item 13, U-N7: ours, both save and the higher total wins)."""

from __future__ import annotations

from typing import Any

from domain.novus.data import NovusData
from domain.novus.events import Hold, SetNovusRules
from domain.novus.holding import RollOpposedSave
from tests.rulesets.novus.fight import Fight, attack, started, types


def _holding() -> Fight:
    """Kael (IP 14) holds before declaring; the Orc (IP 8, Spd bonus +1) declares an attack on him."""
    f = started()
    f.declare("orc", attack("kael", "Axe"))
    f.send(Hold(combatant_id="kael"))
    f.resolve("kael")
    f.end_turn("kael")
    return f


def _act_held(f: Fight, dice: list[int] | None = None, **at: Any) -> list[str]:
    return types(f.command({"type": "NovusActHeld", "combatant_id": "kael", "dice": dice,
                            "actions": [attack("orc", "Broadsword")], **at}))


def test_at_anothers_ip_the_fight_waits_for_both_opposed_saves_and_the_holder_winning_goes_first() -> None:
    """"the GM should Opposed Saving Throws to determine which goes first": both roll 2d10 + the Spd
    bonus + 5 (the GM's stat, ours Spd); the higher total goes first."""
    f = _holding()
    assert _act_held(f, [], at="orc") == ["NovusHeldActionsTaken"]  # reported dice: each side rolls
    waits = {d.combatant_id: d.kind for d in f.ruleset.pending(f.state)}
    assert waits == {"kael": "opposed_save", "orc": "opposed_save"}
    assert f.refused(_resolve("orc")).code == "novus_opposed_saves_due"
    [kael] = f.send(RollOpposedSave(combatant_id="kael", dice=[6, 6]))  # 12 + 0 + 5 = 17
    assert (kael.total, kael.winner, f.ap("kael")) == (17, None, 1)
    assert f.refused(RollOpposedSave(combatant_id="kael", dice=[6, 6])).code == "novus_no_opposed_save"
    # the Orc's 2 + 3 + 1 + 5 = 11: Kael goes first, his attack (5 + 5 + 7 = 17 vs DEF 16) at once
    out = f.send(RollOpposedSave(combatant_id="orc", dice=[2, 3, 5, 5]))
    assert types(out) == ["NovusOpposedSaveRolled", "NovusAttackRolled", "NovusDamaged"]
    assert out[0].winner == "kael" and f.rules.contest is None and f.hp("orc") == 30 - (9 + 1 - 2)
    assert types(f.resolve("orc", [2, 2])) == ["NovusAttackRolled", "NovusActionsResolved"]  # then the Orc


def test_the_other_winning_resolves_first_and_the_held_actions_follow() -> None:
    """"to determine which goes first": the Orc's save is higher, so his attack resolves, then Kael's."""
    f = _holding()
    _act_held(f, [], ip=8)  # the IP named: the Orc's
    f.send(RollOpposedSave(combatant_id="orc", dice=[6, 6]))  # 18
    [kael] = f.send(RollOpposedSave(combatant_id="kael", dice=[2, 2]))  # 9
    assert kael.winner == "orc" and f.rules.contest is not None and not f.rules.contest.waiting
    out = f.resolve("orc", [2, 2, 5, 5])  # the Orc misses (4 + 5 = 9), then Kael's held attack
    assert types(out) == ["NovusAttackRolled", "NovusActionsResolved", "NovusHeldActionsDue", "NovusAttackRolled",
                          "NovusDamaged"]
    assert f.rules.contest is None and out[3].combatant_id == "kael"
    f.end_turn("orc")
    assert f.state.round == 2


def test_the_saves_stat_and_the_tie_rule_are_the_gms() -> None:
    """U-N7: "The opposed Saving Throw procedure ... not found": the stat (ours Spd) and what a tie does
    (ours: roll again) are GM settings."""
    f = _holding()
    _act_held(f, [], at="orc")
    f.send(RollOpposedSave(combatant_id="kael", dice=[6, 6]))  # 17
    out = f.send(RollOpposedSave(combatant_id="orc", dice=[5, 6]))  # 11 + 6 = 17: a tie, rolled again
    assert out[0].winner is None and f.rules.contest.saves == {}
    assert len(f.ruleset.pending(f.state)) == 2
    f.send(SetNovusRules(data=NovusData(held_save="wisdom", held_save_tie="other")))
    [kael] = f.send(RollOpposedSave(combatant_id="kael", dice=[6, 6]))
    assert (kael.stat, kael.bonus) == ("wisdom", 5)
    assert f.send(RollOpposedSave(combatant_id="orc", dice=[6, 6]))[0].winner == "orc"  # 17 each: the Orc's IP


def test_the_ip_held_to_is_lower_than_ones_own_and_not_past_the_next_to_resolve() -> None:
    """"at any initiative point that he desires, so long as it is lower than the initiative point rolled";
    an IP above the next one's acts at once, as before."""
    f = _holding()
    assert f.refused(_held("kael", ip=14)).code == "novus_not_now"  # his own
    assert f.refused(_held("kael", ip=7)).code == "novus_not_now"  # below the Orc's 8: not yet
    assert f.refused(_held("kael", at="kael")).code == "novus_not_now"
    assert _act_held(f, [5, 5], ip=10) == ["NovusHeldActionsTaken", "NovusAttackRolled", "NovusDamaged"]


def test_with_the_servers_dice_both_saves_are_rolled_at_once() -> None:
    """The dice policy rolls: the Opposed Saving Throws are made when the held actions are taken."""
    f = _holding()
    out = _act_held(f, at="orc")
    assert out[:3] == ["NovusHeldActionsTaken", "NovusOpposedSaveRolled", "NovusOpposedSaveRolled"]
    assert not f.rules.contest or not f.rules.contest.waiting


def _held(cid: str, **at: Any) -> object:
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusActHeld", "combatant_id": cid, "dice": [],
                            "actions": [attack("orc", "Broadsword")], **at}, Novus().command_type)


def _resolve(cid: str) -> object:
    from domain.novus.events import Resolve
    return Resolve(combatant_id=cid, dice=[2, 2])


def test_the_holder_leaving_the_fight_ends_the_wait() -> None:
    """The contest needs both: with the holder taken out of the fight, the Orc resolves (the one whose
    turn it is may not be taken out)."""
    from domain.core.encounter import RemoveCombatant
    f = _holding()
    _act_held(f, [], at="orc")
    assert f.refused(RemoveCombatant(combatant_id="orc")).code
    f.send(RemoveCombatant(combatant_id="kael"))
    kinds = [d.kind for d in f.ruleset.pending(f.state)]
    assert "resolve" in kinds and "opposed_save" not in kinds
    assert types(f.resolve("orc")) == ["NovusActionTaken", "NovusActionsResolved"]  # his target is gone
