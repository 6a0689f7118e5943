"""``python -m bench.cpu``: the server's own CPU per command, in process, without HTTP.

On a 2-core machine the HTTP figures of ``bench.append`` move with whatever else runs;
this one measures what the Python of a command costs, which is what limits throughput
once the server process has a core to itself. It starts the app (``server.app.create_app``,
or ``bench.bare``'s ceiling with ``--bare``) in this process on uvloop, calls it as an ASGI
application directly (no sockets, no uvicorn: the HTTP parsing both pay alike is left
out), opens ``--encounters`` encounters as ``bench.append`` does, then sends ``EndTurn``
to encounters picked at random from ``--concurrency`` tasks for ``--commands`` commands,
and prints this process's CPU time (user + system) per command, best of ``--repeat``,
with the wall-clock rate for reference. PostgreSQL's CPU is not counted (another process), nor
the projector's: as under ``fracas serve``, the app runs no read-model runner
(``FRACAS_PROJECTIONS=external``) unless ``--inline-projections`` is given.

    python -m bench.cpu                 # Fracas
    python -m bench.cpu --bare          # the ceiling: decode a small body, INSERT one row
    python -m bench.cpu --profile out.txt   # cProfile of the last repeat, sorted by own time
    python -m bench.cpu --instructions      # instructions per command, Fracas and the ceiling

``--instructions``: this benchmark run under valgrind's callgrind (``bench/instructions.py``),
once for Fracas and once for the ceiling, counting this process's instructions during the
measured load only: per command, and their ratio. It moves ~0.2% between runs where CPU time
moves 15-30%. Work the app does by the clock rather than by the command (the webhook deliverer's
round after each wake-up and its settle) would be counted once per ~50 slowed-down commands
instead of once per hundreds: the counted runs set ``FRACAS_WEBHOOK_SETTLE`` to 30 s to leave it out.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any


from bench import instructions
from bench.append import drop_database, postgres_server, prepare_database

Asgi = Callable[[dict[str, Any], Callable[[], Awaitable[dict[str, Any]]], Callable[[dict[str, Any]], Awaitable[None]]],
                Awaitable[None]]


async def call(app: Asgi, method: str, path: str, body: bytes, token: str | None) -> tuple[int, bytes]:
    """One request through the ASGI app: (status, body)."""
    headers = [(b"host", b"bench"), (b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if token:
        headers.append((b"authorization", b"Bearer " + token.encode()))
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": method, "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # the client never disconnects
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status, chunks = 0, []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


class Lifespan:
    """Runs the app's startup and shutdown as uvicorn does."""

    def __init__(self, app: Asgi) -> None:
        self.app, self.inbox, self.outbox = app, asyncio.Queue(), asyncio.Queue()

    async def __aenter__(self) -> Lifespan:
        self.task = asyncio.ensure_future(self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                                   self.inbox.get, self.outbox.put))
        await self.inbox.put({"type": "lifespan.startup"})
        msg = await self.outbox.get()
        if msg["type"] != "lifespan.startup.complete":
            raise SystemExit(f"startup failed: {msg}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.inbox.put({"type": "lifespan.shutdown"})
        await self.outbox.get()
        await self.task


async def open_encounters(app: Asgi, count: int) -> list[tuple[str, str, str]]:
    """(path, EndTurn body, token) for ``count`` started one-combatant encounters."""
    out = []
    for n in range(count):
        status, raw = await call(app, "POST", "/encounters",
                                 json.dumps({"ruleset": "places-of-power", "name": f"cpu {n}"}).encode(), None)
        assert status == 201, raw
        opened = json.loads(raw)
        enc, token = opened["encounter_id"], opened["gm_token"]["token"]
        body = {"name": "Solo", "side": "party", "controller": "player", "sheet": {"initiative_modifier": 0}}
        status, raw = await call(app, "POST", f"/encounters/{enc}/combatants", json.dumps(body).encode(), token)
        assert status == 201, raw
        cid = json.loads(raw)["events"][0]["data"]["combatant_id"]
        for command in ({"type": "RollInitiative"}, {"type": "StartEncounter"}):
            status, raw = await call(app, "POST", f"/encounters/{enc}/commands", json.dumps(command).encode(), token)
            assert status == 200, raw
        out.append((f"/encounters/{enc}/commands", json.dumps({"type": "EndTurn", "combatant_id": cid}).encode(),
                    token))
    return out


async def load(app: Asgi, targets: list[tuple[str, bytes, str | None]], commands: int, concurrency: int) -> int:
    """Send ``commands`` requests from ``concurrency`` tasks; returns the number of non-200 answers."""
    left, errors = commands, 0
    rng = random.Random(1)

    async def worker() -> None:
        nonlocal left, errors
        while left > 0:
            left -= 1
            path, body, token = rng.choice(targets)
            status, raw = await call(app, "POST", path, body, token)
            if status != 200:
                errors += 1
                if errors < 3:
                    print(f"  !! {status}: {raw[:300]!r}")

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return errors


async def run(args: argparse.Namespace, dsn: str) -> None:
    os.environ["DATABASE_URL"] = dsn
    os.environ.setdefault("FRACAS_RATE_LIMIT", "0")
    # as `fracas serve` runs its workers: the read models are kept by a projector process beside
    # them (server/store/projector.py), whose CPU is not the server's; --inline-projections counts them
    os.environ["FRACAS_PROJECTIONS"] = "inline" if args.inline_projections else "external"
    if args.bare:
        from bench.bare import create_app as create_bare

        app: Any = create_bare()
    else:
        from server.app import create_app

        app = create_app(dsn)
    async with Lifespan(app):
        if args.bare:
            import uuid

            targets: list[tuple[str, bytes, str | None]] = []
            for _ in range(args.encounters):
                enc = str(uuid.uuid4())
                targets.append(("/append", json.dumps({"encounter_id": enc, "version": 1,
                                                      "data": {"type": "EndTurn", "combatant_id": enc}}).encode(),
                                None))
        else:
            targets = list(await open_encounters(app, args.encounters))
        await load(app, targets, min(args.commands, 2000), args.concurrency)  # warm-up
        best = None
        for i in range(args.repeat):
            profiler = cProfile.Profile(time.process_time) if args.profile and i == args.repeat - 1 else None
            cpu, wall, times = time.process_time(), time.perf_counter(), os.times()
            if profiler:
                profiler.enable()
            with instructions.counted():
                errors = await load(app, targets, args.commands, args.concurrency)
            if profiler:
                profiler.disable()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            after = os.times()
            per = cpu / args.commands * 1e6
            user, system = ((after.user - times.user) / args.commands * 1e6,
                            (after.system - times.system) / args.commands * 1e6)
            print(f"  run {i + 1}: {per:,.0f} µs CPU per command ({user:,.0f} user, {system:,.0f} system), "
                  f"{args.commands / wall:,.0f} commands/s wall, {errors} errors", flush=True)
            best = per if best is None else min(best, per)
            if profiler:
                with open(args.profile, "w") as out:
                    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(60)
                    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_callers(12)
                    pstats.Stats(profiler, stream=out).sort_stats("cumtime").print_stats(80)
        print(f"{'bare' if args.bare else 'fracas'}: best {best:,.0f} µs of CPU per command "
              f"(c={args.concurrency}, {args.commands} commands, best of {args.repeat})")


def count(args: argparse.Namespace) -> int:
    """Instructions a command for Fracas and for the ceiling, each run once under callgrind."""
    if not instructions.available():
        print("--instructions needs valgrind (Debian: apt-get install valgrind)")
        return 2
    per = {}
    for who in ("fracas", "bare"):
        n, _ = instructions.run("bench.cpu", "--repeat", "1", "--commands", str(args.commands), "--concurrency",
                             str(args.concurrency), "--encounters", str(args.encounters),
                             *(["--bare"] if who == "bare" else []),
                             # see the module's docstring; the counted process's alone (set here, the
                             # contract test handed it to every later e2e server: issue 40)
                             env={"FRACAS_WEBHOOK_SETTLE": "30"})
        per[who] = n / args.commands
        print(f"{who}: {per[who]:,.0f} instructions per command (c={args.concurrency}, {args.commands} commands, "
              "counted by callgrind)", flush=True)
    print(f"fracas/bare: {per['fracas'] / per['bare']:.2f}x the instructions "
          f"(the ceiling's share of Fracas's: {per['bare'] / per['fracas']:.2f})")
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu", description=__doc__.splitlines()[0])
    parser.add_argument("--bare", action="store_true", help="the ceiling app instead of Fracas")
    parser.add_argument("--commands", type=int)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--encounters", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per command under valgrind's callgrind (Fracas and the ceiling; "
                             "--commands defaults to 1,000 and --encounters to 20 then)")
    parser.add_argument("--profile", help="write a cProfile of the last repeat to this file")
    parser.add_argument("--inline-projections", action="store_true",
                        help="run the read models' runner in the app (FRACAS_PROJECTIONS=inline), as before")
    args = parser.parse_args(argv)
    if args.instructions:
        args.commands, args.encounters = args.commands or 1_000, args.encounters or 20
        raise SystemExit(count(args))
    args.commands, args.encounters = args.commands or 10_000, args.encounters or 200
    import uvloop

    with postgres_server() as (admin_dsn, _where):
        dsn, version, _ = asyncio.run(prepare_database(admin_dsn))
        try:
            uvloop.run(run(args, dsn))
        finally:
            asyncio.run(drop_database(admin_dsn))


if __name__ == "__main__":
    main()
