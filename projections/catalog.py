"""The read models this server keeps, by name (``fracas projections rebuild NAME``)."""

from __future__ import annotations

from domain.core.ruleset import Registry
from projections.combatant_statistics import CombatantStatistics
from projections.encounter_list import EncounterList
from projections.runner import Projection


def all_projections(registry: Registry | None = None) -> list[Projection]:
    """``registry``: the rulesets whose events the statistics count (default: ``domain.rulesets``)."""
    return [EncounterList(), CombatantStatistics(registry)]


def named(names: list[str] | None) -> list[Projection]:
    """The projections called ``names`` (None or empty: all); raises KeyError for an unknown name."""
    every = {p.name: p for p in all_projections()}
    if not names:
        return list(every.values())
    unknown = [n for n in names if n not in every]
    if unknown:
        raise KeyError(f"no projection {', '.join(unknown)}; known: {', '.join(every)}")
    return [every[n] for n in names]
