"""Places of Power: the flagship ruleset."""

from domain.places_of_power import codes as _codes  # noqa: F401 - its refusals' codes, declared before any is raised
