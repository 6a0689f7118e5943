"""The event store: append with an expected version in one round trip, read back in order.

Tamper evidence: each event's ``hash`` is SHA-256 over the previous event's hash of the
same encounter (32 zero bytes before the first) followed by the event's canonical
bytes: the JSON array ``[encounter_id, version, event_id, type, schema_version, data,
metadata, recorded_at]`` where ``data`` and ``metadata`` are JSON with sorted keys and
``recorded_at`` is ISO 8601 in UTC. The definition lives in ``projections/chain.py``
(pure), shared with the audit and ``fracas verify``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg

# GENESIS_HASH, StoredRow and canonical_bytes are re-exported: the chain has one definition
from projections.chain import GENESIS_HASH, StoredRow, canonical_bytes, encode_sorted, next_hash  # noqa: F401

_encode_sorted = encode_sorted


class VersionConflict(Exception):
    """Another command appended to the encounter first."""


class UnstorableText(Exception):
    """PostgreSQL refused a string: text and jsonb cannot hold NUL (U+0000)."""


_UNSTORABLE = (asyncpg.UntranslatableCharacterError, asyncpg.CharacterNotInRepertoireError)


class TokenRevoked(Exception):
    """The token that sent the command was revoked (or re-issued) before it could append."""


class IdempotencyConflict(Exception):
    """Another request with the same Idempotency-Key committed first."""


@dataclass(frozen=True)
class Idempotency:
    scope: str
    key: str
    request_hash: bytes
    status: int
    response: bytes


def new_uuid() -> str:
    """A random (version 4) UUID as text; about twice as fast as ``str(uuid.uuid4())``."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def chain(
    encounter_id: str,
    prev_hash: bytes,
    first_version: int,
    events: Sequence[Any],
    metadata: dict[str, Any],
    schema_versions: dict[str, int] | None = None,
) -> list[StoredRow]:
    """Turn events into stored rows with versions, ids and the hash chain."""
    now = datetime.now(UTC)
    meta = _encode_sorted(metadata)
    rows = []
    h = prev_hash
    for i, event in enumerate(events):
        type_name = type(event).__struct_config__.tag
        partial = StoredRow(
            version=first_version + i,
            event_id=new_uuid(),
            type=type_name,
            schema_version=(schema_versions or {}).get(type_name, 1),
            data=_encode_sorted(event),
            metadata=meta,
            recorded_at=now,
            hash=b"",
        )
        h = next_hash(h, encounter_id, partial)
        rows.append(
            StoredRow(
                partial.version, partial.event_id, partial.type, partial.schema_version,
                partial.data, partial.metadata, partial.recorded_at, h,
            )
        )
    return rows


_INSERT_EVENTS = """
ins AS (
    INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, recorded_at, hash)
    SELECT $1::uuid, v, e, t, s, d::jsonb, m::jsonb, r, h
    FROM unnest($2::int[], $3::uuid[], $4::text[], $5::int2[], $6::text[], $7::text[], $8::timestamptz[], $9::bytea[])
        AS x(v, e, t, s, d, m, r, h)
    WHERE {guard}
    RETURNING 1
), idem AS (
    INSERT INTO idempotency_keys (scope, key, request_hash, status, response)
    SELECT $10::text, $11::text, $12::bytea, $13::int2, $14::bytea
    WHERE $11::text IS NOT NULL AND {guard}
    RETURNING 1
)
SELECT (SELECT count(*) FROM ins) AS appended
"""

# A command's events, appended only while the token that sent it is valid ($15: its hash).
_APPEND = "WITH " + _INSERT_EVENTS.format(
    guard="EXISTS (SELECT 1 FROM tokens WHERE secret_hash = $15 AND revoked_at IS NULL)"
)

# A new encounter: its registry row, its GM token and its first event, in one statement.
_OPEN = """
WITH enc AS (
    INSERT INTO encounters (id, ruleset, name, seed) VALUES ($1::uuid, $15, $16, $17)
    RETURNING 1
), gm AS (
    INSERT INTO tokens (id, encounter_id, role, label, secret_hash)
    SELECT $18::uuid, $1::uuid, 'gm', 'GM', $19 FROM enc
    RETURNING 1
), """ + _INSERT_EVENTS.format(guard="true")


def _args(encounter_id: str, rows: Sequence[StoredRow], idem: Idempotency | None) -> list[Any]:
    return [
        encounter_id,
        [r.version for r in rows],
        [r.event_id for r in rows],
        [r.type for r in rows],
        [r.schema_version for r in rows],
        [r.data.decode() for r in rows],
        [r.metadata.decode() for r in rows],
        [r.recorded_at for r in rows],
        [r.hash for r in rows],
        idem.scope if idem else None,
        idem.key if idem else None,
        idem.request_hash if idem else None,
        idem.status if idem else None,
        idem.response if idem else None,
    ]


class EventStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def append(
        self, encounter_id: str, rows: Sequence[StoredRow], token_hash: bytes, idem: Idempotency | None = None
    ) -> None:
        """Append all rows in one statement, if the sender's token is still valid.

        Raises VersionConflict, IdempotencyConflict or TokenRevoked.
        """
        try:
            appended = await self.pool.fetchval(_APPEND, *_args(encounter_id, rows, idem), token_hash)
            if appended == 0:
                raise TokenRevoked()
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc
        except _UNSTORABLE as exc:
            raise UnstorableText(str(exc)) from exc

    async def open(
        self, encounter_id: str, ruleset: str, name: str, seed: bytes, gm_token: tuple[str, bytes],
        rows: Sequence[StoredRow], idem: Idempotency | None = None,
    ) -> None:
        """Register the encounter, its GM token (id, secret hash) and its first events at once."""
        try:
            await self.pool.fetchval(_OPEN, *_args(encounter_id, rows, idem), ruleset, name, seed, *gm_token)
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc
        except _UNSTORABLE as exc:
            raise UnstorableText(str(exc)) from exc

    async def encounter(self, encounter_id: str) -> asyncpg.Record | None:
        return await self.pool.fetchrow("SELECT id, ruleset, name, seed FROM encounters WHERE id = $1", encounter_id)

    async def read(self, encounter_id: str, after: int, limit: int | None = None) -> list[asyncpg.Record]:
        return await self.pool.fetch(
            """SELECT version, event_id::text AS event_id, type, schema_version, data::text AS data,
                      metadata::text AS metadata, recorded_at, hash
               FROM events WHERE encounter_id = $1 AND version > $2
               ORDER BY version LIMIT $3""",
            encounter_id, after, limit,
        )

    async def stored_response(self, scope: str, key: str) -> asyncpg.Record | None:
        return await self.pool.fetchrow(
            "SELECT request_hash, status, response FROM idempotency_keys WHERE scope = $1 AND key = $2",
            scope, key,
        )


def _conflict(exc: asyncpg.UniqueViolationError) -> Exception:
    constraint = getattr(exc, "constraint_name", "") or ""
    if constraint.startswith("idempotency_keys"):
        return IdempotencyConflict(str(exc))
    return VersionConflict(str(exc))
