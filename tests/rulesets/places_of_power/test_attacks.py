"""The Places of Power attack exchange (issue 5), rule by rule, through the decider with
reported dice. Each test quotes the rule it checks (places-of-power-combat.txt).

Fighters: Mira (player: Strength D10, Agility D8, Dexterity D8; Knife D8, Pistol D8, Athletics
D6, Brawling D6; a Knife and a Pistol; a Coat) and, unless a test says otherwise, the Bandit
(NPC: Strength D8, Agility D6; Knife D8, Athletics D6; a Knife; a Jerkin). Mira goes first
(initiative 12 against the GM's 1). Both start round 1 with 3 Action Points.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.dice import DieRoll, ReportedDice
from domain.core.encounter import AddCombatant, EndTurn, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.marks import SkillMarked
from domain.places_of_power.attacks import (
    LethalBlow,
    Attack,
    AttackDeclared,
    AttackRolled,
    BalanceRegained,
    ChooseCriticalEffect,
    Defend,
    DefenceRolled,
    Exchange,
    HitsTaken,
    KnockedProne,
    RegainBalance,
    ResolveMishap,
    SpendSuccesses,
)
from domain.places_of_power.harm import PENALTIES, penalty_points
from domain.places_of_power.hero_points import SpendHeroPoint
from domain.places_of_power.pull_your_punch import PullYourPunch
from domain.places_of_power.sheet import Condition
from tests.rulesets.places_of_power.fight import Fight, shown

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Close": {"difficulty": "Normal", "damage": 3}, "Near": {"difficulty": "Normal", "damage": 3},
                     "Far": {"difficulty": "Difficult", "damage": 2}}}
SHIELD = {"name": "Shield", "skill": "Brawling", "kind": "melee", "shield": True,
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
MIRA: dict[str, Any] = {
    "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Pistol": "D8", "Brawling": "D6"},
    "weapons": [KNIFE, PISTOL],
    "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}],
}
BANDIT: dict[str, Any] = {
    "attributes": {"strength": "D8", "agility": "D6"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Brawling": "D6"},
    "weapons": [KNIFE],
    "armour": [{"name": "Jerkin", "layer": "Base", "value": 1, "durability": 3}],
}


def fight(mira: dict[str, Any] | None = None, bandit: dict[str, Any] | None = None, *,
          bandit_player: bool = False, bandit_first: bool = False) -> Fight:
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=mira or MIRA))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="party" if bandit_player else "enemies",
                        controller="player" if bandit_player else "gm", sheet=bandit or BANDIT))
    f.roll([1, 12] if bandit_first else [12, 1])
    f.start()
    return f


def sheet_with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def attack(f: Fight, faces: list[int], kind: str = "LightMelee", weapon: str | None = "Knife", band: str = "Melee",
           who: str = "mira", target: str = "bandit", **extra: Any) -> list[Event]:
    return f.send(Attack(combatant_id=who, target=target, attack=kind, weapon=weapon, band=band, dice=faces,
                         **extra))


def ex(f: Fight) -> Exchange:
    found = shown(f.state).rules.exchange
    assert isinstance(found, Exchange)
    return found


def names(f: Fight) -> dict[str, int]:
    return {c.name: c.action_points for c in ex(f).choices}


def defend(f: Fight, defence: str, faces: list[int] | None = None, who: str = "bandit", **extra: Any) -> list[Event]:
    return f.send(Defend(combatant_id=who, attack=ex(f).id, defence=defence, dice=faces, **extra))


def refused(f: Fight, command: Any) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as caught:
        f.send(command)
    assert f.state == before
    return caught.value


def sides(event: Event) -> list[int]:
    assert isinstance(event, AttackRolled | DefenceRolled)
    return [d.sides for d in event.dice]


# ------------------------------------------------------------------ attack costs


@pytest.mark.parametrize(("kind", "weapon", "band", "modifiers", "cost"), [
    ("LightMelee", "Knife", "Melee", [], 1),  # "Light Melee Attack (1 AP)"
    ("HeavyMelee", "Knife", "Melee", [], 2),  # "Heavy Melee Attack (2 AP)"
    ("Ranged", "Pistol", "Near", [], 1),  # "Ranged Attack (1 AP)"
    ("LightMelee", "Knife", "Melee", ["TargetedHit"], 2),  # "Targeted Hit Melee (1 AP)"
    ("Ranged", "Pistol", "Near", ["TargetedHit"], 3),  # "Targeted Hit Ranged (2 AP)"
    ("LightMelee", "Knife", "Melee", ["Steady"], 2),  # "Steady (1 AP)"
    ("LightMelee", "Knife", "Melee", ["Knockdown"], 2),  # "Knockdown (1 AP)"
    ("HeavyMelee", "Knife", "Melee", ["Knockdown"], 3),
])
def test_attack_costs(kind: str, weapon: str, band: str, modifiers: list[str], cost: int) -> None:
    """"Light Melee Attack (1 AP)", "Heavy Melee Attack (2 AP)", "Ranged Attack (1 AP)",
    "Targeted Hit Melee (1 AP)", "Targeted Hit Ranged (2 AP)", "Steady (1 AP)", "Knockdown
    (1 AP)"."""
    f = fight()
    declared, rolled, *_ = attack(f, [1, 2], kind, weapon, band, modifiers=modifiers)
    assert isinstance(declared, AttackDeclared)
    assert declared.action_points == cost
    assert f.ap("mira") == 3 - cost


def test_an_attack_costing_more_than_is_left_is_refused() -> None:
    """"If you do not have enough Action Points to pay the cost of a given action then you
    cannot perform it." Ranged + Targeted Hit + Steady: 4 AP, with 3."""
    f = fight()
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="Ranged", weapon="Pistol", band="Near",
                          modifiers=["TargetedHit", "Steady"], dice=[1, 2]))
    assert e.code == "not_enough_action_points"


def test_steady_rolls_at_advantage() -> None:
    """"Steady (1 AP): You gain Advantage with the weapon you are using for this attack"
    (Advantage steps the lower die up: Strength D10 + Knife D8 -> D10 + D10)."""
    f = fight()
    _, rolled, *_ = attack(f, [1, 2])
    assert sides(rolled) == [10, 8]
    _, rolled, *_ = attack(f, [1, 2], modifiers=["Steady"])
    assert sides(rolled) == [10, 10]


# ---------------------------------------------------------------- heavy, reach, unarmed


def test_heavy_adds_a_hit_and_the_defence_rolls_at_advantage() -> None:
    """"Heavy Melee Attack (2 AP): ... Add 1 Hit to the base damage of which ever weapon you
    are using for this attack. Because this is a slower attack, opponents attempting to Parry
    or Evade a Heavy Melee Attack can roll at Advantage." """
    f = fight()
    declared, *_ = attack(f, [4, 6], "HeavyMelee")
    assert isinstance(declared, AttackDeclared) and declared.base_damage == 3
    assert ex(f).damage == 3
    # The Bandit's Parry: Strength D8 + Knife D8 -> D8 + D10 at Advantage.
    (parried,) = defend(f, "Parry", [1, 2])
    assert sides(parried) == [8, 10]
    f = fight(bandit_first=True)
    # The Bandit's Heavy attack on Mira: her Evade, Agility D8 + Athletics D6 -> D8 + D8.
    attack(f, [4, 6], "HeavyMelee", who="bandit", target="mira")
    (evaded,) = defend(f, "Evade", [1, 2], who="mira")
    assert sides(evaded) == [8, 8]


def test_a_light_attack_gives_no_advantage_to_the_defence() -> None:
    f = fight()
    attack(f, [4, 6])
    (parried,) = defend(f, "Parry", [1, 2])
    assert sides(parried) == [8, 8]


def test_a_weapon_that_cannot_reach_the_band_is_refused() -> None:
    """"The difficulty level you are rolling against is dictated by the type of weapon and the
    range you are attempting to use it at": a Knife has no Close entry; the Pistol has no
    Long one."""
    f = fight()
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                             band="Close", dice=[1, 2])).code == "out_of_range"
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="Ranged", weapon="Pistol",
                             band="Long", dice=[1, 2])).code == "out_of_range"
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Pistol",
                             band="Near", dice=[1, 2])).code == "wrong_weapon"
    assert f.ap("mira") == 3


def test_the_difficulty_comes_from_the_weapon_at_the_band() -> None:
    """Pistol: Normal at Near, Difficult at Far. "roll your Skill with the weapon you are
    using, plus ... Dexterity for ranged weapons"."""
    f = fight()
    declared, rolled, _ = attack(f, [5, 7], "Ranged", "Pistol", "Far")  # 12 < Difficult 13: a miss
    assert isinstance(declared, AttackDeclared) and declared.difficulty == "Difficult"
    assert isinstance(rolled, AttackRolled) and rolled.outcome == "Failure"
    assert sides(rolled) == [8, 8]
    # the dice name the rule they were rolled for and who rolled them, never a name off a sheet
    assert [d.purpose for d in rolled.dice] == [f"attack {declared.attack_id}: Dexterity",
                                                f"attack {declared.attack_id}: weapon skill"]
    assert [d.by for d in rolled.dice] == ["mira", "mira"]


def test_unarmed_has_base_damage_zero() -> None:
    """"Roll against your Brawling skill plus Strength. All Unarmed attacks have a base damage
    of zero. This means that you need to roll 1 difficulty level higher than the required
    value to hit in order to cause any damage." """
    f = fight()
    declared, rolled = attack(f, [4, 6], weapon=None)  # 10 at Normal: a hit, no extra Success
    assert isinstance(declared, AttackDeclared)
    assert (declared.weapon, declared.base_damage) == ("Unarmed", 0)
    assert sides(rolled) == [10, 6]  # Strength D10 + Brawling D6
    assert ex(f).damage == 0
    events = defend(f, "TakeIt")
    assert not any(isinstance(e, HitsTaken) for e in events)
    assert f.state.combatants["bandit"].sheet.hits == 0
    # 13: one level higher: one extra Success on Damage: 1 Hit.
    attack(f, [7, 6], weapon=None)
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage"]))
    assert ex(f).damage == 1
    defend(f, "TakeIt")
    assert f.state.combatants["bandit"].sheet.hits == 1


# ------------------------------------------------------------------- defences


def test_evade_and_parry_are_for_melee_only_and_dive_for_ranged_from_near() -> None:
    """"Evade (1 AP): You can only Evade Melee Attacks." "Parry (1 AP): You can only Parry
    Melee Attacks, and only if you have a weapon that can be used in melee in your hand."
    "Dive (2 AP): You can only use Dive on Ranged Attacks, and only if the attacker was at
    Near or greater range." Tank "only applies to Ranged Attacks if the attacker was at Near
    or greater range"."""
    f = fight()
    attack(f, [4, 6])
    assert names(f) == {"Evade": 1, "Parry": 1, "Tank": 2, "Armour": 0, "TakeIt": 0}
    f = fight()
    attack(f, [4, 6], "Ranged", "Pistol", "Close")
    assert names(f) == {"Armour": 0, "TakeIt": 0}
    assert refused(f, Defend(combatant_id="bandit", attack=ex(f).id, defence="Dive", dice=[1, 2])).code == \
        "defence_not_allowed"
    f = fight()
    attack(f, [4, 6], "Ranged", "Pistol", "Near")
    assert names(f) == {"Dive": 2, "Tank": 2, "Armour": 0, "TakeIt": 0}


def test_parry_needs_a_melee_weapon_in_hand() -> None:
    f = fight(bandit=sheet_with(BANDIT, weapons=[]))
    attack(f, [4, 6])
    assert "Parry" not in names(f)
    assert "Evade" in names(f)


@pytest.mark.parametrize(("faces", "success"), [([6, 6], True), ([1, 2], False)])
def test_dive_leaves_the_diver_prone_whatever_happens(faces: list[int], success: bool) -> None:
    """"Dive (2 AP): ... Roll Athletics + Agility ... Whether successful or not, the player is
    rendered Prone when attempting this move." (Pistol at Near: Normal.)"""
    f = fight()
    attack(f, [4, 6], "Ranged", "Pistol", "Near")
    dived, *rest = defend(f, "Dive", faces)
    assert isinstance(dived, DefenceRolled) and dived.success is success and dived.action_points == 2
    assert KnockedProne(combatant_id="bandit", reason="Dive") in rest
    # 6 + 6: a Critical Success: "mark the box next to the Skill you used" (Levelling Up Skills)
    assert (SkillMarked(combatant_id="bandit", skill="Athletics") in rest) is success
    assert f.state.combatants["bandit"].sheet.prone
    assert f.ap("bandit") == 1
    if success:
        assert f.state.rules.exchange is None
    else:  # after a failed Dive, only armour or taking it (Tank costs 2, 1 is left)
        assert names(f) == {"Armour": 0, "TakeIt": 0}


def test_tank_reduces_everything_to_one_unavoidable_hit() -> None:
    """"Tank (2 AP): ... No dice roll is required. All incoming damage is reduced down to a
    single, unavoidable Hit. You cannot use Armour to negate this final Hit." """
    f = fight()
    attack(f, [10, 6])  # 16: two extra Successes
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage", "Damage"]))
    assert ex(f).damage == 4
    tanked, hit, ended = defend(f, "Tank")
    assert isinstance(tanked, DefenceRolled) and tanked.dice == [] and tanked.action_points == 2
    assert isinstance(hit, HitsTaken) and hit.damage == 1
    b = f.state.combatants["bandit"]
    assert (b.sheet.hits, b.sheet.armour[0].durability, b.action_points) == (1, 3, 1)


def test_a_failed_active_defence_may_fall_back_to_armour_or_tank() -> None:
    """"Should the target attempt to actively defend themselves using one of the following
    methods, and fail to do so, then they can still choose to take the hit to their armour"
    "Tank is the only Defensive Action you can use if a previous Defensive Action fails." """
    f = fight()
    attack(f, [4, 6])
    (evaded,) = defend(f, "Evade", [1, 2])
    assert isinstance(evaded, DefenceRolled) and not evaded.success
    assert names(f) == {"Tank": 2, "Armour": 0, "TakeIt": 0}


def test_with_no_action_points_left_only_armour_or_taking_it() -> None:
    """"Taking a Hit on your armour does not, however, require you to spend Action Points,
    and so is the only form of defence you can perform if you have no Action Points
    remaining." The Bandit spends 2 on a Tank and 1 on a failed Evade."""
    f = fight()
    attack(f, [4, 6])
    defend(f, "Tank")
    attack(f, [4, 6])
    defend(f, "Evade", [1, 2])
    defend(f, "TakeIt")
    assert f.ap("bandit") == 0
    attack(f, [4, 6])
    assert names(f) == {"Armour": 0, "TakeIt": 0}


def test_a_successful_parry_short_of_a_riposte_ends_the_exchange() -> None:
    """Parry: "If you beat the required value by one or more Difficulty levels then that
    constitutes a Repost": 12 at Normal beats it, not by a level."""
    f = fight()
    attack(f, [4, 6])
    (parried, marked, ended) = defend(f, "Parry", [6, 6])
    assert marked == SkillMarked(combatant_id="bandit", skill="Knife")  # a double over the target: critical
    assert isinstance(parried, DefenceRolled) and parried.success and not parried.riposte
    assert f.state.rules.exchange is None
    assert f.state.combatants["bandit"].sheet.hits == 0


def test_precision_raises_the_defence_difficulty() -> None:
    """Evade: "with the Difficulty level being the Base Difficulty Level of the Attacking roll,
    plus any additional Levels of Precision". 12 beats Normal but not Difficult."""
    f = fight()
    attack(f, [7, 6])  # 13: one extra Success
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Precision"]))
    (evaded, marked) = defend(f, "Evade", [6, 6])
    assert marked == SkillMarked(combatant_id="bandit", skill="Athletics")  # a double below the target: critical
    assert isinstance(evaded, DefenceRolled)
    assert (evaded.difficulty, evaded.total, evaded.success) == ("Difficult", 12, False)


# ------------------------------------------------------------------------ prone


def test_a_prone_defender_is_attacked_at_advantage_parries_at_disadvantage_and_cannot_evade() -> None:
    """"Prone targets are always attacked at Advantage. Prone targets can still attempt to
    Parry Melee Attacks, though they do so at a Disadvantage, but they cannot Evade or Dive
    as they are, effectively, unable to move. They can still use Tank and take Hits to their
    Armour." """
    f = fight(bandit=sheet_with(BANDIT, prone=True))
    _, rolled = attack(f, [4, 6])
    assert sides(rolled) == [10, 10]  # Knife D8 stepped up
    assert names(f) == {"Parry": 1, "Tank": 2, "Armour": 0, "TakeIt": 0}
    (parried,) = defend(f, "Parry", [1, 2])
    assert sides(parried) == [8, 6]  # Strength D8 + Knife D8, one stepped down
    defend(f, "TakeIt")
    attack(f, [4, 6], "Ranged", "Pistol", "Near")
    assert "Dive" not in names(f)
    assert "Tank" in names(f)


def test_stand_costs_one_action_point() -> None:
    """"Stand (1 AP): This only applies if you have previously been rendered Prone by an
    attack. You must spend 1 Action Point to get back up again." """
    f = fight(mira=sheet_with(MIRA, prone=True))
    f.send(TakeAction(combatant_id="mira", action="Stand"))
    assert (f.ap("mira"), f.state.combatants["mira"].sheet.prone) == (2, False)
    assert refused(f, TakeAction(combatant_id="mira", action="Stand")).code == "not_prone"


def test_knockdown_lands_even_when_armour_blocks_the_hit() -> None:
    """"Knockdown (1 AP): If your attack is successful in landing a Hit, even if it is blocked
    by armour, then, in addition to the damage caused, your target is knocked down and is
    considered Prone". A Knife's 2 Hits on a Jerkin worth 2 all stop."""
    f = fight(bandit=sheet_with(BANDIT, armour=[{"name": "Plate", "layer": "Base", "value": 2, "durability": 2}]))
    attack(f, [4, 6], modifiers=["Knockdown"])
    events = defend(f, "Armour")
    assert not any(isinstance(e, HitsTaken) for e in events)
    assert KnockedProne(combatant_id="bandit", reason="Knockdown") in events
    assert f.state.combatants["bandit"].sheet.prone


def test_knockdown_does_nothing_when_the_attack_is_avoided() -> None:
    f = fight()
    attack(f, [4, 6], modifiers=["Knockdown"])
    defend(f, "Evade", [6, 6])
    assert not f.state.combatants["bandit"].sheet.prone


# --------------------------------------------------------------------- criticals


def critical(f: Fight, effect: str, condition: Condition | None = None, split: list[str] | None = None) -> None:
    """A Critical Success (8 + 8 = 16 at Normal: 2 extra Successes) with ``effect``."""
    already = "Knife" in f.state.combatants["mira"].sheet.marked_skills
    _, rolled, *marked = attack(f, [8, 8])
    assert isinstance(rolled, AttackRolled) and rolled.outcome == "Critical Success"
    assert marked == ([] if already else [SkillMarked(combatant_id="mira", skill="Knife")])  # marked once
    assert ex(f).stage == "critical"
    f.send(ChooseCriticalEffect(combatant_id="mira", attack=ex(f).id, effect=effect, condition=condition))
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=split or ["Precision", "Precision"]))


def test_critical_unavoidable_hit() -> None:
    """"Unavoidable Hit: Your target cannot avoid the incoming Hits. They are unable to Evade,
    Parry, or Dive out of the way. They can still negate the attack with armour however, or
    use Tank to reduce the damage to a single Hit." """
    f = fight()
    critical(f, "UnavoidableHit")
    assert names(f) == {"Tank": 2, "Armour": 0, "TakeIt": 0}


def test_critical_bypass_armour() -> None:
    """"Bypass Armour: Your attack bypasses the armour of your target. While they can still
    attempt to Evade or Parry a melee attack, they cannot use armour to negate the impact of
    this attack." """
    f = fight()
    critical(f, "BypassArmour")
    assert names(f) == {"Evade": 1, "Parry": 1, "Tank": 2, "TakeIt": 0}
    defend(f, "Evade", [1, 2])
    assert names(f) == {"Tank": 2, "TakeIt": 0}


def test_critical_refund_action_point() -> None:
    """"Refund 1 Action Point: You gain back 1 Action Point." """
    f = fight()
    critical(f, "RefundActionPoint")
    assert f.ap("mira") == 3


def test_critical_inflict_condition() -> None:
    """"Inflict Condition: In addition to any damage your attack causes, the target is also
    inflicted with an appropriate condition." The condition must be named."""
    f = fight()
    attack(f, [8, 8])
    e = refused(f, ChooseCriticalEffect(combatant_id="mira", attack=ex(f).id, effect="InflictCondition"))
    assert e.code == "missing_detail"
    f.send(ChooseCriticalEffect(combatant_id="mira", attack=ex(f).id, effect="InflictCondition",
                                condition="Dizzy"))
    assert f.state.combatants["bandit"].sheet.conditions == ["Dizzy"]


def test_critical_knockdown_and_disarm() -> None:
    """"Knockdown: In addition to the damage you cause, your target is knocked down" "Disarm:
    The weapon your target is using is knocked from their hands": no Parry without it."""
    f = fight()
    critical(f, "Disarm")
    assert f.state.combatants["bandit"].sheet.dropped_weapons == ["Knife"]
    assert "Parry" not in names(f)
    defend(f, "TakeIt")
    critical(f, "Knockdown")
    defend(f, "TakeIt")
    assert f.state.combatants["bandit"].sheet.prone


def test_only_the_attacker_chooses_the_critical_effect() -> None:
    f = fight()
    attack(f, [8, 8])
    e = refused(f, ChooseCriticalEffect(combatant_id="bandit", attack=ex(f).id, effect="Knockdown"))
    assert e.code == "not_your_decision"


# ---------------------------------------------------------------------- mishaps


def mishap(result: int, *, weapon: str | None = "Knife") -> Fight:
    f = fight()
    _, rolled, marked = attack(f, [3, 3], weapon=weapon)
    assert isinstance(rolled, AttackRolled) and rolled.outcome == "Critical Miss"
    assert marked == SkillMarked(combatant_id="mira", skill="Knife" if weapon else "Brawling")
    assert (ex(f).stage, ex(f).awaiting) == ("mishap", "gm")
    f.send(ResolveMishap(attack=ex(f).id, result=result))
    assert f.state.rules.exchange is None
    return f


def test_mishap_1_prone() -> None:
    """"1. You lose your balance and end up Prone." """
    assert mishap(1).state.combatants["mira"].sheet.prone


def test_mishap_2_no_evade_parry_or_dive_this_round() -> None:
    """"2. You are left unbalanced ... you cannot use Evade, Parry, or Dive for the rest of
    this round." The Bandit attacks Mira later in the same round."""
    f = mishap(2)
    f.end_turn("mira")
    attack(f, [4, 6], who="bandit", target="mira")
    assert names(f) == {"Tank": 2, "Armour": 0, "TakeIt": 0}


def test_mishap_2_an_action_point_regains_the_balance() -> None:
    """"2. You are left unbalanced and struggling to keep your feel. You can spend an Action
    Point to regain your balance, otherwise you cannot use Evade, Parry, or Dive for the rest of
    this round." Attacked later that round, Mira spends the point (her last but one) and may
    Evade again; there is no balance to regain twice, nor without the mishap."""
    f = fight()
    assert refused(f, RegainBalance(combatant_id="mira")).code == "not_off_balance"
    attack(f, [3, 3])
    f.send(ResolveMishap(attack=ex(f).id, result=2))
    f.end_turn("mira")
    attack(f, [4, 6], who="bandit", target="mira")
    assert names(f) == {"Tank": 2, "Armour": 0, "TakeIt": 0}
    (regained,) = f.send(RegainBalance(combatant_id="mira"))
    assert regained == BalanceRegained(combatant_id="mira", action_points=1)
    assert f.ap("mira") == 1
    assert names(f) == {"Evade": 1, "Parry": 1, "Armour": 0, "TakeIt": 0}
    assert refused(f, RegainBalance(combatant_id="mira")).code == "not_off_balance"
    (evaded, _) = defend(f, "Evade", [6, 5], who="mira")  # Agility D8 + Athletics D6: 11 at Normal
    assert isinstance(evaded, DefenceRolled) and evaded.success
    assert f.ruleset.replay(f.events) == f.state


def test_regaining_the_balance_pays_the_penalty_points() -> None:
    """"When your character is Wounded or Afflicted then they must apply Penalty Points when
    performing any actions": Wounded Mira regains her balance for 2 Action Points."""
    f = fight(mira=sheet_with(MIRA, hits=2))
    attack(f, [3, 3], penalties=["IncreaseDifficulty"])
    f.send(ResolveMishap(attack=ex(f).id, result=2))
    assert refused(f, RegainBalance(combatant_id="mira")).code == "penalty_points_owed"
    assert refused(f, RegainBalance(combatant_id="mira", penalties=["StepDownDie"])).code == (
        "penalty_not_applicable")
    (regained,) = f.send(RegainBalance(combatant_id="mira", penalties=["IncreaseCost"]))
    assert regained == BalanceRegained(combatant_id="mira", action_points=2) and f.ap("mira") == 0


def test_mishap_3_weapon_dropped() -> None:
    """"3. Your weapon slips from your fingers and slides across the floor" """
    f = mishap(3)
    assert f.state.combatants["mira"].sheet.dropped_weapons == ["Knife"]
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                             band="Melee", dice=[4, 6])).code == "unknown_weapon"


def test_mishap_4_weakened() -> None:
    """"4. You crash into your opponent suffering the Weakened Condition." Weakened steps the
    Strength roll down."""
    f = mishap(4)
    assert f.state.combatants["mira"].sheet.conditions == ["Weakened"]
    _, rolled = attack(f, [4, 5])
    assert sides(rolled) == [8, 8]  # Strength D10 stepped down


@pytest.mark.parametrize(("bandit", "prone"), [
    ({**BANDIT, "weapons": [KNIFE, SHIELD]}, True),
    ({**BANDIT, "weapons": [KNIFE, SHIELD], "dropped_weapons": ["Shield"]}, False),
    (BANDIT, False),
])
def test_mishap_4_against_a_shield_is_prone_too(bandit: dict[str, Any], prone: bool) -> None:
    """"4. You crash into your opponent suffering the Weakened Condition. If they armed with a
    shield then you also become Prone." A dropped shield arms nobody."""
    f = fight(bandit=bandit)
    attack(f, [3, 3])
    events = f.send(ResolveMishap(attack=ex(f).id, result=4))
    s = f.state.combatants["mira"].sheet
    assert (s.conditions, s.prone) == (["Weakened"], prone)
    assert (KnockedProne(combatant_id="mira", reason="crashed into a shield") in events) is prone
    assert f.ruleset.replay(f.events) == f.state


def test_mishap_5_lose_an_action_point() -> None:
    """"5. ... Lose one Action Point." """
    assert mishap(5).ap("mira") == 1


def test_mishap_6_weapon_damaged() -> None:
    """"6. Your weapon is damaged. All attacks made with this weapon are performed at a
    Disadvantage until you can get it repaired." """
    f = mishap(6)
    assert f.state.combatants["mira"].sheet.damaged_weapons == ["Knife"]
    _, rolled = attack(f, [4, 5])
    assert sides(rolled) == [8, 8]


def test_the_mishap_die_is_rolled_when_the_gm_picks_none() -> None:
    """"This can be selected directly by the GM, or rolled using a D6." """
    f = fight()
    attack(f, [3, 3])
    suffered, _ = f.send(ResolveMishap(attack=ex(f).id, dice=[5]))
    assert suffered.die == DieRoll(sides=6, face=5, purpose=suffered.die.purpose, source="reported")
    assert suffered.result == 5 and f.ap("mira") == 1


# ----------------------------------------------------------------- harm and penalties


def test_penalty_points_for_a_wounded_attacker() -> None:
    """"Hit 2: Wounded - ... You must apply 1 Penalty Point to all actions you perform" "Each
    penalty in the list equates to 1 Penalty Point." "Increase Action Point Cost" "Increase
    Roll Difficulty" """
    f = fight(mira=sheet_with(MIRA, hits=2))
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee",
                          dice=[1, 2]))
    assert e.code == "penalty_points_owed"
    declared, *_ = attack(f, [1, 2], penalties=["IncreaseCost"])
    assert isinstance(declared, AttackDeclared) and declared.action_points == 2
    assert f.ap("mira") == 1
    declared, rolled, _ = attack(f, [6, 6], penalties=["IncreaseDifficulty"])  # 12 < Difficult: Knife marked
    assert isinstance(declared, AttackDeclared) and declared.difficulty == "Difficult"
    assert isinstance(rolled, AttackRolled) and rolled.outcome == "Critical Miss"


def test_penalty_reduce_base_damage() -> None:
    """"Reduce Base Damage - Reduce the Base Damage of the attack you are performing by 1
    Hit." Afflicted (3 Hits): 2 points."""
    f = fight(mira=sheet_with(MIRA, hits=3))
    declared, _ = attack(f, [4, 6], penalties=["ReduceDamage", "ReduceDamage"])
    assert isinstance(declared, AttackDeclared) and declared.base_damage == 0


def test_two_hits_in_one_attack_is_an_injury_and_an_npc_past_helpless_dies() -> None:
    """"If you suffer two or more Hits in a single attack ... then you suffer an Injury." "If
    this happens to an NPC ... that NPC has been killed outright." """
    f = fight()
    attack(f, [4, 6])
    (hit, _) = defend(f, "TakeIt")
    assert isinstance(hit, HitsTaken) and (hit.hits, hit.injuries, hit.dead) == (2, 1, False)
    attack(f, [10, 6])
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage", "Damage"]))
    (blow,) = defend(f, "TakeIt")  # lethal: Mira may pull her punch; she lets it land
    assert isinstance(blow, LethalBlow) and ex(f).stage == "pull"
    (hit, _) = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, pull=False))
    assert isinstance(hit, HitsTaken) and hit.dead
    assert f.state.combatants["bandit"].sheet.dead


def test_a_helpless_player_who_takes_another_hit_dies() -> None:
    """"if a target is already Helpless and they take another Hit, then they die, regardless
    of whether they are an NPC or a player character." A Helpless defender cannot actively
    defend."""
    f = fight(bandit=sheet_with(BANDIT, hits=4), bandit_player=True)
    attack(f, [1, 8])
    assert names(f) == {"Armour": 0, "TakeIt": 0}
    (hit, _) = defend(f, "TakeIt")
    assert isinstance(hit, HitsTaken) and hit.dead


def test_cheat_death_leaves_the_character_alive_at_a_single_hit() -> None:
    """Hero Points: "Cheat Death, restoring your Character to a single Hit rather than having
    them die". Helpless Mira takes the Bandit's blow and dies ("if a target is already
    Helpless and they take another Hit, then they die"); her Hero Point brings her back: alive
    at 1 Hit, and on her turn she acts."""
    f = fight(mira=sheet_with(MIRA, hits=4, hero_points=1), bandit_first=True)
    attack(f, [4, 6], who="bandit", target="mira")
    (hit, _) = defend(f, "TakeIt", who="mira")
    assert isinstance(hit, HitsTaken) and hit.dead and f.state.combatants["mira"].sheet.dead
    f.send(SpendHeroPoint(combatant_id="mira", use="CheatDeath"))
    s = f.state.combatants["mira"].sheet
    assert (s.dead, s.hits, s.hero_points) == (False, 1, 0)
    # back from beyond Helpless: "Upon recovery apply Staggered for 2 turns"
    assert [(x.name, x.turns) for x in s.statuses] == [("Staggered", 2)]
    f.end_turn("bandit")
    assert f.turn == "mira"
    declared, _ = attack(f, [4, 6])
    assert isinstance(declared, AttackDeclared) and declared.attacker == "mira"


def test_a_helpless_combatant_cannot_attack() -> None:
    """"Hit 4: Helpless - ... You are unable to perform ANY actions on your own." """
    f = fight(mira=sheet_with(MIRA, hits=4))
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                             band="Melee", dice=[4, 6])).code == "cannot_act"


def test_only_the_defender_answers_and_nobody_ends_the_turn_meanwhile() -> None:
    f = fight()
    attack(f, [4, 6])
    assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence="TakeIt")).code == "not_your_decision"
    assert refused(f, EndTurn(combatant_id="mira")).code == "exchange_pending"
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                             band="Melee", dice=[4, 6])).code == "exchange_pending"


# ----------------------------------------------------------------------- property


class DrawnDice(ReportedDice):
    """Reported faces drawn by hypothesis, each within the size of the die asked for."""

    def __init__(self, data: Any) -> None:
        super().__init__([])
        self.data = data

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        face = self.data.draw(st.integers(1, sides), label=purpose)
        return DieRoll(sides=sides, face=face, purpose=purpose, source="reported")

    def check_all_used(self) -> None:
        return None


ARMOURED = sheet_with(MIRA, armour=[
    {"name": "Coat", "layer": "Outer", "value": 1, "durability": 2},
    {"name": "Jerkin", "layer": "Base", "value": 2, "durability": 1},
    {"name": "Gambeson", "layer": "Skin", "value": 1, "durability": 1},
    {"name": "Helm", "layer": "Helmet", "value": 1, "durability": 1},
])
GUNMAN = sheet_with(BANDIT, skills={**BANDIT["skills"], "Pistol": "D8"}, attributes={
    "strength": "D8", "agility": "D6", "dexterity": "D8"}, weapons=[KNIFE, PISTOL], armour=ARMOURED["armour"])
ALLOWED_REFUSALS = {
    "not_enough_action_points", "penalty_not_applicable", "precision_past_very_hard", "out_of_range",
    "cannot_act", "invalid_target", "unknown_weapon", "wrong_weapon",
}


def send_drawn(f: Fight, command: Any, data: Any) -> list[Event]:
    new = f.ruleset.decide(f.state, command, DrawnDice(data), seed=f.seed)
    state = f.state
    for event in new:
        state = f.ruleset.evolve(state, event)
    f.state = state
    f.events.extend(new)
    return new


def check_invariants(before: Any, after: Any, new: list[Event]) -> None:
    for c in after.combatants.values():
        assert c.action_points >= 0, c
        assert c.sheet.hits >= 0, c
        assert all(p.durability >= 0 for p in c.sheet.armour), c
    for event in new:
        if type(event).__name__ == "ArmourTook":
            pieces = before.combatants[event.combatant_id].sheet.armour
            gone = {p.name for p in pieces if p.durability <= 0}
            assert not gone & set(event.used), (event, pieces)
    pending = shown(after).rules.exchange
    if pending is not None:
        assert pending.choices, pending


def penalties_for(f: Fight, cid: str, data: Any) -> list[str]:
    owed = penalty_points(f.state.combatants[cid].sheet.hits)
    return data.draw(st.lists(st.sampled_from(PENALTIES), min_size=owed, max_size=owed), label="penalties")


def one_step(f: Fight, data: Any) -> None:
    pending = shown(f.state).rules.exchange
    if pending is None:
        who = f.turn
        target = "bandit" if who == "mira" else "mira"
        c = f.state.combatants[who]
        options = ["EndTurn"]
        if not c.sheet.dead and c.sheet.hits < 4 and not f.state.combatants[target].sheet.dead:
            options += ["Attack"] * 4
            if c.sheet.prone:
                options.append("Stand")
        move = data.draw(st.sampled_from(options), label="move")
        if move == "EndTurn":
            command: Any = EndTurn(combatant_id=who)
        elif move == "Stand":
            owed = penalty_points(c.sheet.hits)  # a Wounded or Afflicted combatant pays in AP
            command = TakeAction(combatant_id=who, action="Stand", penalties=["IncreaseCost"] * owed)
        else:
            kind = data.draw(st.sampled_from(["LightMelee", "HeavyMelee", "Ranged"]), label="kind")
            if kind == "Ranged":
                weapon: str | None = "Pistol"
                band = data.draw(st.sampled_from(["Close", "Near", "Far"]), label="band")
            else:
                weapon = data.draw(st.sampled_from(["Knife", None]), label="weapon")
                band = "Melee"
            modifiers = data.draw(st.lists(st.sampled_from(["TargetedHit", "Steady", "Knockdown"]), max_size=2,
                                           unique=True), label="modifiers")
            aim = (data.draw(st.sampled_from(["body", "head", "unarmoured"]), label="aim")
                   if "TargetedHit" in modifiers else "body")
            command = Attack(combatant_id=who, target=target, attack=kind, weapon=weapon, band=band,
                             modifiers=modifiers, aim=aim, penalties=penalties_for(f, who, data))
        apply(f, command, data)
        return
    assert pending.choices, pending
    choice = data.draw(st.sampled_from([c.name for c in pending.choices]), label=f"{pending.stage} choice")
    if pending.stage == "mishap":
        command = ResolveMishap(attack=pending.id, result=None if choice == "roll" else int(choice))
    elif pending.stage == "critical":
        condition = data.draw(st.sampled_from(["Weakened", "Dizzy", "Numb"]), label="condition")
        command = ChooseCriticalEffect(combatant_id=pending.awaiting, attack=pending.id, effect=choice,
                                       condition=condition if choice == "InflictCondition" else None)
    elif pending.stage == "spend":
        split = data.draw(st.lists(st.sampled_from(["Damage", "Precision"]), min_size=pending.extra,
                                   max_size=pending.extra), label="split")
        command = SpendSuccesses(combatant_id=pending.attacker, attack=pending.id, split=split)
    elif pending.stage == "pull":
        command = PullYourPunch(combatant_id=pending.attacker, attack=pending.id, pull=choice == "PullYourPunch")
    else:
        needs = pending.stage == "defence" and choice in ("Evade", "Parry", "Dive", "Tank")
        command = Defend(combatant_id=pending.awaiting, attack=pending.id, defence=choice,
                         penalties=penalties_for(f, pending.awaiting, data) if needs else [])
    if not apply(f, command, data) and pending.stage in ("defence", "riposte", "spend", "pull"):
        # a refused choice (its Penalty Points or Precision could not be paid): fall back
        fallback: Any = (SpendSuccesses(combatant_id=pending.attacker, attack=pending.id,
                                        split=["Damage"] * pending.extra) if pending.stage == "spend"
                         else PullYourPunch(combatant_id=pending.attacker, attack=pending.id, pull=False)
                         if pending.stage == "pull"
                         else Defend(combatant_id=pending.awaiting, attack=pending.id, defence="TakeIt"))
        assert apply(f, fallback, data), fallback


def apply(f: Fight, command: Any, data: Any) -> bool:
    before = f.state
    try:
        new = send_drawn(f, command, data)
    except RuleViolation as e:
        assert e.code in ALLOWED_REFUSALS, (e.code, e.message, command)
        assert f.state == before
        return False
    check_invariants(before, f.state, new)
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mira_hits=st.integers(0, 3), bandit_player=st.booleans())
def test_random_legal_exchanges_keep_the_invariants_and_replay(data: Any, mira_hits: int,
                                                               bandit_player: bool) -> None:
    """Issue 5: "random legal exchanges never leave AP below 0, Hits below 0, a destroyed layer
    with Durability, or a pending decision without a legal choice"; and the events replay to
    the live state, through their stored JSON."""
    f = fight(mira=sheet_with(ARMOURED, hits=mira_hits), bandit=GUNMAN, bandit_player=bandit_player)
    for _ in range(40):
        one_step(f, data)
    replayed = f.ruleset.replay([
        f.ruleset.decode_event(e.__struct_config__.tag, f.ruleset.schema_versions.get(e.__struct_config__.tag, 1),
                               msgspec.json.encode(e)) for e in f.events])
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(f.state)


# ------------------------------------------------- Tank at 0, Riposte aim, Targeted Hit, mishap 5


def test_tank_never_turns_no_damage_into_a_hit() -> None:
    """Tank: "All incoming damage is reduced down to a single, unavoidable Hit." An Unarmed
    hit with no extra Success does 0 Hits ("All Unarmed attacks have a base damage of
    zero"): Tanking it reduces nothing and must not add a Hit."""
    f = fight()
    attack(f, [4, 6], weapon=None)  # 10 at Normal: a hit for 0
    assert ex(f).damage == 0
    events = defend(f, "Tank")
    assert not any(isinstance(e, HitsTaken) for e in events)
    assert f.state.combatants["bandit"].sheet.hits == 0


def test_a_riposte_can_be_blocked_by_body_armour_after_a_head_shot() -> None:
    """Parry: "you inflict a set 1 Hit of damage back on your attacker. Your opponent cannot
    use a Defensive Action to block a Repost, but they can block it with Armour." The
    Riposte is not aimed at the attacker's head because the attack was aimed at the
    defender's: Mira (a Coat, no Helmet) may take it on her Coat."""
    f = fight()
    attack(f, [4, 6], modifiers=["TargetedHit"], aim="head")
    (parried,) = defend(f, "Parry", [8, 6])  # 14 beats Normal by a level
    assert isinstance(parried, DefenceRolled) and parried.riposte
    assert names(f) == {"Armour": 0, "TakeIt": 0}
    took, ended = defend(f, "Armour", who="mira")
    assert type(took).__name__ == "ArmourTook" and took.used == ["Coat"]
    assert f.state.combatants["mira"].sheet.hits == 0


def test_aiming_needs_a_targeted_hit() -> None:
    """"Targeted Hit Melee (1 AP): This allows you to call the target of your hit" "Targeted
    Hit Ranged (2 AP): Allows you to target your Hit on a ranged attack." Aiming at the head
    without paying for a Targeted Hit is refused (otherwise a free head shot makes the
    body armour useless)."""
    f = fight()
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee",
                          aim="head", dice=[4, 6]))
    assert e.code == "aim_needs_targeted_hit"


def test_mishap_5_with_no_action_points_left_costs_one_next_round() -> None:
    """"5. Your failure leaves you feeling flustered and unprepared. Lose one Action Point. If
    you have already used all of your Action Points this turn then gain one fewer Action
    Points at the start of the next turn." Mira spends all 3, then mishaps: round 2 gives
    her 2, not 3."""
    f = fight()
    attack(f, [1, 2])
    attack(f, [1, 2])
    attack(f, [3, 3])
    assert f.ap("mira") == 0
    f.send(ResolveMishap(attack=ex(f).id, result=5))
    f.end_round()
    assert f.state.round == 2
    assert f.ap("mira") == 2


def test_a_wounded_combatant_pays_penalty_points_on_a_common_action() -> None:
    """"When your character is Wounded or Afflicted then they must apply Penalty Points when
    performing any actions" — "Increase Action Point Cost - Increase the cost of the Action
    you are attempting to perform by 1 Action Point"."""
    from domain.core.dice import ReportedDice
    from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
    from domain.places_of_power.actions import TakeAction
    from domain.places_of_power.hits import SetHits
    from domain.rulesets import default_registry

    r = default_registry().get("places-of-power")
    state = r.replay(r.open("e", "Wounds", "reported", "x"))

    def play(command, faces=()):
        nonlocal state
        for event in r.decide(state, command, ReportedDice(list(faces))):
            state = r.evolve(state, event)

    play(AddCombatant(name="Mira", side="party", controller="player", combatant_id="mira"))
    play(RollInitiative(), [5])
    play(StartEncounter())
    play(SetHits(combatant_id="mira", hits=2))  # Wounded: 1 Penalty Point
    with pytest.raises(RuleViolation) as e:
        play(TakeAction(combatant_id="mira", action="NotchArrow"))
    assert e.value.code == "penalty_points_owed"
    play(TakeAction(combatant_id="mira", action="NotchArrow", penalties=["IncreaseCost"]))
    assert state.combatants["mira"].action_points == 1  # 3 - (1 + 1)


def test_a_wounded_character_pays_penalty_points_on_a_check() -> None:
    """"Increase Roll Difficulty - Increase the Difficulty Level of the Action you are attempting
    to perform by 1 level. For example, turning a Normal roll into a Difficult roll." A check
    costs no Action Points, so it cannot be paid in AP."""
    from domain.core.dice import ReportedDice
    from domain.core.encounter import AddCombatant
    from domain.places_of_power.check_rolls import CallForCheck, RollCheck
    from domain.places_of_power.hits import SetHits
    from domain.rulesets import default_registry

    r = default_registry().get("places-of-power")
    state = r.replay(r.open("e", "Wounds", "reported", "x"))

    def play(command, faces=()):
        nonlocal state
        for event in r.decide(state, command, ReportedDice(list(faces))):
            state = r.evolve(state, event)
        return state

    play(AddCombatant(name="Mira", side="party", controller="player", combatant_id="mira",
                      sheet={"skills": {"Athletics": "D8"}, "attributes": {"agility": "D8"}}))
    play(SetHits(combatant_id="mira", hits=2))
    play(CallForCheck(combatant_id="mira", attribute="agility", skill="Athletics", difficulty="Normal"))
    check_id = state.version
    with pytest.raises(RuleViolation) as e:
        play(RollCheck(combatant_id="mira", check=check_id), [5, 5])
    assert e.value.code == "penalty_points_owed"
    with pytest.raises(RuleViolation) as e:
        play(RollCheck(combatant_id="mira", check=check_id, penalties=["IncreaseCost"]), [5, 5])
    assert e.value.code == "penalty_not_applicable"
    play(RollCheck(combatant_id="mira", check=check_id, penalties=["IncreaseDifficulty"]), [6, 5])
    rec = state.rules.checks[str(check_id)]
    assert rec.outcome == "Failure"  # 11 against Difficult (13), not a Partial Success at Normal
