"""A Places of Power fight driven through the decider, the way the server drives it.

``Fight.send`` picks the dice the server would (``choose_dice`` under the encounter's
policy, seeded dice continuing at ``state.rolls_used``), calls ``decide`` then folds the
new events with ``evolve``; reported faces must all be used (``check_all_used``).
"""

from __future__ import annotations

from typing import Any

from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import (
    AddCombatant,
    Command,
    EncounterState,
    EndTurn,
    Event,
    RollInitiative,
    StartEncounter,
)
from domain.core.ruleset import Ruleset
from domain.rulesets import default_registry

POP = "places-of-power"
SEED = bytes(range(32))
ENCOUNTER_ID = "9b3c2f7e-0d4a-4e8b-9a51-3f6c1d2e7a10"


def places_of_power() -> Ruleset:
    return default_registry().get(POP)


def shown(state: EncounterState) -> EncounterState:
    """The state as a client is shown it (the exchange's legal choices worked out: ``Ruleset.shown``)."""
    return places_of_power().shown(state)


class Fight:
    def __init__(
        self,
        *,
        dice_policy: str = "mixed",
        seed: bytes = SEED,
        encounter_id: str = ENCOUNTER_ID,
        name: str = "Ambush at the ford",
    ) -> None:
        self.ruleset = places_of_power()
        self.seed = seed
        self.encounter_id = encounter_id
        self.events: list[Event] = list(self.ruleset.open(encounter_id, name, dice_policy, seed_commitment(seed)))
        self.state: EncounterState = self.ruleset.replay(self.events)
        self.states: list[EncounterState] = [self.state]  # the state after each command

    # ----------------------------------------------------------------- commands

    def send(self, command: Command) -> list[Event]:
        """Decide and evolve ``command``; on a RuleViolation nothing changes."""
        seeded = SeededDice(self.seed, self.encounter_id, self.state.rolls_used)
        dice = choose_dice(self.state.dice_policy, command.dice, seeded)
        new = self.ruleset.decide(self.state, command, dice, seed=self.seed)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        state = self.state
        for event in new:
            state = self.ruleset.evolve(state, event)
        self.state = state
        self.states.append(state)
        self.events.extend(new)
        return new

    def add(self, cid: str, *, gm: bool = False, modifier: int = 0, name: str | None = None) -> str:
        self.send(
            AddCombatant(
                combatant_id=cid,
                name=name or cid.capitalize(),
                side="enemies" if gm else "party",
                controller="gm" if gm else "player",
                sheet={"initiative_modifier": modifier},
            )
        )
        return cid

    def roll(self, faces: list[int] | None = None) -> list[Event]:
        return self.send(RollInitiative(dice=faces))

    def start(self) -> list[Event]:
        return self.send(StartEncounter())

    def end_turn(self, cid: str | None = None) -> list[Event]:
        return self.send(EndTurn(combatant_id=cid or self.turn))

    # ---------------------------------------------------------------- reading

    @property
    def turn(self) -> str:
        assert self.state.turn is not None, "nobody has the turn"
        return self.state.turn

    def ap(self, cid: str) -> int:
        return self.state.combatants[cid].action_points

    def initiative(self, cid: str) -> int | None:
        return self.state.combatants[cid].initiative

    def end_round(self) -> None:
        """End turns until a new round starts."""
        start = self.state.round
        while self.state.round == start:
            self.end_turn()


def seeded_dice_in(events: list[Event]) -> list[Any]:
    return [d for e in events for d in e.dice_rolled() if d.source == "seeded"]
