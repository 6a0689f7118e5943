"""Long fights of every registered ruleset, for the benchmarks (``--ruleset ID|all|mixed``).

A fight is built through the Ruleset contract only: the ruleset's demo (``Ruleset.demo()``,
domain/<ruleset>/demo.py) seats its cast and its script decides each command from the state as
the GM sees it (``Ruleset.shown``, as JSON), sent through ``decide``/``evolve`` with the server's
seeded dice (``bench.fights.Fight``). When the script stops (a side beaten), the GM seats a fresh
copy of the cast, carries the old one off (all but whoever has the turn) and the script plays
again, until the fight holds the events asked for. A command the rules refuse changes nothing;
after a few refusals in a row the driver nudges the fight on with a decision pending (answered by
whoever it waits for) or the end of the turn, never with a GM command (a GM setting fired forever
made the fight degenerate).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec

from bench.fights import Fight
from domain.core.demo import Aside, DemoFight, Refusal, Send, Stuck, Table
from domain.core.encounter import (
    AddCombatant,
    Command,
    EndTurn,
    RemoveCombatant,
    RollInitiative,
    StartEncounter,
)
from domain.core.errors import RuleViolation
from domain.core.ruleset import Registry, Ruleset
from domain.rulesets import default_registry

EVENTS = 10_000  # events in a fight, by default
REFUSALS = 8  # refusals in a row before the driver nudges the fight on
STALLED = 50  # script steps without a new event before the cast is replaced


def choices(registry: Registry | None = None) -> list[str]:
    """What ``--ruleset`` takes: a ruleset id (of those with a demo), ``all`` or ``mixed``."""
    return [*(r.id for r in with_demo(registry)), "all", "mixed"]


def with_demo(registry: Registry | None = None) -> list[Ruleset]:
    """The registered rulesets that declare a demo fight (``Ruleset.capabilities``), in the registry's order."""
    return [r for r in (registry or default_registry()).all() if "demo" in r.capabilities]


def chosen(which: str, registry: Registry | None = None) -> list[Ruleset]:
    """The rulesets ``--ruleset which`` names (``all`` and ``mixed``: every one with a demo)."""
    rulesets = with_demo(registry)
    return rulesets if which in ("all", "mixed") else [r for r in rulesets if r.id == which]


class Driver:
    """One fight of ``ruleset`` played by its demo's script, in process."""

    def __init__(self, ruleset: Ruleset, rng: random.Random, encounter_id: str | None = None) -> None:
        demo = ruleset.demo()
        assert demo is not None, f"{ruleset.id} has no demo fight"
        self.demo: DemoFight = demo
        self.rng = rng
        self.fight = Fight.open(rng, demo.name, encounter_id, ruleset=ruleset)
        self.table = Table(ids={}, players=frozenset(), rounds=10**9)
        self.seated = 0  # combatants added so far (ids c0, c1, ...)
        self.refusals = 0

    def view(self) -> dict:
        return msgspec.to_builtins(self.fight.ruleset.shown(self.fight.state))

    def seat_cast(self) -> None:
        """A fresh copy of the cast (the second and later ones named with their number)."""
        copy = self.seated // max(1, len(self.demo.cast))
        ids, players = dict(self.table.ids), set(self.table.players)
        for seat in self.demo.cast:
            cid = f"c{self.seated}"
            self.seated += 1
            name = seat.name if copy == 0 else f"{seat.name} {copy + 1}"
            self.fight.send(AddCombatant(combatant_id=cid, name=name, side=seat.side, controller=seat.controller,
                                         sheet=seat.sheet))
            ids[seat.name] = cid
            if seat.controller == "player":
                players.add(cid)
        self.table.ids, self.table.players = ids, frozenset(players)

    def recast(self) -> None:
        """The GM seats a fresh cast and carries off the old (all but whoever has the turn)."""
        old = set(self.fight.state.combatants)
        self.seat_cast()
        for cid in old:
            self.fight.attempt(RemoveCombatant(combatant_id=cid))
        self.table.state = self.view()

    def send(self, step: Send) -> Refusal | None:
        command: Command = msgspec.convert(step.command, self.fight.ruleset.command_type)
        try:
            self.fight.send(command)
        except RuleViolation as v:
            self.refusals += 1
            if self.refusals >= REFUSALS:
                self.nudge()
            return Refusal(v.code, str(v)) if step.may_refuse else None
        self.refusals = 0
        self.table.state = self.view()
        return None

    def nudge(self) -> None:
        """Something the fight waits for: a pending decision answered, else the turn ended."""
        self.refusals = 0
        state = self.fight.state
        for decision in self.fight.ruleset.pending(state):
            choice = self.rng.choice(decision.choices) if decision.choices else None
            body = decision.answer(choice)
            if self.fight.attempt(msgspec.convert(body, self.fight.ruleset.command_type)):
                break
        else:
            if state.turn is not None:
                self.fight.attempt(EndTurn(combatant_id=state.turn))
        self.table.state = self.view()

    def play(self, events: int) -> None:
        """The script until it stops, stalls, or the fight holds ``events`` events."""
        script = self.demo.play(self.table)
        answer: Refusal | None = None
        last, still = len(self.fight.events), 0
        try:
            while len(self.fight.events) < events:
                step = script.send(answer)
                answer = None if isinstance(step, Aside) else self.send(step)
                still = 0 if len(self.fight.events) > last else still + 1
                last = len(self.fight.events)
                if still > STALLED:
                    return
        except (StopIteration, Stuck):
            return
        finally:
            script.close()

    def run(self, events: int) -> Fight:
        self.seat_cast()
        self.table.state = self.view()
        while len(self.fight.events) < events:
            before = len(self.fight.events)
            self.play(events)
            if len(self.fight.events) < events:
                self.recast()
            if len(self.fight.events) == before:
                raise RuntimeError(f"the {self.fight.ruleset.id} fight is stuck at {before} events")
        return self.fight


def long_fight(ruleset: Ruleset, rng: random.Random, *, events: int = EVENTS, encounter_id: str | None = None) -> Fight:
    """One fight of ``ruleset`` of ``events`` events or a few more (the last command's)."""
    return Driver(ruleset, rng, encounter_id).run(events)


def long_fights(which: str, rng: random.Random, *, events: int = EVENTS) -> list[Fight]:
    """One long fight for each ruleset ``which`` names."""
    return [long_fight(r, rng, events=events) for r in chosen(which)]


def mixed(rng: random.Random, count: int, *, events: int) -> Iterator[Fight]:
    """``count`` fights of ``events`` events each, the rulesets taken in turn."""
    rulesets = with_demo()
    for i in range(count):
        yield long_fight(rulesets[i % len(rulesets)], rng, events=events)


class Solo(msgspec.Struct, frozen=True):
    """A lone combatant for ``bench.append``'s load: its sheet, and the commands (as JSON, the
    combatant named ``c0``) it repeats round after round, from the start of its first round."""

    sheet: dict
    cycle: list[dict]


def solo(ruleset: Ruleset, rng: random.Random, rounds: int = 12) -> tuple[Solo | None, str]:
    """The demo's first player seat alone in a fight, and what its rounds repeat: ``EndTurn``
    where the player can end the turn over and over; else the commands the demo's script sends
    in the lone combatant's first round (Novus: the declaration, its resolution, the end of the
    turn), checked to be taken again for ``rounds`` rounds. None and why when neither works."""
    seat = next(s for s in (ruleset.demo() or DemoFight).cast if s.controller == "player")
    end_turn = [{"type": "EndTurn", "combatant_id": "c0"}]
    refused = _refusal(ruleset, rng, seat.sheet, seat.side, end_turn, rounds)
    if refused is None:
        return Solo(seat.sheet, end_turn), ""
    cycle = _first_round(ruleset, rng, seat)
    if not cycle:
        return None, refused
    again = _refusal(ruleset, rng, seat.sheet, seat.side, cycle, rounds)
    return (Solo(seat.sheet, cycle), "") if again is None else (None, again)


def _seated(ruleset: Ruleset, rng: random.Random, sheet: dict, side: str) -> Fight:
    """A fight with its lone player combatant ``c0``, not yet started."""
    fight = Fight.open(rng, "solo", ruleset=ruleset)
    fight.send(AddCombatant(combatant_id="c0", name="Solo", side=side, controller="player", sheet=sheet))
    return fight


def _started(ruleset: Ruleset, rng: random.Random, sheet: dict, side: str) -> Fight:
    fight = _seated(ruleset, rng, sheet, side)
    fight.send(RollInitiative())
    fight.send(StartEncounter())
    return fight


def _refusal(ruleset: Ruleset, rng: random.Random, sheet: dict, side: str, cycle: list[dict],
             rounds: int) -> str | None:
    """Why ``cycle``, sent ``rounds`` times from the start, is refused or does not end a round
    each time; None when it does."""
    fight = _started(ruleset, rng, sheet, side)
    for _ in range(rounds):
        before = fight.state.round
        for body in cycle:
            try:
                fight.send(msgspec.convert(body, ruleset.command_type))
            except RuleViolation as refused:
                return f"{refused.code}: {refused}"
        if fight.state.round != before + 1:
            return f"{ruleset.id}: {[b['type'] for b in cycle]} did not end round {before}"
    return None


def _first_round(ruleset: Ruleset, rng: random.Random, seat: object, steps: int = 40) -> list[dict]:
    """The commands the demo's script has the lone combatant's table take in round 1 (the ones
    the rules took), once the fight has started."""
    demo = ruleset.demo()
    assert demo is not None
    fight = _seated(ruleset, rng, seat.sheet, seat.side)  # type: ignore[attr-defined]
    table = Table(ids={seat.name: "c0"}, players=frozenset({"c0"}), rounds=10**9)  # type: ignore[attr-defined]
    table.state = msgspec.to_builtins(ruleset.shown(fight.state))
    script = demo.play(table)
    taken: list[dict] = []
    answer: Refusal | None = None
    try:
        for _ in range(steps):
            step = script.send(answer)
            answer = None
            if isinstance(step, Aside):
                continue
            try:
                fight.send(msgspec.convert(step.command, ruleset.command_type))
            except RuleViolation as v:
                answer = Refusal(v.code, str(v)) if step.may_refuse else None
                continue
            table.state = msgspec.to_builtins(ruleset.shown(fight.state))
            if fight.state.status == "active" and step.command.get("type") not in ("RollInitiative", "StartEncounter"):
                taken.append(step.command)
            if fight.state.round >= 2:
                return taken
    except (StopIteration, Stuck):
        pass
    finally:
        script.close()
    return []
