"""What a game gives the contract suite (tests/contract), exported from its own package as
``<package>.contract.WALK`` so a game shipped on its own brings it along: sheets for players and
NPCs, the commands worth trying in a state, and where a secret can sit on an NPC's sheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from domain.core.encounter import Command, EncounterState

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset


T = TypeVar("T")


class Chooser(Protocol):
    """Where a walk's choices come from (the suite hands in a seeded ``random.Random``; the domain
    itself draws nothing at random)."""

    def choice(self, seq: Sequence[T]) -> T: ...
    def randint(self, a: int, b: int) -> int: ...
    def random(self) -> float: ...
    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


@dataclass(frozen=True)
class Walk:
    """A game's contract fixture: the suite walks random fights through it and checks the invariants."""

    sheet: Callable[[Chooser, bool], dict[str, Any]]  # (rng, is_npc) -> a valid sheet
    moves: Callable[[Ruleset, EncounterState, Chooser], list[Command]]  # worth trying now
    # (an NPC's sheet, a marker) -> the sheet with the marker in a value players may not see and no rule
    # reads: the contract suite then looks for the marker in every view a player or spectator has
    secret: Callable[[dict[str, Any], str], dict[str, Any]] | None = None
