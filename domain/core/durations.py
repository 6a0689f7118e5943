"""Durations: how long an effect lasts, and whether it has run out at a turn or round boundary.

The rule texts measure time in several ways:

- to the end of the round ("A DEF change from a declared action lasts the whole round", Novus);
- N rounds;
- N of the bearer's own turns;
- "Effects that last "one round" remain active from when they begin until the start of that
  same turn in the following round" (RealmsRPG);
- until removed (by the GM, by healing), or until overcome ("you may attempt to overcome each
  condition or effect currently affecting your Character", RealmsRPG's End-of-Turn Overcome).

A ``Duration`` is stored with the effect (in a ruleset's state or its events); ``after`` says
what is left of it once a ``Boundary`` passes: the same, counted down, or None (run out).
The last two kinds never run out by time: the ruleset's events end them. Pure.
"""

from __future__ import annotations

from typing import Literal

import msgspec

DurationKind = Literal[
    "end_of_round", "rounds", "bearer_turns", "until_same_turn_next_round", "until_removed", "until_overcome",
]
BoundaryKind = Literal["round_start", "turn_start", "turn_end", "round_end"]


class Boundary(msgspec.Struct, frozen=True, kw_only=True):
    """A moment of the fight: the start or end of a round, or of ``combatant``'s turn."""

    kind: BoundaryKind
    round: int
    combatant: str | None = None


class Duration(msgspec.Struct, frozen=True, kw_only=True):
    """How long an effect lasts from when it began (``round``, during ``turn``'s turn).

    ``count``: the rounds or the bearer's turns still to run (``rounds``, ``bearer_turns``)."""

    kind: DurationKind
    round: int
    turn: str | None = None
    bearer: str | None = None
    count: int = 1

    @classmethod
    def end_of_round(cls, round: int) -> Duration:
        return cls(kind="end_of_round", round=round)

    @classmethod
    def rounds(cls, n: int, round: int) -> Duration:
        return cls(kind="rounds", round=round, count=n)

    @classmethod
    def bearer_turns(cls, n: int, bearer: str, round: int) -> Duration:
        return cls(kind="bearer_turns", round=round, bearer=bearer, count=n)

    @classmethod
    def one_round_from(cls, turn: str, round: int) -> Duration:
        """RealmsRPG's "one round": until the start of ``turn``'s turn in the following round."""
        return cls(kind="until_same_turn_next_round", round=round, turn=turn)

    @classmethod
    def until_removed(cls, round: int) -> Duration:
        return cls(kind="until_removed", round=round)

    @classmethod
    def until_overcome(cls, round: int) -> Duration:
        return cls(kind="until_overcome", round=round)


def after(d: Duration, at: Boundary) -> Duration | None:
    """What is left of ``d`` once ``at`` has passed: ``d`` itself, ``d`` counted down, or None
    when it has run out."""
    match d.kind:
        case "end_of_round":
            return None if at.kind == "round_end" and at.round >= d.round else d
        case "rounds":
            # N rounds: the round it began in is the first; it runs out as the Nth ends
            return None if at.kind == "round_end" and at.round >= d.round + d.count - 1 else d
        case "bearer_turns":
            if at.kind != "turn_end" or at.combatant != d.bearer:
                return d
            return None if d.count <= 1 else msgspec.structs.replace(d, count=d.count - 1)
        case "until_same_turn_next_round":
            if at.kind == "turn_start" and at.combatant == d.turn and at.round > d.round:
                return None
            # the one whose turn it was has left the fight: a whole round has passed anyway
            return None if at.kind == "round_start" and at.round > d.round + 1 else d
        case _:
            return d  # until removed, until overcome: the ruleset's events end it


def has_run_out(d: Duration, at: Boundary) -> bool:
    return after(d, at) is None
