"""The exact odds of a Novus attack (``GET /rulesets/novus/odds``): 2d10 that explode on a 10 and
implode on a 1 (a Nova Roll, a 1 with a 10, stays 11), plus the Attack Bonus, against DEF.

Counted with exact fractions over every chain of further dice up to ``depth`` of them per die;
the chains left out have the chance ``bound`` (the answer says it), so every figure is exact to
within it. A hit is a total at least DEF; a Boon Point for every full 10 over DEF."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import msgspec

from domain.novus.dice import boon_points, two_d10


class AttackOddsQuery(msgspec.Struct, kw_only=True):
    """Odds of an attack: its Attack Bonus (all modifiers in) against the target's DEF."""

    attack_bonus: Annotated[int, msgspec.Meta(ge=-100, le=200, description="The attack's AB, modifiers included.")] = 0
    defence: Annotated[int, msgspec.Meta(ge=-100, le=300, description="The target's DEF (the TN to hit).")] = 15
    depth: Annotated[int, msgspec.Meta(ge=1, le=12, description="Further dice per exploding or imploding "
                                                              "die counted (the rest is the bound).")] = 8


class Chance(msgspec.Struct, kw_only=True):
    """A chance as a number and as an exact fraction (``numerator`` / ``denominator``)."""

    chance: float
    numerator: int
    denominator: int


class BoonChance(msgspec.Struct, kw_only=True):
    boon_points: int
    chance: Chance


class TotalChance(msgspec.Struct, kw_only=True):
    roll: int  # the 2d10 as rolled, before the Attack Bonus
    chance: Chance


class AttackOdds(msgspec.Struct, kw_only=True):
    """The chance of a hit, of each number of Boon Points (on a hit), of a Nova Roll, and the
    distribution of the 2d10; ``bound``: the chance of the chains left out (each figure's error is less)."""

    hit: Chance
    boon_points: list[BoonChance]
    nova: Chance
    bound: Chance
    distribution: list[TotalChance]


def _chance(p: Fraction) -> Chance:
    return Chance(chance=float(p), numerator=p.numerator, denominator=p.denominator)


def attack_odds(q: AttackOddsQuery) -> AttackOdds:
    totals, nova, tail = two_d10(q.depth)
    hit = Fraction(0)
    boons: dict[int, Fraction] = {}
    for rolled, p in totals.items():
        total = rolled + q.attack_bonus
        if total >= q.defence:
            hit += p
            bp = boon_points(total, q.defence)
            boons[bp] = boons.get(bp, Fraction(0)) + p
    return AttackOdds(hit=_chance(hit), nova=_chance(nova), bound=_chance(tail),
                      boon_points=[BoonChance(boon_points=k, chance=_chance(v)) for k, v in sorted(boons.items())],
                      distribution=[TotalChance(roll=t, chance=_chance(p)) for t, p in sorted(totals.items())])
