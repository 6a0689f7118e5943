"""The exact odds of a RealmsRPG attack (``GET /rulesets/realms/odds``): a D20 + the Attack Bonus
against a Defence, with R8's natural 20 (+2) and natural 1 (−2), a hit on meeting or beating it,
the Critical Hit at the Critical Range over it, and the Successes or Failures (R9), counted over
the twenty faces."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.realms import scores


class AttackOddsQuery(msgspec.Struct, kw_only=True):
    """An Attack Roll: D20 + ``bonus`` (the Martial or Power Bonus with any penalty) against ``score``."""

    bonus: Annotated[int, msgspec.Meta(ge=-50, le=50, description="The Attack Bonus, penalties included.")] = 0
    score: Annotated[int, msgspec.Meta(ge=0, le=100, description="The target's Evasion or Defence Score.")] = 10
    critical_range: Annotated[int, msgspec.Meta(
        ge=0, le=40, description="The amount over the Defence a Critical Hit needs (standard: 10).")] = 10


class Degree(msgspec.Struct, kw_only=True):
    """``degrees``: Successes (positive) or Failures (negative); ``ways``: faces of the d20 giving it."""

    degrees: int
    ways: int


class AttackOdds(msgspec.Struct, kw_only=True):
    """The chance to hit and to hit critically: ``*_ways`` of the ``ways`` (20) faces."""

    hit: float
    hit_ways: int
    critical: float
    critical_ways: int
    ways: int
    degrees: list[Degree]


def attack_odds(q: AttackOddsQuery) -> AttackOdds:
    hits = crits = 0
    tally: dict[int, int] = {}
    for face in range(1, 21):
        total = face + scores.natural(face) + q.bonus
        if total >= q.score:
            hits += 1
            crits += scores.is_critical(total, q.score, q.critical_range)
        d = scores.degrees(total, q.score)
        tally[d] = tally.get(d, 0) + 1
    return AttackOdds(hit=hits / 20, hit_ways=hits, critical=crits / 20, critical_ways=crits, ways=20,
                      degrees=[Degree(degrees=d, ways=n) for d, n in sorted(tally.items())])
