"""``python -m bench.webhooks``: what webhooks cost the commands, and how soon they deliver.

One PostgreSQL (DATABASE_URL, else an embedded one), a fresh database ``fracas_bench``, one
real server process (``fracas serve``, rate limit off, FRACAS_WEBHOOK_ALLOW_PRIVATE=1 to reach
the bench's receiver on 127.0.0.1). ``--encounters`` fights are opened; one sender per fight
sends legal commands (EndTurn of the solo combatant: a turn and a new round each) for
``--seconds``, first with no webhook (the baseline), then with ``--hooks`` webhooks on every
fight, to a receiver in this process that answers 200 at once. Printed: commands/s each way
and their ratio; for each event a receiver got, the time from its ``recorded_at`` (stamped
just before the INSERT that commits it, this machine's clock) to its receipt (p50, p99); and
whether every webhook got every event once, in order (``gaps``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path

from bench.append import (
    BENCH_DATABASE, FRACAS_ENV, Opened, drop_database, open_encounters, postgres_server, prepare_database, run_server,
)
from bench.loadgen import HttpConnection, percentile


class Receiver:
    """A bare HTTP/1.1 receiver (asyncio streams): records each event's arrival time."""

    def __init__(self) -> None:
        self.arrivals: dict[tuple[str, str], list[tuple[int, float, float]]] = {}  # (hook, enc) -> (version, lag, t)
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                body = json.loads(await reader.readexactly(length))
                now = time.time()
                for e in body["events"]:
                    lag = now - datetime.fromisoformat(e["recorded_at"]).timestamp()
                    self.arrivals.setdefault((body["webhook_id"], body["encounter_id"]), []).append(
                        (e["version"], lag, now))
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


async def send_for(port: int, encounters: list[Opened], seconds: float) -> int:
    """One sender per fight, EndTurn after EndTurn, for ``seconds``: the commands answered 200."""
    stop = time.monotonic() + seconds
    done = 0

    async def sender(opened: Opened) -> None:
        nonlocal done
        conn = HttpConnection("127.0.0.1", port)
        body = json.dumps({"type": "EndTurn", "combatant_id": opened.combatant_id}).encode()
        try:
            while time.monotonic() < stop:
                status, answer = await conn.request("POST", f"/encounters/{opened.encounter_id}/commands", body,
                                                    opened.token)
                if status != 200:
                    raise SystemExit(f"a command answered {status}: {answer[:300]!r}")
                done += 1
        finally:
            await conn.close()

    await asyncio.gather(*(sender(o) for o in encounters))
    return done


async def measure(port: int, args: argparse.Namespace) -> None:
    encounters = await open_encounters(port, args.encounters)
    await send_for(port, encounters, 1.0)  # warm up
    baseline = await send_for(port, encounters, args.seconds) / args.seconds
    receiver = Receiver()
    await receiver.start()
    conn = HttpConnection("127.0.0.1", port)
    heads = {}
    for o in encounters:
        for n in range(args.hooks):
            status, answer = await conn.request("POST", f"/encounters/{o.encounter_id}/webhooks", json.dumps(
                {"url": f"http://127.0.0.1:{receiver.port}/hook{n}"}).encode(), o.token)
            if status != 201:
                raise SystemExit(f"registering a webhook answered {status}: {answer[:300]!r}")
        status, answer = await conn.request("GET", f"/encounters/{o.encounter_id}", b"", o.token)
        heads[o.encounter_id] = json.loads(answer)["version"]
    hooked = await send_for(port, encounters, args.seconds) / args.seconds
    deadline = time.monotonic() + 30
    finals = {}
    for o in encounters:
        status, answer = await conn.request("GET", f"/encounters/{o.encounter_id}", b"", o.token)
        finals[o.encounter_id] = json.loads(answer)["version"]
    expected = {enc: list(range(heads[enc] + 1, finals[enc] + 1)) for enc in finals}
    while time.monotonic() < deadline and sum(len(v) for v in receiver.arrivals.values()) < \
            args.hooks * sum(len(v) for v in expected.values()):
        await asyncio.sleep(0.1)
    await conn.close()
    gaps = 0
    for enc, versions in expected.items():
        per_hook = {hook: [v for v, _, _ in arr] for (hook, e), arr in receiver.arrivals.items() if e == enc}
        gaps += sum(1 for seen in per_hook.values() if seen != versions) + (args.hooks - len(per_hook))
    lags = sorted(lag for arr in receiver.arrivals.values() for _, lag, _ in arr)
    print(f"{args.encounters} fights, {args.hooks} webhook(s) each, {args.seconds:.0f} s a run")
    print(f"commands/s  no webhook {baseline:8.1f}   with webhooks {hooked:8.1f}   ratio {hooked / baseline:5.2f}x")
    if lags:
        print(f"commit to receipt  p50 {percentile(lags, 50) * 1000:6.1f} ms   p99 {percentile(lags, 99) * 1000:6.1f} ms"
              f"   events received {len(lags)}   gaps {gaps}")
    else:
        print("no event received")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.webhooks", description=__doc__.split("\n")[0])
    parser.add_argument("--encounters", type=int, default=8)
    parser.add_argument("--hooks", type=int, default=1, help="webhooks on each fight")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-webhooks-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn, pg_version, _ = asyncio.run(prepare_database(admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        print(f"PostgreSQL {pg_version}: {where}; database {BENCH_DATABASE}", flush=True)
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"]
        env = {**FRACAS_ENV, "FRACAS_WEBHOOK_ALLOW_PRIVATE": "1"}
        server = stack.enter_context(run_server("fracas", serve, dsn, workdir, env))
        asyncio.run(measure(server.port, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
