"""RealmsRPG's conditions (realms-gaps.md R23-R24) and the End-of-Turn Overcome, rule by rule."""

from __future__ import annotations

from domain.core.encounter import EndTurn
from domain.realms.events import (
    ApplyCondition, Attack, AttackRolled, ConditionApplied, Harmed, Heal, Healed, Overcame, Overcome, OvercomeDue,
    RemoveCondition, TakeAction,
)
from tests.rulesets.realms.fight import ARWEN, BRIGAND, of, started


def test_the_end_of_turn_overcome_rolls_each_targeted_defence_once_against_every_score_on_it() -> None:
    """"If you are affected by Slow and Stun, both targeting your Might, and you also have a
    damage-over-time effect targeting your Fortitude, you would: Roll Might once and compare that
    single roll against the Difficulty Scores for both Slow and Stun. Roll Fortitude once"."""
    f = started(arwen={**ARWEN, "abilities": {**ARWEN["abilities"], "strength": 2}})
    f.send(ApplyCondition(combatant_id="arwen", condition="slowed", level=1, defence="might", score=12))
    f.send(ApplyCondition(combatant_id="arwen", condition="stunned", level=1, defence="might", score=15))
    f.send(ApplyCondition(combatant_id="arwen", condition="bleed", level=1, defence="fortitude", score=10))
    due = f.end_turn("arwen")
    assert [type(e) for e in due] == [OvercomeDue]  # "before gaining Action Points": the turn waits
    [decision] = f.ruleset.pending(f.state)
    assert (decision.command, [c.name for c in decision.choices]) == ("RealmsOvercome", ["roll", "decline"])
    assert f.refused(EndTurn(combatant_id="arwen")).code == "realms_overcome_due"
    # "You may attempt to Overcome the effects in any order": Fortitude first
    done = of(f.send(Overcome(combatant_id="arwen", order=["fortitude", "might"], dice=[9, 11])), Overcame)
    fortitude, might = done.rolls
    assert (fortitude.defence, fortitude.total, fortitude.overcome) == ("fortitude", 9, [])  # 9 < 10
    assert (might.total, might.against, might.overcome) == (13, {"slowed": 12, "stunned": 15}, ["slowed"])
    assert set(f.body("arwen").conditions) == {"stunned", "bleed"}
    f.end_turn("arwen")
    assert f.state.turn == "brigand"  # the Overcome is taken once a turn
    assert f.ap("arwen") == 3  # Stunned 1: "level fewer AP at the end of the turn"


def test_the_overcome_can_be_taken_earlier_for_one_ap_and_may_be_declined() -> None:
    """"You may spend 1 Action Point to take this action earlier in your turn instead of at the end"."""
    f = started()
    f.send(ApplyCondition(combatant_id="arwen", condition="exposed", level=2, defence="reflexes", score=10))
    events = f.send(TakeAction(combatant_id="arwen", action="Overcome", dice=[12]))
    assert of(events, Overcame).early and of(events, Overcame).rolls[0].overcome == ["exposed"]
    assert f.ap("arwen") == 3 and "exposed" not in f.body("arwen").conditions
    assert not any(isinstance(e, OvercomeDue) for e in f.end_turn("arwen"))
    f.send(ApplyCondition(combatant_id="brigand", condition="dazed", defence="mental_fortitude", score=14))
    f.end_turn("brigand")
    assert of(f.send(Overcome(combatant_id="brigand", attempt="decline")), Overcame).declined
    f.end_turn("brigand")
    assert "dazed" in f.body("brigand").conditions and f.state.turn == "arwen"


def test_conditions_dont_stack() -> None:
    """R23: "Conditions don't stack: only one instance of each. A new source replaces the old one
    only if it is stronger; the RM decides"."""
    f = started()
    f.send(ApplyCondition(combatant_id="brigand", condition="weakened", level=2))
    again = of(f.send(ApplyCondition(combatant_id="brigand", condition="weakened", level=3)), ConditionApplied)
    assert again.replaced == "weakened 2" and f.body("brigand").conditions["weakened"].level == 3
    f.send(RemoveCondition(combatant_id="brigand", condition="weakened"))
    assert f.refused(RemoveCondition(combatant_id="brigand", condition="weakened")).code == "realms_no_condition"


def test_stunned_loses_level_ap_at_once_never_below_one() -> None:
    """R24 Stunned: "lose level AP at once and level fewer AP at the end of the turn, but never fewer
    than 1 gained"; R23: "Stunned 5 against 4 AP ... reduces that value only to a minimum of 1"."""
    f = started()
    f.send(ApplyCondition(combatant_id="brigand", condition="stunned", level=2))
    assert f.ap("brigand") == 2
    f.send(ApplyCondition(combatant_id="arwen", condition="stunned", level=5))
    assert f.ap("arwen") == 1
    f.end_turn("arwen")
    assert f.ap("arwen") == 1  # 4 - 5, but never fewer than 1


def test_leveled_and_unleveled_conditions_change_the_rolls() -> None:
    """R24: Exposed "−1 to all Defences and Evasion", Staggered "−1 Evasion" (per level); Grappled
    "−2 to its attacks, +2 to hit it"; Prone "+2 to hit it from melee range"; Weakened "−1 to all d20 rolls"."""
    f = started()
    f.send(ApplyCondition(combatant_id="brigand", condition="exposed", level=1))
    f.send(ApplyCondition(combatant_id="brigand", condition="staggered", level=2))
    f.send(ApplyCondition(combatant_id="brigand", condition="prone"))
    f.send(Attack(combatant_id="arwen", target="brigand"))
    rolled = of(f.pass_("brigand", dice=[5, 1]), AttackRolled)
    assert (rolled.score, rolled.total) == (11 - 1 - 2, 5 + 5 + 2)
    f.send(ApplyCondition(combatant_id="arwen", condition="grappled"))
    f.send(ApplyCondition(combatant_id="arwen", condition="weakened", level=1))
    f.send(Attack(combatant_id="arwen", target="brigand"))
    assert of(f.pass_("brigand", dice=[5]), AttackRolled).total == 5 + 5 - 5 - 2 - 1 + 2  # the repeat, Grappled, Weakened; Prone
    assert f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=1)).code == "realms_too_far"


def test_dazed_takes_no_reactions() -> None:
    """R24 Dazed: "no Reactions"."""
    f = started()
    f.send(ApplyCondition(combatant_id="brigand", condition="dazed"))
    events = f.send(Attack(combatant_id="arwen", target="brigand", dice=[5]))
    assert of(events, AttackRolled) and f.ruleset.pending(f.state) == []  # no Dodge offered


def test_bleed_takes_health_at_the_start_of_the_turn_and_healing_reduces_it() -> None:
    """R24 Bleed: "−1 Health at the start of the turn per level; healing reduces Bleed by the amount
    healed but restores that much less Health"."""
    f = started()
    f.send(ApplyCondition(combatant_id="brigand", condition="bleed", level=3))
    harmed = of(f.end_turn("arwen"), Harmed)
    assert (harmed.cause, harmed.damage, f.health("brigand")) == ("bleed", 3, 9)
    healed = of(f.send(Heal(combatant_id="brigand", amount=2)), Healed)
    assert healed.bleed == 2 and healed.amount == 0 and f.body("brigand").conditions["bleed"].level == 1


def test_resilient_and_susceptible_change_the_damage_taken() -> None:
    """R24: Resilient "−1 damage taken", Susceptible "+1 damage taken", per level."""
    f = started(brigand={**BRIGAND, "health": 40})
    f.send(ApplyCondition(combatant_id="brigand", condition="resilient", level=2))
    f.send(Attack(combatant_id="arwen", target="brigand"))
    assert of(f.pass_("brigand", dice=[15, 4]), Harmed).damage == 9 - 2
    f.send(RemoveCondition(combatant_id="brigand", condition="resilient"))
    f.send(ApplyCondition(combatant_id="brigand", condition="susceptible", level=1))
    f.send(Attack(combatant_id="arwen", target="brigand"))
    assert of(f.pass_("brigand", dice=[19, 4]), Harmed).damage == 9 + 1


def test_a_charmed_creature_cannot_harm_its_charmer() -> None:
    """R24 Charmed: "can't harm the charmer"."""
    f = started()
    f.send(ApplyCondition(combatant_id="arwen", condition="charmed", source="brigand"))
    assert f.body("arwen").conditions["charmed"].source == "brigand"
    refused = f.refused(Attack(combatant_id="arwen", target="brigand"))
    assert refused.code == "realms_charmed" and f.ap("arwen") == 4


def test_a_frightened_creature_takes_its_level_off_attacks_against_the_source_of_fear() -> None:
    """R24 Frightened: "−level against the source of fear"."""
    f = started()
    f.send(ApplyCondition(combatant_id="arwen", condition="frightened", level=2, source="brigand"))
    f.send(Attack(combatant_id="arwen", target="brigand"))
    rolled = of(f.pass_("brigand", dice=[8, 1]), AttackRolled)
    assert (rolled.total, rolled.hit) == (8 + 5 - 2, True)  # 11 meets Evasion 11


def test_a_restrained_creature_takes_no_weapon_attack_nor_shield_or_block() -> None:
    """R24 Restrained: "no actions or reactions that need the arms"; "As a general rule, all weapons
    require at least one hand to use"."""
    bram = {"health": 18, "martial_proficiency": 2, "abilities": {"strength": 3},
            "weapons": [{"name": "Sword", "dice": 1, "sides": 8, "properties": ["Block"]}],
            "proficiencies": {"slashing": 8}, "property_proficiencies": ["Block"], "shield": {"sides": 6}}
    f = started(arwen=bram)
    f.send(ApplyCondition(combatant_id="arwen", condition="restrained"))
    assert f.refused(Attack(combatant_id="arwen", target="brigand")).code == "realms_restrained"
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    f.pass_("arwen", dice=[15, 3])  # 15 + 3 = 18 hits Evasion 10: no Defend for a Restrained creature
    assert f.ruleset.pending(f.state) == [] and f.health("arwen") == 18 - 6


def test_the_rms_bonus_or_penalty_goes_to_the_creatures_next_d20_roll_only() -> None:
    """Charmed: "the charmer gets +2 on Charisma rolls and potencies against it"; Frightened: "−½ level
    while seeing it" (sight and the roll's target are the table's): the RM's ``RealmsModifyRoll``, R7
    "A Bonus or Penalty applies to the roller only", on the creature's next d20 roll, then spent."""
    from domain.realms.events import ActionTaken, ModifyRoll, RollModified, TakeAction

    f = started()
    given = of(f.send(ModifyRoll(combatant_id="arwen", amount=2, reason="charming the Brigand")), RollModified)
    assert given.amount == 2 and f.body("arwen").modifier == 2
    first = of(f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", dice=[10])),
               ActionTaken)
    second = of(f.send(TakeAction(combatant_id="arwen", action="Search", roll_with="agility", dice=[10])),
                ActionTaken)
    assert (first.total, second.total) == (10 + 3 + 2, 10 + 3) and f.body("arwen").modifier == 0
