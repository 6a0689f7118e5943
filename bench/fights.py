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
from domain.core.encounter import (
    AddCombatant,
    Command,
    EncounterState,
    EndEncounter,
    EndTurn,
    Event,
    RemoveCombatant,
    RevealCombatant,
    RollInitiative,
    StartEncounter,
)
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import (
    Attack,
    ChooseCriticalEffect,
    Defend,
    ResolveMishap,
    SpendSuccesses,
)
from domain.places_of_power.check_rolls import CallForCheck, RollCheck
from domain.places_of_power.contract import ACTIONS, SHEETS
from domain.places_of_power.pull_your_punch import PullYourPunch
from domain.places_of_power.statuses import (
    ApplyStatus,
    RemoveStatus,
    ResolveStatus,
    Stabilise,
)
from domain.rulesets import default_registry

POP = "places-of-power"

# Status Effects the GM puts on someone now and then (long_fight), and how long each lasts
STATUSES = (("Bleeding", "until_removed"), ("Burning", "until_removed"), ("Staggered", "turns"),
            ("Frightened", "end_of_round"), ("Exposed", "end_of_round"), ("Deafened", "turns"))
CRITICAL_EFFECTS = ("UnavoidableHit", "BypassArmour", "Knockdown", "RefundActionPoint")


@dataclass
class Fight:
    """One encounter driven through the decider; ``events`` is its history, ``groups`` the
    same events grouped by the command that recorded them (as the store appends them)."""

    ruleset: Ruleset
    encounter_id: str
    seed: bytes
    rng: random.Random
    state: EncounterState
    events: list[Event] = field(default_factory=list)
    groups: list[list[Event]] = field(default_factory=list)
    commands: list[Command | None] = field(default_factory=list)  # each group's command (None: the opening)
    recruited: int = 0  # the number after the highest ``c{n}`` added

    @classmethod
    def open(cls, rng: random.Random, name: str = "A random fight", encounter_id: str | None = None,
             ruleset: Ruleset | None = None) -> Fight:
        """A new encounter of ``ruleset`` (default: Places of Power) with seeded dice."""
        ruleset = ruleset or default_registry().get(POP)
        encounter_id = encounter_id or str(uuid.UUID(int=rng.getrandbits(128), version=4))
        seed = rng.randbytes(32)
        events = list(ruleset.open(encounter_id, name, "seeded", seed_commitment(seed)))
        return cls(ruleset=ruleset, encounter_id=encounter_id, seed=seed, rng=rng, state=ruleset.replay(events),
                   events=events, groups=[list(events)], commands=[None])

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
        if new:
            self.groups.append(list(new))
            self.commands.append(command)
        return new

    def attempt(self, command: Command) -> bool:
        try:
            self.send(command)
        except RuleViolation:
            return False
        return True

    # ---------------------------------------------------------------- the fight

    def seat(self, count: int, *, hidden: bool = False) -> list[str]:
        ids = [self._recruit(i, hidden=hidden and i == count - 1) for i in range(count)]
        self.send(RollInitiative())
        self.send(StartEncounter())
        return ids

    def _recruit(self, i: int, *, hidden: bool = False) -> str:
        """Add combatant ``c{i}``: a player's hero for even ``i``, the GM's bandit for odd."""
        cid, gm = f"c{i}", i % 2 == 1
        self.recruited = max(self.recruited, i + 1)
        self.send(AddCombatant(
            combatant_id=cid, name=f"{'Bandit' if gm else 'Hero'} {i}", side="enemies" if gm else "party",
            controller="gm" if gm else "player", sheet=self.rng.choice(SHEETS), hidden=hidden,
        ))
        return cid

    def reinforce(self) -> None:
        """The GM carries the dead and the Helpless off and sends a fresh fighter of the same
        kind in for each (numbered on from the highest yet: odd for the GM's, even for a
        player's), so that a long fight keeps fighting."""
        if getattr(self.state.rules, "exchange", None) is not None:
            return
        for cid, c in list(self.state.combatants.items()):
            out = c.sheet.dead or c.sheet.hits >= 4 or c.sheet.helpless_for_fight
            if out and cid != self.state.turn:
                self.send(RemoveCombatant(combatant_id=cid))
                n = self.recruited  # of the same kind: the parity of the number keeps player or GM
                self._recruit(n + (n % 2 != int(cid[1:]) % 2))

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

    def afflict(self, chance: float) -> None:
        """Status Effects: whoever has the turn settles what fell due (Bleeding, Burning) and
        sometimes Stabilises a bleeding combatant; with ``chance`` the GM then puts a status
        on someone, and with a tenth of it removes one."""
        state = self.state
        if getattr(state.rules, "exchange", None) is not None:
            return
        turn = state.combatants.get(state.turn or "")
        if turn is not None:
            for s in turn.sheet.statuses:
                if s.due:
                    self.attempt(ResolveStatus(combatant_id=turn.id, status=s.name))
            bleeding = [c.id for c in self.state.combatants.values()
                        if any(s.name == "Bleeding" for s in c.sheet.statuses)]
            if bleeding and self.rng.random() < 0.3:
                self.attempt(Stabilise(combatant_id=turn.id, target=self.rng.choice(bleeding), status="Bleeding"))
        ids = list(self.state.combatants)
        if ids and self.rng.random() < chance:
            cid = self.rng.choice(ids)
            name, lasts = self.rng.choice(STATUSES)
            others = [o for o in ids if o != cid]
            source = self.rng.choice(others) if name == "Frightened" and others else None
            self.attempt(ApplyStatus(combatant_id=cid, status=name, lasts=lasts, turns=2 if lasts == "turns" else 0,
                                     source=source))
        elif ids and self.rng.random() < chance / 10:
            c = self.state.combatants[self.rng.choice(ids)]
            if c.sheet.statuses:
                self.attempt(RemoveStatus(combatant_id=c.id, status=self.rng.choice(c.sheet.statuses).name))

    def _answer(self, ex: Any) -> None:
        who, attack = ex.awaiting, ex.id
        choices = [c.name for c in self.ruleset.shown(self.state).rules.exchange.choices]
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


def long_fight(rng: random.Random, *, events: int, combatants: int = 4, hidden: bool = True,
               statuses: float = 0.05) -> Fight:
    """One fight of ``events`` events or a few more (the last command's): ``combatants`` on the
    field at any time, the fallen replaced by fresh ones (``Fight.reinforce``), Status Effects
    put on someone after about one step in 1/``statuses`` (``Fight.afflict``)."""
    fight = Fight.open(rng)
    fight.seat(combatants, hidden=hidden)
    while len(fight.events) < events:
        fight.afflict(statuses)
        fight.step()
        fight.reinforce()
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
    from server.store.events import GENESIS_HASH, chain

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


async def append(pool: Any, fight: Fight, batch: int = 500, gm_secret: str | None = None) -> None:
    """Write one fight through the server's own ``EventStore`` (``pool``: the server's asyncpg
    pool): the encounter, its GM token and first event in one ``open``, then the commands'
    events in appends of about ``batch`` rows, each command's events chained with that
    command's own metadata, as the server chains them. ``gm_secret``: the GM token's secret
    (a new one, thrown away, if None)."""
    from server.auth.tokens import hash_secret, new_secret
    from server.store.encounters import EncounterService
    from server.store.events import GENESIS_HASH, EventStore, chain, new_uuid

    store, schema, eid = EventStore(pool), fight.ruleset.schema_versions, fight.encounter_id
    metadata = EncounterService._metadata  # the server's metadata for a command's events
    actor = {"role": "gm"}
    token = hash_secret(gm_secret or new_secret())
    first = chain(eid, GENESIS_HASH, 1, fight.groups[0], metadata(actor, None), schema)
    await store.open(eid, fight.ruleset.id, fight.state.name, fight.seed, (new_uuid(), token), first)
    last, version, rows = first[-1].hash, len(first) + 1, []
    for group, command in zip(fight.groups[1:], fight.commands[1:], strict=True):
        chained = chain(eid, last, version, group, metadata(actor, None, command), schema)
        rows += chained
        last, version = chained[-1].hash, version + len(chained)
        if len(rows) >= batch:
            await store.append(eid, rows, token)
            rows = []
    if rows:
        await store.append(eid, rows, token)
