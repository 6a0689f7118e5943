"""``python -m bench.tables``: how many tables one box holds on a Friday night.

N encounters at once (``--tables``, default a sweep of 50, 200, 500 and 1,000), each a table: a GM,
4 players and 1 spectator, all six following the live stream (the GM and the players over
WebSocket with ``?batch=true`` as fracas-client.js asks, the spectator's overlay over Server-Sent
Events). Commands come at table pace: one every ``--pace`` seconds (2) per table, jittered, each
drawn from the server's next moves as the acting screen's live stream delivers them (the GM's for
the NPCs, a player's for their own; a move or an answer picked at random, mostly not ending the
turn), so every one is legal; as on the web table, no ``GET /actions`` between commands. One
``fracas serve --workers W`` (``--workers``, 2; rate limit off) on the embedded PostgreSQL
(DATABASE_URL's server when set); the tables are driven and watched from ``--clients`` processes
(2) of this module, on the same machine.

For each N it prints: commands/s; p50 and p99 from sending a command to the moment the last of
that table's six screens has a message of the command's last version; connections; the CPU of
the server processes, PostgreSQL and the clients (100% = one core); the servers' memory per table
(their resident memory with the tables seated, less before, over N); gaps (a screen that missed or
repeated a version); dropped (streams that closed in the measured seconds). As fracas-client.js
does, a refused or closed screen opens again a second or two later, resuming with ``after=``, and
a request answered 503 is sent again. Its last line reads ``tables held at p99 < 100 ms: N`` (the largest N swept
whose p99 stayed under 100 ms, 0 if none).

    python -m bench.tables                      # the sweep
    python -m bench.tables --tables 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from bench.append import (
    BENCH_DATABASE,
    FRACAS_ENV,
    REPO,
    cpu_snapshot,
    descendants,
    drop_database,
    postgres_server,
    prepare_database,
    run_server,
)
from bench.live import tree_cpu
from bench.loadgen import HttpConnection, event_loop_factory, percentile
from projections.patch import patch_in_place

SWEEP = (50, 200, 500, 1000)
KEEP_ALIVE_SECONDS = 4.0  # uvicorn closes a keep-alive connection idle for 5 s
HELD_MS = 100.0


class _Message(msgspec.Struct):
    """A live message as a screen reads it: its version, and its next moves when it carries them
    (``actions`` whole, ``actions_patch`` a JSON Patch from those of version ``base``); the rest
    (events, states, prompts) is skipped unparsed."""

    version: int = 0
    type: str = ""
    actions: msgspec.Raw = msgspec.Raw()  # empty when the message has none
    patch: msgspec.Raw = msgspec.Raw()
    base: int = 0


_frame = msgspec.json.Decoder(_Message | list[_Message])


@dataclass
class Screen:
    """One screen following a table: the highest version it has, and when each recent one came."""

    version: int = 0
    came: dict[int, float] = field(default_factory=dict)
    gaps: int = 0
    events: int = 0
    token: str = ""
    moves: dict[str, Any] | None = None  # the next moves its stream delivered (current at ``version``)
    moves_version: int = 0

    def read(self, messages: list[_Message]) -> None:
        """Keep the next moves the stream sends: whole, or patched from those of ``base``; a
        patch from others than the screen has drops them until the next whole ones."""
        for m in messages:
            if m.type == "actions":
                self.moves, self.moves_version = msgspec.json.decode(m.actions), m.version
            elif m.type == "actions_patch":
                if self.moves is not None and m.base == self.moves_version:
                    self.moves, self.moves_version = patch_in_place(self.moves, msgspec.json.decode(m.patch)), m.version
                else:
                    self.moves = None

    def saw(self, version: int, now: float) -> None:
        if version > self.version:
            for v in range(self.version + 1, version + 1):
                self.came[v] = now
            self.version = version
            if len(self.came) > 256:
                for v in sorted(self.came)[:128]:
                    del self.came[v]


@dataclass
class Table:
    encounter_id: str
    gm: str
    players: dict[str, str]  # combatant id -> its player's token
    spectator: str
    screens: list[Screen] = field(default_factory=list)
    waiting: list[tuple[int, float]] = field(default_factory=list)  # (version, sent at) not yet on every screen


async def _call(conn: HttpConnection, method: str, path: str, body: Any, token: str, expect: int) -> Any:
    """A request, tried again after a 503 (the server busy or PostgreSQL away a moment) as a client does."""
    for _ in range(20):
        status, data = await conn.request(method, path, json.dumps(body).encode() if body is not None else b"", token)
        if status != 503:
            break
        await asyncio.sleep(random.uniform(0.5, 1.5))
    if status != expect:
        raise SystemExit(f"{method} {path}: {status} {data[:300]!r}")
    return json.loads(data) if data else None


async def seat(port: int, count: int, seed: int) -> list[Table]:
    """``count`` tables of Places of Power: 4 player characters and 2 NPCs from the ruleset's own
    examples, a token each for the players and the spectator, initiative rolled, the fight begun."""
    conns = [HttpConnection("127.0.0.1", port) for _ in range(8)]
    info = await _call(conns[0], "GET", "/rulesets/places-of-power", None, "", 200)
    pc = next(e["body"] for e in info["examples"] if e["body"]["controller"] == "player")
    npcs = [e["body"] for e in info["examples"] if e["body"]["controller"] == "gm"]

    async def one(conn: HttpConnection, n: int) -> Table:
        opened = await _call(conn, "POST", "/encounters", {"ruleset": "places-of-power", "name": f"Table {seed}-{n}"},
                             "", 201)
        enc, gm = opened["encounter_id"], opened["gm_token"]["token"]
        players = {}
        for name in ("Mira", "Kess", "Oren", "Tam"):
            added = await _call(conn, "POST", f"/encounters/{enc}/combatants", {**pc, "name": name}, gm, 201)
            cid = added["events"][0]["data"]["combatant_id"]
            players[cid] = (await _call(conn, "POST", f"/encounters/{enc}/tokens",
                                        {"role": "player", "combatant_ids": [cid]}, gm, 201))["token"]
        for npc in npcs:
            await _call(conn, "POST", f"/encounters/{enc}/combatants", npc, gm, 201)
        spectator = (await _call(conn, "POST", f"/encounters/{enc}/tokens", {"role": "spectator"}, gm, 201))["token"]
        await _call(conn, "POST", f"/encounters/{enc}/commands", {"type": "RollInitiative"}, gm, 200)
        await _call(conn, "POST", f"/encounters/{enc}/commands", {"type": "StartEncounter"}, gm, 200)
        return Table(enc, gm, players, spectator)

    tables: list[Table] = []
    try:
        for start in range(0, count, len(conns)):
            tables += await asyncio.gather(*(one(conns[i], start + i) for i in range(min(len(conns), count - start))))
    finally:
        for c in conns:
            await c.close()
    return tables


async def _sse(port: int, path: str, token: str, on_version: Any) -> None:
    """A lean Server-Sent Events reader: each ``id:`` line is a version."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise ConnectionError(head[:200])
    try:
        while line := await reader.readline():
            if line.startswith(b"id:"):
                on_version(int(line[3:]))
    finally:
        writer.close()


async def follow(port: int, tables: list[Table], dropped: list[int]) -> list[asyncio.Task[None]]:
    """Open the six screens of every table (5 WebSockets, the spectator on SSE); returns their tasks."""
    from bench import wsreader

    tasks = []

    def screen_of(table: Table, token: str) -> Screen:
        s = Screen(token=token)
        table.screens.append(s)
        return s

    async def reopening(once: Any, s: Screen) -> None:
        """Follow a screen's stream (``once(after)``: open it, resuming with that query, and return
        when it ends); as fracas-client.js does, open it again a second or two after a refusal or
        a close, resuming after the version the screen has."""
        while True:
            try:
                await once(f"after={s.version}" if s.version else "")
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError):
                pass
            dropped[0] += MEASURING[0]
            await asyncio.sleep(random.uniform(1.0, 3.0))

    async def ws(table: Table, token: str) -> None:
        s = screen_of(table, token)

        def received(text: bytes) -> None:
            decoded = _frame.decode(text)
            messages = decoded if isinstance(decoded, list) else [decoded]
            s.read(messages)
            s.saw(max(m.version for m in messages), time.perf_counter())
            settle(table)

        async def once(after: str) -> None:
            reader = await wsreader.connect(
                f"ws://127.0.0.1:{port}/encounters/{table.encounter_id}/live?batch=true{after and '&' + after}",
                {"Authorization": f"Bearer {token}"}, received)
            await reader.closed

        await reopening(once, s)

    async def sse(table: Table) -> None:
        s = screen_of(table, table.spectator)

        def on_version(v: int) -> None:
            s.saw(v, time.perf_counter())
            settle(table)

        async def once(after: str) -> None:
            await _sse(port, f"/encounters/{table.encounter_id}/live{after and '?' + after}", table.spectator,
                       on_version)

        await reopening(once, s)

    for i, table in enumerate(tables):
        for token in (table.gm, *table.players.values()):
            tasks.append(asyncio.create_task(ws(table, token)))
        tasks.append(asyncio.create_task(sse(table)))
        if i % 10 == 9:
            await asyncio.sleep(0.02)  # connect in steps, as tables open through an evening
    return tasks


LATENCIES: list[float] = []
MEASURING = [False]


def settle(table: Table) -> None:
    """Record each waiting command once every screen of its table has its version."""
    if not table.waiting:
        return
    low = min(s.version for s in table.screens)
    while table.waiting and table.waiting[0][0] <= low:
        version, sent = table.waiting.pop(0)
        if MEASURING[0]:
            LATENCIES.append((max(s.came.get(version, time.perf_counter()) for s in table.screens) - sent) * 1000)


async def play(port: int, tables: list[Table], pace: float, until: float, seed: int, sent: list[int]) -> None:
    """Each table: a command every ``pace`` s (jittered), drawn from the next moves of whoever the
    fight waits on (the GM's for the NPCs, else that player's, with their token), as their screen's
    stream delivered them (``actions``, then ``actions_patch``): the web table's way, no request
    but the command. A command waits until the one before is on all six screens."""
    rng = random.Random(seed)

    async def table_loop(table: Table, conn: HttpConnection) -> None:
        gm = next(s for s in table.screens if s.token == table.gm)
        theirs = {cid: next(s for s in table.screens if s.token == token) for cid, token in table.players.items()}
        used = [time.perf_counter()]  # when its connection last sent a request
        await asyncio.sleep(rng.uniform(0, pace))
        while time.perf_counter() < until:
            if table.waiting or gm.moves is None:  # the last command is not on every screen yet
                await asyncio.sleep(0.1)
                continue
            if gm.moves["over"]:
                return
            token, offered = table.gm, [a for a in gm.moves["actions"] if a["kind"] in ("move", "decision")]
            if not offered:  # a player's move: from their screen's next moves, sent with their token
                who = next((w["combatant_id"] for w in gm.moves["waiting_on"] if w["combatant_id"] in table.players),
                           None)
                moves = theirs[who].moves if who is not None else None
                offered = [a for a in moves["actions"] if a["kind"] in ("move", "decision")] if moves else []
                if not offered:
                    await asyncio.sleep(0.5)
                    continue
                token = table.players[who]  # type: ignore[index]
            acting = [a for a in offered if a["command"]["type"] != "EndTurn"]
            chosen = rng.choice(acting if acting and rng.random() < 0.7 else offered)
            t0 = time.perf_counter()
            if t0 - used[0] > KEEP_ALIVE_SECONDS:  # the server closes a connection idle for 5 s: a new one
                await conn.close()
            used[0] = t0
            try:
                status, data = await conn.request("POST", f"/encounters/{table.encounter_id}/commands",
                                                  json.dumps(chosen["command"]).encode(), token)
            except (OSError, asyncio.IncompleteReadError):  # closed under it: not sent, or not known to be
                await conn.close()
                continue
            if status == 200:
                table.waiting.append((_frame.decode(data).version, t0))
                settle(table)
                sent[0] += 1
            await asyncio.sleep(rng.uniform(0.75 * pace, 1.25 * pace) - (time.perf_counter() - t0))

    conns = [HttpConnection("127.0.0.1", port) for _ in tables]
    try:
        await asyncio.gather(*(table_loop(t, c) for t, c in zip(tables, conns, strict=True)))
    finally:
        for c in conns:
            await c.close()


async def client(args: argparse.Namespace) -> None:
    """One client process: seat its tables, follow them, say ``ready``; on ``go``, play ``--warmup``
    then ``--seconds`` (measured), and print what it saw as JSON."""
    tables = await seat(args.port, args.tables, args.seed)
    dropped = [0]
    screens = await follow(args.port, tables, dropped)
    deadline = time.perf_counter() + 120
    while any(len(t.screens) < 6 or min(s.version for s in t.screens) == 0 for t in tables):
        if time.perf_counter() > deadline:
            raise SystemExit("the screens did not all connect")
        await asyncio.sleep(0.1)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    sent = [0]
    start = time.perf_counter()
    warm = start + args.warmup
    player = asyncio.create_task(play(args.port, tables, args.pace, warm + args.seconds, args.seed, sent))
    await asyncio.sleep(args.warmup)
    MEASURING[0], before = True, sent[0]
    await asyncio.sleep(args.seconds)
    MEASURING[0], during = False, sent[0] - before
    await player
    await asyncio.sleep(1.0)  # the last commands reach their screens
    gaps = 0
    for t in tables:  # every screen has every version its table reached
        head = max(s.version for s in t.screens)
        gaps += sum(1 for s in t.screens if s.version != head)
    print(json.dumps({"sent": during, "latencies": LATENCIES, "connections": sum(len(t.screens) for t in tables),
                      "dropped": dropped[0], "gaps": gaps}), flush=True)
    for task in screens:
        task.cancel()
    await asyncio.gather(*screens, return_exceptions=True)


def _rss(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def _tree(root: int) -> set[int]:
    snap = cpu_snapshot()
    return descendants([root], {pid: ppid for pid, (ppid, _) in snap.procs.items()})


def sweep_one(n: int, port: int, server_pid: int, postmaster: int | None, args: argparse.Namespace,
              workdir: Path) -> dict[str, Any]:
    clients = max(1, min(args.clients, n))
    shares = [n // clients + (1 if i < n % clients else 0) for i in range(clients)]
    rss_before = _rss(_tree(server_pid))
    procs = []
    for i, share in enumerate(shares):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "bench.tables", "--client", "--port", str(port), "--tables", str(share),
             "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--pace", str(args.pace),
             "--seed", str(n * 100 + i)], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    try:
        for p in procs:
            assert p.stdout is not None
            if p.stdout.readline().strip() != "ready":
                return {"tables": n, "failed": "a client could not seat or follow its tables (its error is above)"}
        rss_seated = _rss(_tree(server_pid))
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        time.sleep(args.warmup)
        before = cpu_snapshot()
        time.sleep(args.seconds)
        after = cpu_snapshot()
        results = [json.loads(p.stdout.readline()) for p in procs if p.stdout is not None]
        for p in procs:
            p.wait(timeout=60)
    finally:
        for p in procs:
            p.kill()
    lat = sorted(x for r in results for x in r["latencies"])
    server_cpu = tree_cpu(before, after, server_pid)
    clients_cpu = sum(tree_cpu(before, after, p.pid) or 0.0 for p in procs)
    return {"tables": n, "commands_per_s": sum(r["sent"] for r in results) / args.seconds,
            "p50": percentile(lat, 50), "p99": percentile(lat, 99), "measured": len(lat),
            "connections": sum(r["connections"] for r in results), "dropped": sum(r["dropped"] for r in results),
            "gaps": sum(r["gaps"] for r in results), "cpu_server": server_cpu,
            "cpu_pg": tree_cpu(before, after, postmaster), "cpu_clients": clients_cpu,
            "mem_per_table_kb": (rss_seated - rss_before) / n / 1024}


def _pct(v: float | None) -> str:
    return "    -" if v is None else f"{v:>4.0f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=list(SWEEP), help="the sweep (default 50 200 500 1000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after --warmup (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's commands (default 2)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="client processes driving and watching the tables")
    parser.add_argument("--keep-log", type=Path, help="copy the server's log there at the end")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    factory = event_loop_factory()
    if args.client:
        args.tables = args.tables[0]
        if factory is None:
            asyncio.run(client(args))
        else:
            with asyncio.Runner(loop_factory=factory) as runner:
                runner.run(client(args))
        return 0

    rows = []
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-tables-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn, pg_version, postmaster = asyncio.run(prepare_database(admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning", "--workers", str(args.workers)]
        server = stack.enter_context(run_server("fracas", serve, dsn, workdir, FRACAS_ENV))
        print(f"PostgreSQL {pg_version} ({where}; database {BENCH_DATABASE}); fracas serve --workers {args.workers} "
              f"on {server.port}; {args.clients} client processes; {os.cpu_count()} cores; a command every "
              f"{args.pace:g} s per table; {args.seconds:g} s measured after {args.warmup:g} s", flush=True)
        print(f"{'tables':>6}  {'cmd/s':>6}  {'p50 ms':>7}  {'p99 ms':>7}  {'conns':>6}  {'cpu srv':>7}  "
              f"{'cpu pg':>6}  {'cpu cli':>7}  {'KB/table':>8}  {'gaps':>4}  {'dropped':>7}", flush=True)
        if args.keep_log:
            stack.callback(lambda: args.keep_log.write_bytes(server.log.read_bytes()))
        for n in args.tables:
            row = sweep_one(n, server.port, server.process.pid, postmaster, args, workdir)
            rows.append(row)
            if "failed" in row:
                print(f"{n:>6}  failed: {row['failed']}", flush=True)
                break  # more tables would fail the same way
            print(f"{n:>6}  {row['commands_per_s']:>6.0f}  {row['p50']:>7.1f}  {row['p99']:>7.1f}  "
                  f"{row['connections']:>6}  {_pct(row['cpu_server']):>7}  {_pct(row['cpu_pg']):>6}  "
                  f"{_pct(row['cpu_clients']):>7}  {row['mem_per_table_kb']:>8.0f}  {row['gaps']:>4}  "
                  f"{row['dropped']:>7}", flush=True)
    held = max((r["tables"] for r in rows if "failed" not in r and r["p99"] < HELD_MS and r["measured"]
                and not r["gaps"] and not r["dropped"]), default=0)
    print(f"tables held at p99 < {HELD_MS:.0f} ms: {held}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
