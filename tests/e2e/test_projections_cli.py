"""``fracas projections rebuild`` as an operator runs it, while a real server keeps serving."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.e2e.test_cli import env, run, serving  # noqa: F401  (env is a fixture)


def listed(base: str) -> list[dict[str, Any]]:
    r = httpx.get(base + "/encounters", params={"limit": 500}, timeout=10)
    assert r.status_code == 200, r.text
    return list(r.json()["encounters"])


def until_listed(base: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 30
    while len(rows := listed(base)) < count:
        assert time.monotonic() < deadline, "the encounter list did not catch up"
        time.sleep(0.05)
    return rows


def test_rebuild_while_the_server_serves(env: dict[str, str]) -> None:  # noqa: F811
    with serving(env) as (base, _):
        for i in range(5):
            r = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": f"Fight {i}"}, timeout=10)
            assert r.status_code == 201, r.text
        before = until_listed(base, 5)

        done = run("projections", "rebuild", env=env)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert [line.split(":")[0] for line in lines] == ["encounter_list", "combatant_statistics"]
        assert all("5 events" in line and "events/s" in line and "generation 2 is live" in line for line in lines)
        assert listed(base) == before  # the same rows, served throughout

        again = run("projections", "rebuild", "encounter_list", env=env)
        assert again.returncode == 0 and again.stdout.startswith("encounter_list: 5 events"), again.stderr
        r = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": "After"}, timeout=10)
        assert r.status_code == 201
        assert len(until_listed(base, 6)) == 6  # the server's runner goes on with the new generation

    unknown = run("projections", "rebuild", "gossip", env=env)
    assert unknown.returncode == 2 and "no projection gossip" in unknown.stderr
