"""Action Point budgets: how many AP a combatant has, per system and per side.

The four rulesets fill AP in different rhythms:

- Places of Power, player characters: +3 at the start of each round, carried over up
  to 6 (``CarryOverBudget``).
- Places of Power, NPC enemies: 3 in the first round, then a set 4 each round, no
  carry-over (``RoundGrantBudget``).
- RealmsRPG: set to 4 at the start of combat and at the end of each of your turns
  (``TurnResetBudget``).
- Novus: 5 declared per round, 10 when Hasted (``RoundGrantBudget`` with the same grant
  every round).

A budget is a pure policy object: the ruleset asks it what a combatant's AP become at
the start of the combat, of a round, and at the end of the combatant's own turn.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionPointBudget:
    """Base policy: AP never change except by spending."""

    maximum: int

    def at_combat_start(self) -> int:
        return 0

    def at_round_start(self, current: int, round_number: int) -> int:
        return current

    def at_turn_end(self, current: int) -> int:
        return current


@dataclass(frozen=True)
class CarryOverBudget(ActionPointBudget):
    """Gain ``grant`` each round; leftovers carry over up to ``maximum``."""

    grant: int = 3

    def at_round_start(self, current: int, round_number: int) -> int:
        return min(current + self.grant, self.maximum)


@dataclass(frozen=True)
class RoundGrantBudget(ActionPointBudget):
    """A set number each round (``first_round`` in round 1), nothing carried over."""

    first_round: int = 3
    per_round: int = 4

    def at_round_start(self, current: int, round_number: int) -> int:
        return self.first_round if round_number == 1 else self.per_round


@dataclass(frozen=True)
class TurnResetBudget(ActionPointBudget):
    """Set to ``amount`` when combat starts and at the end of each of your turns."""

    amount: int = 4

    def at_combat_start(self) -> int:
        return self.amount

    def at_turn_end(self, current: int) -> int:
        return self.amount
