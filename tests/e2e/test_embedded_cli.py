"""Every ``fracas`` command as a newcomer runs it: no ``DATABASE_URL``, so each command that needs
a database uses the embedded PostgreSQL in ``FRACAS_DATA_DIR`` (issue 17).

"Every CLI command must work on the embedded default, and an e2e test runs each of them (export,
verify, import, rebuild, migrate, demo) with no `DATABASE_URL`, as a user would."

The other e2e tests set ``DATABASE_URL`` (one server per test run), which is how the first
version of ``fracas export``, ``import`` and ``projections rebuild`` crashed on the default
(``asyncio.run() cannot be called from a running event loop``) with no test noticing.

A command that starts the embedded PostgreSQL stops it when it ends, unless another process
(``fracas serve``) still uses it: ``ps`` shows no postgres left for the data folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from server.store.migrations import discover
from tests.e2e.test_cli import FRACAS, run, serving

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
REPO = Path(__file__).resolve().parents[2]
KEY = "e2e-operator-key"


@pytest.fixture
def home() -> Iterator[Path]:
    """An empty folder of the test's own (short: PostgreSQL's socket goes in the data folder),
    removed afterwards, with any PostgreSQL a failed command left running in it."""
    root = Path(tempfile.mkdtemp(prefix="fracas-cli-"))
    root.chmod(0o755)
    try:
        yield root
    finally:
        for pid_file in root.glob("*/postmaster.pid"):
            _stop_left_over(pid_file)
        shutil.rmtree(root, ignore_errors=True)


def _stop_left_over(pid_file: Path) -> None:
    try:
        pid = int(pid_file.read_text().split()[0])
        postmaster = psutil.Process(pid)
        if str(pid_file.parent) not in " ".join(postmaster.cmdline()):
            return  # a pid reused by another program: not ours
        postmaster.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
        postmaster.wait(10)
    except (OSError, ValueError, IndexError, psutil.Error):
        pass


def user_env(data_dir: Path) -> dict[str, str]:
    """A newcomer's environment: no DATABASE_URL and none of the FRACAS_ settings the test
    process sets for itself (tests/conftest.py); only the data folder is the test's own."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("FRACAS_")}
    return {**env, "FRACAS_DATA_DIR": str(data_dir)}


def postgres_in(data_dir: Path) -> list[str]:
    """The PostgreSQL processes serving ``data_dir``, as ``ps`` lists them."""
    ps = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if f"-D {data_dir}" in line]


def ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """The command exited 0 and said nothing alarming."""
    assert done.returncode == 0, done.stdout + done.stderr
    for alarm in ("Traceback", "Warning"):
        assert alarm not in done.stderr, done.stderr
    return done


def stopped(data_dir: Path) -> None:
    """The embedded PostgreSQL that a command started is gone with it."""
    assert postgres_in(data_dir) == []
    assert not (data_dir / "postmaster.pid").exists()


def listed(base: str, enc: str) -> dict:
    """The encounter's row in ``GET /encounters`` (the read model), once it shows the fight ended."""
    deadline = time.monotonic() + 30
    while True:
        r = httpx.get(base + "/encounters", headers={"Authorization": f"Bearer {KEY}"}, timeout=10)
        assert r.status_code == 200, r.text
        rows = {row["id"]: row for row in r.json()["encounters"]}
        if enc in rows and rows[enc]["status"] == "ended":
            return rows[enc]
        assert time.monotonic() < deadline, f"the encounter list never showed the ended fight: {rows}"
        time.sleep(0.1)


def test_every_command_on_the_embedded_default(home: Path) -> None:
    pgdata, elsewhere = home / "pgdata", home / "elsewhere"
    env = user_env(pgdata)

    # migrate: creates the embedded PostgreSQL in the empty folder and applies everything, then stops it
    first = ok(run("migrate", env=env))
    assert first.stdout == "applied: " + ", ".join(m.name for m in discover()) + "\n"
    assert (pgdata / "PG_VERSION").exists()
    stopped(pgdata)
    again = ok(run("migrate", env=env))
    assert again.stdout == "nothing to apply: the database is up to date\n"
    stopped(pgdata)

    with serving(env, "--operator-key", KEY) as (base, _):
        assert len(postgres_in(pgdata)) == 1
        played = ok(run("demo", "--url", base, "--operator-key", KEY, "--rounds", "2", env=env))
        assert "\nRound 1. " in played.stdout and "The fight ends. The dice seed is revealed" in played.stdout
        said = re.search(rf"Encounter ({UUID}): (\d+) events", played.stdout)
        assert said, played.stdout
        row = listed(base, said.group(1))
        enc, events = row["id"], int(said.group(2))
        assert row["version"] == events

        exported = home / "fight.ndjson"
        done = ok(run("export", enc, "--output", str(exported), env=env))
        assert re.fullmatch(rf"exported encounter {enc}: {events} events \(head [0-9a-f]{{64}}\) to {exported}\n",
                            done.stderr.splitlines(keepends=True)[-1]), done.stderr
        header = json.loads(exported.read_text().splitlines()[0])
        assert header["encounter_id"] == enc and header["seed_revealed"] is True
        # the command joined the server's PostgreSQL, and left it running for the server
        assert httpx.get(base + "/health").json() == {"status": "ok", "database": "ok"}

        checked = ok(run("verify", str(exported), env=env))
        assert checked.stdout.startswith(f"{enc} (places-of-power, “{row['name']}”), exported ")
        assert f"OK: encounter {enc}: {events} events, hash chain intact" in checked.stdout
        assert "Seed revealed; it matches the commitment" in checked.stdout
        assert f"Replays to version {events}: ended, round " in checked.stdout

        # "refuses an encounter id the database already has"
        refused = run("import", str(exported), env=env)
        assert refused.returncode == 1 and "refused (encounter_exists)" in refused.stderr
        assert "Traceback" not in refused.stderr

        rebuilt = ok(run("projections", "rebuild", env=env))
        lines = rebuilt.stdout.splitlines()
        assert [line.split(":")[0] for line in lines] == ["encounter_list", "combatant_statistics"]
        assert all(f": {events} events in " in line and line.endswith("generation 2 is live") for line in lines)
        assert listed(base, enc) == row  # the rebuilt read model serves the same row

        document = home / "openapi.json"
        assert ok(run("openapi", "--output", str(document), env=env)).stdout == f"wrote {document}\n"
        assert document.read_text() == (REPO / "openapi" / "openapi.json").read_text()
        assert len(postgres_in(pgdata)) == 1
    stopped(pgdata)

    # import into another (fresh) data folder: the fight arrives as it was
    there = user_env(elsewhere)
    absent = run("export", enc, env=there)
    assert absent.returncode == 1 and "(encounter_not_found)" in absent.stderr and "Traceback" not in absent.stderr
    stopped(elsewhere)
    imported = ok(run("import", str(exported), env=there))
    assert imported.stdout.startswith(f"imported encounter {enc}: {events} events, verified; it replays to "
                                      f"version {events} (ended, round ")
    assert re.search(r"GM token .*: frc_\S+", imported.stdout), imported.stdout
    stopped(elsewhere)
    moved = home / "moved.ndjson"
    ok(run("export", enc, "--output", str(moved), env=there))
    stopped(elsewhere)
    before, after = exported.read_text().splitlines(), moved.read_text().splitlines()
    assert after[1:] == before[1:]  # the same events, ids, times and hashes
    assert {**json.loads(after[0]), "exported_at": None} == {**json.loads(before[0]), "exported_at": None}


def test_serve_on_a_taken_port_fails_at_once(home: Path) -> None:
    """"`fracas serve` with port 8000 taken starts PostgreSQL, then fails to bind; check the port
    first and say which flag picks another one.\""""
    pgdata = home / "pgdata"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run([FRACAS, "serve", "--port", str(port)], env=user_env(pgdata),
                              capture_output=True, text=True, timeout=60)
        took = time.monotonic() - started
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (f"fracas serve: port {port} is already in use on 127.0.0.1; "
                           f"pick another one with --port (e.g. fracas serve --port {port + 1})\n")
    assert done.stdout == ""
    assert took < 5, took  # the imports only: no PostgreSQL, no app
    assert not pgdata.exists()  # PostgreSQL was never started
    assert postgres_in(pgdata) == []


def test_a_server_killed_does_not_keep_postgres_running_for_ever(home: Path) -> None:
    """A ``fracas serve`` killed (SIGKILL, a crash, its terminal closed) cannot stop its
    PostgreSQL; the next command that uses the data folder stops it as it ends, instead of
    counting the dead server as a user for ever."""
    pgdata = home / "pgdata"
    env = user_env(pgdata)
    with serving(env) as (_, proc):
        proc.kill()
        proc.wait(10)
        assert len(postgres_in(pgdata)) == 1  # left running: nothing could stop it
    assert ok(run("migrate", env=env)).stdout == "nothing to apply: the database is up to date\n"
    stopped(pgdata)
