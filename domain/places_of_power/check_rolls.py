"""Checks in play: the GM calls for a check, the character rolls it, and may re-roll once.

"Every task players attempt to perform in Places of Power will have a difficulty level,
most commonly specified by the GM." The GM calls for the check (Attribute, Skill,
difficulty, Advantage or Disadvantage, whether the occupation applies); the combatant's
controller rolls it.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId, EventRef
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.checks import OCCUPATION_DIE, Difficulty, dice_for, judge
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.marks import SkillMarked, skill_marks
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.sheet import CONDITION_OF, Attribute, sides
from domain.places_of_power.table import CheckRecord, check, replace, sheet, with_check, with_sheet

Reason = Annotated[str, msgspec.Meta(max_length=500)]


class CallForCheck(Command, tag="CallForCheck"):
    """The GM calls for a check: the combatant rolls an Attribute + a Skill (``attribute``,
    ``skill``) against a ``difficulty``. ``occupation``: the roll relates to the character's occupation (an
    extra D6). ``no_reroll``: "Unless the GM states otherwise, re-rolls are always an option": the GM
    states otherwise for this check. The check's id is the version of the event that calls it."""

    combatant_id: CombatantId
    attribute: Attribute
    skill: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    difficulty: Difficulty
    advantage: bool = False
    disadvantage: bool = False
    occupation: bool = False
    reason: Reason = ""
    no_reroll: bool = False


Penalties = Annotated[list[str], msgspec.Meta(max_length=4)]


class RollCheck(Command, tag="RollCheck"):
    """Roll a check the GM called for. Reported dice: the Attribute die, the Skill die (as
    stepped by Advantage or Disadvantage, and by penalties), then the occupation D6.
    ``penalties``: how a Wounded or Afflicted character pays each Penalty Point
    (``IncreaseDifficulty`` or ``StepDownDie``)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    check: EventRef
    penalties: Penalties = msgspec.field(default_factory=list)


class ReRoll(Command, tag="ReRoll"):
    """Re-roll a failed (not critically failed) check, once. The Attribute's Condition is
    taken, the re-roll is at Disadvantage, and failing it is a Critical Failure."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    check: EventRef
    penalties: Penalties = msgspec.field(default_factory=list)


class CheckCalled(Event, tag="CheckCalled"):
    check: EventRef
    combatant_id: CombatantId
    attribute: str
    skill: str
    difficulty: str
    advantage: bool = False
    disadvantage: bool = False
    occupation: bool = False
    reason: str = ""
    no_reroll: bool = False


class CheckRolled(Event, tag="CheckRolled"):
    """``dice``: the Attribute die, the Skill die, then the occupation D6 if any."""

    check: EventRef
    combatant_id: CombatantId
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str
    levels: int
    advantage: bool = False
    disadvantage: bool = False
    reroll: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class ConditionTaken(Event, tag="ConditionTaken"):
    combatant_id: CombatantId
    condition: str
    reason: str = ""


class ConditionRemoved(Event, tag="ConditionRemoved"):
    combatant_id: CombatantId
    condition: str
    reason: str = ""


COMMANDS = (CallForCheck, RollCheck, ReRoll)
EVENTS = (CheckCalled, CheckRolled, ConditionTaken, ConditionRemoved, SkillMarked)


def call_for_check(state: EncounterState, cmd: CallForCheck) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    if sheet(c).skill_die(cmd.skill) is None:
        raise RuleViolation("unknown_skill", f"{c.name} has no skill “{cmd.skill}” on their sheet.", skill=cmd.skill)
    return [
        CheckCalled(
            check=state.version + 1, combatant_id=c.id, attribute=cmd.attribute, skill=cmd.skill,
            difficulty=cmd.difficulty, advantage=cmd.advantage, disadvantage=cmd.disadvantage,
            occupation=cmd.occupation, reason=cmd.reason, no_reroll=cmd.no_reroll,
        )
    ]


def roll_check(state: EncounterState, cmd: RollCheck, dice: Dice) -> list[Event]:
    rec = _own_check(state, cmd.check, cmd.combatant_id)
    if rec.status != "called":
        raise RuleViolation("check_already_rolled", f"Check {rec.id} has been rolled already.")
    conditioned = CONDITION_OF[rec.attribute] in sheet(state.combatants[rec.combatant_id]).conditions
    return _roll(state, rec, dice, rec.advantage, rec.disadvantage or conditioned, cmd.penalties, reroll=False)


def re_roll(state: EncounterState, cmd: ReRoll, dice: Dice) -> list[Event]:
    rec = _own_check(state, cmd.check, cmd.combatant_id)
    if rec.status != "rolled":
        raise RuleViolation("check_not_rolled", f"Check {rec.id} has not been rolled yet.")
    if rec.no_reroll:
        raise RuleViolation("reroll_not_allowed", f"The GM called check {rec.id} with no re-roll (\"Unless the GM "
                            "states otherwise, re-rolls are always an option\").")
    if rec.rerolled:
        raise RuleViolation("already_rerolled", f"Check {rec.id} has been re-rolled already: only once.")
    if rec.outcome != "Failure":
        raise RuleViolation(
            "reroll_not_allowed", f"Only a failed check can be re-rolled, and not a Critical Failure: this was a {rec.outcome}."
        )
    events: list[Event] = []
    condition = CONDITION_OF[rec.attribute]
    if condition not in sheet(state.combatants[rec.combatant_id]).conditions:
        events.append(ConditionTaken(combatant_id=rec.combatant_id, condition=condition, reason=f"re-roll of check {rec.id}"))
    # "Taking a Condition means that all rolls using that Attribute ... are performed at
    # Disadvantage, including this re-roll."
    return events + _roll(state, rec, dice, False, True, cmd.penalties, reroll=True)


def _own_check(state: EncounterState, check_id: int, combatant_id: str) -> CheckRecord:
    rec = check(state, check_id)
    if rec.combatant_id != combatant_id:
        raise RuleViolation("not_your_check", f"Check {check_id} was called for another combatant.")
    return rec


def _roll(
    state: EncounterState, rec: CheckRecord, dice: Dice, advantage: bool, disadvantage: bool,
    penalties: list[str], *, reroll: bool,
) -> list[Event]:
    c = state.combatants[rec.combatant_id]
    s = sheet(c)
    skill_die = s.skill_die(rec.skill)
    if skill_die is None:
        raise RuleViolation("unknown_skill", f"{c.name} has no skill “{rec.skill}” on their sheet.", skill=rec.skill)
    a, k = dice_for(sides(s.attribute_die(rec.attribute)), sides(skill_die), advantage, disadvantage)
    # "When your character is Wounded or Afflicted then they must apply Penalty Points when
    # performing any actions": a check costs no Action Points, so it pays in difficulty or dice
    if any(p.startswith(("IncreaseCost", "ReduceDamage")) for p in penalties):
        raise RuleViolation("penalty_not_applicable", "A check is paid in difficulty or dice, not AP or damage.")
    pay = apply_penalties(penalties, penalty_owed(state, c.id), difficulty=rec.difficulty, dice=(a, k), cost=0,
                          base_damage=0)
    a, k = pay.dice
    what = f"check {rec.id}"
    rolled = [dice.roll(a, f"{what}: {rec.attribute.title()}", c.id), dice.roll(k, f"{what}: skill", c.id)]
    if rec.occupation:
        rolled.append(dice.roll(OCCUPATION_DIE, f"{what}: occupation", c.id))
    faces = [d.face for d in rolled]
    outcome, levels = judge(faces, [d.sides for d in rolled], pay.difficulty)
    if reroll and outcome in ("Failure", "Critical Failure"):
        # "should you fail the re-roll, even if it is just a regular failure, it counts as a
        # Critical Failure"
        outcome = "Critical Failure"
    events: list[Event] = [
        CheckRolled(
            check=rec.id, combatant_id=c.id, dice=rolled, total=sum(faces), difficulty=pay.difficulty,
            outcome=outcome, levels=levels, advantage=advantage and not disadvantage,
            disadvantage=disadvantage and not advantage, reroll=reroll,
        )
    ]
    return events + skill_marks(c, rec.skill, outcome)


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case CheckCalled():
            return with_check(state, CheckRecord(
                id=event.check, combatant_id=event.combatant_id, attribute=event.attribute, skill=event.skill,
                difficulty=event.difficulty, advantage=event.advantage, disadvantage=event.disadvantage,
                occupation=event.occupation, reason=event.reason, no_reroll=event.no_reroll,
            ))
        case CheckRolled():
            rec = check(state, event.check)
            return with_check(state, replace(
                rec, status="rolled", total=event.total, outcome=event.outcome, levels=event.levels,
                rerolled=rec.rerolled or event.reroll,
            ))
        case ConditionTaken():
            conditions = sheet(state.combatants[event.combatant_id]).conditions
            return with_sheet(state, event.combatant_id, conditions=[*conditions, event.condition])
        case ConditionRemoved():
            conditions = sheet(state.combatants[event.combatant_id]).conditions
            return with_sheet(state, event.combatant_id, conditions=[x for x in conditions if x != event.condition])
        case SkillMarked():
            marked = sheet(state.combatants[event.combatant_id]).marked_skills
            return with_sheet(state, event.combatant_id, marked_skills=[*marked, event.skill])
    return None

