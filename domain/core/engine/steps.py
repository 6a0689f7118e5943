"""The game's turn and round steps put where they fall due: ``with_steps`` takes the events of a
turn's end or a round's start and adds what the game decides at each moment (``at_turn_end``,
``at_round_end``, ``round_order``, ``at_round_start``, ``at_turn_start``), each decided on the
state just before it; a step that leaves a blocking decision stops there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.core.dice import Dice
from domain.core.encounter import (
    EncounterState,
    Event,
    RoundStarted,
    TurnEnded,
    TurnOrderSet,
)

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset


class TurnSteps:
    """A game's turn and round steps; ``stepless``: the game has none (its events pass as they are)."""

    def __init__(self, game: Ruleset, *, stepless: bool) -> None:
        self.game = game
        self.stepless = stepless

    def with_steps(self, state: EncounterState, events: list[Event], dice: Dice) -> list[Event]:
        if self.stepless:
            return events
        game = self.game
        out: list[Event] = []

        def step(more: list[Event]) -> None:
            nonlocal state
            out.extend(more)
            for e in more:
                state = game.evolve(state, e)

        def waits(mark: int, before: set[str]) -> bool:  # the step left a new blocking decision
            return len(out) > mark and any(d.blocks_turn_end and d.id not in before for d in game.pending(state))

        for event in events:
            if isinstance(event, TurnEnded):
                before, mark = {d.id for d in game.pending(state)}, len(out)
                step(game.at_turn_end(state, event.combatant_id, dice))
                if waits(mark, before):
                    return out  # the step waits for a decision: the turn goes on
            elif isinstance(event, RoundStarted) and state.round >= 1:
                before, mark = {d.id for d in game.pending(state)}, len(out)
                step(game.at_round_end(state, dice))
                if waits(mark, before):
                    return out  # the step waits for a decision: the next round waits too
                order = game.round_order(state)
                if order is not None and order != state.order:
                    step([TurnOrderSet(order=order)])
            step([event])
            if isinstance(event, RoundStarted):
                step(game.at_round_start(state, dice))
                if state.turn is not None:
                    step(game.at_turn_start(state, state.turn, dice))
            elif isinstance(event, TurnEnded) and state.turn is not None:
                step(game.at_turn_start(state, state.turn, dice))
        return out

    def next_round(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The events that start the next round, once every turn of this one is over and a
        round-end step has had its answer."""
        game = self.game
        nxt = state.round + 1
        grants = {cid: game.budget(c).at_round_start(c.action_points, nxt) for cid, c in state.combatants.items()}
        return game.with_steps(state, [RoundStarted(round=nxt, action_points=grants)], dice)
