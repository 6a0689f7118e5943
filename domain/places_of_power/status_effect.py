"""A Status Effect on a combatant, as data (the rules that read it live in ``statuses``).

"These conditions will last either until the end of the round, a set number of turns, or
until actively removed by an action, spell, or another condition."
"""

from __future__ import annotations

from typing import Annotated, Literal

from domain.core.concerns import CombatantId
import msgspec

StatusName = Literal[
    "Bleeding", "Burning", "Crippled", "Blinded", "Deafened", "Frightened", "Paralysed", "Staggered",
    "Unconscious", "Exposed", "Entangled",
]
Lasts = Literal["end_of_round", "turns", "until_removed"]


class Status(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``lasts``: until the end of the round it was applied in (``round``), for ``turns`` of
    the combatant's own turns, or until removed. ``source``: the combatant a Frightened
    character fears; ``difficulty``: the Athletics check that frees an Entangled one;
    ``level``: how many turns a Bleeding has gone on (its check starts Easy and rises)."""

    name: StatusName
    lasts: Lasts = "until_removed"
    turns: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    round: int = 0
    source: CombatantId | None = None
    difficulty: str | None = None
    level: int = 0
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""
    due: bool = False  # Bleeding or Burning waiting to be settled this turn
    used: int = 0  # Staggered: acted this turn; Entangled: tried to break loose this turn
