"""A random walk of commands through any ruleset, the way the server drives one.

Each game gives the contract suite a ``Walk`` (``WALK`` in its own package's ``contract.py``,
domain/core/contract.py): sheets for players and NPCs, and the commands worth trying. The walk adds
a table (some NPCs hidden, with distinctive names), rolls initiative, starts, then at each step
sends one of: the ruleset's moves, an answer to a pending decision, a reveal, or the end of the
turn. A refused command changes nothing (the decider is pure); the walk keeps every event.
"""

from __future__ import annotations

import importlib
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.contract import Walk
from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import (
    AddCombatant,
    Command,
    EncounterState,
    EndTurn,
    Event,
    RevealCombatant,
    RollInitiative,
    StartEncounter,
)
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset

# letters no ruleset's words use together: a hidden name or id found in a view is a leak
UNLIKELY = "qxzjkvw"


def walk_of(ruleset: Ruleset) -> Walk:
    """The game's ``WALK``, exported from its own package (``<package>.contract``, beside the
    module that defines its Ruleset): a game shipped on its own brings its fixture along."""
    package = type(ruleset).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.contract").WALK


@dataclass
class Table:
    """One encounter driven through ``ruleset.decide`` and ``evolve`` with the server's seeded dice."""

    ruleset: Ruleset
    rng: random.Random
    seed: bytes = b""
    encounter_id: str = ""
    events: list[Event] = field(default_factory=list)
    state: EncounterState = field(init=False)
    hidden: dict[str, str] = field(default_factory=dict)  # hidden id -> name, as added
    refused: int = 0
    states: list[EncounterState] = field(default_factory=list)  # after each accepted command
    # the events grouped by the command that recorded them (None: the opening), as the store appends them
    groups: list[list[Event]] = field(default_factory=list)
    commands: list[Command | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seed = self.seed or self.rng.randbytes(32)
        self.encounter_id = self.encounter_id or str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        self.events = list(self.ruleset.open(self.encounter_id, "A contract walk", "seeded", seed_commitment(self.seed)))
        self.state = self.ruleset.replay(self.events)
        self.groups, self.commands = [list(self.events)], [None]

    def send(self, command: Command) -> list[Event]:
        seeded = SeededDice(self.seed, self.encounter_id, self.state.rolls_used)
        dice = choose_dice(self.state.dice_policy, command.dice, seeded)
        new = self.ruleset.decide(self.state, command, dice, seed=self.seed)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        for event in new:
            self.state = self.ruleset.evolve(self.state, event)
        self.events.extend(new)
        self.states.append(self.state)
        if new:
            self.groups.append(list(new))
            self.commands.append(command)
        return new

    def attempt(self, command: Command) -> bool:
        before = self.state
        try:
            self.send(command)
        except RuleViolation:
            assert self.state is before, "a refused command changed the state"
            self.refused += 1
            return False
        return True

    def seat(self, walk: Walk, players: int, npcs: int, hidden: int) -> None:
        for i in range(players + npcs):
            npc = i >= players
            secret = npc and i >= players + npcs - hidden
            cid = f"{UNLIKELY}{i}{self.rng.choice(UNLIKELY)}" if secret else f"c{i}"
            name = f"Zq{self.rng.choice(UNLIKELY)}xv {i}" if secret else f"{'Npc' if npc else 'Hero'} {i}"
            self.send(AddCombatant(
                combatant_id=cid, name=name, side="enemies" if npc else "party",
                controller="gm" if npc else "player", sheet=walk.sheet(self.rng, npc), hidden=secret,
            ))
            if secret:
                self.hidden[cid] = name
        self.send(RollInitiative())
        self.send(StartEncounter())

    def answers(self) -> list[Command]:
        """A command answering each pending decision (with one of its choices, at random)."""
        out = []
        for decision in self.ruleset.pending(self.ruleset.shown(self.state)):
            out.append(answer(self.ruleset, decision, self.rng))
        return out

    def step(self, walk: Walk) -> None:
        state, rng = self.state, self.rng
        tries = self.answers() + walk.moves(self.ruleset, state, rng)
        rng.shuffle(tries)
        concealed = [c for c in state.concealed if c in state.combatants]
        if concealed and rng.random() < 0.05:
            tries.insert(0, RevealCombatant(combatant_id=rng.choice(concealed)))
        if state.turn is not None and rng.random() < 0.35:
            tries.insert(0, EndTurn(combatant_id=state.turn))
        for command in tries:
            if self.attempt(command):
                return
        if state.turn is not None:
            self.attempt(EndTurn(combatant_id=state.turn))


def answer(ruleset: Ruleset, decision: Any, rng: random.Random) -> Command:
    """The command a pending ``decision`` asks for, with one of its choices when it offers some."""
    choice = rng.choice(decision.choices) if decision.choice_field is not None and decision.choices else None
    return msgspec.convert(decision.answer(choice), ruleset.command_type)


def walked(ruleset: Ruleset, seed: int, steps: int, encounter_id: str = "") -> Table:
    """A whole random walk: a table of 1-3 players and 1-3 NPCs (some hidden), then ``steps``
    steps. ``encounter_id``: the encounter's (default: one drawn from ``seed``; a walk stored in
    a database that holds others names a fresh one)."""
    rng = random.Random(seed)
    walk = walk_of(ruleset)
    table = Table(ruleset, rng, encounter_id=encounter_id)
    npcs = rng.randint(1, 3)
    table.seat(walk, players=rng.randint(1, 3), npcs=npcs, hidden=rng.randint(0, npcs))
    for _ in range(steps):
        if table.state.status != "active":
            break
        table.step(walk)
    return table
