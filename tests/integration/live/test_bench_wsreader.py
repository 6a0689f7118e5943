"""``bench/wsreader.py``, the lean WebSocket reader of ``bench.live``'s subscribers: it reads what
the live stream sends, in order, as the ``websockets`` library does; answers pings; puts a
fragmented message together; refuses a server that does not switch protocols."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from typing import Any

import httpx
import pytest

from bench import wsreader
from tests.integration.fight import command, started_fight
from tests.integration.live import served

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


async def test_it_reads_a_live_stream_in_order_as_it_grows(database_url: str) -> None:
    async with served(database_url) as s, httpx.AsyncClient(base_url=s.base, timeout=30) as c:
        enc, mira, _ = await started_fight(c)
        got: list[Any] = []
        arrived = asyncio.Event()

        def on_text(text: bytes) -> None:
            got.extend(json.loads(text))  # ?batch=true: a batch of messages a frame
            arrived.set()

        url = f"ws://{s.base.removeprefix('http://')}/encounters/{enc}/live?after=0&batch=true"
        reader = await wsreader.connect(url, {"Authorization": c.headers["Authorization"]}, on_text)
        head = (await command(c, enc, {"type": "EndTurn", "combatant_id": mira}))["version"]
        for _ in range(100):
            if any(m["type"] == "event" and m["version"] == head for m in got):
                break
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 10)
        versions = [m["version"] for m in got if m["type"] == "event"]
        assert head > 6 and versions == list(range(1, head + 1)), versions  # six before it connected, then the turn's end
        assert {"hello", "state", "event"} <= {m["type"] for m in got}
        reader.transport.close()  # type: ignore[union-attr]
        await asyncio.wait_for(reader.closed, 5)


async def _server(script: Any) -> tuple[asyncio.Server, int]:
    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        head = (await r.readuntil(b"\r\n\r\n")).decode("latin-1")
        key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n")
                   if line.lower().startswith("sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        w.write(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode())
        await script(r, w)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def test_it_answers_a_ping_with_a_masked_pong_and_joins_a_fragmented_message() -> None:
    pong: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()

    async def script(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.write(bytes([0x89, 4]) + b"ping")  # a ping, "ping"
        await w.drain()
        b0, b1 = await r.readexactly(2)
        mask = await r.readexactly(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(await r.readexactly(b1 & 0x7F)))
        pong.set_result(bytes([b0, b1 & 0x80]) + body)
        w.write(bytes([0x01, 3]) + b"hel" + bytes([0x80, 2]) + b"lo" + bytes([0x81, 126]) + (300).to_bytes(2, "big")
                + b"x" * 300)
        await w.drain()
        w.close()

    server, port = await _server(script)
    texts: list[bytes] = []
    async with server:
        reader = await wsreader.connect(f"ws://127.0.0.1:{port}/x", {}, texts.append)
        assert await asyncio.wait_for(pong, 5) == bytes([0x8A, 0x80]) + b"ping"  # FIN pong, masked
        await asyncio.wait_for(reader.closed, 5)
    assert texts == [b"hello", b"x" * 300]


async def test_a_server_that_does_not_switch_protocols_is_refused() -> None:
    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await r.readuntil(b"\r\n\r\n")
        w.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        await w.drain()
        w.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    async with server:
        with pytest.raises(ConnectionError, match="403"):
            await wsreader.connect(f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/x", {}, lambda _t: None)
