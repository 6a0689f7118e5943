"""What a client is shown of each Novus character: worked out when the state is read
(``Novus.shown``), never stored, so a replay equals the live state.

Each sheet carries its Hit Points now, whether the character is helpless (0 to -10, N22) or
dead (past the GM's threshold), its useless limbs, its disarmed weapons and its Fate Points. Of an NPC's sheet,
players and spectators see only its state (``VISIBLE``): never its Hit Points, which are the GM's.
"""

from __future__ import annotations

import msgspec

from domain.core.encounter import EncounterState
from domain.novus.sheet import NovusSheet
from domain.novus.zones import reach

VISIBLE = ("helpless", "dead", "prone", "useless_limbs", "disarmed", "control_zone_reach")


class ShownSheet(NovusSheet, frozen=True, kw_only=True):
    """A sheet as shown: its values, then the fight's toll on it."""

    hits: int
    helpless: bool = False
    dead: bool = False
    prone: bool = False
    useless_limbs: list[str] = []
    disarmed: list[str] = []  # weapons knocked away by a Disarm, till picked up
    fate_points: int = 0
    control_zone_reach: int = 5  # feet (domain/novus/zones.py)


def with_hits_shown(state: EncounterState, hits: dict[str, int], useless: dict[str, list[str]]) -> EncounterState:
    r = state.rules
    combatants = {}
    for cid, c in state.combatants.items():
        sheet = c.sheet
        if isinstance(sheet, ShownSheet) or not isinstance(sheet, NovusSheet):
            combatants[cid] = c
            continue
        base = {f: getattr(sheet, f) for f in NovusSheet.__struct_fields__}
        shown = ShownSheet(**base, hits=hits[cid], helpless=hits[cid] <= 0 and cid not in r.dead, dead=cid in r.dead,
                           prone=cid in r.prone, useless_limbs=useless.get(cid, []),
                           fate_points=r.fate_points.get(cid, 0), disarmed=r.disarmed.get(cid, []),
                           control_zone_reach=reach(sheet))
        combatants[cid] = msgspec.structs.replace(c, sheet=shown)
    return msgspec.structs.replace(state, combatants=combatants)
