"""The coverage table names every section of the dice and combat chapters, once, in order,
and writes down the readings the engine makes of them."""

from pathlib import Path

import pytest

from domain.places_of_power.checks import judge
from domain.places_of_power.coverage import COVERAGE
from domain.places_of_power.ruleset import PlacesOfPower
from tests.contract.rulesets import rule_text

CHAPTERS = PlacesOfPower.rule_texts


def rules_text(chapter: str) -> Path:
    """The chapter's text where the game says it is (beside the repository, as on the developers'
    machines and in CI); the test skips where it is not."""
    return rule_text(PlacesOfPower(), chapter)


def headings(chapter: str) -> list[str]:
    # the chapter's section headings: short lines that are not bullets or sentences
    lines = rules_text(chapter).read_text(encoding="utf-8").splitlines()
    return [x.strip() for x in lines if 0 < len(x.strip()) < 45 and not x.startswith("•") and not x.rstrip().endswith(".")]


@pytest.mark.parametrize("chapter", list(CHAPTERS))
def test_every_section_heading_has_a_row(chapter: str) -> None:
    assert [s.heading for s in COVERAGE if s.chapter == chapter] == headings(chapter)
    assert all(s.how for s in COVERAGE)
    assert all(r.strip() for s in COVERAGE for r in s.readings)


def test_the_dice_chapter_comes_first() -> None:
    assert [s.chapter for s in COVERAGE] == sorted((s.chapter for s in COVERAGE), key=list(CHAPTERS).index)


def test_a_double_maximum_below_the_target_is_read_as_a_critical_failure_and_said_so() -> None:
    """"It also counts as a Critical Success if you roll the maximum value possible on both dice"
    and "if you roll the same value on both dice, and the total value is below the target value
    ... that counts as a Critical Failure": D4 + D4 rolling 4 and 4 at Normal (8 against 9) is
    both. The engine answers Critical Failure, and the row of the section says so."""
    assert judge([4, 4], [4, 4], "Normal")[0] == "Critical Failure"
    (row,) = [s for s in COVERAGE if s.heading == "Critical Successes and Critical Failures"]
    assert row.chapter == "dice"
    assert any("D4 + D4 rolling 4 and 4 at Normal" in r and "Critical Failure" in r for r in row.readings)
    # the other readings of the row, as the engine makes them
    assert judge([4, 6], [4, 6], "Difficult")[0] == "Failure"  # the maximum, no pair, below the target
    assert judge([8, 8], [10, 12], "Hard")[0] == "Partial Success"  # a pair exactly on the target: not critical
    assert judge([1, 6, 6], [4, 6, 6], "Easy")[0] == "Critical Success"  # the occupation die pairs


def test_a_roll_reaching_very_hard_is_a_partial_success() -> None:
    """"If you roll a number between the exact value required and one below the value of the next
    difficulty level ... Partial Success": Very Hard has no next level."""
    assert judge([10, 10], [10, 20], "Very Hard")[0] == "Partial Success"
    assert judge([12, 20], [12, 20], "Very Hard")[0] == "Critical Success"  # the maximum on both
    (row,) = [s for s in COVERAGE if s.heading == "Difficulty Levels"]
    assert any("Very Hard" in r for r in row.readings)
