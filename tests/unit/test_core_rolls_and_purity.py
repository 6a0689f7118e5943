"""Core dice mechanics for every ruleset, and the domain's purity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from domain.core.dice import ReportedDice
from domain.core.rolls import roll_exploding, roll_pool, step, total

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
FORBIDDEN = {"asyncpg", "litestar", "random", "time", "datetime", "uuid", "secrets", "os", "socket", "server",
             "projections"}


def test_domain_imports_no_io_clock_or_randomness() -> None:
    """DESIGN.md: "Nothing in domain imports asyncpg, litestar or the standard library's random/time."."""
    offenders = []
    for path in DOMAIN.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(DOMAIN)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_places_of_power_check_sums_attribute_and_skill_dice() -> None:
    """Places of Power: a check rolls "the Attribute die plus the Skill die"."""
    rolls = roll_pool(ReportedDice([7, 3]), [8, 6], "check")
    assert [(r.sides, r.face) for r in rolls] == [(8, 7), (6, 3)]
    assert total(rolls) == 10


def test_novus_tens_explode() -> None:
    """Novus: "Core roll: 2d10, roll-over, a 10 explodes (roll again and add)"."""
    rolls = roll_exploding(ReportedDice([10, 10, 4, 7]), 2, 10, "attack")
    assert [r.face for r in rolls] == [10, 10, 4, 7]
    assert total(rolls) == 31
    assert total(roll_exploding(ReportedDice([3, 9]), 2, 10, "save")) == 12


def test_die_ladder_steps_and_stops_at_its_ends() -> None:
    """"Die ladder: D4, D6, D8, D10, D12, D20. Step up/down moves one rung."."""
    assert step(8, 1) == 10 and step(12, 1) == 20 and step(20, 1) == 20
    assert step(6, -1) == 4 and step(4, -1) == 4
    with pytest.raises(ValueError):
        step(7, 1)


def test_every_rule_violation_code_is_listed() -> None:
    """Codes are stable and catalogued: every code raised in domain/ is in CODES, and CODES
    lists nothing that is never raised (in domain/, or by a ruleset that lives in the tests,
    whose codes join CODES once its module is imported)."""
    import re

    from domain.core.errors import CODES

    def raised_in(root: Path) -> set[str]:
        raised = set()
        for path in root.rglob("*.py"):
            raised |= set(re.findall(r'RuleViolation\(\s*"([a-z_]+)"', path.read_text()))
        return raised

    raised = raised_in(DOMAIN)
    assert raised <= set(CODES)
    assert set(CODES) - raised <= raised_in(DOMAIN.parent / "tests" / "rulesets") | raised_in(DOMAIN.parent / "tests" / "unit")


def test_an_unlisted_code_is_refused() -> None:
    from domain.core.errors import RuleViolation

    with pytest.raises(ValueError, match="unlisted"):
        RuleViolation("made_up", "nope")
