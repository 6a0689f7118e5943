"""The statistics door's speed-up: an event of a type a ruleset does not name in
``Ruleset.counted_events`` (nor a subclass of one) counts nothing and is no step of an
exchange, so the statistics may skip reading it (projections/combatant_statistics.py).
Random walks of each ruleset and the benchmarks' demo fights (``bench/rulesets.py``)."""

from __future__ import annotations

import random

from domain.core.ruleset import Ruleset
from tests.contract.rulesets import RULESETS, each_ruleset
from tests.contract.walk import walked


def events_of(ruleset: Ruleset) -> list:
    from bench import rulesets

    out = [e for seed in range(8) for e in walked(ruleset, seed, 80).events]
    if ruleset.demo() is not None:
        out += rulesets.long_fight(ruleset, random.Random(1), events=600).events
    return out


@each_ruleset(RULESETS)
def test_an_event_of_a_type_not_counted_counts_nothing(ruleset: Ruleset) -> None:
    counted = ruleset.counted_events()
    if counted is None:
        return  # every event is read
    assert counted <= set(ruleset.event_types)
    kinds = tuple(counted)
    skipped = tallied = 0
    for event in events_of(ruleset):
        if isinstance(event, kinds):
            tallied += bool(ruleset.tally(event, None) or ruleset.exchange(event))
            continue
        skipped += 1
        assert ruleset.exchange(event) is None, type(event).__name__
        assert ruleset.tally(event, None) == [], type(event).__name__
    assert skipped and tallied  # the walks hold both kinds: the check above is not empty
