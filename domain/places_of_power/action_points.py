"""Places of Power Action Points.

"At the start of each round all players engaged in the combat receive 3 Action
Points (unless otherwise specified). Any Action Points they have remaining from the
previous round are carried over, but only up to a maximum of 6 Action Points in total."

"In the first round of combat, all Enemies start with 3 Action Points. However,
unlike Player Characters, they cannot carry over Action Points to following rounds.
Instead, they start every subsequent round of combat with a set 4 Action Points."
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.action_points import ActionPointBudget, CarryOverBudget, RoundGrantBudget
from domain.core.encounter import Combatant

MAXIMUM = 6
PLAYER_BUDGET = CarryOverBudget(maximum=MAXIMUM, grant=3)
NPC_BUDGET = RoundGrantBudget(maximum=4, first_round=3, per_round=4)


@dataclass(frozen=True)
class Owing(ActionPointBudget):
    """A budget one Action Point short in round ``owed_round`` (the Critical Miss mishap 5:
    "gain one fewer Action Points at the start of the next turn")."""

    base: ActionPointBudget = PLAYER_BUDGET
    owed_round: int = 0

    def at_combat_start(self) -> int:
        return self.base.at_combat_start()

    def at_round_start(self, current: int, round_number: int) -> int:
        granted = self.base.at_round_start(current, round_number)
        return max(0, granted - 1) if round_number == self.owed_round else granted

    def at_turn_end(self, current: int) -> int:
        return self.base.at_turn_end(current)


def budget_for(combatant: Combatant) -> ActionPointBudget:
    """Player characters carry AP over; the GM's NPCs get a set grant each round."""
    base = PLAYER_BUDGET if combatant.controller == "player" else NPC_BUDGET
    owed = getattr(combatant.sheet, "action_point_debt_round", 0)
    return Owing(maximum=base.maximum, base=base, owed_round=owed) if owed else base
