"""Working out the next moves tries each candidate through the rules, and most are refused. A
refusal raised from a local (``waiting = ...; raise waiting``) holds the frames that raised it, a
cycle only the garbage collector frees, with every object of the trial: at 200 tables the
collector paused a worker 100-270 ms every few seconds (bench/journal/2026-12-07-tables.md).
``try_offer`` drops a refusal's frames: trying leaves nothing for the collector."""

from __future__ import annotations

import gc

import pytest

from domain.core.ruleset import Ruleset
from projections.actions import actions_for
from tests.contract.autoplay import play, viewers
from tests.contract.rulesets import RULESETS


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_working_out_the_next_moves_leaves_no_garbage_for_the_collector(ruleset: Ruleset) -> None:
    states = [s for seed in range(2) for s in play(ruleset, seed, steps=80).states]
    asked = [(s, v) for s in states for v in viewers(s)]
    gc.collect()
    gc.disable()
    try:
        offered = sum(len(actions_for(ruleset, s, v).actions) for s, v in asked)
        left = gc.collect()
    finally:
        gc.enable()
    assert offered > 0
    assert left == 0, f"{left} objects in reference cycles after working out {len(asked)} viewers' next moves"
