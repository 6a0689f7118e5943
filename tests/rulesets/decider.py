"""A fight driven through a ruleset's decider the way the server drives it (seeded or reported
dice), checking after every command that a replay of the events equals the live state. Each
ruleset's tests subclass it (tests/rulesets/<ruleset>/fight.py) with their ruleset and helpers."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import Command, Event
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset

SEED = bytes(range(32))


class DeciderFight:
    def __init__(self, ruleset: Ruleset, encounter_id: str, name: str, seed: bytes = SEED) -> None:
        self.ruleset, self.encounter_id, self.seed = ruleset, encounter_id, seed
        self.events: list[Event] = list(ruleset.open(encounter_id, name, "mixed", seed_commitment(seed)))
        self.state = ruleset.replay(self.events)

    def send(self, command: Command) -> list[Event]:
        seeded = SeededDice(self.seed, self.encounter_id, self.state.rolls_used)
        dice = choose_dice(self.state.dice_policy, command.dice, seeded)
        new = self.ruleset.decide(self.state, command, dice, seed=self.seed)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        for e in new:
            self.state = self.ruleset.evolve(self.state, e)
        self.events.extend(new)
        assert self.ruleset.replay(self.events) == self.state, "replay differs from the live state"
        return new

    def refused(self, command: Command) -> RuleViolation:
        with pytest.raises(RuleViolation) as refused:
            self.send(command)
        return refused.value
