"""Turn order schemes, pure functions over initiative totals.

- Places of Power: players are placed around the GM's one roll for all NPCs
  (``order_around_gm``).
- RealmsRPG: sides alternate, starting with the side of the highest roll
  (``order_alternating_sides``).
- Novus: declared from lowest to highest, resolved from highest to lowest
  (``order_declare_low_resolve_high``).
- Health/Trauma: plain descending order (``order_descending``).

and the rolls and reorderings some need: Novus' 2d10 that explode and implode
(``roll_exploding``), RealmsRPG's surprised parties last in round 1 (``surprised_last``),
Companions after everyone (``companions_last``), defeated creatures' places taken at the
start of the next round (``defeated_replaced``).

Ties keep the order the combatants were added in unless a tiebreak says otherwise;
the GM can re-order where the rules give them that say.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from domain.core.dice import Dice, DieRoll
from domain.core.next_moves import open_roll


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


# ------------------------------------------------------------ rolls of several dice


@dataclass(frozen=True)
class OpenRoll:
    """A roll of several open-ended dice: every die rolled (in order), the total, and
    whether it was a Nova Roll (a 1 on one die and a 10 on the other)."""

    dice: tuple[DieRoll, ...]
    total: int
    nova: bool = False


def roll_exploding(dice: Dice, purpose: str, by: str | None = None, *, count: int = 2, sides: int = 10) -> OpenRoll:
    """Novus' 2d10 (novus-gaps N1): "A 10 on either die is added and that die is rolled again,
    and again on every further 10 (it explodes). A 1 on either die works the other way: that
    die is rolled again and the new roll is subtracted, and again on every further 1 (it
    implodes). Once a die has exploded or imploded it can't switch direction. A 1 on one die
    and a 10 on the other is a Nova Roll: neither die explodes or implodes"."""
    first = [dice.roll(sides, purpose, by) for _ in range(count)]
    open_roll(dice, count)  # an offered move says so (domain/core/next_moves.py)
    faces = {d.face for d in first}
    rolled = list(first)
    total = sum(d.face for d in first)
    nova = count == 2 and faces == {1, sides}
    if nova:
        return OpenRoll(dice=tuple(rolled), total=total, nova=True)
    for d in first:
        if d.face not in (1, sides):
            continue
        sign = 1 if d.face == sides else -1
        again = d.face
        while again == d.face:  # a further 10 explodes again; a further 1 implodes again
            extra = dice.roll(sides, purpose, by)
            rolled.append(extra)
            total += sign * extra.face
            again = extra.face
    return OpenRoll(dice=tuple(rolled), total=total)


# ------------------------------------------------------------------ orders of play


def surprised_last(order: Sequence[str], surprised: Collection[str], round_number: int) -> list[str]:
    """RealmsRPG: "During the first round of Combat, all surprised parties act after the
    opposing side has taken their turns. Subsequent rounds follow the normal initiative order"."""
    if round_number != 1:
        return list(order)
    return [c for c in order if c not in surprised] + [c for c in order if c in surprised]


def companions_last(order: Sequence[str], companions: Sequence[str]) -> list[str]:
    """RealmsRPG: "If there are any Companions they act after all other Characters and
    Creatures have gone in any order the Players agree on": ``companions`` in that order."""
    chosen = [c for c in companions if c in order]
    return [c for c in order if c not in chosen] + chosen


def defeated_replaced(order: Sequence[str], side_of: Mapping[str, str], defeated: Collection[str]) -> list[str]:
    """RealmsRPG: "As creatures get defeated, all creature's initiative on their side move up to
    replace their position in the initiative order (unless it is in the first position). This
    is done at the beginning of the next round."

    The order keeps its pattern of sides: the survivors of a side move up, in their order,
    into that side's places. A defeated creature in the first place leaves it to whoever is
    next (that place is not kept for its side); a side's places left over are dropped."""
    if not defeated:
        return list(order)
    places = list(order)
    if places and places[0] in defeated:
        places = places[1:]
    queues: dict[str, list[str]] = {}
    for c in places:
        if c not in defeated:
            queues.setdefault(side_of[c], []).append(c)
    out = []
    for c in places:
        queue = queues.get(side_of[c], [])
        if queue:
            out.append(queue.pop(0))
    return out
