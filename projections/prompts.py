"""Pending decisions as prompts: what the caller must decide now, with the legal choices.

The decisions are the ruleset's (``Ruleset.pending``), read from the state *as the caller may
see it* (the state shown to clients, without the combatants hidden from the caller: what
``projections.visibility.state_for`` shows them), so a prompt never tells more than the caller's
state does: an attack by a hidden combatant, dropped from a player's view, prompts only the GM.

A prompt goes to whoever decides: a player for the combatants their token is bound to, the GM
for NPCs and for what is the GM's own (``combatant_id`` None). The GM may also send a step for a
player who left, but is prompted only for its own; a spectator decides nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.encounter import EncounterState
from domain.core.pending import Decision
from domain.core.ruleset import Ruleset
from projections.visibility import Viewer


class Choice(msgspec.Struct, kw_only=True):
    name: str
    action_points: int = 0


class Prompt(msgspec.Struct, kw_only=True):
    """A decision awaiting the caller. Send ``command``: ``body`` is the command with what is
    known filled in; put the choice in ``choice_field`` (None: nothing to choose)."""

    id: str  # stable while the decision is pending: a client shows each once
    kind: str  # what is decided, in the ruleset's words
    combatant_id: str | None  # who decides; None: the GM's own decision
    command: str
    body: dict[str, Any]
    choice_field: str | None = None
    choices: list[Choice] = msgspec.field(default_factory=list)
    stage: str | None = None


def seen_by(ruleset: Ruleset, state: EncounterState, viewer: Viewer) -> EncounterState:
    """The state ``viewer`` may see, as a state: shown (``Ruleset.shown``), and for anyone but
    the GM without the combatants hidden from them (``Ruleset.conceal``)."""
    shown = ruleset.shown(state)
    if viewer.sees_all:
        return shown
    return ruleset.conceal(shown, ruleset.hidden_from(state, viewer.combatant_ids))


def prompts_for(ruleset: Ruleset, state: EncounterState, viewer: Viewer) -> list[Prompt]:
    """The decisions pending in ``state`` that await ``viewer``, from what they may see of it."""
    if viewer.role not in ("gm", "player"):
        return []
    seen = seen_by(ruleset, state, viewer)
    mine = [d for d in ruleset.pending(seen) if decides(seen, viewer, d.combatant_id)]
    if not mine or viewer.sees_all:
        return [_prompt(d) for d in mine]
    # what the viewer's own view says waits may not wait in the fight (a hidden combatant moves
    # first): only what the fight waits for is prompted, with the choices the viewer may see
    waiting = {d.id for d in ruleset.pending(state)}
    return [_prompt(d) for d in mine if d.id in waiting]


def decides(seen: EncounterState, viewer: Viewer, who: str | None) -> bool:
    """Whether ``viewer`` makes the decision of ``who`` (None: the GM's own)."""
    if who is None:
        return viewer.sees_all
    c = seen.combatants.get(who)
    if c is None:
        return False
    if viewer.sees_all:
        return c.controller == "gm"
    return who in viewer.combatant_ids


def _prompt(d: Decision) -> Prompt:
    return Prompt(id=d.id, kind=d.kind, combatant_id=d.combatant_id, command=d.command, body=dict(d.body),
                  choice_field=d.choice_field, stage=d.stage,
                  choices=[Choice(name=c.name, action_points=c.action_points) for c in d.choices])
