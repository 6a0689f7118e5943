"""``python -m bench.vs_eventsourcing``: Fracas's event store against the ``eventsourcing`` library's
PostgreSQL recorders, appending the same events on the same PostgreSQL.

The events: random Places of Power fights (``bench/fights.py``: seeded dice, 2-4 combatants,
attacks with every step of their exchanges, checks, actions, turns; at least ``--events``, default
20,000, in about 190 encounters), each fight's events grouped by the command that recorded them.
Every group is one append, in the fight's order; ``--concurrency`` workers (default 1 and 16) share
the encounters (worker w takes encounters w, w+C, ...) and append their groups one after the other.

- ``fracas``: ``server.store.events.EventStore.append`` through the server's own pool
  (``server.store.database.create_pool``: the writer role, no reset query) of C connections, C asyncio
  tasks on uvloop. Per append, in the timed loop: ``server.store.events.chain`` (each event's payload as
  sorted JSON, its metadata, a new event id, ``recorded_at``, the SHA-256 hash chain from the
  previous event's hash), then one statement: an INSERT of all the group's rows from arrays
  (``unnest``) that appends only while the sending GM token is not revoked (an ``EXISTS`` on
  ``tokens``), with the idempotency-key insert beside it (no key sent: it inserts nothing), under
  the unique ``(encounter_id, version)`` key; the table's statement trigger sends one NOTIFY (the
  readers' wake-up). Each encounter's row and GM token are written before the clock starts.
- ``es-application``: the ``eventsourcing`` library's ``PostgresApplicationRecorder`` (what an
  ``eventsourcing`` Application with ``PERSISTENCE_MODULE=eventsourcing.postgres`` uses, in its
  default configuration): ``insert_events`` of the group's ``StoredEvent``s (originator id = the
  encounter, originator version = the version, topic = the event type, state = the same payload
  bytes Fracas stores in ``data``, made before the clock starts), C threads sharing its
  ``PostgresDatastore(pool_size=C)`` (psycopg 3, synchronous). Per append: one pipelined
  transaction that takes an EXCLUSIVE lock on the table (its way of keeping the notification ids
  in commit order), NOTIFYs, and INSERTs the rows from an array of a composite type, returning
  their notification ids; unique ``(originator_id, originator_version)`` key.
- ``es-aggregate``: its ``PostgresAggregateRecorder``: the same INSERT without the lock, the
  NOTIFY and the notification ids (one autocommitted statement): it stores aggregates' events but
  keeps no application-wide log to follow, which Fracas's projections and live streams need.
- ``fracas-no-notify`` (a diagnostic, only with ``--sides``): ``fracas`` with the events table's
  wake-up trigger (``migrations/0004_wakeup.sql``) disabled, to show what that NOTIFY costs: a
  NOTIFY takes a cluster-wide lock from before the commit until after it (PostgreSQL's
  ``async.c``, ``PreCommit_Notify``), so notifying transactions commit one at a time.

Each run gets a fresh database on the same PostgreSQL. Columns: ``events/s`` and ``appends/s``
(wall-clock, all workers), ``p50``/``p99`` of one append, ``ratio`` Fracas ÷ that recorder at the
same concurrency (the events/s of the ``fracas`` run just before), ``cpu bench`` the bench
process (the client: 100% = one core), ``cpu pg`` PostgreSQL, ``others`` processes foreign to the
bench (above ~10% do not trust the row). Figures, no assertions; after each run the rows are
counted.

The ``eventsourcing`` library is not a dependency of Fracas: install it for this bench only
(``pip install "eventsourcing[postgres]" "psycopg[binary]"``, or ``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import asyncpg

from bench.append import CpuSnapshot, cpu_snapshot, cpu_use, fresh_database, local_postmaster, postgres_server
from bench.fights import fights
from bench.live import run, tree_cpu
from bench.loadgen import event_loop_factory, percentile
from domain.core.encounter import Event

INSTALL = 'pip install "eventsourcing[postgres]" "psycopg[binary]"   (or: pip install -e ".[bench]")'
DATABASE = "fracas_bench_es"
FRACAS, APPLICATION, AGGREGATE = "fracas", "es-application", "es-aggregate"
SIDES = (FRACAS, APPLICATION, AGGREGATE)
# A diagnostic, not a configuration Fracas runs in: the same appends with the events table's
# wake-up trigger (migrations/0004_wakeup.sql: one NOTIFY per append) disabled.
FRACAS_QUIET = "fracas-no-notify"


@dataclass(frozen=True)
class Stream:
    """One encounter's events, grouped by the command that recorded them."""

    encounter_id: str
    groups: list[list[Event]]
    schema_versions: dict[str, int]
    payloads: list[list[tuple[int, str, bytes]]]  # per group: (version, type, data) as Fracas stores them


@dataclass(frozen=True)
class Result:
    side: str
    concurrency: int
    events: int
    appends: int
    seconds: float
    latencies: list[float]  # ms, one per append
    stored: int  # rows counted in the database afterwards
    cpu_bench: float | None
    cpu_pg: float | None
    others: float | None

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds

    @property
    def appends_per_s(self) -> float:
        return self.appends / self.seconds


class Window:
    """The timed part of a run: wall-clock and every process's CPU time at its start and end."""

    def __init__(self) -> None:
        self.before: CpuSnapshot | None = None
        self.after: CpuSnapshot | None = None

    def start(self) -> None:
        self.before = cpu_snapshot()

    def stop(self) -> None:
        self.after = cpu_snapshot()

    @property
    def seconds(self) -> float:
        assert self.before is not None and self.after is not None
        return self.after.at - self.before.at


def streams(seed: int, events: int) -> list[Stream]:
    from server.store.events import GENESIS_HASH, chain

    out = []
    for f in fights(seed, events=events):
        rows = chain(f.encounter_id, GENESIS_HASH, 1, f.events, {}, f.ruleset.schema_versions)
        payloads, i = [], 0
        for g in f.groups:
            payloads.append([(r.version, r.type, r.data) for r in rows[i:i + len(g)]])
            i += len(g)
        out.append(Stream(f.encounter_id, f.groups, f.ruleset.schema_versions, payloads))
    return out


def shares(items: list[Stream], workers: int) -> list[list[Stream]]:
    return [items[w::workers] for w in range(workers)]


# ----------------------------------------------------------------------------- databases


async def count_rows(dsn: str, table: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
    finally:
        await conn.close()


# -------------------------------------------------------------------------------- Fracas


async def run_fracas(dsn: str, items: list[Stream], concurrency: int, window: Window, notify: bool = True) -> list[float]:
    """Append every group through EventStore.append; returns the latencies (ms)."""
    from server.auth.tokens import hash_secret, new_secret
    from server.store.database import create_pool
    from server.store.migrations import migrate_dsn
    from server.store.events import GENESIS_HASH, EventStore, chain, new_uuid

    await migrate_dsn(dsn)
    tokens = {s.encounter_id: (str(uuid.uuid4()), hash_secret(new_secret())) for s in items}
    conn = await asyncpg.connect(dsn)
    try:  # what opening the encounters left behind: their rows and GM tokens (not timed)
        if not notify:
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_wake_readers")
        await conn.copy_records_to_table("encounters", columns=("id", "ruleset", "name", "seed"), records=[
            (uuid.UUID(s.encounter_id), "places-of-power", "bench", os.urandom(32)) for s in items])
        await conn.copy_records_to_table("tokens", columns=("id", "encounter_id", "role", "secret_hash"), records=[
            (uuid.UUID(tokens[s.encounter_id][0]), uuid.UUID(s.encounter_id), "gm", tokens[s.encounter_id][1])
            for s in items])
    finally:
        await conn.close()
    pool = await create_pool(dsn, concurrency)
    held = [await pool.acquire() for _ in range(concurrency)]  # every connection open before the clock starts
    for c in held:
        await pool.release(c)
    store = EventStore(pool)
    latencies: list[float] = []

    async def worker(share: list[Stream]) -> None:
        for s in share:
            token_id, token_hash = tokens[s.encounter_id]
            actor = {"role": "gm", "token_id": token_id}
            last, version = GENESIS_HASH, 1
            for group in s.groups:
                t0 = time.perf_counter()
                metadata_ = {"actor": actor, "command": "bench", "idempotency_key": None, "request_id": new_uuid()}
                rows = chain(s.encounter_id, last, version, group, metadata_, s.schema_versions)
                await store.append(s.encounter_id, rows, token_hash)
                latencies.append((time.perf_counter() - t0) * 1000)
                last, version = rows[-1].hash, version + len(rows)

    try:
        window.start()
        await asyncio.gather(*(worker(share) for share in shares(items, concurrency)))
        window.stop()
        return latencies
    finally:
        await pool.close()


# ------------------------------------------------------------------------- eventsourcing


def datastore_for(dsn: str, pool_size: int) -> Any:
    """An eventsourcing PostgresDatastore on the same server and database as ``dsn``."""
    from eventsourcing.postgres import PostgresDatastore
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(dsn)
    port = info.get("port") or asyncio.run(_server_port(dsn))
    return PostgresDatastore(
        dbname=str(info["dbname"]), host=str(info.get("host") or "localhost"), port=str(port),
        user=str(info.get("user") or ""), password=str(info.get("password") or ""), pool_size=pool_size,
    )


async def _server_port(dsn: str) -> str:
    conn = await asyncpg.connect(dsn)
    try:
        return str(await conn.fetchval("SHOW port"))
    finally:
        await conn.close()


def run_eventsourcing(dsn: str, items: list[Stream], concurrency: int, application: bool,
                      window: Window) -> list[float]:
    """Append every group through the recorder's insert_events, from ``concurrency`` threads."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder

    datastore = datastore_for(dsn, concurrency)
    recorder_class = PostgresApplicationRecorder if application else PostgresAggregateRecorder
    recorder = recorder_class(datastore)
    recorder.create_table()
    datastore.pool.open(wait=True, timeout=60)  # every connection open before the clock starts
    latencies: list[float] = []

    def worker(share: list[Stream]) -> None:
        for s in share:
            originator = uuid.UUID(s.encounter_id)
            for group in s.payloads:
                t0 = time.perf_counter()
                recorder.insert_events([StoredEvent(originator_id=originator, originator_version=v, topic=t, state=d)
                                        for v, t, d in group])
                latencies.append((time.perf_counter() - t0) * 1000)

    try:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            window.start()
            for f in [pool.submit(worker, share) for share in shares(items, concurrency)]:
                f.result()
            window.stop()
            return latencies
    finally:
        datastore.close()


# ------------------------------------------------------------------------------------ main


def measure(side: str, admin_dsn: str, items: list[Stream], concurrency: int, postmaster: int | None,
            factory: Callable[[], asyncio.AbstractEventLoop] | None) -> Result:
    window = Window()
    with fresh_database(admin_dsn, DATABASE) as dsn:
        if side in (FRACAS, FRACAS_QUIET):
            latencies = run(factory, run_fracas(dsn, items, concurrency, window, notify=side == FRACAS))
        else:
            latencies = run_eventsourcing(dsn, items, concurrency, side == APPLICATION, window)
        stored = asyncio.run(count_rows(dsn, "stored_events" if side in (APPLICATION, AGGREGATE) else "events"))
    assert window.before is not None and window.after is not None
    use = cpu_use(window.before, window.after, os.getpid(), [postmaster] if postmaster else [])
    events = sum(len(g) for s in items for g in s.groups)
    return Result(side, concurrency, events, len(latencies), window.seconds, sorted(latencies), stored,
                  use.server, tree_cpu(window.before, window.after, postmaster), use.others)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vs_eventsourcing", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000, help="at least this many events (default 20,000)")
    parser.add_argument("--concurrency", default="1,16", help="comma-separated (default 1,16)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each side at each concurrency")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--sides", default=",".join(SIDES),
                        help=f"comma-separated, of: {', '.join((*SIDES, FRACAS_QUIET))} (default: the first three)")
    args = parser.parse_args(argv)
    try:
        import eventsourcing.postgres  # noqa: F401
        import psycopg
    except ImportError as exc:
        print(f"This benchmark needs the `eventsourcing` library with its PostgreSQL support ({exc}).\n"
              f"Install it for the benchmark only:\n    {INSTALL}")
        return 0
    sides = [s.strip() for s in args.sides.split(",") if s.strip()]
    unknown = set(sides) - {*SIDES, FRACAS_QUIET}
    if unknown:
        parser.error(f"unknown side(s): {', '.join(sorted(unknown))}")
    levels = [int(c) for c in args.concurrency.split(",")]

    items = streams(args.seed, args.events)
    events = sum(len(g) for s in items for g in s.groups)
    appends = sum(len(s.groups) for s in items)
    size = sum(len(d) for s in items for g in s.payloads for _, _, d in g)
    print(f"{events:,} events in {appends:,} appends ({events / appends:.2f} events each, payloads "
          f"{size / events:.0f} bytes on average) over {len(items)} encounters; seed {args.seed}")
    print(f"eventsourcing {metadata.version('eventsourcing')}, psycopg {psycopg.__version__} "
          f"({psycopg.pq.__impl__} implementation), asyncpg {asyncpg.__version__}; "
          f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores", flush=True)

    factory = event_loop_factory()
    results: list[Result] = []
    with ExitStack() as stack:
        admin_dsn, where = stack.enter_context(postgres_server())
        version, postmaster = asyncio.run(_server_info(admin_dsn))
        print(f"PostgreSQL {version}: {where}; a fresh database {DATABASE} for each run\n", flush=True)
        print(HEADER, flush=True)
        for concurrency in levels:
            for _ in range(args.repeat):
                for side in sides:
                    r = measure(side, admin_dsn, items, concurrency, postmaster, factory)
                    results.append(r)
                    print(row(r, results), flush=True)
    wrong = [r for r in results if r.stored != r.events]
    for r in wrong:
        print(f"{r.side} at {r.concurrency}: {r.stored:,} rows stored, not {r.events:,}")
    return 1 if wrong else 0


async def _server_info(admin_dsn: str) -> tuple[str, int | None]:
    conn = await asyncpg.connect(admin_dsn)
    try:
        version = str(await conn.fetchval("SHOW server_version"))
        return version, local_postmaster(int(await conn.fetchval("SELECT pg_backend_pid()")))
    finally:
        await conn.close()


HEADER = (f"{'side':<16} {'conc.':>5} {'events/s':>9} {'appends/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'ratio':>6} {'cpu bench':>9} {'cpu pg':>6} {'others':>6}")


def row(r: Result, results: list[Result]) -> str:
    """One run; ``ratio``: events/s of the last ``fracas`` run at this concurrency ÷ this run's."""
    fracas = [x.events_per_s for x in results if x.side == FRACAS and x.concurrency == r.concurrency]
    ratio = f"{fracas[-1] / r.events_per_s:>6.2f}" if fracas and r.side in (APPLICATION, AGGREGATE) else f"{'-':>6}"
    return (f"{r.side:<16} {r.concurrency:>5} {r.events_per_s:>9,.0f} {r.appends_per_s:>9,.0f} "
            f"{percentile(r.latencies, 50):>7.2f} {percentile(r.latencies, 99):>7.2f} {ratio} "
            f"{_pct(r.cpu_bench):>9} {_pct(r.cpu_pg):>6} {_pct(r.others):>6}")


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}%"


if __name__ == "__main__":
    sys.exit(main())
