"""The given/when/then helper of rule tests (tests/rulesets/scenario.py) fails where it should: a
refusal expected of a recorded command, events expected of a refused one, the wrong events."""

from __future__ import annotations

import pytest

from domain.core.encounter import AddCombatant, CombatantAdded, StartEncounter
from domain.places_of_power.ruleset import PlacesOfPower
from tests.rulesets.scenario import given

MIRA = AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet={})


def test_then_and_refused_say_what_came_instead() -> None:
    seated = given(PlacesOfPower(), MIRA)
    added = seated.when(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player", sheet={}))
    added.then(CombatantAdded)
    with pytest.raises(AssertionError, match="expected a refusal"):
        added.refused("anything")
    with pytest.raises(AssertionError, match="recorded"):
        added.then(CombatantAdded, CombatantAdded)
    refused = seated.when(StartEncounter())  # initiative is not rolled
    with pytest.raises(AssertionError, match="refused"):
        refused.then(CombatantAdded)
    assert refused.refused(refused.refusal.code).code
