"""Reactions outside one's own turn, and the reaction window an action waits in.

The rule texts let combatants act out of turn, in answer to what another does:

- RealmsRPG: "Reactions are Actions a creature can take outside of its turn, typically in
  response to specific events"; Defend: "You can defend an ally or yourself from being
  attacked if both the attacker and the ally are within 1 space of you and if the attack
  would hit";
- Novus: an Opportunity Attack "happens outside the normal initiative cycle";
- Health/Trauma: "one Reaction inbetween your turns".

A ruleset opens a ``ReactionWindow`` (``ReactionsOpened``, kept in its own state) when an
action must wait: it names who may react and with what. Each answers with ``React`` (the
ruleset decides what the reaction does) or ``PassReaction``; the GM may close the window
(``CloseReactions``) for those who have not answered. The window is settled once nobody is
left to answer; the ruleset then resolves the action that waited. ``decisions`` gives the
window's pending decisions (``domain/core/pending.py``). Commands and events here are a
ruleset's to offer: it lists them in its ``extra_commands`` and ``extra_events``.
"""

from __future__ import annotations

import msgspec

from domain.core.concerns import CombatantId, Parties
from domain.core.encounter import Command, Event
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision


PASSED = "pass"


class ReactionWindow(msgspec.Struct, frozen=True, kw_only=True):
    """An action waiting for reactions. ``id``: what the window is for (stable while open);
    ``actor``: whose action waits; ``may_react``: who may answer; ``reactions``: the legal
    reactions; ``answers``: who answered, with their reaction or ``"pass"``."""

    id: str
    actor: CombatantId
    may_react: Parties[tuple[CombatantId, ...]]  # the window is about each who may react
    reactions: tuple[str, ...]
    trigger: str = ""
    answers: dict[CombatantId, str] = msgspec.field(default_factory=dict)

    def waiting_on(self) -> list[str]:
        return [c for c in self.may_react if c not in self.answers]

    @property
    def settled(self) -> bool:
        return not self.waiting_on()

    def reacted(self) -> dict[str, str]:
        """Who reacted (not passed), with their reaction."""
        return {c: r for c, r in self.answers.items() if r != PASSED}


# ------------------------------------------------------------------ commands


class React(Command, tag="React"):
    """React to the action waiting in ``window`` with ``reaction`` (one of its choices)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    window: str
    reaction: str


class PassReaction(Command, tag="PassReaction"):
    """Let the action waiting in ``window`` go on without reacting to it."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    window: str


class CloseReactions(Command, tag="CloseReactions"):
    """The GM closes the window: whoever has not answered passes."""

    window: str


# -------------------------------------------------------------------- events


class ReactionsOpened(Event, tag="ReactionsOpened"):
    window: ReactionWindow


class ReactionPassed(Event, tag="ReactionPassed"):
    window: str
    combatant_id: CombatantId


class ReactionsClosed(Event, tag="ReactionsClosed"):
    """The GM closed the window: ``passed`` had not answered."""

    window: str
    passed: list[CombatantId]


COMMANDS: tuple[type[Command], ...] = (React, PassReaction, CloseReactions)
EVENTS: tuple[type[Event], ...] = (ReactionsOpened, ReactionPassed, ReactionsClosed)


# ---------------------------------------------------------------- deciding


def open_window(
    window_id: str, actor: str, may_react: list[str] | tuple[str, ...], reactions: tuple[str, ...], trigger: str = "",
) -> ReactionsOpened:
    return ReactionsOpened(window=ReactionWindow(
        id=window_id, actor=actor, may_react=tuple(may_react), reactions=reactions, trigger=trigger))


def check_answer(window: ReactionWindow | None, window_id: str, combatant_id: str, name: str) -> ReactionWindow:
    """The open window ``combatant_id`` (called ``name``) may still answer; refused otherwise."""
    if window is None or window.id != window_id or window.settled:
        raise RuleViolation("no_reaction_window", "Nothing waits for a reaction now.", window=window_id)
    if combatant_id not in window.may_react:
        raise RuleViolation("may_not_react", f"{name} may not react to this.")
    if combatant_id in window.answers:
        raise RuleViolation("already_answered", f"{name} has already answered.")
    return window


def check_reaction(window: ReactionWindow, reaction: str) -> None:
    if reaction not in window.reactions or reaction == PASSED:
        raise RuleViolation(
            "reaction_not_allowed",
            f"“{reaction}” is not a reaction open here (choices: {', '.join(window.reactions)}).",
        )


def decide_pass(window: ReactionWindow | None, cmd: PassReaction, name: str) -> ReactionPassed:
    check_answer(window, cmd.window, cmd.combatant_id, name)
    return ReactionPassed(window=cmd.window, combatant_id=cmd.combatant_id)


def decide_close(window: ReactionWindow | None, cmd: CloseReactions) -> ReactionsClosed:
    if window is None or window.id != cmd.window or window.settled:
        raise RuleViolation("no_reaction_window", "Nothing waits for a reaction now.", window=cmd.window)
    return ReactionsClosed(window=cmd.window, passed=window.waiting_on())


# ----------------------------------------------------------------- folding


def answered(window: ReactionWindow, combatant_id: str, answer: str) -> ReactionWindow:
    return msgspec.structs.replace(window, answers={**window.answers, combatant_id: answer})


def evolve_window(window: ReactionWindow | None, event: Event) -> ReactionWindow | None:
    """The window after one of the events here (a ruleset's ``evolve_action`` calls it)."""
    match event:
        case ReactionsOpened():
            return event.window
        case ReactionPassed() if window is not None and window.id == event.window:
            return answered(window, event.combatant_id, PASSED)
        case ReactionsClosed() if window is not None and window.id == event.window:
            for c in event.passed:
                window = answered(window, c, PASSED)
            return window
    return window


def decisions(window: ReactionWindow | None, summary: str = "") -> list[Decision]:
    """What the open window waits for: one decision for each who may still answer (a
    ``React`` with the window's reactions; ``PassReaction`` declines)."""
    if window is None:
        return []
    choices = tuple(Choice(name=r) for r in window.reactions)
    return [
        Decision(
            id=f"reaction:{window.id}:{cid}",
            kind="reaction",
            combatant_id=cid,
            command="React",
            body={"combatant_id": cid, "window": window.id},
            choice_field="reaction",
            choices=choices,
            summary=summary or f"React to {window.trigger or 'the action'}, or pass (PassReaction).",
        )
        for cid in window.waiting_on()
    ]
