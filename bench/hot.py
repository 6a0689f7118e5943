"""``python -m bench.hot``: one hot encounter, many clients racing commands for it.

One PostgreSQL (DATABASE_URL, else an embedded one in a temporary folder), a fresh database
``fracas_bench``, one real server process (``python -m server.cli serve``, one worker, rate
limit off), or ``--processes 2``: two on the same database, the clients spread over both, so
that the two caches race each other too (``--processes 1,2`` measures both, side by side).
The bench opens ONE encounter through the Python client (``server/client.py``) with one NPC
per client, rolls initiative and starts it; then ``--clients`` (16) clients, each an
``AsyncFracas`` with its own connection, all in the bench process (asyncio + uvloop, sharing
the machine's CPU with the servers and PostgreSQL), send commands to that encounter for
``--warmup`` (2 s, not measured) and then ``--seconds`` (10 s), in two modes:

- ``plain``: no If-Match. The server serialises the commands of an encounter (one lock per
  encounter in each process; across processes the unique ``(encounter_id, version)`` key
  refuses the loser, decided again on the new state, up to 50 times, then 503
  ``encounter_busy``, which the client waits out and resends).
- ``if-match``: optimistic concurrency, the client library's ``command(decide=...)``: read the
  state (GET, its version), decide, send with ``If-Match``; a 412 ``version_mismatch`` means
  someone else wrote first: read again, decide again, resend (jittered backoff between).

The command: the GM's ``SetHits`` on the client's own NPC, always legal in any order (any
status but ended, any Hits 0-20), one event (``HitsSet``) per command. ``plain`` sends the
client's own count; ``if-match`` decides from the state read: the NPC's Hits plus one
(modulo 21), a read-modify-write, so a lost update would show. After each run the bench
checks the database: the events the run appended against the commands that got through (each
command's Idempotency-Key once, nothing more, nothing missing), and every NPC's Hits against
its client's count of commands that got through (lost updates: must be 0).

Columns: ``cmd/s``: commands that got through, per second of the run; ``p50``/``p99``: of each
command from its first send to its answer, retries included; ``412/cmd``: the conflict rate (412
answers per command that got through); ``max tries``: the most 412s one command met; ``503
busy``: 503 ``encounter_busy`` answers (waited out and resent); ``failed``: commands that never
got through, warm-up included (must be 0); ``db ok``: the database check; ``cpu srv`` each
server process, ``cpu pg`` PostgreSQL, ``cpu cli`` the bench process with its clients (100% =
one core); ``others``: processes foreign to the bench (above ~10% the row is skewed).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from bench.append import (
    BENCH_DATABASE,
    FRACAS_ENV,
    FRACAS_SETTINGS,
    CpuSnapshot,
    cpu_snapshot,
    cpu_use,
    drop_database,
    machine,
    others_before,
    pct,
    postgres_server,
    prepare_database,
    run_server,
)
from bench.live import tree_cpu
from bench.loadgen import event_loop_factory, percentile
from server.client import AsyncFracas, FracasError, ProblemError, Reply, RetryPolicy

MODES = ("plain", "if-match")
MAX_HITS = 20  # SetHits takes 0..20: the count goes round modulo 21
POLICY = RetryPolicy()  # the client library's defaults (--conflict-backoff, --max-conflict-backoff change those)


@dataclass
class Racer:
    """One client: its connection, its NPC, and what it got."""

    api: AsyncFracas
    npc: str
    base: int = 0  # the NPC's Hits before the warm-up
    sent: int = 0  # commands that got through, warm-up included: the NPC's Hits are base + sent, mod 21
    latencies: list[float] = field(default_factory=list)
    conflicts: list[int] = field(default_factory=list)
    busy: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    keys: list[str] = field(default_factory=list)
    events: int = 0


@dataclass(frozen=True)
class Outcome:
    mode: str
    processes: int
    clients: int
    seconds: float
    commands: int
    p50_ms: float
    p99_ms: float
    conflicts: int
    max_conflicts: int
    tries: Counter[int]
    busy: int
    failed: int
    failures: Counter[str]
    db: str
    cpu_servers: list[float | None]
    cpu_pg: float | None
    cpu_client: float | None
    others: float | None

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0


def hits(state: dict[str, Any], npc: str) -> int:
    return int(state["combatants"][npc]["sheet"]["hits"])


def next_hits(npc: str):
    """Decide on the state read: the NPC's Hits plus one (a read-modify-write)."""
    def decide(state: dict[str, Any]) -> dict[str, Any]:
        return {"type": "SetHits", "combatant_id": npc, "hits": (hits(state, npc) + 1) % (MAX_HITS + 1)}
    return decide


async def send(racer: Racer, enc: str, mode: str) -> Reply:
    if mode == "plain":
        hits_now = (racer.base + racer.sent + 1) % (MAX_HITS + 1)
        return await racer.api.command(enc, {"type": "SetHits", "combatant_id": racer.npc, "hits": hits_now})
    return await racer.api.command(enc, decide=next_hits(racer.npc))


async def race(racers: list[Racer], enc: str, mode: str, seconds: float, record: bool) -> float:
    """Every client sends commands until ``seconds`` are over; waits for the last answers."""
    deadline = time.perf_counter() + seconds

    async def one(r: Racer) -> None:
        while time.perf_counter() < deadline:
            t0 = time.perf_counter()
            try:
                reply = await send(r, enc, mode)
            except ProblemError as p:
                r.failures[f"{p.status} {p.code}"] += 1
                continue
            except FracasError as e:
                r.failures[type(e).__name__] += 1
                continue
            r.sent += 1
            if record:
                r.latencies.append(time.perf_counter() - t0)
                r.conflicts.append(reply.retries.conflicts)
                r.busy += reply.retries.busy
                r.keys.append(reply.idempotency_key)
                r.events += len(reply.events)

    start = time.perf_counter()
    await asyncio.gather(*(one(r) for r in racers))
    return time.perf_counter() - start


async def set_up(url: str, clients: int) -> tuple[str, str, list[str]]:
    """The encounter, the GM's token, one NPC per client; initiative rolled, round 1 begun."""
    operator_key = os.environ.get("FRACAS_OPERATOR_KEY")
    async with AsyncFracas(url) as api:
        opened = await api.open_encounter("places-of-power", "Hot encounter (bench.hot)", operator_key=operator_key)
        gm = api.with_token(opened.gm_token)
        enc = opened.encounter_id
        npcs = []
        for n in range(clients):
            added = await gm.add_combatant(enc, f"Bandit {n + 1}", side="enemies", sheet={"initiative_modifier": 0})
            npcs.append(added.events[0]["data"]["combatant_id"])
        await gm.command(enc, {"type": "RollInitiative"})
        await gm.command(enc, {"type": "StartEncounter"})
    return enc, opened.gm_token, npcs


async def check_database(dsn: str, url: str, token: str, enc: str, since: int, racers: list[Racer]) -> str:
    """The events after version ``since`` against the recorded answers, and each NPC's Hits."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT metadata->>'idempotency_key' AS key, count(*) AS n FROM events "
            "WHERE encounter_id = $1 AND version > $2 GROUP BY 1", uuid.UUID(enc), since)
    finally:
        await conn.close()
    stored = {r["key"]: int(r["n"]) for r in rows}
    keys = [k for r in racers for k in r.keys]
    events = sum(stored.values())
    problems = []
    if events != sum(r.events for r in racers):
        problems.append(f"{events} events for {sum(r.events for r in racers)} answered")
    if missing := len(set(keys) - set(stored)):
        problems.append(f"{missing} answered commands not stored")
    if extra := len(set(stored) - set(keys)):
        problems.append(f"{extra} stored commands never answered")
    if twice := sum(1 for k in keys if stored.get(k, 1) > 1):
        problems.append(f"{twice} commands stored twice")
    async with AsyncFracas(url, token) as reader:
        state = await reader.state(enc)
    lost = sum(1 for r in racers if hits(state, r.npc) != (r.base + r.sent) % (MAX_HITS + 1))
    if lost:
        problems.append(f"{lost} NPCs' Hits off their count (lost updates)")
    return "ok" if not problems else "; ".join(problems)


async def event_version(dsn: str, enc: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT max(version) FROM events WHERE encounter_id = $1", uuid.UUID(enc)))
    finally:
        await conn.close()


def own_cpu(before: CpuSnapshot, after: CpuSnapshot) -> float | None:
    pid = os.getpid()
    if pid not in after.procs:
        return None
    return 100 * (after.procs[pid][1] - before.procs.get(pid, (0, 0.0))[1]) / (after.at - before.at)


async def measure(urls: list[str], token: str, npcs: list[str], enc: str, mode: str, args: argparse.Namespace,
                  dsn: str, pids: list[int], postmaster: int | None) -> Outcome:
    racers = [
        Racer(AsyncFracas(http=httpx.AsyncClient(base_url=urls[i % len(urls)], timeout=30.0,
                                                 limits=httpx.Limits(max_connections=1)),
                          token=token, retry=args.policy), npc)
        for i, npc in enumerate(npcs)
    ]
    try:
        state = await racers[0].api.state(enc)
        for r in racers:
            r.base = hits(state, r.npc)
        if args.warmup > 0:
            await race(racers, enc, mode, args.warmup, record=False)
        since = await event_version(dsn, enc)
        before = cpu_snapshot()
        took = await race(racers, enc, mode, args.seconds, record=True)
        after = cpu_snapshot()
        db = await check_database(dsn, urls[0], token, enc, since, racers)
    finally:
        for r in racers:
            await r.api.http.aclose()
    ours = [postmaster] if postmaster else []
    latencies = sorted(x for r in racers for x in r.latencies)
    tries = Counter(c for r in racers for c in r.conflicts)
    failures = sum((r.failures for r in racers), Counter())
    return Outcome(
        mode=mode, processes=len(urls), clients=len(racers), seconds=took, commands=len(latencies),
        p50_ms=percentile(latencies, 50) * 1000, p99_ms=percentile(latencies, 99) * 1000,
        conflicts=sum(k * n for k, n in tries.items()), max_conflicts=max(tries, default=0), tries=tries,
        busy=sum(r.busy for r in racers), failed=sum(failures.values()), failures=failures, db=db,
        cpu_servers=[cpu_use(before, after, pid, ours).server for pid in pids],
        cpu_pg=tree_cpu(before, after, postmaster), cpu_client=own_cpu(before, after),
        others=cpu_use(before, after, None, ours).others,
    )


def table(rows: list[Outcome]) -> str:
    head = (f"{'mode':>8}  {'procs':>5}  {'clients':>7}  {'cmd/s':>6}  {'p50 ms':>7}  {'p99 ms':>7}  {'412/cmd':>7}"
            f"  {'max tries':>9}  {'503 busy':>8}  {'failed':>6}  {'db ok':>5}  {'cpu srv':>9}  {'cpu pg':>6}"
            f"  {'cpu cli':>7}  {'others':>6}")
    lines = [head]
    for o in rows:
        servers = "+".join(pct(c) for c in o.cpu_servers)
        lines.append(
            f"{o.mode:>8}  {o.processes:>5}  {o.clients:>7}  {o.rate:>6,.0f}  {o.p50_ms:>7.2f}  {o.p99_ms:>7.2f}"
            f"  {o.conflicts / o.commands if o.commands else 0:>7.2f}  {o.max_conflicts:>9}  {o.busy:>8}"
            f"  {o.failed:>6}  {'yes' if o.db == 'ok' else 'NO':>5}  {servers:>9}  {pct(o.cpu_pg):>6}"
            f"  {pct(o.cpu_client):>7}  {pct(o.others):>6}")
    return "\n".join(lines)


def show(o: Outcome) -> None:
    spread = ", ".join(f"{k}: {n:,}" for k, n in sorted(o.tries.items()))
    print(f"  {o.mode}, {o.processes} process(es): {o.commands:,} commands in {o.seconds:.1f} s = {o.rate:,.0f}/s, "
          f"p50 {o.p50_ms:.2f} ms, p99 {o.p99_ms:.2f} ms; 412s {o.conflicts:,}; commands by 412s met: {spread}; "
          f"503 busy {o.busy}; failed {o.failed}{' ' + str(dict(o.failures)) if o.failed else ''}; database: {o.db}",
          flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.hot", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured run per mode, s (default 10)")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured run before each, s (default 2)")
    parser.add_argument("--clients", default="16",
                        help="racing clients, comma-separated to compare (default 16; e.g. 1,16)")
    parser.add_argument("--processes", default="1",
                        help="server processes on the database, comma-separated to compare (default 1; e.g. 1,2)")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--conflict-backoff", type=float, default=POLICY.conflict_backoff,
                        help=f"the client's RetryPolicy.conflict_backoff, s (default {POLICY.conflict_backoff:g})")
    parser.add_argument("--max-conflict-backoff", type=float, default=POLICY.max_conflict_backoff,
                        help=f"RetryPolicy.max_conflict_backoff, s (default {POLICY.max_conflict_backoff:g})")
    args = parser.parse_args(argv)
    args.policy = dataclasses.replace(POLICY, conflict_backoff=args.conflict_backoff,
                                      max_conflict_backoff=args.max_conflict_backoff)
    args.process_counts = [int(p) for p in args.processes.split(",") if p.strip()]
    args.client_counts = [int(c) for c in args.clients.split(",") if c.strip()]
    args.mode_list = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not args.process_counts or min(args.process_counts) < 1 or not args.client_counts \
            or min(args.client_counts) < 1 or args.seconds <= 0:
        parser.error("--processes, --clients and --seconds must be positive")
    if set(args.mode_list) - set(MODES):
        parser.error(f"--modes: {', '.join(MODES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    busy = others_before()
    print(f"CPU used by other processes before the bench: {pct(busy)} of a core", flush=True)
    rows: list[Outcome] = []
    with ExitStack() as stack, asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-hot-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn, pg_version, postmaster = runner.run(prepare_database(admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        print(f"PostgreSQL {pg_version}: {where}; database {BENCH_DATABASE}", flush=True)
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"]
        servers = [stack.enter_context(run_server(f"fracas-{n}", serve, dsn, workdir, FRACAS_ENV))
                   for n in range(max(args.process_counts))]
        for s in servers:
            print(f"fracas server pid {s.process.pid} on port {s.port} ({FRACAS_SETTINGS})", flush=True)
        for processes in args.process_counts:
            used = servers[:processes]
            urls = [f"http://127.0.0.1:{s.port}" for s in used]
            # a fresh encounter for each process count: its state is as big in every row
            enc, token, npcs = runner.run(set_up(urls[0], max(args.client_counts)))
            for clients in args.client_counts:
                for mode in args.mode_list:
                    o = runner.run(measure(urls, token, npcs[:clients], enc, mode, args, dsn,
                                           [s.process.pid for s in used], postmaster))
                    show(o)
                    rows.append(o)

    print()
    print(f"Fracas hot-encounter benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"machine: {machine()}")
    print(f"PostgreSQL {pg_version} ({where})")
    print(f"server: python -m server.cli serve ({FRACAS_SETTINGS}), per process")
    print(f"clients: {args.clients}, each an AsyncFracas (server/client.py; httpx, its own connection), in the "
          f"bench process (asyncio + uvloop), spread over the processes; {args.policy}")
    print(f"command: SetHits on the client's own NPC (GM token), 1 event; one encounter of "
          f"{max(args.client_counts)} NPCs, round 1 begun; {args.warmup:g} s warm-up, then {args.seconds:g} s per row")
    print("plain: no If-Match (the server serialises); if-match: GET the state, decide, POST with If-Match, "
          "on 412 read and decide again")
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
