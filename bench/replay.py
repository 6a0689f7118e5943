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
  ``server.store.migrations`` and written with ``server.store.events.EventStore`` (``open``, then one
  ``append`` per batch of commands, each command's rows chained as the server chains them),
  then read back by a server ``EncounterService`` on a pool made by
  ``server.store.database.create_pool``: ``current(id)`` with a cold cache, which reads the
  encounter's row and its events, decodes and replays them (``_entry``) and checks for newer
  rows (``_refresh``). The same steps are also timed one by one (read / decode / fold), and
  the read of every column (what the load read before it asked for the replay's columns only).
  Against the target of 20 ms for 10,000 events. The same cold load is then timed with a
  state snapshot (``server.store.snapshots``, migrations/0008_snapshots.sql) taken 1,000 and 500
  events behind the head, and at the head: the snapshot and the events after it read in one query, the
  snapshot decoded, the tail folded (the full-replay load above stays the reference).
  ``--no-db``: the fold alone.

``--instructions``: each chosen ruleset's fight (built alone, from ``--seed``) folded once under
valgrind's callgrind (``bench/instructions.py``): instructions per event, which move ~0.2%
between runs where the fold's CPU time moves 5-15% on this shared host. For comparing code,
not for the target (which is in events/s).

``--ruleset ID|all|mixed``: instead, a long fight of that ruleset (``bench/rulesets.py``: its
demo's cast and script through the Ruleset contract, a fresh cast seated when a side is
beaten), one of each registered ruleset (``all``: the figures above for each, then a table of
their folds), or the same plus all of them folded one after another (``mixed``).

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
from typing import Any

from bench import instructions, rulesets
from bench.append import cpu_snapshot, cpu_use, fresh_database, machine, postgres_server
from bench.fights import Fight, append, long_fight
from bench.timing import abest, best
from domain.rulesets import default_registry

DATABASE = "fracas_bench_replay"
FOLD_TARGET = 300_000  # events/s
LOAD_TARGET = 0.020  # s for 10,000 events
BEHIND = (1000, 500)  # events between a snapshot and the head (1000: FRACAS_SNAPSHOT_EVERY's default, the most)


async def load(dsn: str, fight: Fight, repeat: int) -> dict[str, float]:
    from server.auth.tokens import TokenStore
    from server.store.database import create_pool
    from server.store.encounters import EncounterService
    from server.store.events import EventStore

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
        figures = {
            "current": await abest(repeat, cold_current),
            "read": await abest(repeat, read),
            "read_all": await abest(repeat, read_all),
            "decode": best(repeat, lambda: [decode(ruleset, r) for r in rows]),
            "fold": best(repeat, lambda: ruleset.replay(events)),
        }
        figures.update(await from_snapshots(pool, fight, repeat))
        return figures
    finally:
        await pool.close()


async def from_snapshots(pool: Any, fight: Fight, repeat: int) -> dict[str, float]:
    """The same cold load with a state snapshot (``server.store.snapshots``) taken ``BEHIND`` events
    behind the head, then at the head (in that order: a snapshot replaces only an older one): the snapshot and the events after it in one query, the
    snapshot decoded (``domain.core.snapshot.StateCodec``), the tail folded."""
    from server.auth.tokens import TokenStore
    from server.store.encounters import EncounterService
    from server.store.snapshots import Snapshots
    from server.store.events import EventStore

    registry = default_registry()
    snapshots = Snapshots(pool, registry, every=0)  # taken here by hand, never in the background
    service = EncounterService(EventStore(pool), registry, TokenStore(pool), snapshots=snapshots)
    eid, ruleset, n = fight.encounter_id, fight.ruleset, len(fight.events)

    async def cold_current() -> None:
        service._cache.clear()
        state = await service.current(eid)
        assert state == fight.state, "the load from the snapshot gives another state"

    figures: dict[str, float] = {}
    await cold_current()  # warm
    assert snapshots.used == 0
    figures["snapshot_none"] = await abest(repeat, cold_current)  # none taken yet: the whole log
    for key, at in (*((f"snapshot_{b}", max(1, n - b)) for b in BEHIND), ("snapshot_head", n)):
        state = ruleset.replay(fight.events[:at])
        last_hash = await pool.fetchval("SELECT hash FROM events WHERE encounter_id = $1 AND version = $2", eid, at)
        written = snapshots.written
        await snapshots.take(eid, ruleset, state, bytes(last_hash))
        assert snapshots.written == written + 1, "the snapshot was not written"
        used = snapshots.used
        await cold_current()  # warm
        assert snapshots.used == used + 1, "the load did not use the snapshot"
        figures[key] = await abest(repeat, cold_current)
        if key == "snapshot_head":
            data = snapshots.codec.encode(fight.state)
            figures["snapshot_bytes"] = len(data)
            figures["snapshot_encode"] = best(repeat, lambda: snapshots.codec.encode(fight.state))
            figures["snapshot_decode"] = best(repeat, lambda: snapshots.codec.decode(data))
    return figures


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the fight (default 10,000)")
    parser.add_argument("--repeat", type=int, default=7, help="best of this many runs (default 7)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-db", action="store_true", help="the fold and nothing else (no PostgreSQL)")
    parser.add_argument("--ruleset", choices=rulesets.choices(), default=None,
                        help="a fight of that ruleset's demo (bench/rulesets.py), one of each (all), or all of "
                             "them folded one after another (mixed); default: the Places of Power fight above")
    parser.add_argument("--instructions", action="store_true",
                        help="instructions per event of each chosen ruleset's fold, counted by valgrind's callgrind")
    args = parser.parse_args(argv)
    if instructions.under_callgrind():  # the process `count` started: one fold, counted
        fight = (long_fight(random.Random(args.seed), events=args.events) if args.ruleset is None else
                 rulesets.long_fight(rulesets.chosen(args.ruleset)[0], random.Random(args.seed), events=args.events))
        with instructions.counted():
            fight.ruleset.replay(fight.events)
        print(f"events: {len(fight.events)}")
        return 0
    if args.instructions:
        return count(args)
    print(f"machine: {machine()}")
    rng = random.Random(args.seed)
    if args.ruleset is None:
        built = [long_fight(rng, events=args.events)]
    else:
        built = [rulesets.long_fight(r, rng, events=args.events) for r in rulesets.chosen(args.ruleset)]
    folds = [(f.ruleset.id, len(f.events), measure(f, args),
              best(args.repeat, lambda f=f: f.ruleset.replay(f.events), time.thread_time)) for f in built]
    if args.ruleset == "mixed":
        def all_of_them() -> None:
            for f in built:
                f.ruleset.replay(f.events)

        folds.append(("mixed: one after another", sum(len(f.events) for f in built), best(args.repeat, all_of_them),
                      best(args.repeat, all_of_them, time.thread_time)))
    if len(folds) > 1 or args.ruleset is not None:  # with one ruleset too: its fold in CPU time
        print(f"\nfold, best of {args.repeat} (cpu: the CPU time of the fold's thread, best of as many more runs):")
        print(f"{'ruleset':30} {'events':>8} {'ms':>8} {'events/s':>12}  target{'':24} {'cpu ms':>7} "
              f"{'events/cpu s':>12}")
        for name, n, took, cpu in folds:
            print(f"{name:30} {n:>8,} {took * 1000:>8.1f} {rate(n, took)}  {FOLD_TARGET:,} events/s: "
                  f"{n / took / FOLD_TARGET:.2f}x {cpu * 1000:>11.1f} {rate(n, cpu)}")
    return 0


def count(args: argparse.Namespace) -> int:
    """Instructions per event of each chosen ruleset's fold, each in a process of its own under callgrind."""
    if not instructions.available():
        print("--instructions needs valgrind (Debian: apt-get install valgrind)")
        return 2
    ids = [None] if args.ruleset is None else [r.id for r in rulesets.chosen(args.ruleset)]
    print(f"fold, instructions per event (callgrind; each fight built alone from seed {args.seed}, "
          f"at least {args.events:,} events):")
    for rid in ids:
        argv = ["--events", str(args.events), "--seed", str(args.seed), *(["--ruleset", rid] if rid else [])]
        n, out = instructions.run("bench.replay", *argv)
        events = int(out.rsplit("events: ", 1)[1].split()[0])
        print(f"{rid or 'places-of-power (bench/fights.py)':30} {events:>8,} events {n / events:>10,.0f} "
              "instructions/event", flush=True)
    return 0


def measure(fight: Fight, args: argparse.Namespace) -> float:
    """Time ``fight``'s fold (and its load, unless ``--no-db``) and print the figures; returns the fold's best."""
    n = len(fight.events)
    top = collections.Counter(type(e).__struct_config__.tag for e in fight.events).most_common(6)
    print(f"one {fight.ruleset.id} fight: {n:,} events, {len(fight.groups):,} commands, round {fight.state.round} "
          f"(driven, not measured); most common: " + ", ".join(f"{k} {v:,}" for k, v in top))

    before = cpu_snapshot()
    where = ""
    if args.no_db:
        figures = {"fold": best(args.repeat, lambda: fight.ruleset.replay(fight.events))}
    else:
        with postgres_server() as (admin_dsn, where), fresh_database(admin_dsn, DATABASE, migrate=True) as dsn:
            figures = asyncio.run(load(dsn, fight, args.repeat))
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
        print(f"with a state snapshot ({figures['snapshot_bytes'] / 1024:,.0f} KiB; encode and check "
              f"{figures['snapshot_encode'] * 1000:.1f} ms, in the background; decode "
              f"{figures['snapshot_decode'] * 1000:.1f} ms):")
        for what, key in (("load: none taken yet (the whole log)", "snapshot_none"),
                          *((f"load: snapshot {b:,} events behind the head", f"snapshot_{b}") for b in BEHIND),
                          ("load: snapshot at the head", "snapshot_head")):
            s = figures[key]
            print(f"{what:46} {s * 1000:>8.1f} {'':>9} {'':>12}  {scaled * 1000:.0f} ms: {scaled / s:.2f}x")
    print(f"others: {others:.0f}% of a core" if others is not None else "others: unknown")
    return fold


if __name__ == "__main__":
    sys.exit(main())
