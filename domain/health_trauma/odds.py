"""The odds of an Attack Test (``GET /rulesets/health-trauma/odds``), with our default formula
(the text's is missing): 1D``attack_die`` + combat skill - penalty against 1D``defence_die`` +
Guard (+ a Reaction's bonus), counted exactly over every way the dice can fall."""

from __future__ import annotations

from typing import Annotated

import msgspec

Sides = Annotated[int, msgspec.Meta(ge=2, le=100)]


class AttackOddsQuery(msgspec.Struct, kw_only=True):
    """Odds of an attack hitting (the Attack Test's formula is the GM's data; these are ours)."""

    combat_skill: Annotated[int, msgspec.Meta(description="The attacker's combat skill.")] = 0
    guard: Annotated[int, msgspec.Meta(description="The target's Guard (with a Reaction's bonus).")] = 0
    attack_die: Annotated[Sides, msgspec.Meta(description="The attacker's die (ours: 20).")] = 20
    defence_die: Annotated[int, msgspec.Meta(ge=0, le=100, description="The target's die; 0: Guard is fixed (ours: 20).")] = 20
    penalty: Annotated[int, msgspec.Meta(ge=0, le=50, description="The attacker's -X (sliced muscles).")] = 0
    attacker_wins_ties: Annotated[bool, msgspec.Meta(description="An equal total hits too (ours: it does not).")] = False


class AttackOdds(msgspec.Struct, kw_only=True):
    """The chance to hit: ``numerator`` / ``denominator`` of all the ways the dice can fall."""

    hit: float
    numerator: int
    denominator: int


def attack_odds(q: AttackOddsQuery) -> AttackOdds:
    defences = range(1, q.defence_die + 1) if q.defence_die else (0,)
    hits = 0
    for a in range(1, q.attack_die + 1):
        for d in defences:
            total, guard = a + q.combat_skill - q.penalty, d + q.guard
            hits += total > guard or (q.attacker_wins_ties and total == guard)
    ways = q.attack_die * len(defences)
    return AttackOdds(hit=hits / ways, numerator=hits, denominator=ways)
