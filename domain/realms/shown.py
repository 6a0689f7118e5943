"""What a client is shown of each creature's Health and Energy: worked out when the state is read
(``Realms.shown``), never stored, so a replay equals the live state.

The stored ``Body`` keeps the Health lost; a client should not have to subtract it from the
sheet's maximum, nor work out the conditions (Dying and prone, unconscious, Terminal at ¼ of the
maximum, Exhausted). So the shown state carries them on each creature's sheet, where the ruleset's
``visible_sheet_fields`` decide what players and spectators see of an NPC's: its conditions, not
its Health or Energy.
"""

from __future__ import annotations

import msgspec

from domain.core.encounter import EncounterState
from domain.realms import body as bodies
from domain.realms.body import Body
from domain.realms.sheet import RealmsSheet

# what the table sees of an NPC: whether it is down, and its conditions
VISIBLE = ("dying", "dead", "unconscious", "conditions")


class ShownSheet(RealmsSheet, frozen=True, kw_only=True):
    """A sheet as shown: its values, then the fight's toll on it. ``current_health`` (below 0:
    Negative Health), ``current_energy``."""

    current_health: int
    current_energy: int
    dying: bool = False
    dead: bool = False
    unconscious: bool = False
    conditions: list[str] = []

    def __post_init__(self) -> None:
        """Made from a sheet already checked (``shown_sheet``): nothing to check again (a state is
        shown for every viewer at every step)."""


def shown_sheet(sheet: RealmsSheet, b: Body) -> ShownSheet:
    base = {f: getattr(sheet, f) for f in RealmsSheet.__struct_fields__}
    return ShownSheet(**base, current_health=bodies.health(sheet, b), current_energy=bodies.energy(sheet, b),
                      dying=b.dying, dead=b.dead, unconscious=b.unconscious, conditions=bodies.conditions(sheet, b))


def with_health_shown(state: EncounterState) -> EncounterState:
    """``state`` with each creature's sheet as shown (see the module's docstring)."""
    kept = state.rules.bodies
    combatants = {}
    for cid, c in state.combatants.items():
        if isinstance(c.sheet, ShownSheet) or not isinstance(c.sheet, RealmsSheet):
            combatants[cid] = c
            continue
        combatants[cid] = msgspec.structs.replace(c, sheet=shown_sheet(c.sheet, kept.get(cid) or Body()))
    return msgspec.structs.replace(state, combatants=combatants)
