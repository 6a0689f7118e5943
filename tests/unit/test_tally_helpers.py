"""The shared counts of an attack and of harm (domain/core/tally.py), as the rulesets tally them."""

from domain.core.tally import Tally, attack_tallies, harm_tallies


def test_an_attack_defended_and_missed_counts_the_defence_won() -> None:
    assert attack_tallies("a", "t", hit=False, defended=True) == [
        Tally("a", "attacks_made", 1, "t"), Tally("a", "rolls", 1, "t"),
        Tally("t", "defences_tried", 1, "a"), Tally("t", "defences_won", 1, "a")]


def test_a_hit_counts_the_hits_dealt_and_taken_and_no_roll_when_none_was_rolled() -> None:
    assert attack_tallies("a", "t", hit=True, rolled=False, damage=3) == [
        Tally("a", "attacks_made", 1, "t"), Tally("a", "attacks_landed", 1, "t"),
        Tally("a", "hits_dealt", 3, "t"), Tally("t", "hits_taken", 3, "a")]


def test_harm_from_no_one_is_only_taken() -> None:
    assert harm_tallies(None, "t", 2) == [Tally("t", "hits_taken", 2)]
    assert harm_tallies("a", "t", 0) == []
