"""Hits, as far as the dice chapter touches them (the attack rules build on this).

"everyone involved in combat, both players and NPCs, can take a total of 4 Hits":
Grazed, Wounded, Afflicted, Helpless. The GM may set a combatant's Hits by hand.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Command, EncounterState, Event
from domain.places_of_power.table import with_sheet

HELPLESS = 4


class SetHits(Command, tag="SetHits"):
    """The GM sets how many Hits a combatant has taken (0: unhurt, 4: Helpless)."""

    combatant_id: CombatantId
    hits: Annotated[int, msgspec.Meta(ge=0, le=20)]


class HitsSet(Event, tag="HitsSet"):
    combatant_id: CombatantId
    hits: int
    reason: str = ""


COMMANDS = (SetHits,)
EVENTS = (HitsSet,)


def set_hits(state: EncounterState, cmd: SetHits) -> list[Event]:
    return [HitsSet(combatant_id=cmd.combatant_id, hits=cmd.hits, reason="the GM")]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if isinstance(event, HitsSet):
        return with_sheet(state, event.combatant_id, hits=event.hits)
    return None
