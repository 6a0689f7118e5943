"""Per-combatant statistics: attacks made and landed, Hits dealt and taken, defences tried and
won, Action Points spent, rolls and their outcome classes.

What counts (Places of Power's events; any ruleset whose events carry the same fields):

- an attack is made when it is declared (``AttackDeclared``, a spell's attack too), and lands
  when its exchange ends with the blow reaching a target (``ExchangeEnded`` ``hit``,
  ``tanked``, ``shielded`` or ``pulled``); a Riposte is the defender's Hit, not an attack;
- Hits are the damage of ``HitsTaken``, dealt by the other side of the exchange (a Riposte
  deals them to the attacker, a Human Shield takes them for the defender), and the Hits a
  status (Bleeding, Burning) deals, taken from no one;
- a defence is tried with each ``DefenceRolled`` and won when it succeeds;
- Action Points spent: the cost every action event carries (``action_points`` of an attack,
  a defence, an action, a spell, a grapple ...), paid by its actor;
- rolls: every roll judged into an outcome class (an attack, a check, healing, a spell, a
  taunt, disengaging, a status check, treating an injury), counted by class.

Counts are kept per pair (combatant, opponent): an attack is the attacker's against the
defender, a Hit the taker's from the dealer, an action with no one else ``''``. A reader
that may not see a hidden combatant leaves out every pair that names it: it learns nothing
of what the hidden combatant did or had done to it, not even through a visible one's sums.
A retcon folds the encounter afresh from its history: what was undone no longer counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import msgspec

from projections.event_log import LoggedEvent, Slice, by_encounter, effective_versions
from projections.rows import as_json
from projections.runner import Projection

NAME = "combatant_statistics"
LIVE = f"(SELECT generation FROM projection_checkpoints WHERE projection = '{NAME}' AND live)"

COUNTS = ("attacks_made", "attacks_landed", "hits_dealt", "hits_taken", "defences_tried", "defences_won",
          "action_points_spent", "rolls")
OUTCOME = "outcome:"  # rolls by outcome class: "outcome:Full Success"
LANDED = frozenset({"hit", "tanked", "shielded", "pulled"})  # ExchangeEnded results where the blow reached a target
NOT_SPENT = frozenset({"CombatantAdded", "TurnEnded", "RoundStarted"})  # their action_points are a balance, not a cost
ACTOR_FIELDS = ("healer", "caster", "attacker", "combatant_id", "controller")
OPPONENT_FIELDS = ("target", "patient", "defender", "held", "holder", "combatant_id")
NO_ROLL = frozenset({"AttackRolled", "CheckOutcomeChanged"})  # counted with their attack / not a roll

Key = tuple[str, str]  # (encounter id, combatant id or attack id as text)


def actor_of(type_name: str, data: dict[str, Any]) -> str | None:
    """Who acts in an event: the defender of a defence, else its healer, caster, attacker ..."""
    if type_name == "DefenceRolled":
        return data.get("defender")
    for f in ACTOR_FIELDS:
        v = data.get(f)
        if isinstance(v, str) and v:
            return v
    return None


def opponent_of(data: dict[str, Any], actor: str, attack: tuple[str, str] | None) -> str:
    """Who the actor acts on: the other side of the exchange, else the target, patient ..."""
    if attack is not None:
        attacker, defender = attack
        return defender if actor == attacker else attacker if actor == defender else ""
    for f in OPPONENT_FIELDS:
        v = data.get(f)
        if isinstance(v, str) and v and v != actor:
            return v
    return ""


def counts_of(e: LoggedEvent, attack: tuple[str, str] | None) -> list[tuple[str, str, str, int]]:
    """What one event adds: (combatant, opponent, stat, amount). ``attack``: (attacker,
    defender) of the exchange the event belongs to, if it belongs to one."""
    d, t = e.data, e.type
    out: list[tuple[str, str, str, int]] = []
    match t:
        case "AttackDeclared":
            out.append((d["attacker"], d["defender"], "attacks_made", 1))
        case "AttackRolled" if attack is not None:
            out += [(attack[0], attack[1], "rolls", 1), (attack[0], attack[1], OUTCOME + d["outcome"], 1)]
        case "ExchangeEnded" if attack is not None and d.get("result") in LANDED:
            out.append((attack[0], attack[1], "attacks_landed", 1))
        case "DefenceRolled":
            them = attack[0] if attack is not None else ""
            out.append((d["defender"], them, "defences_tried", 1))
            if d.get("success"):
                out.append((d["defender"], them, "defences_won", 1))
        case "HitsTaken":
            taker, damage = d["combatant_id"], d["damage"]
            dealer = "" if attack is None else attack[1] if taker == attack[0] else attack[0]
            out.append((taker, dealer, "hits_taken", damage))
            if dealer:
                out.append((dealer, taker, "hits_dealt", damage))
        case "StatusRolled" if d.get("hits"):
            out.append((d["combatant_id"], "", "hits_taken", d["hits"]))
    ap, outcome = d.get("action_points"), d.get("outcome")
    spent = type(ap) is int and ap > 0 and t not in NOT_SPENT
    rolled = isinstance(outcome, str) and outcome and t not in NO_ROLL
    if spent or rolled:
        who = actor_of(t, d)
        if who is not None:
            them = opponent_of(d, who, attack)
            if spent:
                out.append((who, them, "action_points_spent", ap))
            if rolled:
                out += [(who, them, "rolls", 1), (who, them, OUTCOME + str(outcome), 1)]
    return [c for c in out if c[3]]


@dataclass(slots=True)
class Member:
    seq: int
    name: str
    side: str
    controller: str
    removed: bool = False


@dataclass
class Tally:
    """What a batch adds, folded in memory before it is written in a few statements."""

    attacks: dict[Key, tuple[str, str]] = field(default_factory=dict)  # known: loaded and new
    new_attacks: dict[Key, tuple[str, str]] = field(default_factory=dict)
    counts: dict[tuple[str, str, str, str], int] = field(default_factory=lambda: defaultdict(int))
    members: dict[Key, Member] = field(default_factory=dict)  # joined (or rejoined) in the batch
    removed: set[Key] = field(default_factory=set)  # left, having joined before the batch
    versions: dict[str, int] = field(default_factory=dict)

    def fold(self, e: LoggedEvent) -> None:
        """Fold one event (its encounter's version is the caller's to keep: ``seen``)."""
        enc, d = e.encounter_id, e.data
        attack = None
        if "attack_id" in d and d["attack_id"] is not None:
            key = (enc, str(d["attack_id"]))
            if e.type == "AttackDeclared":
                self.attacks[key] = self.new_attacks[key] = (d["attacker"], d["defender"])
            attack = self.attacks.get(key)
        match e.type:
            case "CombatantAdded":
                key = (enc, d["combatant_id"])
                self.members[key] = Member(d.get("seq", 0), d["name"], d["side"], d["controller"])
                self.removed.discard(key)
            case "CombatantRemoved":
                key = (enc, d["combatant_id"])
                if key in self.members:
                    self.members[key].removed = True
                else:
                    self.removed.add(key)
        counts = self.counts
        for cid, opponent, stat, amount in counts_of(e, attack):
            counts[(enc, cid, opponent, stat)] += amount

    def seen(self, events: Sequence[LoggedEvent]) -> None:
        """The encounter has been read up to the last of ``events`` (one encounter's, in order)."""
        if events:
            enc = events[-1].encounter_id
            self.versions[enc] = max(self.versions.get(enc, 0), events[-1].version)

    def fold_history(self, history: Sequence[LoggedEvent]) -> None:
        """One encounter's events from its opening: only what still stands counts."""
        standing = effective_versions(history)
        for e in history:
            if e.version in standing:
                self.fold(e)
        self.seen(history)

    def fold_slice(self, s: Slice) -> None:
        if s.history is not None:
            self.fold_history(s.history)
        for e in s.events:
            self.fold(e)
        self.seen(s.events)


def fold_all(events: Iterable[LoggedEvent]) -> Tally:
    """A whole log folded in memory (what the tables must hold once caught up)."""
    tally = Tally()
    for history in by_encounter(events).values():
        tally.fold_history(history)
    return tally


_TABLES = ("combatant_statistics", "combatant_statistics_combatants", "combatant_statistics_attacks",
           "combatant_statistics_encounters")
_KNOWN_ATTACKS = """
SELECT a.encounter_id::text AS encounter_id, a.attack_id, a.attacker, a.defender
FROM (SELECT (j->>0)::uuid AS encounter_id, (j->>1)::int AS attack_id FROM json_array_elements($2::json) j) x
JOIN combatant_statistics_attacks a
  ON a.generation = $1 AND a.encounter_id = x.encounter_id AND a.attack_id = x.attack_id
"""
_ADD_ATTACKS = """
INSERT INTO combatant_statistics_attacks (generation, encounter_id, attack_id, attacker, defender)
SELECT $1, (j->>0)::uuid, (j->>1)::int, j->>2, j->>3 FROM json_array_elements($2::json) j
ON CONFLICT (generation, encounter_id, attack_id) DO UPDATE SET attacker = excluded.attacker, defender = excluded.defender
"""
_REMOVE = """
UPDATE combatant_statistics_combatants c SET removed = true
FROM (SELECT (j->>0)::uuid AS encounter_id, j->>1 AS combatant_id FROM json_array_elements($2::json) j) x
WHERE c.generation = $1 AND c.encounter_id = x.encounter_id AND c.combatant_id = x.combatant_id
"""
_JOIN = """
INSERT INTO combatant_statistics_combatants (generation, encounter_id, combatant_id, seq, name, side, controller, removed)
SELECT $1, (j->>0)::uuid, j->>1, (j->>2)::int, j->>3, j->>4, j->>5, (j->>6)::bool FROM json_array_elements($2::json) j
ON CONFLICT (generation, encounter_id, combatant_id) DO UPDATE SET
    seq = excluded.seq, name = excluded.name, side = excluded.side, controller = excluded.controller,
    removed = excluded.removed
"""
_ADD_COUNTS = """
INSERT INTO combatant_statistics (generation, encounter_id, combatant_id, opponent_id, stat, value)
SELECT $1, (j->>0)::uuid, j->>1, j->>2, j->>3, (j->>4)::bigint FROM json_array_elements($2::json) j
ON CONFLICT (generation, encounter_id, combatant_id, opponent_id, stat)
DO UPDATE SET value = combatant_statistics.value + excluded.value
"""
_VERSIONS = """
INSERT INTO combatant_statistics_encounters (generation, encounter_id, version)
SELECT $1, (j->>0)::uuid, (j->>1)::int FROM json_array_elements($2::json) j
ON CONFLICT (generation, encounter_id) DO UPDATE SET version = greatest(combatant_statistics_encounters.version,
                                                                        excluded.version)
"""


class CombatantStatistics(Projection):
    name = NAME
    tables = _TABLES

    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        tally = Tally()
        afresh = [s.encounter_id for s in batch if s.history is not None]
        for table in _TABLES if afresh else ():
            await conn.execute(f"DELETE FROM {table} WHERE generation = $1 AND encounter_id = ANY($2::uuid[])",
                               generation, afresh)
        wanted = {(s.encounter_id, e.data["attack_id"]) for s in batch if s.history is None for e in s.events
                  if e.type != "AttackDeclared" and isinstance(e.data.get("attack_id"), int)}
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
