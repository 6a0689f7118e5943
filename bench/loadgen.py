"""A small HTTP/1.1 keep-alive client, and the fallback load generator used when ``wrk`` is absent.

Run as its own process (never inside the server under test)::

    python -m bench.loadgen --port 8000 --targets targets.json --concurrency 16 --seconds 10

``targets.json`` is a list of ``[path, body, token]``; each request POSTs one of them, picked
at random, with ``Authorization: Bearer <token>`` (no such header when the token is empty).
Where a path comes more than once with the same token, those targets are one encounter's cycle
of commands, sent in their order: the encounters are shared out among the connections (each
sends its own encounters' commands one at a time, taking them in turn) and a cycle moves on only
past an answer of 200.
The result is one JSON object on stdout (see ``LoadReport``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec


class LoadReport(msgspec.Struct, kw_only=True):
    """What a load run saw: completed responses by status, socket errors, latency of completed requests."""

    generator: str
    seconds: float
    requests: int
    statuses: dict[int, int]
    socket_errors: dict[str, int]
    p50_ms: float
    p99_ms: float
    first_errors: list[str]
    # commands sent after the time was up to bring each encounter back to the start of its cycle
    # (the next run starts there): stored, not counted above
    unmeasured: int = 0


class HttpConnection:
    """One keep-alive HTTP/1.1 connection; enough for the JSON bodies Fracas answers with."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", token: str | None = None) -> tuple[int, bytes]:
        """One request; with ``token``, sent as ``Authorization: Bearer <token>``."""
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        self._writer.write(head + body)
        status_line, *header_lines = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        length = 0
        for line in header_lines:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            elif name.strip().lower() == "transfer-encoding":
                raise RuntimeError("chunked responses are not supported by this client")
        return status, await self._reader.readexactly(length)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
            self._writer = None


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list (0.0 when empty)."""
    if not sorted_values:
        return 0.0
    k = math.ceil(p / 100 * len(sorted_values)) - 1
    return sorted_values[max(0, min(len(sorted_values) - 1, k))]


async def run_load(
    host: str, port: int, targets: list[tuple[str, bytes, str]], concurrency: int, seconds: float
) -> LoadReport:
    """``concurrency`` workers, one connection each, POSTing random targets (path, body, bearer
    token) for ``seconds``."""
    statuses: Counter[int] = Counter()
    socket_errors: Counter[str] = Counter()
    latencies: list[float] = []
    first_errors: list[str] = []
    start = time.perf_counter()
    deadline = start + seconds

    cycles: dict[tuple[str, str], list[tuple[str, bytes, str]]] = {}  # by path and token: an encounter's
    for t in targets:
        cycles.setdefault((t[0], t[2]), []).append(t)
    owned = [list(cycles.values())[i::concurrency] for i in range(concurrency)] if len(cycles) < len(targets) else None

    async def worker(seed: int) -> None:
        rng = random.Random(seed)
        conn = HttpConnection(host, port)
        mine = owned[seed] if owned is not None else []
        at = [0] * len(mine)  # where each of its encounters is in its cycle
        turn = 0
        try:
            while time.perf_counter() < deadline:
                if owned is None:
                    path, body, token = targets[rng.randrange(len(targets))]
                elif not mine:
                    return  # more connections than encounters
                else:
                    turn = (turn + 1) % len(mine)
                    path, body, token = mine[turn][at[turn]]
                t0 = time.perf_counter()
                try:
                    status, answer = await conn.request("POST", path, body, token)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    socket_errors[type(exc).__name__] += 1
                    await conn.close()
                    continue
                latencies.append(time.perf_counter() - t0)
                statuses[status] += 1
                if owned is not None and status == 200:
                    at[turn] = (at[turn] + 1) % len(mine[turn])
                if status != 200 and len(first_errors) < 5:
                    first_errors.append(f"{status} {answer[:300].decode(errors='replace')}")
            ended.append(time.perf_counter())
            for i, cycle in enumerate(mine):  # back to the start of each cycle, for the next run
                tries = 0
                while at[i] and tries < 3 * len(cycle):
                    tries += 1
                    path, body, token = cycle[at[i]]
                    status, _ = await conn.request("POST", path, body, token)
                    if status == 200:
                        at[i] = (at[i] + 1) % len(cycle)
                        unmeasured[0] += 1
        finally:
            await conn.close()

    ended: list[float] = []
    unmeasured = [0]
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    elapsed = (max(ended) if ended else time.perf_counter()) - start
    latencies.sort()
    return LoadReport(
        generator="python (asyncio, raw HTTP/1.1, separate process)",
        seconds=elapsed,
        requests=sum(statuses.values()),
        statuses=dict(statuses),
        socket_errors=dict(socket_errors),
        p50_ms=percentile(latencies, 50) * 1000,
        p99_ms=percentile(latencies, 99) * 1000,
        first_errors=first_errors,
        unmeasured=unmeasured[0],
    )


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop where it is installed (as the server uses), else asyncio's default."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.loadgen", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--targets", required=True, help="JSON file: a list of [path, body, token]")
    parser.add_argument("--concurrency", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    args = parser.parse_args(argv)
    raw: list[list[Any]] = json.loads(Path(args.targets).read_text(encoding="utf-8"))
    targets = [(str(path), str(body).encode(), str(token)) for path, body, token in raw]
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        report = runner.run(run_load(args.host, args.port, targets, args.concurrency, args.seconds))
    sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
