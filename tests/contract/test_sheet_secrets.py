"""No value of an NPC's sheet reaches a player or a spectator, whatever event carries it (issue 41: "an
NPC's secret field set to a marker value, then searched for"). Each game's walk says where a marker
can sit on an NPC's sheet where no rule reads it (``Walk.secret``); the walk is played, and every
view a player or spectator has (the state, each event as served) is searched for the markers. The GM
sees them: the marker did reach the fight."""

from __future__ import annotations

import random
from dataclasses import replace

import msgspec
import pytest

from domain.core.ruleset import Registry, Ruleset
from projections.visibility import Scope, Viewer, event_data_for, serve, state_for
from tests.contract.rulesets import OFFERED, RULESETS, each_ruleset
from tests.contract.walk import UNLIKELY, Table, Walk, walk_of

serve(Registry(RULESETS))
MARKED = [r for r in RULESETS if walk_of(r).secret is not None]


def _marked(walk: Walk, markers: list[str]) -> Walk:
    assert walk.secret is not None
    secret = walk.secret

    def sheet(rng: random.Random, npc: bool) -> dict:
        base = walk.sheet(rng, npc)
        if not npc:
            return base
        markers.append(f"Mk{UNLIKELY}{len(markers)}")
        return secret(base, markers[-1])

    return replace(walk, sheet=sheet)


@each_ruleset(MARKED)
@pytest.mark.parametrize("seed", range(6))
def test_no_value_of_an_npcs_sheet_reaches_the_table(ruleset: Ruleset, seed: int) -> None:
    markers: list[str] = []
    walk = _marked(walk_of(ruleset), markers)
    rng = random.Random(seed)
    table = Table(ruleset, rng)
    table.seat(walk, players=rng.randint(1, 2), npcs=rng.randint(1, 2), hidden=0)
    for _ in range(50):
        if table.state.status != "active":
            break
        table.step(walk)
    state = table.state
    gm = msgspec.json.encode(state_for(state, Viewer("gm"))).decode()
    assert all(m in gm for m in markers), "the markers are on the NPCs' sheets"
    players = [c.id for c in state.combatants.values() if c.controller == "player"]
    for viewer in [Viewer("spectator"), *(Viewer("player", frozenset({p})) for p in players)]:
        scope = Scope.of(state, viewer)
        seen = [msgspec.json.encode(state_for(state, viewer))]
        seen += [msgspec.json.encode(event_data_for(v, msgspec.to_builtins(e), scope))
                 for v, e in enumerate(table.events, start=1)]
        text = b"\n".join(seen).decode()
        assert not [m for m in markers if m in text], f"{viewer} sees a value of an NPC's sheet"


def test_every_game_served_says_where_a_secret_can_sit() -> None:
    """Each of the four games' walks marks an NPC's sheet, so the property above covers every game served."""
    assert [r.id for r in OFFERED if walk_of(r).secret is None] == []
