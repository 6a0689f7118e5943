"""Random Places of Power fights, driven through the decider the way the server drives it.

A fight: two to four combatants with weapons, armour and skills (players and the GM's
NPCs, sometimes one hidden), initiative, then turns in which whoever has the turn attacks
someone, takes an action, rolls a check the GM calls for, or ends the turn; every step of an
attack exchange (critical effect, Successes, defence, riposte, mishap, a pulled punch) is
answered by a legal choice picked at random. Dice are the server's seeded dice. What comes
out is the list of events of each encounter, as the store would hold them: the benchmark of
the projections writes them into a log, and the tests fold them.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import AddCombatant, Command, EncounterState, EndEncounter, EndTurn, Event
from domain.core.encounter import RevealCombatant, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import Attack, ChooseCriticalEffect, Defend, ResolveMishap, SpendSuccesses
from domain.places_of_power.check_rolls import CallForCheck, RollCheck
from domain.places_of_power.pull_your_punch import PullYourPunch
from domain.rulesets import default_registry

POP = "places-of-power"

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
AXE = {"name": "Axe", "skill": "Axe", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 4}}}
BOW = {"name": "Bow", "skill": "Bow", "kind": "ranged",
       "ranges": {"Melee": {"difficulty": "Difficult", "damage": 2}, "Close": {"difficulty": "Normal", "damage": 2}}}
SHEETS: list[dict[str, Any]] = [
    {"initiative_modifier": 2, "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
     "skills": {"Knife": "D8", "Athletics": "D6", "Bow": "D8", "Brawling": "D6"}, "weapons": [KNIFE, BOW],
     "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}]},
    {"initiative_modifier": 1, "attributes": {"strength": "D10", "agility": "D6"},
     "skills": {"Knife": "D8", "Axe": "D8", "Athletics": "D6"}, "weapons": [KNIFE, AXE],
     "armour": [{"name": "Greatcoat", "layer": "Outer", "value": 1, "durability": 2},
                {"name": "Jerkin", "layer": "Base", "value": 2, "durability": 2}]},
    {"initiative_modifier": 0, "attributes": {"strength": "D8", "agility": "D8"},
     "skills": {"Athletics": "D6", "Brawling": "D6"}},
]
ACTIONS = ("TakeCover", "NotchArrow", "Stand", "Dash")
CRITICAL_EFFECTS = ("UnavoidableHit", "BypassArmour", "Knockdown", "RefundActionPoint")


@dataclass
class Fight:
    """One encounter driven through the decider; ``events`` is its history."""

    ruleset: Ruleset
    encounter_id: str
    seed: bytes
    rng: random.Random
    state: EncounterState
    events: list[Event] = field(default_factory=list)

    @classmethod
    def open(cls, rng: random.Random, name: str = "A random fight", encounter_id: str | None = None) -> Fight:
        ruleset = default_registry().get(POP)
        encounter_id = encounter_id or str(uuid.UUID(int=rng.getrandbits(128), version=4))
        seed = rng.randbytes(32)
        events = list(ruleset.open(encounter_id, name, "seeded", seed_commitment(seed)))
        return cls(ruleset=ruleset, encounter_id=encounter_id, seed=seed, rng=rng, state=ruleset.replay(events),
                   events=events)

    def send(self, command: Command) -> list[Event]:
        """Decide and evolve ``command``; a refusal (RuleViolation) changes nothing."""
        seeded = SeededDice(self.seed, self.encounter_id, self.state.rolls_used)
        dice = choose_dice(self.state.dice_policy, command.dice, seeded)
        new = self.ruleset.decide(self.state, command, dice, seed=self.seed)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        for event in new:
            self.state = self.ruleset.evolve(self.state, event)
        self.events.extend(new)
        return new

    def attempt(self, command: Command) -> bool:
        try:
            self.send(command)
        except RuleViolation:
            return False
        return True

    # ---------------------------------------------------------------- the fight

    def seat(self, count: int, *, hidden: bool = False) -> list[str]:
        ids = []
        for i in range(count):
            cid = f"c{i}"
            gm = i % 2 == 1
            self.send(AddCombatant(
                combatant_id=cid, name=f"{'Bandit' if gm else 'Hero'} {i}", side="enemies" if gm else "party",
                controller="gm" if gm else "player", sheet=self.rng.choice(SHEETS), hidden=hidden and i == count - 1,
            ))
            ids.append(cid)
        self.send(RollInitiative())
        self.send(StartEncounter())
        return ids

    def step(self) -> None:
        """One decision: the open exchange's, else the turn's."""
        ex = getattr(self.state.rules, "exchange", None)
        if ex is not None:
            self._answer(ex)
            return
        turn = self.state.turn
        if turn is None:
            return
        roll = self.rng.random()
        others = [c for c in self.state.combatants if c != turn]
        if roll < 0.55 and others:
            c = self.state.combatants[turn]
            weapons = [w.name for w in c.sheet.weapons if w.name not in c.sheet.dropped_weapons]
            weapon = self.rng.choice(weapons) if weapons and self.rng.random() < 0.8 else None
            ranged = weapon == "Bow"
            kind = "Ranged" if ranged else self.rng.choice(("LightMelee", "LightMelee", "HeavyMelee"))
            if self.attempt(Attack(combatant_id=turn, target=self.rng.choice(others), attack=kind,
                                   band="Close" if ranged else "Melee", weapon=weapon)):
                return
        elif roll < 0.65:
            if self.attempt(TakeAction(combatant_id=turn, action=self.rng.choice(ACTIONS))):
                return
        elif roll < 0.75:
            check = self.state.version + 1
            if self.attempt(CallForCheck(combatant_id=turn, attribute="agility", skill="Athletics",
                                         difficulty=self.rng.choice(("Easy", "Normal", "Difficult")))):
                if self.attempt(RollCheck(combatant_id=turn, check=check)):
                    return
        self.attempt(EndTurn(combatant_id=turn)) or self._stuck(turn)

    def _answer(self, ex: Any) -> None:
        who, attack = ex.awaiting, ex.id
        choices = [c.name for c in ex.choices]
        pick = self.rng.choice(choices) if choices else None
        match ex.stage:
            case "mishap":
                done = self.attempt(ResolveMishap(attack=attack))
            case "critical":
                done = self.attempt(ChooseCriticalEffect(combatant_id=who, attack=attack,
                                                         effect=self.rng.choice(CRITICAL_EFFECTS)))
            case "spend":
                split = [self.rng.choice(("Damage", "Precision")) for _ in range(min(ex.extra, 5))]
                done = self.attempt(SpendSuccesses(combatant_id=who, attack=attack, split=split))
            case "pull":
                done = self.attempt(PullYourPunch(combatant_id=who, attack=attack, pull=self.rng.random() < 0.5))
            case _:  # defence or riposte
                done = pick is not None and self.attempt(Defend(combatant_id=who, attack=attack, defence=pick))
                done = done or self.attempt(Defend(combatant_id=who, attack=attack, defence="TakeIt"))
        if not done:
            raise RuntimeError(f"the fight is stuck at exchange stage {ex.stage}: {ex}")

    def _stuck(self, turn: str) -> None:
        raise RuntimeError(f"{turn} can neither act nor end the turn at version {self.state.version}")


def random_fight(rng: random.Random, *, steps: int, combatants: int = 3, hidden: bool = False,
                 reveal: bool = False, end: bool = False, encounter_id: str | None = None) -> Fight:
    """A fight of about ``steps`` decisions (each one command)."""
    fight = Fight.open(rng, encounter_id=encounter_id)
    ids = fight.seat(combatants, hidden=hidden)
    for i in range(steps):
        fight.step()
        if reveal and hidden and i == steps // 2:
            fight.attempt(RevealCombatant(combatant_id=ids[-1]))
    if end:
        fight.attempt(EndEncounter())
    return fight


def fights(seed: int, *, events: int, steps: int = 60) -> Iterator[Fight]:
    """Fights until together they hold at least ``events`` events."""
    rng = random.Random(seed)
    total = 0
    while total < events:
        fight = random_fight(rng, steps=steps, combatants=rng.randint(2, 4), hidden=rng.random() < 0.2,
                             reveal=rng.random() < 0.5, end=rng.random() < 0.5)
        total += len(fight.events)
        yield fight


_EVENT_COLUMNS = ("encounter_id", "version", "event_id", "type", "schema_version", "data", "metadata", "recorded_at",
                  "hash")


async def store(conn: Any, batch: Iterable[Fight]) -> int:
    """Write fights into the event store as the server would have (encounter rows, events with
    their hash chain), in one COPY each; returns how many events. ``conn``: an asyncpg connection."""
    from server.store import GENESIS_HASH, chain

    encounters, events = [], []
    for f in batch:
        encounters.append((uuid.UUID(f.encounter_id), f.ruleset.id, f.state.name, f.seed))
        rows = chain(f.encounter_id, GENESIS_HASH, 1, f.events, {"actor": {"role": "gm"}}, f.ruleset.schema_versions)
        events += [(uuid.UUID(f.encounter_id), r.version, uuid.UUID(r.event_id), r.type, r.schema_version,
                    r.data.decode(), r.metadata.decode(), r.recorded_at, r.hash) for r in rows]
    async with conn.transaction():
        await conn.copy_records_to_table("encounters", records=encounters, columns=("id", "ruleset", "name", "seed"))
        await conn.copy_records_to_table("events", records=events, columns=_EVENT_COLUMNS)
    return len(events)
