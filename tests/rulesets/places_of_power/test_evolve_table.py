"""How Places of Power folds its events: one step per event type, looked up, never searched.

The ruleset's ``EVOLVES`` table holds the step of each of its own events (the lifecycle's are
the core's); every event type the ruleset decodes has exactly one. A long random fight folds to
the same state whether replayed at once, event by event, or from a midway state.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from bench.fights import long_fight
from domain.core.encounter import LIFECYCLE_EVENTS, Event
from domain.places_of_power import attacks
from domain.places_of_power.ruleset import EVOLVES, PlacesOfPower


def test_every_event_of_the_ruleset_has_one_step() -> None:
    ruleset = PlacesOfPower()
    assert set(EVOLVES) == set(ruleset.extra_events)
    assert not set(EVOLVES) & set(LIFECYCLE_EVENTS)
    assert len(ruleset.event_types) == len(set(ruleset.event_types))


def test_a_module_evolve_answers_its_own_events_only() -> None:
    """``attacks.evolve`` (its own table) gives None for an event it does not know."""
    ruleset = PlacesOfPower()
    state = ruleset.replay(ruleset.open("e", "A fight", "seeded", "0" * 64))
    assert attacks.evolve(state, Event()) is None


def test_an_event_of_no_rule_is_refused() -> None:
    class Stray(Event, tag="Stray"):
        pass

    ruleset = PlacesOfPower()
    state = ruleset.replay(ruleset.open("e", "A fight", "seeded", "0" * 64))
    with pytest.raises(TypeError, match="Stray is not an event of Places of Power"):
        ruleset.evolve(state, Stray())


def test_a_long_fight_folds_alike_at_once_step_by_step_and_from_midway() -> None:
    fight = long_fight(random.Random(3), events=3000, statuses=0.2)
    ruleset, events = fight.ruleset, fight.events
    stepped = ruleset.replay(events[:1])
    for event in events[1:]:
        stepped = ruleset.evolve(stepped, event)
    midway = ruleset.replay(events[len(events) // 2:], ruleset.replay(events[: len(events) // 2]))
    at_once = ruleset.replay(events)
    for state in (stepped, midway, at_once):
        assert state == fight.state
        assert msgspec.json.encode(state) == msgspec.json.encode(fight.state)
