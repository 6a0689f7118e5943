"""RealmsRPG's Energy below 0 and Overheal (realms-gaps.md R20), rest (R25), the Determination Die
(R10) and the Partial Success flag (U-R5), rule by rule."""

from __future__ import annotations

from msgspec.structs import replace

from domain.core.encounter import EndEncounter
from domain.realms.data import RealmsRules
from domain.realms.events import (
    ActionTaken, ApplyCondition, Attack, AttackRolled, ChangeEnergy, DealDamage, EnergyChanged, Grapple,
    GrappleRolled, Harmed, Heal, Healed, HidingRolled, Overcame, Overcome, Recover, Recovered, SetDetermination,
    SetRealmsRules, StealthHide, TakeAction,
)
from domain.realms.body import energy
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of, started

MAGE = {**ARWEN, "energy": 10, "power_proficiency": 2, "abilities": {**ARWEN["abilities"], "acuity": 3}}


def energy_of(f: Fight, cid: str) -> int:
    return energy(f.state.combatants[cid].sheet, f.body(cid))


# ------------------------------------------------------------------ Energy (R20)


def test_energy_drained_below_zero_stops_at_zero_and_deals_one_damage_a_point() -> None:
    """R20: "If Energy drops below 0, the creature takes 1 damage per point below 0. Energy can't go
    below 0"."""
    f = started(arwen=MAGE)
    drained = f.send(ChangeEnergy(combatant_id="arwen", amount=-4))
    assert [type(e) for e in drained] == [EnergyChanged] and energy_of(f, "arwen") == 6
    events = f.send(ChangeEnergy(combatant_id="arwen", amount=-9))
    changed, harmed = of(events, EnergyChanged), of(events, Harmed)
    assert (changed.energy, changed.below) == (0, 3) and energy_of(f, "arwen") == 0
    assert (harmed.damage, harmed.cause, f.health("arwen")) == (3, "energy", 20 - 3)


def test_energy_damage_is_not_cut_by_armour() -> None:
    """R20: "1 damage per point below 0": the points, not an attack's damage (no armour reduction)."""
    f = started(arwen={**MAGE, "armour": {"damage_reduction": 2}})
    harmed = of(f.send(ChangeEnergy(combatant_id="arwen", amount=-12)), Harmed)
    assert (harmed.damage, harmed.armour) == (2, 0)


def test_restored_energy_stops_at_the_maximum_and_ones_own_power_cannot_push_it_below_zero() -> None:
    """R20: "you can't push your own Energy below 0"; restoring gives back up to the maximum."""
    f = started(arwen={**MAGE, "powers": [{"name": "Bolt", "dice": 1, "sides": 6, "energy": 8}]})
    f.send(ChangeEnergy(combatant_id="arwen", amount=-5))
    assert of(f.send(ChangeEnergy(combatant_id="arwen", amount=20)), EnergyChanged).energy == 10
    f.send(ChangeEnergy(combatant_id="arwen", amount=-3))
    assert f.refused(Attack(combatant_id="arwen", target="brigand", power="Bolt")).code == "realms_not_enough_energy"


# ------------------------------------------------------------------ healing (R20)


def test_overheal_goes_over_the_maximum_and_stacks() -> None:
    """R20: "Overheal can go over the maximum, stacks, and lasts until damage would take you below the
    maximum or until a recovery"."""
    f = started()
    assert f.refused(Heal(combatant_id="arwen", amount=5)).code == "realms_full_health"
    first = of(f.send(Heal(combatant_id="arwen", amount=5, overheal=True)), Healed)
    assert (first.health, first.overheal, f.health("arwen")) == (25, 5, 25)
    assert of(f.send(Heal(combatant_id="arwen", amount=3, overheal=True)), Healed).health == 28  # "stacks"
    # plain healing never takes Overheal away, nor adds to it
    assert f.refused(Heal(combatant_id="arwen", amount=1)).code == "realms_full_health"
    f.send(DealDamage(combatant_id="arwen", amount=10))
    assert f.health("arwen") == 18  # the damage took the Overheal, then below the maximum
    assert of(f.send(Heal(combatant_id="arwen", amount=9)), Healed).health == 20  # "up to the maximum"


def test_healing_from_a_power_adds_the_healers_power_bonus() -> None:
    """R20: "healing from a Power adds the healer's Power Bonus"."""
    f = started(brigand={**BRIGAND, "power_proficiency": 2, "power_ability": "charisma",
                         "abilities": {**BRIGAND["abilities"], "charisma": 1}})
    f.send(DealDamage(combatant_id="arwen", amount=10))
    healed = of(f.send(Heal(combatant_id="arwen", dice_count=1, dice_sides=4, healer="brigand", dice=[2])), Healed)
    assert (healed.power_bonus, healed.amount, f.health("arwen")) == (3, 5, 15)


# ------------------------------------------------------------------ recovery (R25)


def test_a_partial_recovery_gives_back_a_quarter_of_each_per_two_hours_or_half_of_one() -> None:
    """R25: "Partial recovery comes in 2-hour blocks, up to 6 hours: each block gives back ¼ of maximum
    Health and ¼ of maximum Energy, or ½ of one of them"; R14: "Fractions are rounded up, after all the
    arithmetic is done"."""
    f = started(arwen=MAGE)
    f.send(DealDamage(combatant_id="arwen", amount=15))
    f.send(ChangeEnergy(combatant_id="arwen", amount=-10))
    assert f.refused(Recover(combatant_id="arwen", recovery="partial")).code == "realms_in_combat"
    f.send(EndEncounter())
    both = of(f.send(Recover(combatant_id="arwen", recovery="partial", blocks=1)), Recovered)
    assert (both.health, both.energy) == (5 + 5, 0 + 3)  # ¼ of 20; ¼ of 10 = 2.5, rounded up
    one = of(f.send(Recover(combatant_id="arwen", recovery="partial", blocks=2, restore="energy")), Recovered)
    assert (one.health, one.energy) == (10, 10)  # two blocks of ½ Energy: 3 + 10, up to the maximum
    assert (f.health("arwen"), energy_of(f, "arwen")) == (10, 10)


def test_a_full_recovery_restores_everything_and_takes_one_exhausted_level() -> None:
    """R25: "Full recovery (8–10 hours) restores everything"; R24 Exhausted: "one level goes with each
    Full Recovery"."""
    f = started(arwen=MAGE)
    f.send(ApplyCondition(combatant_id="arwen", condition="exhausted", level=2))
    f.send(DealDamage(combatant_id="arwen", amount=7))
    f.send(ChangeEnergy(combatant_id="arwen", amount=-6))
    f.send(EndEncounter())
    full = of(f.send(Recover(combatant_id="arwen", recovery="full")), Recovered)
    assert (full.health, full.energy, full.exhausted) == (20, 10, 1)
    assert f.body("arwen").conditions["exhausted"].level == 1


def test_a_recovery_ends_overheal() -> None:
    """R20: Overheal "lasts until damage would take you below the maximum or until a recovery"."""
    f = started()
    f.send(Heal(combatant_id="arwen", amount=6, overheal=True))
    f.send(EndEncounter())
    f.send(Recover(combatant_id="arwen", recovery="partial"))
    assert f.health("arwen") == 20


# ------------------------------------------------------------ the Determination Die (R10)


def test_a_determination_die_rerolls_the_attack_roll_keeping_the_better() -> None:
    """R10: "each character starts every session with one and can hold up to 3. Spending it re-rolls
    any roll, and you keep the result you prefer"."""
    f = started()
    assert f.ruleset.determination(f.state, f.state.combatants["arwen"]) == 1
    assert f.ruleset.determination(f.state, f.state.combatants["brigand"]) == 0  # the RM's creature
    f.send(Attack(combatant_id="arwen", target="brigand", determination=True))
    rolled = of(f.pass_("brigand", dice=[3, 14, 4]), AttackRolled)
    assert (rolled.die.face, rolled.discarded.face, rolled.total, rolled.hit) == (14, 3, 14 + 5, True)
    assert f.health("brigand") == 12 - (4 + 5)
    assert f.ruleset.determination(f.state, f.state.combatants["arwen"]) == 0
    refused = f.refused(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility",
                                   determination=True))
    assert refused.code == "realms_no_determination"


def test_the_rm_sets_the_dice_held_up_to_three_and_the_first_roll_is_kept_if_better() -> None:
    """R10: "can hold up to 3"; "you keep the result you prefer"; the encounter's setting gives what each
    player's character starts with."""
    f = started()
    f.send(SetDetermination(combatant_id="arwen", count=3))
    taken = of(f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility",
                                 determination=True, dice=[15, 9])), ActionTaken)
    assert (taken.die.face, taken.discarded.face, taken.total) == (15, 9, 18)
    grapple = of(f.send(Grapple(combatant_id="arwen", target="brigand", determination=True, dice=[2, 11])),
                 GrappleRolled)
    assert (grapple.die.face, grapple.discarded.face) == (11, 2)
    assert f.ruleset.determination(f.state, f.state.combatants["arwen"]) == 1
    g = Fight()
    g.send(SetRealmsRules(data=RealmsRules(determination_dice=0)))
    g.add("arwen", ARWEN)
    assert g.ruleset.determination(g.state, g.state.combatants["arwen"]) == 0


# --------------------------------------------------------------- Partial Success (U-R5)


def test_partial_success_is_the_rms_setting_with_the_gap_files_default() -> None:
    """U-R5: "Partial Success: it is unclear whether it means 'exceeds by exactly 1' or 'meets the
    Score'. GM flag (default: meets or exceeds by at most 1; a narrative flag only)"; R9: "A Partial
    Success or Failure is a miss or make by 1"."""
    f = started()
    roll = TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", against=13)
    assert of(f.send(replace(roll, dice=[10])), ActionTaken).partial == "partial success"  # meets it
    # the repeat takes the Multiple Action Penalty: 14 + 3 - 5 = 12, a miss by 1
    assert of(f.send(replace(roll, dice=[14])), ActionTaken).partial == "partial failure"
    f.send(SetRealmsRules(data=RealmsRules(partial_success="exactly_1")))
    f.end_turn("arwen")
    f.end_turn("brigand")
    meets = of(f.send(replace(roll, dice=[10])), ActionTaken)
    assert (meets.partial, meets.degrees) == (None, 1)  # a Success, not a partial one
    assert of(f.send(replace(roll, dice=[16])), ActionTaken).partial == "partial success"  # 16 + 3 - 5 = 14


def test_a_determination_die_rerolls_one_defences_overcome_roll_or_a_stealth_roll() -> None:
    """R10: "Spending it re-rolls any roll, and you keep the result you prefer"."""
    f = started()
    f.send(SetDetermination(combatant_id="arwen", count=2))
    f.send(ApplyCondition(combatant_id="arwen", condition="slowed", defence="might", score=12))
    f.send(ApplyCondition(combatant_id="arwen", condition="bleed", defence="fortitude", score=12))
    f.end_turn("arwen")
    done = of(f.send(Overcome(combatant_id="arwen", order=["might", "fortitude"], determination="might",
                              dice=[3, 13, 4])), Overcame)
    might, fortitude = done.rolls
    assert (might.die.face, done.discarded.face, might.overcome) == (13, 3, ["slowed"])  # 13 + 1 = 14
    assert (fortitude.die.face, fortitude.overcome) == (4, [])
    f.end_turn("arwen")
    f.end_turn("brigand")
    hid = of(f.send(StealthHide(combatant_id="arwen", determination=True, dice=[9, 2])), HidingRolled)
    assert (hid.die.face, hid.discarded.face) == (9, 2)
    assert f.ruleset.determination(f.state, f.state.combatants["arwen"]) == 0
