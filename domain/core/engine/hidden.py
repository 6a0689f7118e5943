"""Who sees what: the combatants hidden from a viewer, the state as they may see it, and a
command decided for a sender from whom some are hidden, so that neither its answer nor its
refusal tells of them. Decided from the ids a command and an event name (``concerns``), never
from text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.core.concerns import shape_of
from domain.core.dice import Dice, ReportedDice
from domain.core.encounter import Command, EncounterState, Event
from domain.core.engine.fold import hidden_here
from domain.core.errors import RuleViolation
from domain.core.pending import Decision

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset

replace = msgspec.structs.replace


class Concealment:
    """A game's hidden information, asking ``game`` its hooks (``groups``, ``conceal_rules``)."""

    def __init__(self, game: Ruleset) -> None:
        self.game = game

    def hidden_from(self, state: EncounterState, own: frozenset[str] = frozenset()) -> frozenset[str]:
        """The combatants hidden from a viewer whose own combatants are ``own`` (a player's), and
        the groups all of whose members are hidden."""
        hidden = frozenset(state.concealed) - own
        if not hidden:
            return hidden
        groups = {g for g, members in self.game.groups(state).items() if members and all(m in hidden for m in members)}
        return hidden | groups

    def conceal(self, state: EncounterState, hidden: frozenset[str]) -> EncounterState:
        """The state as it would be without the ``hidden`` combatants."""
        if not hidden:
            return state
        return replace(
            state,
            combatants={k: c for k, c in state.combatants.items() if k not in hidden},
            order=[c for c in state.order if c not in hidden],
            acted=[c for c in state.acted if c not in hidden],
            turn=None if state.turn in hidden else state.turn,
            group_initiative={g: t for g, t in state.group_initiative.items() if g not in hidden},
            rules=self.game.conceal_rules(state, hidden),
        )

    def accepts(self, state: EncounterState, command: Command) -> bool:
        """Whether ``decide`` would take ``command`` now, judged without rolling a die (one that
        gets as far as rolling has passed every check)."""
        try:
            self.game.decide(state, command, _NoRolling())
        except RuleViolation:
            return False
        except _WouldRoll:
            return True
        return True

    def decide_as(self, hidden: frozenset[str], state: EncounterState, command: Command, dice: Dice,
                  **context: Any) -> list[Event]:
        """``decide`` for a sender from whom the ``hidden`` combatants are hidden. One that names a
        hidden combatant gets the answer an unknown id gets, and a refusal is explained from the
        state the sender may see. A command that records nothing is refused (``nothing_changes``)."""
        events = self._decide_as(hidden, state, command, dice, **context)
        if not events:
            raise RuleViolation("nothing_changes", f"{type(command).__struct_config__.tag} would change nothing "
                                "in the fight now.")
        return events

    def _decide_as(self, hidden: frozenset[str], state: EncounterState, command: Command, dice: Dice,
                   **context: Any) -> list[Event]:
        game = self.game
        if not hidden:
            return game.decide(state, command, dice, **context)
        if isinstance(dice, ReportedDice):  # its own refusals reach the sender as it gave them
            dice = _Reporting(dice)
        if not shape_of(type(command)).ids(command).isdisjoint(hidden):
            refusal = self.refusal_unseen(game.conceal(state, hidden), command, context)
            raise refusal or RuleViolation(
                "unknown_combatant", "There is no such combatant in this encounter.") from None
        try:
            events = game.decide(state, command, dice, **context)
        except RuleViolation as refused:
            if isinstance(dice, _Reporting) and dice.refusal is refused:
                # the reported dice's own (a die missing, a face out of range): it names a die's
                # size and rule, no more than the offer's dice do, and the client needs it
                raise
            # explained from what the sender may see: a refusal there is the answer (even when the
            # whole state refuses for another reason, such as an exchange of a hidden attacker's:
            # telling that would tell of them); else the code alone, with its table's words
            told = self.refusal_unseen(game.conceal(state, hidden), command, context)
            if told is not None:
                raise told from None
            raise RuleViolation(refused.code, game.violation_codes.get(refused.code, "This command is refused.")) from None
        if events and hidden_here(state) and self.answers_unseen(state, hidden, command):
            # an answer to a decision the sender cannot see (a hidden attacker's exchange, found by
            # guessing its version): refused as it is on what they see, as an unknown one is
            told = self.refusal_unseen(game.conceal(state, hidden), command, context)
            if told is not None:
                raise told
        return events

    def answers_unseen(self, state: EncounterState, hidden: frozenset[str], command: Command) -> bool:
        """Whether ``command`` answers a decision the fight waits for that the sender, from whom
        ``hidden`` is hidden, is not asked (it concerns them)."""
        game = self.game
        tag = type(command).__struct_config__.tag
        fields = msgspec.to_builtins(command)

        def answers(d: Decision) -> bool:  # its command, or another naming all it names (a pass)
            named = {k: v for k, v in d.body.items() if k != "type"}
            return (d.command == tag or len(named) >= 2) and all(fields.get(k) == v for k, v in named.items())

        answered = [d for d in game.pending(game.shown(state)) if answers(d)]
        if not answered:
            return False
        asked = {d.id for d in game.pending(game.conceal(game.shown(state), hidden))}
        return any(d.id not in asked for d in answered)

    def refusal_unseen(self, seen: EncounterState, command: Command, context: dict[str, Any]) -> RuleViolation | None:
        """The refusal ``command`` gets on ``seen`` (a state without the hidden combatants), or
        None if it would pass there (or roll dice: it got past every check)."""
        try:
            self.game.decide(seen, command, _NoRolling(), **context)
        except RuleViolation as refused:
            return refused
        except _WouldRoll:
            return None
        return None


class _Reporting:
    """Reported dice that keep the refusal they gave (a die missing, a face out of range)."""

    def __init__(self, dice: ReportedDice) -> None:
        self.dice = dice
        self.refusal: RuleViolation | None = None

    def roll(self, sides: int, purpose: str, by: str | None = None) -> Any:
        try:
            return self.dice.roll(sides, purpose, by)
        except RuleViolation as refused:
            self.refusal = refused
            raise


class _WouldRoll(Exception):
    """A command judged only for its refusal got as far as rolling a die."""


class _NoRolling:
    """The dice of a command judged only for its refusal: none is rolled."""

    def roll(self, sides: int, purpose: str, by: str | None = None) -> Any:
        raise _WouldRoll
