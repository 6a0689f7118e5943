"""A round in phases: whose move it is in each phase, and when the round's phases are done.

Novus' round is not one pass of turns: actions "are **declared** from the lowest IP to the
highest and **resolved** from the highest to the lowest" (novus-gaps N11), and "the primary
attack roll is made at the character's initiative point, and any remaining attack rolls are
made at the end of the round" (novus-combat, Multiple Attacks); "an action declared by a
character may be canceled at any time prior to its resolution".

A ruleset describes its round as ``Phases``: each ``Phase`` is named and goes through its
participants by initiative, highest first (``descending``) or lowest first (``ascending``).
Core steps through them: ``Phases.mover`` says whose move it is, ``Phases.moved`` records a
move and goes on to the next phase once everyone in this one has moved (skipping a phase
nobody takes part in). Who takes part in a phase is the ruleset's to say (``ranked``: the
participants, highest initiative first: everyone declares; only those with an extra attack
take the end-of-round phase). The position is kept in the ruleset's state. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

from domain.core.errors import RuleViolation


Direction = Literal["descending", "ascending"]


@dataclass(frozen=True)
class Phase:
    name: str
    direction: Direction = "descending"

    def in_order(self, ranked: Sequence[str]) -> list[str]:
        """``ranked`` (highest initiative first) in the order this phase goes through it."""
        return list(ranked) if self.direction == "descending" else list(reversed(ranked))


class PhasePosition(msgspec.Struct, frozen=True, kw_only=True):
    """Where the round stands: the phase (its index; past the last: the phases are done)
    and who has moved in it."""

    phase: int = 0
    moved: tuple[str, ...] = ()


Ranked = Callable[[Phase], Sequence[str]]


@dataclass(frozen=True)
class Phases:
    phases: tuple[Phase, ...]

    def current(self, at: PhasePosition) -> Phase | None:
        return self.phases[at.phase] if at.phase < len(self.phases) else None

    def begin(self, ranked: Ranked) -> PhasePosition:
        """The position at the start of a round: the first phase anyone takes part in."""
        return self._skip_empty(PhasePosition(), ranked)

    def done(self, at: PhasePosition) -> bool:
        return at.phase >= len(self.phases)

    def mover(self, at: PhasePosition, ranked: Ranked) -> str | None:
        """Whose move it is (None: the phases are done)."""
        phase = self.current(at)
        if phase is None:
            return None
        return next((c for c in phase.in_order(ranked(phase)) if c not in at.moved), None)

    def waiting(self, at: PhasePosition, ranked: Ranked) -> bool:
        """Whether someone in the current phase has yet to move (``mover`` is not None), found
        without putting the phase's participants in order."""
        phase = self.current(at)
        if phase is not None:
            for c in ranked(phase):
                if c not in at.moved:
                    return True
        return False

    def check_move(self, at: PhasePosition, phase_name: str, who: str, ranked: Ranked, name: str) -> None:
        """Refuse a move in ``phase_name`` by ``who`` (called ``name``) that is not theirs now."""
        phase = self.current(at)
        if phase is None or phase.name != phase_name:
            now = phase.name if phase is not None else "none (the round's phases are over)"
            raise RuleViolation("wrong_phase", f"The round is not in its {phase_name} phase (now: {now}).",
                                phase=now)
        mover = self.mover(at, ranked)
        if mover != who:
            raise RuleViolation("not_your_move", f"{name} does not move now in the {phase.name} phase.",
                                mover=mover)

    def moved(self, at: PhasePosition, who: str, ranked: Ranked) -> PhasePosition:
        """The position after ``who`` moved: the next phase once everyone in this one has."""
        if at.phase >= len(self.phases):  # the phases are done
            return at
        moved = (*at.moved, who)
        for c in ranked(self.phases[at.phase]):
            if c not in moved:  # someone in this phase has yet to move
                return PhasePosition(phase=at.phase, moved=moved)
        return self._skip_empty(PhasePosition(phase=at.phase + 1), ranked)

    def _skip_empty(self, at: PhasePosition, ranked: Ranked) -> PhasePosition:
        while at.phase < len(self.phases) and not ranked(self.phases[at.phase]):
            at = PhasePosition(phase=at.phase + 1)
        return at
