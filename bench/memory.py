"""``python -m bench.memory``: the server's memory with many active encounters in its cache.

One PostgreSQL (DATABASE_URL, else an embedded one in a temporary folder), a fresh database
``fracas_bench_memory``, one real server process (``python -m server.cli serve``, one worker, rate
limit off). The bench reads the server's memory from Linux ``/proc/PID``: ``VmRSS`` (resident set),
``VmHWM`` (its peak) and ``Pss`` from ``smaps_rollup`` (resident, shared pages divided among the
processes sharing them). It reads it

1. **at start**, once ``GET /health`` answers;
2. **warm**, after one fight has been played (every code path a fight uses imported and run once);
3. **after N**: ``--encounters`` more fights (default 1,000), each the scripted Places of Power fight
   (``--ruleset ID``: that ruleset's demo fight; ``all`` or ``mixed``: every registered ruleset's
   in turn)
   of ``fracas demo`` (``domain/places_of_power/demo.py``, played by ``server/cli/demo.py``: Mira and
   Kess, players with their own tokens, against two bandits, full sheets with weapons and armour, a
   spectator token, initiative rolled, started, then ``--rounds`` rounds (default 1) of attacks and
   every step of their exchanges: tens of events each), left active (not ended), played by
   ``--workers`` threads (default 8), each with its own keep-alive HTTP connection;
4. **after a GET of each**: every encounter read once more (``GET /encounters/{id}``, the GM's
   token, an async httpx client over ``--workers`` connections). That the server answered them from
   its cache is checked in PostgreSQL's statistics: a cache miss looks the encounter up in
   ``encounters`` and replays all its events (read through the ``(encounter_id, version)`` index);
   a hit only asks for events after its version (none). The server's background work shows in
   the same counters now and then: the bench prints them over a window with no request too, and
   an upper bound of misses;
5. **steady**: after the server has been idle 11 s (while PostgreSQL's statistics settle), once more.

``per enc.`` is (the figure − the warm one) ÷ the encounters played since; ``target`` is the
``VmRSS`` against the 300 MB target of issue 9 (below 1.00: under it). Figures, no assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx

from bench import rulesets
from bench.append import FRACAS_ENV, fresh_database, postgres_server, run_server
from server.cli import demo

DATABASE = "fracas_bench_memory"
TARGET_MB = 300.0
STATS_DELAY = 11.0  # s: PostgreSQL's idle sessions report their statistics within 10 s


# --------------------------------------------------------------------------- memory


@dataclass(frozen=True)
class Memory:
    """A process's memory, in KiB, as Linux counts it."""

    rss: int  # VmRSS: resident
    hwm: int  # VmHWM: the most it was resident
    pss: int | None  # Pss from smaps_rollup: resident, shared pages split among their users
    pss_anon: int | None  # of which anonymous (the heap), not file-backed (code, libraries)


def memory_of(pid: int) -> Memory:
    status = _kib_fields(Path(f"/proc/{pid}/status"))
    try:
        rollup: dict[str, int] | None = _kib_fields(Path(f"/proc/{pid}/smaps_rollup"))
    except OSError:  # kernels before 4.14, or not allowed
        rollup = None
    return Memory(status["VmRSS"], status["VmHWM"], rollup and rollup.get("Pss"), rollup and rollup.get("Pss_Anon"))


def _kib_fields(path: Path) -> dict[str, int]:
    out = {}
    for line in path.read_text().splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            out[name] = int(parts[0])
    return out


# ------------------------------------------------------------------------- database


@dataclass(frozen=True)
class Reads:
    """What the server has read from PostgreSQL so far, in PostgreSQL's statistics, through the
    two indexes an encounter's load uses."""

    encounter_lookups: int  # scans of ``encounters_pkey``: a cache miss looks the encounter up
    event_rows: int  # rows fetched through ``events_encounter_version``: a miss replays them all
    events: int  # rows in ``events``


async def reads(dsn: str) -> Reads:
    """The statistics once the server's projections have read every event and every session has
    reported what it did (an idle session reports within PGSTAT_IDLE_INTERVAL, 10 s)."""
    conn = await asyncpg.connect(dsn)
    try:
        while await conn.fetchval("SELECT coalesce(min(events), 0) FROM projection_checkpoints WHERE live") \
                < await conn.fetchval("SELECT count(*) FROM events"):
            await asyncio.sleep(0.2)
        await asyncio.sleep(STATS_DELAY)
        stats = {r["indexrelname"]: r for r in await conn.fetch(
            "SELECT indexrelname, idx_scan, idx_tup_fetch FROM pg_stat_user_indexes"
            " WHERE indexrelname IN ('encounters_pkey', 'events_encounter_version')")}
        count = await conn.fetchval("SELECT count(*) FROM events")
        return Reads(int(stats["encounters_pkey"]["idx_scan"]), int(stats["events_encounter_version"]["idx_tup_fetch"]),
                     int(count))
    finally:
        await conn.close()


# --------------------------------------------------------------------------- fights


@dataclass(frozen=True)
class Played:
    encounter_id: str
    gm_token: str
    version: int


def play_one(base_url: str, rounds: int, ruleset_id: str = demo.DEFAULT_RULESET,
             http: httpx.Client | None = None) -> Played:
    """``fracas demo``'s fight of ``ruleset_id`` (server/cli/demo.py), left active: not ended, silent
    (no log read); ``http``: the client to talk with (default: a new one for ``base_url``)."""
    api = demo.Api(base_url, timeout=60.0, http=http)
    try:
        ruleset, script = demo.demo_of(ruleset_id)
        fight = demo.Fight(api, demo.SETUP_COMMANDS + demo.COMMANDS_PER_ROUND * rounds)
        table, _ = demo.set_up(fight, ruleset, script, os.environ.get("FRACAS_OPERATOR_KEY") or None, rounds,
                               lambda _line: None, tell=False)
        fight.play(script, table)
        return Played(fight.enc, fight.gm, int(table.state["version"]))
    finally:
        api.close()


def play(base_url: str, count: int, rounds: int, workers: int, ruleset_ids: list[str]) -> list[Played]:
    """``count`` demo fights, the rulesets of ``ruleset_ids`` taken in turn."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda i: play_one(base_url, rounds, ruleset_ids[i % len(ruleset_ids)]), range(count)))


async def read_all(base_url: str, played: list[Played], workers: int) -> None:
    """GET each encounter once, as its GM; every answer must be 200 at the version it was left at."""
    limits = httpx.Limits(max_connections=workers, max_keepalive_connections=workers)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60.0) as client:
        queue = list(played)

        async def worker() -> None:
            while queue:
                p = queue.pop()
                r = await client.get(f"/encounters/{p.encounter_id}", headers={"Authorization": f"Bearer {p.gm_token}"})
                if r.status_code != 200 or r.json()["version"] != p.version:
                    raise SystemExit(f"GET /encounters/{p.encounter_id}: {r.status_code} {r.text[:300]}")

        await asyncio.gather(*(worker() for _ in range(workers)))


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--encounters", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1, help="rounds played in each fight (default 1)")
    parser.add_argument("--workers", type=int, default=8, help="concurrent HTTP connections for the set-up")
    parser.add_argument("--ruleset", choices=rulesets.choices(), default=demo.DEFAULT_RULESET,
                        help="whose demo fights (all, mixed: every ruleset's in turn; default places-of-power)")
    args = parser.parse_args(argv)
    ruleset_ids = [r.id for r in rulesets.chosen(args.ruleset)]

    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-memory-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn = stack.enter_context(fresh_database(admin_dsn, DATABASE, migrate=True))
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"]
        server = stack.enter_context(run_server("fracas-memory", serve, dsn, workdir, FRACAS_ENV))
        pid, base_url = server.process.pid, f"http://127.0.0.1:{server.port}"
        print(f"PostgreSQL: {where}; database {DATABASE}", flush=True)
        print(f"fracas serve: pid {pid} on port {server.port} (one worker, rate limit off); "
              f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores", flush=True)

        rows: list[tuple[str, Memory, int]] = []  # (stage, memory, encounters in the cache)
        time.sleep(1.0)
        rows.append(("at start", memory_of(pid), 0))
        warm = play(base_url, 1, args.rounds, 1, ruleset_ids)
        rows.append(("warm (1 fight played)", memory_of(pid), 1))

        started = time.monotonic()
        played = play(base_url, args.encounters, args.rounds, args.workers, ruleset_ids)
        took = time.monotonic() - started
        n = len(warm) + len(played)
        rows.append((f"after {args.encounters:,} more", memory_of(pid), n))
        before = asyncio.run(reads(dsn))
        events = before.events
        print(f"set-up: {args.encounters:,} fights of {', '.join(ruleset_ids)} (in turn) in {took:.0f} s, {events:,} events in all "
              f"({events / n:.0f} an encounter, {min(p.version for p in played)}-"
              f"{max(p.version for p in played)})", flush=True)

        idle = asyncio.run(reads(dsn))  # the same counters over a window with no request: the background
        asyncio.run(read_all(base_url, warm + played, args.workers))
        rows.append(("after a GET of each", memory_of(pid), n))
        after = asyncio.run(reads(dsn))  # waits STATS_DELAY: the server is idle meanwhile
        rows.append((f"steady (idle {STATS_DELAY:.0f} s more)", memory_of(pid), n))
        lookups, rows_read = after.encounter_lookups - idle.encounter_lookups, after.event_rows - idle.event_rows
        fewest = min(p.version for p in warm + played)
        print(f"cache check: over {STATS_DELAY:.0f} s with no request, {idle.encounter_lookups - before.encounter_lookups:,} "
              f"scans of encounters_pkey and {idle.event_rows - before.event_rows:,} rows read through "
              f"events_encounter_version (the server's background work); over the GET of each of the {n:,} and "
              f"{STATS_DELAY:.0f} s more, {lookups:,} and {rows_read:,}. A miss costs a scan and the encounter's "
              f"{fewest}+ rows (all {events:,} for all): at most {min(lookups, rows_read // fewest):,} of the {n:,} "
              f"GETs missed the cache", flush=True)

        print()
        report(rows)
    return 0


def report(rows: list[tuple[str, Memory, int]]) -> None:
    _, warm, warm_n = rows[1]
    print(f"{'stage':<26} {'encounters':>10} {'VmRSS MB':>9} {'Pss MB':>7} {'anon MB':>8} {'VmHWM MB':>9} "
          f"{'RSS/enc. KB':>11} {'anon/enc. KB':>12} {'target':>6}")
    for stage, m, n in rows:
        extra = n - warm_n
        per_rss = f"{(m.rss - warm.rss) / extra:>11.1f}" if extra > 0 else f"{'-':>11}"
        per_anon = (f"{(m.pss_anon - warm.pss_anon) / extra:>12.1f}" if extra > 0 and m.pss_anon is not None
                    and warm.pss_anon is not None else f"{'-':>12}")
        print(f"{stage:<26} {n:>10,} {m.rss / 1024:>9.1f} {_mb(m.pss):>7} {_mb(m.pss_anon):>8} {m.hwm / 1024:>9.1f} "
              f"{per_rss} {per_anon} {m.rss / 1024 / TARGET_MB:>6.2f}")
    print(f"\ntarget: VmRSS under {TARGET_MB:.0f} MB with 1,000 active encounters in the cache "
          f"(`target` = VmRSS ÷ {TARGET_MB:.0f} MB); MB = 2^20 bytes; anon = Pss_Anon, the heap")


def _mb(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.1f}"


if __name__ == "__main__":
    sys.exit(main())
