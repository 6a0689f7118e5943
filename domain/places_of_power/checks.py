"""Places of Power checks: Attribute die + Skill die against a difficulty.

The judging is one pure function (``judge``) used by the rolls in a fight and by the
odds a frontend asks for (``odds``, exact by enumeration).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from typing import Literal

from domain.core.rolls import step

Difficulty = Literal["Easy", "Normal", "Difficult", "Hard", "Very Hard"]
Outcome = Literal["Critical Failure", "Failure", "Partial Success", "Full Success", "Critical Success"]
OUTCOMES: tuple[str, ...] = ("Critical Failure", "Failure", "Partial Success", "Full Success", "Critical Success")

# "Easy - 7, Normal - 9, Difficult - 13, Hard - 16, Very Hard - 20"
DIFFICULTIES: dict[str, int] = {"Easy": 7, "Normal": 9, "Difficult": 13, "Hard": 16, "Very Hard": 20}
LADDER: tuple[str, ...] = tuple(DIFFICULTIES)
OCCUPATION_DIE = 6


def easier(difficulty: str) -> str | None:
    """One difficulty level down the ladder, or None below Easy."""
    i = LADDER.index(difficulty)
    return LADDER[i - 1] if i > 0 else None


def harder(difficulty: str) -> str | None:
    i = LADDER.index(difficulty)
    return LADDER[i + 1] if i + 1 < len(LADDER) else None


def levels_above(total: int, target: int) -> int:
    """How many difficulty levels above the target the total reached (the extra Successes
    the attack rules spend): a roll of 16 at Normal reaches Difficult and Hard, 2."""
    return sum(1 for value in DIFFICULTIES.values() if value > target and total >= value)


def judge(faces: Sequence[int], sizes: Sequence[int], difficulty: str) -> tuple[str, int]:
    """The outcome class of a roll and its levels above the target.

    - Failure: below the target.
    - Partial Success: from the target to one below the next level's value.
    - Full Success: the next level's value or more (Very Hard has no next level).
    - Critical Success: two dice the same and the total over the target, or both dice (the
      Attribute and Skill dice, the first two) at their maximum.
    - Critical Failure: two dice the same and the total below the target.
    With an occupation die "any two of the three dice" matching is critical.
    """
    target = DIFFICULTIES[difficulty]
    total = sum(faces)
    doubled = len(set(faces)) < len(faces)
    all_max = faces[0] == sizes[0] and faces[1] == sizes[1]
    levels = levels_above(total, target)
    if total < target:
        return ("Critical Failure" if doubled else "Failure"), 0
    if (doubled and total > target) or all_max:
        return "Critical Success", levels
    nxt = harder(difficulty)
    if nxt is not None and total >= DIFFICULTIES[nxt]:
        return "Full Success", levels
    return "Partial Success", levels


def dice_for(attribute_die: int, skill_die: int, advantage: bool, disadvantage: bool) -> tuple[int, int]:
    """The two dice rolled: Advantage steps the lower die up one rung, Disadvantage the higher
    one down; both at once cancel out. With two equal dice the Skill die is the one stepped."""
    a, s = attribute_die, skill_die
    if advantage and not disadvantage:
        if s <= a:
            s = step(s, 1)
        else:
            a = step(a, 1)
    elif disadvantage and not advantage:
        if s >= a:
            s = step(s, -1)
        else:
            a = step(a, -1)
    return a, s


def odds(sizes: Sequence[int], difficulty: str) -> dict[str, Fraction]:
    """The exact chance of each outcome class, by enumerating every face of every die."""
    counts = dict.fromkeys(OUTCOMES, 0)
    ranges = [range(1, n + 1) for n in sizes]
    total = 0
    for faces in product(*ranges):
        counts[judge(faces, sizes, difficulty)[0]] += 1
        total += 1
    return {k: Fraction(v, total) for k, v in counts.items()}
