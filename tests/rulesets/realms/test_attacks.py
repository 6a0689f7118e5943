"""RealmsRPG's Attacking, Determine Damage and Critical Hits, Defend and Dodge, Dying and death,
rule by rule (shared/rules/realms-combat.txt; realms-gaps.md's R-numbers)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.encounter import RollInitiative, StartEncounter
from domain.core.reactions import React
from domain.realms.attacks import profile
from domain.realms.data import RealmsRules
from domain.realms.body import conditions
from domain.realms.events import (
    Attack, AttackDeclared, AttackRolled, CounterInEffect, Defended, Harmed, Heal, Healed, SetRealmsRules, Stabilise, TakeAction,
)
from domain.realms.odds import AttackOddsQuery, attack_odds
from domain.realms.ruleset import rules
from domain.realms.sheet import RealmsSheet
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of, started

BRAM = {"health": 18, "martial_proficiency": 2, "abilities": {"strength": 3},
        "weapons": [{"name": "Sword", "dice": 1, "sides": 8, "properties": ["Block"]}],
        "proficiencies": {"slashing": 8}, "shield": {"sides": 6}}


def arwen_hits(f: Fight, dice: list[int], **attack: Any) -> list[Any]:
    """Arwen attacks the Brigand, who does not Dodge: ``dice`` are the d20 and the damage dice."""
    f.send(Attack(combatant_id="arwen", target="brigand", **attack))
    return f.pass_("brigand", dice=dice)


def trio(bram: dict[str, Any] | None = None) -> Fight:
    """The Brigand (first), then Arwen and Bram."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("bram", bram or BRAM)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[3, 2, 15]))
    f.send(StartEncounter())
    assert f.state.order == ["brigand", "arwen", "bram"]
    return f


def sheet(**fields: Any) -> RealmsSheet:
    return msgspec.convert(fields, RealmsSheet)


# ------------------------------------------------------------------- the roll


def test_an_attack_hits_when_the_total_meets_or_beats_evasion() -> None:
    """"If your total Attack roll equals or exceeds the target's Evasion (EV), or related Defense
    Score the attack hits"; "Your Martial Bonus is the combination of your Martial Proficiency and a
    Relevant Ability" (R4: a finesse weapon, Agility)."""
    f = started()
    rolled = of(arwen_hits(f, [6, 4]), AttackRolled)  # 6 + 2 + 3 = 11 against Evasion 11
    assert (rolled.total, rolled.score, rolled.hit) == (11, 11, True)
    assert f.health("brigand") == 12 - (4 + 5)
    missed = of(arwen_hits(f, [10]), AttackRolled)  # 10 + 5 - 5 (the second attack) = 10
    assert (missed.total, missed.hit) == (10, False)


def test_a_natural_20_adds_two_and_a_natural_1_takes_two() -> None:
    """R8: "Natural 20 adds +2 to the roll; natural 1 takes −2"."""
    f = started()
    assert of(arwen_hits(f, [1]), AttackRolled).total == 1 - 2 + 5
    f.end_turn("arwen")
    f.end_turn("brigand")
    assert of(arwen_hits(f, [20, 3, 4]), AttackRolled).total == 20 + 2 + 5


def test_a_critical_hit_at_ten_over_the_defence_doubles_the_damage_dice() -> None:
    """"When an attack roll for an attack that exceeds the target's Evasion or relevant Defense by
    +10 it's called a Critical Hit ... you double the amount of damage dice rolled"."""
    f = started()
    hit = of(arwen_hits(f, [16, 2, 3]), AttackRolled)  # 16 + 5 = 21: Evasion 11 + 10
    assert hit.critical and len(hit.damage_dice) == 2 and hit.damage == 2 + 3 + 5  # "2d6 + Attack Bonus"
    f.end_turn("arwen")
    f.end_turn("brigand")
    plain = of(arwen_hits(f, [15, 2]), AttackRolled)
    assert plain.hit and not plain.critical and len(plain.damage_dice) == 1


def test_critical_range_adjustments_stack_and_armour_raises_it() -> None:
    """"having a feat that decreases your Critical Range by 2 ..., combined with a weapon that has a
    -1 reduced Critical Range, would result in a Critical Range of +7"; R19: "Armour can raise the
    attacker's Critical Range"."""
    keen = {**ARWEN, "critical_range": -2, "weapons": [{**ARWEN["weapons"][0], "critical_range": -1}]}
    f = started(arwen=keen)
    assert of(arwen_hits(f, [13, 1, 1]), AttackRolled).critical  # 18: 7 over Evasion 11
    armoured = started(brigand={**BRIGAND, "armour": {"critical_range": 1}})
    assert not of(arwen_hits(armoured, [16, 1]), AttackRolled).critical  # 10 over: needs 11


def test_the_critical_multiplier_multiplies_the_damage_dice() -> None:
    """"If you have a Critical Multiplier of 3× ... an attack that would normally deal 3d6 damage,
    you instead roll 3d6 × 3 = 9d6"."""
    heavy = {**ARWEN, "critical_multiplier": 1, "weapons": [{**ARWEN["weapons"][0], "dice": 3}]}
    f = started(arwen=heavy)
    hit = of(arwen_hits(f, [20, *[1] * 9]), AttackRolled)
    assert hit.multiplier == 3 and len(hit.damage_dice) == 9 and hit.damage == 9 + 5


def test_a_dodge_adds_one_to_evasion_before_the_roll() -> None:
    """R2: "Dodge 1 (+1 Evasion, declared before you know whether the attack hits)"."""
    f = started()
    f.send(Attack(combatant_id="arwen", target="brigand"))
    rolled = of(f.react("brigand", "Dodge", dice=[6]), AttackRolled)
    assert (rolled.score, rolled.hit) == (12, False)
    assert f.ap("brigand") == 3  # a Reaction spends AP outside one's turn


# ------------------------------------------------------------------- ranges


def test_ranged_attacks_within_one_space_and_at_long_range_take_minus_five() -> None:
    """"Ranged attacks made against a target within 1 space incur a -5 penalty"; "four times that of
    the Ranged or Thrown Weapons' normal distance, but do so with a -5 long-range penalty"."""
    archer = {**ARWEN, "weapons": [{"name": "Bow", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "ranged",
                                    "range": 10}]}
    f = started(arwen=archer)
    assert of(f.send(Attack(combatant_id="arwen", target="brigand", distance=1)), AttackDeclared).range_penalty == -5
    f.pass_("brigand", dice=[5])
    f.end_turn("arwen")
    f.end_turn("brigand")
    assert of(f.send(Attack(combatant_id="arwen", target="brigand", distance=10)), AttackDeclared).range_penalty == 0
    f.pass_("brigand", dice=[5])
    f.end_turn("arwen")
    f.end_turn("brigand")
    assert of(f.send(Attack(combatant_id="arwen", target="brigand", distance=40)), AttackDeclared).range_penalty == -5
    f.pass_("brigand", dice=[5])
    refused = f.refused(Attack(combatant_id="arwen", target="brigand", distance=41))
    assert refused.code == "realms_out_of_range"
    assert f.refused(Attack(combatant_id="arwen", target="brigand", weapon="Unarmed", distance=2)).code == \
        "realms_out_of_range"  # "The standard Melee Range is within a 1 space radius"


# ------------------------------------------------------------------- damage


def test_armour_reduction_falls_by_one_each_time_it_applies_in_a_turn() -> None:
    """R16: "Each time the armour reduces damage within one turn, its reduction drops by 1 until the
    start of the next turn"."""
    f = started(brigand={**BRIGAND, "health": 40, "armour": {"damage_reduction": 2}})
    first = of(arwen_hits(f, [15, 4]), Harmed)
    second = of(arwen_hits(f, [19, 4]), Harmed)  # 19 + 5 - 5 (the second attack) = 19: a hit
    assert (first.armour, first.damage) == (2, 9 - 2)
    assert (second.armour, second.damage) == (1, 9 - 1)
    f.end_turn("arwen")
    f.send(TakeAction(combatant_id="brigand", action="Brace"))
    f.end_turn("brigand")
    assert of(arwen_hits(f, [15, 4]), Harmed).armour == 2  # a new turn


def test_armour_does_not_reduce_psychic_spiritual_or_sonic_damage() -> None:
    """R15: "Standard armour does not reduce Psychic, Spiritual or Sonic damage"; Powers: "you add
    your Power Bonus to that damage"."""
    mind = {**ARWEN, "power_proficiency": 2, "powers": [{"name": "Mind Spike", "dice": 1, "sides": 6,
                                                         "damage_type": "psychic", "targets": "mental_fortitude"}]}
    f = started(arwen=mind, brigand={**BRIGAND, "armour": {"damage_reduction": 2}})
    events = f.send(Attack(combatant_id="arwen", target="brigand", power="Mind Spike", distance=3, dice=[10, 4]))
    rolled, harmed = of(events, AttackRolled), of(events, Harmed)
    assert (rolled.total, rolled.score) == (10 + 3, 10)  # Power Bonus 2 + Acuity 1; Mental Fortitude 10
    assert (harmed.armour, harmed.damage) == (0, 4 + 3)


@pytest.mark.parametrize(("extra", "damage"), [
    ({"resistances": ["piercing"]}, 5),  # 9 halved, rounded up
    ({"resistances": ["piercing", "piercing"]}, 0),  # "two or more sources of Resistance give Immunity"
    ({"vulnerabilities": ["piercing"]}, 18),
    ({"resistances": ["piercing"], "vulnerabilities": ["piercing"]}, 9),  # "Having both cancels out"
    ({"immunities": ["piercing"]}, 0),
    ({"armour": {"damage_reduction": 12}}, 1),  # "The minimum amount an Attack can be reduced to is 1"
    ({"armour": {"damage_reduction": 12, "vulnerable": ["piercing"]}}, 9),  # vulnerable armour: no reduction
    ({"armour": {"damage_reduction": 2, "resistant": ["piercing"]}}, 5),  # resistant armour: double its DR
])
def test_reductions_then_weaknesses_and_resistances(extra: dict[str, Any], damage: int) -> None:
    """"the target takes into account first any base damage reductions, then any weaknesses or
    resistances ... The minimum amount an Attack can be reduced to is 1 unless otherwise stated or
    the target has Immunity"; R17: "Resistance halves the damage (rounded up) ... Vulnerability
    doubles it"."""
    f = started(brigand={**BRIGAND, "health": 40, **extra})
    assert of(arwen_hits(f, [15, 4]), Harmed).damage == damage


def test_without_full_proficiency_half_the_ability_and_no_martial_proficiency() -> None:
    """"When attacking with a weapon without full proficiency, you only add half of the relevant
    Ability to the Attack and Damage Rolls and no Martial Proficiency. If you are partially
    proficient ... you roll a die that matches your proficiency (1d6 in this case) to a minimum of 1d4"."""
    base = {"martial_proficiency": 2, "abilities": {"strength": 3},
            "weapons": [{"name": "Longsword", "dice": 1, "sides": 8}]}
    full = profile(sheet(**base, proficiencies={"slashing": 8}), None, None)
    partial = profile(sheet(**base, proficiencies={"slashing": 6}), None, None)
    small = profile(sheet(**base, proficiencies={"slashing": 2}), None, None)
    assert (full.bonus, full.sides) == (5, 8)
    assert (partial.bonus, partial.damage_bonus, partial.sides) == (2, 2, 6)
    assert small.sides == 4


def test_improvised_weapons_and_unarmed_prowess() -> None:
    """Improvised: "you use 1d4 for damage and add ½ of your Strength ... If your strength is
    negative, double it instead"; unarmed: "using half their Strength for their attack Bonus and
    dealing damage equal to half their Strength", trained "your full Strength or Agility, as well as
    adding your Martial Proficiency"; R5: the prowess level's die."""
    strong, weak = sheet(abilities={"strength": 3}), sheet(abilities={"strength": -1})
    assert (profile(strong, "Improvised", None).bonus, profile(strong, "Improvised", None).sides) == (2, 4)
    assert profile(weak, "Improvised", None).damage_bonus == -2
    thrown = profile(sheet(abilities={"strength": 1, "agility": 3}), "Improvised", None, thrown=True)
    assert (thrown.range, thrown.long_range) == (6, 12)  # "double your Agility or Strength"; four times it
    untrained = profile(strong, "Unarmed", None)
    assert (untrained.bonus, untrained.dice, untrained.damage_bonus) == (2, 0, 2)
    trained = profile(sheet(abilities={"strength": 1, "agility": 3}, martial_proficiency=2, unarmed_prowess=3),
                      "Unarmed", None)
    assert (trained.bonus, trained.dice, trained.sides) == (5, 1, 4)  # level III: 1d4 + Ability


def test_the_off_hand_attack_and_the_quick_attack_come_without_the_penalty() -> None:
    """"you may spend a Quick Action to attack with your off-hand weapon without incurring a Multiple
    Action Penalty ... you only add your Martial Attack Bonus to the attack roll to hit, but not damage
    of the off-hand attack"; Quick Attacks: "once a turn"."""
    twin = {**ARWEN, "weapons": [{"name": "Rapier", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "finesse",
                                  "properties": ["Interchangeable"]},
                                 {"name": "Dagger", "dice": 1, "sides": 4, "damage_type": "piercing", "kind": "finesse",
                                  "properties": ["Interchangeable"]}],
            "unarmed_prowess": 1}
    f = started(arwen=twin, brigand={**BRIGAND, "health": 60})
    assert f.refused(Attack(combatant_id="arwen", target="brigand", weapon="Dagger", off_hand=True)).code == \
        "realms_no_off_hand"
    arwen_hits(f, [10, 3])
    declared = of(f.send(Attack(combatant_id="arwen", target="brigand", weapon="Dagger", off_hand=True)), AttackDeclared)
    off = f.pass_("brigand", dice=[10, 3])
    assert (declared.penalty, declared.action_points, f.ap("arwen")) == (0, 1, 1)
    assert of(off, AttackRolled).total == 15 and of(off, AttackRolled).damage == 3
    f.end_turn("arwen")
    f.end_turn("brigand")
    arwen_hits(f, [10], weapon="Unarmed")
    quick = arwen_hits(f, [10], weapon="Unarmed", quick=True)
    assert of(quick, AttackRolled).total == 2 + 3 + 10  # no -5
    assert f.refused(Attack(combatant_id="arwen", target="brigand", weapon="Unarmed", quick=True)).code in (
        "realms_no_quick_attack", "not_enough_action_points")


# ------------------------------------------------------------------- Defend


def test_shield_defense_reduces_the_damage_even_to_zero() -> None:
    """Defend: "if both the attacker and the ally are within 1 space of you and if the attack would
    hit. This can be done after knowing the damage"; R18: "make a Strength attack roll against the
    incoming attack roll. If you meet or beat it, roll the Shield Die ... this can reach 0"."""
    f = trio()
    f.send(Attack(combatant_id="brigand", target="arwen"))
    rolled = of(f.pass_("arwen", dice=[12, 5]), AttackRolled)  # 12 + 3 = 15 against 13; 5 + 3 = 8
    assert rolled.hit and f.health("arwen") == 20  # Bram may still Defend
    events = f.react("bram", "Shield Defense", dice=[10, 4])  # 10 + 2 + 3 = 15 meets 15; the Shield Die 4
    assert of(events, Harmed).damage == 8 - 4 and f.health("arwen") == 16 and f.ap("bram") == 3
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[12])  # 12 + 3 - 5 (the repeat) = 10: a miss
    assert f.health("arwen") == 16


def test_a_shield_can_take_the_damage_to_zero() -> None:
    """"This can reduce the damage to 0, unlike other damage reductions"."""
    f = trio()
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[12, 1])  # 1 + 3 = 4 damage
    assert of(f.react("bram", "Shield Defense", dice=[15, 6]), Harmed).damage == 0


def test_body_shield_steps_in_at_minus_two_evasion_and_double_damage() -> None:
    """Body Shield: "You may step in front of the attack to protect your ally. You gain -2 to Evasion,
    and the attack deals double damage if it hits"."""
    f = trio()
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[12, 5])
    events = f.react("bram", "Body Shield")
    assert of(events, Defended).defender == "bram" and of(events, Harmed).damage == 16
    assert f.health("bram") == 2 and f.health("arwen") == 20


def test_weapon_block_makes_the_attack_roll_the_new_evasion() -> None:
    """Weapon Block: "If using a weapon with the block property, roll an attack with that weapon. The
    result becomes your or the ally's new Evasion (unless it's lower than their current Evasion)"."""
    blocker = {**BRAM, "shield": None, "property_proficiencies": ["Block"]}
    f = trio(bram=blocker)
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[12, 5])  # 15 against 13
    events = f.react("bram", "Weapon Block", dice=[14])  # 14 + 2 + 3 = 19: the new Evasion
    assert of(events, Defended).blocked and not any(isinstance(e, Harmed) for e in events)
    assert f.health("arwen") == 20


def test_weapon_block_needs_proficiency_with_the_block_property() -> None:
    """"You can only use the properties of a weapon if you are proficient with those properties"."""
    f = trio(bram={**BRAM, "shield": None})
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[12, 5])
    refused = f.refused(React(combatant_id="bram", window=f.window(), reaction="Weapon Block"))
    assert refused.code == "realms_cannot_react"


# ------------------------------------------------------------------- Dying


def test_at_zero_health_a_creature_is_dying_prone_with_one_ap() -> None:
    """R22: "at 0 Health or below a creature enters the Dying condition. It falls prone, its AP drops
    to 1 at once, and it gains only 1 AP at the end of each of its turns"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    harmed = of(f.pass_("brigand", dice=[19, 6, 6]), Harmed)  # a Critical: 6 + 6 + 5 = 17
    assert harmed.dying and f.health("brigand") == -5 and f.body("brigand").dying and f.ap("brigand") == 1
    f.end_turn("arwen", dice=[1])  # the Brigand's turn begins: 1d4 Dying damage
    f.end_turn("brigand")
    assert f.ap("brigand") == 1


def test_dying_damage_escalates_each_turn_by_the_chapters_default() -> None:
    """R22, the chapter 2 text: "1d4, then 2d4, then 4d4, doubling the number of dice"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("brigand", {**BRIGAND, "health": 40}, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[19, 6, 6])  # 17
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[20, 6, 6])  # 20 + 2 + 5 - 5 = 22: 17 ... Health 40 - 34 = 6
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[19, 6, 6])  # 17: Health -11, Dying
    assert f.body("brigand").dying
    first = of(f.end_turn("arwen", dice=[2]), Harmed)
    assert (first.cause, len(first.dice), first.damage) == ("dying", 1, 2)
    f.end_turn("brigand")
    second = of(f.end_turn("arwen", dice=[1, 1]), Harmed)
    assert len(second.dice) == 2
    f.end_turn("brigand")
    third = of(f.end_turn("arwen", dice=[1, 1, 1, 1]), Harmed)
    assert len(third.dice) == 4 and f.health("brigand") == -11 - 2 - 2 - 4


def test_the_appendix_sequence_is_the_rms_setting() -> None:
    """R22, the conditions appendix: "1d4, then 1d8, then 2d8, then 4d8": "The publisher contradicts
    itself. Make the sequence a ruleset setting, defaulting to the chapter 2 text"."""
    assert RealmsRules().dying_step(1) == (2, 4)
    appendix = RealmsRules(dying_damage="appendix")
    assert [appendix.dying_step(i) for i in range(4)] == [(1, 4), (1, 8), (2, 8), (4, 8)]


def test_stabilising_stops_the_escalation_and_death_comes_at_minus_the_maximum_health() -> None:
    """R22: "Stabilising: Medicine, bandages, potions, feats or any Healing Power (any amount of
    healing) stops the escalation. Taking damage again while below 0 restarts it at 1d4. Death comes
    at −(maximum Health)"; "When a dying character is stabilised or revived it gains 1 level of Exhausted"."""
    f = Fight()
    f.add("arwen", {**ARWEN, "martial_proficiency": 6})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[10, 6])  # 6 + 9 = 15: Health -3
    f.send(Stabilise(combatant_id="brigand"))
    assert f.body("brigand").stabilised and f.body("brigand").exhausted == 1
    assert not any(isinstance(e, Harmed) for e in f.end_turn("arwen"))  # no Dying damage
    f.end_turn("brigand")
    assert f.refused(Stabilise(combatant_id="arwen")).code == "realms_not_dying"
    harmed = of(arwen_hits(f, [5, 1]), Harmed)  # 5 + 9 = 14 against 11; 1 + 9 = 10: Health -13
    assert harmed.dead and f.body("brigand").dead
    assert f.refused(Heal(combatant_id="brigand", amount=5)).code == "realms_dead"


def test_healing_above_zero_ends_dying_and_never_passes_the_maximum() -> None:
    """R20: "Healing restores Health up to the maximum"; R22: "It can't leave Dying until healed above 0"."""
    f = Fight()
    f.add("arwen", {**ARWEN, "martial_proficiency": 6})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[10, 6])  # Health -3
    small = of(f.send(Heal(combatant_id="brigand", amount=2)), Healed)
    assert not small.revived and f.body("brigand").dying and f.body("brigand").stabilised
    big = of(f.send(Heal(combatant_id="brigand", amount=50)), Healed)
    assert big.revived and big.health == 12 and not f.body("brigand").dying
    assert small.exhausted and big.exhausted and f.body("brigand").exhausted == 2  # stabilised, then revived
    assert f.refused(Heal(combatant_id="brigand", amount=1)).code == "realms_full_health"


def test_a_dying_creature_stabilised_and_later_revived_gains_an_exhausted_level_at_each() -> None:
    """R22: "When a dying character is stabilised or revived it gains 1 level of Exhausted". A character
    stabilised is still dying ("It can't leave Dying until healed above 0"), so when it is revived later
    it is again "a dying character ... revived": one level at each, two in all; revived at once by one
    healing, one level."""
    f = Fight()
    f.add("arwen", {**ARWEN, "martial_proficiency": 6})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand", dice=[10, 6])  # Health -3
    f.send(Stabilise(combatant_id="brigand"))
    assert f.body("brigand").exhausted == 1
    revived = of(f.send(Heal(combatant_id="brigand", amount=10)), Healed)
    assert revived.revived and revived.exhausted and f.body("brigand").exhausted == 2
    assert "exhausted 2" in conditions(f.state.combatants["brigand"].sheet, f.body("brigand"))
    g = Fight()
    g.add("arwen", {**ARWEN, "martial_proficiency": 6})
    g.add("brigand", BRIGAND, side="enemies", controller="gm")
    g.send(RollInitiative(dice=[15, 3]))
    g.send(StartEncounter())
    g.send(Attack(combatant_id="arwen", target="brigand"))
    g.pass_("brigand", dice=[10, 6])
    g.send(Heal(combatant_id="brigand", amount=10))
    assert g.body("brigand").exhausted == 1


def test_companions_die_at_zero_health() -> None:
    """R22: "Companions don't enter Dying; they die (or unsummon) at 0 Health"."""
    f = started(brigand={**BRIGAND, "companion_of": "arwen", "health": 5})
    # a Companion not Commanded this round takes no Reaction: no Dodge window
    assert of(f.send(Attack(combatant_id="arwen", target="brigand", dice=[15, 1])), Harmed).dead  # 1 + 5 = 6


def test_a_non_lethal_attack_leaves_the_target_unconscious() -> None:
    """"If the damage would otherwise reduce the target to 0 Health or lower, the target is instead
    rendered unconscious for 1 hour"."""
    f = started()
    harmed = of(arwen_hits(f, [19, 6, 6], non_lethal=True), Harmed)
    assert harmed.unconscious and not harmed.dying and f.health("brigand") == 0
    f.end_turn("arwen")
    assert f.refused(TakeAction(combatant_id="brigand", action="Movement", spaces=1)).code == "realms_unconscious"


# ------------------------------------------------------------------- objects


def test_objects_are_hit_automatically_never_critically_and_mental_attacks_fail() -> None:
    """"You automatically hit any attack directed at an inanimate object ... attacks against objects
    cannot be critical hits"; "Any power, feat, or attack targeting an inanimate object automatically
    fails and has no effect if it targets Mental Fortitude, Resolve, or Discernment"."""
    mind = {**ARWEN, "powers": [{"name": "Charm", "dice": 0, "targets": "resolve"}]}
    f = started(arwen=mind, brigand={"object": True, "health": 30})
    events = f.send(Attack(combatant_id="arwen", target="brigand", dice=[6]))  # no roll, no Reaction window
    rolled = of(events, AttackRolled)
    assert rolled.die is None and rolled.hit and not rolled.critical and of(events, Harmed).damage == 6 + 5
    assert f.refused(Attack(combatant_id="arwen", target="brigand", power="Charm")).code == "realms_no_effect"


# ------------------------------------------------------------------- odds


def test_the_odds_of_an_attack_are_counted_over_the_twenty_faces() -> None:
    """D20 + bonus against a Defence, with the natural 20 (+2) and 1 (−2), the critical at +10."""
    odds = attack_odds(AttackOddsQuery(bonus=5, score=15))
    assert (odds.hit_ways, odds.critical_ways, odds.ways) == (11, 1, 20)  # faces 10-20; 20 + 2 + 5 = 27
    assert sum(d.ways for d in odds.degrees) == 20
    assert attack_odds(AttackOddsQuery(bonus=0, score=21)).hit_ways == 1  # only a natural 20 (22)


# ------------------------------------------------------------ Counter Power, Combination Attack


MAGE = {"health": 14, "power_proficiency": 2, "power_ability": "intelligence", "energy": 20,
        "abilities": {"intelligence": 3},
        "powers": [{"name": "Fire Bolt", "dice": 2, "sides": 6, "damage_type": "fire", "range": 10, "energy": 5}]}
WARDEN = {"health": 14, "power_proficiency": 3, "power_ability": "charisma", "energy": 10, "abilities": {"charisma": 2},
          "powers": [{"name": "Ward", "dice": 0, "range": 10, "energy": 5, "action_points": 1}]}


def test_counter_power_spends_the_powers_ap_and_energy_and_nullifies_on_a_higher_roll() -> None:
    """Counter Power: "spend the same number of Action Points and Energy as you would normally spend to
    use your Power ... Make an attack roll with your Power against the attack roll ... Both sides add
    +1 to their roll or Score for every 5 energy spent ... If your roll exceeds the target roll or
    Score, you successfully nullify their Power"; Multiple Counters: "the Power Proficiency of all
    creatures countering is added together"."""
    f = Fight()
    f.add("mage", MAGE, side="enemies", controller="gm")
    f.add("arwen", ARWEN)
    f.add("warden", WARDEN)
    f.add("bram", {**WARDEN, "power_proficiency": 1})
    f.send(RollInitiative(dice=[15, 3, 2, 1]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mage", target="arwen", power="Fire Bolt", distance=4))
    [dodge, ward, ward2] = sorted(f.ruleset.pending(f.state), key=lambda d: d.combatant_id)
    assert [c.name for c in ward.choices] == ["Counter Power: Ward", "Pass"] and ward.choices[0].action_points == 1
    f.react("warden", "Counter Power: Ward")
    f.react("bram", "Counter Power: Ward")
    assert (f.ap("warden"), f.body("warden").energy_spent) == (3, 5)
    # the Fire Bolt: 10 + 5 = 15, +1 for its 5 Energy: 16; the Ward: 12 + 5 + Bram's 1 + 2 (10 Energy) = 20
    events = f.pass_("arwen", dice=[10, 12])
    rolled = of(events, AttackRolled)
    assert rolled.countered and not rolled.hit and rolled.counter_total == 20
    assert f.health("arwen") == 20


def test_a_counter_that_does_not_exceed_the_attack_roll_leaves_the_power() -> None:
    """"If your roll exceeds the target roll": a tie is not enough."""
    f = Fight()
    f.add("mage", MAGE, side="enemies", controller="gm")
    f.add("warden", WARDEN)
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mage", target="warden", power="Fire Bolt", distance=4))
    # the Warden counters, may still Dodge, and passes: the attack roll 10 + 5 + 1 = 16 against the
    # Ward's 10 + 5 + 1 = 16, not exceeded; a hit on Evasion 10, 2d6 + 5
    f.react("warden", "Counter Power: Ward")
    rolled = of(f.pass_("warden", dice=[10, 10, 3, 3]), AttackRolled)
    assert (rolled.countered, rolled.hit, rolled.counter_total) == (False, True, 16)
    assert f.health("warden") == 14 - 11


def test_a_second_counter_power_in_a_turn_takes_the_multiple_action_penalty() -> None:
    """Multiple Action Penalty: "If you take the same Action or Reaction more than once in a turn, and it
    involves a D20 roll, you incur a -5 penalty to all related D20 rolls each subsequent time you perform
    that Action": the Warden's second Counter Power in the Mage's turn rolls at -5, and so does a second
    counter of a Power in effect on one turn."""
    f = Fight()
    f.add("mage", MAGE, side="enemies", controller="gm")
    f.add("warden", WARDEN)
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mage", target="warden", power="Fire Bolt", distance=4))
    f.react("warden", "Counter Power: Ward")
    first = of(f.pass_("warden", dice=[10, 12]), AttackRolled)  # 12 + 5 + 1 = 18 against 10 + 5 + 1 = 16
    assert (first.countered, first.counter_total, first.counter_penalty) == (True, 18, 0)
    f.send(Attack(combatant_id="mage", target="warden", power="Fire Bolt", distance=4))
    f.react("warden", "Counter Power: Ward")
    # the Mage's own second attack is at -5 too: 15 + 5 - 5 + 1 = 16; the Ward 12 + 5 + 1 - 5 = 13
    second = of(f.pass_("warden", dice=[15, 12, 3, 3]), AttackRolled)
    assert (second.countered, second.counter_total, second.counter_penalty) == (False, 13, -5)
    assert second.hit and f.health("warden") == 14 - 11

    g = Fight()
    g.add("warden", WARDEN)
    g.add("mage", MAGE, side="enemies", controller="gm")
    g.send(RollInitiative(dice=[15, 3]))
    g.send(StartEncounter())
    once = g.send(CounterInEffect(combatant_id="warden", power="Ward", score=12, dice=[10]))[0]
    twice = g.send(CounterInEffect(combatant_id="warden", power="Ward", score=12, dice=[10]))[0]
    assert (once.penalty, once.total, twice.penalty, twice.total) == (0, 16, -5, 11)
    assert once.nullified and not twice.nullified


def test_a_combination_attack_adds_the_help_die_to_the_attack_and_damage_rolls() -> None:
    """Combination Attack: "Roll a die based on your Attack Bonus, rounded up to the nearest even
    number, and add it to their Attack and Damage Rolls. This functions as a “Help Die.” You can
    either roll the die once for both rolls" (once, here)."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("bram", BRAM)  # Attack Bonus 5 with the Sword: a d6
    f.add("brigand", {**BRIGAND, "health": 40}, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3, 2]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.react("bram", "Combination Attack", dice=[4])
    rolled = of(f.pass_("brigand", dice=[3, 2]), AttackRolled)
    assert (rolled.help, rolled.total, rolled.damage) == (4, 3 + 5 + 4, 2 + 5 + 4)
    assert f.ap("bram") == 3


def test_a_prepared_attack_is_paid_on_ones_turn_and_used_as_a_reaction() -> None:
    """Prepared Actions: "prepare an Action to use as a Reaction later in the round by spending the
    Action Point cost for that Action on your turn"; "If you fail to utilize the prepared action you do
    not regain those spent resources"."""
    from domain.realms.events import Prepare, UsePrepared
    f = started()
    f.send(Prepare(combatant_id="arwen", trigger="the Brigand stepping onto the bridge", target="brigand"))
    assert f.ap("arwen") == 2
    f.end_turn("arwen")
    assert f.ap("arwen") == 4  # the prepared attack stays, paid for
    declared = of(f.send(UsePrepared(combatant_id="arwen")), AttackDeclared)  # on the Brigand's turn
    assert declared.prepared and declared.action_points == 0 and f.ap("arwen") == 4
    of(f.pass_("brigand", dice=[12, 3]), Harmed)
    assert f.refused(UsePrepared(combatant_id="arwen")).code == "realms_nothing_prepared"
    f.end_turn("brigand")
    f.send(Prepare(combatant_id="arwen", trigger="anything", target="brigand"))
    f.end_turn("arwen")
    f.end_turn("brigand")  # Arwen's next turn begins: the unused preparation is lost
    assert f.body("arwen").prepared is None


def test_any_action_of_the_table_can_be_prepared_and_used_as_a_reaction() -> None:
    """Prepared Actions: "You may choose to prepare an Action to use as a Reaction later in the round by
    spending the Action Point cost for that Action on your turn. Specify what you will be reacting to and
    what the Action will be"; "If you fail to utilize the prepared action you do not regain those spent
    resources"."""
    from domain.realms.events import ActionTaken, Prepare, Prepared, TakeAction, UsePrepared
    f = started()
    assert f.refused(Prepare(combatant_id="arwen", trigger="anything")).code == "realms_prepare_what"
    assert f.refused(Prepare(combatant_id="arwen", trigger="a step", action="Movement", spaces=99)).code == \
        "realms_too_far"
    assert f.refused(Prepare(combatant_id="arwen", trigger="a step", action="Overcome")).code == "realms_not_prepared"
    prepared = of(f.send(Prepare(combatant_id="arwen", trigger="the Brigand's charge", action="Ability Roll",
                                 roll_with="agility")), Prepared)
    assert (prepared.action, prepared.action_points, f.ap("arwen")) == ("Ability Roll", 1, 3)
    f.end_turn("arwen")
    taken = of(f.send(UsePrepared(combatant_id="arwen", dice=[12])), ActionTaken)  # on the Brigand's turn
    assert (taken.action, taken.prepared, taken.action_points, taken.total) == ("Ability Roll", True, 0, 15)
    assert f.ap("arwen") == 4 and f.body("arwen").prepared is None
    assert f.refused(UsePrepared(combatant_id="arwen")).code == "realms_nothing_prepared"
    f.end_turn("brigand")
    f.send(Prepare(combatant_id="arwen", trigger="an opening", action="Movement", spaces=2))
    assert f.ap("arwen") == 3
    f.send(TakeAction(combatant_id="arwen", action="Quick Action"))
    f.end_turn("arwen")
    f.end_turn("brigand")  # unused by her next turn: lost, with what it cost
    assert f.body("arwen").prepared is None


def test_a_coup_de_grace_outside_combat_hits_critically() -> None:
    """"Whenever you attempt to attack a creature outside of Combat that is unconscious or asleep and
    within 1 space, you automatically hit and achieve a critical hit"."""
    from domain.core.encounter import EndEncounter
    from domain.realms.events import CoupDeGrace
    f = started()
    assert f.refused(CoupDeGrace(combatant_id="arwen", target="brigand", asleep=True)).code == "realms_no_coup_de_grace"
    arwen_hits(f, [19, 6, 6], non_lethal=True)  # unconscious
    f.send(EndEncounter())
    events = f.send(CoupDeGrace(combatant_id="arwen", target="brigand", dice=[2, 3]))
    rolled = of(events, AttackRolled)
    assert rolled.die is None and rolled.critical and rolled.damage == 2 + 3 + 5
    assert of(events, Harmed).health == 0 - 10


def test_an_attack_on_several_defences_the_defender_rolls_the_untargeted_one_against_the_potency() -> None:
    """"the attacker will always roll to hit Evasion (if applicable), as well as roll against all (but
    one) of the targeted Defenses. The defending creature then rolls their untargeted Defense, typically
    against the attacker's Attack Score, to Overcome the attack"; Potency "is calculated as your Power
    Bonus + 10"."""
    storm = {**MAGE, "powers": [{"name": "Thunder", "dice": 1, "sides": 6, "damage_type": "sonic", "range": 10,
                                 "targets": "evasion", "also_targets": ["fortitude", "might"]}]}
    f = Fight()
    f.add("mage", storm, side="enemies", controller="gm")
    f.add("arwen", ARWEN)
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mage", target="arwen", power="Thunder", distance=4))
    # Evasion 13 and Fortitude 10 against 10 + 5 = 15; Arwen's Might 14 + Strength 1 = 15 meets Potency 15
    rolled = of(f.pass_("arwen", dice=[10, 14, 2]), AttackRolled)
    fortitude, might = rolled.defences
    assert (fortitude.defence, fortitude.total, fortitude.score, fortitude.hit) == ("fortitude", 15, 10, True)
    assert (might.roller, might.total, might.score, might.hit) == ("arwen", 15, 15, False)
    assert rolled.hit and rolled.damage == 2 + 5


def test_a_reactions_repeated_d20_roll_in_a_turn_takes_the_multiple_action_penalty() -> None:
    """"If you take the same Action or Reaction more than once in a turn, and it involves a D20 roll, you
    incur a -5 penalty to all related D20 rolls each subsequent time"."""
    from domain.realms.events import Reacted
    f = trio()
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[15, 1])  # 15 + 3 = 18 hits; 1 + 3 damage
    first = of(f.react("bram", "Shield Defense", dice=[10]), Reacted)  # 15: short of 18
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[20, 1])  # 20 + 2 + 3 - 5 = 20
    second = of(f.react("bram", "Shield Defense", dice=[10]), Reacted)
    assert (first.penalty, first.total, second.penalty, second.total) == (0, 15, -5, 10)


def test_a_creature_takes_several_reactions_before_the_roll_its_ap_permitting_but_one_defend() -> None:
    """"The Actions you take outside of your turn are Reactions"; "outside your turn, AP can be used
    for Reactions": the text limits them by AP, not to one an attack. Dodge "+1 Evasion", Counter Power
    "spend the same number of Action Points and Energy": the target may do both; Defend (1 AP) is one
    Reaction, by a shield, a weapon or one's body."""
    f = Fight()
    f.add("mage", MAGE, side="enemies", controller="gm")
    f.add("warden", {**WARDEN, "shield": {"sides": 4}})
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mage", target="warden", power="Fire Bolt", distance=4))
    f.react("warden", "Dodge")
    [decision] = f.ruleset.pending(f.state)  # still the Warden's: the Counter is left
    assert [c.name for c in decision.choices] == ["Counter Power: Ward", "Pass"]
    assert f.refused(React(combatant_id="warden", window=f.window(), reaction="Dodge")).code == "realms_cannot_react"
    # the Counter settles the window (nothing left to take): 12 + 5 + 1 = 18 against the Ward's 4 + 5 + 1 = 10;
    # Evasion 10 + 1 (the Dodge) is hit, 2d6 + 5
    rolled = of(f.react("warden", "Counter Power: Ward", dice=[12, 4, 3, 3]), AttackRolled)
    assert (rolled.score, rolled.hit, rolled.countered) == (11, True, False)
    assert f.ap("warden") == 4 - 2
    [defend] = f.ruleset.pending(f.state)
    assert [c.name for c in defend.choices] == ["Shield Defense", "Pass"]
    f.react("warden", "Shield Defense", dice=[1])  # 1 - 2 misses the attack roll: no Shield Die
    assert f.ap("warden") == 1 and rules(f.state).attack is None  # one Defend: the attack is done
    assert f.health("warden") == 14 - 11


def test_an_evade_gives_two_against_the_next_attack_only_and_each_further_use_one_more() -> None:
    """R1 and the rules README: "Evade 1 (+2 Evasion against the next attack, +1 per extra use)": the
    attack after it meets Evasion 13 + 2, the one after that 13; two Evades give +3 to the next."""
    f = started()
    f.send(TakeAction(combatant_id="arwen", action="Evade"))
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    first = of(f.pass_("arwen", dice=[1]), AttackRolled)
    f.send(Attack(combatant_id="brigand", target="arwen"))
    second = of(f.pass_("arwen", dice=[1]), AttackRolled)
    assert (first.score, second.score) == (13 + 2, 13)
    f.end_turn("brigand")
    f.send(TakeAction(combatant_id="arwen", action="Evade"))
    f.send(TakeAction(combatant_id="arwen", action="Evade"))
    assert f.refused(TakeAction(combatant_id="arwen", action="Evade", split=True)).code == "realms_evade_mixed"
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    third = of(f.pass_("arwen", dice=[1]), AttackRolled)
    assert third.score == 13 + 2 + 1 and f.body("arwen").evades == 0


def test_a_split_evade_gives_two_against_each_attack_it_is_allotted_to() -> None:
    """R1: "Evade can also be split: +2 against each of several attacks in the next round, up to the
    number of Evades taken, allocated before anyone rolls"."""
    f = started()
    f.send(TakeAction(combatant_id="arwen", action="Evade", split=True))
    f.send(TakeAction(combatant_id="arwen", action="Evade", split=True))
    assert f.ap("arwen") == 2 and f.body("arwen").split_evades == 2
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    [decision] = f.ruleset.pending(f.state)
    assert [(c.name, c.action_points) for c in decision.choices] == [("Dodge", 1), ("Split Evade", 0), ("Pass", 0)]
    f.react("arwen", "Split Evade")  # before the roll; she may still Dodge
    first = of(f.pass_("arwen", dice=[1]), AttackRolled)
    assert first.score == 13 + 2 and f.body("arwen").split_evades == 1
    f.send(Attack(combatant_id="brigand", target="arwen"))
    second = of(f.pass_("arwen", dice=[1]), AttackRolled)
    assert second.score == 13  # not allotted: a split Evade counts only where it is
    assert f.body("arwen").split_evades == 1


def test_attacks_take_minus_one_per_level_of_obscurity_the_attacker_claims() -> None:
    """R11: "Obscurity levels: Light ±1, Moderate ±2, Heavy ±3, Complete ±4 ... Attacks take −1 per
    level." A Blinded attacker is already Completely Obscured: a claimed level adds nothing to that."""
    from domain.realms.events import ApplyCondition

    def total(f: Fight, **attack: Any) -> int:
        return int(of(arwen_hits(f, [10, 3], **attack), AttackRolled).total)

    clear = total(started())
    assert total(started(), obscurity=2) == clear - 2
    assert total(started(), obscurity=4) == clear - 4
    blind = started()
    blind.send(ApplyCondition(combatant_id="arwen", condition="blinded"))
    blinded = total(blind, obscurity=3)
    assert blinded == clear - 4
    log = started()
    declared = of(log.send(Attack(combatant_id="arwen", target="brigand", obscurity=1)), AttackDeclared)
    assert declared.obscurity == 1
