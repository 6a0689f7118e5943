"""Wake-ups when events are committed, from PostgreSQL LISTEN/NOTIFY.

"LISTEN/NOTIFY is only a wake-up; a dedicated connection, reconnected on loss, never a pooled
one" (DESIGN.md). The trigger in migrations/0004_wakeup.sql notifies channel ``fracas_events``
with the ids of the encounters a statement wrote. A ``Wakeup`` holds one dedicated connection
per process, reconnects when it is lost, and wakes the in-process waiters: those waiting for
one encounter, and those waiting for any. A notification can be lost while the connection is
down, so every reconnection wakes every waiter, and waiters time out and poll anyway: a
wake-up only makes a reader look sooner, it never tells it what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Iterator
from typing import Any

import asyncpg

CHANNEL = "fracas_events"
log = logging.getLogger("fracas.wakeup")


class Waiter:
    """One reader's wake-up flag. ``wait`` returns True when woken, False on timeout.

    A wake-up known to be only new events (a commit's notification: its payload ends with a
    comma) leaves ``more`` unset; any other (who is connected changed, a token was revoked, a
    reconnection, another writer's trigger) sets it, until ``take_more``: a live feed reads
    who is connected only then (and each heartbeat)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._more = True

    def wake(self, events_only: bool = False) -> None:
        if not events_only:
            self._more = True
        self._event.set()

    def take_more(self) -> bool:
        """Whether a wake-up since the last call was about more than new events."""
        more, self._more = self._more, False
        return more

    async def wait(self, timeout: float) -> bool:
        # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation that
        # arrives as the event is set, and a reader being stopped would never stop.
        try:
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            return False
        finally:
            self._event.clear()
        return True


class Wakeup:
    def __init__(self, dsn: str, *, channel: str = CHANNEL, retry_seconds: float = 0.5,
                 max_retry_seconds: float = 2.0, timeout_seconds: float = 5.0) -> None:
        self.dsn = dsn
        self.channel = channel
        self.retry_seconds = retry_seconds
        # while PostgreSQL is away, try again at least this often: streams catch up this soon after
        self.max_retry_seconds = max_retry_seconds
        self.timeout_seconds = timeout_seconds  # to connect, and for the liveness probe
        self._waiters: dict[str | None, set[Waiter]] = {}
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self.connections = 0  # how many times the connection was made (tests watch reconnects)
        self.server_pid: int | None = None  # the LISTEN connection's backend
        self._conn: asyncpg.Connection | None = None
        self._conn_lock = asyncio.Lock()  # the liveness probe and the announcements share the connection
        self._announce: set[str] = set()
        self._sender: asyncio.Task[None] | None = None
        self.announced = 0  # NOTIFYs this process sent for its own commits (tests and benches)
        # the connections of this process that notify from their appending transaction, by
        # backend pid (EventStore.notifying_backends): those appends woke its waiters already
        self.own_backends: dict[int, Any] = {}
        self.notified = 0  # notifications received (tests and benches)
        self._paused = False  # not listening, until resume (pause)

    # ------------------------------------------------------------------ waiters

    @contextlib.contextmanager
    def waiter(self, encounter_id: str | None = None) -> Iterator[Waiter]:
        """A waiter woken by commits to ``encounter_id`` (None: any encounter)."""
        w = Waiter()
        self._waiters.setdefault(encounter_id, set()).add(w)
        try:
            yield w
        finally:
            group = self._waiters.get(encounter_id)
            if group is not None:
                group.discard(w)
                if not group:
                    del self._waiters[encounter_id]

    def _wake(self, encounter_ids: list[str] | None, events_only: bool = False) -> None:
        if encounter_ids is None:  # everyone: a notification may have been missed
            groups = list(self._waiters.values())
        else:
            groups = [self._waiters.get(e, set()) for e in encounter_ids] + [self._waiters.get(None, set())]
        for group in groups:
            for w in list(group):
                w.wake(events_only)

    def _notified(self, _conn: Any, pid: int, _channel: str, payload: str) -> None:
        self.notified += 1
        if pid == self.server_pid:  # our own announcement: this process's waiters were woken already
            return
        events_only = payload.endswith(",")  # a commit's (EventStore's, or announce's): only events
        own = self.own_backends.get(pid)
        if own is not None and not own.is_closed() and events_only:  # our own append's, likewise
            return
        self._wake([e for e in payload.split(",") if e], events_only)

    # ------------------------------------------------------------ pausing

    async def pause(self) -> None:
        """Stop listening until ``resume``. For a process whose one waiter was just woken and
        will read all that is committed by then anyway (the projector's runner, settling before
        its next batch): meanwhile each commit's notification would cost it and its backend a
        wake-up for nothing (one a command at concurrency 1)."""
        self._paused = True
        await self._listen(False)

    async def resume(self) -> None:
        """Listen again; returns once PostgreSQL listens (or the connection is down, when the
        reconnection listens and wakes everyone): a commit after it wakes the waiters."""
        self._paused = False
        await self._listen(True)

    async def _listen(self, on: bool) -> None:
        conn = self._conn
        if conn is None or conn.is_closed():
            return
        try:
            async with self._conn_lock:  # bounded: a silently dead connection is the probe's to find
                if on:
                    await asyncio.wait_for(conn.add_listener(self.channel, self._notified), self.timeout_seconds)
                else:
                    await asyncio.wait_for(conn.remove_listener(self.channel, self._notified), self.timeout_seconds)
        # (InternalClientError: PostgreSQL shut the connection down in the middle of the LISTEN;
        # a soak's restart met it once, and the projector's runner logged it as a failed batch)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                TimeoutError) as e:
            log.info("LISTEN connection: could not %s (%s); it reconnects", "listen" if on else "pause", e)

    # ------------------------------------------------------------ announcing

    def announce(self, encounter_ids: Iterable[str], notified: bool = False) -> None:
        """Events of these encounters were committed by this process: wake its waiters at once
        and every other process's with a NOTIFY on the LISTEN connection, after the commit
        (one for all the commits made while the last one was being sent), unless the appending
        transaction notified them itself (``notified``). When the connection is down the NOTIFY
        is dropped: readers poll, and a reconnection wakes everyone."""
        ids = list(encounter_ids)
        self._wake(ids, events_only=True)
        if notified:
            return
        self._announce.update(ids)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send())

    async def _send(self) -> None:
        while self._announce:
            ids, self._announce = list(self._announce), set()
            conn = self._conn
            if conn is None or conn.is_closed():
                return
            try:
                for payload in _payloads(ids):
                    async with self._conn_lock:
                        await conn.execute("SELECT pg_notify($1, $2)", self.channel, payload,
                                           timeout=self.timeout_seconds)
                    self.announced += 1
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                    TimeoutError) as e:  # a connection terminated mid-NOTIFY raises the internal one
                log.warning("could not announce commits (%s): readers will poll", e)
                return

    # --------------------------------------------------------------- connection

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._keep(), name="fracas-wakeup")

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
            self._sender = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def connected(self, timeout: float = 10.0) -> None:
        """Wait until the LISTEN connection is up (tests and start-up)."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def _keep(self) -> None:
        delay = self.retry_seconds
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(self.dsn, timeout=self.timeout_seconds)
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c: lost.set())
                if not self._paused:
                    await conn.add_listener(self.channel, self._notified)
                self.connections += 1
                self.server_pid = conn.get_server_pid()
                self._conn = conn
                self._connected.set()
                if self.connections > 1:
                    log.info("LISTEN connection is back")
                delay = self.retry_seconds
                self._wake(None)  # whatever was committed while we were away
                while not lost.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), 5.0)
                    if not lost.is_set() and conn.is_closed():
                        break
                    if not lost.is_set():
                        async with self._conn_lock:
                            await conn.execute("SELECT 1", timeout=self.timeout_seconds)  # a silently dead one
            except asyncio.CancelledError:
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 2)
                raise
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as e:
                log.warning("LISTEN connection lost (%s); reconnecting in %.1fs", e, delay)
            except Exception:  # whatever it was, this task must live on: it is every reader's wake-up
                log.exception("LISTEN connection failed; reconnecting in %.1fs", delay)
            self._connected.clear()
            self._conn = None
            if conn is not None and not conn.is_closed():
                conn.terminate()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_retry_seconds)


NOTIFY_PAYLOAD_BYTES = 7900  # PostgreSQL's limit is 8000


def _payloads(encounter_ids: list[str]) -> Iterator[str]:
    """The ids, each followed by a comma (a commit's: only new events), in payloads under
    PostgreSQL's NOTIFY limit."""
    chunk: list[str] = []
    size = 0
    for e in encounter_ids:
        if chunk and size + len(e) + 1 > NOTIFY_PAYLOAD_BYTES:
            yield ",".join(chunk) + ","
            chunk, size = [], 0
        chunk.append(e)
        size += len(e) + 1
    if chunk:
        yield ",".join(chunk) + ","
