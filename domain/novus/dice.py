"""Novus' dice: 2d10 that explode on a 10 and implode on a 1, the Nova Roll, and what a
roll's total earns against a TN (novus-gaps N1, N3, N4). Pure: the dice are handed in.

The roll itself is core's ``roll_exploding`` (domain/core/initiative.py), written for Novus;
this module names its uses in the game's words and counts its exact distribution for the odds.
"""

from __future__ import annotations

from fractions import Fraction

from collections.abc import Sequence

from domain.core.dice import Dice, DieRoll
from domain.core.initiative import OpenRoll, roll_exploding

SAVE_TN = 15  # N3: "a TN whose base is 15"
SAVE_BONUS = 5  # N3: "the relevant Stat Bonus + 5"


def roll_2d10(dice: Dice, purpose: str, by: str | None = None) -> OpenRoll:
    """N1: "A roll is 2d10 plus modifiers ... A 10 on either die is added and that die is rolled
    again ... A 1 on either die ... is rolled again and the new roll is subtracted ... A 1 on one
    die and a 10 on the other is a Nova Roll: neither die explodes or implodes"."""
    return roll_exploding(dice, purpose, by, count=2, sides=10)


def is_nova(dice: Sequence[DieRoll]) -> bool:
    """The dice of a stored roll make a Nova Roll: only two, a 1 and a 10 ("neither die explodes or implodes")."""
    return len(dice) == 2 and {d.face for d in dice} == {1, 10}


def imploded(dice: Sequence[DieRoll]) -> bool:
    """A stored roll whose 1 imploded: one of its first two dice a 1, and not a Nova Roll."""
    return 1 in {d.face for d in dice[:2]} and not is_nova(dice[:2])


def succeeds(total: int, tn: int) -> bool:
    """N1: "it succeeds when the total is at least the TN"."""
    return total >= tn


def boon_points(total: int, tn: int) -> int:
    """N4/N7: "1 for every full 10 points the total beats the TN by" (none on a failure)."""
    return (total - tn) // 10 if total >= tn else 0


def save_bonus(stat_bonus: int) -> int:
    """N3: "The Save bonus is usually the relevant Stat Bonus + 5"."""
    return stat_bonus + SAVE_BONUS


# ------------------------------------------------------------ the exact distribution


def one_die(depth: int) -> dict[int, Fraction]:
    """One d10 of a roll that is not a Nova Roll: 2-9 as rolled; a 10 adds further rolls while
    they show 10; a 1 subtracts further rolls while they show 1. Chains longer than ``depth``
    extra dice are left out (their chance is the bound ``tail``)."""
    tenth = Fraction(1, 10)
    out: dict[int, Fraction] = {f: tenth for f in range(2, 10)}
    for k in range(depth):  # k further 10s (or 1s) before the chain stops
        p = tenth * tenth ** k * tenth
        for j in range(1, 10):  # explodes: 10 + 10k + the last face (1-9)
            out[10 + 10 * k + j] = out.get(10 + 10 * k + j, Fraction(0)) + p
        for j in range(2, 11):  # implodes: 1 - k - the last face (2-10)
            out[1 - k - j] = out.get(1 - k - j, Fraction(0)) + p
    return out


def two_d10(depth: int = 8) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """The totals of 2d10 as Novus rolls them: (chance of each total, chance of a Nova Roll,
    ``tail``: the chance of the chains left out, an upper bound on every figure's error).
    A Nova Roll (a 1 with a 10, either way round) stays 11."""
    die = one_die(depth)
    out: dict[int, Fraction] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            out[a + b] = out.get(a + b, Fraction(0)) + pa * pb
    # a 10 with a 1 is a Nova Roll, not an explosion and an implosion: those pairs are taken out
    for a, pa in _chains(depth, 10).items():
        for b, pb in _chains(depth, 1).items():
            out[a + b] -= 2 * pa * pb
    nova = Fraction(2, 100)
    out[11] = out.get(11, Fraction(0)) + nova
    return {t: p for t, p in out.items() if p}, nova, 1 - sum(out.values())


def _chains(depth: int, start: int) -> dict[int, Fraction]:
    """The values of a die that started on ``start`` (10: explodes; 1: implodes), with their chances."""
    tenth = Fraction(1, 10)
    out: dict[int, Fraction] = {}
    for k in range(depth):
        p = tenth * tenth ** k * tenth
        for j in (range(1, 10) if start == 10 else range(2, 11)):
            v = 10 + 10 * k + j if start == 10 else 1 - k - j
            out[v] = out.get(v, Fraction(0)) + p
    return out
