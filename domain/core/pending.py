"""Pending decisions: who must decide what now, the legal choices, and the command that answers.

A ruleset says what waits (``Ruleset.pending(state)``); the prompts clients are sent and the
refusal to end a turn while something waits are built from it, so neither names a game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.concerns import CombatantId
from domain.core.errors import RuleViolation


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One legal answer, with what it costs (its Action Points, when it has a cost).

    ``answer``: the command's fields this choice sets, when they are more than the choice field
    set to ``name`` (a Wounded defender's Penalty Points, ``pull: true`` for "PullYourPunch")."""

    name: str
    action_points: int = 0
    answer: dict[str, Any] | None = None
    label: str = ""  # in the game's words, for a button (default: ``name``)


class Refusal(msgspec.Struct, frozen=True, kw_only=True):
    """The refusal a command gets while a decision waits (ending the turn, for one that blocks it)."""

    code: str
    message: str
    details: dict[str, Any] = msgspec.field(default_factory=dict)

    def violation(self) -> RuleViolation:
        return RuleViolation(self.code, self.message, **self.details)


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A decision the fight waits for. ``command`` answers it: ``body`` is that command with
    what is known filled in, and the choice goes in ``choice_field`` (None: nothing to choose).

    ``combatant_id`` decides (a player for their own, the GM for an NPC); None: the GM's own
    decision. ``blocks_turn_end``: the turn in progress may not end while it waits, refused
    with ``refusal`` (default: ``decision_pending``, naming the decision)."""

    id: str  # stable while the decision is pending: a client shows each once
    kind: str
    combatant_id: CombatantId | None
    command: str
    body: dict[str, Any]
    choice_field: str | None = None
    choices: tuple[Choice, ...] = ()
    stage: str | None = None
    blocks_turn_end: bool = False
    refusal: Refusal | None = None
    summary: str = ""  # for whoever decides: what is asked of them

    def answer(self, choice: Choice | None = None) -> dict[str, Any]:
        """The command answering this decision with ``choice`` (None: when there is nothing to
        choose), its ``type`` included."""
        body = {"type": self.command, **self.body}
        if choice is None:
            return body
        if choice.answer is not None:
            return {**body, **choice.answer}
        assert self.choice_field is not None, f"decision {self.id} has nothing to choose"
        return {**body, self.choice_field: choice.name}
