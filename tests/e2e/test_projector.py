"""``fracas serve`` keeps the read models in a projector process beside its workers
(server/store/projector.py): the process that answers commands spends no CPU on them."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx

from tests.e2e.test_cli import FRACAS, env, free_port, serving  # noqa: F401  (env is a fixture)


def _children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``: (pid, command line)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode().strip()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            out.append((int(entry), cmd))
    return out


def _projector(server_pid: int, timeout: float = 30, other_than: int | None = None) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [p for p, cmd in _children(server_pid) if "projections run" in cmd and p != other_than]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no projector under {server_pid}: {_children(server_pid)}")


def _listed(base: str, enc: str, version: int, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{base}/encounters/{enc}/summary", headers={"Authorization": _gm[enc]}, timeout=5)
        if r.status_code == 200 and r.json().get("projected_version") == version:
            return r.json()
        assert time.monotonic() < deadline, f"the read model did not reach version {version}: {r.text}"
        time.sleep(0.1)


_gm: dict[str, str] = {}


def _open_with_rounds(base: str, rounds: int) -> tuple[str, int]:
    """An encounter begun, then ``rounds`` turns of its one combatant ended; (id, version)."""
    r = httpx.post(f"{base}/encounters", json={"ruleset": "places-of-power", "name": "Projected"}, timeout=10)
    assert r.status_code == 201, r.text
    enc = r.json()["encounter_id"]
    gm = _gm[enc] = f"Bearer {r.json()['gm_token']['token']}"
    with httpx.Client(base_url=base, headers={"Authorization": gm}, timeout=10) as http:
        r = http.post(f"/encounters/{enc}/combatants", json={"name": "Mira", "side": "party", "controller": "player",
                                                            "sheet": {}})
        assert r.status_code == 201, r.text
        mira = r.json()["events"][0]["data"]["combatant_id"]
        for body in ({"type": "RollInitiative"}, {"type": "StartEncounter"}):
            assert http.post(f"/encounters/{enc}/commands", json=body).status_code == 200
        for _ in range(rounds):
            r = http.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": mira})
            assert r.status_code == 200, r.text
    return enc, r.json()["version"]


def test_the_read_models_are_kept_by_a_projector_process_started_again_if_it_dies(env) -> None:  # noqa: F811
    with serving(env) as (base, proc):
        projector = _projector(proc.pid)
        enc, version = _open_with_rounds(base, 3)
        summary = _listed(base, enc, version)
        assert summary["status"] == "active" and summary["round"] == 4, str(summary)
        # the worker runs no runner: the projections are led by the projector's connection alone
        os.kill(projector, signal.SIGKILL)
        _projector(proc.pid, other_than=projector)  # started again
        enc2, version2 = _open_with_rounds(base, 2)
        assert _listed(base, enc2, version2)["round"] == 3


def test_the_projector_stops_when_the_server_is_killed(env) -> None:  # noqa: F811
    port = free_port()
    proc = subprocess.Popen([FRACAS, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        projector = _projector(proc.pid)
        proc.kill()  # kill -9: no clean-up runs in the server
        proc.wait()
        deadline = time.monotonic() + 15
        while os.path.exists(f"/proc/{projector}") and time.monotonic() < deadline:
            try:
                os.waitpid(projector, os.WNOHANG)  # not our child: only /proc tells
            except ChildProcessError:
                pass
            with open(f"/proc/{projector}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.1)
        assert not os.path.exists(f"/proc/{projector}") or open(f"/proc/{projector}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_an_app_told_the_read_models_are_kept_elsewhere_runs_no_runner(database_url) -> None:
    import dataclasses

    from server.settings import Settings
    from tests.conftest import app_client

    settings = dataclasses.replace(Settings.from_env(), projections="external")
    async with app_client(database_url, settings) as c:
        assert getattr(c._transport.app.state, "projections", None) is None
        assert (await c.get("/health")).status_code == 200
    async with app_client(database_url) as c:  # the default: the app keeps them itself
        assert c._transport.app.state.projections is not None
