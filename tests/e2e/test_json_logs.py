"""Issue 42, "JSON logs": "`FRACAS_LOG_FORMAT=json` writes one line a request: its id, the encounter, the
command type, the status and the duration. Never a token. Plain text stays the default. A test checks
that no token appears, through any path, in either format." A real ``fracas serve``, its output read."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from urllib.parse import quote

import httpx
import pytest

from tests.e2e.test_cli import FRACAS, serving
from tests.e2e.test_logs import _streams, encoded


async def _play(base: str, fmt: str) -> tuple[list[str], str]:
    """Every way a token reaches the server: the streams' query spellings (``_streams``), a header, a
    path, a request id; and one command of each outcome. The secrets, and the encounter."""
    secret, _ = await _streams(base)
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        opened = (await c.post("/encounters", json={"ruleset": "places-of-power", "name": "Logged"})).json()
        enc, gm = opened["encounter_id"], opened["gm_token"]["token"]
        auth = {"Authorization": f"Bearer {gm}"}
        r = await c.post(f"/encounters/{enc}/commands", headers={**auth, "X-Request-Id": "table-7-call-1"},
                         json={"type": "RollInitiative"})
        assert r.status_code == 422  # no combatants: refused
        assert r.headers.get("X-Request-Id") == ("table-7-call-1" if fmt == "json" else None)
        r = await c.post(f"/encounters/{enc}/combatants", headers=auth,
                         json={"name": "Mira", "side": "party", "controller": "player"})
        assert r.status_code == 201
        r = await c.post(f"/encounters/{enc}/commands", headers={**auth, "X-Request-Id": gm},
                         json={"type": "RollInitiative"})
        assert r.status_code == 200
        assert fmt == "text" or len(r.headers["X-Request-Id"]) == 32  # a token is no request id
        assert (await c.get(f"/encounters/{enc}", headers={"Authorization": f"Bearer {gm}x"})).status_code == 401
        assert (await c.get(f"/encounters/{gm}/state", headers=auth)).status_code in (400, 404)
    return [secret, gm], enc


def _spellings(secret: str) -> list[str]:
    body = secret.removeprefix("frc_")
    return [secret, body, quote(secret), encoded(secret), encoded(body), body[:12]]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_token_reaches_the_logs_in_either_format(database_url: str, fmt: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "FRACAS_LOG_FORMAT": fmt}
    with serving(env, "--access-log") as (base, proc):
        secrets, enc = asyncio.run(_play(base, fmt))
    out = proc.stdout.read() if proc.stdout else ""
    for secret in secrets:
        for spelt in _spellings(secret):
            assert spelt not in out, f"{spelt!r} is in the log:\n" + "\n".join(
                line for line in out.splitlines() if spelt in line)
    lines = [line for line in out.splitlines() if line.strip()]
    if fmt == "text":
        assert not any(line.startswith("{") for line in lines), "plain text is the default"
        return
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    requests = [r for r in records if r["logger"] == "fracas.requests"]
    assert not [r for r in records if r["logger"] == "uvicorn.access"], "one line a request: ours"
    commands = [r for r in requests if r["path"] == f"/encounters/{enc}/commands"]
    assert [(r["command"], r["status"]) for r in commands] == [("RollInitiative", 422), ("RollInitiative", 200)]
    assert commands[0]["request_id"] == "table-7-call-1" and len(commands[1]["request_id"]) == 32
    for r in commands:
        assert r["encounter"] == enc and r["method"] == "POST" and r["duration_ms"] >= 0
    assert {r["status"] for r in requests} >= {101, 200, 201, 401, 422}  # a WebSocket's line too
    assert all("?" not in r["path"] for r in requests), "a path never carries its query"


def test_a_log_format_that_is_neither_is_refused_at_once() -> None:
    done = subprocess.run([FRACAS, "migrate"], env={"PATH": os.environ["PATH"], "FRACAS_LOG_FORMAT": "xml"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "FRACAS_LOG_FORMAT" in done.stderr and "json" in done.stderr
