"""Per-combatant statistics: attacks made and landed, Hits dealt and taken, defences tried and
won, Action Points spent, rolls and their outcome classes.

What an event counts is its ruleset's to say (``Ruleset.tally``, domain/core/tally.py): the
encounter's ``EncounterOpened`` names the ruleset, each event is read as that ruleset's
type, and the projection adds up the tallies it gets, reading no payload itself. An event
that is a step of an attack exchange (``Ruleset.exchange``) is tallied knowing both sides
of it: the exchange's sides are kept (``combatant_statistics_attacks``) for later batches.
A ruleset this server does not know, or an event its ruleset cannot read, counts nothing.

Counts are kept per pair (combatant, opponent): an attack is the attacker's against the
defender, a Hit the taker's from the dealer, an action with no one else ``''``. A reader
that may not see a hidden combatant leaves out every pair that names it: it learns nothing
of what the hidden combatant did or had done to it, not even through a visible one's sums.
A retcon folds the encounter afresh from its history: what was undone no longer counts.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import msgspec

from domain.core.encounter import (
    LIFECYCLE_EVENTS,
    CombatantAdded,
    CombatantRemoved,
    Controller,
    EncounterOpened,
    Event,
)
from domain.core.ruleset import Registry, Ruleset
from domain.core.tally import OUTCOME, STATISTICS, Exchange
from projections.event_log import LoggedEvent, Slice, by_encounter, effective_versions
from projections.rows import as_json
from projections.runner import Projection

log = logging.getLogger("fracas.projections")

NAME = "combatant_statistics"
LIVE = f"(SELECT generation FROM projection_checkpoints WHERE projection = '{NAME}' AND live)"

COUNTS = STATISTICS

Key = tuple[str, str]  # (encounter id, combatant id or attack id as text)
# By tag: the type an event is read as, its JSON decoder, and whether its ruleset may count it.
Kinds = dict[str, tuple[type[Any], msgspec.json.Decoder[Any], bool]]
Read = tuple[Ruleset | None, Any, bool]  # an event's ruleset, the event as read (None: not), counted
# By ruleset class (None: the lifecycle's): the event types read, by tag, each with a JSON decoder of its own.
_TYPES: dict[type[Ruleset] | None, Kinds] = {}
_OPENED = msgspec.json.Decoder(EncounterOpened)
_MEMBERSHIP = (CombatantAdded, CombatantRemoved)


class Joined(msgspec.Struct):
    """What the statistics read of a ``CombatantAdded`` (its sheet is skipped, not decoded)."""

    combatant_id: str
    name: str
    side: str
    controller: Controller
    seq: int = 0


def _types_of(ruleset: Ruleset | None) -> Kinds:
    """The event types an encounter's events are read as, by tag, with their decoders: those
    its ruleset counts (``Ruleset.counted_events``, and their subclasses) and those that add and
    remove combatants; an event of any other type counts nothing and is not decoded at all.
    Decoding to the one type is many times faster than to the union (msgspec keeps the type's
    plan), and straight from the stored JSON no dict is built on the way."""
    key = type(ruleset) if ruleset is not None else None
    found = _TYPES.get(key)
    if found is None:
        counted = ruleset.counted_events() if ruleset is not None else frozenset()
        kinds = ruleset.event_types if ruleset is not None else LIFECYCLE_EVENTS
        read = (*_MEMBERSHIP, *counted) if counted is not None else (Event,)
        counts = (Event,) if counted is None else tuple(counted)
        found = {t.__struct_config__.tag: (t, msgspec.json.Decoder(t), ruleset is not None and issubclass(t, counts))
                 for t in kinds if issubclass(t, read)}
        if not issubclass(CombatantAdded, counts):
            found["CombatantAdded"] = (Joined, msgspec.json.Decoder(Joined), False)  # its sheet is not read
        _TYPES[key] = found
    return found


def counted_payloads(registry: Registry) -> frozenset[str] | None:
    """The event types whose payloads the statistics read, over every ruleset of ``registry``
    (None: every type's: a ruleset that does not say what it counts)."""
    out = {"EncounterOpened"}
    for ruleset in registry.all():
        if ruleset.counted_events() is None:
            return None
        out.update(_types_of(ruleset))
    return frozenset(out | set(_types_of(None)))


def _registry() -> Registry:
    from domain.rulesets import default_registry  # the rulesets this server offers

    return default_registry()


@dataclass(slots=True)
class Member:
    seq: int
    name: str
    side: str
    controller: str
    removed: bool = False


@dataclass
class Tally:
    """What a batch adds, folded in memory before it is written in a few statements.

    ``rulesets``: each encounter's ruleset id, as its ``EncounterOpened`` names it (the
    caller fills in those whose opening the batch does not hold)."""

    registry: Registry = field(default_factory=_registry)
    rulesets: dict[str, str] = field(default_factory=dict)
    attacks: dict[Key, tuple[str, str]] = field(default_factory=dict)  # known: loaded and new
    new_attacks: dict[Key, tuple[str, str]] = field(default_factory=dict)
    counts: dict[tuple[str, str, str, str], int] = field(default_factory=lambda: defaultdict(int))
    members: dict[Key, Member] = field(default_factory=dict)  # joined (or rejoined) in the batch
    removed: set[Key] = field(default_factory=set)  # left, having joined before the batch
    versions: dict[str, int] = field(default_factory=dict)
    # the events of a slice read ahead by ``steps_before``, by encounter (a batch has one slice each)
    _read: dict[str, list[Read]] = field(default_factory=dict)
    # each encounter's ruleset and its event types, looked up once a batch (an opening: again)
    _games: dict[str, tuple[Ruleset | None, Kinds]] = field(default_factory=dict)

    def ruleset_of(self, encounter_id: str) -> Ruleset | None:
        rid = self.rulesets.get(encounter_id)
        return self.registry.get(rid) if rid is not None and rid in self.registry else None

    def read(self, enc: str, events: Iterable[LoggedEvent]) -> list[Read]:
        """One encounter's events, in order, as its ruleset's types, with what each is to the
        statistics; those of a type not read, or that cannot be read, are left out (they count
        nothing)."""
        out: list[Read] = []
        game = self._games.get(enc)
        for e in events:
            if e.type == "EncounterOpened":
                self._games.pop(enc, None)
                game = None
                try:
                    self.rulesets[enc] = e.typed(EncounterOpened, _OPENED).ruleset
                except msgspec.ValidationError:
                    pass
            if game is None:
                ruleset = self.ruleset_of(enc)
                game = self._games[enc] = ruleset, _types_of(ruleset)
            kind = game[1].get(e.type)
            if kind is None:
                continue
            try:
                out.append((game[0], e.typed(kind[0], kind[1]), kind[2]))
            except msgspec.ValidationError as exc:
                if game[0] is not None:
                    log.warning("%s: event %s of encounter %s cannot be read as %s's (%s); it counts nothing",
                                NAME, e.version, enc, game[0].id, exc)
        return out

    def fold(self, enc: str, events: Iterable[Read]) -> None:
        """Fold one encounter's events, as ``read`` gives them (its version is ``seen``'s to keep)."""
        counts, members = self.counts, self.members
        for ruleset, event, counted in events:
            if isinstance(event, (Joined, CombatantAdded)):
                key = (enc, event.combatant_id)
                members[key] = Member(event.seq, event.name, event.side, event.controller)
                self.removed.discard(key)
            elif isinstance(event, CombatantRemoved):
                key = (enc, event.combatant_id)
                if key in members:
                    members[key].removed = True
                else:
                    self.removed.add(key)
            if not counted or ruleset is None:
                continue
            attack = None
            step = ruleset.exchange(event)
            if step is not None:
                key = (enc, str(step.id))
                if step.opens is not None:
                    self.attacks[key] = self.new_attacks[key] = (step.opens.attacker, step.opens.defender)
                sides = self.attacks.get(key)
                attack = Exchange(step.id, *sides) if sides is not None else None
            for t in ruleset.tally(event, attack):
                if t.amount:
                    counts[(enc, t.combatant, t.opponent, t.statistic)] += t.amount

    def steps_before(self, s: Slice) -> set[tuple[str, int]]:
        """The exchanges the slice's events are steps of but do not open: their sides are
        an earlier batch's (reads the events with their ruleset, kept for ``fold_slice``)."""
        out = set()
        self._read[s.encounter_id] = read = self.read(s.encounter_id, s.events)
        for ruleset, event, counted in read:
            step = ruleset.exchange(event) if counted and ruleset is not None else None
            if step is not None and step.opens is None:
                out.add((s.encounter_id, step.id))
        return out

    def seen(self, events: Sequence[LoggedEvent]) -> None:
        """The encounter has been read up to the last of ``events`` (one encounter's, in order)."""
        if events:
            enc = events[-1].encounter_id
            self.versions[enc] = max(self.versions.get(enc, 0), events[-1].version)

    def fold_history(self, history: Sequence[LoggedEvent]) -> None:
        """One encounter's events from its opening: only what still stands counts."""
        if history:
            standing = effective_versions(history)
            enc = history[0].encounter_id
            self.fold(enc, self.read(enc, (e for e in history if e.version in standing)))
        self.seen(history)

    def fold_slice(self, s: Slice) -> None:
        if s.history is not None:
            self.fold_history(s.history)
        read = self._read.pop(s.encounter_id, None)
        self.fold(s.encounter_id, read if read is not None else self.read(s.encounter_id, s.events))
        self.seen(s.events)


def fold_all(events: Iterable[LoggedEvent], registry: Registry | None = None) -> Tally:
    """A whole log folded in memory (what the tables must hold once caught up)."""
    tally = Tally(registry or _registry())
    for history in by_encounter(events).values():
        tally.fold_history(history)
    return tally


_TABLES = ("combatant_statistics", "combatant_statistics_combatants", "combatant_statistics_attacks",
           "combatant_statistics_encounters")
_KNOWN_ATTACKS = """
SELECT a.encounter_id::text AS encounter_id, a.attack_id, a.attacker, a.defender
FROM (SELECT (j->>0)::uuid AS encounter_id, (j->>1)::int AS attack_id FROM jsonb_array_elements($2::jsonb) j) x
JOIN combatant_statistics_attacks a
  ON a.generation = $1 AND a.encounter_id = x.encounter_id AND a.attack_id = x.attack_id
"""
_ADD_ATTACKS = """
INSERT INTO combatant_statistics_attacks (generation, encounter_id, attack_id, attacker, defender)
SELECT $1, (j->>0)::uuid, (j->>1)::int, j->>2, j->>3 FROM jsonb_array_elements($2::jsonb) j
ON CONFLICT (generation, encounter_id, attack_id) DO UPDATE SET attacker = excluded.attacker, defender = excluded.defender
"""
_REMOVE = """
UPDATE combatant_statistics_combatants c SET removed = true
FROM (SELECT (j->>0)::uuid AS encounter_id, j->>1 AS combatant_id FROM jsonb_array_elements($2::jsonb) j) x
WHERE c.generation = $1 AND c.encounter_id = x.encounter_id AND c.combatant_id = x.combatant_id
"""
_JOIN = """
INSERT INTO combatant_statistics_combatants (generation, encounter_id, combatant_id, seq, name, side, controller, removed)
SELECT $1, (j->>0)::uuid, j->>1, (j->>2)::int, j->>3, j->>4, j->>5, (j->>6)::bool FROM jsonb_array_elements($2::jsonb) j
ON CONFLICT (generation, encounter_id, combatant_id) DO UPDATE SET
    seq = excluded.seq, name = excluded.name, side = excluded.side, controller = excluded.controller,
    removed = excluded.removed
"""
_ADD_COUNTS = """
INSERT INTO combatant_statistics (generation, encounter_id, combatant_id, opponent_id, stat, value)
SELECT $1, (j->>0)::uuid, j->>1, j->>2, j->>3, (j->>4)::bigint FROM jsonb_array_elements($2::jsonb) j
ON CONFLICT (generation, encounter_id, combatant_id, opponent_id, stat)
DO UPDATE SET value = combatant_statistics.value + excluded.value
"""
_VERSIONS = """
INSERT INTO combatant_statistics_encounters (generation, encounter_id, version)
SELECT $1, (j->>0)::uuid, (j->>1)::int FROM jsonb_array_elements($2::jsonb) j
ON CONFLICT (generation, encounter_id) DO UPDATE SET version = greatest(combatant_statistics_encounters.version,
                                                                        excluded.version)
"""


_OPENINGS = """
SELECT encounter_id::text, data->>'ruleset' FROM events WHERE version = 1 AND encounter_id = ANY($1::uuid[])
"""


class CombatantStatistics(Projection):
    name = NAME
    tables = _TABLES

    def __init__(self, registry: Registry | None = None) -> None:
        self.registry = registry or _registry()
        self.payloads = counted_payloads(self.registry)  # a rebuild reads only these

    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        tally = Tally(self.registry)
        afresh = [s.encounter_id for s in batch if s.history is not None]
        for table in _TABLES if afresh else ():
            await conn.execute(f"DELETE FROM {table} WHERE generation = $1 AND encounter_id = ANY($2::uuid[])",
                               generation, afresh)
        unopened = [s.encounter_id for s in batch if s.history is None and s.events[:1]
                    and s.events[0].type != "EncounterOpened"]
        if unopened:  # the encounter's opening names its ruleset
            tally.rulesets.update(dict(await conn.fetch(_OPENINGS, unopened)))
        wanted = {step for s in batch if s.history is None for step in tally.steps_before(s)}
        if wanted:
            for r in await conn.fetch(_KNOWN_ATTACKS, generation, as_json(list(wanted))):
                tally.attacks[(r["encounter_id"], str(r["attack_id"]))] = (r["attacker"], r["defender"])
        for s in batch:
            tally.fold_slice(s)
        await write(conn, generation, tally)


async def write(conn: asyncpg.Connection, generation: int, tally: Tally) -> None:
    """A tally into ``generation``'s rows: a handful of statements, whatever its size."""
    if tally.new_attacks:
        keys = list(tally.new_attacks)
        await conn.execute(_ADD_ATTACKS, generation,
                           as_json([(k[0], int(k[1]), *tally.new_attacks[k]) for k in keys]))
    if tally.removed:
        gone = list(tally.removed)
        await conn.execute(_REMOVE, generation, as_json([(k[0], k[1]) for k in gone]))
    if tally.members:
        keys = list(tally.members)
        ms = [tally.members[k] for k in keys]
        await conn.execute(_JOIN, generation, as_json([
            (k[0], k[1], m.seq, m.name, m.side, m.controller, m.removed) for k, m in zip(keys, ms, strict=True)
        ]))
    if tally.counts:
        keys = sorted(tally.counts)  # in key order: the index is walked once
        await conn.execute(_ADD_COUNTS, generation, as_json([(*k, tally.counts[k]) for k in keys]))
    if tally.versions:
        await conn.execute(_VERSIONS, generation, as_json(list(tally.versions.items())))


# ------------------------------------------------------------------------------ reading


class Totals(msgspec.Struct, kw_only=True):
    """Counts of a combatant (or a side, or a whole encounter). ``outcomes``: rolls by outcome class."""

    attacks_made: int = 0
    attacks_landed: int = 0
    hits_dealt: int = 0
    hits_taken: int = 0
    defences_tried: int = 0
    defences_won: int = 0
    action_points_spent: int = 0
    rolls: int = 0
    outcomes: dict[str, int] = msgspec.field(default_factory=dict)

    def add(self, stat: str, value: int) -> None:
        if stat.startswith(OUTCOME):
            self.outcomes[stat[len(OUTCOME):]] = self.outcomes.get(stat[len(OUTCOME):], 0) + value
        elif stat in COUNTS:
            setattr(self, stat, getattr(self, stat) + value)

    def merge(self, other: Totals) -> None:
        for stat in COUNTS:
            self.add(stat, getattr(other, stat))
        for outcome, n in other.outcomes.items():
            self.add(OUTCOME + outcome, n)


class CombatantTotals(Totals, kw_only=True):
    """One combatant's statistics; ``removed``: it has left the fight (its counts stay)."""

    combatant_id: str
    name: str
    side: str
    controller: str
    removed: bool = False


@dataclass(frozen=True)
class Statistics:
    """An encounter's statistics as one reader may see them (one snapshot)."""

    version: int  # the encounter's version the statistics have read up to (0: none yet)
    combatants: list[CombatantTotals]


async def statistics(pool: Any, encounter_id: str, hidden: frozenset[str]) -> Statistics:
    """The statistics of the combatants a reader sees, leaving out every count that involves
    one of ``hidden``: for a player or spectator, the hidden combatants (the GM: none)."""
    unseen = sorted(hidden)
    async with pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        members = await conn.fetch(
            f"""SELECT combatant_id, name, side, controller, removed FROM combatant_statistics_combatants
                WHERE generation = {LIVE} AND encounter_id = $1 AND NOT (combatant_id = ANY($2::text[]))
                ORDER BY seq, combatant_id""",
            encounter_id, unseen,
        )
        sums = await conn.fetch(
            f"""SELECT combatant_id, stat, sum(value)::bigint AS value FROM combatant_statistics
                WHERE generation = {LIVE} AND encounter_id = $1
                  AND NOT (combatant_id = ANY($2::text[])) AND NOT (opponent_id = ANY($2::text[]))
                GROUP BY combatant_id, stat""",
            encounter_id, unseen,
        )
        version = await conn.fetchval(
            f"SELECT version FROM combatant_statistics_encounters WHERE generation = {LIVE} AND encounter_id = $1",
            encounter_id,
        )
    out = {m["combatant_id"]: CombatantTotals(combatant_id=m["combatant_id"], name=m["name"], side=m["side"],
                                              controller=m["controller"], removed=m["removed"]) for m in members}
    for s in sums:
        if s["combatant_id"] in out:
            out[s["combatant_id"]].add(s["stat"], int(s["value"]))
    return Statistics(version=version or 0, combatants=list(out.values()))


def totals(combatants: Iterable[Totals]) -> Totals:
    out = Totals()
    for c in combatants:
        out.merge(c)
    return out


def by_side(combatants: Iterable[CombatantTotals]) -> dict[str, Totals]:
    sides: dict[str, list[CombatantTotals]] = defaultdict(list)
    for c in combatants:
        sides[c.side].append(c)
    return {side: totals(members) for side, members in sides.items()}
