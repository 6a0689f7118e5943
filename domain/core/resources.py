"""Action resources: the several kinds of action a combatant spends, and when each refills.

One number of Action Points does not hold every game's turn:

- Health/Trauma: a turn of Quarter, Half and Full actions, "one Free Quick Action during each
  of your turns and one Reaction inbetween your turns";
- RealmsRPG: "At the start of combat and the end of each of your turns, your Action Points
  (AP) are set to 4", and "At the end of your turn you gain one free Interaction and one free
  Ability Roll Action";
- Novus: "Normally a character has only 5 Action Points to use in a given round", 10 with
  Haste, spent by declaration.

A ruleset declares each combatant's ``Resources`` (``Ruleset.resources``): each named
``Resource`` with the moments it refills at. Core refills them as it folds those moments
(``Combatant.resources``); the ruleset's own events spend them (``spend``). Pure.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import msgspec

from domain.core.errors import RuleViolation

Moment = Literal["combat_start", "round_start", "turn_start", "turn_end"]
MOMENTS: tuple[Moment, ...] = ("combat_start", "round_start", "turn_start", "turn_end")



@dataclass(frozen=True)
class Resource:
    """One kind of action a combatant spends. At each moment in ``refills`` it is set to
    ``amount``, or, with a ``maximum``, gains ``amount`` and carries over up to ``maximum``."""

    name: str
    amount: int
    refills: tuple[Moment, ...]
    maximum: int | None = None

    def refilled(self, current: int) -> int:
        if self.maximum is None:
            return self.amount
        return min(current + self.amount, self.maximum)


@dataclass(frozen=True)
class Resources:
    """The resources a combatant has (none by default: a ruleset that counts only its
    Action Points declares none)."""

    declared: tuple[Resource, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.declared)

    @functools.cached_property
    def moments(self) -> frozenset[Moment]:
        """The moments anything here refills at (worked out once: a fold asks at every moment)."""
        return frozenset(m for r in self.declared for m in r.refills)

    def refills_at(self, moment: Moment) -> bool:
        return moment in self.moments

    def at(self, moment: Moment, current: Mapping[str, int]) -> dict[str, int]:
        """What the combatant has once ``moment`` comes: each resource refilling then is
        refilled, the others kept (a resource not yet held counts as 0)."""
        fresh = self.afresh.get(moment)
        if fresh is not None:  # everything set to its amount: nothing held counts
            return dict(fresh)
        out = {r.name: current.get(r.name, 0) for r in self.declared}
        for r in self._refilling[moment]:
            out[r.name] = r.refilled(out[r.name])
        return out

    @functools.cached_property
    def _refilling(self) -> dict[Moment, tuple[Resource, ...]]:
        """The resources refilling at each moment (worked out once)."""
        return {m: tuple(r for r in self.declared if m in r.refills) for m in MOMENTS}

    @functools.cached_property
    def afresh(self) -> dict[Moment, dict[str, int]]:
        """At each moment every resource here refills at with no ``maximum``: what they are then
        (what is held does not count: the fold need not read it)."""
        return {m: {r.name: r.amount for r in self.declared} for m in MOMENTS
                if all(m in r.refills and r.maximum is None for r in self.declared)}


def spend(current: Mapping[str, int], name: str, cost: int, *, who: str, what: str) -> dict[str, int]:
    """``current`` after spending ``cost`` of ``name`` on ``what``; refused when short."""
    left = current.get(name, 0)
    if cost > left:
        raise RuleViolation(
            "not_enough_resource",
            f"{who} has {left} {name} left; {what} needs {cost}.",
            resource=name, available=left, cost=cost,
        )
    return {**current, name: left - cost}


def held(combatant: "Combatant") -> dict[str, int]:
    """What ``combatant`` holds of each resource (nothing, in a ruleset that declares none)."""
    r = combatant.resources
    return {} if r is msgspec.UNSET else r


if TYPE_CHECKING:
    from domain.core.encounter import Combatant
