"""The GM takes a combatant out at any point of a fight, in every ruleset: nothing crashes, no
decision waits on or names the one taken out, the fight goes on, a replay equals the live state, and
one added again under the same id starts afresh (as its twin added under a new id does)."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.core.encounter import AddCombatant, RemoveCombatant
from domain.core.ruleset import Ruleset
from tests.contract.rulesets import RULESETS
from tests.contract.walk import walk_of, walked


def _named(ruleset: Ruleset, state: object, cid: str) -> bool:
    return f'"{cid}"'.encode() in msgspec.json.encode(state)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
@pytest.mark.parametrize("seed", range(12))
def test_one_taken_out_leaves_nothing_behind(ruleset: Ruleset, seed: int) -> None:
    rng = random.Random(1000 + seed)
    walk = walk_of(ruleset)
    # a walk long enough to be in the thick of it, shorter where that one's fight was over: right
    # after the start (two or more seated, one on turn) there is always someone the GM may take out
    for steps in (rng.randint(3, 40), 3, 0):
        table = walked(ruleset, seed, steps)
        state = table.state
        out = [c for c in state.combatants if c != state.turn]
        if state.status == "active" and out:
            break
    assert state.status == "active" and out, "a fight just started has someone not on turn"
    cid = rng.choice(out)
    assert table.attempt(RemoveCombatant(combatant_id=cid)), "the GM may take out one whose turn it is not"
    assert cid not in table.state.combatants
    for decision in ruleset.pending(ruleset.shown(table.state)):
        assert not _named(ruleset, decision, cid), f"a decision still names {cid}: {decision}"
    added = next(c for c in table.commands if isinstance(c, AddCombatant) and c.combatant_id == cid)
    if cid in table.state.concealed:  # a hidden one's id stays its own (the history about it stays hidden)
        assert not table.attempt(added)
        return
    twin = "twin-of-the-one-taken-out"
    back = [table.attempt(msgspec.structs.replace(added, combatant_id=i)) for i in (cid, twin)]
    assert back == [True, True]
    shown = ruleset.shown(table.state).combatants
    again, fresh = (msgspec.to_builtins(shown[i]) for i in (cid, twin))
    assert {k: v for k, v in again.items() if k not in ("id", "seq")} == {k: v for k, v in fresh.items() if k not in ("id", "seq")}
    for _ in range(30):
        if table.state.status != "active":
            break
        table.step(walk)
    assert ruleset.replay(table.events) == table.state
