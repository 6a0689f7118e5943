"""What a client is shown of each combatant's health: worked out when the state is read
(``HealthTrauma.shown``), never stored, so a replay equals the live state.

The stored ``Body`` keeps current Health empty at the maximum; a client should not have to work
out the maximum ("five plus their Physique", with the sheet's adjustment, less one a point of
Trauma) nor the conditions. So the shown state carries them on each combatant's sheet, where the
ruleset's ``visible_sheet_fields`` decide what players and spectators see of an NPC's: its wound
level (Trauma, Wounded, dying, dead, its injuries and conditions), not its current or maximum
Health, which at full Health is its Physique.
"""

from __future__ import annotations

import msgspec

from domain.core.encounter import EncounterState
from domain.health_trauma import body as bodies
from domain.health_trauma.body import Body
from domain.health_trauma.sheet import HealthTraumaSheet

# what the table sees of an NPC: "its wound level and conditions", not a value off its sheet
VISIBLE = ("trauma", "wounded", "dying", "dead", "injuries", "conditions")


class ShownSheet(HealthTraumaSheet, frozen=True, kw_only=True):
    """A sheet as shown: its values, then the fight's toll on it. ``health``: current Health;
    ``maximum_health``: 5 + Physique + adjustment - Trauma; ``wounded``: below half of it."""

    health: int
    maximum_health: int
    trauma: int = 0
    wounded: bool = False
    dying: bool = False
    dead: bool = False
    injuries: list[str] = []
    conditions: list[str] = []


def shown_sheet(sheet: HealthTraumaSheet, body: Body, eyes: tuple[str, ...], drawn: str | None = None) -> ShownSheet:
    """``eyes``: the parts the GM's table names as eyes (Blinded); ``drawn``: the weapon drawn
    during the fight, shown as the readied one."""
    base = {f: getattr(sheet, f) for f in HealthTraumaSheet.__struct_fields__}
    if drawn is not None:
        base["readied"] = drawn
    return ShownSheet(**base, health=bodies.current(sheet, body), maximum_health=bodies.maximum(sheet, body),
                      trauma=body.trauma, wounded=not body.dead and bodies.wounded(sheet, body), dying=body.dying,
                      dead=body.dead, injuries=list(body.injuries), conditions=bodies.conditions(sheet, body, eyes))


def with_health_shown(state: EncounterState) -> EncounterState:
    """``state`` with each combatant's sheet as shown (see the module's docstring)."""
    bodies_now, drawn, eyes = state.rules.bodies, state.rules.readied, state.rules.data.pair("eye")
    combatants = {}
    for cid, c in state.combatants.items():
        sheet = c.sheet
        if isinstance(sheet, ShownSheet) or not isinstance(sheet, HealthTraumaSheet):
            combatants[cid] = c
            continue
        combatants[cid] = msgspec.structs.replace(c, sheet=shown_sheet(sheet, bodies_now.get(cid) or Body(), eyes, drawn.get(cid)))
    return msgspec.structs.replace(state, combatants=combatants)
