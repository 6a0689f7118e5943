"""Live feeds: one reader per encounter per process, shared by every live stream of it.

A ``Feed`` follows one encounter for the streams connected to this process. Woken by the
process's one LISTEN connection (``projections.wakeup``) or by its poll timeout, it reads
the encounter's state and the events it has not seen from PostgreSQL (the NOTIFY payload is
only a wake-up), keeps the latest events in memory for streams a little behind, re-reads
the encounter's presence and which of its streams' tokens are still valid (one round trip),
and brings its streams up to date. It never waits for a stream: a stream gets its messages
queued if its outbox has room, else a flag set, so a client that stops reading slows nobody else.

Within an encounter versions are dense and commit in order (version N+1 is decided on the
committed version N, and the unique ``(encounter_id, version)`` key refuses any other), so
"every event after version N up to the state's version" is gap-free without the global
log's snapshot rule.

Each stream's messages are rendered once per view per state: 200 spectators of one fight cost
one filtering, not 200, and a player whose own combatants are all player characters, not
hidden, sees what a spectator sees (``projections.visibility.view_key``, decided from ids):
they share the spectators' rendering too. The way from where a stream is to the feed's head
(``Feed.step``: the events, the state or its patch, the presence, the prompts, as
``Batch``es) is made once per viewer (its prompts are its own): the spectators that were at
the same version share it, bytes and all.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from domain.core.encounter import EncounterState
from domain.core.next_moves import NextMoves
from projections.actions import actions_for
from projections.patch import json_patch
from projections.presence import Connected, Presence, presence_for
from projections.prompts import Prompt, prompts_for
from projections.visibility import Viewer, state_for, view_key
from server.store import outage
from server.store.encounters import RETCONNED, EncounterService, EventView, event_view, visible_events
from server.live.presence import PresenceStore

if TYPE_CHECKING:
    from projections.wakeup import Wakeup

log = logging.getLogger("fracas.live")


# ------------------------------------------------------------------------------ messages


class Message(msgspec.Struct, tag_field="type", kw_only=True):
    """Every live message carries ``version``: the client has every event up to it, so it
    resumes with ``after=<version>``."""

    version: int


class Hello(Message, tag="hello"):
    """The stream is open: events after ``version`` follow (up to ``head`` at once)."""

    head: int
    connection_id: str
    role: str
    heartbeat_seconds: float


class EventMessage(Message, tag="event"):
    """One event, filtered for the caller as ``GET /encounters/{id}/events`` shows it."""

    event: EventView


class StateMessage(Message, tag="state"):
    """The caller's view of the state after the events sent so far (the whole filtered state,
    as ``GET /encounters/{id}`` shows it), and who is connected."""

    state: Any
    presence: Presence


class PatchMessage(Message, tag="patch"):
    """The change to the caller's state since the state (or patch) of version ``base``: a JSON
    Patch (RFC 6902: ``add``, ``remove``, ``replace``). With ``?state=full`` the stream sends
    ``state`` messages instead."""

    base: int
    patch: list[dict[str, Any]]


class PromptMessage(Message, tag="prompt"):
    """A decision that awaits the caller, with its legal choices."""

    prompt: Prompt


class ActionsMessage(Message, tag="actions"):
    """What the fight waits on and the caller's next moves (as ``GET /encounters/{id}/actions``
    answers), sent whole when the stream starts and after a gap; then changes come as
    ``actions_patch``."""

    actions: NextMoves


class ActionsPatchMessage(Message, tag="actions_patch"):
    """The change to the caller's next moves since the ``actions`` (or ``actions_patch``) of
    version ``base``: a JSON Patch (RFC 6902). Sent only when they changed."""

    base: int
    patch: list[dict[str, Any]]


class PresenceMessage(Message, tag="presence"):
    """Who is connected changed (no event was committed)."""

    presence: Presence


class Heartbeat(Message, tag="heartbeat"):
    time: datetime


class ErrorMessage(Message, tag="error"):
    """Why the server closes the stream (RFC 9457 fields; ``code`` is stable)."""

    status: int
    code: str
    title: str
    detail: str | None = None


LiveMessage = (Hello | EventMessage | StateMessage | PatchMessage | PromptMessage | ActionsMessage
               | ActionsPatchMessage | PresenceMessage | Heartbeat | ErrorMessage)
_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class Item:
    """One message ready to send: its type and version (for SSE's ``event:`` and ``id:``) and
    its JSON (as bytes, and as text for WebSocket text frames). Shared by every stream that
    sends it."""

    type: str
    version: int
    body: bytes
    text: str


def item(message: Message) -> Item:
    body = _encode(message)
    return Item(type(message).__struct_config__.tag, message.version, body, body.decode())  # type: ignore[arg-type]


def sse_bytes(message: Item) -> bytes:
    """One SSE message: ``event:`` its type, ``id:`` its version, ``data:`` its JSON."""
    return b"event: %s\nid: %d\ndata: %s\n\n" % (message.type.encode(), message.version, message.body)


BATCH_LIMIT = 64  # messages in one batch at most (a client far behind gets its history in several)


def ws_text_frame(payload: bytes) -> bytes:
    """One unfragmented WebSocket text frame as a server sends it (RFC 6455: unmasked, no
    extension): the same bytes for every client, so made once for all of them."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


class Batch:
    """Messages that go to the client together, in order: one WebSocket text frame holding
    their JSON array (``frame``, with ``?batch=true``; else one frame each), one write of SSE
    (``sse``). Each text is made once, however many streams send it; so are the WebSocket
    frames themselves (``ws_bytes``), for the streams that write them to their socket directly."""

    __slots__ = ("_frame", "_sse", "_ws", "items")

    def __init__(self, items: tuple[Item, ...]) -> None:
        self.items = items
        self._frame: str | None = None
        self._sse: bytes | None = None
        self._ws: tuple[bytes | None, bytes | None] = (None, None)

    def ws_bytes(self, batched: bool) -> bytes:
        """The WebSocket frames of the batch, header and all: one frame holding the JSON array
        (``batched``), else one frame a message."""
        whole, each = self._ws
        if batched:
            if whole is None:
                whole = ws_text_frame(self.frame.encode())
                self._ws = (whole, each)
            return whole
        if each is None:
            each = b"".join(ws_text_frame(i.body) for i in self.items)
            self._ws = (whole, each)
        return each

    @property
    def frame(self) -> str:
        if self._frame is None:
            self._frame = "[" + ",".join(i.text for i in self.items) + "]"
        return self._frame

    @property
    def sse(self) -> bytes:
        if self._sse is None:
            self._sse = b"".join(sse_bytes(i) for i in self.items)
        return self._sse


def batches(items: list[Item]) -> tuple[Batch, ...]:
    return tuple(Batch(tuple(items[i:i + BATCH_LIMIT])) for i in range(0, len(items), BATCH_LIMIT))


def one(message: Message) -> Batch:
    return Batch((item(message),))


@dataclass(frozen=True, slots=True)
class Step:
    """What a stream sends to reach the feed's head from where it is, and where it is then:
    at ``version``, its state rendered for the view ``key``, with that ``presence`` shown and
    those ``prompted``."""

    batches: tuple[Batch, ...]
    version: int
    key: Any
    presence: bytes
    prompted: frozenset[bytes]
    acted: tuple[int, bytes] | None = None  # the version and JSON (without it) of the next moves sent


def heartbeat(version: int) -> Batch:
    return one(Heartbeat(version=version, time=datetime.now(UTC)))


# ------------------------------------------------------------------------------ settings


@dataclass
class LiveSettings:
    heartbeat_seconds: float = 15.0  # a heartbeat on an idle stream; tokens and presence re-checked
    queue_size: int = 256  # batches waiting for one client; a client that lets it fill is dropped
    send_timeout_seconds: float = 10.0  # longest wait for a client to take a message
    # events each feed keeps for streams a little behind (a table's few minutes of play); further
    # behind, they are read from PostgreSQL a page at a time. 1,024 held ~150 MB a worker at 150 tables
    recent_events: int = 256
    page_size: int = 500  # events read from the table at once when a stream is far behind
    direct_writes: bool = True  # a caught-up WebSocket's batches written by the feed (server.live.streams.DirectFrames)

    @property
    def presence_ttl_seconds(self) -> float:
        return 3 * self.heartbeat_seconds

    @classmethod
    def from_env(cls) -> LiveSettings:
        import os

        return cls(
            heartbeat_seconds=float(os.environ.get("FRACAS_LIVE_HEARTBEAT", "15")),
            queue_size=int(os.environ.get("FRACAS_LIVE_QUEUE", "256")),
            send_timeout_seconds=float(os.environ.get("FRACAS_LIVE_SEND_TIMEOUT", "10")),
            direct_writes=os.environ.get("FRACAS_LIVE_DIRECT", "1") != "0",
            recent_events=int(os.environ.get("FRACAS_LIVE_RECENT", "256")),
        )


# --------------------------------------------------------------------------------- feed


class Subscriber(Protocol):
    """What a feed knows of a stream: whose it is, how to queue what is new for it, and how to
    wake it when it must see to that itself."""

    viewer: Viewer
    secret_hash: bytes
    wake: asyncio.Event

    def keep_up(self, feed: Feed) -> bool: ...


@dataclass
class Rendered:
    """One view's messages (``view_key``: every viewer who provably sees the same) for one
    state and presence of the feed."""

    view: Any = None  # the state as the view shows it, as JSON builtins
    state: Item | None = None
    presence: tuple[bytes, Item, Batch] | None = None
    patches: dict[tuple[int, Any], Item] = field(default_factory=dict)  # by the state they apply to: version, view
    events: dict[int, Item] = field(default_factory=dict)


@dataclass
class Viewing:
    """One viewer at the feed's head: its view (shared), its prompts and its streams' steps."""

    key: Any
    rendered: Rendered
    prompts: list[tuple[bytes, Item]] | None = None  # (the prompt itself, its message)
    moves: NextMoves | None = None
    actions: tuple[bytes, Any] | None = None  # the next moves: JSON without the version, builtins
    whole: Item | None = None  # the next moves' message, made when a stream needs them whole (rarely)
    steps: dict[tuple[Any, ...], Step] = field(default_factory=dict)


class Feed:
    def __init__(self, live: Live, encounter_id: str) -> None:
        self.live = live
        self.encounter_id = encounter_id
        self.head: EncounterState | None = None
        self.recent: deque[EventView] = deque(maxlen=live.settings.recent_events)
        self.presence: list[Connected] = []
        self._presence_text: str | None = None  # as read: decoded when it changes
        self.invalid: frozenset[bytes] = frozenset()  # tokens of our streams found revoked
        self.subscribers: set[Subscriber] = set()
        self._rendered: dict[Any, Rendered] = {}  # by view key, at the head
        self._viewing: dict[Viewer, Viewing] = {}  # at the head
        self._views: dict[Any, deque[tuple[int, Any]]] = {}  # each view's last states, to patch from
        # who is connected as each view shows it (its JSON, and itself): kept from state to state
        # while who is connected does not change (it depends on the view's key alone)
        self._shown: dict[Any, tuple[bytes, Presence]] = {}
        # next moves sent at this head and the one before, by their JSON without the version: to
        # patch from. Only two heads: a stream further behind gets them whole. (Kept up to 256,
        # they were most of a worker's memory: a GM's next moves are ~10 KB of JSON, ~100 KB as
        # Python objects, and every version's differ; 200 tables grew a worker by 100 MB a minute.)
        self._action_docs: dict[bytes, Any] = {}
        self._older_docs: dict[bytes, Any] = {}
        self._task: asyncio.Task[None] | None = None
        self.seed: bytes | None = None  # tags the seeded dice a viewer sees (``visible_events``)

    # ------------------------------------------------------------------- running

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"fracas-live-feed-{self.encounter_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        heartbeat = self.live.settings.heartbeat_seconds
        loop = asyncio.get_running_loop()
        presence_due = 0.0  # when who is connected is read again, whatever woke the feed
        with self.live.wakeup.waiter(self.encounter_id) as waiter:
            woken = True
            while True:
                presence = waiter.take_more() or not woken or loop.time() >= presence_due
                try:
                    await self.refresh(presence)
                    if presence:
                        presence_due = loop.time() + heartbeat
                    wait = heartbeat
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # the database is away: keep the streams, try again soon
                    warn = outage.outages.warn if outage.is_outage(exc) else log.warning
                    warn("live feed of %s could not refresh: %s", self.encounter_id, exc)
                    wait = min(heartbeat, outage.RETRY_AFTER_SECONDS)
                    presence_due = 0.0
                woken = await waiter.wait(wait)

    async def refresh(self, presence: bool = True) -> None:
        """Read what is new (the events, and the state they lead to), who is connected (unless
        not ``presence``: woken by commits alone, within a heartbeat of the last reading) and
        which tokens are still valid, then bring the streams up to date. The tokens are read on
        a snapshot no earlier than the events', so a token revoked before an event committed
        never gets that event: once the feed has a state, all in one statement (one snapshot),
        the state folded here from the events read; else (or after a retcon, which the service
        replays) the state from the service, then its events, then the rest."""
        while await self._refresh(presence):  # a page of events read: there may be more
            pass

    async def _refresh(self, presence: bool = True) -> bool:
        hashes = list({s.secret_hash for s in self.subscribers})
        got = await self._catch_up(hashes, presence) if self.head is not None else None
        text: str | None
        if got is None:
            state, views = await self._read()
            text, valid = await self.live.presence.list_and_valid(self.encounter_id, hashes)
        else:
            state, views, text, valid = got
        more = got is not None and len(views) >= self.live.settings.page_size
        if self.head is None or state.version > self.head.version:
            self._advance(state, views)
        self.invalid = frozenset(h for h in hashes if h not in valid)
        if text is not None and text != self._presence_text:
            self._presence_text = text
            presence = self.live.presence.decode(text)
            if presence != self.presence:
                self.presence = presence
                self._shown.clear()
                for r in self._rendered.values():
                    r.state = r.presence = None
                for v in self._viewing.values():
                    v.steps.clear()
        self._keep_up()
        return more

    def _keep_up(self) -> None:
        for s in list(self.subscribers):  # most are caught up, and only need the same step queued
            if not s.keep_up(self):
                s.wake.set()

    async def _catch_up(self, hashes: list[bytes], presence: bool
                        ) -> tuple[EncounterState, list[EventView], str | None, set[bytes]] | None:
        """The events after the head, folded onto it, who is connected (None unless ``presence``)
        and the tokens still valid, in one round trip; None when the service must make the state
        (a retcon goes back)."""
        head = self.head
        assert head is not None
        text, valid, rows = await self.live.presence.catch_up(self.encounter_id, hashes, head.version,
                                                              self.live.settings.page_size, presence)
        if any(row["type"] == RETCONNED for row in rows):
            return None
        ruleset = self.live.service.registry.get(head.ruleset)
        state = head
        for row in rows:
            state = ruleset.evolve(state, EncounterService.decode(ruleset, row))
        if rows and state.version != rows[-1]["version"]:  # versions are dense: never
            raise RuntimeError(f"the feed of {self.encounter_id} folded to {state.version}, not {rows[-1]['version']}")
        return state, [event_view(r) for r in rows], text, valid

    async def _read(self) -> tuple[EncounterState, list[EventView]]:
        service = self.live.service
        state = await service.current(self.encounter_id)
        if self.seed is None:
            self.seed = await service.roll_key(self.encounter_id)
        head = self.head
        if head is None or state.version <= head.version:
            return state, []
        rows = await service.store.read(self.encounter_id, head.version, state.version - head.version)
        return state, [event_view(r) for r in rows]

    def _advance(self, state: EncounterState, views: list[EventView]) -> None:
        """A newer state and the events that led to it, at once (no stream sees half of it)."""
        assert self.head is None or (views and views[0].version == self.head.version + 1
                                     and views[-1].version == state.version), "a gap in the feed"
        if self.head is not None and self.recent and self.recent[-1].version != self.head.version:
            self.recent.clear()
        self.recent.extend(views)
        self.head = state
        for key in [k for k in self._views if k not in self._rendered]:  # no stream had it at the last head
            del self._views[key]
        self._rendered.clear()
        self._viewing.clear()
        self._older_docs, self._action_docs = self._action_docs, {}

    # ------------------------------------------------------------------- reading

    def recent_after(self, after: int, upto: int) -> list[EventView] | None:
        """The events in ``(after, upto]`` from memory, or None when memory does not reach back."""
        if not self.recent or self.recent[0].version > after + 1:
            return None if after < upto else []
        start = after + 1 - self.recent[0].version
        return [v for v in itertools.islice(self.recent, start, None) if v.version <= upto]

    # ----------------------------------------------------------------- rendering

    def _viewing_of(self, viewer: Viewer, head: EncounterState) -> Viewing:
        if head is not self.head:  # a stream's older snapshot: render without caching
            return Viewing(view_key(head, viewer), Rendered())
        v = self._viewing.get(viewer)
        if v is None:
            key = view_key(head, viewer)
            r = self._rendered.get(key)
            if r is None:
                r = self._rendered[key] = Rendered()
            v = self._viewing[viewer] = Viewing(key, r)
        return v

    def event_item(self, view: EventView, viewer: Viewer, head: EncounterState) -> Item:
        """An event as ``viewer`` may see it, judged by ``head`` (a state at or after it)."""
        r = self._viewing_of(viewer, head).rendered
        cached = r.events.get(view.version)
        if cached is None:
            shown = visible_events([view], head, viewer, self.seed)[0]
            cached = item(EventMessage(version=view.version, event=shown))
            if len(r.events) < 4 * self.live.settings.recent_events:
                r.events[view.version] = cached
        return cached

    def state_items(self, viewer: Viewer, head: EncounterState, base: int | None = None, base_key: Any = None
                    ) -> tuple[Item, list[tuple[bytes, Item]]]:
        """The state for ``viewer`` at ``head`` (a patch from the state of version ``base``
        rendered for the view ``base_key`` when this feed still has it, else the whole state)
        and the prompts (each with its JSON without the version, to tell a prompt already sent)."""
        v = self._viewing_of(viewer, head)
        r = v.rendered
        if r.view is None:
            view = state_for(head, viewer)
            r.view = view if isinstance(view, dict) else msgspec.to_builtins(view)
            if head is self.head:
                history = self._views.setdefault(v.key, deque(maxlen=4))
                if not history or history[-1][0] < head.version:
                    history.append((head.version, r.view))
        if v.prompts is None:
            ruleset = self.live.service.registry.get(head.ruleset)
            v.prompts = [(_encode(p), item(PromptMessage(version=head.version, prompt=p)))
                         for p in prompts_for(ruleset, head, viewer, self._moves(v, viewer, head))]
        if base is not None and base < head.version:
            patch = r.patches.get((base, base_key))
            if patch is None:
                # the state the client has: the one rendered for its view then (a view's key
                # at one version names one rendering), never another view's
                old = next((s for version, s in self._views.get(base_key, ()) if version == base), None)
                if old is not None:
                    patch = item(PatchMessage(version=head.version, base=base, patch=json_patch(old, r.view)))
                    if head is self.head:
                        r.patches[(base, base_key)] = patch
            if patch is not None:
                return patch, v.prompts
        if r.state is None:
            r.state = item(StateMessage(version=head.version, state=r.view, presence=self.presence_shown(viewer, head)[1]))
        return r.state, v.prompts

    def next_moves(self, viewer: Viewer, version: int) -> NextMoves | None:
        """``viewer``'s next moves at ``version`` when this feed's head is there (None otherwise):
        worked out once for the live streams and ``GET /actions`` alike, the same answer."""
        head = self.head
        if head is None or head.version != version:
            return None
        return self._moves(self._viewing_of(viewer, head), viewer, head)

    def _moves(self, v: Viewing, viewer: Viewer, head: EncounterState) -> NextMoves:
        if v.moves is None:
            v.moves = actions_for(self.live.service.registry.get(head.ruleset), head, viewer)
        return v.moves

    def actions_items(self, viewer: Viewer, head: EncounterState, acted: tuple[int, bytes] | None,
                      patches: bool = True) -> tuple[Item | None, tuple[int, bytes]]:
        """The message bringing a stream that has the next moves ``acted`` (their version and JSON
        without it; None: none yet) to ``viewer``'s at ``head``: None when they did not change, a
        patch when this feed still has the ones the stream has, else the whole; and what the
        stream has then."""
        v = self._viewing_of(viewer, head)
        if v.actions is None:
            moves = self._moves(v, viewer, head)
            doc = msgspec.to_builtins(moves)
            key = _encode(msgspec.structs.replace(moves, version=0))
            v.actions = (key, doc)
            if len(self._action_docs) >= 64:  # many viewers of views that differ: start again
                self._action_docs.clear()
            self._action_docs[key] = doc
        key, doc = v.actions
        if acted is not None and acted[1] == key:
            return None, acted
        old = None
        if acted is not None and patches:
            old = self._action_docs.get(acted[1]) or self._older_docs.get(acted[1])
        if old is None:
            if v.whole is None:
                v.whole = item(ActionsMessage(version=head.version, actions=self._moves(v, viewer, head)))
            return v.whole, (head.version, key)
        patch = item(ActionsPatchMessage(version=head.version, base=acted[0], patch=json_patch(old, doc)))
        return patch, (head.version, key)

    def presence_item(self, viewer: Viewer, version: int) -> tuple[bytes, Item, Batch]:
        """Who is connected, as ``viewer`` sees it: its JSON (to tell a change), its message, and
        that message alone as a batch."""
        head = self.head
        assert head is not None
        r = self._viewing_of(viewer, head).rendered
        if r.presence is None or r.presence[1].version != version:
            shown, presence = self.presence_shown(viewer, head)
            message = item(PresenceMessage(version=version, presence=presence))
            r.presence = (shown, message, Batch((message,)))
        return r.presence

    def presence_shown(self, viewer: Viewer, head: EncounterState) -> tuple[bytes, Presence]:
        """Who is connected as ``viewer`` sees it at ``head``: its JSON (to tell a change) and itself."""
        key = self._viewing_of(viewer, head).key
        shown = self._shown.get(key) if head is self.head else None
        if shown is None:
            presence = presence_for(self.presence, head, viewer)
            shown = (_encode(presence), presence)
            if head is self.head:
                self._shown[key] = shown
        return shown

    def step(self, viewer: Viewer, last: int, base: int | None, base_key: Any, presence: bytes | None,
             prompted: frozenset[bytes], acted: tuple[int, bytes] | None = None, patches: bool = True
             ) -> Step | None:
        """The way to the head for a stream of ``viewer`` that has every event up to ``last``,
        the state of version ``base`` rendered for the view ``base_key`` (None: send it whole),
        ``presence`` shown and ``prompted`` the prompts in it: the events after ``last``, the
        state (or its patch), the presence when a patch leaves it out and it changed, and the
        prompts not sent yet. Made once for every stream of the viewer in the same place; None
        when the feed's memory does not reach back to ``last``."""
        head = self.head
        assert head is not None
        v = self._viewing_of(viewer, head)
        key = (last, base, base_key, presence, prompted, acted, patches)
        done = v.steps.get(key)
        if done is not None:
            return done
        views = self.recent_after(last, head.version)
        if views is None:
            return None
        items = [self.event_item(e, viewer, head) for e in views]
        state, prompts = self.state_items(viewer, head, base, base_key)
        items.append(state)
        shown, _ = self.presence_shown(viewer, head)
        if state.type != "state" and shown != presence:  # a patch does not carry it
            items.append(self.presence_item(viewer, head.version)[1])
        items += [p for k, p in prompts if k not in prompted]  # one pending, unchanged, is not prompted again
        moved, acted = self.actions_items(viewer, head, acted, patches)
        if moved is not None:
            items.append(moved)
        done = Step(batches(items), head.version, v.key, shown, frozenset(k for k, _ in prompts), acted)
        if len(v.steps) < 64:
            v.steps[key] = done
        return done


# --------------------------------------------------------------------------------- live


class Live:
    """The live streams of one process: their feeds, presence and background work."""

    def __init__(self, service: EncounterService, presence: PresenceStore, wakeup: Wakeup,
                 settings: LiveSettings) -> None:
        self.service = service
        self.presence = presence
        self.wakeup = wakeup
        self.settings = settings
        self.feeds: dict[str, Feed] = {}
        self.streams: dict[str, Any] = {}  # connection id -> the open stream (server.live.streams.Stream)
        self._background: set[asyncio.Task[Any]] = set()
        self._refresher: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._refresher = asyncio.create_task(self._refresh_presence(), name="fracas-live-presence")
        self._watchdog = asyncio.create_task(self._watch_sends(), name="fracas-live-watchdog")

    async def stop(self) -> None:
        for stream in list(self.streams.values()):
            stream.shut()
        if self.streams:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2):
                    while self.streams:
                        await asyncio.sleep(0.02)
        tasks = [t for t in (self._refresher, self._watchdog) if t is not None]
        for t in tasks:
            t.cancel()
        for feed in list(self.feeds.values()):
            await feed.stop()
        self.feeds.clear()
        if self._background:
            await asyncio.wait(set(self._background), timeout=2)
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` to its end even when its caller is cancelled (a stream's clean-up)."""
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("live clean-up failed: %s", task.exception())

    def next_moves(self, encounter_id: str, viewer: Viewer, version: int) -> NextMoves | None:
        """``viewer``'s next moves at ``version``, shared with the encounter's live feed in this
        process when it is at that version (None: no such feed here)."""
        feed = self.feeds.get(encounter_id)
        return None if feed is None else feed.next_moves(viewer, version)

    def join(self, encounter_id: str, subscriber: Subscriber) -> Feed:
        feed = self.feeds.get(encounter_id)
        if feed is None:
            feed = self.feeds[encounter_id] = Feed(self, encounter_id)
            feed.start()
        feed.subscribers.add(subscriber)
        return feed

    def leave(self, feed: Feed, subscriber: Subscriber) -> None:
        feed.subscribers.discard(subscriber)
        if not feed.subscribers and self.feeds.get(feed.encounter_id) is feed:
            del self.feeds[feed.encounter_id]
            self.spawn(feed.stop())

    async def _watch_sends(self) -> None:
        """Drop the streams whose client has not taken a message for ``send_timeout_seconds``: one
        watchdog for all (cheaper than a timeout around every send)."""
        loop = asyncio.get_running_loop()
        while True:
            limit = self.settings.send_timeout_seconds
            await asyncio.sleep(min(1.0, limit / 4))
            now = loop.time()
            for stream in list(self.streams.values()):
                since = stream.sending_since
                if since is not None and now - since > limit:
                    stream.stalled()

    async def _refresh_presence(self) -> None:
        """Every heartbeat: this process's open streams are still here."""
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            try:
                ids = list(self.streams)
                found = await self.presence.refresh(ids)
                for cid in ids:
                    stream = self.streams.get(cid)
                    if cid not in found and stream is not None:  # expired by another process meanwhile
                        self.spawn(stream.register())
            except Exception as exc:  # the database is away: the rows are refreshed next time
                (outage.outages.warn if outage.is_outage(exc) else log.warning)("live presence refresh failed: %s", exc)
