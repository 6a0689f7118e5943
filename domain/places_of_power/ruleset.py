"""Places of Power as a decider."""

from __future__ import annotations

from domain.core.action_points import ActionPointBudget
from domain.core.dice import Dice
from domain.core.encounter import Combatant, CombatantAdded, Command, EncounterState, Event, InitiativeRolled
from domain.core.ruleset import CommandInfo, Ruleset, replace
from domain.places_of_power import initiative
from domain.places_of_power.action_points import budget_for
from domain.places_of_power.actions import ACTION_COSTS, ActionTaken, TakeAction
from domain.places_of_power.sheet import Sheet


class PlacesOfPower(Ruleset):
    id = "places-of-power"
    name = "Places of Power"
    sheet_type = Sheet
    extra_commands = (TakeAction,)
    extra_events = (ActionTaken,)
    reserved_ids = frozenset({initiative.NPC_GROUP})

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return budget_for(combatant)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        return initiative.roll(state, dice)

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        initiative.check_order(state, order)

    def place_joiner(self, state: EncounterState, added: CombatantAdded) -> list[str]:
        return initiative.place_joiner(state, added)

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        if isinstance(command, TakeAction):
            c = self.require_turn(state, command.combatant_id)
            cost, _ = ACTION_COSTS[command.action]
            self.spend_action_points(c, cost, command.action)
            return [ActionTaken(combatant_id=c.id, action=command.action, action_points=cost)]
        return super().decide_action(state, command, dice)

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        if isinstance(event, ActionTaken):
            combatants = dict(state.combatants)
            c = combatants[event.combatant_id]
            combatants[c.id] = replace(c, action_points=c.action_points - event.action_points)
            return replace(state, combatants=combatants)
        return super().evolve_action(state, event)

    def command_info(self) -> list[CommandInfo]:
        return [
            CommandInfo(type="TakeAction", summary=f"{name}: {text}", action_points=cost, who="the acting combatant")
            for name, (cost, text) in ACTION_COSTS.items()
        ]
