"""RealmsRPG's Power Improvisation and Grapple, and the RM's own damage, rule by rule."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.encounter import RollInitiative, StartEncounter
from domain.core.log import story_for
from domain.realms.body import energy
from domain.realms.events import (
    ActionTaken,
    ApplyCondition,
    ConditionApplied,
    CounteredInEffect,
    CounterInEffect,
    DealDamage,
    Grapple,
    GrappleRolled,
    Harmed,
    ImprovisePower,
    Overcame,
    Overcome,
    PowerImprovised,
    PowerPart,
    TakeAction,
)
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of, started

SAGE = {**ARWEN, "power_proficiency": 2, "power_ability": "intelligence", "abilities": {"intelligence": 3}, "energy": 12}


@pytest.mark.parametrize(("face", "degrees", "multiplier", "energy"), [
    (16, 1, "2", 8),  # 16 + 5 = 21 meets 21: 1 Success, ×2
    (20, 2, "3/2", 6),  # 20 + 2 + 5 = 27: 2 Successes, ×1.5
    (15, -1, "3", 12),  # 20: 1 Failure, ×3
    (1, -4, "5", 20),  # 1 - 2 + 5 = 4: 17 short, 4 Failures ("3 or more"), ×5
])
def test_power_improvisation_multiplies_the_energy_by_the_result(face: int, degrees: int, multiplier: str,
                                                                  energy: int) -> None:
    """"The Difficulty Score is equal to 10 + the Training Point cost of each Power Part ... If you
    already have proficiency with any of the Power Parts, use half of those Parts' Training Point
    costs instead"; R3: "3 Failures → ×5; 2 Failures → ×4; 1 Failure → ×3; 1 Success → ×2; 2 Successes
    → ×1.5; 3 Successes → ×1"; "If this final cost exceeds your Energy reserves, you simply fail to
    create the Power; retaining your Energy, but losing the Action"."""
    f = started(arwen=SAGE)
    parts = [PowerPart(name="Deafening", cost=8), PowerPart(name="Blast", cost=5, proficient=True)]  # 10 + 8 + 3
    done = of(f.send(ImprovisePower(combatant_id="arwen", description="a deafening fireball", parts=parts, energy=4,
                                    dice=[face])), PowerImprovised)
    assert (done.difficulty, done.degrees, done.multiplier, done.energy) == (21, degrees, multiplier, energy)
    assert done.created == (energy <= 12)
    assert f.body("arwen").energy_spent == (energy if energy <= 12 else 0)
    assert f.ap("arwen") == 2  # the Action is spent either way


def test_power_improvisation_as_a_reaction_and_with_a_determination_die() -> None:
    """"As a Basic Action or Reaction, you can attempt to create a Power that isn't part of your known
    Powers": outside one's turn it is a Reaction, its 2 AP spent then (and its repeats counted apart from
    the turn's Basic Actions); R10: "Spending it re-rolls any roll, and you keep the result you prefer"."""
    f = started(arwen=SAGE)
    f.end_turn("arwen")  # the Brigand's turn
    parts = [PowerPart(name="Ward", cost=4)]  # Difficulty Score 14
    done = of(f.send(ImprovisePower(combatant_id="arwen", description="a sudden ward", parts=parts, energy=2,
                                    determination=True, dice=[3, 12])), PowerImprovised)
    assert done.reaction and done.action_points == 2 and f.ap("arwen") == 2
    assert (done.die.face, done.discarded.face, done.total) == (12, 3, 17)
    assert f.ruleset.determination(f.state, f.state.combatants["arwen"]) == 0
    story = story_for(f.ruleset)
    story.meet("arwen", "Arwen", "player")
    told = f.ruleset.sentences()["RealmsPowerImprovised"](msgspec.to_builtins(done), story)
    assert "2 AP, a Reaction): 12, total 17" in told and "a Determination Die re-rolls it, 3 set aside" in told, told
    # a Dazed creature takes no Reactions
    f.send(ApplyCondition(combatant_id="arwen", condition="dazed"))
    assert f.refused(ImprovisePower(combatant_id="arwen", description="again", parts=parts, energy=2,
                                    dice=[10])).code == "realms_cannot_react"


def test_grapple_on_might_grapples_and_is_escaped_by_overcome() -> None:
    """Grapple: "If you Overcome their Might or Reflex, the target is grappled. You may choose whether
    or not to deal unarmed damage, using Strength"; "Grappled targets can attempt to escape on their
    turn by rolling Might vs. your Strength Score using the Overcome action"."""
    f = started(arwen={**ARWEN, "unarmed_prowess": 2}, brigand={**BRIGAND, "size": "small"})
    events = f.send(Grapple(combatant_id="arwen", target="brigand", damage=True, dice=[8, 2]))
    rolled = of(events, GrappleRolled)
    # MP 2 + Strength 1, +2 for a size smaller: 8 + 5 = 13 against Might 12; damage 1d2 + 3
    assert (rolled.total, rolled.score, rolled.hit, rolled.strength_score) == (13, 12, True, 13)
    applied = of(events, ConditionApplied)
    assert (applied.condition, applied.defence, applied.score) == ("grappled", "might", 13)
    assert of(events, Harmed).damage == 5
    f.end_turn("arwen")
    f.end_turn("brigand")  # the End-of-Turn Overcome is due
    escaped = of(f.send(Overcome(combatant_id="brigand", dice=[11])), Overcame)
    assert escaped.rolls[0].overcome == ["grappled"]  # 11 + 2 = 13 meets 13


def test_you_cannot_grapple_creatures_more_than_one_size_larger() -> None:
    """"If the target is larger than you, you suffer a -2 penalty for each size they are larger. You
    cannot grapple creatures more than one size larger than you"."""
    f = started(brigand={**BRIGAND, "size": "huge"})
    assert f.refused(Grapple(combatant_id="arwen", target="brigand")).code == "realms_too_large"
    g = started(brigand={**BRIGAND, "size": "large"})
    assert of(g.send(Grapple(combatant_id="arwen", target="brigand", dice=[10])), GrappleRolled).size == -2


def test_the_rm_deals_damage_reduced_as_an_attacks_would_be() -> None:
    """R16: armour "cuts each applicable hit (minimum 1)"; the RM's damage (a hazard, an improvised
    Power's effect) goes through the same reductions."""
    f = started(brigand={**BRIGAND, "armour": {"damage_reduction": 2}})
    harmed = of(f.send(DealDamage(combatant_id="brigand", amount=5, damage_type="fire")), Harmed)
    assert (harmed.armour, harmed.damage, f.health("brigand")) == (2, 3, 9)
    assert of(f.send(DealDamage(combatant_id="brigand", dice_count=2, dice_sides=4, damage_type="psychic",
                                dice=[3, 4])), Harmed).damage == 7


def test_a_grapple_is_an_action_on_ones_own_turn() -> None:
    """"Actions are the things your Character does during their turn"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    assert f.refused(Grapple(combatant_id="brigand", target="arwen")).code == "not_your_turn"


def test_a_power_already_in_effect_is_countered_against_its_original_attack_score() -> None:
    """"Countering Powers Already in Effect. You can also attempt to end or dispel a Power that is already
    in effect by targeting its original attack score with your own Power"; "Both sides add +1 to their roll
    or Score for every 5 energy spent"; "If your roll exceeds the target roll or Score, you successfully
    nullify their Power"."""
    warden = {"health": 14, "power_proficiency": 3, "power_ability": "charisma", "energy": 10,
              "abilities": {"charisma": 2}, "powers": [{"name": "Ward", "range": 10, "energy": 5, "action_points": 1}]}
    f = started(arwen=warden)
    # the Power in effect: attack score 16 with 5 Energy (17); the Ward 11 + 5 + 1 = 17 does not exceed it
    held = of(f.send(CounterInEffect(combatant_id="arwen", power="Ward", score=16, energy=5, dice=[11])),
              CounteredInEffect)
    assert (held.total, held.nullified, f.ap("arwen")) == (17, False, 3)
    # outside its turn too (a Reaction), on a part of it
    f.end_turn("arwen")
    done = of(f.send(CounterInEffect(combatant_id="arwen", power="Ward", score=16, energy=5, part="the poison cloud",
                                     dice=[12])), CounteredInEffect)
    assert done.nullified and f.ap("arwen") == 3 and energy(f.state.combatants["arwen"].sheet, f.body("arwen")) == 0
    refused = f.refused(CounterInEffect(combatant_id="arwen", power="Ward", score=10, dice=[20]))
    assert refused.code == "realms_not_enough_energy"


def test_collateral_countering_uses_the_attacks_own_roll() -> None:
    """Collateral Countering: "If you use a Power without specifically intending to counter, but it may
    still affect the opposing Power, you can use your roll to attempt to counter as well"; "Both sides add
    +1 to their roll or Score for every 5 energy spent on their respective Powers"."""
    from domain.realms.events import (
        Attack,
        AttackRolled,
        Collateral,
        CollateralCountered,
    )
    gale = {**ARWEN, "power_proficiency": 2, "energy": 10,
            "powers": [{"name": "Wind Beam", "dice": 1, "sides": 6, "energy": 5, "range": 6}]}
    f = started(arwen=gale)
    poison = Collateral(score=14, energy=5, part="the poison cloud")  # 14 + 1 = 15
    f.send(Attack(combatant_id="arwen", target="brigand", power="Wind Beam", distance=3, collateral=poison))
    events = f.pass_("brigand", dice=[10, 4])  # no Dodge
    rolled, collateral = of(events, AttackRolled), of(events, CollateralCountered)
    assert rolled.total == 10 + 3 and (collateral.total, collateral.nullified) == (13 + 1, False)
    assert collateral.part == "the poison cloud" and energy(f.state.combatants["arwen"].sheet, f.body("arwen")) == 5
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(Attack(combatant_id="arwen", target="brigand", power="Wind Beam", distance=3, collateral=poison))
    events = f.pass_("brigand", dice=[13, 4])
    assert of(events, CollateralCountered).nullified  # 16 + 1 exceeds 15
    refused = f.refused(Attack(combatant_id="arwen", target="brigand", collateral=poison))
    assert refused.code == "realms_collateral_power"


def test_moving_while_grappling_halves_the_speed_and_needs_the_strength_to_drag_half_the_weight() -> None:
    """Movement with Grapple: "Moving while grappling a target requires you to have enough Strength to
    drag at least half of their weight (+1 Strength per 200 kg), and it reduces your Speed by ½"."""
    f = started(brigand={**BRIGAND, "weight": 300})
    assert of(f.send(Grapple(combatant_id="arwen", target="brigand", dice=[15])), GrappleRolled).hit
    assert f.body("brigand").conditions["grappled"].source == "arwen"
    # Speed 6 + ½ Agility 3 = 8, halved: 4; half of 300 kg needs Strength 1
    assert f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=5)).code == "realms_too_far"
    assert of(f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=4)), ActionTaken).spaces == 4
    g = started(brigand={**BRIGAND, "weight": 500})  # half of 500 kg: Strength 2
    g.send(Grapple(combatant_id="arwen", target="brigand", dice=[15]))
    assert g.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=1)).code == "realms_too_heavy"
