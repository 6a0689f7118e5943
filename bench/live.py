"""``python -m bench.live``: live streams under load: commit-to-receipt latency and commands/s.

One PostgreSQL (DATABASE_URL, else an embedded one in a temporary folder), a fresh database
``fracas_bench``, two real server processes (``python -m server.cli serve``, one worker each,
rate limit off) on two ports. The bench opens ``--encounters`` fights through the API (four
player characters, two NPCs and a hidden NPC each, initiative rolled, round 1 begun) and mints
their tokens. Then:

1. **Baseline**: with nobody subscribed, one command sender per encounter sends commands for
   ``--seconds``, each command to the other process than the last: the acting combatant
   notches an arrow (1 AP) when it has the AP, then ends its turn (so 1-2 events a command,
   a new round now and then), always with the GM's token, always legal.
2. **With subscribers**: ``--subscribers`` WebSocket clients (default 200; in their own
   process, ``python -m bench.live --subscribe``), alternately on the two processes and spread
   over the encounters, each with ``?batch=true`` as fracas-client.js asks (a batch's messages in
   one frame; ``--frames single``: one message a frame): 2% with the GM's token, 8% with the players' tokens (spread over the
   four), the rest spectators (the stream overlay's many viewers). Once every client has its
   first ``state``, the same senders run for ``--warmup`` (not measured) and ``--seconds``.

Latency: for each ``event`` message a client receives, the time from the event's
``recorded_at`` (stamped by the server just before the INSERT that commits it; the same
machine's clock) to the moment the client has read the message. Every client also checks that
it gets every version once, in order (``gaps`` counts any miss or repeat), and ``dropped``
counts streams that closed. ``cpu a``/``cpu b`` are the two server processes' CPU during the
measured run (100% = one core); ``others`` is what processes foreign to the bench used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from bench.append import (
    BENCH_DATABASE,
    CpuSnapshot,
    descendants,
    FRACAS_ENV,
    REPO,
    cpu_snapshot,
    cpu_use,
    drop_database,
    postgres_server,
    prepare_database,
    run_server,
)
from bench.loadgen import HttpConnection, event_loop_factory, percentile

SHEET = {
    "attributes": {"strength": "D8", "agility": "D8", "dexterity": "D8", "stamina": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Pistol": "D8", "Brawling": "D6", "Medical": "D6"},
    "weapons": [{"name": "Knife", "skill": "Knife", "kind": "melee",
                 "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}],
    "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}],
}
CAST = [("Mira", "player", False), ("Kess", "player", False), ("Oren", "player", False), ("Tam", "player", False),
        ("Bandit", "gm", False), ("Ogre Brute", "gm", False), ("Lurking Assassin", "gm", True)]


@dataclass
class Fight:
    encounter_id: str
    gm: str
    players: list[str]
    spectator: str
    turn: str
    action_points: dict[str, int]


class _Reply(msgspec.Struct):
    version: int = 0
    state: dict[str, Any] = msgspec.field(default_factory=dict)


_reply = msgspec.json.Decoder(_Reply)


async def call(conn: HttpConnection, method: str, path: str, body: Any, token: str, expect: int) -> Any:
    status, data = await conn.request(method, path, json.dumps(body).encode() if body is not None else b"", token)
    if status != expect:
        raise SystemExit(f"{method} {path}: {status} {data[:300]!r}")
    return json.loads(data)


async def set_up(port: int, encounters: int) -> list[Fight]:
    conn = HttpConnection("127.0.0.1", port)
    operator = os.environ.get("FRACAS_OPERATOR_KEY", "")
    fights = []
    try:
        for n in range(encounters):
            opened = await call(conn, "POST", "/encounters",
                                {"ruleset": "places-of-power", "name": f"Live bench {n}"}, operator, 201)
            enc, gm = opened["encounter_id"], opened["gm_token"]["token"]
            ids = {}
            for name, controller, hidden in CAST:
                added = await call(conn, "POST", f"/encounters/{enc}/combatants", {
                    "name": name, "side": "party" if controller == "player" else "enemies",
                    "controller": controller, "hidden": hidden, "sheet": SHEET}, gm, 201)
                ids[name] = added["events"][0]["data"]["combatant_id"]
            players = [(await call(conn, "POST", f"/encounters/{enc}/tokens",
                                   {"role": "player", "combatant_ids": [ids[name]]}, gm, 201))["token"]
                       for name, controller, _ in CAST if controller == "player"]
            spectator = (await call(conn, "POST", f"/encounters/{enc}/tokens", {"role": "spectator"}, gm, 201))["token"]
            await call(conn, "POST", f"/encounters/{enc}/commands", {"type": "RollInitiative"}, gm, 200)
            state = (await call(conn, "POST", f"/encounters/{enc}/commands", {"type": "StartEncounter"}, gm, 200))["state"]
            fights.append(Fight(enc, gm, players, spectator, state["turn"],
                                {c: v["action_points"] for c, v in state["combatants"].items()}))
    finally:
        await conn.close()
    return fights


async def drive(fights: list[Fight], ports: tuple[int, int], seconds: float) -> tuple[int, float]:
    """One sender per fight, alternating processes; returns (commands, seconds)."""
    sent = 0

    async def sender(f: Fight) -> None:
        nonlocal sent
        conns = [HttpConnection("127.0.0.1", p) for p in ports]
        n = 0
        try:
            while time.monotonic() < deadline:
                turn = f.turn
                if f.action_points.get(turn, 0) >= 1 and n % 2 == 0:
                    body = {"type": "TakeAction", "combatant_id": turn, "action": "NotchArrow"}
                else:
                    body = {"type": "EndTurn", "combatant_id": turn}
                status, data = await conns[n % 2].request("POST", f"/encounters/{f.encounter_id}/commands",
                                                          json.dumps(body).encode(), f.gm)
                if status != 200:
                    raise SystemExit(f"command {body}: {status} {data[:300]!r}")
                reply = _reply.decode(data)
                f.turn = reply.state["turn"]
                f.action_points = {c: v["action_points"] for c, v in reply.state["combatants"].items()}
                n += 1
                sent += 1
        finally:
            for c in conns:
                await c.close()

    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(*(sender(f) for f in fights))
    return sent, time.monotonic() - start


def plan(fights: list[Fight], ports: tuple[int, int], subscribers: int, after: dict[str, int],
         batch: bool = True) -> list[dict[str, str]]:
    """Who subscribes where: alternately on the two processes, spread over the fights; 2% GMs,
    8% players (over the four), the rest spectators; each from the fight's version ``after``."""
    out = []
    for i in range(subscribers):
        f = fights[i % len(fights)]
        k = i // len(fights)
        per_fight = subscribers // len(fights)
        if k < max(1, per_fight * 2 // 100):
            token, role = f.gm, "gm"
        elif k < max(1, per_fight * 2 // 100) + max(4, per_fight * 8 // 100):
            token, role = f.players[k % len(f.players)], "player"
        else:
            token, role = f.spectator, "spectator"
        out.append({"url": f"ws://127.0.0.1:{ports[i % 2]}/encounters/{f.encounter_id}/live"
                           f"?after={after[f.encounter_id]}" + ("&batch=true" if batch else ""),
                    "token": token, "role": role})
    return out


async def current_versions(fights: list[Fight], port: int) -> dict[str, int]:
    conn = HttpConnection("127.0.0.1", port)
    try:
        return {f.encounter_id: (await call(conn, "GET", f"/encounters/{f.encounter_id}", None, f.gm, 200))["version"]
                for f in fights}
    finally:
        await conn.close()


def tree_cpu(before: CpuSnapshot, after: CpuSnapshot, root: int | None) -> float | None:
    """% of one core used by ``root`` and its descendants (PostgreSQL's backends) meanwhile."""
    if root is None or not after.procs:
        return None
    parents = {pid: ppid for pid, (ppid, _) in (before.procs | after.procs).items()}
    pids = descendants([root], parents)
    used = sum(after.procs[p][1] - before.procs.get(p, (0, 0.0))[1] for p in pids if p in after.procs)
    return 100 * used / (after.at - before.at)


# ------------------------------------------------------------------------- subscribers


class _Event(msgspec.Struct):
    recorded_at: datetime


class _Message(msgspec.Struct):
    type: str
    version: int
    event: _Event | None = None


_frame = msgspec.json.Decoder(_Message | list[_Message])  # a message, or (?batch=true) a batch of them


async def subscribe(targets: list[dict[str, str]], lean: bool = True) -> None:
    """The subscriber process: connect every client, say ``ready``, record until ``stop T0 T1``
    arrives on stdin, then print what was seen in [T0, T1] as JSON. ``lean``: each client a
    ``bench.wsreader`` (a frame read by a few lines of Python), else the ``websockets`` library's."""
    import websockets

    from bench import wsreader

    samples: list[tuple[float, float]] = []  # (recorded_at, latency ms)
    gaps = dropped = messages = frames = 0
    nbytes = 0
    by_type: dict[str, int] = {}
    started = 0
    all_started = asyncio.Event()

    async def client(t: dict[str, str]) -> None:
        nonlocal gaps, dropped, messages, frames, nbytes, started
        last = None
        first_state = True

        def received(text: str | bytes) -> None:
            nonlocal gaps, messages, frames, nbytes, started, last, first_state
            now = time.time()
            decoded = _frame.decode(text)
            frames += 1
            nbytes += len(text)
            for m in decoded if isinstance(decoded, list) else (decoded,):
                messages += 1
                by_type[m.type] = by_type.get(m.type, 0) + 1
                if m.type == "event":
                    if last is not None and m.version != last + 1:
                        gaps += 1
                    last = m.version
                    assert m.event is not None
                    at = m.event.recorded_at.timestamp()
                    samples.append((at, (now - at) * 1000))
                elif m.type == "hello":
                    last = m.version
                elif m.type == "state" and first_state:
                    first_state = False
                    started += 1
                    if started == len(targets):
                        all_started.set()

        headers = {"Authorization": f"Bearer {t['token']}"}
        try:
            if lean:
                reader = await wsreader.connect(t["url"], headers, received)
                await reader.closed
            else:
                async with websockets.connect(t["url"], additional_headers=headers, max_size=None,
                                              open_timeout=60) as ws:
                    async for text in ws:
                        received(text)
        except asyncio.CancelledError:
            raise
        except Exception:
            pass
        dropped += 1

    tasks = []
    for i in range(0, len(targets), 20):  # connect in batches
        tasks += [asyncio.create_task(client(t)) for t in targets[i:i + 20]]
        await asyncio.sleep(0.05)
    await asyncio.wait_for(all_started.wait(), 120)
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    _, t0, t1 = line.split()
    await asyncio.sleep(1.0)  # what was committed last is still on its way
    lat = sorted(ms for at, ms in samples if float(t0) <= at <= float(t1))
    print(json.dumps({"count": len(lat), "p50": percentile(lat, 50), "p99": percentile(lat, 99),
                      "max": lat[-1] if lat else 0.0, "gaps": gaps, "dropped": dropped,
                      "messages": messages, "frames": frames, "bytes": nbytes, "by_type": by_type}), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# ---------------------------------------------------------------------------------- main


def run(factory: Any, coro: Any) -> Any:
    if factory is None:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=200)
    parser.add_argument("--encounters", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--frames", choices=["batch", "single"], default="batch",
                        help="batch: ?batch=true, a batch's messages in one frame (as fracas-client.js); single: one a frame")
    parser.add_argument("--client", choices=["lean", "websockets"], default="lean",
                        help="the subscribers' WebSocket client: lean (bench/wsreader.py, little Python a frame: "
                             "the subscribers share the cores with the servers) or the websockets library's")
    parser.add_argument("--subscribe", type=Path, help=argparse.SUPPRESS)  # the subscriber process
    args = parser.parse_args(argv)
    factory = event_loop_factory()
    if args.subscribe:
        run(factory, subscribe(json.loads(args.subscribe.read_text()), args.client == "lean"))
        return 0

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-live-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn, pg_version, postmaster = asyncio.run(prepare_database(admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        print(f"PostgreSQL {pg_version}: {where}; database {BENCH_DATABASE}", flush=True)
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"]
        a = stack.enter_context(run_server("fracas-a", serve, dsn, workdir, FRACAS_ENV))
        b = stack.enter_context(run_server("fracas-b", serve, dsn, workdir, FRACAS_ENV))
        ports = (a.port, b.port)
        print(f"two fracas processes: pid {a.process.pid} on {a.port}, pid {b.process.pid} on {b.port} "
              f"(one worker each, rate limit off)", flush=True)
        fights = run(factory, set_up(a.port, args.encounters))

        base_sent, base_time = run(factory, drive(fights, ports, args.seconds))
        print(f"baseline, nobody subscribed: {base_sent / base_time:,.0f} commands/s "
              f"({args.encounters} sender(s), {args.seconds:.0f} s)", flush=True)

        plan_file = workdir / "plan.json"
        versions = run(factory, current_versions(fights, a.port))
        plan_file.write_text(json.dumps(plan(fights, ports, args.subscribers, versions, args.frames == "batch")))
        sub = subprocess.Popen([sys.executable, "-m", "bench.live", "--subscribe", str(plan_file),
                                "--client", args.client], cwd=REPO,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        stack.callback(sub.kill)
        assert sub.stdout is not None and sub.stdin is not None
        if sub.stdout.readline().strip() != "ready":
            raise SystemExit("the subscribers did not all connect")
        run(factory, drive(fights, ports, args.warmup))
        t0 = datetime.now(UTC).timestamp()
        before = cpu_snapshot()
        sent, took = run(factory, drive(fights, ports, args.seconds))
        after = cpu_snapshot()
        t1 = datetime.now(UTC).timestamp()
        sub.stdin.write(f"stop {t0} {t1}\n")
        sub.stdin.flush()
        result = json.loads(sub.stdout.readline())
        sub.wait(timeout=30)
        ours = [sub.pid] + ([postmaster] if postmaster else [])
        use_a = cpu_use(before, after, a.process.pid, ours + [b.process.pid])
        use_b = cpu_use(before, after, b.process.pid, ours + [a.process.pid])

        rate = sent / took
        print()
        print("subscribers  encounters  base cmd/s  cmd/s  ratio  events recv'd  p50 ms  p99 ms  max ms  gaps  "
              "dropped  cpu a  cpu b  cpu pg  cpu subs  others")
        print(f"{args.subscribers:>11}  {args.encounters:>10}  {base_sent / base_time:>10,.0f}  {rate:>5,.0f}  "
              f"{rate / (base_sent / base_time):>5.2f}  {result['count']:>13,}  {result['p50']:>6.1f}  "
              f"{result['p99']:>6.1f}  {result['max']:>6.1f}  {result['gaps']:>4}  {result['dropped']:>7}  "
              f"{_pct(use_a.server)}  {_pct(use_b.server)}  {_pct(tree_cpu(before, after, postmaster)):>6}  "
              f"{_pct(tree_cpu(before, after, sub.pid)):>8}  {_pct(use_a.others):>6}")
        kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(result["by_type"].items()))
        print(f"\n{result['messages']:,} messages in {result['frames']:,} frames ({result['bytes'] / 1e6:,.1f} MB) "
              f"received in all ({kinds}); "
              f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores; "
              f"subscribers' client: {args.client}")
    return 0


def _pct(v: float | None) -> str:
    return "   -" if v is None else f"{v:>4.0f}%"


if __name__ == "__main__":
    sys.exit(main())
