"""The rulesets this server offers."""

from __future__ import annotations

from domain.core.ruleset import Registry
from domain.health_trauma.ruleset import HealthTrauma
from domain.novus.ruleset import Novus
from domain.places_of_power.ruleset import PlacesOfPower
from domain.realms.ruleset import Realms


def default_registry() -> Registry:
    return Registry([PlacesOfPower(), HealthTrauma(), Realms(), Novus()])
