"""Rebuild a projection from the log while the server keeps serving.

The read model is built again as a new generation beside the live one, in short batches
(``run_batch``: rows and checkpoint in one transaction each), while the live runner goes on
keeping the live generation. Once the new generation has caught up, one short transaction
takes the projection's batch lock (the live runner waits), reads the last few events into
the new generation, and makes it live. Readers take the live generation's rows in each
statement, so they see the old read model, then the new one, never a half-built one. The
old generation's rows are then deleted in small transactions (readers no longer look at them).
Given a second connection, the rebuild reads the next batch on it while it applies the
current one (``runner.ReadAhead``): PostgreSQL reads the log as the projection folds.

No transaction stays open for the whole rebuild: an open transaction that has written holds
back every reader of the log (they read below the oldest running transaction).

One rebuild of a projection at a time (a session advisory lock); a rebuild stopped half-way
leaves a generation that is not live, which the next rebuild deletes first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import asyncpg

from projections.event_log import Decoder
from projections.runner import (
    BATCH_LOCK,
    REBUILD_LOCK,
    Projection,
    ReadAhead,
    apply_batch,
    ensure_checkpoint,
    lock_key,
    run_batch,
)

DELETE_CHUNK = 20_000


class RebuildBusy(Exception):
    """Another rebuild of the same projection is running."""


@dataclass(frozen=True)
class Rebuilt:
    projection: str
    generation: int
    events: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


async def rebuild(conn: asyncpg.Connection, projection: Projection, *, batch_size: int = 5000,
                  decoder: Decoder | None = None, reader: asyncpg.Connection | None = None) -> Rebuilt:
    """Rebuild ``projection`` on ``conn`` (a connection of its own, outside any transaction).
    ``reader``: another connection of the same database, on which the next batch of the log is
    read while the current one is applied (``ReadAhead``); the swap reads on ``conn``."""
    decoder = decoder or Decoder()
    key = lock_key(projection.name)
    if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", REBUILD_LOCK, key):
        raise RebuildBusy(f"another rebuild of {projection.name} is running")
    try:
        await ensure_checkpoint(conn, projection)
        await _drop_generations(conn, projection, "NOT live")
        generation = await conn.fetchval(
            """INSERT INTO projection_checkpoints (projection, generation, live)
               SELECT $1, max(generation) + 1, false FROM projection_checkpoints WHERE projection = $1
               RETURNING generation""",
            projection.name,
        )
        started = time.perf_counter()
        events = 0
        ahead = ReadAhead(reader, decoder, batch_size, projection.payloads) if reader is not None else None
        try:
            while (n := await run_batch(conn, projection, decoder, batch_size, generation, ahead=ahead)) > 0:
                events += n
                if n < batch_size:
                    break
        finally:
            if ahead is not None:
                await ahead.aclose()
        async with conn.transaction():  # the swap: the last events, then the new generation is live
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", BATCH_LOCK, key)
            while (n := await apply_batch(conn, projection, decoder, batch_size, generation)) > 0:
                events += n
                if n < batch_size:
                    break
            await conn.execute("UPDATE projection_checkpoints SET live = false WHERE projection = $1 AND live",
                               projection.name)
            await conn.execute("UPDATE projection_checkpoints SET live = true WHERE projection = $1 AND generation = $2",
                               projection.name, generation)
        seconds = time.perf_counter() - started
        await _drop_generations(conn, projection, "NOT live")
        return Rebuilt(projection.name, generation, events, seconds)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", REBUILD_LOCK, key)


async def _drop_generations(conn: asyncpg.Connection, projection: Projection, which: str) -> None:
    """Delete the rows and checkpoints of the generations ``which`` selects, a chunk at a time."""
    generations = [r["generation"] for r in await conn.fetch(
        f"SELECT generation FROM projection_checkpoints WHERE projection = $1 AND {which}", projection.name)]
    if not generations:
        return
    for table in projection.tables:
        while (await conn.execute(
            f"""DELETE FROM {table} WHERE ctid = ANY(ARRAY(
                    SELECT ctid FROM {table} WHERE generation = ANY($1::int[]) LIMIT {DELETE_CHUNK}))""",
            generations,
        )) != "DELETE 0":
            pass
    await conn.execute("DELETE FROM projection_checkpoints WHERE projection = $1 AND generation = ANY($2::int[])",
                       projection.name, generations)
