"""The Ruleset is the only door (issue 18): server/ and projections/ reach a game through its
``Ruleset`` object, never by importing the game's package; and a ruleset's own violation codes
are its own, beside the lifecycle's, never redefining them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from domain.core.errors import CODES, RuleViolation, ruleset_codes
from domain.core.ruleset import Ruleset
from domain.rulesets import default_registry

ROOT = Path(__file__).resolve().parents[2]

# Still reaching Places of Power directly, being moved behind the Ruleset by another part of
# issue 18 (the demo and its narrator, the readable log's Places of Power sentences): that part
# empties this list. Nothing may join it.
KNOWN: set[str] = set()  # issue 18: nothing outside domain/ reaches a game directly


def _games() -> set[str]:
    """Each registered ruleset's package name (``places_of_power``)."""
    return {sys.modules[type(r).__module__].__name__.split(".")[1] for r in default_registry().all()}


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return names


def test_server_and_projections_import_no_game_package() -> None:
    """"server/ and projections/ must not import a game package (domain/places_of_power)
    directly: they reach it through the Ruleset object." A module of server/ or projections/
    that imports a game's package, or is a game's own module living there, is an offender."""
    games = _games()
    assert "places_of_power" in games  # and each other registered ruleset's package
    offenders = set()
    for folder in ("server", "projections"):
        for path in (ROOT / folder).rglob("*.py"):
            where = str(path.relative_to(ROOT))
            if any(game in path.stem for game in games):
                offenders.add(where)
            for name in _imports(path):
                if any(game in part for part in name.split(".") for game in games):
                    offenders.add(where)
    assert offenders - KNOWN == set(), "reach the game through its Ruleset (domain/core/ruleset.py)"
    assert KNOWN - offenders == set(), "no longer reaches the game directly: remove it from KNOWN"


def test_a_ruleset_may_not_redefine_a_lifecycle_code() -> None:
    """``Ruleset.violation_codes`` is the lifecycle's merged with the ruleset's own: an own code
    that is a lifecycle code would change what the lifecycle's refusal means for one ruleset, so
    it is refused as the class is made, and as a package declares its table."""
    with pytest.raises(ValueError, match="not_your_turn"):
        class Rewording(Ruleset):  # noqa: F841 - refused as it is made
            id = "rewording"
            own_codes = {"not_your_turn": "Wait for your turn, please.", "too_slow": "Not yet."}
    with pytest.raises(ValueError, match="encounter_ended"):
        ruleset_codes({"encounter_ended": "It is over."})


def test_a_rulesets_own_codes_are_its_own() -> None:
    """A ruleset's own code is raised and listed in its table only; the lifecycle's are every
    ruleset's; a code in no table is refused."""

    class Duel(Ruleset):
        id = "duel-codes"
        own_codes = {"duel_declined": "The other side declined the duel."}

    with pytest.raises(ValueError, match="unlisted"):
        RuleViolation("duel_refused", "nope")
    assert RuleViolation("duel_declined", "Declined.").code == "duel_declined"
    pop = default_registry().get("places-of-power")
    codes = Duel.violation_codes.fget(Duel)  # type: ignore[attr-defined]  # the class is abstract
    assert codes == {**CODES, "duel_declined": "The other side declined the duel."}
    assert "duel_declined" not in pop.violation_codes
    assert set(CODES) < set(pop.violation_codes) and "no_helmet" not in CODES
