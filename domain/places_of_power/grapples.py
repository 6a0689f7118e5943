"""Grappling, as far as the attack exchange needs it (the rest of the non-lethal moves come
with the combat chapter's remaining rules).

"Grapple (2 AP): ... This is handled as an Opposed Roll between your Brawling skill and the
target's Brawling skill. This action costs Action Points for you, but not for your target.
If you fail then you are knocked down and are considered Prone until you can regain your
feet. If you succeed then your opponent is in your grip and unable to move." "If you are in
control of the grapple then you may release your opponent at any time as a free action."

Both sides roll Strength + Brawling (every roll in the game pairs an Attribute and a
Skill); a tie holds no grip.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.contests import Contestant, OpposedRolled, roll_contestant, level_reached
from domain.places_of_power.harm import apply_penalties, penalty_points
from domain.places_of_power.table import rules, sheet, with_rules, with_sheet

GRAPPLE_COST = 2


class Grapple(Command, tag="Grapple"):
    """Grapple a combatant in reach (2 AP, on your turn). Reported dice: your two dice, then
    the target's."""

    actor_field = "combatant_id"
    combatant_id: str
    target: str
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class ReleaseGrapple(Command, tag="ReleaseGrapple"):
    """The combatant in control lets go (a free action)."""

    actor_field = "combatant_id"
    combatant_id: str


class GrappleAttempted(Event, tag="GrappleAttempted"):
    combatant_id: str
    target: str
    action_points: int
    roll: OpposedRolled
    held: bool

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


class GrappleEnded(Event, tag="GrappleEnded"):
    controller: str
    held: str
    reason: str


COMMANDS = (Grapple, ReleaseGrapple)
EVENTS = (GrappleAttempted, GrappleEnded)


def controlled_by(state: EncounterState, combatant_id: str) -> str | None:
    """Whom ``combatant_id`` holds in a grapple they control, if anyone."""
    for held, controller in rules(state).grapples.items():
        if controller == combatant_id:
            return held
    return None


def grapple(ruleset: object, state: EncounterState, cmd: Grapple, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id or sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} cannot be grappled.")
    if cmd.target in rules(state).grapples or controlled_by(state, c.id) is not None:
        raise RuleViolation("already_grappling", "One of you is already in a grapple.")
    pay = apply_penalties(cmd.penalties, penalty_points(sheet(c).hits), difficulty="Normal", dice=(),
                          cost=GRAPPLE_COST, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, "Grapple")
    sides = [
        roll_contestant(state, Contestant(combatant_id=who, attribute="strength", skill="Brawling"), dice)
        for who in (c.id, target.id)
    ]
    held = sides[0].total > sides[1].total
    winner = None if sides[0].total == sides[1].total else (c.id if held else target.id)
    by_level = winner is not None and abs(level_reached(sides[0].total) - level_reached(sides[1].total)) > 0
    roll = OpposedRolled(sides=sides, winner=winner, by_a_level=by_level, reason="Grapple")
    return [GrappleAttempted(combatant_id=c.id, target=target.id, action_points=pay.cost, roll=roll, held=held)]


def release(state: EncounterState, cmd: ReleaseGrapple) -> list[Event]:
    held = controlled_by(state, cmd.combatant_id)
    if held is None:
        raise RuleViolation("not_grappling", "You hold nobody in a grapple.")
    return [GrappleEnded(controller=cmd.combatant_id, held=held, reason="released")]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case GrappleAttempted():
            combatants = dict(state.combatants)
            c = combatants[event.combatant_id]
            combatants[c.id] = msgspec.structs.replace(c, action_points=c.action_points - event.action_points)
            state = msgspec.structs.replace(state, combatants=combatants)
            if event.held:
                return with_rules(state, grapples={**rules(state).grapples, event.target: event.combatant_id})
            # "If you fail then you are knocked down and are considered Prone"
            return with_sheet(state, event.combatant_id, prone=True)
        case GrappleEnded():
            return with_rules(state, grapples={k: v for k, v in rules(state).grapples.items() if k != event.held})
    return None
