"""The coverage table names every section of the combat chapter, once."""

from pathlib import Path

import pytest

from domain.places_of_power.coverage import COVERAGE

RULES = "shared/rules/places-of-power-combat.txt"


def rules_text() -> Path:
    """The rules live in ../shared/rules beside the repository (as on the developers' machines
    and in CI); look up from this file for it."""
    for folder in Path(__file__).resolve().parents:
        if (folder / RULES).is_file():
            return folder / RULES
    pytest.skip(f"{RULES} is not beside this checkout")


def headings() -> list[str]:
    # the chapter's section headings: short lines that are not bullets or sentences
    lines = rules_text().read_text(encoding="utf-8").splitlines()
    return [x.strip() for x in lines if 0 < len(x.strip()) < 45 and not x.startswith("•") and not x.rstrip().endswith(".")]


def test_every_section_heading_has_a_row() -> None:
    assert [s.heading for s in COVERAGE] == headings()
    assert all(s.how for s in COVERAGE)
