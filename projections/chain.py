"""The per-encounter hash chain: what each stored event's ``hash`` covers.

``hash = SHA-256(previous hash || canonical bytes)``, with 32 zero bytes before an
encounter's first event. The canonical bytes of an event are the JSON array
``[encounter_id, version, event_id, type, schema_version, data, metadata, recorded_at]``
where ``data`` and ``metadata`` are compact JSON with sorted keys (msgspec's encoding)
and ``recorded_at`` is ISO 8601 in UTC (Python's ``isoformat``).

PostgreSQL's ``jsonb`` gives the payloads back spelled its own way (spaces, its own key
order), so whoever checks a stored event first brings its JSON back to the canonical
spelling (``canonical_json``). Pure: the writer (server/store/events.py), the audit endpoint and
``fracas verify`` (which runs with no database) all use this one definition.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import msgspec

GENESIS_HASH = bytes(32)
encode_sorted = msgspec.json.Encoder(order="sorted").encode


@dataclass(frozen=True)
class StoredRow:
    """One event as stored, ``data`` and ``metadata`` in their canonical spelling."""

    version: int
    event_id: str
    type: str
    schema_version: int
    data: bytes
    metadata: bytes
    recorded_at: datetime
    hash: bytes


def canonical_json(text: str | bytes) -> bytes:
    """Any spelling of a JSON value (jsonb's, an exported file's) as the chain hashes it."""
    return encode_sorted(msgspec.json.decode(text))


def canonical_bytes(encounter_id: str, row: StoredRow) -> bytes:
    return _canonical(
        _json(encounter_id), row.version, row.event_id, _json(row.type), row.schema_version, row.data,
        row.metadata, _json(timestamp(row.recorded_at)),
    )


_json = msgspec.json.encode


def _canonical(
    encounter_json: bytes, version: int, event_id: str, type_json: bytes, schema_version: int,
    data: bytes, metadata: bytes, recorded_json: bytes,
) -> bytes:
    """The canonical bytes from their parts, the strings already JSON: the one spelling of them.
    An event id is a UUID's text, which JSON writes as it is, quoted."""
    return b"[%s,%d,\"%s\",%s,%d,%s,%s,%s]" % (
        encounter_json, version, event_id.encode(), type_json, schema_version, data, metadata, recorded_json,
    )


def timestamp(recorded_at: datetime) -> str:
    """``recorded_at`` as the chain spells it (and export files carry it)."""
    return recorded_at.astimezone(UTC).isoformat()


def next_hash(prev_hash: bytes, encounter_id: str, row: StoredRow) -> bytes:
    """The hash ``row`` must carry when it follows an event whose hash is ``prev_hash``."""
    return hashlib.sha256(prev_hash + canonical_bytes(encounter_id, row)).digest()


def link(encounter_id: str, rows: Sequence[StoredRow], prev_hash: bytes = GENESIS_HASH) -> list[StoredRow]:
    """The rows with their hashes computed over their contents (whatever hashes they had)."""
    out = []
    for r in rows:
        prev_hash = next_hash(prev_hash, encounter_id, r)
        out.append(replace(r, hash=prev_hash))
    return out


def link_new(
    encounter_id: str, prev_hash: bytes, first_version: int,
    events: Sequence[tuple[str, str, int, bytes]], metadata: bytes, recorded_at: datetime,
) -> list[StoredRow]:
    """New rows, versions from ``first_version``, chained after ``prev_hash``: each event as
    (event id, type, schema version, canonical data). What ``link`` computes, without building
    each row twice or encoding the encounter, the metadata and the time once per event."""
    head = _json(encounter_id)
    recorded = _json(timestamp(recorded_at))
    rows = []
    h = prev_hash
    for i, (event_id, type_name, schema_version, data) in enumerate(events):
        version = first_version + i
        h = hashlib.sha256(h + _canonical(head, version, event_id, _json(type_name), schema_version, data,
                                          metadata, recorded)).digest()
        rows.append(StoredRow(version, event_id, type_name, schema_version, data, metadata, recorded_at, h))
    return rows


def row_from(record: Mapping[str, Any]) -> StoredRow:
    """A stored row as the database gives it (``EventStore.read``), payloads made canonical."""
    return StoredRow(
        version=record["version"], event_id=str(record["event_id"]), type=record["type"],
        schema_version=record["schema_version"], data=canonical_json(record["data"]),
        metadata=canonical_json(record["metadata"]), recorded_at=record["recorded_at"], hash=bytes(record["hash"]),
    )
