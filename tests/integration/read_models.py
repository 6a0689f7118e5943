"""Helpers for the read-model tests: wait for the projections, read their live rows, and fold a
whole log in memory into the rows the tables must then hold."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import msgspec

from projections import combatant_statistics, encounter_list
from projections.catalog import all_projections
from projections.event_log import Decoder, LoggedEvent, read_batch

Rows = dict[str, list[tuple[Any, ...]]]

# Each table's columns but the generation, and its key (the order rows are compared in).
TABLES = {
    "encounter_list": ("encounter_id::text, ruleset, name, status, round, combatants, hidden_combatants, "
                       "concealed::text, version, created_at, started_at, ended_at, last_activity", "encounter_id"),
    "combatant_statistics": ("encounter_id::text, combatant_id, opponent_id, stat, value",
                             "encounter_id, combatant_id, opponent_id, stat"),
    "combatant_statistics_combatants": ("encounter_id::text, combatant_id, seq, name, side, controller, removed",
                                        "encounter_id, combatant_id"),
    "combatant_statistics_attacks": ("encounter_id::text, attack_id, attacker, defender", "encounter_id, attack_id"),
    "combatant_statistics_encounters": ("encounter_id::text, version", "encounter_id"),
}
OWNER = {t: p.name for p in all_projections() for t in p.tables}

# The last event a reader of the log may read now, in commit order.
_HEAD = """SELECT transaction_id, global_position FROM events
           WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
           ORDER BY transaction_id DESC, global_position DESC LIMIT 1"""


async def checkpoint(conn: Any, name: str) -> tuple[int, int] | None:
    r = await conn.fetchrow("SELECT transaction_id, global_position FROM projection_checkpoints "
                            "WHERE projection = $1 AND live", name)
    return (r["transaction_id"], r["global_position"]) if r else None


async def caught_up(conn: Any, names: list[str] | None = None, timeout: float = 20.0) -> None:
    """Wait until every projection's checkpoint has reached the head of the readable log."""
    names = names or [p.name for p in all_projections()]
    deadline = time.monotonic() + timeout
    while True:
        head = await conn.fetchrow(_HEAD)
        target = (head["transaction_id"], head["global_position"]) if head else (0, 0)
        reached = [await checkpoint(conn, n) or (-1, -1) for n in names]
        if all(r >= target for r in reached):
            return
        assert time.monotonic() < deadline, f"the projections did not catch up with {target}"
        await asyncio.sleep(0.02)


async def live_rows(conn: Any) -> Rows:
    """Every table's rows of its projection's live generation, without the generation, in key order."""
    out: Rows = {}
    for table, (columns, key) in TABLES.items():
        rows = await conn.fetch(
            f"""SELECT {columns} FROM {table} WHERE generation =
                (SELECT generation FROM projection_checkpoints WHERE projection = $1 AND live) ORDER BY {key}""",
            OWNER[table],
        )
        out[table] = sorted(tuple(_normal(table, c, v) for c, v in r.items()) for r in rows)
    return out


def _normal(table: str, column: str, value: Any) -> Any:
    return msgspec.json.decode(value) if (table, column) == ("encounter_list", "concealed") else value


async def whole_log(conn: Any) -> list[LoggedEvent]:
    """Every event of the log, in commit order (all committed: call it once writers are done)."""
    return await read_batch(conn, Decoder(), (0, 0), 10_000_000)


def folded_rows(events: list[LoggedEvent]) -> Rows:
    """The rows a whole log folds into, in memory, shaped like ``live_rows``."""
    listed = encounter_list.fold_all(events)
    tally = combatant_statistics.fold_all(events)
    return {
        "encounter_list": sorted(
            (r.encounter_id, r.ruleset, r.name, r.status, r.round, r.combatants, r.hidden_combatants, r.concealed,
             r.version, r.created_at, r.started_at, r.ended_at, r.last_activity) for r in listed.values()),
        "combatant_statistics": sorted((*k, v) for k, v in tally.counts.items() if v),
        "combatant_statistics_combatants": sorted(
            (k[0], k[1], m.seq, m.name, m.side, m.controller, m.removed) for k, m in tally.members.items()),
        "combatant_statistics_attacks": sorted((k[0], int(k[1]), *v) for k, v in tally.new_attacks.items()),
        "combatant_statistics_encounters": sorted(tally.versions.items()),
    }


async def until_projected(client: httpx.AsyncClient, enc: str, headers: dict[str, str] | None = None,
                          timeout: float = 20.0) -> dict[str, Any]:
    """Poll an encounter's summary until both its read models have read its current version."""
    deadline = time.monotonic() + timeout
    while True:
        r = await client.get(f"/encounters/{enc}/summary", headers=headers)
        assert r.status_code == 200, r.text
        s = r.json()
        if s["projected_version"] == s["statistics_version"] == s["version"]:
            return dict(s)
        assert time.monotonic() < deadline, f"the read models did not catch up: {s}"
        await asyncio.sleep(0.02)


async def until_listed(client: httpx.AsyncClient, ids: list[str], timeout: float = 20.0, **params: Any
                       ) -> None:
    """Poll the encounter list until it holds every one of ``ids``."""
    deadline = time.monotonic() + timeout
    while True:
        r = await client.get("/encounters", params={"limit": 500, **params})
        assert r.status_code == 200, r.text
        if set(ids) <= {e["id"] for e in r.json()["encounters"]}:
            return
        assert time.monotonic() < deadline, "the encounter list did not catch up"
        await asyncio.sleep(0.02)
