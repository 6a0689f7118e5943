"""The refusals every game's commands share: no such combatant, not started, not your turn, not
enough left to spend. Each game reaches them as its ``Ruleset``'s methods of the same names."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.core.resources import held, spend

replace = msgspec.structs.replace


def combatant(state: EncounterState, combatant_id: str) -> Combatant:
    """The combatant ``combatant_id``, or the refusal an unknown id gets."""
    c = state.combatants.get(combatant_id)
    if c is None:
        raise RuleViolation(
            "unknown_combatant", f"There is no combatant {combatant_id} in this encounter.",
            combatant_id=combatant_id,
        )
    return c


def require_active(state: EncounterState) -> None:
    if state.status != "active":
        raise RuleViolation("encounter_not_started", "The fight has not started yet.")


def require_turn(state: EncounterState, combatant_id: str) -> Combatant:
    """The combatant whose turn it is, refusing any other."""
    require_active(state)
    c = combatant(state, combatant_id)
    if state.turn != combatant_id:
        current = state.combatants[state.turn].name if state.turn in state.combatants else "nobody"
        raise RuleViolation("not_your_turn", f"It is {current}'s turn, not {c.name}'s.", turn=state.turn)
    return c


def spend_action_points(c: Combatant, cost: int, what: str) -> None:
    """Refuse an action costing more Action Points than the combatant has."""
    if cost > c.action_points:
        raise RuleViolation(
            "not_enough_action_points",
            f"{c.name} has {c.action_points} Action Point{'' if c.action_points == 1 else 's'} left; "
            f"{what} costs {cost}.",
            available=c.action_points,
            cost=cost,
        )


def check_resource(c: Combatant, resource: str, cost: int, what: str) -> None:
    """Refuse an action needing more of ``resource`` than the combatant has left."""
    spend(held(c), resource, cost, who=c.name, what=what)


def spent(state: EncounterState, combatant_id: str, resource: str, cost: int, **changes: Any) -> EncounterState:
    """The state after ``combatant_id`` spent ``cost`` of ``resource`` (an event's fold: the
    spending was checked when it was decided, with ``check_resource``), with ``changes`` to the
    rest of the state made in the same copy of it."""
    c = state.combatants[combatant_id]
    have = held(c)
    left = {**have, resource: have.get(resource, 0) - cost}
    return replace(state, combatants={**state.combatants, combatant_id: replace(c, resources=left)}, **changes)
