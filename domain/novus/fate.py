"""Fate Points (novus-gaps N1): "A 1 on one die and a 10 on the other is a Nova Roll ... and the
character earns a Fate Point", whatever was rolled: initiative (rolled, or rerolled), attacks,
Blocks, saves, skill and Riding rolls. A mixin of ``Novus`` for the initiative roll (core's event)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.core.encounter import EncounterState, Event, InitiativeRolled
from domain.novus.dice import is_nova
from domain.novus.events import InitiativeRerolled
from domain.novus.state import rules

replace = msgspec.structs.replace


def novas(event: Event) -> list[str]:
    """Who rolled a Nova Roll in ``event``."""
    if isinstance(event, InitiativeRolled):
        return [r.who for r in event.rolls if is_nova(r.all_dice)]
    if isinstance(event, InitiativeRerolled):
        return [event.roll.who] if is_nova(event.roll.all_dice) else []
    if getattr(event, "nova", False) is True:
        return [event.combatant_id]  # type: ignore[attr-defined]
    return []


def earn(state: EncounterState, cids: Sequence[str], sign: int = 1) -> EncounterState:
    """A Fate Point more (``sign`` -1: less) for each of ``cids`` in the fight."""
    r = rules(state)
    points = dict(r.fate_points)
    for cid in cids:
        if cid in state.combatants:
            points[cid] = points.get(cid, 0) + sign
    return replace(state, rules=replace(r, fate_points={k: v for k, v in points.items() if v}))


class Fate:
    """The Fate Points of ``Novus``'s initiative rolls: only the roll that stands counts (the GM
    may roll initiative again before the fight starts: ours)."""

    def evolve_initiative(self, state: EncounterState, event: InitiativeRolled) -> EncounterState:
        state = super().evolve_initiative(state, event)  # type: ignore[misc]
        before = rules(state).initiative_novas
        state = earn(earn(state, before, -1), novas(event))
        return replace(state, rules=replace(rules(state), initiative_novas=novas(event)))
