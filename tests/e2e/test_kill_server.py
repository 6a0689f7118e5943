"""Kill -9 the server in the middle of a load of commands, restart it on the same database:
every command that got a 2xx answer has its events, none twice, and the read models catch up."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx

from tests.e2e.test_cli import env, serving  # noqa: F401  (env is a fixture)

WORKERS = 6
ACKED_BEFORE_KILL = 40  # 2xx answers to wait for before the kill


@dataclass(frozen=True)
class Acked:
    key: str
    body: dict[str, Any]
    answer: dict[str, Any]


class Load:
    """Workers send TakeAction NotchArrow / EndTurn for whoever's turn it is, each with its own
    Idempotency-Key, and keep every 2xx answer, until the server stops answering."""

    def __init__(self, base: str, enc: str, gm: dict[str, str], turn: str) -> None:
        self.url = f"{base}/encounters/{enc}/commands"
        self.gm = gm
        self.turn = turn
        self.acked: list[Acked] = []
        self.lock = threading.Lock()
        self.dead = threading.Event()
        self.cut: list[tuple[str, dict[str, Any]]] = []  # (key, body) of the requests the kill cut off

    def worker(self, seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(headers=self.gm, timeout=5) as http:
            while not self.dead.is_set():
                turn = self.turn
                body: dict[str, Any] = (
                    {"type": "TakeAction", "combatant_id": turn, "action": "NotchArrow"} if rng.random() < 0.6
                    else {"type": "EndTurn", "combatant_id": turn}
                )
                key = str(uuid.uuid4())
                try:
                    r = http.post(self.url, json=body, headers={"Idempotency-Key": key})
                except httpx.HTTPError:
                    with self.lock:  # the server is gone: an unanswered command may or may not be stored
                        self.cut.append((key, body))
                    self.dead.set()
                    return
                if 200 <= r.status_code < 300:
                    answer = r.json()
                    with self.lock:
                        self.acked.append(Acked(key, body, answer))
                        if answer["state"]["turn"]:
                            self.turn = answer["state"]["turn"]
                else:
                    assert r.status_code in (409, 412, 422), r.text  # a stale turn or no action points left


async def stored_events(dsn: str, enc: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(dsn)
    try:
        return await conn.fetch(
            "SELECT version, type, event_id, metadata->>'idempotency_key' AS key,"
            " metadata->>'request_id' AS request_id FROM events WHERE encounter_id = $1 ORDER BY version",
            uuid.UUID(enc),
        )
    finally:
        await conn.close()


def open_fight(base: str, name: str) -> tuple[str, dict[str, str], str]:
    """A started fight of two players and two NPCs: (encounter id, the GM's auth header, whose turn)."""
    opened = httpx.post(base + "/encounters", json={"ruleset": "places-of-power", "name": name}, timeout=10)
    assert opened.status_code == 201, opened.text
    enc = opened.json()["encounter_id"]
    gm = {"Authorization": f"Bearer {opened.json()['gm_token']['token']}"}
    for who, controller in (("Mira", "player"), ("Tam", "player"), ("Bandit", "gm"), ("Wolf", "gm")):
        r = httpx.post(f"{base}/encounters/{enc}/combatants", headers=gm, timeout=10, json={
            "name": who, "side": "party" if controller == "player" else "enemies", "controller": controller})
        assert r.status_code == 201, r.text
    cmd = f"{base}/encounters/{enc}/commands"
    assert httpx.post(cmd, json={"type": "RollInitiative"}, headers=gm, timeout=10).status_code == 200
    started = httpx.post(cmd, json={"type": "StartEncounter"}, headers=gm, timeout=10)
    assert started.status_code == 200, started.text
    return enc, gm, started.json()["state"]["turn"]


def test_kill_9_mid_load_loses_no_acknowledged_command(env: dict[str, str]) -> None:  # noqa: F811
    with serving(env) as (base, proc):
        enc, gm, turn = open_fight(base, "Kill -9")

        load = Load(base, enc, gm, turn)
        with ThreadPoolExecutor(WORKERS) as pool:
            running = [pool.submit(load.worker, i) for i in range(WORKERS)]
            deadline = time.monotonic() + 15
            while len(load.acked) < ACKED_BEFORE_KILL and time.monotonic() < deadline:
                time.sleep(0.01)
            proc.kill()  # SIGKILL, with commands in flight
            proc.wait(timeout=10)
            load.dead.set()
            for f in running:
                f.result(timeout=10)
        acked = list(load.acked)
    assert len(acked) >= ACKED_BEFORE_KILL, f"only {len(acked)} commands answered before the deadline"
    assert load.cut, "the kill found no command in flight"

    with serving(env) as (base, _):  # the same database, a new process
        rows = asyncio.run(stored_events(env["DATABASE_URL"], enc))
        head = rows[-1]["version"]
        assert [r["version"] for r in rows] == list(range(1, head + 1)), "versions are not contiguous"
        assert len({r["event_id"] for r in rows}) == len(rows), "an event id appears twice"
        commands_by_key: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            if r["key"] is not None:
                commands_by_key[r["key"]].add(r["request_id"])
        assert all(len(ids) == 1 for ids in commands_by_key.values()), "an Idempotency-Key was appended twice"

        by_version = {r["version"]: r for r in rows}
        for a in acked:
            assert a.answer["events"], a.answer
            for ev in a.answer["events"]:
                row = by_version.get(ev["version"])
                assert row is not None, f"the acknowledged event {ev['version']} is lost"
                assert (row["type"], row["key"], str(row["event_id"])) == (ev["type"], a.key, ev["event_id"])
            assert a.answer["version"] == a.answer["events"][-1]["version"]

        with httpx.Client(headers=load.gm, timeout=10) as http:
            for a in acked:  # a retry is answered from the record and appends nothing
                r = http.post(f"{base}/encounters/{enc}/commands", json=a.body, headers={"Idempotency-Key": a.key})
                assert r.status_code == 200 and r.json() == a.answer, r.text
            assert http.get(f"{base}/encounters/{enc}").headers["etag"] == f'"{head}"'
            assert asyncio.run(stored_events(env["DATABASE_URL"], enc))[-1]["version"] == head

            for key, body in load.cut:  # stored but never answered: the retry gets the stored answer
                if key in commands_by_key:
                    r = http.post(f"{base}/encounters/{enc}/commands", json=body, headers={"Idempotency-Key": key})
                    assert r.status_code == 200, r.text
                    assert [e["version"] for e in r.json()["events"]] == [x["version"] for x in rows if x["key"] == key]
            assert asyncio.run(stored_events(env["DATABASE_URL"], enc))[-1]["version"] == head

            deadline = time.monotonic() + 10
            while (summary := http.get(f"{base}/encounters/{enc}/summary").json())["projected_version"] < head:
                assert time.monotonic() < deadline, f"the summary stayed at {summary['projected_version']} < {head}"
                time.sleep(0.05)
            assert summary["projected_version"] == summary["version"] == head
