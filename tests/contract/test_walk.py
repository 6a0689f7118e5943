"""The contract every registered ruleset keeps, over random walks of its commands (issue 18:
"a hypothesis walk of legal commands keeps replay equal to the live state and every pending
decision answerable and prompted to the right viewer; the hidden-information property holds")."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.ruleset import Ruleset
from domain.core.ruleset import Registry
from projections.visibility import Scope, Viewer, event_data_for, serve, state_for
from tests.contract.pending import check_pending
from tests.contract.walk import walked

from tests.contract.rulesets import RULESETS, each_ruleset

serve(Registry(RULESETS))
SEEDS = st.integers(min_value=0, max_value=2**32)


@each_ruleset()
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_replay_equals_the_live_state(ruleset: Ruleset, seed: int) -> None:
    table = walked(ruleset, seed, steps=40)
    assert table.state.version == len(table.events)
    assert ruleset.replay(table.events) == table.state
    stored = [ruleset.event_decoder.decode(msgspec.json.encode(e)) for e in table.events]
    assert ruleset.replay(stored) == table.state  # as the store gives them back


@each_ruleset()
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_action_points_and_versions_stay_in_range(ruleset: Ruleset, seed: int) -> None:
    table = walked(ruleset, seed, steps=40)
    state = ruleset.replay(table.events[:1])
    for version, event in enumerate(table.events[1:], start=2):
        state = ruleset.evolve(state, event)
        assert state.version == version
        assert all(c.action_points >= 0 for c in state.combatants.values())
        assert state.turn is None or state.turn in state.combatants


@each_ruleset()
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_every_pending_decision_is_answerable_and_prompted_to_the_right_viewer(ruleset: Ruleset, seed: int) -> None:
    table = walked(ruleset, seed, steps=30)
    for state in table.states:
        check_pending(ruleset, ruleset.shown(state), seed=table.seed)


@each_ruleset()
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_nothing_hidden_reaches_a_player_or_a_spectator(ruleset: Ruleset, seed: int) -> None:
    table = walked(ruleset, seed, steps=40)
    state = table.state
    still_hidden = {cid: name for cid, name in table.hidden.items() if cid in state.concealed}
    players = [c.id for c in state.combatants.values() if c.controller == "player"]
    viewers = [Viewer("spectator")] + [Viewer("player", frozenset({p})) for p in players]
    for viewer in viewers:
        seen = [msgspec.json.encode(state_for(state, viewer))]
        scope = Scope.of(state, viewer)
        for version, event in enumerate(table.events, start=1):
            data = event_data_for(version, msgspec.to_builtins(event), scope)
            seen.append(msgspec.json.encode(data))
        text = b"\n".join(seen).decode()
        for cid, name in still_hidden.items():
            assert cid not in text and name not in text, f"{viewer} sees hidden {cid} ({name})"
