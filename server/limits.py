"""Rate limiting per token: a token bucket per bearer token (per client address without one).

Buckets live in each server process: with N processes a token may reach N times the
rate. Past the limit the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from server.problems import PROBLEM_JSON, ProblemDetails

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


def rate_limit(buckets: TokenBuckets) -> Callable[[ASGIApp], ASGIApp]:
    """ASGI middleware: 429 problem details with Retry-After past the token's rate."""

    def middleware(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            key = b""
            for name, value in scope.get("headers", ()):
                if name == b"authorization":
                    key = hashlib.sha256(value).digest()
                    break
            if not key:
                client = scope.get("client") or ("", 0)
                key = b"addr:" + str(client[0]).encode()
            wait = buckets.wait(key)
            if wait <= 0:
                await app(scope, receive, send)
                return
            retry = max(1, math.ceil(wait))
            body = msgspec.json.encode(ProblemDetails(
                title="Too many requests", status=429, code="rate_limited",
                detail=f"This token sent more than {buckets.rate:g} requests a second; try again in {retry} s.",
                instance=scope.get("path"),
            ))
            await send({"type": "http.response.start", "status": 429, "headers": [
                (b"content-type", PROBLEM_JSON.encode()), (b"retry-after", str(retry).encode()),
                (b"content-length", str(len(body)).encode()),
            ]})
            await send({"type": "http.response.body", "body": body})

        return guarded

    return middleware
