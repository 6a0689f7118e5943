"""A WebSocket client that only reads: the bench's 200 subscribers, with as little Python a frame
as the protocol allows.

``bench.live``'s subscribers share the 2 cores with the servers they measure: with the
``websockets`` library each frame costs its reader a few Python-level steps (its frame parser,
a queue, a future) and the subscribers' process took ~3 ms of CPU a command, a quarter of the
machine's. This reader is an asyncio ``Protocol`` that hands each text message straight to a
callback: RFC 6455 client side, unmasked server frames (text, continuation, ping answered with
a masked pong, close), no extensions offered (so no compression), the handshake's
``Sec-WebSocket-Accept`` checked.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
from collections.abc import Callable
from urllib.parse import urlsplit

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Reader(asyncio.Protocol):
    """One connection. ``on_text(message)`` for every text message, as it arrives; ``closed`` is
    done when the connection ends (with the exception, if it ended in one)."""

    def __init__(self, request: bytes, key: bytes, on_text: Callable[[bytes], None]) -> None:
        self.request, self.on_text = request, on_text
        self.accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        self.buf = bytearray()
        self.open = False
        self.parts: list[bytes] = []  # a fragmented message so far
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(self.request)  # type: ignore[union-attr]

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1").lower()
            del buf[:end + 4]
            if not head.startswith("http/1.1 101") or f"sec-websocket-accept: {self.accept.decode().lower()}" not in head:
                self._fail(ConnectionError(f"no WebSocket: {head.splitlines()[0] if head else '(nothing)'}"))
                return
            self.open = True
            self.opened.set_result(None)
        while len(buf) >= 2:
            b0, n = buf[0], buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at:at + n])
            del buf[:at + n]
            opcode, fin = b0 & 0x0F, b0 & 0x80
            if opcode == 1 or opcode == 0:  # text, or the next part of one
                if fin and not self.parts:
                    self.on_text(payload)
                elif fin:
                    self.on_text(b"".join([*self.parts, payload]))
                    self.parts = []
                else:
                    self.parts.append(payload)
            elif opcode == 9:  # ping: the pong echoes it, masked as a client's frames must be
                self._send(0xA, payload)
            elif opcode == 8:  # close: answered, then the server ends the connection
                self._send(0x8, payload[:2])
                self.transport.close()  # type: ignore[union-attr]

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)  # type: ignore[union-attr]

    def _fail(self, exc: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc)
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed before the handshake"))
        if self.closed.done():
            return
        if exc is None:
            self.closed.set_result(None)
        else:
            self.closed.set_exception(exc)


async def connect(url: str, headers: dict[str, str], on_text: Callable[[bytes], None],
                  timeout: float = 60.0) -> Reader:
    """Open ``url`` (``ws://host:port/path?query``) with ``headers``; returns once the server has
    switched protocols."""
    parts = urlsplit(url)
    key = base64.b64encode(os.urandom(16))
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    lines = [f"GET {target} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key.decode()}", "Sec-WebSocket-Version: 13",
             *(f"{k}: {v}" for k, v in headers.items())]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    loop = asyncio.get_running_loop()
    _, reader = await asyncio.wait_for(
        loop.create_connection(lambda: Reader(request, key, on_text), parts.hostname, parts.port), timeout)
    await asyncio.wait_for(asyncio.shield(reader.opened), timeout)
    return reader
