"""The lifecycle's commands decided, the same in every game: combatants added and removed,
initiative rolled and the order set, the fight started, turns ended and rounds begun, the fight
ended, the hidden revealed, a retcon. Each asks the game its hooks (its sheet, budget,
initiative, where a joiner acts) and its own commands go to ``decide_action``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from domain.core import retcon
from domain.core.dice import Dice
from domain.core.encounter import (
    AddCombatant,
    Combatant,
    CombatantAdded,
    CombatantRemoved,
    CombatantRevealed,
    Command,
    EncounterEnded,
    EncounterStarted,
    EncounterState,
    EndEncounter,
    EndTurn,
    Event,
    InitiativeRolled,
    RemoveCombatant,
    Retcon,
    RevealCombatant,
    RevealRoll,
    RollInitiative,
    RollRevealed,
    RoundStarted,
    SetTurnOrder,
    StartEncounter,
    TurnEnded,
    TurnOrderSet,
)
from domain.core.engine.fold import NeedsHistory
from domain.core.errors import RuleViolation, check_id, clean_text

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset

replace = msgspec.structs.replace


class Lifecycle:
    """A game's lifecycle decider, asking ``game`` its hooks."""

    def __init__(self, game: Ruleset) -> None:
        self.game = game

    def decide(self, state: EncounterState, command: Command, dice: Dice, *, seed: bytes | None = None,
               history: Sequence[Sequence[Event]] | None = None) -> list[Event]:
        """``history``: the recorded events grouped by the command that recorded them, up to
        ``state.version``; only a ``Retcon`` is judged against it (and needs it)."""
        game = self.game
        if isinstance(command, Retcon):
            if history is None:
                raise NeedsHistory("a Retcon is decided against the recorded history")
            return [retcon.decide(state, command, history)]
        if state.status == "ended":
            if isinstance(command, game.after_fight_commands):
                return game.decide_action(state, command, dice)
            raise RuleViolation("encounter_ended", f"The encounter “{state.name}” has ended.")
        match command:
            case AddCombatant():
                added = game.decide_add_combatant(state, command)
                if state.status != "active":
                    return [added]
                order = game.place_joiner(state, added)
                if order == [*state.order, added.combatant_id]:
                    return [added]
                return [added, TurnOrderSet(order=order)]
            case RemoveCombatant():
                removed = self.remove_combatant(state, command)
                return [removed, *game.after_removal(game.evolve(state, removed), dice)]
            case RollInitiative():
                if not state.combatants:
                    raise RuleViolation("no_combatants", "Add combatants before rolling initiative.")
                return [self.roll_initiative(state, command, dice)]
            case SetTurnOrder():
                return [self.set_turn_order(state, command)]
            case StartEncounter():
                return game.with_steps(state, game.decide_start(state), dice)
            case EndTurn():
                return game.with_steps(state, game.decide_end_turn(state, command), dice)
            case EndEncounter():
                return [EncounterEnded(seed=seed.hex() if seed is not None else None)]
            case RevealCombatant():
                c = game.combatant(state, command.combatant_id)
                if not c.hidden:
                    raise RuleViolation("not_hidden", f"{c.name} is not hidden.")
                return [CombatantRevealed(combatant_id=c.id)]
            case RevealRoll():
                if command.version not in state.secret_versions:
                    raise RuleViolation("no_secret_roll", f"Event {command.version} has no secret roll left to reveal.")
                return [RollRevealed(version=command.version)]
            case _:
                return game.decide_action(state, command, dice)

    def roll_initiative(self, state: EncounterState, cmd: RollInitiative, dice: Dice) -> InitiativeRolled:
        """The game rolls; a secret roll marks the GM's own rolls (not the players') secret.
        (The GM's modifier is a value off an NPC's sheet, which players never see: a hidden NPC
        with the best modifier tells nothing, so a roll is secret only when the GM asks.)"""
        event = self.game.roll_initiative(state, dice)
        if not cmd.secret:
            return event
        rolls = [
            r if r.who in state.combatants and state.combatants[r.who].controller == "player"
            else replace(r, secret=True)
            for r in event.rolls
        ]
        return replace(event, rolls=rolls, secret=any(r.secret for r in rolls))

    def add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        """The combatant an ``AddCombatant`` adds, checked (``Ruleset.decide_add_combatant``'s default)."""
        game = self.game
        name = clean_text(cmd.name, "A combatant's name")
        side = clean_text(cmd.side, "A combatant's side (for example “party” or “enemies”)", max_length=64)
        check_id(cmd.combatant_id or "", "A combatant's id", game.reserved_ids)
        if cmd.combatant_id in state.combatants or cmd.combatant_id in state.concealed:
            # a hidden combatant's id stays its own, even once a retcon undid its arrival
            raise RuleViolation("duplicate_combatant", f"A combatant with id {cmd.combatant_id} is already here.")
        try:
            sheet = msgspec.convert(cmd.sheet, game.sheet_type, strict=True)
        except msgspec.ValidationError as exc:
            raise RuleViolation("invalid_sheet", f"The character sheet is not valid for {game.name}: {exc}.") from exc
        combatant = Combatant(id=cmd.combatant_id, name=name, side=side, controller=cmd.controller, sheet=sheet)
        ap = 0
        if state.status == "active":
            budget = game.budget(combatant)
            ap = budget.at_round_start(budget.at_combat_start(), state.round)
        return CombatantAdded(
            combatant_id=cmd.combatant_id,
            name=name,
            side=side,
            controller=cmd.controller,
            sheet=msgspec.to_builtins(sheet),
            action_points=ap,
            seq=state.combatants_added,
            hidden=cmd.hidden,
        )

    def remove_combatant(self, state: EncounterState, cmd: RemoveCombatant) -> CombatantRemoved:
        c = self.game.combatant(state, cmd.combatant_id)
        if state.status == "active" and state.turn == c.id:
            raise RuleViolation(
                "combatant_has_turn", f"It is {c.name}'s turn: end it before removing them from the fight."
            )
        return CombatantRemoved(combatant_id=c.id)

    def set_turn_order(self, state: EncounterState, cmd: SetTurnOrder) -> TurnOrderSet:
        if not state.initiative_rolled:
            raise RuleViolation("initiative_not_rolled", "Roll initiative before setting the order of play.")
        if sorted(cmd.order) != sorted(state.combatants) or len(set(cmd.order)) != len(cmd.order):
            raise RuleViolation(
                "invalid_turn_order", "The order of play must name every combatant in the fight exactly once."
            )
        self.game.check_turn_order(state, cmd.order)
        return TurnOrderSet(order=list(cmd.order))

    def start(self, state: EncounterState) -> list[Event]:
        """The events that start the fight (``Ruleset.decide_start``'s default)."""
        if state.status != "setup":
            raise RuleViolation("already_started", "The fight has already started.")
        if not state.combatants:
            raise RuleViolation("no_combatants", "Add combatants before starting the fight.")
        if not state.initiative_rolled:
            raise RuleViolation("initiative_not_rolled", "Roll initiative before starting the fight.")
        grants = {}
        for cid, c in state.combatants.items():
            budget = self.game.budget(c)
            grants[cid] = budget.at_round_start(budget.at_combat_start(), 1)
        return [EncounterStarted(), RoundStarted(round=1, action_points=grants)]

    def end_turn(self, state: EncounterState, cmd: EndTurn) -> list[Event]:
        """The events that end a turn, and the round once everyone has had theirs
        (``Ruleset.decide_end_turn``'s default)."""
        game = self.game
        game.require_turn(state, cmd.combatant_id)
        waiting = game.turn_end_refusal(state)
        if waiting is not None:
            raise waiting
        game.before_end_turn(state)
        c = state.combatants[cmd.combatant_id]
        after = game.budget(c).at_turn_end(c.action_points)
        events: list[Event] = [
            TurnEnded(combatant_id=c.id, action_points=after if after != c.action_points else None)
        ]
        acted = {*state.acted, c.id}
        if all(cid in acted for cid in state.order):
            nxt_round = state.round + 1
            grants = {}
            for cid, other in state.combatants.items():
                current = after if cid == c.id else other.action_points
                grants[cid] = game.budget(other).at_round_start(current, nxt_round)
            events.append(RoundStarted(round=nxt_round, action_points=grants))
        return events

    def turn_end_refusal(self, state: EncounterState) -> RuleViolation | None:
        """The refusal ending the turn gets while a decision that blocks it waits, if any
        (``Ruleset.turn_end_refusal``'s default)."""
        for decision in self.game.pending(state):
            if decision.blocks_turn_end:
                if decision.refusal is not None:
                    return decision.refusal.violation()
                return RuleViolation("decision_pending", f"{decision.summary or 'A decision'} is still awaited "
                                     f"({decision.command}).", decision=decision.id)
        return None
