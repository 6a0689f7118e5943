"""Pending decisions: who must decide what now, the legal choices, and the command that answers.

A ruleset says what waits (``Ruleset.pending(state)``); the prompts clients are sent and the
refusal to end a turn while something waits are built from it, so neither names a game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.concerns import CombatantId


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One legal answer, with what it costs (its Action Points, when it has a cost)."""

    name: str
    action_points: int = 0


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A decision the fight waits for. ``command`` answers it: ``body`` is that command with
    what is known filled in, and the choice goes in ``choice_field`` (None: nothing to choose).

    ``combatant_id`` decides (a player for their own, the GM for an NPC); None: the GM's own
    decision. ``blocks_turn_end``: the turn in progress may not end while it waits."""

    id: str  # stable while the decision is pending: a client shows each once
    kind: str
    combatant_id: CombatantId | None
    command: str
    body: dict[str, Any]
    choice_field: str | None = None
    choices: tuple[Choice, ...] = ()
    stage: str | None = None
    blocks_turn_end: bool = False
    summary: str = ""  # for whoever decides: what is asked of them
