"""Given events, when a command, then events or a refusal: a rule test in three lines (issue 41).

    given(PlacesOfPower(), *past).when(OpposedRoll(...)).then(OpposedRolled, SkillMarked)
    given(Novus(), *past).when(NovusDeclare(...)).refused("novus_too_many_ap")

``given`` opens a ``mixed`` encounter and folds the past events on it (what a command saw is its
history, not a script of earlier commands); ``when`` decides one command as the server does,
reported faces in its ``dice``; ``then`` names what it records: event types, or whole events to
compare. A replay of the whole history must equal the live state after it."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset
from tests.rulesets.decider import SEED

ENCOUNTER = "5ce7a210-0000-4000-8000-000000000041"


@dataclass
class Then:
    """What a command recorded (``events``) and the state after them."""

    ruleset: Ruleset
    events: list[Event]
    state: EncounterState

    def then(self, *expected: type[Event] | Event) -> Then:
        """Each recorded event in order: its type, or the event itself."""
        got = [e if not isinstance(x, type) else type(e) for e, x in zip(self.events, expected, strict=False)]
        assert len(self.events) == len(expected) and got == list(expected), (
            f"recorded {[_name(e) for e in self.events]}, expected {[_name(x) for x in expected]}")
        return self

    def refused(self, code: str) -> None:
        raise AssertionError(f"recorded {[_name(e) for e in self.events]}, expected a refusal {code}")


@dataclass
class Given:
    ruleset: Ruleset
    history: list[Event]

    @property
    def state(self) -> EncounterState:
        return self.ruleset.replay(self.history)

    def when(self, command: Command) -> Then | Refused:
        state = self.state
        seeded = SeededDice(SEED, ENCOUNTER, state.rolls_used)
        dice = choose_dice(state.dice_policy, command.dice, seeded)
        try:
            new = self.ruleset.decide(state, command, dice, seed=SEED)
            if isinstance(dice, ReportedDice):
                dice.check_all_used()
        except RuleViolation as refusal:
            return Refused(refusal)
        after = state
        for e in new:
            after = self.ruleset.evolve(after, e)
        assert self.ruleset.replay([*self.history, *new]) == after, "replay differs from the live state"
        return Then(self.ruleset, list(new), after)


@dataclass
class Refused:
    refusal: RuleViolation

    def then(self, *expected: object) -> Then:
        raise AssertionError(f"refused ({self.refusal.code}: {self.refusal.message}), expected {expected}")

    def refused(self, code: str) -> RuleViolation:
        assert self.refusal.code == code, f"refused with {self.refusal.code}, expected {code}"
        return self.refusal


def given(ruleset: Ruleset, *events: Event | Command, name: str = "A scenario") -> Given:
    """The encounter opened, then ``events`` (a command among them is decided as the past's own:
    a shorthand for the events it records)."""
    history: list[Event] = list(ruleset.open(ENCOUNTER, name, "mixed", seed_commitment(SEED)))
    g = Given(ruleset, history)
    for item in events:
        if isinstance(item, Command):
            done = g.when(item)
            assert isinstance(done, Then), f"the given {_name(item)} was refused: {done.refusal.message}"
            g.history.extend(done.events)
        else:
            g.history.append(item)
    return g


def _name(x: object) -> str:
    return x.__name__ if isinstance(x, type) else msgspec.json.decode(msgspec.json.encode(x)).get("type", repr(x)) \
        if isinstance(x, msgspec.Struct) else repr(x)


__all__ = ["Given", "Refused", "Then", "given"]
