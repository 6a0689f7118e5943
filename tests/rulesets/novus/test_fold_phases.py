"""The fold's shortcuts for Novus' phases (issue 23's fold speed) change nothing, checked on every event of
long fights and random walks: an action's step changes nobody's part in the declare and resolve phases and
moves the position only as ``PHASES.moved`` does, so ``_unstuck`` is asked only in the end of the round
(``rounds.END_OF_ROUND``); a step that keeps the phases (``folding._KEEP_PHASES``) changes nobody's part in
any phase, so it is not asked after it at all."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from bench import rulesets
from domain.core.encounter import EncounterState, Event
from domain.novus import folding
from domain.novus.rounds import END_OF_ROUND
from domain.novus.ruleset import Novus
from domain.novus.state import PHASES
from tests.contract.walk import walked


# the round's books who takes part in a phase is worked out from
_BOOKS = frozenset({"declarers", "declared", "dead", "hits_lost", "surprised", "ip"})


def _parts(ruleset: Novus, state: EncounterState) -> dict[str, list[str]]:
    return {p.name: list(ruleset._taking_part(state, p.name)) for p in PHASES.phases}


def _histories(ruleset: Novus) -> Iterator[list[Event]]:
    """The bench's long fights (the common steps) and the contract's random walks (the rarer ones)."""
    for seed in (5, 7, 11):
        yield rulesets.long_fight(ruleset, random.Random(seed), events=2000).events
    for seed in range(40):
        yield walked(ruleset, seed, steps=120).events


def test_no_action_leaves_a_phase_with_nobody_to_move_where_the_fold_does_not_look() -> None:
    ruleset = Novus()
    seen = Counter[str]()
    for events in _histories(ruleset):
        _check(ruleset, events, seen)
    assert seen.keys() >= {"_on_resolved", "_on_declared", "_on_boons", "_on_skill",
                           "out of the end of the round"}, seen


def _check(ruleset: Novus, events: list[Event], seen: Counter[str]) -> None:
    state = ruleset.replay(events[:1])
    for event in events[1:]:
        before, state = state, ruleset.evolve(state, event)
        step = folding._step_for(type(event))[0]
        if step is None or before.status != "active":
            continue
        # any action: nobody's part in the declare and resolve phases changed, the position moved only by
        # PHASES.moved; so out of the end of the round, no phase is left with nobody to move
        assert (state.status, state.order, state.rules.declarers, state.combatants.keys()) == \
            (before.status, before.order, before.rules.declarers, before.combatants.keys()), event
        at, after = before.rules.position, state.rules.position
        assert after == at or after == PHASES.moved(at, event.combatant_id, ruleset._ranked(before)), event
        if after.phase != END_OF_ROUND:
            assert ruleset._unstuck(state) is state, (state.version, event)
            seen["out of the end of the round"] += 1
        if step not in folding._KEEP_PHASES:
            continue
        seen[step.__name__] += 1
        # what who takes part in a phase is made of (``_taking_part``, ``can_act``): kept as it was
        books = _BOOKS - {"declared"} if step is folding.Folding._on_declared else _BOOKS
        assert {b for b in books if getattr(state.rules, b) != getattr(before.rules, b)} == set(), event
        assert (state.status, state.round, state.order) == (before.status, before.round, before.order), event
        assert {c: x.sheet for c, x in state.combatants.items()} == \
            {c: x.sheet for c, x in before.combatants.items()}, event
        was, now = _parts(ruleset, before), _parts(ruleset, state)
        if step is folding.Folding._on_declared:  # in the declare phase, adding to the end of the round's
            assert ruleset.phase(before) == "declare", event
            was.pop("end of round"), now.pop("end of round")
        assert now == was, (state.version, event)
        assert ruleset._unstuck(state) is state, (state.version, event)


def test_the_steps_that_keep_the_phases_are_steps() -> None:
    steps = {step for _, step in folding._CASES}
    assert folding._KEEP_PHASES <= steps
