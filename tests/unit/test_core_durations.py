"""Durations (domain/core/durations.py): whether an effect has run out at each boundary."""

from __future__ import annotations

from domain.core.durations import Boundary, Duration, after, has_run_out


def b(kind: str, round: int, combatant: str | None = None) -> Boundary:
    return Boundary(kind=kind, round=round, combatant=combatant)


def test_to_the_end_of_the_round() -> None:
    """Novus: "A DEF change from a declared action lasts the whole round." """
    d = Duration.end_of_round(2)
    assert not has_run_out(d, b("turn_end", 2, "a"))
    assert has_run_out(d, b("round_end", 2))


def test_n_rounds() -> None:
    d = Duration.rounds(2, round=3)
    assert not has_run_out(d, b("round_end", 3))
    assert has_run_out(d, b("round_end", 4))


def test_n_of_the_bearers_turns_count_only_the_bearers() -> None:
    d = Duration.bearer_turns(2, bearer="kess", round=1)
    d = after(d, b("turn_end", 1, "mira"))
    assert d is not None and d.count == 2
    d = after(d, b("turn_end", 1, "kess"))
    assert d is not None and d.count == 1
    assert after(d, b("turn_end", 2, "kess")) is None


def test_realms_one_round_lasts_until_the_start_of_that_same_turn_in_the_following_round() -> None:
    """RealmsRPG: "Effects that last "one round" remain active from when they begin until the
    start of that same turn in the following round." """
    d = Duration.one_round_from("rook", round=1)
    assert not has_run_out(d, b("turn_start", 1, "rook"))
    assert not has_run_out(d, b("round_end", 1))
    assert not has_run_out(d, b("round_start", 2))
    assert not has_run_out(d, b("turn_start", 2, "vex"))
    assert has_run_out(d, b("turn_start", 2, "rook"))
    # if Rook has left the fight, the round has still passed by the next one's start
    assert has_run_out(d, b("round_start", 3))


def test_until_removed_and_until_overcome_never_run_out_by_time() -> None:
    """RealmsRPG: "At the end of your turn, before gaining Action Points, you may attempt to
    overcome each condition or effect currently affecting your Character": ended by an event."""
    for d in (Duration.until_removed(1), Duration.until_overcome(1)):
        for at in (b("round_end", 9), b("turn_end", 9, "a"), b("turn_start", 9, "a"), b("round_start", 10)):
            assert after(d, at) is d
