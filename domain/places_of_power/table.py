"""Helpers the Places of Power rules share: reading and updating sheets and the ruleset's
encounter-wide state, immutably."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.places_of_power.sheet import Sheet

replace = msgspec.structs.replace


class CheckRecord(msgspec.Struct, kw_only=True):
    """A check the GM called for, and what came of it. ``id`` is the version of the event
    that called it."""

    id: int
    combatant_id: CombatantId
    attribute: str
    skill: str
    difficulty: str
    advantage: bool = False
    disadvantage: bool = False
    occupation: bool = False
    reason: str = ""
    no_reroll: bool = False  # the GM stated otherwise: no re-roll of this check
    status: Literal["called", "rolled"] = "called"
    total: int | None = None
    outcome: str | None = None
    levels: int | None = None
    rerolled: bool = False
    eased: bool = False


class Rules(msgspec.Struct, kw_only=True):
    """Places of Power's encounter-wide state: the checks, and the play session number."""

    checks: dict[str, CheckRecord] = msgspec.field(default_factory=dict)
    session: int = 0
    exchange: Any = None  # the attack being resolved (attacks.Exchange), if any
    grapples: dict[CombatantId, CombatantId] = msgspec.field(default_factory=dict)  # who is held -> who holds them
    positions: Any = None  # range bands and the turn's movement (movement.Positions), once the GM places anyone
    morale: Any = None  # who fled, surrendered or is suppressed (morale.Morale); None: nobody
    special_actions: Any = None  # Enemies' Special Actions used (enemies.SpecialActionsUsed); None: none
    spell_costs: Any = None  # the GM's spell cost table (magic.SpellCost, complexity 0..3); None: the default


def rules(state: EncounterState) -> Rules:
    return state.rules if isinstance(state.rules, Rules) else Rules()


def with_rules(state: EncounterState, **changes: Any) -> EncounterState:
    return replace(state, rules=replace(rules(state), **changes))


def check(state: EncounterState, check_id: int) -> CheckRecord:
    found = rules(state).checks.get(str(check_id))
    if found is None:
        raise RuleViolation("unknown_check", f"There is no check {check_id} in this encounter.")
    return found


def with_check(state: EncounterState, record: CheckRecord) -> EncounterState:
    checks = dict(rules(state).checks)
    checks[str(record.id)] = record
    return with_rules(state, checks=checks)


def spend(state: EncounterState, combatant_id: str, action_points: int) -> EncounterState:
    """The combatant's Action Points after paying ``action_points`` (checked when decided)."""
    combatants = dict(state.combatants)
    c = combatants[combatant_id]
    combatants[combatant_id] = replace(c, action_points=c.action_points - action_points)
    return replace(state, combatants=combatants)


def sheet(c: Combatant) -> Sheet:
    return c.sheet  # type: ignore[no-any-return]


def with_sheet(state: EncounterState, combatant_id: str, **changes: Any) -> EncounterState:
    combatants = dict(state.combatants)
    c = combatants[combatant_id]
    combatants[combatant_id] = replace(c, sheet=replace(c.sheet, **changes))
    return replace(state, combatants=combatants)


def can_act(c: Combatant) -> None:
    """Refuse any action of a dead or Helpless combatant ("Hit 4: Helpless - ... You are unable to
    perform ANY actions on your own")."""
    s = sheet(c)
    if s.dead:
        raise RuleViolation("cannot_act", f"{c.name} is dead.")
    if s.hits >= 4 or s.helpless_for_fight:
        raise RuleViolation("cannot_act", f"{c.name} is Helpless and cannot act.")
