"""``python -m bench.soak``: 200 tables played for half an hour while things go wrong.

The tables of ``bench.tables`` (a GM, 4 players and a spectator each, all six following the live
stream, a command every 2 s per table drawn from the next moves), and a webhook on each table
delivering to a receiver (a process of this module), on one ``fracas serve --workers 2`` and a
PostgreSQL of the soak's own (embedded, so that it can be restarted). Meanwhile:

- a server worker is killed with ``kill -9`` (uvicorn's supervisor starts another);
- PostgreSQL stops and starts again (``pg_ctl stop -m fast``, then ``start``);
- the webhook receiver is killed and comes back a minute later on the same port.

The clients ride it out as a real client does: a command without an answer or answered 503 is
not counted and the next is drawn again; a stream that ends is opened again with ``after=`` the
last version it got. At the end it prints the counts it checks:

- every table's state equals its replay (``GET /encounters/{id}`` against ``state?at=`` its
  version, replayed from the stored events) and its log audits clean;
- every screen got every version of its table, in order, none missing, none twice;
- every acknowledged command (a 200 answer) has its events in the log;
- every webhook delivered every event after its registration.

    python -m bench.soak --minutes 30
    python -m bench.soak --minutes 3 --tables 20      # a short one
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import msgspec

from bench.append import (
    FRACAS_ENV,
    REPO,
    drop_database,
    free_port,
    prepare_database,
    run_server,
)
from bench.loadgen import HttpConnection, event_loop_factory
from bench.postgres import own_postgres
from bench.tables import Table, _rss, _tree, seat

# deliveries retried often enough that a receiver away for a minute is caught up soon after,
# and never paused for it (the defaults: backoff up to 300 s, paused after 8 failures in a row)
WEBHOOK_ENV = {"FRACAS_WEBHOOK_ALLOW_PRIVATE": "1", "FRACAS_WEBHOOK_MAX_BACKOFF": "10",
               "FRACAS_WEBHOOK_MAX_FAILURES": "40"}
NETWORK_ERRORS = (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError, asyncio.LimitOverrunError)


class _Message(msgspec.Struct):
    type: str = ""
    version: int = 0


_frame = msgspec.json.Decoder(_Message | list[_Message])


@dataclass
class Screen:
    """One screen: the last event version it got, and what came out of order."""

    token: str
    sse: bool = False
    last: int = 0
    missing: int = 0  # an event came whose version was not the next
    twice: int = 0  # an event came whose version it had
    opened: int = 0

    def event(self, version: int) -> None:
        if version == self.last + 1:
            self.last = version
        elif version <= self.last:
            self.twice += 1
        else:
            self.missing += 1
            self.last = version


@dataclass
class Soaked:
    """What a client process saw."""

    acked: list[tuple[str, int, str]] = field(default_factory=list)  # (encounter, version, event id) of each 200
    refused: dict[str, int] = field(default_factory=dict)  # answers other than 200, by status
    unanswered: int = 0  # commands whose connection failed before an answer
    reinforced: int = 0  # combatants the GM sent into a fight that was over


# ----------------------------------------------------------------------------- the client


async def watch(port: int, table: Table, screen: Screen, until: list[bool]) -> None:
    """Follow the table's stream, opening it again with ``after=`` whenever it ends."""
    from bench import wsreader

    def messages(raw: bytes) -> None:
        decoded = _frame.decode(raw)
        for m in decoded if isinstance(decoded, list) else (decoded,):
            if m.type == "event":
                screen.event(m.version)

    path = f"/encounters/{table.encounter_id}/live"
    while not until[0]:
        screen.opened += 1
        try:
            if screen.sse:
                await _sse(port, f"{path}?after={screen.last}", screen)
            else:
                reader = await wsreader.connect(f"ws://127.0.0.1:{port}{path}?batch=true&after={screen.last}",
                                                {"Authorization": f"Bearer {screen.token}"}, messages)
                await reader.closed
        except NETWORK_ERRORS:
            pass
        await asyncio.sleep(random.uniform(0.5, 1.5))


async def _sse(port: int, path: str, screen: Screen) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {screen.token}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            return
        kind = b""
        while line := await reader.readline():
            if line.startswith(b"event:"):
                kind = line[6:].strip()
            elif line.startswith(b"id:") and kind == b"event":
                screen.event(int(line[3:]))
    finally:
        writer.close()


async def play(port: int, tables: list[Table], pace: float, stop: asyncio.Event, seen: Soaked, seed: int) -> None:
    """A command every ``pace`` s per table, drawn from the next moves of whoever the fight waits
    on; whatever goes wrong (no answer, a 503, a move gone stale) is counted and the next drawn.
    A fight that is over goes on: the GM sends in another foe (or, the party fallen, another
    character and a token for its player), so that every table plays for the whole soak."""
    rng = random.Random(seed)
    setup = HttpConnection("127.0.0.1", port)
    status, data = await setup.request("GET", "/rulesets/places-of-power")
    await setup.close()
    examples = [e["body"] for e in json.loads(data)["examples"]] if status == 200 else []
    pc = next(b for b in examples if b["controller"] == "player")
    npcs = [b for b in examples if b["controller"] == "gm"]

    async def get(conn: HttpConnection, path: str, token: str) -> Any:
        status, data = await conn.request("GET", path, b"", token)
        if status != 200:
            seen.refused[f"GET {status}"] = seen.refused.get(f"GET {status}", 0) + 1
            return None
        return json.loads(data)

    async def table_loop(table: Table) -> None:
        conn = HttpConnection("127.0.0.1", port)
        await asyncio.sleep(rng.uniform(0, pace))
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                await one_command(conn, table)
            except NETWORK_ERRORS:
                seen.unanswered += 1
                await conn.close()
                conn = HttpConnection("127.0.0.1", port)
            wait = rng.uniform(0.75 * pace, 1.25 * pace) - (time.perf_counter() - t0)
            try:
                await asyncio.wait_for(stop.wait(), max(0.05, wait))
            except TimeoutError:
                pass
        await conn.close()

    async def one_command(conn: HttpConnection, table: Table) -> None:
        path = f"/encounters/{table.encounter_id}"
        moves = await get(conn, f"{path}/actions", table.gm)
        if moves is None:
            return
        if moves["over"]:
            await reinforce(conn, table, set(moves["out_of_fight"]))
            return
        token, offered = table.gm, [a for a in moves["actions"] if a["kind"] in ("move", "decision")]
        if not offered:
            who = next((w["combatant_id"] for w in moves["waiting_on"] if w["combatant_id"] in table.players), None)
            if who is None:
                return
            token = table.players[who]
            theirs = await get(conn, f"{path}/actions", token)
            offered = [a for a in theirs["actions"] if a["kind"] in ("move", "decision")] if theirs else []
            if not offered:
                return
        acting = [a for a in offered if a["command"]["type"] != "EndTurn"]
        chosen = rng.choice(acting if acting and rng.random() < 0.7 else offered)
        status, data = await conn.request("POST", f"{path}/commands", json.dumps(chosen["command"]).encode(), token)
        if status == 200:
            answer = json.loads(data)
            last = answer["events"][-1]
            seen.acked.append((table.encounter_id, last["version"], last["event_id"]))
        else:
            seen.refused[str(status)] = seen.refused.get(str(status), 0) + 1

    async def reinforce(conn: HttpConnection, table: Table, out: set[str]) -> None:
        path = f"/encounters/{table.encounter_id}"
        fallen = set(table.players) <= out
        body = {**pc, "name": f"Hero {len(table.players) + 1}"} if fallen else rng.choice(npcs)
        status, data = await conn.request("POST", f"{path}/combatants", json.dumps(body).encode(), table.gm)
        if status != 201:
            seen.refused[f"add {status}"] = seen.refused.get(f"add {status}", 0) + 1
            return
        seen.reinforced += 1
        if fallen:
            cid = json.loads(data)["events"][0]["data"]["combatant_id"]
            status, data = await conn.request("POST", f"{path}/tokens", json.dumps(
                {"role": "player", "combatant_ids": [cid]}).encode(), table.gm)
            if status == 201:
                table.players[cid] = json.loads(data)["token"]

    await asyncio.gather(*(table_loop(t) for t in tables))


async def register_webhooks(port: int, tables: list[Table], url: str) -> dict[str, tuple[str, int]]:
    """A webhook on each table (the spectator's view): webhook id -> (encounter, version it starts after)."""
    conn = HttpConnection("127.0.0.1", port)
    made = {}
    try:
        for t in tables:
            status, data = await conn.request("POST", f"/encounters/{t.encounter_id}/webhooks",
                                              json.dumps({"url": url, "view": "spectator"}).encode(), t.gm)
            if status != 201:
                raise SystemExit(f"POST .../webhooks: {status} {data[:300]!r}")
            hook = json.loads(data)
            made[hook["webhook_id"]] = (t.encounter_id, hook["delivered_version"])
    finally:
        await conn.close()
    return made


async def client(args: argparse.Namespace) -> None:
    """Seat and follow its tables, register their webhooks, say ``ready``; play from ``go`` until
    ``stop``; then wait for every screen to reach its table's head and print what it saw."""
    tables = await seat(args.port, args.tables, args.seed)
    hooks = await register_webhooks(args.port, tables, args.hook_url)
    until = [False]
    screens: list[tuple[Table, Screen]] = []
    tasks = []
    for i, t in enumerate(tables):
        for token, sse in ((t.gm, False), *((p, False) for p in t.players.values()), (t.spectator, True)):
            screen = Screen(token, sse)
            screens.append((t, screen))
            tasks.append(asyncio.create_task(watch(args.port, t, screen, until)))
        if i % 10 == 9:
            await asyncio.sleep(0.02)
    print(json.dumps({"ready": True, "webhooks": hooks}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # go
    stop, seen = asyncio.Event(), Soaked()
    player = asyncio.create_task(play(args.port, tables, args.pace, stop, seen, args.seed))
    await loop.run_in_executor(None, sys.stdin.readline)  # stop
    stop.set()
    await player
    heads = json.loads(await loop.run_in_executor(None, sys.stdin.readline))  # each table's last version
    deadline = time.monotonic() + args.drain
    while any(s.last < heads[t.encounter_id] for t, s in screens) and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    until[0] = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({
        "acked": seen.acked, "refused": seen.refused, "unanswered": seen.unanswered, "screens": len(screens),
        "reinforced": seen.reinforced,
        "behind": sum(1 for t, s in screens if s.last < heads[t.encounter_id]),
        "missing": sum(s.missing for _, s in screens), "twice": sum(s.twice for _, s in screens),
        "reopened": sum(s.opened - 1 for _, s in screens),
        "tables": [{"id": t.encounter_id, "gm": t.gm} for t in tables],
    }), flush=True)


# --------------------------------------------------------------------------- the receiver


async def receive(args: argparse.Namespace) -> None:
    """A webhook receiver: each delivery's (webhook, version) pairs appended to ``--out`` and
    flushed before its 204, so a killed receiver has written down all it acknowledged."""
    out = open(args.out, "a", buffering=1)  # noqa: SIM115 (open for the process's life)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
                length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")
                               if line.startswith("content-length:")), 0)
                body = json.loads(await reader.readexactly(length)) if length else {}
                hook = body.get("webhook_id", "")
                out.write("".join(f"{hook} {e['version']}\n" for e in body.get("events", ())))
                out.flush()
                writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
                await writer.drain()
        except NETWORK_ERRORS:
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", args.port)
    print("listening", flush=True)
    async with server:
        await server.serve_forever()


@contextmanager
def receiver(port: int, out: Path) -> Any:
    """The receiver as a process (started again by ``restart``), killed at the end."""
    procs: list[subprocess.Popen[str]] = []

    def start() -> subprocess.Popen[str]:
        p = subprocess.Popen([sys.executable, "-m", "bench.soak", "--receive", "--port", str(port), "--out", str(out)],
                             cwd=REPO, stdout=subprocess.PIPE, text=True)
        assert p.stdout is not None
        if p.stdout.readline().strip() != "listening":
            raise SystemExit("the webhook receiver did not start")
        procs.append(p)
        return p

    start()
    try:
        yield start, procs
    finally:
        for p in procs:
            p.kill()
            p.wait()


# ------------------------------------------------------------------------------- the soak


def workers_of(server_pid: int) -> list[int]:
    """The uvicorn workers of a ``fracas serve``: its children started by multiprocessing."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == server_pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


async def heads(dsn: str) -> dict[str, int]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT encounter_id::text AS e, max(version) AS v FROM events GROUP BY encounter_id")
        return {r["e"]: r["v"] for r in rows}
    finally:
        await conn.close()


async def stored(dsn: str) -> set[tuple[str, int, str]]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT encounter_id::text AS e, version, event_id::text AS i FROM events")
        return {(r["e"], r["version"], r["i"]) for r in rows}
    finally:
        await conn.close()


async def delivered(dsn: str) -> dict[str, int]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT webhook_id::text AS w, max(delivered_version) AS v FROM webhook_progress "
                                "GROUP BY webhook_id")
        return {r["w"]: r["v"] for r in rows}
    finally:
        await conn.close()


async def replayed(port: int, tables: list[dict[str, str]]) -> tuple[int, int, list[str]]:
    """(tables whose state equals its replay, tables whose log audits clean, what differed)."""
    conn = HttpConnection("127.0.0.1", port)
    same = clean = 0
    differed: list[str] = []
    try:
        for t in tables:
            path = f"/encounters/{t['id']}"
            _, now = await conn.request("GET", path, b"", t["gm"])
            state = json.loads(now)
            status, then = await conn.request("GET", f"{path}/state?at={state['version']}", b"", t["gm"])
            replay = json.loads(then) if status == 200 else {}
            state.pop("presence", None)
            replay.pop("presence", None)
            if state == replay:
                same += 1
            else:
                differed.append(f"{t['id']}: {sorted(k for k in state.keys() | replay.keys() if state.get(k) != replay.get(k))}")
            _, audit = await conn.request("GET", f"{path}/audit", b"", t["gm"])
            clean += bool(json.loads(audit).get("ok"))
    finally:
        await conn.close()
    return same, clean, differed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's commands (default 2)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="client processes driving and watching the tables")
    parser.add_argument("--away", type=float, default=60.0, help="seconds the webhook receiver is away (default 60)")
    parser.add_argument("--drain", type=float, default=120.0,
                        help="seconds the screens and webhooks have to catch up once the load stops (default 120)")
    parser.add_argument("--keep-log", type=Path, help="copy the server's log there at the end")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--receive", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--hook-url", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    factory = event_loop_factory()
    if args.client or args.receive:
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(client(args) if args.client else receive(args))
        return 0
    return soak(args)


def soak(args: argparse.Namespace) -> int:
    seconds = args.minutes * 60
    t0 = time.monotonic()

    def say(text: str) -> None:
        print(f"[{(time.monotonic() - t0) / 60:5.1f} min] {text}", flush=True)

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-soak-")))
        pg = stack.enter_context(own_postgres())
        dsn, pg_version, _ = asyncio.run(prepare_database(pg.admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(pg.admin_dsn)) if pg.running else None)
        rport, hooks_file = free_port(), workdir / "deliveries.txt"
        start_receiver, receivers = stack.enter_context(receiver(rport, hooks_file))
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning", "--workers", str(args.workers)]
        server = stack.enter_context(run_server("fracas", serve, dsn, workdir, {**FRACAS_ENV, **WEBHOOK_ENV}))
        say(f"PostgreSQL {pg_version} (embedded, its own); fracas serve --workers {args.workers} on {server.port}; "
            f"{args.tables} tables from {args.clients} client processes, a command every {args.pace:g} s per table, "
            f"for {args.minutes:g} min; webhooks: {', '.join(f'{k}={v}' for k, v in WEBHOOK_ENV.items())}")
        clients = max(1, min(args.clients, args.tables))
        shares = [args.tables // clients + (1 if i < args.tables % clients else 0) for i in range(clients)]
        procs = [subprocess.Popen(
            [sys.executable, "-m", "bench.soak", "--client", "--port", str(server.port), "--tables", str(share),
             "--pace", str(args.pace), "--seed", str(i), "--drain", str(args.drain),
             "--hook-url", f"http://127.0.0.1:{rport}/hook"],
            cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for i, share in enumerate(shares)]
        for p in procs:
            stack.callback(p.kill)
        webhooks: dict[str, tuple[str, int]] = {}
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()
            if not line.startswith("{"):
                raise SystemExit("a client could not seat or follow its tables (its error is above)")
            webhooks.update({k: tuple(v) for k, v in json.loads(line)["webhooks"].items()})

        def tell(text: str) -> None:
            for p in procs:
                assert p.stdin is not None
                p.stdin.write(text + "\n")
                p.stdin.flush()

        def memory() -> str:
            return f"servers' memory {_rss(_tree(server.process.pid)) / 2**20:,.0f} MB"

        seated_mb = _rss(_tree(server.process.pid)) / 2**20
        say(f"seated: {args.tables} tables, {6 * args.tables} screens, {len(webhooks)} webhooks; playing; {memory()}")
        tell("go")
        started = time.monotonic()
        faults = sorted([
            (0.2, "kill"), (0.45, "postgres"), (0.65, "receiver away"),
            (0.65 + min(args.away, 0.2 * seconds) / seconds, "receiver back"),
        ])
        killed = restarted = 0
        for at, fault in faults:
            time.sleep(max(0.0, started + at * seconds - time.monotonic()))
            say(memory())
            if fault == "kill":
                before = workers_of(server.process.pid)
                os.kill(before[0], signal.SIGKILL)
                killed += 1
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and len(set(workers_of(server.process.pid)) - set(before)) < 1:
                    time.sleep(0.5)
                after = workers_of(server.process.pid)
                say(f"kill -9 worker {before[0]}; the supervisor started {sorted(set(after) - set(before))}")
            elif fault == "postgres":
                pg.stop("fast")
                say("PostgreSQL stopped (pg_ctl stop -m fast)")
                time.sleep(3)
                pg.start()
                restarted += 1
                say("PostgreSQL started again")
            elif fault == "receiver away":
                receivers[-1].kill()
                receivers[-1].wait()
                say("webhook receiver killed")
            else:
                start_receiver()
                say("webhook receiver back")
        time.sleep(max(0.0, started + seconds - time.monotonic()))
        end_mb = _rss(_tree(server.process.pid)) / 2**20
        tell("stop")
        time.sleep(3)  # the last answers come back
        last = asyncio.run(heads(dsn))
        say("load stopped; waiting for the screens and the webhooks to catch up")
        tell(json.dumps(last))
        results = []
        for p in procs:
            assert p.stdout is not None
            results.append(json.loads(p.stdout.readline()))
            p.wait(timeout=60)
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline:
            progress = asyncio.run(delivered(dsn))
            if all(progress.get(w, 0) >= last.get(enc, 0) for w, (enc, _) in webhooks.items()):
                break
            time.sleep(1)
        got: dict[str, set[int]] = {}
        for line in hooks_file.read_text().splitlines():
            hook, version = line.split()
            got.setdefault(hook, set()).add(int(version))
        hooks_whole = sum(1 for w, (enc, after) in webhooks.items()
                          if set(range(after + 1, last.get(enc, 0) + 1)) <= got.get(w, set()))
        tables = [t for r in results for t in r["tables"]]
        same, clean, differed = asyncio.run(replayed(server.port, tables))
        in_log = asyncio.run(stored(dsn))
        acked = [tuple(a) for r in results for a in r["acked"]]
        lost = sum(1 for a in acked if a not in in_log)
        troubles = server.troubles()
        if args.keep_log:
            args.keep_log.write_bytes(server.log.read_bytes())

    refused: dict[str, int] = {}
    for r in results:
        for k, v in r["refused"].items():
            refused[k] = refused.get(k, 0) + v
    screens = sum(r["screens"] for r in results)
    behind = sum(r["behind"] for r in results)
    missing = sum(r["missing"] for r in results)
    twice = sum(r["twice"] for r in results)
    print()
    print(f"Fracas soak, {args.tables} tables for {args.minutes:g} min: a worker killed {killed}x, "
          f"PostgreSQL restarted {restarted}x, the webhook receiver away {min(args.away, 0.2 * seconds):.0f} s")
    print(f"commands acknowledged: {len(acked)} ({len(acked) / seconds:.1f}/s; at table pace "
          f"{args.tables / args.pace:.0f}/s); fights that were over and went on with a new combatant: "
          f"{sum(r['reinforced'] for r in results)}")
    print(f"not answered (connection lost): "
          f"{sum(r['unanswered'] for r in results)}; refused: {refused or 'none'}")
    print(f"streams opened again: {sum(r['reopened'] for r in results)}")
    print(f"servers' memory (resident, every process of fracas serve): {seated_mb:,.0f} MB seated, "
          f"{end_mb:,.0f} MB at the end")
    print(f"tables whose state equals its replay: {same} of {len(tables)}")
    for d in differed[:5]:
        print(f"  !! differs: {d}")
    print(f"tables whose log audits clean: {clean} of {len(tables)}")
    print(f"screens with every version of their table, in order: {screens - behind} of {screens} "
          f"(events missing {missing}, twice {twice})")
    print(f"acknowledged commands lost: {lost} of {len(acked)}")
    print(f"webhooks that delivered every event: {hooks_whole} of {len(webhooks)}")
    print(f"server log: {len(troubles)} errors" + (", by kind:" if troubles else ""))
    kinds: dict[str, int] = {}
    for line in troubles:
        kind = line.split(" ", 3)[-1][:160] if "ERROR" in line else line[:160]
        kinds[kind] = kinds.get(kind, 0) + 1
    for kind, n in sorted(kinds.items(), key=lambda x: -x[1])[:10]:
        print(f"  {n:>5}  {kind}")
    ok = (same == clean == len(tables) and not behind and not missing and not twice and not lost
          and hooks_whole == len(webhooks))
    print("soak: " + ("every check holds" if ok else "!! a check failed"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
