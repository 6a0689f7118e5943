"""RealmsRPG's Stealth/Hide Action and detection, rule by rule."""

from __future__ import annotations

from domain.realms.events import Attack, AttackRolled, Detect, Detected, HidingRolled, StealthHide, TakeAction
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of, started

SNEAK = {**ARWEN, "skills": {"Stealth": 4, "Hide": 5}}


def test_hidden_from_creatures_whose_discernment_the_roll_surpasses() -> None:
    """"Make a Stealth or Hide Skill Roll, gaining +1 to the roll for each level of Obscurity you have
    from target creatures. If you're unobscured, the roll suffers a -4 penalty ... You are Hidden from
    creatures whose Discernment score you surpass with your Skill Roll"."""
    f = started(arwen=SNEAK)
    rolled = of(f.send(StealthHide(combatant_id="arwen", obscurity=2, dice=[5])), HidingRolled)
    assert (rolled.total, rolled.hidden_from, rolled.action_points) == (5 + 4 + 2, ["brigand"], 2)  # Discernment 10
    assert "hidden" in f.body("arwen").conditions
    g = started(arwen=SNEAK)
    plain = of(g.send(StealthHide(combatant_id="arwen", obscurity=0, dice=[10])), HidingRolled)
    assert (plain.total, plain.hidden_from) == (10 + 4 - 4, [])  # 10 does not surpass 10


def test_staying_hidden_costs_one_ap_at_the_end_of_each_later_turn() -> None:
    """"At the end of each turn (except the turn in which you first took this action), but before your
    Action Points are renewed, you must spend 1 Action Point to stay hidden"; "While hiding, you remain
    immobile"; switching "for the same cost ... you no longer need to spend an Action Point to remain
    hidden for that turn"."""
    f = started(arwen=SNEAK)
    f.send(StealthHide(combatant_id="arwen", mode="hide", obscurity=2, dice=[10]))
    assert not any(isinstance(e, HidingRolled) for e in f.end_turn("arwen"))  # the turn it was taken
    f.end_turn("brigand")
    assert f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=2)).code == "realms_hiding_immobile"
    upkeep = of(f.end_turn("arwen"), HidingRolled)
    assert upkeep.upkeep and upkeep.action_points == 1
    f.end_turn("brigand")
    f.send(StealthHide(combatant_id="arwen", switch=True))
    f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=2))  # Stealthing: she may move
    assert not any(isinstance(e, HidingRolled) for e in f.end_turn("arwen"))


def test_detection_and_the_bonus_after_an_attack() -> None:
    """"Targets can roll Perceive against your Stealth score"; "If you attack in a way that would reveal
    your location ... they gain a +3 bonus to their Perceive and Search rolls"; R2: "Detect 0 ... each
    further Detect in the same round costs 1 AP"; "If one or more targets successfully Detect you during
    your turn, you can still attempt to Stealth on that turn, spending 1 Action Point instead of 2"."""
    f = started(arwen=SNEAK)
    f.send(StealthHide(combatant_id="arwen", obscurity=2, dice=[10]))  # 16
    missed = of(f.send(Detect(combatant_id="brigand", target="arwen", dice=[10])), Detected)
    assert (missed.total, missed.found, missed.action_points) == (10, False, 0)
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(Attack(combatant_id="arwen", target="brigand"))
    rolled = of(f.pass_("brigand", dice=[8, 1]), AttackRolled)
    assert rolled.total == 8 + 5 + 2  # Hidden: "+2 to attack creatures unaware of it"
    found = of(f.send(Detect(combatant_id="brigand", target="arwen", dice=[13])), Detected)
    assert (found.bonus, found.total, found.found, found.action_points) == (3, 16, True, 0)  # a new round
    assert f.body("arwen").stealth is None and "hidden" not in f.body("arwen").conditions
    again = of(f.send(StealthHide(combatant_id="arwen", obscurity=1, dice=[10])), HidingRolled)
    assert again.action_points == 1
