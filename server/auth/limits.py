"""Rate limiting: a token bucket per token, and one per client address for the rest.

A request takes from its token's bucket when it carries a token this process has found valid
(its principal is cached, ``TokenStore.knows``) or the server's operator key; the token is the
one ``server.auth.tokens`` reads (``parse_bearer``: ``bearer`` in any case, spaces around the token
ignored; on ``/live`` and ``/timeline.svg`` also ``?token=``), so one token is one bucket however the header is
spelt. Every other request (no token, a malformed header, an unknown or revoked token, a valid
one this process has not looked up yet) takes from its client address's bucket: a client that
tries random tokens is limited before each costs a database look-up.

Buckets live in each server process: with N processes a token may reach N times the rate. Past
the limit the answer is 429 with ``Retry-After``; a WebSocket is accepted, sent the ``error``
message (``rate_limited``) and closed with 4429, as the live stream's other refusals are.
"""

from __future__ import annotations

import hmac
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

import msgspec

from server.auth.tokens import hash_secret, parse_bearer
from server.live.feed import ErrorMessage, item
from server.http.problems import PROBLEM_JSON, ProblemDetails

ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
MAX_BUCKETS = 100_000


class TokenBuckets:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[bytes, tuple[float, float]] = {}

    def wait(self, key: bytes) -> float:
        """Take one request from ``key``'s bucket: 0 when allowed, else the seconds to wait."""
        now = self.clock()
        level, last = self._buckets.get(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - last) * self.rate)
        if level >= 1.0:
            self._buckets[key] = (level - 1.0, now)
            if len(self._buckets) > MAX_BUCKETS:
                self._forget_idle(now)
            return 0.0
        self._buckets[key] = (level, now)
        return (1.0 - level) / self.rate

    def _forget_idle(self, now: float) -> None:
        full_after = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full_after}


# the routes that take ``?token=`` (``authorize(query_token=True)``): live streams, and the
# timeline a link opens in a tab
QUERY_TOKEN_PATHS = ("/live", "/timeline.svg")


def request_token(scope: dict[str, Any]) -> str | None:
    """The token a request carries, read as ``server.auth.tokens.authorize`` reads it: the
    ``Authorization`` header, else (live streams, the timeline) ``?token=``. None without one."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            return parse_bearer(value.decode("latin-1"))
    if scope.get("path", "").endswith(QUERY_TOKEN_PATHS) and b"token" in scope.get("query_string", b""):
        for name, value in parse_qsl(scope["query_string"].decode("latin-1")):
            if name == "token":
                return value or None
    return None


def bucket_of(scope: dict[str, Any]) -> bytes:
    """The bucket a request takes from: its token's when the token is known valid here (or is
    the operator key), else its client address's."""
    token = request_token(scope)
    if token is not None:
        state = scope["app"].state
        h = hash_secret(token)
        tokens = getattr(state, "tokens", None)
        if tokens is not None and tokens.knows(h):
            return h
        key = state.settings.operator_key
        if key and hmac.compare_digest(token.encode(), key.encode()):
            return b"operator"
    client = scope.get("client") or ("", 0)
    return b"addr:" + str(client[0]).encode()


def rate_limit(buckets: TokenBuckets) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware: 429 problem details with Retry-After past the bucket's rate."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
            kind = scope["type"]
            if kind not in ("http", "websocket"):
                await app(scope, receive, send)
                return
            wait = buckets.wait(bucket_of(scope))
            if wait <= 0:
                await app(scope, receive, send)
                return
            retry = max(1, math.ceil(wait))
            problem = ProblemDetails(
                title="Too many requests", status=429, code="rate_limited",
                detail=f"More than {buckets.rate:g} requests a second came with this token (or, without a "
                       f"valid one, from this address); try again in {retry} s.",
                instance=scope.get("path"),
            )
            if kind == "websocket":
                await _refuse_websocket(problem, scope, receive, send)
                return
            body = msgspec.json.encode(problem)
            await send({"type": "http.response.start", "status": 429, "headers": [
                (b"content-type", PROBLEM_JSON.encode()), (b"retry-after", str(retry).encode()),
                (b"content-length", str(len(body)).encode()),
            ]})
            await send({"type": "http.response.body", "body": body})

        return guarded

    return middleware


async def _refuse_websocket(problem: ProblemDetails, scope: dict[str, Any], receive: Any, send: Any) -> None:
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    message = item(ErrorMessage(version=0, status=problem.status, code=problem.code, title=problem.title,
                                detail=problem.detail)).text
    if ("batch", "true") in parse_qsl(scope.get("query_string", b"").decode("latin-1")):
        message = f"[{message}]"  # every frame an array (server.live.streams)
    await send({"type": "websocket.send", "text": message})
    await send({"type": "websocket.close", "code": 4000 + problem.status, "reason": problem.code})
