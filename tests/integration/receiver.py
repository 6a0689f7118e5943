"""A webhook receiver the tests start on 127.0.0.1 (never another address): it records what
it is sent and answers as the test plans (a status, or hanging until released)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

WEBHOOK_ID = "webhook-id"  # Standard Webhooks' message id (the same body, the same id)

HANG = -1  # a planned answer: hold the request until ``release`` (or 30 s)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def signed_by(self, secret: str) -> bool:
        """Whether the official Standard Webhooks library verifies it with ``secret`` (and a recent timestamp)."""
        try:
            Webhook(secret).verify(self.body, self.headers)
        except WebhookVerificationError:
            return False
        return True


@dataclass
class Receiver:
    """``plan(n)``: the answer to the n-th request (0-based) on ``path``: a status, or HANG."""

    plan: Callable[[int], int] = lambda n: 200
    received: list[Received] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    arrived: list[str] = field(default_factory=list)  # each request's path as it came in, answered or not
    arrived_at: list[float] = field(default_factory=list)  # and when (time.monotonic), for failure messages
    port: int = 0
    answer_bytes: int = 0  # the size of each answer's body (0: "ok")
    _counts: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answer(self, path: str) -> int:
        with self._lock:
            n = self._counts.get(path, 0)
            self._counts[path] = n + 1
        status = self.plan(n)
        if status == HANG:
            self.released.wait(30)
            return 200
        return status

    def ok(self, path: str = "/hook") -> list[Received]:
        """What was answered 2xx on ``path``, in the order received."""
        return [r for r in self.received if r.path == path and 200 <= r.answered < 300]

    def versions(self, path: str = "/hook") -> list[int]:
        """The versions of the events delivered (answered 2xx) on ``path``, in the order received."""
        return [e["version"] for r in self.ok(path) for e in r.json["events"]]

    async def until(self, done: Callable[[], bool], seconds: float = 20.0) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"the receiver did not get what was awaited: {self.received!r}"
            await asyncio.sleep(0.05)


@contextmanager
def receiving(plan: Callable[[int], int] = lambda n: 200) -> Iterator[Receiver]:
    receiver = Receiver(plan=plan)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            receiver.arrived_at.append(time.monotonic())
            receiver.arrived.append(self.path)
            status = receiver.answer(self.path)
            receiver.received.append(Received(self.path, {k: v for k, v in self.headers.items()}, body, status))
            answer = b"x" * receiver.answer_bytes if receiver.answer_bytes else b"ok"
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", receiver.url("/elsewhere"))
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            try:
                self.wfile.write(answer)
            except OSError:  # the sender read what it wanted and went
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.released.set()
        server.shutdown()
        server.server_close()


__all__ = ["HANG", "WEBHOOK_ID", "Receiver", "Received", "receiving"]
