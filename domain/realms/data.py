"""Where the publisher's texts disagree or leave a choice, the encounter's settings: one GM data
document per encounter (``SetRealmsRules``), each default the one realms-gaps.md names.

- ``dying_damage``: R22, "The publisher contradicts itself": the chapter 2 text's 1d4, 2d4, 4d4
  (doubling the dice; our default, as the gap file says) or the conditions appendix's 1d4, 1d8,
  2d8, 4d8 ("irreducible", at the start of the turn).
- ``evade_bonus``: R1's Evade ("+2 Evasion against the next attack, +1 per extra use"; split, "+2
  against each of several attacks in the next round").
- ``determination_dice``: R10, the Determination Dice each player's character holds as the encounter
  starts ("each character starts every session with one and can hold up to 3"): 1 by default; a
  later fight of the session starts with what is left (the RM's ``SetDetermination``).
- ``partial_success``: U-R5, "unclear whether it means 'exceeds by exactly 1' or 'meets the
  Score'": the gap file's default "meets or exceeds by at most 1" (``at_most_1``) or "exceeds by
  exactly 1" (``exactly_1``); and a Partial Failure misses by 1. A narrative flag only, told with
  the roll.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

DyingDamage = Literal["chapter", "appendix"]
# (count, sides) of each step of the escalation; the last step repeats
DYING_STEPS: dict[str, tuple[tuple[int, int], ...]] = {
    "chapter": ((1, 4), (2, 4), (4, 4), (8, 4)),
    "appendix": ((1, 4), (1, 8), (2, 8), (4, 8)),
}


class RealmsRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    dying_damage: DyingDamage = "chapter"
    evade_bonus: Annotated[int, msgspec.Meta(ge=0, le=10)] = 2
    determination_dice: Annotated[int, msgspec.Meta(ge=0, le=3)] = 1
    partial_success: Literal["at_most_1", "exactly_1"] = "at_most_1"

    def partial(self, total: int, score: int) -> str | None:
        """U-R5: "A Partial Success or Failure is a miss or make by 1" (a narrative flag)."""
        margin = total - score
        if margin == -1:
            return "partial failure"
        low = 0 if self.partial_success == "at_most_1" else 1
        return "partial success" if low <= margin <= 1 else None

    def dying_step(self, step: int) -> tuple[int, int]:
        """The dice of the ``step``-th escalation (0: the first): "doubling the number of dice"."""
        steps = DYING_STEPS[self.dying_damage]
        if step < len(steps):
            return steps[step]
        count, sides = steps[-1]
        return count * 2 ** (step - len(steps) + 1), sides


DEFAULT_RULES = RealmsRules()
