"""Turn order schemes, pure functions over initiative totals.

- Places of Power: players are placed around the GM's one roll for all NPCs
  (``order_around_gm``).
- RealmsRPG: sides alternate, starting with the side of the highest roll
  (``order_alternating_sides``).
- Novus: declared from lowest to highest, resolved from highest to lowest
  (``order_declare_low_resolve_high``).
- Health/Trauma: plain descending order (``order_descending``).

Ties keep the order the combatants were added in unless a tiebreak says otherwise;
the GM can re-order where the rules give them that say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A combatant's place in initiative: ``seq`` is the order they were added in."""

    combatant_id: str
    total: int
    seq: int
    side: str = ""
    tiebreak: int = 0


def order_descending(entries: Sequence[Entry]) -> list[str]:
    ranked = sorted(entries, key=lambda e: (-e.total, -e.tiebreak, e.seq))
    return [e.combatant_id for e in ranked]


def order_around_gm(players: Sequence[Entry], npcs: Sequence[Entry], gm_total: int | None) -> list[str]:
    """Players equal to or above the GM's roll go before the NPCs, lower ones after.

    Inside each group the default is highest roll first (NPCs in the order added);
    the GM may re-order within the groups afterwards.
    """
    if gm_total is None:
        return order_descending(players) + [e.combatant_id for e in sorted(npcs, key=lambda e: e.seq)]
    before = [e for e in players if e.total >= gm_total]
    after = [e for e in players if e.total < gm_total]
    npc_ids = [e.combatant_id for e in sorted(npcs, key=lambda e: e.seq)]
    return order_descending(before) + npc_ids + order_descending(after)


def order_alternating_sides(entries: Sequence[Entry]) -> list[str]:
    """Alternate between sides, starting with the side that has the highest single roll."""
    if not entries:
        return []
    by_side: dict[str, list[Entry]] = {}
    for e in entries:
        by_side.setdefault(e.side, []).append(e)
    queues = {side: order_descending(group) for side, group in by_side.items()}
    best = order_descending(entries)[0]
    first_side = next(e.side for e in entries if e.combatant_id == best)
    sides = [first_side] + sorted(s for s in queues if s != first_side)
    order: list[str] = []
    while any(queues.values()):
        for side in sides:
            if queues[side]:
                order.append(queues[side].pop(0))
    return order


def order_declare_low_resolve_high(entries: Sequence[Entry]) -> tuple[list[str], list[str]]:
    """Novus: (declaration order, resolution order)."""
    resolve = order_descending(entries)
    return list(reversed(resolve)), resolve


OrderScheme = Callable[[Sequence[Entry]], list[str]]
