"""Conditions the GM applies or removes by hand.

"Conditions can be applied for numerous reasons, though they are usually a result of
something going wrong for the player. Once applied, any rolls made using the associated
Attribute are done so at a Disadvantage, until the condition can be removed, usually by
Resting."
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.check_rolls import ConditionRemoved, ConditionTaken
from domain.places_of_power.sheet import Condition
from domain.places_of_power.table import sheet


class ApplyCondition(Command, tag="ApplyCondition"):
    """The GM puts a Condition on a combatant."""

    combatant_id: CombatantId
    condition: Condition
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class RemoveCondition(Command, tag="RemoveCondition"):
    """The GM removes a Condition."""

    combatant_id: CombatantId
    condition: Condition
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


COMMANDS = (ApplyCondition, RemoveCondition)


def apply_condition(state: EncounterState, cmd: ApplyCondition) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    if cmd.condition in sheet(c).conditions:
        raise RuleViolation("condition_present", f"{c.name} is already {cmd.condition}.")
    return [ConditionTaken(combatant_id=c.id, condition=cmd.condition, reason=cmd.reason or "the GM")]


def remove_condition(state: EncounterState, cmd: RemoveCondition) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    if cmd.condition not in sheet(c).conditions:
        raise RuleViolation("no_condition", f"{c.name} is not {cmd.condition}.")
    return [ConditionRemoved(combatant_id=c.id, condition=cmd.condition, reason=cmd.reason or "the GM")]
