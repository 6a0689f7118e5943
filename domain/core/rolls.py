"""The dice mechanics of the four rulesets, over whatever Dice an encounter uses.

- Places of Power: a pool of two dice (Attribute die + Skill die, D4..D20), summed
  (``roll_pool``).
- RealmsRPG: a D20 plus a bonus (``roll_pool`` with one d20; the bonus is the ruleset's).
- Novus: 2d10, roll-over, "a 10 explodes (roll again and add)" (``roll_exploding``).
- Health/Trauma: 1D10 on the injury table (``roll_pool`` with one d10).

Every die rolled comes back as a ``DieRoll`` to be written into the event that used it.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core.dice import Dice, DieRoll

DIE_LADDER: tuple[int, ...] = (4, 6, 8, 10, 12, 20)


def roll_pool(dice: Dice, sizes: Sequence[int], purpose: str, by: str | None = None) -> list[DieRoll]:
    """Roll one die of each size, in order (``by``: who rolls them)."""
    return [dice.roll(sides, purpose, by) for sides in sizes]


def total(rolls: Sequence[DieRoll]) -> int:
    return sum(r.face for r in rolls)


def roll_exploding(dice: Dice, count: int, sides: int, purpose: str, max_explosions: int = 20,
                   by: str | None = None) -> list[DieRoll]:
    """Roll ``count`` dice; each die showing its maximum is rolled again and added.

    ``max_explosions`` bounds a chain per die (the text sets no limit; 20 tens in a row
    on fair dice has a probability of 1e-20).
    """
    rolls: list[DieRoll] = []
    for _ in range(count):
        for _ in range(max_explosions + 1):
            r = dice.roll(sides, purpose, by)
            rolls.append(r)
            if r.face != sides:
                break
    return rolls


def step(sides: int, steps: int) -> int:
    """Move a die up (positive) or down (negative) the ladder D4..D20, stopping at its ends."""
    i = DIE_LADDER.index(sides)
    return DIE_LADDER[max(0, min(len(DIE_LADDER) - 1, i + steps))]
