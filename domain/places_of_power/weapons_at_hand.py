"""Weapons at hand and carried.

"you can only ever have three weapons active on your character sheet at any one time.
These weapons are considered to be “at hand” ... Any additional weapons you may have on
you are counted as Carried Items. Outside of combat you can swap which weapons are “at
hand” and which are “carried” whenever you like. During combat however, swapping your
weapons in this manner will cost you 3 Action Points per weapon swapped."
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.table import sheet, spend, with_sheet

AT_HAND = 3
SWAP_COST = 3
Names = Annotated[list[Annotated[str, msgspec.Meta(max_length=64)]], msgspec.Meta(max_length=3)]


class SwapWeapons(Command, tag="SwapWeapons"):
    """Put weapons at hand away (``put_away``) and take carried ones (``take``). In a fight it
    is done on your turn and costs 3 AP for each weapon taken or put away beyond a pair:
    3 AP a swap."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    put_away: Names = msgspec.field(default_factory=list)
    take: Names = msgspec.field(default_factory=list)


class WeaponsSwapped(Event, tag="WeaponsSwapped"):
    combatant_id: CombatantId
    put_away: list[str]
    take: list[str]
    action_points: int


COMMANDS = (SwapWeapons,)
EVENTS = (WeaponsSwapped,)


def swap(ruleset: object, state: EncounterState, cmd: SwapWeapons) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.combatant(state, cmd.combatant_id)
    s = sheet(c)
    at_hand = {w.name for w in s.weapons}
    carried = {w.name for w in s.carried}
    for name in cmd.put_away:
        if name not in at_hand:
            raise RuleViolation("unknown_weapon", f"{c.name} has no {name} at hand.")
    for name in cmd.take:
        if name not in carried:
            raise RuleViolation("unknown_weapon", f"{c.name} carries no {name}.")
    if len(s.weapons) - len(set(cmd.put_away)) + len(set(cmd.take)) > AT_HAND:
        raise RuleViolation("too_many_weapons", f"At most {AT_HAND} weapons can be at hand.")
    cost = 0
    if state.status == "active":  # "During combat however ... 3 Action Points per weapon swapped"
        c = ruleset.require_turn(state, cmd.combatant_id)
        cost = SWAP_COST * max(len(set(cmd.put_away)), len(set(cmd.take)))
        ruleset.spend_action_points(c, cost, "swapping weapons")
    return [WeaponsSwapped(combatant_id=c.id, put_away=sorted(set(cmd.put_away)), take=sorted(set(cmd.take)),
                           action_points=cost)]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if not isinstance(event, WeaponsSwapped):
        return None
    c = state.combatants[event.combatant_id]
    s = sheet(c)
    moving_in = [w for w in s.carried if w.name in event.take]
    moving_out = [w for w in s.weapons if w.name in event.put_away]
    state = spend(state, c.id, event.action_points)
    return with_sheet(
        state, c.id,
        weapons=[w for w in s.weapons if w.name not in event.put_away] + moving_in,
        carried=[w for w in s.carried if w.name not in event.take] + moving_out,
    )
