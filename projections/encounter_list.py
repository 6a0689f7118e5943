"""The encounter list: one row per encounter, for listing, filtering and paging, and for the
encounter's summary.

A row: ruleset, name, status (``setup``, ``active``, ``ended``), round, how many combatants
everyone sees and how many only the GM sees (hidden, not yet revealed), the version read,
when it was opened, started and ended, and its last activity (its newest event).

Per batch: the rows of the encounters it touches are loaded in one query, folded in memory,
and written back in one statement. A retcon folds the encounter afresh from its history:
the status, round and combatants are what still stands; the version and the last activity
count every event (a retcon is activity too, and versions go on).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import asyncpg
import msgspec

from projections.event_log import LoggedEvent, Slice, by_encounter, effective_versions
from projections.rows import as_json
from projections.runner import Projection

NAME = "encounter_list"
LIVE = f"(SELECT generation FROM projection_checkpoints WHERE projection = '{NAME}' AND live)"
_COLUMNS = ("encounter_id::text AS encounter_id, ruleset, name, status, round, combatants, hidden_combatants, "
            "concealed::text AS concealed, version, created_at, started_at, ended_at, last_activity")


@dataclass(slots=True)
class Listed:
    encounter_id: str
    ruleset: str = ""
    name: str = ""
    status: str = "setup"
    round: int = 0
    combatants: int = 0
    hidden_combatants: int = 0
    concealed: list[str] = field(default_factory=list)  # hidden and present: only the GM sees them
    version: int = 0
    created_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    last_activity: datetime | None = None

    @classmethod
    def of(cls, r: asyncpg.Record) -> Listed:
        return cls(**{**dict(r), "concealed": msgspec.json.decode(r["concealed"])})


class _Added(msgspec.Struct):
    """What the list reads of a ``CombatantAdded`` (the rest of the payload is skipped)."""

    combatant_id: str
    hidden: bool = False


_added = msgspec.json.Decoder(_Added)


def fold(row: Listed, e: LoggedEvent, standing: bool = True) -> None:
    """Fold one event into the encounter's row. ``standing`` False: a retcon has undone it."""
    row.version = max(row.version, e.version)
    if row.last_activity is None or e.recorded_at > row.last_activity:
        row.last_activity = e.recorded_at
    if not standing:
        return
    match e.type:  # the payload is decoded only for the types that need it (``LoggedEvent.data``)
        case "EncounterOpened":
            d = e.data
            row.ruleset, row.name, row.status, row.created_at = d["ruleset"], d["name"], "setup", e.recorded_at
        case "CombatantAdded":
            added = e.typed(_Added, _added)  # not the whole sheet
            if added.hidden:
                row.concealed.append(added.combatant_id)
                row.hidden_combatants += 1
            else:
                row.combatants += 1
        case "CombatantRemoved":
            combatant = e.data["combatant_id"]
            if combatant in row.concealed:
                row.concealed.remove(combatant)
                row.hidden_combatants -= 1
            else:
                row.combatants -= 1
        case "CombatantRevealed":
            combatant = e.data["combatant_id"]
            if combatant in row.concealed:
                row.concealed.remove(combatant)
                row.hidden_combatants -= 1
                row.combatants += 1
        case "EncounterStarted":
            row.status, row.started_at = "active", e.recorded_at
        case "RoundStarted":
            row.round = e.data["round"]
        case "EncounterEnded":
            row.status, row.ended_at = "ended", e.recorded_at


def fold_slice(rows: dict[str, Listed], s: Slice) -> None:
    """Fold what a batch brings to one encounter into ``rows`` (a retcon: afresh)."""
    if s.history is not None:
        row = rows[s.encounter_id] = Listed(s.encounter_id)
        standing = s.standing
        for e in s.history:
            fold(row, e, e.version in standing)
    row = rows.setdefault(s.encounter_id, Listed(s.encounter_id))
    for e in s.events:
        fold(row, e)


def fold_all(events: Iterable[LoggedEvent]) -> dict[str, Listed]:
    """Every row, folded from a whole log in memory (what the tables must hold once caught up)."""
    rows: dict[str, Listed] = {}
    for enc, history in by_encounter(events).items():
        row = rows[enc] = Listed(enc)
        standing = effective_versions(history)
        for e in history:
            fold(row, e, e.version in standing)
    return rows


_LOAD = f"SELECT {_COLUMNS} FROM encounter_list WHERE generation = $1 AND encounter_id = ANY($2::uuid[])"
_UPSERT = """
INSERT INTO encounter_list (generation, encounter_id, ruleset, name, status, round, combatants, hidden_combatants,
                            concealed, version, created_at, started_at, ended_at, last_activity)
SELECT $1, x.encounter_id, x.ruleset, x.name, x.status, x.round, x.combatants, x.hidden_combatants,
       x.concealed, x.version, x.created_at, x.started_at, x.ended_at, x.last_activity
FROM json_to_recordset($2::json)
     AS x(encounter_id uuid, ruleset text, name text, status text, round int, combatants int, hidden_combatants int,
          concealed jsonb, version int, created_at timestamptz, started_at timestamptz, ended_at timestamptz,
          last_activity timestamptz)
ON CONFLICT (generation, encounter_id) DO UPDATE SET
    ruleset = excluded.ruleset, name = excluded.name, status = excluded.status, round = excluded.round,
    combatants = excluded.combatants, hidden_combatants = excluded.hidden_combatants,
    concealed = excluded.concealed, version = excluded.version, created_at = excluded.created_at,
    started_at = excluded.started_at, ended_at = excluded.ended_at, last_activity = excluded.last_activity
"""


class EncounterList(Projection):
    name = NAME
    tables = ("encounter_list",)
    payloads = frozenset({"EncounterOpened", "CombatantAdded", "CombatantRemoved", "CombatantRevealed", "RoundStarted"})

    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        touched = [s.encounter_id for s in batch]
        rows = {r["encounter_id"]: Listed.of(r) for r in await conn.fetch(_LOAD, generation, touched)}
        for s in batch:
            fold_slice(rows, s)
        # an event of an encounter whose opening was never read has nothing to list
        done = [r for r in rows.values() if r.created_at is not None and r.last_activity is not None]
        await conn.execute(_UPSERT, generation, as_json(done))


# ------------------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Filters:
    ruleset: str | None = None
    status: str | None = None
    name: str | None = None  # contained in the name, case-insensitively


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


async def page(pool: Any, filters: Filters, limit: int, offset: int) -> tuple[list[Listed], int]:
    """One page of the list, newest first, and how many rows match in all (one snapshot)."""
    rows = await pool.fetch(
        f"""SELECT {_COLUMNS}, count(*) OVER () AS total FROM encounter_list
            WHERE generation = {LIVE}
              AND ($1::text IS NULL OR ruleset = $1) AND ($2::text IS NULL OR status = $2)
              AND ($3::text IS NULL OR name ILIKE $3)
            ORDER BY created_at DESC, encounter_id LIMIT $4 OFFSET $5""",
        filters.ruleset, filters.status, _like(filters.name) if filters.name else None, limit, offset,
    )
    total = rows[0]["total"] if rows else 0
    if not rows and offset > 0:  # past the end: still say how many there are
        total = await pool.fetchval(
            f"""SELECT count(*) FROM encounter_list WHERE generation = {LIVE}
                AND ($1::text IS NULL OR ruleset = $1) AND ($2::text IS NULL OR status = $2)
                AND ($3::text IS NULL OR name ILIKE $3)""",
            filters.ruleset, filters.status, _like(filters.name) if filters.name else None,
        )
    return [Listed.of(_without(r, "total")) for r in rows], int(total)


async def one(conn: Any, encounter_id: str) -> Listed | None:
    r = await conn.fetchrow(f"SELECT {_COLUMNS} FROM encounter_list WHERE generation = {LIVE} AND encounter_id = $1",
                            encounter_id)
    return Listed.of(r) if r is not None else None


def _without(r: asyncpg.Record, key: str) -> dict[str, Any]:
    return {k: v for k, v in r.items() if k != key}
