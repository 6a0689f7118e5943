"""``python -m bench.projections``: how fast the read models are rebuilt from the event log.

One run: a fresh database ``fracas_bench_projections`` (on DATABASE_URL's server, else an
embedded PostgreSQL in a temporary folder), migrated; a log of random Places of Power fights
(``bench/fights.py``: attacks, defences, checks, actions, turns; at least ``--events``;
``--ruleset ID|all|mixed``: instead, demo fights of ``FIGHT_EVENTS`` events of that ruleset or of
every registered one in turn, ``bench/rulesets.py``)
written into the event store with COPY; then each projection rebuilt from it as ``fracas
projections rebuild`` does (``projections/rebuild.py``: batches of ``--batch-size`` events,
rows and checkpoint in one transaction each, the next batch read ahead on a second connection
unless ``--one-connection``, then the swap), timed; then the same with both at once, as
``--repeat`` times. It prints events/s per projection, and the CPU time this process and the
rebuild's PostgreSQL backends (when on this machine) spent. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import platform
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

import asyncpg

from bench import rulesets
from bench.append import fresh_database, postgres_server
from bench.fights import Fight, fights, store
from projections.catalog import all_projections
from projections.rebuild import Rebuilt, rebuild

DATABASE = "fracas_bench_projections"
FIGHT_EVENTS = 150  # events in each demo fight of ``--ruleset``


def ruleset_fights(which: str, seed: int, events: int) -> Iterator[Fight]:
    """Demo fights of ``FIGHT_EVENTS`` events (``bench/rulesets.py``) of the rulesets ``which``
    names, taken in turn, until together they hold at least ``events`` events."""
    rng, chosen, total, i = random.Random(seed), rulesets.chosen(which), 0, 0
    while total < events:
        fight = rulesets.long_fight(chosen[i % len(chosen)], rng, events=FIGHT_EVENTS)
        total, i = total + len(fight.events), i + 1
        yield fight


async def write_log(dsn: str, events: int, seed: int, which: str | None = None) -> tuple[int, int, collections.Counter[str]]:
    """Write fights until the log holds ``events`` (``which``: the rulesets' demo fights, else
    random Places of Power ones); returns (events, encounters, events by type)."""
    conn = await asyncpg.connect(dsn)
    try:
        written = encounters = 0
        kinds: collections.Counter[str] = collections.Counter()
        chunk = []
        for fight in (fights(seed, events=events) if which is None else ruleset_fights(which, seed, events)):
            chunk.append(fight)
            kinds.update(type(e).__struct_config__.tag for e in fight.events)
            if len(chunk) == 50:
                written += await store(conn, chunk)
                encounters += len(chunk)
                chunk = []
        if chunk:
            written += await store(conn, chunk)
            encounters += len(chunk)
        await conn.execute("VACUUM ANALYZE events")
        return written, encounters, kinds
    finally:
        await conn.close()


def backend_cpu(conn: asyncpg.Connection) -> float | None:
    """CPU seconds the connection's PostgreSQL backend has used (None: its process is not on
    this machine, or not readable: ``/proc/PID/stat``, user + system)."""
    try:
        with open(f"/proc/{conn.get_server_pid()}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Timed:
    """A rebuild, with the CPU this process and the rebuild's PostgreSQL backends used for it."""

    rebuilt: Rebuilt
    cpu: float
    server_cpu: float | None


async def rebuild_one(dsn: str, name: str, batch_size: int, read_ahead: bool = True) -> Timed:
    projection = next(p for p in all_projections() if p.name == name)
    conns = [await asyncpg.connect(dsn) for _ in range(2 if read_ahead else 1)]
    try:
        before = [backend_cpu(c) for c in conns]
        cpu = time.process_time()
        done = await rebuild(conns[0], projection, batch_size=batch_size, reader=conns[1] if read_ahead else None)
        cpu = time.process_time() - cpu
        after = [backend_cpu(c) for c in conns]
        known = None not in before + after
        server = sum(a - b for a, b in zip(after, before, strict=True)) if known else None  # type: ignore[operator]
        return Timed(done, cpu, server)
    finally:
        for c in conns:
            await c.close()


def show(t: Timed, label: str | None = None) -> None:
    r = t.rebuilt
    server = f", PostgreSQL {t.server_cpu:.2f} s" if t.server_cpu is not None else ""
    print(f"  {label or r.projection:<40} {r.events:>9,} events  {r.seconds:7.2f} s  {r.rate:>10,.0f} events/s"
          f"  (CPU: this process {t.cpu:.2f} s{server})")


async def bench(dsn: str, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    events, encounters, kinds = await write_log(dsn, args.events, args.seed, args.ruleset)
    print(f"log: {events:,} events in {encounters:,} encounters (written in {time.perf_counter() - started:.1f} s, "
          f"not measured); most common: "
          + ", ".join(f"{k} {n:,}" for k, n in kinds.most_common(8)))
    names = [p.name for p in all_projections()]
    ahead = not args.one_connection
    for run in range(1, args.repeat + 1):
        print(f"run {run}, batches of {args.batch_size:,} events"
              + (", the next read ahead on a second connection:" if ahead else ", one connection:"))
        for name in names:
            show(await rebuild_one(dsn, name, args.batch_size, ahead))
        t0, cpu = time.perf_counter(), time.process_time()
        both = await asyncio.gather(*(rebuild_one(dsn, n, args.batch_size, ahead) for n in names))
        seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu
        total = sum(t.rebuilt.events for t in both)
        print(f"  {'both at once (their own connections)':<40} {total:>9,} events  {seconds:7.2f} s  "
              f"{total / seconds:>10,.0f} events/s  (CPU: this process {cpu:.2f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.projections", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the generated log (default 100,000)")
    parser.add_argument("--batch-size", type=int, default=5000, help="events per transaction (default 5,000)")
    parser.add_argument("--repeat", type=int, default=2, help="rebuild this many times (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one-connection", action="store_true",
                        help="rebuild on one connection (default: the next batch is read ahead on a second one)")
    parser.add_argument("--ruleset", choices=rulesets.choices(), default=None,
                        help="a log of that ruleset's demo fights (all, mixed: every ruleset's in turn); "
                             "default: random Places of Power fights")
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with postgres_server() as (admin_dsn, where):
        print(f"PostgreSQL: {where}")
        with fresh_database(admin_dsn, DATABASE, migrate=True) as dsn:
            asyncio.run(bench(dsn, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
