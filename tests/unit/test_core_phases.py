"""A round in phases (domain/core/phases.py), as Novus declares and resolves."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.phases import Phase, PhasePosition, Phases

RANKED = ["fast", "middle", "slow"]  # highest initiative first
NOVUS = Phases((Phase("declare", "ascending"), Phase("resolve", "descending"), Phase("extra attacks", "descending")))


def test_novus_declares_from_the_lowest_and_resolves_from_the_highest_then_extra_attacks() -> None:
    """Novus (novus-gaps N11): "Actions are **declared** from the lowest IP to the highest and
    **resolved** from the highest to the lowest." Multiple attacks: "the primary attack roll is
    made at the character's initiative point, and any remaining attack rolls are made at the end
    of the round"."""
    extra = {"middle"}

    def ranked(phase: Phase) -> list[str]:
        return [c for c in RANKED if c in extra] if phase.name == "extra attacks" else RANKED

    at = NOVUS.begin(ranked)
    seen = []
    while not NOVUS.done(at):
        who = NOVUS.mover(at, ranked)
        seen.append((NOVUS.current(at).name, who))
        at = NOVUS.moved(at, who, ranked)
    assert seen == [("declare", "slow"), ("declare", "middle"), ("declare", "fast"),
                    ("resolve", "fast"), ("resolve", "middle"), ("resolve", "slow"),
                    ("extra attacks", "middle")]
    assert NOVUS.mover(at, ranked) is None


def test_a_phase_nobody_takes_part_in_is_skipped() -> None:
    def ranked(phase: Phase) -> list[str]:
        return [] if phase.name == "extra attacks" else ["a"]

    at = NOVUS.moved(NOVUS.moved(NOVUS.begin(ranked), "a", ranked), "a", ranked)
    assert NOVUS.done(at)


def test_a_move_out_of_turn_or_phase_is_refused() -> None:
    at = NOVUS.begin(lambda p: RANKED)
    with pytest.raises(RuleViolation) as refused:
        NOVUS.check_move(at, "declare", "fast", lambda p: RANKED, "Fast")
    assert refused.value.code == "not_your_move"
    with pytest.raises(RuleViolation) as refused:
        NOVUS.check_move(at, "resolve", "slow", lambda p: RANKED, "Slow")
    assert refused.value.code == "wrong_phase"
    NOVUS.check_move(at, "declare", "slow", lambda p: RANKED, "Slow")
    assert NOVUS.moved(PhasePosition(phase=3), "x", lambda p: RANKED) == PhasePosition(phase=3)
