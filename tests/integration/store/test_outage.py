"""PostgreSQL away: 503 ``database_unavailable`` with Retry-After, never 500; back: recovery by
itself (issue 9). The whole fault, with PostgreSQL stopped and started under a load, is
tests/e2e/test_postgres_outage.py; these are the in-process parts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg
import httpx
import pytest
import websockets
from litestar import Litestar

from server.live.streams import Stream
from server.store.database import DatabaseNotAnswering, Timeouts, create_pool
from server.store.outage import is_outage
from tests.conftest import app_client
from tests.integration.fight import add, command, open_encounter, started_fight
from tests.integration.live import live_url, served, watch_ws


def app_of(client: httpx.AsyncClient) -> Litestar:
    """The app instance behind a client of ``app_client``."""
    return client._transport.app  # type: ignore[attr-defined]


def assert_unavailable(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert int(r.headers["retry-after"]) >= 1
    body = r.json()
    assert body["code"] == "database_unavailable" and body["status"] == 503
    return body


@pytest.mark.parametrize("exc", [
    asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    asyncpg.CannotConnectNowError("the database system is starting up"),
    asyncpg.AdminShutdownError("terminating connection due to administrator command"),
    asyncpg.CrashShutdownError("terminating connection because of crash of another server process"),
    asyncpg.TooManyConnectionsError("sorry, too many clients already"),
    asyncpg.QueryCanceledError("canceling statement due to statement timeout"),
    ConnectionRefusedError(111, "Connection refused"),
    FileNotFoundError(2, "No such file or directory"),  # a Unix socket that is gone
    TimeoutError(),  # asyncio's too, on 3.11: the pool's acquire timeout
    asyncpg.InterfaceError("cannot perform operation: connection is closed"),
    asyncpg.InterfaceError("pool is closed"),
    asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in progress"),
    ExceptionGroup("gathered", [ValueError("x"), ConnectionResetError()]),
])
def test_these_mean_the_database_is_unavailable(exc: BaseException) -> None:
    assert is_outage(exc)


@pytest.mark.parametrize("exc", [
    asyncpg.UniqueViolationError("duplicate key"),
    asyncpg.InterfaceError("the server expects 2 arguments for this query, 1 was passed"),
    asyncpg.InternalClientError("PoolConnectionHolder.release() called on a free connection holder"),
    asyncpg.DataError("invalid input"),
    ValueError("a bug"),
])
def test_these_are_faults_not_outages(exc: BaseException) -> None:
    assert not is_outage(exc)


async def test_every_route_that_needs_the_database_answers_503_while_it_is_away(database_url: str) -> None:
    async with app_client(database_url) as c:
        enc = await open_encounter(c)
        mira = await add(c, enc, "Mira")
        await app_of(c).state.pool.close()  # what PostgreSQL going away looks like to every request
        body = assert_unavailable(await c.post(f"/encounters/{enc}/commands", headers={"Idempotency-Key": "k1"},
                                               json={"type": "EndTurn", "combatant_id": mira}))
        assert "same Idempotency-Key" in body["detail"]  # a write cut off may have been recorded
        for path in (f"/encounters/{enc}", f"/encounters/{enc}/events", f"/encounters/{enc}/log",
                     f"/encounters/{enc}/summary", "/encounters", f"/encounters/{enc}/live?follow=false"):
            assert_unavailable(await c.get(path))
        assert_unavailable(await c.post("/encounters", json={"ruleset": "places-of-power", "name": "x"}))
        health = assert_unavailable(await c.get("/health"))
        assert health["details"] == {"database": "unavailable"}
        assert (await c.get("/rulesets/places-of-power")).status_code == 200  # no database needed


async def test_terminated_connections_come_back_by_themselves(database_url: str, conn: asyncpg.Connection) -> None:
    """Every connection of the server cut (as a PostgreSQL restart does): the pool, the LISTEN
    connection and the projection runner reconnect, and the next command is decided on the latest
    state, even one another process appended meanwhile."""
    async with app_client(database_url) as a, app_client(database_url) as b:
        enc, mira, _bandit = await started_fight(a, b)
        app = app_of(a)
        await app.state.wakeup.connected()
        before = (app.state.wakeup.connections, app.state.projections.connections)
        await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})  # a caches 7
        cut = await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        assert cut >= 4  # both pools, both LISTEN connections, both runners
        for _ in range(50):  # b ends Mira's turn behind a's back
            r = await b.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": mira})
            if r.status_code == 200:
                break
            assert_unavailable(r)  # a connection that was cut, met before its end was read
            await asyncio.sleep(0.05)
        head = r.json()["version"]
        notch = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}
        r = await a.post(f"/encounters/{enc}/commands", json=notch)  # a's cache still says it is Mira's turn
        if r.status_code == 503:
            assert_unavailable(r)
            r = await a.post(f"/encounters/{enc}/commands", json=notch)
        assert r.status_code == 422 and r.json()["code"] == "not_your_turn", r.text
        assert (await a.get(f"/encounters/{enc}")).headers["etag"] == f'"{head}"'
        async with asyncio.timeout(10):
            while app.state.wakeup.connections <= before[0] or app.state.projections.connections <= before[1]:
                await asyncio.sleep(0.05)
            while (await a.get(f"/encounters/{enc}/summary")).json()["projected_version"] < head:
                await asyncio.sleep(0.05)
        assert app.state.wakeup.connections > before[0] and app.state.projections.connections > before[1]


async def test_live_streams_while_the_database_is_away(database_url: str) -> None:
    """A new stream is refused (SSE: the 503 problem; WebSocket: closed 4503), a stream that must
    read the table closes with an `error` that says to reconnect, and a stream that is caught up
    stays open."""
    async with served(database_url, recent_events=2) as s, httpx.AsyncClient(base_url=s.base) as c:
        enc, _mira, _bandit = await started_fight(c)
        gm = {"Authorization": c.headers["Authorization"]}
        following = await watch_ws(live_url(s.base, enc, ws=True), "gm", gm)
        await following.at_version(6)
        await s.app.state.pool.close()

        assert_unavailable(await c.get(f"/encounters/{enc}/live"))
        async with websockets.connect(live_url(s.base, enc, ws=True), additional_headers=gm) as ws:
            refused = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
        assert (refused["type"], refused["code"], ws.close_code) == ("error", "database_unavailable", 4503)

        live = s.app.state.live
        principal = await live.service.tokens.principal(gm["Authorization"][7:], check_revoked=False)
        behind = Stream(live, principal, 0, "test", follow=False)  # its feed remembers only 5 and 6
        close = await behind.run()
        assert (close.code, close.reason) == (4503, "database_unavailable")
        assert close.message is not None and b"Last-Event-ID" in close.message.body
        assert following.closed is None  # caught up: it waits for the database with its feed
        await following.stop()


async def test_a_busy_pool_fails_only_the_acquire_that_waited_too_long(database_url: str) -> None:
    """Issue 43: 1,200 live streams seated at once queued past the acquire timeout while the pool
    kept working; that tripped the fail-fast for every request. Connections coming back mean
    PostgreSQL answers: only the acquire that waited too long fails."""
    pool = await create_pool(database_url, 1, Timeouts(acquire=0.3, quiet=30.0))
    try:
        async def hold() -> None:
            async with pool.acquire(timeout=5.0):  # (a wait of its own: they queue too)
                await asyncio.sleep(0.2)  # each gives the connection back within the timeout

        holders = [asyncio.create_task(hold()) for _ in range(3)]
        await asyncio.sleep(0.05)
        with pytest.raises(TimeoutError):  # third in the queue: 0.55 s to wait, 0.3 s allowed
            async with pool.acquire():
                pass
        await asyncio.gather(*holders)
        assert await pool.fetchval("SELECT 1") == 1, "the pool was not made to fail at once for everyone"
    finally:
        await pool.close()


async def test_a_pool_none_comes_back_to_fails_at_once_for_a_while(database_url: str) -> None:
    """A connection held past the acquire timeout with none coming back: PostgreSQL is taken as
    not answering, and the next acquire fails at once (``DatabaseNotAnswering``), not after its
    own timeout."""
    pool = await create_pool(database_url, 1, Timeouts(acquire=0.3, quiet=30.0))
    try:
        async with pool.acquire():
            with pytest.raises(TimeoutError):
                async with pool.acquire():
                    pass
        started = asyncio.get_running_loop().time()
        with pytest.raises(DatabaseNotAnswering):
            await pool.fetchval("SELECT 1")
        assert asyncio.get_running_loop().time() - started < 0.1
    finally:
        await pool.close()
