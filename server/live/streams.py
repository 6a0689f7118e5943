"""Live streams of an encounter: ``/encounters/{id}/live`` over WebSocket or Server-Sent Events.

A stream first sends every event after ``after=N`` that the caller may see, then each new
one as it commits, in version order; after each batch of events, the caller's view of the
state: whole the first time (``state``, with who is connected), then as the change from the
state the client has (``patch``, a JSON Patch; ``?state=full`` sends the whole state every
time); then the decisions that await the caller (``prompt``), then, when they changed, what the fight
waits on and the caller's next moves (``actions`` whole the first time, then ``actions_patch``,
a JSON Patch of them; ``?state=full``: ``actions`` whole each time). Every message carries
``version``: the client has every event up to it, and resumes after a dropped connection with
``after=<version>`` (SSE: the ``Last-Event-ID`` an EventSource sends by itself), getting
exactly what it missed. The token comes as ``Authorization: Bearer`` or, where a browser
cannot set headers, as ``?token=`` (never logged: see ``server.auth.redaction``).

The messages of one batch (the events, the state, the presence, the prompts) go together: over
SSE in one write, over a WebSocket one text frame each, or with ``?batch=true`` one text frame
holding their JSON array (every frame is then an array: what fracas-client.js asks for, one
frame a commit instead of two or more).

Each stream has a bounded outbox of batches. The producer (``Stream.run``) fills it from its
encounter's feed (``server.live.feed``); the transport drains it to the client. A client that
does not take a message within ``send_timeout_seconds`` (its outbox stays full, or one send
does not finish: a watchdog looks) is dropped, closing with ``slow_consumer``; nobody else
waits for it. A revoked token closes its streams at once (``token_revoked``), on every
process: revoking wakes the feeds, which re-check their streams' tokens on every wake-up and
heartbeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import deque
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from litestar import Request, WebSocket, get, websocket
from litestar.connection import ASGIConnection
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import Stream as StreamResponse

from server import metrics
from server.store import outage
from server.http.api import GUARDED_READ_ERRORS, EncounterId
from server.auth.tokens import Principal, authorize
from server.store.encounters import event_view
from server.live.feed import (
    Batch,
    ErrorMessage,
    Feed,
    Hello,
    Item,
    Live,
    LiveSettings,
    batches,
    heartbeat,
    item,
    one,
    sse_bytes,
)
from server.http.problems import Problem, database_unavailable
from server.store.events import new_uuid

log = logging.getLogger("fracas.live")
MAX_VERSION = 2_147_483_647

# WebSocket close codes: 4000 + the HTTP status of the same refusal; 1001 when the server stops.
GOING_AWAY = 1001


class Close(Exception):
    """How a stream ends: a close code, and a stable reason (the problem ``code``)."""

    def __init__(self, code: int, reason: str, message: Item | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.message = message  # sent before closing, after everything queued


SLOW = Close(4408, "slow_consumer")
STREAM_UNAVAILABLE = ("The database cannot be reached just now: reconnect in a few seconds with `after=` the last "
                      "`version` received (SSE: `Last-Event-ID`), and nothing is missed or sent twice.")
SHUTDOWN = Close(GOING_AWAY, "server_shutdown")
CAUGHT_UP = Close(1000, "caught_up")


class SlowConsumer(Exception):
    pass


class Outbox:
    """A stream's batches on their way to the client: at most ``limit`` waiting. ``put`` waits
    up to ``timeout`` for room and raises SlowConsumer past it."""

    def __init__(self, limit: int, timeout: float) -> None:
        self._items: deque[Any] = deque()
        self._limit = limit
        self._timeout = timeout
        self._readable = asyncio.Event()
        self._room = asyncio.Event()
        self._closed = False
        self.last_put = asyncio.get_running_loop().time()  # when a message was last queued

    async def put(self, message: Any) -> None:
        while len(self._items) >= self._limit:
            self._room.clear()
            try:
                async with asyncio.timeout(self._timeout):
                    await self._room.wait()
            except TimeoutError:
                raise SlowConsumer() from None
        self._items.append(message)
        self._readable.set()
        self.last_put = asyncio.get_running_loop().time()

    def close(self) -> None:
        """No more messages: ``get`` returns None once the queued ones are taken."""
        self._closed = True
        self._readable.set()

    def room(self) -> int:
        return self._limit - len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, message: Any) -> None:
        """Queue ``message`` now: the caller has seen there is ``room``."""
        self._items.append(message)
        self._readable.set()
        self.last_put = asyncio.get_running_loop().time()

    async def get(self) -> Any:
        while not self._items:
            if self._closed:
                return None
            self._readable.clear()
            await self._readable.wait()
        self._room.set()
        return self._items.popleft()


class Stream:
    """One live connection: reads its encounter's feed and fills its outbox."""

    def __init__(self, live: Live, principal: Principal, after: int, transport: str, follow: bool = True,
                 patches: bool = True) -> None:
        self.live = live
        self.principal = principal
        self.viewer = principal.viewer
        self.secret_hash = principal.secret_hash
        self.encounter_id = principal.encounter_id
        self.connection_id = new_uuid()
        self.transport = transport
        self.frames = metrics.LIVE_FRAMES.labels(transport)
        self.follow = follow
        self.last = after  # every event up to this version has been queued
        self.wake = asyncio.Event()
        self.outbox = Outbox(live.settings.queue_size, live.settings.send_timeout_seconds)
        self.closing: Close | None = None
        self._presence: bytes | None = None
        self._prompted: frozenset[bytes] = frozenset()  # the pending prompts already sent
        self._acted: tuple[int, bytes] | None = None  # the next moves sent (their version, JSON without it)
        self.patches = patches  # after the first state, send its changes (JSON Patch), not the whole
        self._state_version: int | None = None  # the version of the state the client has
        self._state_key: Any = None  # and the view it was rendered for (projections.visibility.view_key)
        self.sender: asyncio.Task[Any] | None = None  # the transport's task that sends the outbox
        self.sending_since: float | None = None  # when the message being sent was handed over
        self.waiting = False  # caught up, waiting for its feed: the feed may queue for it (keep_up)
        self.direct: DirectFrames | None = None  # the socket, for batches written at once (keep_up)

    def shut(self, close: Close = SHUTDOWN) -> None:
        self.closing = close
        self.wake.set()

    def stalled(self) -> None:
        """The client has not taken a message for too long: drop it (the watchdog calls this)."""
        log.info("live: dropped a slow client of encounter %s (%s)", self.encounter_id, self.transport)
        self.sending_since = None
        self.shut(SLOW)
        if self.sender is not None:
            self.sender.cancel()

    async def register(self) -> None:
        p = self.principal
        await self.live.presence.add(self.connection_id, self.encounter_id, p.token_id, p.role,
                                     sorted(p.combatant_ids), self.transport)

    async def run(self) -> Close:
        """Produce until the stream ends; returns why. Cleans up after itself, even when cancelled."""
        live = self.live
        feed: Feed | None = None
        try:
            # joined before it registers: the wake-up of its registration (and of any revocation
            # after it was admitted) comes to a feed that re-checks its token
            feed = live.join(self.encounter_id, self)
            if self.follow:
                live.streams[self.connection_id] = self
                await self.register()
            return await self._produce(feed)
        except SlowConsumer:  # its outbox stayed full
            self.stalled()
            return SLOW
        except Exception as exc:
            # Only a stream that must read the table itself (far behind, or just opening) meets an
            # outage: the others wait on their feed, which retries. Tell the client to come back.
            if not outage.is_outage(exc):
                raise
            outage.outages.warn("live: closed a stream of %s, the database is unavailable: %s", self.encounter_id, exc)
            return self._refuse(503, outage.CODE, outage.TITLE, STREAM_UNAVAILABLE)
        finally:
            if feed is not None:
                live.leave(feed, self)
            if self.follow:
                live.streams.pop(self.connection_id, None)
                live.spawn(live.presence.remove(self.connection_id, self.encounter_id))
            self.outbox.close()

    async def _produce(self, feed: Feed) -> Close:
        settings = self.live.settings
        # the feed may not have read yet what the client already has (a fresh feed, or a commit
        # this process has not heard of): it will, woken or on its poll
        while feed.head is None or feed.head.version < self.last:
            self.wake.clear()
            if self.closing is not None:
                return self.closing
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(settings.heartbeat_seconds):
                    await self.wake.wait()
        await self.outbox.put(one(Hello(version=self.last, head=feed.head.version, connection_id=self.connection_id,
                                         role=self.principal.role, heartbeat_seconds=settings.heartbeat_seconds)))
        first = True
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()
            if self.closing is not None:
                return self.closing
            if self.secret_hash in feed.invalid:
                return self._refuse(401, "token_revoked", "Unauthorized", "The token of this stream has been revoked.")
            await self._catch_up(feed, first)
            first = False
            if not self.follow:
                return CAUGHT_UP
            while not self.wake.is_set():  # a heartbeat when nothing was sent for a while
                idle = self.outbox.last_put + settings.heartbeat_seconds - loop.time()
                if idle <= 0:
                    await self.outbox.put(heartbeat(self.last))
                    continue
                self.waiting = True
                try:
                    async with asyncio.timeout(idle):
                        await self.wake.wait()
                except TimeoutError:
                    pass
                finally:
                    self.waiting = False

    def keep_up(self, feed: Feed) -> bool:
        """What the feed calls after each refresh, for a stream waiting for it: queue at once what
        takes it to the feed's head (the step its viewer's other streams share), without waking
        its producer. False when the producer must see to it (a token found revoked, the stream
        closing, more than the outbox has room for, or further behind than the feed remembers)."""
        if not self.waiting or self.closing is not None or self.secret_hash in feed.invalid:
            return False
        head = feed.head
        assert head is not None
        if head.version <= self.last:
            key, _, presence = feed.presence_item(self.viewer, self.last)
            if key != self._presence:
                if self.outbox.room() < 1:
                    return False
                self._presence = key
                self._send((presence,))
            return True
        step = feed.step(self.viewer, self.last, self._state_version if self.patches else None, self._state_key,
                         self._presence, self._prompted, self._acted, self.patches)
        if step is None or self.outbox.room() < len(step.batches):
            return False
        self._send(step.batches)
        self.last = self._state_version = step.version
        self._state_key = step.key
        self._presence, self._prompted, self._acted = step.presence, step.prompted, step.acted
        return True

    def _send(self, batches: tuple[Batch, ...]) -> None:
        """Send ``batches`` now (there is room for them in the outbox): written to the socket at
        once while nothing is queued before them and the socket takes them (``direct``), the
        rest queued for the transport's sender, in order."""
        direct = self.direct
        if direct is not None and self.sending_since is None and self.outbox.empty():
            for i, batch in enumerate(batches):
                if not direct.write(batch):
                    batches = batches[i:]
                    break
            else:
                self.outbox.last_put = direct.loop.time()
                return
        for batch in batches:
            self.outbox.put_nowait(batch)

    async def _catch_up(self, feed: Feed, first: bool) -> None:
        """Queue the events after ``last`` up to the feed's state, then that state and the prompts;
        or only the presence, when that is all that changed."""
        head = feed.head
        assert head is not None
        if head.version <= self.last and not first:
            key, _, presence = feed.presence_item(self.viewer, self.last)
            if key != self._presence:
                self._presence = key
                await self.outbox.put(presence)
            return
        base = self._state_version if self.patches else None
        while (step := feed.step(self.viewer, self.last, base, self._state_key, self._presence,
                                 self._prompted, self._acted, self.patches)) is None:
            await self._from_table(feed)  # further behind than the feed remembers
        for batch in step.batches:
            await self.outbox.put(batch)
        self.last = self._state_version = step.version
        self._state_key = step.key
        self._presence, self._prompted, self._acted = step.presence, step.prompted, step.acted

    async def _from_table(self, feed: Feed) -> None:
        """Queue the next page of events from the table, judged by the feed's head."""
        head = feed.head
        assert head is not None
        rows = await self.live.service.store.read(self.encounter_id, self.last,
                                                  min(self.live.settings.page_size, head.version - self.last))
        views = [event_view(r) for r in rows]
        if not views or views[0].version != self.last + 1:  # versions are dense: never
            raise RuntimeError(f"events {self.last + 1}..{head.version} of {self.encounter_id} missing")
        head = feed.head  # at or after every event read
        for batch in batches([feed.event_item(v, self.viewer, head) for v in views]):
            await self.outbox.put(batch)
            self.last = batch.items[-1].version

    def _refuse(self, status: int, code: str, title: str, detail: str) -> Close:
        message = item(ErrorMessage(version=self.last, status=status, code=code, title=title, detail=detail))
        return Close(4000 + status, code, message)


# ----------------------------------------------------------------------- direct writes

try:  # uvicorn's WebSocket protocol on the websockets library's sans-I/O core (its default)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State as _State
except ImportError:  # pragma: no cover
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

# the wrappers of ``send`` between a Litestar WebSocket and the server: what each adds to a
# ``websocket.send`` is checked by ``DirectFrames.write`` itself (none of them changes it)
_SEND_WRAPPERS = frozenset({
    "WebSocket.send_wrapper.<locals>.wrapped_send",  # refuses to send after a disconnect
    "ExceptionHandlerMiddleware.__call__.<locals>.capture_response_started",  # notes http.response.start
})


class DirectFrames:
    """A WebSocket's frames written straight to its socket: the bytes of a batch's frames are
    made once for every client (``Batch.ws_bytes``), and a caught-up stream's batch is written
    by the feed's refresh itself, without waking the stream's sender, going through the ASGI
    layers, or framing it again for each client. Only while the connection is open and its
    socket takes data (else the sender sends it, as it does everything queued)."""

    __slots__ = ("_protocol", "_batched", "loop", "_frames")

    def __init__(self, protocol: Any, batched: bool) -> None:
        self._protocol = protocol
        self._batched = batched
        self.loop = asyncio.get_running_loop()
        self._frames = metrics.LIVE_FRAMES.labels("websocket")

    def write(self, batch: Batch) -> bool:
        p = self._protocol
        if (p.close_sent or p.disconnected or not p.writable.is_set() or p.conn.state is not _State.OPEN
                or p.transport.is_closing()):
            return False
        p.transport.write(batch.ws_bytes(self._batched))
        self._frames.inc(1 if self._batched else len(batch.items))
        return True

    @classmethod
    def of(cls, socket: WebSocket, batched: bool) -> DirectFrames | None:
        """For an accepted WebSocket served by uvicorn's sans-I/O protocol without an extension
        (no compression): its ``send`` through the known wrappers; else None (every batch then
        goes through ``send``)."""
        if WebSocketsSansIOProtocol is None:
            return None
        send: Any = socket.send
        for _ in range(8):
            protocol = getattr(send, "__self__", None)
            if isinstance(protocol, WebSocketsSansIOProtocol):
                if (getattr(send, "__func__", None) is not WebSocketsSansIOProtocol.send
                        or protocol.conn.extensions or not protocol.handshake_complete
                        or protocol.initial_response is not None):
                    return None
                return cls(protocol, batched)
            code, cells = getattr(send, "__code__", None), getattr(send, "__closure__", None)
            if (code is None or cells is None or getattr(send, "__qualname__", None) not in _SEND_WRAPPERS
                    or "send" not in code.co_freevars):
                return None
            send = cells[code.co_freevars.index("send")].cell_contents
        return None


# ------------------------------------------------------------------------------ admission


def live_of(connection: ASGIConnection) -> Live:
    return connection.app.state.live


def parse_batch(text: str | None) -> bool:
    """``?batch=``: ``true`` sends each batch as one WebSocket frame holding a JSON array."""
    if text in (None, "", "false"):
        return False
    if text == "true":
        return True
    raise Problem(400, "invalid_batch", "Bad request", "`batch` is `true` or `false` (the default).")


async def admit(connection: ASGIConnection, encounter_id: str, after: int, transport: str,
                follow: bool = True, state_mode: str | None = None) -> Stream:
    """The stream of an authorized caller, or the problem that refuses it."""
    principal = await authorize(connection, encounter_id, query_token=True)
    if state_mode not in (None, "patch", "full"):
        raise Problem(400, "invalid_state_mode", "Bad request", "`state` is `patch` (the default) or `full`.")
    live = live_of(connection)
    version = (await live.service.current(encounter_id)).version
    if after > version:
        raise Problem(400, "after_beyond_version", "Bad request",
                      f"The encounter is at version {version}: `after` cannot be {after}.", version=version)
    return Stream(live, principal, after, transport, follow, patches=state_mode != "full")


def parse_after(text: str | None, name: str = "after") -> int:
    if text is None or text == "":
        return 0
    if not text.isdigit() or int(text) > MAX_VERSION:
        raise Problem(400, "invalid_after", "Bad request",
                      f"`{name}` is the last version the client has: a whole number from 0.")
    return int(text)


# -------------------------------------------------------------------------------- WebSocket


@websocket("/encounters/{encounter_id:uuid}/live")
async def live_websocket(socket: WebSocket, encounter_id: FromPath[uuid.UUID]) -> None:
    """The live stream over WebSocket (see the module's and docs/live.md)."""
    await socket.accept()
    batched = False
    try:
        batched = parse_batch(socket.query_params.get("batch"))
        stream = await admit(socket, str(encounter_id), parse_after(socket.query_params.get("after")), "websocket",
                             state_mode=socket.query_params.get("state"))
    except Exception as exc:
        p = exc if isinstance(exc, Problem) else database_unavailable() if outage.is_outage(exc) else None
        if p is None:
            raise
        await _close(socket, Close(4000 + p.status, p.code, item(ErrorMessage(
            version=0, status=p.status, code=p.code, title=p.title, detail=p.detail))), batched)
        return
    settings = stream.live.settings
    stream.direct = DirectFrames.of(socket, batched) if settings.direct_writes else None
    producer = asyncio.create_task(stream.run())
    loop = asyncio.get_running_loop()

    async def pump() -> None:
        while (batch := await stream.outbox.get()) is not None:
            stream.sending_since = loop.time()  # the watchdog drops a client that takes too long
            if batched:
                await socket.send({"type": "websocket.send", "text": batch.frame})
            else:
                for message in batch.items:
                    await socket.send({"type": "websocket.send", "text": message.text})
            stream.frames.inc(1 if batched else len(batch.items))
            stream.sending_since = None

    async def listen() -> None:  # the client's messages are not used; a disconnect ends the stream
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass

    sender, listener = asyncio.create_task(pump()), asyncio.create_task(listen())
    stream.sender = sender
    close: Close | None = None
    open_streams = metrics.LIVE_CONNECTIONS.labels("websocket")
    open_streams.inc()
    try:
        await asyncio.wait({producer, sender, listener}, return_when=asyncio.FIRST_COMPLETED)
        if producer.done() and not listener.done():
            close = producer.result()
            if close is not SLOW:  # what is queued goes first, then the closing message
                await asyncio.wait({sender, listener}, timeout=settings.send_timeout_seconds,
                                   return_when=asyncio.FIRST_COMPLETED)
                if listener.done():
                    close = None
                elif not sender.done() or sender.cancelled() or sender.exception() is not None:
                    close = SLOW
        elif sender.done() and not listener.done():
            close = SLOW if sender.cancelled() else None  # else the socket failed: the client left
    finally:
        open_streams.dec()
        for t in (producer, sender, listener):
            t.cancel()
        await asyncio.gather(producer, sender, listener, return_exceptions=True)
    if close is not None:
        await _close(socket, close, batched)


async def _close(socket: WebSocket, close: Close, batched: bool) -> None:
    """Send the closing message (if any) and close; a client that does not read is not waited for."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(1.0):
            if close.message is not None:
                text = close.message.text
                await socket.send({"type": "websocket.send", "text": f"[{text}]" if batched else text})
            await socket.close(code=close.code, reason=close.reason)


# --------------------------------------------------------------------------------------- SSE

Follow = Annotated[bool, QueryParameter(
    description="false: send what is there (events after `after`, the state, the prompts) and end the stream.")]
After = Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description=(
    "The last version the client has: every event after it follows. Default 0: the whole history."))]
StateMode = Annotated[Literal["patch", "full"], QueryParameter(name="state", description=(
    "patch: the whole state first, then each change as a JSON Patch (`patch` messages); full: the whole "
    "state after every batch."))]
Token = Annotated[str | None, QueryParameter(description=(
    "The token, where the client cannot send `Authorization: Bearer` (a browser's EventSource). Never logged."))]
LastEventId = Annotated[str | None, HeaderParameter(name="Last-Event-ID", required=False, description=(
    "Sent by an EventSource when it reconnects: the last `id` (version) it received; takes the place of `after`."))]


@get("/encounters/{encounter_id:uuid}/live", opt={"token": "encounter"}, operation_id="streamEncounter",
     summary="Live stream of an encounter (Server-Sent Events)",
     tags=["encounters"], media_type="text/event-stream",
     description=(
         "Every event after `after` that the caller may see, then each new one as it commits, in version "
         "order. After each batch, the caller's state: whole the first time (`state`, with `presence`), then "
         "the change from the last one (`patch`: a JSON Patch, RFC 6902, against the state of version `base`; "
         "`state=full` sends `state` every time); then the decisions awaiting the caller (`prompt`, with the "
         "legal choices). `presence` when only who is connected changed; `heartbeat` when idle; `error` before "
         "the server ends the stream (`token_revoked`). Each SSE message has `event:` the message's type, "
         "`id:` its version (an EventSource resumes with it as `Last-Event-ID`) and `data:` its JSON (with "
         "`type` and `version`); the messages of one batch come in one write. The same path upgrades to a "
         "WebSocket with the same messages, one per text frame, or with `?batch=true` each batch in one text "
         "frame holding their JSON array. The token: `Authorization: Bearer` or `?token=`. See docs/live.md."),
     responses=GUARDED_READ_ERRORS)
async def live_sse(
    request: Request, encounter_id: EncounterId, after: After = 0, follow: Follow = True,
    state_mode: StateMode = "patch", token: Token = None, last_event_id: LastEventId = None,
) -> StreamResponse:
    del token  # read by authorize(query_token=True)
    start = parse_after(last_event_id.strip(), "Last-Event-ID") if last_event_id is not None else after
    stream = await admit(request, str(encounter_id), start, "sse", follow, state_mode)
    return StreamResponse(_sse(stream), media_type="text/event-stream",
                  headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _sse(stream: Stream) -> AsyncIterator[bytes]:
    producer = asyncio.create_task(stream.run())
    me = asyncio.current_task()
    stream.sender = me  # a client that stopped reading leaves this generator stuck in a send: the
    loop = asyncio.get_running_loop()  # watchdog (or a full outbox) ends its task

    def dropped(task: asyncio.Task[Close]) -> None:
        if not task.cancelled() and task.exception() is None and task.result() is SLOW and me is not None:
            me.cancel()

    producer.add_done_callback(dropped)
    open_streams = metrics.LIVE_CONNECTIONS.labels("sse")
    open_streams.inc()
    try:
        yield b"retry: 1000\n\n"
        while (batch := await stream.outbox.get()) is not None:
            stream.sending_since = loop.time()
            yield batch.sse
            stream.frames.inc(len(batch.items))  # an event each
            stream.sending_since = None
        close = producer.result() if producer.done() else None
        if close is not None and close.message is not None:
            yield sse_bytes(close.message)
    finally:
        open_streams.dec()
        producer.remove_done_callback(dropped)
        producer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await producer


LIVE_ROUTES = [live_websocket, live_sse]


# ------------------------------------------------------------------------------ wiring


async def start_live(app: Any) -> Live:
    from server.live.presence import PresenceStore

    settings = LiveSettings.from_env()
    live = Live(app.state.service, PresenceStore(app.state.pool, settings.presence_ttl_seconds),
                app.state.wakeup, settings)
    await live.start()
    return live


async def stop_live(app: Any) -> None:
    live = getattr(app.state, "live", None)
    if live is not None:
        await live.stop()
