"""Pending decisions as prompts: what the caller must decide now, with the legal choices.

A prompt is a view of the caller's ``decision`` actions (``projections.actions``): each choice
is an offered action, with its whole body. So a prompt never tells more than the caller's next
moves do (a decision about a hidden combatant prompts only the GM, who then makes it), a choice
the rules refuse now is not shown, and an answered decision vanishes with its actions. A
spectator decides nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.encounter import EncounterState
from domain.core.next_moves import NextMoves, canonical
from domain.core.pending import Decision
from domain.core.ruleset import Ruleset
from projections.actions import actions_for
from projections.visibility import Viewer, seen_by


class Choice(msgspec.Struct, kw_only=True):
    """One answer: ``command`` is its whole body, accepted as sent (``action_id``: the same
    answer among ``GET /encounters/{id}/actions``, with its dice and cost)."""

    name: str
    action_points: int = 0
    label: str = ""
    command: dict[str, Any] = msgspec.field(default_factory=dict)
    action_id: str = ""


class Prompt(msgspec.Struct, kw_only=True):
    """A decision awaiting the caller: a view of its ``decision`` actions. Send one choice's
    ``command`` as it is (no choice: send ``body`` with ``type`` set to ``command``)."""

    id: str  # stable while the decision is pending: a client shows each once
    kind: str  # what is decided, in the ruleset's words
    combatant_id: str | None  # who decides; None: the GM's own decision
    command: str
    body: dict[str, Any]
    choice_field: str | None = None
    choices: list[Choice] = msgspec.field(default_factory=list)
    stage: str | None = None
    summary: str = ""


def prompts_for(ruleset: Ruleset, state: EncounterState, viewer: Viewer,
                moves: NextMoves | None = None) -> list[Prompt]:
    """The decisions pending in ``state`` that await ``viewer``: the ``decision`` actions of its
    next moves (``moves``, worked out if not given), grouped by the decision they answer. A
    choice the rules do not take now is not offered; an answered decision is no longer one."""
    if viewer.role not in ("gm", "player"):
        return []
    if moves is None:
        moves = actions_for(ruleset, state, viewer)
    offered = {canonical(a.command): a for a in moves.actions if a.kind == "decision"}
    if not offered:
        return []
    asked = {a.decision for a in offered.values()}
    seen = ruleset.shown(state) if viewer.sees_all else seen_by(ruleset, state, viewer)
    out = []
    for d in ruleset.pending(seen):
        if d.id not in asked:
            continue
        if not d.choices:
            action = offered.get(canonical(d.answer()))
            if action is not None:
                out.append(_prompt(d, []))
            continue
        choices = []
        for c in d.choices:
            action = offered.get(canonical(d.answer(c)))
            if action is not None:
                choices.append(Choice(name=c.name, action_points=c.action_points, label=action.label,
                                      command=action.command, action_id=action.id))
        if choices:
            out.append(_prompt(d, choices))
    return out


def _prompt(d: Decision, choices: list[Choice]) -> Prompt:
    return Prompt(id=d.id, kind=d.kind, combatant_id=d.combatant_id, command=d.command, body=dict(d.body),
                  choice_field=d.choice_field, stage=d.stage, choices=choices, summary=d.summary)
