"""The coverage table names every section of the combat chapter, once."""

from pathlib import Path

from domain.places_of_power.coverage import COVERAGE

TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "places-of-power-combat.txt"


def headings() -> list[str]:
    # the chapter's section headings: short lines that are not bullets or sentences
    lines = TEXT.read_text(encoding="utf-8").splitlines()
    return [x.strip() for x in lines if 0 < len(x.strip()) < 45 and not x.startswith("•") and not x.rstrip().endswith(".")]


def test_every_section_heading_has_a_row() -> None:
    assert [s.heading for s in COVERAGE] == headings()
    assert all(s.how for s in COVERAGE)
