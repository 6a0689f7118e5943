"""Helpers for the live-stream tests: the app served by a real uvicorn in the test's own event
loop (WebSockets and endless SSE streams need a real server), and watchers that collect what a
WebSocket or an SSE stream delivers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
import uvicorn
import websockets
from litestar import Litestar

from projections.patch import apply_patch
from server.app import create_app
from server.settings import Settings


@dataclass
class Served:
    app: Litestar
    base: str  # http://127.0.0.1:PORT
    deflate: bool = False  # WebSocket compression on

    @property
    def ws_base(self) -> str:
        return "ws" + self.base.removeprefix("http")


@asynccontextmanager
async def served(database_url: str, settings: Settings | None = None, deflate: bool = False,
                 **live: Any) -> AsyncIterator[Served]:
    """The app on a free port, served by uvicorn in this event loop. ``live``: LiveSettings
    fields to change (``heartbeat_seconds``, ``queue_size``, ``send_timeout_seconds``, ...).
    WebSocket compression off as ``fracas serve`` has it (caught-up streams' batches are then
    written to the socket directly: ``server.live.streams.DirectFrames``), or on (``deflate``: uvicorn's
    default, every batch through the ASGI ``send``)."""
    app = create_app(database_url, settings or Settings.from_env())
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=2, ws_per_message_deflate=deflate)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    for name, value in live.items():
        setattr(app.state.live.settings, name, value)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Served(app, f"http://127.0.0.1:{port}", deflate)
    finally:
        server.should_exit = True
        await task


def live_url(base: str, enc: str, *, ws: bool, **params: Any) -> str:
    url = f"{base}/encounters/{enc}/live"
    if ws:
        url = "ws" + url.removeprefix("http")
    query = {k: v for k, v in params.items() if v is not None}
    return url + ("?" + urlencode(query) if query else "")


@dataclass
class Watcher:
    """Collects what one live stream delivers: each message parsed, and the raw text."""

    name: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    closed: tuple[int | None, str] | None = None  # (code, reason) once the stream ended
    task: asyncio.Task[None] | None = None
    view: dict[str, Any] | None = None  # the state as the client has it: the last `state`, patched since
    view_version: int | None = None
    actions: dict[str, Any] | None = None  # the next moves as the client has them: the last `actions`, patched since
    actions_version: int | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    frames: int = 0  # the WebSocket frames (or SSE messages) received

    def add(self, text: str) -> None:
        """One frame: a message, or (``?batch=true``) a JSON array of them."""
        self.raw.append(text)
        self.frames += 1
        data = json.loads(text)
        for m in data if isinstance(data, list) else [data]:
            self._add(m)

    def _add(self, m: dict[str, Any]) -> None:
        self.messages.append(m)
        if m["type"] == "state":
            self.view, self.view_version = m["state"], m["version"]
        elif m["type"] == "patch":  # a JSON Patch against the state the client has
            assert m["base"] == self.view_version, (self.name, m["base"], self.view_version)
            self.view, self.view_version = apply_patch(self.view, m["patch"]), m["version"]
        elif m["type"] == "actions":
            self.actions, self.actions_version = m["actions"], m["version"]
        elif m["type"] == "actions_patch":  # against the next moves the client has
            assert m["base"] == self.actions_version, (self.name, m["base"], self.actions_version)
            self.actions, self.actions_version = apply_patch(self.actions, m["patch"]), m["version"]
        self._changed.set()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    @property
    def versions(self) -> list[int]:
        return [m["version"] for m in self.of("event")]

    @property
    def state(self) -> dict[str, Any] | None:
        """The client's state: ``{"version": V, "state": {...}}`` (None before the first)."""
        return None if self.view is None else {"version": self.view_version, "state": self.view}

    @property
    def text(self) -> str:
        return "\n".join(self.raw)

    async def until(self, done: Callable[[Watcher], bool], timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not done(self):
                if self.closed is not None and not done(self):
                    raise AssertionError(f"{self.name}: the stream closed {self.closed} before: {self.messages[-3:]}")
                self._changed.clear()
                await self._changed.wait()

    async def at_version(self, version: int, timeout: float = 10.0) -> None:
        await self.until(lambda w: w.state is not None and w.state["version"] >= version, timeout)

    async def ended(self, timeout: float = 10.0) -> tuple[int | None, str]:
        await self.until(lambda w: w.closed is not None, timeout)
        assert self.closed is not None
        return self.closed

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


async def watch_ws(url: str, name: str = "ws", headers: dict[str, str] | None = None) -> Watcher:
    """A WebSocket stream, read in the background; returns once the stream is open."""
    w = Watcher(name)
    opened = asyncio.get_running_loop().create_future()

    async def read() -> None:
        try:
            async with websockets.connect(url, additional_headers=headers, max_size=None) as ws:
                opened.set_result(None)
                try:
                    async for text in ws:
                        w.add(text if isinstance(text, str) else text.decode())
                except websockets.ConnectionClosed:
                    pass
                w.closed = (ws.close_code, ws.close_reason or "")
        except Exception as exc:
            if not opened.done():
                opened.set_exception(exc)
            w.closed = (None, repr(exc))
        finally:
            if w.closed is None:
                w.closed = (None, "stopped")
            w._changed.set()

    w.task = asyncio.create_task(read())
    await opened
    return w


async def watch_sse(url: str, name: str = "sse", headers: dict[str, str] | None = None) -> Watcher:
    """A Server-Sent Events stream, read in the background; returns once the response began."""
    w = Watcher(name)
    opened = asyncio.get_running_loop().create_future()

    async def read() -> None:
        try:
            async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=None)) as client:
                async with client.stream("GET", url, headers=headers) as r:
                    opened.set_result(r.status_code)
                    if r.status_code != 200:
                        w.add((await r.aread()).decode())
                        w.closed = (r.status_code, "refused")
                        return
                    async for event in sse_events(r.aiter_lines()):
                        w.add(event["data"])
                        assert event["event"] == json.loads(event["data"])["type"]
                        assert int(event["id"]) == json.loads(event["data"])["version"]
                    w.closed = (200, "ended")
        except Exception as exc:
            if not opened.done():
                opened.set_exception(exc)
            w.closed = (None, repr(exc))
        finally:
            if w.closed is None:
                w.closed = (None, "stopped")
            w._changed.set()

    w.task = asyncio.create_task(read())
    await opened
    return w


async def sse_events(lines: AsyncIterator[str]) -> AsyncIterator[dict[str, str]]:
    """The events of an SSE stream (``retry:``-only blocks and comments skipped)."""
    fields: dict[str, str] = {}
    async for line in lines:
        if line == "":
            if "data" in fields:
                yield fields
            fields = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        fields[name] = fields[name] + "\n" + value if name == "data" and name in fields else value
