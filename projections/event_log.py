"""The global event log as projections read it: in commit order, never past a slow transaction.

"Readers that follow the global log (projections, live streams) order by
``(transaction_id, global_position)`` and read only below
``pg_snapshot_xmin(pg_current_snapshot())``, so a slow transaction's event is never
skipped" (DESIGN.md). Positions are handed out when a row is inserted, not when its
transaction commits: a transaction that inserted early and commits late holds a lower
position than events already committed after it. Every transaction below the snapshot's
xmin has finished, so what is below it can no longer change; and an encounter's versions
come in commit order (each append reads the version before it, committed).

Payloads are read as plain JSON values, upcast to the current shape of their event type
(``domain/core/upcasting.py``) by the encounter's ruleset.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import asyncpg
import msgspec

from domain.core.ruleset import Registry
from domain.rulesets import default_registry

RETCONNED = "Retconned"
T = TypeVar("T")

# $1 of the query after these: the event types whose payloads are read (NULL: every type's);
# a projection that folds a few types spares the server writing out and sending the rest.
_COLUMNS = """e.global_position, e.transaction_id, e.encounter_id::text AS encounter_id, e.version, e.type,
              e.schema_version, CASE WHEN $1::text[] IS NULL OR e.type = ANY($1::text[]) THEN e.data::text END AS data,
              e.recorded_at, r.ruleset"""

# The next batch after the checkpoint ($2, $3), in commit order, below the oldest running transaction.
READ_BATCH = f"""
SELECT {_COLUMNS}
FROM events e LEFT JOIN encounters r ON r.id = e.encounter_id
WHERE (e.transaction_id, e.global_position) > ($2::xid8, $3::bigint)
  AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY e.transaction_id, e.global_position
LIMIT $4
"""

# The histories of encounters ($2) up to a version each ($3), oldest first.
READ_HISTORIES = f"""
SELECT {_COLUMNS}
FROM unnest($2::uuid[], $3::int[]) AS cut(encounter_id, version)
JOIN events e ON e.encounter_id = cut.encounter_id AND e.version <= cut.version
LEFT JOIN encounters r ON r.id = e.encounter_id
ORDER BY e.encounter_id, e.version
"""


class LoggedEvent(msgspec.Struct):
    """One event of the log: where it stands, and its payload as stored (``raw``, JSON text).

    ``data``, the payload as plain JSON values (upcast), is decoded when first asked for: a
    projection reads the payloads of the few event types it folds, or decodes ``raw`` straight
    into an event type (``typed``), and the rest are never decoded at all."""

    global_position: int
    transaction_id: int
    encounter_id: str
    version: int
    type: str
    raw: str | None  # None: not read (a type the reader said it does not fold)
    recorded_at: datetime
    schema_version: int = 1
    ruleset: str | None = None  # the encounter's, as the encounters table names it (upcasting)
    decoded: dict[str, Any] | None = None
    decoder: Decoder | None = None

    @property
    def data(self) -> dict[str, Any]:
        d = self.decoded
        if d is None:
            if self.raw is None:
                raise LookupError(f"the payload of {self.type} was not read (not among the types asked for)")
            d = self.decoded = (self.decoder or _plain()).payload(self.ruleset, self.type, self.schema_version,
                                                                  self.raw)
        return d

    def typed(self, kind: type[T], decoder: msgspec.json.Decoder[T]) -> T:
        """The payload as ``kind`` (``decoder`` decodes JSON to it): straight from ``raw`` when it
        needs no upcasting and is not decoded yet (no dict on the way), else from ``data``."""
        if self.decoded is None and self.raw is not None \
                and self.schema_version >= (self.decoder or _plain()).current(self.ruleset, self.type):
            return decoder.decode(self.raw)
        return msgspec.convert(self.data, kind)


class Decoder:
    """Turns stored rows into ``LoggedEvent``s, upcasting old payloads by their ruleset."""

    def __init__(self, registry: Registry | None = None) -> None:
        self.registry = registry or default_registry()
        self._decode = msgspec.json.Decoder(dict[str, Any]).decode
        # each ruleset's current payload version of the event types whose shape has changed
        self._current = {r.id: r.schema_versions for r in self.registry.all()}

    def current(self, ruleset: str | None, type_name: str) -> int:
        """The schema version ``ruleset`` writes ``type_name`` at now (older payloads are upcast)."""
        return self._current.get(ruleset or "", {}).get(type_name, 1)

    def payload(self, ruleset: str | None, type_name: str, schema_version: int, data: str) -> dict[str, Any]:
        payload = self._decode(data)
        current = self._current.get(ruleset or "")
        if current is None or schema_version >= current.get(type_name, 1):
            return payload
        upcasters = self.registry.get(ruleset or "").upcasters
        while schema_version < current[type_name]:
            payload = upcasters[(type_name, schema_version)](payload)
            schema_version += 1
        return payload

    def events(self, rows: Iterable[asyncpg.Record]) -> list[LoggedEvent]:
        """Rows of ``_COLUMNS``, in its order; payloads left undecoded (``LoggedEvent.data``)."""
        return [LoggedEvent(r[0], r[1], r[2], r[3], r[4], r[6], r[7], r[5], r[8], None, self) for r in rows]


@functools.cache
def _plain() -> Decoder:
    """The decoder of an event made without one (the default registry's upcasting)."""
    return Decoder()


# The event types whose payloads a reader uses (None: every type's); a retcon's always (``slices``).
Payloads = frozenset[str] | None


def _asked(types: Payloads) -> list[str] | None:
    return None if types is None else sorted(types | {RETCONNED})


async def read_batch(conn: asyncpg.Connection, decoder: Decoder, after: tuple[int, int], limit: int,
                     types: Payloads = None) -> list[LoggedEvent]:
    """Up to ``limit`` events after ``after`` (transaction id, global position), in commit order;
    the payloads of ``types`` only (None: all)."""
    return decoder.events(await conn.fetch(READ_BATCH, _asked(types), after[0], after[1], limit))


async def read_histories(conn: asyncpg.Connection, decoder: Decoder, cuts: dict[str, int],
                         types: Payloads = None) -> dict[str, list[LoggedEvent]]:
    """Each encounter's events from its opening up to its version in ``cuts`` (payloads: ``types``)."""
    if not cuts:
        return {}
    rows = await conn.fetch(READ_HISTORIES, _asked(types), list(cuts), list(cuts.values()))
    out: dict[str, list[LoggedEvent]] = defaultdict(list)
    for e in decoder.events(rows):
        out[e.encounter_id].append(e)
    return out


def by_encounter(events: Iterable[LoggedEvent]) -> dict[str, list[LoggedEvent]]:
    """The events of each encounter, in order (commit order is version order within one)."""
    out: dict[str, list[LoggedEvent]] = defaultdict(list)
    for e in events:
        out[e.encounter_id].append(e)
    return out


def retcon_cuts(events: Iterable[LoggedEvent]) -> dict[str, int]:
    """For each encounter with a ``Retconned`` event among ``events``: the version of its last one."""
    return {e.encounter_id: e.version for e in events if e.type == RETCONNED}


def effective_versions(history: Sequence[LoggedEvent]) -> set[int]:
    """The versions of ``history`` (one encounter's, from its opening) that still stand.

    A ``Retconned`` event goes back to the state at its ``to_version``: the events that
    stood then stand again, and those after it are undone. It mirrors ``Ruleset.replay``,
    which keeps the state of each version a retcon goes back to: a retcon may go back to
    a version that an earlier retcon had undone, and then what stood at that version stands.
    """
    targets = {e.data.get("to_version") for e in history if e.type == RETCONNED}
    kept: dict[int, list[int]] = {}
    standing: list[int] = []
    for e in history:
        if e.type == RETCONNED:
            standing = list(kept.get(e.data["to_version"], []))
        else:
            standing.append(e.version)
        if e.version in targets:
            kept[e.version] = list(standing)
    return set(standing)


@dataclass
class Slice:
    """What a batch brings to one encounter: with a retcon among it, the ``history`` up to the
    last retcon (to fold afresh, the encounter's rows dropped first), then the ``events`` after."""

    encounter_id: str
    events: list[LoggedEvent]
    history: list[LoggedEvent] | None = None

    @property
    def standing(self) -> set[int]:
        return effective_versions(self.history or [])


async def slices(conn: asyncpg.Connection, decoder: Decoder, batch: Sequence[LoggedEvent],
                 types: Payloads = None) -> list[Slice]:
    """The batch by encounter. An encounter whose events include a retcon is read afresh from
    its opening up to the last retcon: a retcon undoes what came before, which only the whole
    history tells (with the payloads of ``types``, as the batch was read)."""
    cuts = retcon_cuts(batch)
    histories = await read_histories(conn, decoder, cuts, types)
    out = []
    for enc, events in by_encounter(batch).items():
        if enc in cuts:
            out.append(Slice(enc, [e for e in events if e.version > cuts[enc]], histories.get(enc, [])))
        else:
            out.append(Slice(enc, events))
    return out
