"""The fold's shortcuts (issue 23's fold speed) change nothing: what a ruleset declares to let
core skip work is true of every state of a long fight."""

from __future__ import annotations

import random

from bench import rulesets
from domain.core.ruleset import Ruleset
from tests.contract.rulesets import OFFERED, each_ruleset


@each_ruleset(OFFERED)
def test_resources_refill_only_at_the_moments_the_ruleset_declares(ruleset: Ruleset) -> None:
    """``Ruleset.refill_moments``: the fold asks ``resources()`` at those moments only."""
    if ruleset.refill_moments is None:
        return
    fight = rulesets.long_fight(ruleset, random.Random(5), events=400)
    state, seen = ruleset.replay(fight.events[:1]), 0
    for event in fight.events[1:]:
        state = ruleset.evolve(state, event)
        for c in state.combatants.values():
            for resource in ruleset.resources(c, state).declared:
                assert set(resource.refills) <= ruleset.refill_moments, (resource, ruleset.refill_moments)
                seen += 1
    assert seen > 0, "no resources seen: the test tests nothing"
