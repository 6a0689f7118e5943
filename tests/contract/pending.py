"""The contract every ruleset's pending decisions keep (issue 18), as a check on one state, for
the contract suite to run over every registered ruleset and any state its walks reach:

- every pending decision is answerable: its ``body`` with one of its ``choices`` (or as it is,
  when it has no choice field) is a command ``decide`` accepts now;
- the prompts a player gets never name a combatant hidden from them, and each is answerable
  by that player (``decide_as``, the way the server decides a player's command);
- only the GM is prompted for the GM's own decisions, and for a player's that its player cannot
  see (it concerns a hidden combatant); spectators for none.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.dice import Dice, SeededDice, choose_dice
from domain.core.encounter import EncounterState
from domain.core.errors import RuleViolation
from domain.core.pending import Decision
from domain.core.ruleset import Ruleset
from projections.prompts import prompts_for, seen_by
from projections.visibility import GM, Viewer

SEED = bytes(range(32))  # the dice an answer is decided with (any will do: a decision's checks come first)


def check_pending(ruleset: Ruleset, state: EncounterState, seed: bytes = SEED) -> None:
    """Assert the contract on ``state`` (see the module's docstring)."""
    waiting = ruleset.pending(state)
    for d in waiting:
        for body in _answers(d):
            _accepted(ruleset, state, body, frozenset(), seed, f"decision {d.id}")

    for p in prompts_for(ruleset, state, GM):
        # the GM's own, an NPC's, or a player's that its player cannot see (about a hidden combatant)
        cid = p.combatant_id
        if cid is None or state.combatants[cid].controller == "gm":
            continue
        theirs = {d.id for d in ruleset.pending(seen_by(ruleset, state, Viewer("player", frozenset({cid}))))}
        assert p.id not in theirs, f"the GM is prompted for {p.id}, which {cid}'s player is asked"
    assert prompts_for(ruleset, state, Viewer("spectator")) == []
    for cid, c in state.combatants.items():
        if c.controller != "player":
            continue
        viewer = Viewer("player", frozenset({cid}))
        hidden = ruleset.hidden_from(state, viewer.combatant_ids)
        unseen = set(hidden) | {state.combatants[h].name for h in hidden if h in state.combatants}
        seen = {d.id: d for d in ruleset.pending(seen_by(ruleset, state, viewer))}
        for p in prompts_for(ruleset, state, viewer):
            assert p.combatant_id == cid, (cid, p)
            named = set(_strings(msgspec.to_builtins(p))) & unseen
            assert not named, f"a prompt to {cid}'s player names the hidden {sorted(named)}: {p}"
            assert any(d.id == p.id for d in waiting), f"{p.id} prompts {cid}'s player but the fight waits for no such thing"
            for body in _answers(seen[p.id]):  # answered from what the player sees, decided on the fight
                _accepted(ruleset, state, body, hidden, seed, f"{cid}'s prompt {p.id}")


def _answers(d: Decision) -> list[dict[str, Any]]:
    if d.choice_field is None:
        return [d.answer()]
    assert d.choices, f"{d.id} waits for a choice of {d.choice_field} and offers none"
    return [d.answer(c) for c in d.choices]


def _accepted(ruleset: Ruleset, state: EncounterState, body: dict[str, Any], hidden: frozenset[str],
              seed: bytes, what: str) -> None:
    command = msgspec.convert(body, ruleset.command_type)
    try:
        ruleset.decide_as(hidden, state, command, _dice(state, seed), seed=seed)
    except RuleViolation as refused:
        raise AssertionError(f"{what} is answered with {body}, refused: {refused.code}: {refused.message}") from None


def _dice(state: EncounterState, seed: bytes) -> Dice:
    return choose_dice(state.dice_policy, None, SeededDice(seed, state.id, state.rolls_used))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
