"""The projection runner: follows the event log in commit order and keeps the read models.

Each projection has a checkpoint: the last event it read, as (transaction id, global
position). A batch is read after the checkpoint, below the oldest running transaction
(``projections/event_log.py``), applied, and the checkpoint advanced, in ONE transaction: a runner
stopped anywhere (killed, its connection lost, an error) leaves the rows and the checkpoint
of the last committed batch, and the next run goes on from there; no event is applied twice
or skipped.

One runner per server process, on a dedicated connection. With several processes, only one
runs a given projection at a time: it holds a session advisory lock for it (lost with its
connection, so another process takes over); the others stand by and try again as they
poll. Every batch also takes the projection's transaction-level batch lock, which a
rebuild takes to make its new generation live (``projections/rebuild.py``).

It wakes on LISTEN/NOTIFY (a waiter of ``projections/wakeup.py``) and polls anyway: a
notification can be lost, and a transaction that ends without committing sends none. On a
lost connection (or any error) it logs, waits (doubling up to a bound) and starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import asyncpg

from projections.event_log import (
    Decoder,
    LoggedEvent,
    Payloads,
    Slice,
    read_batch,
    slices,
)

if TYPE_CHECKING:
    from projections.wakeup import Wakeup

log = logging.getLogger("fracas.projections")

# Advisory lock classes (two-key advisory locks; the second key is the projection's).
LEADER_LOCK = 0x50524A4C  # "PRJL": the process that runs a projection (session)
BATCH_LOCK = 0x50524A42  # "PRJB": one batch, or the swap of a rebuilt generation (transaction)
REBUILD_LOCK = 0x50524A52  # "PRJR": one rebuild at a time (session)


class Projection(ABC):
    """A read model: tables of rows kept from the events, by generation."""

    name: ClassVar[str]
    # Its tables; each has a ``generation`` column (a rebuild drops the old generation's rows).
    tables: ClassVar[tuple[str, ...]]

    # The event types whose payloads it reads (None: every type's): a rebuild reads only these
    # (the live runner reads every payload, as the projections at one checkpoint share a batch).
    payloads: ClassVar[Payloads] = None

    @abstractmethod
    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        """Apply a batch (by encounter) to the rows of ``generation``, in the caller's transaction.
        A slice with a ``history`` replaces the encounter's rows with the history folded afresh."""


def lock_key(name: str) -> int:
    """A projection's advisory lock key: a stable 32-bit number from its name."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big", signed=True)


_ENSURE_LIVE = """
INSERT INTO projection_checkpoints (projection, generation, live)
SELECT $1, 1, true WHERE NOT EXISTS (SELECT 1 FROM projection_checkpoints WHERE projection = $1)
ON CONFLICT DO NOTHING
"""
_CHECKPOINT = """
SELECT generation, transaction_id, global_position FROM projection_checkpoints
WHERE projection = $1 AND (CASE WHEN $2::int IS NULL THEN live ELSE generation = $2 END)
"""
_ADVANCE = """
UPDATE projection_checkpoints
SET transaction_id = $3, global_position = $4, events = events + $5, updated_at = now()
WHERE projection = $1 AND generation = $2
"""


async def ensure_checkpoint(conn: asyncpg.Connection, projection: Projection) -> None:
    """A projection seen for the first time starts live, at generation 1, before the first event."""
    await conn.execute(_ENSURE_LIVE, projection.name)


# Batches read in one pass of the runner, by the checkpoint they were read after: the events
# after a checkpoint and below the oldest running transaction never change, and what a later
# read would add comes after them, so a projection at the same checkpoint may apply the same
# batch (read in another projection's transaction) and neither reads nor decodes it again.
Batch = tuple[list[LoggedEvent], list[Slice]]
Batches = dict[tuple[int, int], Batch]


class ReadAhead:
    """Reads the batch after the one being applied on a connection of its own (a rebuild's), so
    that PostgreSQL reads the log while the projection folds and writes the current batch. The
    log after an event and below the oldest running transaction never changes, and a later read
    only adds after it: the batch read ahead is the one a read on the applying connection would
    start with."""

    def __init__(self, conn: asyncpg.Connection, decoder: Decoder, limit: int, types: Payloads) -> None:
        self.conn, self.decoder, self.limit, self.types = conn, decoder, limit, types
        self._next: tuple[tuple[int, int], asyncio.Task[Batch]] | None = None

    async def _read(self, after: tuple[int, int]) -> Batch:
        events = await read_batch(self.conn, self.decoder, after, self.limit, self.types)
        return events, (await slices(self.conn, self.decoder, events, self.types) if events else [])

    async def start(self, after: tuple[int, int]) -> None:
        """Begin reading the batch after ``after``."""
        await self.aclose()
        self._next = after, asyncio.create_task(self._read(after))

    async def take(self, after: tuple[int, int]) -> Batch | None:
        """The batch after ``after`` if it is the one being read ahead (else None)."""
        if self._next is None or self._next[0] != after:
            await self.aclose()
            return None
        task = self._next[1]
        self._next = None
        return await task

    async def aclose(self) -> None:
        """Cancel a read still under way and wait for it (its connection is free again)."""
        if self._next is not None:
            task = self._next[1]
            self._next = None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def run_batch(conn: asyncpg.Connection, projection: Projection, decoder: Decoder, limit: int,
                    generation: int | None = None, read: Batches | None = None,
                    ahead: ReadAhead | None = None) -> int:
    """Read, apply and checkpoint one batch in one transaction; returns how many events it read.

    ``generation`` None: the live generation, under the projection's batch lock. Else that
    generation (a rebuild's, which the live runner does not touch). ``read``: batches already
    read in this pass (see ``Batches``); the one this projection reads is added. ``ahead``: the
    batch may have been read ahead there, and a full batch starts the read of the next."""
    async with conn.transaction():
        return await apply_batch(conn, projection, decoder, limit, generation, read, ahead)


async def apply_batch(conn: asyncpg.Connection, projection: Projection, decoder: Decoder, limit: int,
                      generation: int | None = None, read: Batches | None = None,
                      ahead: ReadAhead | None = None) -> int:
    """``run_batch`` within the caller's transaction."""
    if generation is None:
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", BATCH_LOCK, lock_key(projection.name))
    cp = await conn.fetchrow(_CHECKPOINT, projection.name, generation)
    if cp is None:
        raise LookupError(f"projection {projection.name} has no checkpoint for generation {generation or 'live'}")
    after = (cp["transaction_id"], cp["global_position"])
    batch = read.get(after) if read is not None else None
    if batch is None and ahead is not None:
        batch = await ahead.take(after)
    if batch is None:
        types = projection.payloads if read is None else None  # a batch to share carries every payload
        events = await read_batch(conn, decoder, after, limit, types)
        batch = events, (await slices(conn, decoder, events, types) if events else [])
        if read is not None:
            read[after] = batch
    events = batch[0]
    if not events:
        return 0
    last = events[-1]
    if ahead is not None and len(events) >= limit:
        await ahead.start((last.transaction_id, last.global_position))
    await projection.apply(conn, cp["generation"], batch[1])
    await conn.execute(_ADVANCE, projection.name, cp["generation"], last.transaction_id, last.global_position,
                       len(events))
    return len(events)


class ProjectionRunner:
    """Keeps ``projections`` up to date in the background of a server process."""

    def __init__(
        self,
        dsn: str,
        projections: Sequence[Projection],
        *,
        wakeup: Wakeup | None = None,
        batch_size: int = 1000,
        poll_seconds: float = 1.0,
        retry_seconds: float = 0.2,
        max_retry_seconds: float = 5.0,
        connect_timeout: float = 5.0,
        decoder: Decoder | None = None,
        settle_seconds: float = 0.1,
        pause_wakeup: bool = False,
    ) -> None:
        self.dsn = dsn
        self.projections = list(projections)
        self.wakeup = wakeup
        self.batch_size = batch_size
        self.poll_seconds = poll_seconds
        self.retry_seconds = retry_seconds
        self.max_retry_seconds = max_retry_seconds
        self.connect_timeout = connect_timeout
        self.settle_seconds = settle_seconds
        # the wake-up is this runner's alone (the projector process): it stops listening while it
        # settles after a wake-up, and listens again before the batch that reads what came meanwhile
        self.pause_wakeup = pause_wakeup
        self.decoder = decoder or Decoder()
        self.leading: set[str] = set()  # the projections this process runs now
        self.connections = 0  # how many times the connection was made (tests watch reconnects)
        self.server_pid: int | None = None  # the runner's backend
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="fracas-projections")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        # Cancelled again until it ends: on Python 3.11 ``asyncio.wait_for`` (the waiter's) can
        # swallow a cancellation that comes as a wake-up does; the flag ends the loop then.
        while not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=0.5)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        waiter_cm = self.wakeup.waiter(None) if self.wakeup is not None else contextlib.nullcontext()
        with waiter_cm as waiter:  # made once: a wake-up during a reconnection is not lost
            delay = self.retry_seconds
            while True:
                conn: asyncpg.Connection | None = None
                try:
                    try:
                        conn = await asyncpg.connect(self.dsn, timeout=self.connect_timeout)
                    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as e:
                        raise ConnectionError(f"cannot connect: {e}") from e
                    self.connections += 1
                    self.server_pid = conn.get_server_pid()
                    for p in self.projections:
                        await ensure_checkpoint(conn, p)
                    while not self._stopping:
                        more = await self._pass(conn)
                        delay = self.retry_seconds
                        if not more:
                            await self._wait(waiter)
                    await conn.close()
                    return
                except asyncio.CancelledError:
                    if conn is not None and not conn.is_closed():
                        conn.terminate()  # at once: a batch in flight is rolled back by the server
                    raise
                except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                        asyncpg.OperatorInterventionError, asyncpg.InternalClientError,
                        TimeoutError) as e:  # shutdown (mid-statement, too), crash, starting up
                    log.warning("projection runner: connection lost (%s); again in %.1fs", e, delay)
                except Exception:
                    log.exception("projection runner: a batch failed; again in %.1fs", delay)
                self.leading.clear()
                self.server_pid = None
                if conn is not None and not conn.is_closed():
                    conn.terminate()  # its session locks go with it
                if self._stopping:
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_retry_seconds)

    async def _pass(self, conn: asyncpg.Connection) -> bool:
        """One batch of each projection this process leads (taking the lead where it is free);
        True when some projection read a full batch (there is more to read at once)."""
        more = False
        read: Batches = {}  # a batch read for one projection serves the others at its checkpoint
        for p in self.projections:
            if p.name not in self.leading:
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LEADER_LOCK, lock_key(p.name)):
                    continue  # another process runs it: stand by
                self.leading.add(p.name)
                log.info("projection runner: running %s", p.name)
            count = await run_batch(conn, p, self.decoder, self.batch_size, read=read)
            more = more or count >= self.batch_size
        return more

    async def _wait(self, waiter: object) -> None:
        woken = False
        if waiter is None:
            await asyncio.sleep(self.poll_seconds)
        else:
            woken = await waiter.wait(self.poll_seconds)  # type: ignore[attr-defined]
        paused = woken and self.pause_wakeup and self.wakeup is not None
        if paused:
            await self.wakeup.pause()  # type: ignore[union-attr]
        # Let the commits of the next moment gather: a batch costs about a dozen statements
        # whether it carries one command's events or a thousand, so under a steady trickle of
        # commands one batch per commit would cost more than the commands themselves. The read
        # models are then at most this much later.
        await asyncio.sleep(self.settle_seconds)
        if paused:
            await self.wakeup.resume()  # type: ignore[union-attr]  # before the batch reads
