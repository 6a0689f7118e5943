"""The skeleton the tests' own small rulesets share (Skirmish, Steps, Waits, Standoff): no
Action Points (a ruleset counting other resources, or none) and an order of play as the
combatants were added, no die rolled. Each test ruleset adds only what it is there to show."""

from __future__ import annotations

from domain.core.action_points import ActionPointBudget
from domain.core.dice import Dice
from domain.core.encounter import Combatant, EncounterState, InitiativeRolled
from domain.core.ruleset import Ruleset


class Plain(Ruleset):
    """A ruleset with no rules of its own yet: subclass it and override what the test needs."""

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        return InitiativeRolled(rolls=[], order=sorted(state.combatants, key=lambda c: state.combatants[c].seq))
