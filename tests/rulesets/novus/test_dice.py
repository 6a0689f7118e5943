"""Novus' dice (novus-gaps N1, N3, N4): 2d10 that explode and implode, the Nova Roll, Boon Points,
Saving Throws, and the exact distribution the odds are counted from."""

from __future__ import annotations

from fractions import Fraction

from domain.core.dice import DieRoll, ReportedDice
from domain.core.errors import RuleViolation
from domain.novus.dice import SAVE_TN, boon_points, roll_2d10, save_bonus, succeeds, two_d10
from domain.novus.odds import AttackOddsQuery, attack_odds


def rolled(*faces: int):
    return roll_2d10(ReportedDice(list(faces)), "test")


def test_a_ten_explodes_again_and_again_on_every_further_ten() -> None:
    """"A 10 on either die is added and that die is rolled again, and again on every further 10 (it explodes)"."""
    r = rolled(10, 4, 10, 3)
    assert r.total == 10 + 4 + 10 + 3 and len(r.dice) == 4 and not r.nova


def test_a_one_implodes_the_new_roll_subtracted_again_on_every_further_one() -> None:
    """"A 1 on either die works the other way: that die is rolled again and the new roll is
    subtracted, and again on every further 1 (it implodes)"."""
    assert rolled(1, 6, 1, 4).total == 1 + 6 - 1 - 4
    assert rolled(6, 1, 7).total == 6 + 1 - 7


def test_a_die_that_exploded_or_imploded_cannot_switch_direction() -> None:
    """"Once a die has exploded or imploded it can't switch direction"."""
    assert rolled(10, 5, 1).total == 10 + 5 + 1  # the 1 after a 10 adds, and stops
    assert rolled(1, 5, 10).total == 1 + 5 - 10  # the 10 after a 1 subtracts, and stops


def test_a_one_with_a_ten_is_a_nova_roll_and_neither_moves() -> None:
    """"A 1 on one die and a 10 on the other is a Nova Roll: neither die explodes or implodes"."""
    for faces in ((1, 10), (10, 1)):
        r = rolled(*faces)
        assert r.nova and r.total == 11 and len(r.dice) == 2


def test_a_roll_succeeds_at_the_tn_and_earns_a_boon_point_per_full_ten_over() -> None:
    """"it succeeds when the total is at least the TN"; Boon Points: "1 for every full 10 points the total beats the TN by"."""
    assert succeeds(15, 15) and not succeeds(14, 15)
    assert [boon_points(t, 15) for t in (14, 15, 24, 25, 34, 35)] == [0, 0, 0, 1, 1, 2]


def test_a_saving_throw_adds_the_stat_bonus_plus_five_against_a_base_tn_of_15() -> None:
    """"an explosive 2d10 + the Save bonus against a TN whose base is 15 ... the relevant Stat Bonus + 5"."""
    assert SAVE_TN == 15 and save_bonus(2) == 7


def _chain(faces: list[int], at: int, start: int) -> int:
    """How many further dice the die that showed ``start`` rolled, its chain beginning at ``at``."""
    n = 0
    while at + n < len(faces):
        n += 1
        if faces[at + n - 1] != start:
            break
    return n


def _brute(depth: int) -> dict[int, Fraction]:
    """The roll itself run over every sequence of faces whose chains are at most ``depth`` further
    dice each, with each sequence's chance."""
    out: dict[int, Fraction] = {}

    def go(faces: list[int]) -> None:
        try:
            r = roll_2d10(ReportedDice(faces), "brute")
        except RuleViolation:  # it asks for another die
            if len(faces) < 2 + 2 * depth:
                for f in range(1, 11):
                    go([*faces, f])
            return
        if len(r.dice) != len(faces):
            return
        first = _chain(faces, 2, faces[0]) if faces[0] in (1, 10) and not r.nova else 0
        second = _chain(faces, 2 + first, faces[1]) if faces[1] in (1, 10) and not r.nova else 0
        if first <= depth and second <= depth:
            out[r.total] = out.get(r.total, Fraction(0)) + Fraction(1, 10 ** len(faces))

    for a in range(1, 11):
        for b in range(1, 11):
            go([a, b])
    return out


def test_the_exact_distribution_is_the_roll_counted_over_every_sequence_of_faces() -> None:
    """The odds are "exact to a stated bound": the distribution counted in closed form equals the
    roll itself (core's roll_exploding) run over every sequence of faces, chains of up to 2
    further dice; what is left out is the bound."""
    totals, nova, tail = two_d10(2)
    assert totals == _brute(2)
    assert nova == Fraction(1, 50) and totals[11] == Fraction(8, 100) + nova
    assert sum(totals.values()) + tail == 1 and 0 < tail < Fraction(1, 100)


def test_the_odds_of_a_hit_boon_points_and_a_nova_roll() -> None:
    """A hit needs 2d10 + AB to reach DEF: with AB 5 against DEF 17 the dice need 12, which plain
    2d10 give 45 times in 100 and which neither an explosion (it only adds) nor an implosion changes."""
    odds = attack_odds(AttackOddsQuery(attack_bonus=5, defence=17))
    assert abs(odds.hit.chance - 0.45) <= odds.bound.chance
    assert odds.nova.numerator == 1 and odds.nova.denominator == 50
    assert abs(sum(b.chance.chance for b in odds.boon_points) - odds.hit.chance) < 1e-12
    assert [b.boon_points for b in odds.boon_points][:3] == [0, 1, 2]
    assert odds.bound.chance < 1e-8
