"""A player's state has no roll numbers: every die kept in it (a pending attack's, say) shows a
``roll`` tag in place of its ``index`` ("The numbers run through every roll, the GM's unseen ones
too: a player could count what happened out of sight by their gaps", projections/visibility.py).
Only the parts of a view whose JSON names an ``index`` are walked for dice (the whole walk was 8%
of a server's work at 300 tables): over whole autoplayed fights of every ruleset, the views are
the same as the whole walk gives."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.ruleset import Ruleset
from projections import visibility
from projections.visibility import state_for
from tests.contract.autoplay import play, viewers
from tests.contract.rulesets import OFFERED


@pytest.mark.parametrize("ruleset", OFFERED, ids=lambda r: r.id)
def test_a_players_view_walked_only_where_dice_may_be_is_the_whole_walks(ruleset: Ruleset,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    states = [s for seed in range(3) for s in play(ruleset, seed, steps=120).states]
    players = [(s, v) for s in states for v in viewers(s) if not v.sees_all]
    assert players
    fast = [msgspec.json.encode(state_for(s, v)) for s, v in players]
    monkeypatch.setattr(visibility, "_may_hold_dice", lambda value: True)
    whole = [msgspec.json.encode(state_for(s, v)) for s, v in players]
    assert fast == whole


def test_dice_kept_in_a_state_lose_their_numbers_in_a_players_view_and_only_there() -> None:
    """Health/Trauma keeps each combatant's initiative test (its die) in the state until the
    fight begins: a player's view shows each die without its number, the GM's with it."""
    from domain.core.dice import DieRoll
    from domain.core.encounter import InitiativeRoll

    [ht] = [r for r in OFFERED if r.id == "health-trauma"]
    base = next(s for s in play(ht, 0, steps=40).states if len(s.combatants) >= 2)
    tests = {cid: InitiativeRoll(who=cid, die=DieRoll(sides=20, face=9, purpose="initiative", source="seeded",
                                                      index=n), modifier=0, total=9)
             for n, cid in enumerate(base.combatants)}
    state = msgspec.structs.replace(base, rules=msgspec.structs.replace(base.rules, initiative_tests=tests))
    assert b'"index"' in msgspec.json.encode(state_for(state, visibility.GM))
    for viewer in (v for v in viewers(state) if not v.sees_all):
        shown = msgspec.json.encode(state_for(state, viewer))
        assert b'"index"' not in shown and shown.count(b'"face":9') == len(tests)
