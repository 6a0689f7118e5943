"""Presence: the live connections of each encounter, in PostgreSQL so every process sees them.

A process inserts a row when a live stream opens, refreshes ``seen_at`` for all of its open
streams with the heartbeats (one UPDATE per process), and deletes the row when the stream
closes. Rows of a process that died stop being refreshed: readers ignore rows older than
``ttl`` and the refresh deletes them. Opening and closing wake the encounter's readers (a
NOTIFY on the wake-up channel), so the GM sees a player arrive or leave at once.
What each role sees of it is ``projections.presence``; it never enters the event log.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import asyncpg
import msgspec

from projections.presence import Connected
from projections.wakeup import CHANNEL

_decode_connected = msgspec.json.Decoder(list[Connected])


class PresenceStore:
    def __init__(self, pool: asyncpg.Pool, ttl_seconds: float) -> None:
        self.pool = pool
        self.ttl = timedelta(seconds=ttl_seconds)

    async def add(self, connection_id: str, encounter_id: str, token_id: str, role: str,
                  combatant_ids: list[str], transport: str) -> None:
        await self.pool.execute(
            f"""WITH ins AS (
                    INSERT INTO live_connections (id, encounter_id, token_id, role, combatant_ids, transport)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    ON CONFLICT (id) DO UPDATE SET seen_at = now()
                )
                SELECT pg_notify('{CHANNEL}', $2::text)""",
            connection_id, encounter_id, token_id, role, combatant_ids, transport,
        )

    async def remove(self, connection_id: str, encounter_id: str) -> None:
        await self.pool.execute(
            f"""WITH del AS (DELETE FROM live_connections WHERE id = $1)
                SELECT pg_notify('{CHANNEL}', $2::text)""",
            connection_id, encounter_id,
        )

    async def refresh(self, connection_ids: list[str]) -> set[str]:
        """Mark this process's open streams as seen now, and forget the rows nobody refreshes.
        Returns the ids found (a row another process expired while this one stalled is not)."""
        rows = await self.pool.fetch(
            """WITH gone AS (
                   DELETE FROM live_connections
                   WHERE seen_at < now() - $2::interval AND id <> ALL($1::uuid[])
               )
               UPDATE live_connections SET seen_at = now() WHERE id = ANY($1::uuid[]) RETURNING id::text AS id""",
            connection_ids, self.ttl,
        )
        return {r["id"] for r in rows}

    async def list(self, encounter_id: str) -> list[Connected]:
        return _decode_connected.decode(await self.pool.fetchval(_LIST, encounter_id, self.ttl))

    async def list_and_valid(self, encounter_id: str, secret_hashes: list[bytes]) -> tuple[str, set[bytes]]:
        """The encounter's connections (their JSON: ``decode``), and which of ``secret_hashes``
        are still valid tokens, in one round trip: what a live feed asks before it has a state."""
        row = await self.pool.fetchrow(
            f"""SELECT ({_LIST_SQL}) AS presence,
                       ARRAY(SELECT secret_hash FROM tokens
                             WHERE secret_hash = ANY($3::bytea[]) AND revoked_at IS NULL) AS valid""",
            encounter_id, self.ttl, secret_hashes,
        )
        return row["presence"], {bytes(h) for h in row["valid"]}


    async def catch_up(self, encounter_id: str, secret_hashes: list[bytes], after: int, limit: int,
                       presence: bool = True) -> tuple[str | None, set[bytes], list[asyncpg.Record]]:
        """What a live feed asks on each wake-up, in one round trip and one snapshot: the events
        after version ``after`` (at most ``limit``, as ``EventStore.read`` gives them), the
        encounter's connections (their JSON, to be decoded when it changed; None unless
        ``presence``: building it for hundreds of connections on every commit was most of
        PostgreSQL's work under a live fight) and which of ``secret_hashes`` are still valid
        tokens. One snapshot holds any revocation that committed before an event it holds: a
        stream is never given an event its token was revoked before."""
        if presence:
            rows = await self.pool.fetch(_CATCH_UP, encounter_id, self.ttl, secret_hashes, after, limit)
        else:
            rows = await self.pool.fetch(_CATCH_UP_EVENTS, encounter_id, secret_hashes, after, limit)
        first = rows[0]
        return first["presence"], {bytes(h) for h in first["valid"]}, rows if first["version"] is not None else []

    @staticmethod
    def decode(presence: str) -> list[Connected]:
        return _decode_connected.decode(presence)


_LIST_SQL = """
    SELECT coalesce(json_agg(json_build_object(
               'connection_id', p.id, 'token_id', p.token_id, 'role', p.role,
               'combatant_ids', p.combatant_ids, 'label', coalesce(t.label, ''), 'transport', p.transport,
               'connected_at', p.connected_at
           ) ORDER BY p.connected_at, p.id), '[]')::text
    FROM live_connections p LEFT JOIN tokens t ON t.id = p.token_id
    WHERE p.encounter_id = $1 AND p.seen_at > now() - $2::interval
"""
_LIST = "SELECT " + "(" + _LIST_SQL + ")"


async def live_connections(connection: Any, encounter_id: str) -> list[Connected]:
    """The encounter's live connections, for the routes that show presence."""
    live = getattr(connection.app.state, "live", None)
    return [] if live is None else await live.presence.list(encounter_id)
_CATCH_UP = f"""
    SELECT p.presence, p.valid, e.version, e.event_id::text AS event_id, e.type, e.schema_version,
           e.data::text AS data, e.metadata::text AS metadata, e.recorded_at, e.hash
    FROM (SELECT ({_LIST_SQL}) AS presence,
                 ARRAY(SELECT secret_hash FROM tokens
                       WHERE secret_hash = ANY($3::bytea[]) AND revoked_at IS NULL) AS valid) p
    LEFT JOIN LATERAL (SELECT * FROM events WHERE encounter_id = $1 AND version > $4
                       ORDER BY version LIMIT $5) e ON true
    ORDER BY e.version
"""
_CATCH_UP_EVENTS = """
    SELECT NULL::text AS presence, p.valid, e.version, e.event_id::text AS event_id, e.type, e.schema_version,
           e.data::text AS data, e.metadata::text AS metadata, e.recorded_at, e.hash
    FROM (SELECT ARRAY(SELECT secret_hash FROM tokens
                       WHERE secret_hash = ANY($2::bytea[]) AND revoked_at IS NULL) AS valid) p
    LEFT JOIN LATERAL (SELECT * FROM events WHERE encounter_id = $1 AND version > $3
                       ORDER BY version LIMIT $4) e ON true
    ORDER BY e.version
"""
