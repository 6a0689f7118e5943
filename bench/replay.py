"""``python -m bench.replay``: load and replay one long encounter, as the server does on a cache miss.

One run: a realistic Places of Power fight of at least ``--events`` events (default 10,000;
``bench/fights.py`` ``long_fight``: four combatants on the field, a hidden NPC among the first,
the fallen carried off and replaced by fresh ones; attacks with every step of their exchange,
Status Effects put on, settled and stabilised, actions, checks, turns and rounds; seeded dice)
is driven through the decider. Then, best of ``--repeat``:

- **fold**: ``Ruleset.replay`` of the decoded events, in process: events/s against the
  target of 300,000 events/s;
- **decode**: ``Ruleset.decode_event`` of every stored row (the text PostgreSQL returns);
- **load**: the fight stored in a fresh database ``fracas_bench_replay`` (DATABASE_URL's
  server, else an embedded PostgreSQL in a temporary folder), migrated with
  ``server.migrations`` and written with ``server.store.EventStore`` (``open``, then one
  ``append`` per batch of commands, each command's rows chained as the server chains them),
  then read back by a server ``EncounterService`` on a pool made by
  ``server.database.create_pool``: ``current(id)`` with a cold cache, which reads the
  encounter's row and its events, decodes and replays them (``_entry``) and checks for newer
  rows (``_refresh``). The same steps are also timed one by one (read / decode / fold), and
  the read of every column (what the load read before it asked for the replay's columns only).
  Against the target of 20 ms for 10,000 events. ``--no-db``: the fold alone.

Figures, not assertions. ``others`` is the CPU (% of one core) processes foreign to the bench
used meanwhile: above ~10% the figures are skewed.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from bench.append import cpu_snapshot, cpu_use, machine, postgres_server, with_database
from bench.fights import Fight, append, long_fight
from domain.rulesets import default_registry

DATABASE = "fracas_bench_replay"
FOLD_TARGET = 300_000  # events/s
LOAD_TARGET = 0.020  # s for 10,000 events


def best(repeat: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        work()
        times.append(time.perf_counter() - t)
    return min(times)


async def abest(repeat: int, work: Callable[[], Awaitable[Any]]) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        await work()
        times.append(time.perf_counter() - t)
    return min(times)


async def prepare(admin_dsn: str) -> str:
    from server.migrations import migrate_dsn

    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{DATABASE}"')
    finally:
        await admin.close()
    dsn = with_database(admin_dsn, DATABASE)
    await migrate_dsn(dsn)
    return dsn


async def drop(admin_dsn: str) -> None:
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    finally:
        await admin.close()


async def load(dsn: str, fight: Fight, repeat: int) -> dict[str, float]:
    from server.auth import TokenStore
    from server.database import create_pool
    from server.encounters import EncounterService
    from server.store import EventStore

    pool = await create_pool(dsn, 10)
    try:
        t = time.perf_counter()
        await append(pool, fight)
        async with pool.acquire() as conn:
            await conn.execute("VACUUM ANALYZE events")
        print(f"stored with EventStore in {time.perf_counter() - t:.1f} s (not measured)")
        registry = default_registry()
        service = EncounterService(EventStore(pool), registry, TokenStore(pool))
        eid = fight.encounter_id

        async def cold_current() -> None:
            service._cache.clear()
            state = await service.current(eid)
            assert state.version == len(fight.events), (state.version, len(fight.events))

        async def read() -> list[Any]:  # as EncounterService._entry reads
            rec = await service.store.encounter(eid)
            assert rec is not None
            return await service.store.read(eid, 0, fold_only=True)

        async def read_all() -> list[Any]:  # every column, as the API's event pages read them
            return await service.store.read(eid, 0)

        ruleset = registry.get(fight.ruleset.id)
        rows = await read()
        decode = service._decode
        events = [decode(ruleset, r) for r in rows]
        assert events == fight.events, "decoding the stored rows gives other events"
        await cold_current()  # warm the pool's prepared statements
        return {
            "current": await abest(repeat, cold_current),
            "read": await abest(repeat, read),
            "read_all": await abest(repeat, read_all),
            "decode": best(repeat, lambda: [decode(ruleset, r) for r in rows]),
            "fold": best(repeat, lambda: ruleset.replay(events)),
        }
    finally:
        await pool.close()


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the fight (default 10,000)")
    parser.add_argument("--repeat", type=int, default=7, help="best of this many runs (default 7)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-db", action="store_true", help="the fold and nothing else (no PostgreSQL)")
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    t = time.perf_counter()
    fight = long_fight(random.Random(args.seed), events=args.events)
    n = len(fight.events)
    top = collections.Counter(type(e).__struct_config__.tag for e in fight.events).most_common(6)
    print(f"one fight: {n:,} events, {len(fight.groups):,} commands, round {fight.state.round} "
          f"(driven in {time.perf_counter() - t:.1f} s, not measured); most common: "
          + ", ".join(f"{k} {v:,}" for k, v in top))

    before = cpu_snapshot()
    where = ""
    if args.no_db:
        figures = {"fold": best(args.repeat, lambda: fight.ruleset.replay(fight.events))}
    else:
        with postgres_server() as (admin_dsn, where):
            dsn = asyncio.run(prepare(admin_dsn))
            try:
                figures = asyncio.run(load(dsn, fight, args.repeat))
            finally:
                asyncio.run(drop(admin_dsn))
    others = cpu_use(before, cpu_snapshot(), None, []).others
    if where:
        print(f"PostgreSQL: {where}")
    print(f"best of {args.repeat}:")
    print(f"{'what':46} {'ms':>8} {'µs/event':>9} {'events/s':>12}  target")
    fold = figures["fold"]
    print(f"{'fold: Ruleset.replay of the decoded events':46} {fold * 1000:>8.1f} {fold * 1e6 / n:>9.2f} "
          f"{rate(n, fold)}  {FOLD_TARGET:,} events/s: {n / fold / FOLD_TARGET:.2f}x")
    if "current" in figures:
        scaled = LOAD_TARGET * n / 10_000
        for what, key in (("read: store.encounter + store.read(fold_only)", "read"),
                          ("  (store.read of every column)", "read_all"),
                          ("decode: decode_event of each row", "decode")):
            s = figures[key]
            print(f"{what:46} {s * 1000:>8.1f} {s * 1e6 / n:>9.2f} {rate(n, s)}")
        total = figures["read"] + figures["decode"] + figures["fold"]
        print(f"{'read + decode + fold':46} {total * 1000:>8.1f} {total * 1e6 / n:>9.2f} {rate(n, total)}")
        cur = figures["current"]
        print(f"{'load: EncounterService.current, cold cache':46} {cur * 1000:>8.1f} {cur * 1e6 / n:>9.2f} "
              f"{rate(n, cur)}  {scaled * 1000:.0f} ms: {scaled / cur:.2f}x")
        print(f"share of the load: read {figures['read'] / total:.0%}, decode {figures['decode'] / total:.0%}, "
              f"fold {figures['fold'] / total:.0%}")
    print(f"others: {others:.0f}% of a core" if others is not None else "others: unknown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
