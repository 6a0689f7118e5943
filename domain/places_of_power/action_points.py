"""Places of Power Action Points.

"At the start of each round all players engaged in the combat receive 3 Action
Points (unless otherwise specified). Any Action Points they have remaining from the
previous round are carried over, but only up to a maximum of 6 Action Points in total."

"In the first round of combat, all Enemies start with 3 Action Points. However,
unlike Player Characters, they cannot carry over Action Points to following rounds.
Instead, they start every subsequent round of combat with a set 4 Action Points."
"""

from __future__ import annotations

from domain.core.action_points import ActionPointBudget, CarryOverBudget, RoundGrantBudget
from domain.core.encounter import Combatant

MAXIMUM = 6
PLAYER_BUDGET = CarryOverBudget(maximum=MAXIMUM, grant=3)
NPC_BUDGET = RoundGrantBudget(maximum=4, first_round=3, per_round=4)


def budget_for(combatant: Combatant) -> ActionPointBudget:
    """Player characters carry AP over; the GM's NPCs get a set grant each round."""
    return PLAYER_BUDGET if combatant.controller == "player" else NPC_BUDGET
