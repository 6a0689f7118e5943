"""The contract suite's walks (tests/contract) over RealmsRPG, run here too so the package keeps
the contract while unregistered: replay equals the live state, AP stay in range, every pending
decision is answerable and prompted to the right viewer, and nothing hidden reaches a player or a
spectator."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.log import missing_sentences, stray_sentences
from domain.core.ruleset import Registry
from domain.realms.ruleset import Realms
from projections.visibility import Scope, Viewer, event_data_for, serve, state_for
from tests.contract.pending import check_pending
from tests.contract.rulesets import rule_text
from tests.contract.test_contract import headings
from tests.contract.walk import walked

REALMS = Realms()
serve(Registry([REALMS]))
SEEDS = st.integers(min_value=0, max_value=2**32)


def test_every_event_type_has_a_log_sentence() -> None:
    assert missing_sentences(REALMS) == set() and stray_sentences(REALMS) == set()


def test_the_coverage_table_follows_the_chapters_headings() -> None:
    text = rule_text(REALMS, "combat").read_text(encoding="utf-8")
    assert [s.heading for s in REALMS.coverage() if s.part_of is None] == headings(text)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_replay_equals_the_live_state_and_ap_stay_in_range(seed: int) -> None:
    table = walked(REALMS, seed, steps=60)
    assert REALMS.replay(table.events) == table.state
    stored = [REALMS.event_decoder.decode(msgspec.json.encode(e)) for e in table.events]
    assert REALMS.replay(stored) == table.state
    for state in table.states:
        assert all(c.action_points >= 0 for c in state.combatants.values())


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_every_pending_decision_is_answerable_and_prompted_to_the_right_viewer(seed: int) -> None:
    table = walked(REALMS, seed, steps=40)
    for state in table.states:
        check_pending(REALMS, REALMS.shown(state), seed=table.seed)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_nothing_hidden_reaches_a_player_or_a_spectator(seed: int) -> None:
    table = walked(REALMS, seed, steps=50)
    state = table.state
    still_hidden = {cid: name for cid, name in table.hidden.items() if cid in state.concealed}
    players = [c.id for c in state.combatants.values() if c.controller == "player"]
    for viewer in [Viewer("spectator")] + [Viewer("player", frozenset({p})) for p in players]:
        seen = [msgspec.json.encode(state_for(state, viewer))]
        scope = Scope.of(state, viewer)
        for version, event in enumerate(table.events, start=1):
            seen.append(msgspec.json.encode(event_data_for(version, msgspec.to_builtins(event), scope)))
        text = b"\n".join(seen).decode()
        for cid, name in still_hidden.items():
            assert cid not in text and name not in text, f"{viewer} sees hidden {cid} ({name})"
