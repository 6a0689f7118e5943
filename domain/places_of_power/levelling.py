"""Levelling up skills at a Long Rest.

"Whenever you make a roll that results in either a Critical Success or a Critical
Failure, mark the box next to the Skill you used on your Character Sheet. The next time
your character takes a Long Rest you will have the opportunity to Level Up these skills."

"To Level Up a given skill you roll a D20 against a target value dictated by the current
value of the Skill": D4 → 6, D6 → 9, D8 → 12, D10 → 15, D12 → 18.

"When you are Levelling Up one of your Mere Skills that is already at level D10 or above
... you can choose to gain a Mere Activation Point instead."

Resting also removes Conditions ("until the condition can be removed, usually by
Resting").
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.table import sheet, with_sheet

LEVEL_UP: dict[str, tuple[str, int]] = {
    "D4": ("D6", 6),
    "D6": ("D8", 9),
    "D8": ("D10", 12),
    "D10": ("D12", 15),
    "D12": ("D20", 18),
}
LEVEL_DIE = 20
MERE_ACTIVATION_FROM = ("D10", "D12", "D20")


class LongRest(Command, tag="LongRest"):
    """The GM grants a Long Rest: every marked skill rolls to level up, marks are cleared,
    Conditions are removed. ``mere_activation``: per combatant, the Mere skills (at D10 or
    above) that take a Mere Activation Point instead of a level if their roll succeeds.
    Reported dice: one D20 per marked skill, combatants in the order they were added,
    skills in the order they were marked."""

    mere_activation: Annotated[dict[CombatantId, list[str]], msgspec.Meta(max_length=100)] = msgspec.field(
        default_factory=dict
    )


class SkillLevelRolled(Event, tag="SkillLevelRolled"):
    """``to_die``: the skill's new die when it levelled up; ``activation_point``: a Mere
    Activation Point was taken instead."""

    combatant_id: CombatantId
    skill: str
    die: DieRoll
    target: int
    success: bool
    from_die: str
    to_die: str | None = None
    activation_point: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class MarkCleared(Event, tag="MarkCleared"):
    """A marked skill that cannot level further (D20) loses its mark."""

    combatant_id: CombatantId
    skill: str


class LongRestTaken(Event, tag="LongRestTaken"):
    """Conditions are removed from everyone."""


COMMANDS = (LongRest,)
EVENTS = (SkillLevelRolled, MarkCleared, LongRestTaken)


def long_rest(state: EncounterState, cmd: LongRest, dice: Dice) -> list[Event]:
    for cid, skills in cmd.mere_activation.items():
        c = state.combatants.get(cid)
        if c is None:
            raise RuleViolation("unknown_combatant", f"There is no combatant {cid} in this encounter.", combatant_id=cid)
        for skill in skills:
            if sheet(c).mere_skills.get(skill) not in MERE_ACTIVATION_FROM:
                raise RuleViolation(
                    "invalid_mere_choice",
                    f"Only a Mere skill at D10 or above can give a Mere Activation Point; {c.name}'s “{skill}” cannot.",
                )
    events: list[Event] = []
    for c in sorted(state.combatants.values(), key=lambda x: x.seq):
        s = sheet(c)
        for skill in s.marked_skills:
            current = s.skill_die(skill)
            if current is None or current not in LEVEL_UP:
                events.append(MarkCleared(combatant_id=c.id, skill=skill))
                continue
            nxt, target = LEVEL_UP[current]
            die = dice.roll(LEVEL_DIE, f"level up: {skill}", c.id)
            success = die.face >= target
            activation = success and skill in cmd.mere_activation.get(c.id, [])
            events.append(SkillLevelRolled(
                combatant_id=c.id, skill=skill, die=die, target=target, success=success, from_die=current,
                to_die=nxt if success and not activation else None, activation_point=activation,
            ))
    events.append(LongRestTaken())
    return events


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case SkillLevelRolled():
            s = sheet(state.combatants[event.combatant_id])
            changes: dict[str, object] = {"marked_skills": [m for m in s.marked_skills if m != event.skill]}
            if event.to_die is not None:
                if event.skill in s.mere_skills:
                    changes["mere_skills"] = {**s.mere_skills, event.skill: event.to_die}
                else:
                    changes["skills"] = {**s.skills, event.skill: event.to_die}
            if event.activation_point:
                changes["mere_activation_points"] = s.mere_activation_points + 1
            return with_sheet(state, event.combatant_id, **changes)
        case MarkCleared():
            s = sheet(state.combatants[event.combatant_id])
            return with_sheet(state, event.combatant_id, marked_skills=[m for m in s.marked_skills if m != event.skill])
        case LongRestTaken():
            for cid in state.combatants:
                if sheet(state.combatants[cid]).conditions:
                    state = with_sheet(state, cid, conditions=[])
            return state
    return None
