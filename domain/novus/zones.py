"""The Control Zone's reach: "This is a 5' area to the sides and front of the character/creature ...
Large humanoid creatures have a 10' Control Zone and Huge humanoid creatures have a 15' Control Zone.
Non-humanoid creatures, especially those that are Large and Huge will have similar Control Zones, but
the actual shape is likely to depend upon the shape of the creature."

Positions are not tracked: a move names the zones it enters, crosses or leaves, and its event says
how far each reaches. A non-humanoid's zone is the GM's (the sheet's ``control_zone``); without it,
ours: the reach of a humanoid of its size.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core.encounter import EncounterState
from domain.novus.sheet import NovusSheet

REACH = {"large": 10, "huge": 15}  # feet; every other size: 5'
BASE_REACH = 5


def reach(sheet: NovusSheet) -> int:
    """The Control Zone's reach in feet."""
    if not sheet.humanoid and sheet.control_zone is not None:
        return sheet.control_zone
    return REACH.get(sheet.creature_size, BASE_REACH)


def reaches(state: EncounterState, ids: Sequence[str]) -> list[int]:
    """The reach of each named combatant's Control Zone (0: not in the fight)."""
    return [reach(state.combatants[c].sheet) if c in state.combatants else 0 for c in ids]
