"""The Python client (server/client.py) against the real app and a real PostgreSQL.

Conflicts sent with If-Match are decided again and get through without losing an update; a
write's Idempotency-Key is the same on every retry, so an answer lost on the way back is sent
again and recorded once; error answers raise ``ProblemError`` with the problem's fields;
429, 503 ``encounter_busy`` and 503 with Retry-After are waited out, boundedly.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import uuid
from typing import Any

import httpx
import pytest

from server.client import AsyncFracas, ConnectionFailed, Fracas, ProblemError, Reply, RetryPolicy
from server.settings import Settings
from tests.conftest import app_client
from tests.e2e.test_cli import serving

FAST = RetryPolicy(backoff=0.001, max_backoff=0.01, conflict_backoff=0.001)
RACERS = 16


def api_on(http: httpx.AsyncClient, token: str | None = None, retry: RetryPolicy = FAST) -> AsyncFracas:
    return AsyncFracas(http=http, token=token, retry=retry, rng=random.Random(9))


async def opened(api: AsyncFracas, combatants: int = 1) -> tuple[AsyncFracas, str, list[str]]:
    """An encounter with ``combatants`` NPCs; returns the GM's client, the encounter, the ids."""
    reply = await api.open_encounter("places-of-power", "Client test")
    gm = api.with_token(reply.gm_token)
    ids = []
    for n in range(combatants):
        added = await gm.add_combatant(reply.encounter_id, f"Bandit {n}", side="enemies",
                                       sheet={"initiative_modifier": 0})
        ids.append(added.events[0]["data"]["combatant_id"])
    return gm, reply.encounter_id, ids


async def stored(conn: Any, enc: str) -> list[Any]:
    return await conn.fetch(
        "SELECT version, type, metadata->>'idempotency_key' AS key FROM events WHERE encounter_id = $1 "
        "ORDER BY version",
        uuid.UUID(enc))


def one_more_hit(target: str):
    """Decide on the state read: the target's Hits, one more (a read-modify-write)."""
    def decide(state: dict[str, Any]) -> dict[str, Any]:
        hits = state["combatants"][target]["sheet"]["hits"]
        return {"type": "SetHits", "combatant_id": target, "hits": hits + 1}
    return decide


# ------------------------------------------------------------------------------ the calls


async def test_a_fight_through_the_client(client: httpx.AsyncClient) -> None:
    api = api_on(client)
    gm, enc, (bandit,) = await opened(api)
    mira = (await gm.add_combatant(enc, "Mira", side="party", controller="player",
                                   sheet={"initiative_modifier": 2})).events[0]["data"]["combatant_id"]
    rolled = await gm.command(enc, {"type": "RollInitiative"})
    assert isinstance(rolled, Reply) and rolled.status == 200 and rolled.events[0]["type"] == "InitiativeRolled"
    started = await gm.command(enc, {"type": "StartEncounter"}, if_match=rolled.version)
    assert started.state["status"] == "active" and started.retries.total == 0

    state = await gm.state(enc)
    assert state["version"] == started.version and set(state["combatants"]) == {bandit, mira}
    page = await gm.events(enc, after=0, limit=2)
    assert [e["version"] for e in page["events"]] == [1, 2] and page["has_more"]
    assert (await gm.events(enc, after=page["next_after"], limit=100))["events"][-1]["version"] == started.version

    player = gm.with_token((await gm.mint_token(enc, "player", [mira], "Mira's player"))["token"])
    with pytest.raises(ProblemError) as not_hers:  # the player's own token is sent: Mira's only
        await player.command(enc, {"type": "EndTurn", "combatant_id": bandit})
    assert not_hers.value.status == 403
    assert (await player.state(enc))["version"] == started.version
    ended = await gm.command(enc, {"type": "EndTurn", "combatant_id": state["turn"]})
    assert ended.events[0]["type"] == "TurnEnded" and ended.version == started.version + 1
    assert (await gm.get("/health"))["status"] == "ok"


async def test_the_client_plays_from_the_next_moves(client: httpx.AsyncClient) -> None:
    """``actions()``: what the fight waits on and the caller's moves, each sent as it is."""
    api = api_on(client)
    gm, enc, (bandit,) = await opened(api)
    await gm.add_combatant(enc, "Mira", side="party", controller="player", sheet={"initiative_modifier": -9})
    moves = await gm.actions(enc)
    assert moves["over"] is False and moves["waiting_on"][0]["who"] == "gm"
    roll = next(a for a in moves["actions"] if a["command"]["type"] == "RollInitiative")
    await gm.command(enc, roll["command"])
    start = next(a for a in (await gm.actions(enc))["actions"] if a["command"]["type"] == "StartEncounter")
    await gm.command(enc, start["command"])
    turn = (await gm.state(enc))["turn"]
    if turn != bandit:  # Mira first: her player's move; the GM waits
        assert not [a for a in (await gm.actions(enc))["actions"] if a["kind"] == "move"]
        await gm.command(enc, {"type": "EndTurn", "combatant_id": turn})
    moves = await gm.actions(enc)
    assert {"combatant_id": bandit, "who": "gm", "what": "Bandit 0's turn"} in moves["waiting_on"]
    end = next(a for a in moves["actions"] if a["command"] == {"type": "EndTurn", "combatant_id": bandit})
    assert (await gm.command(enc, end["command"])).events[0]["type"] == "TurnEnded"


async def test_error_answers_raise_problem_errors(client: httpx.AsyncClient) -> None:
    api = api_on(client)
    gm, enc, (bandit,) = await opened(api)
    with pytest.raises(ProblemError) as refused:
        await gm.command(enc, {"type": "EndTurn", "combatant_id": bandit})
    p = refused.value
    assert (p.status, p.title) == (422, "Not allowed by the rules") and p.refused_by_the_rules
    assert p.code and p.detail and str(p).startswith(f"422 Not allowed by the rules [{p.code}]")

    with pytest.raises(ProblemError) as stale:
        await gm.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 1}, if_match=1)
    assert (stale.value.status, stale.value.code) == (412, "version_mismatch")
    assert stale.value.details["current_version"] == 2 and stale.value.headers["etag"] == '"2"'
    assert not stale.value.refused_by_the_rules

    with pytest.raises(ProblemError) as elsewhere:  # this GM's token is for its own encounter only
        await gm.state(str(uuid.uuid4()))
    assert (elsewhere.value.status, elsewhere.value.code) == (403, "wrong_encounter")
    with pytest.raises(ProblemError) as missing:
        await gm.get("/rulesets/no-such-ruleset")
    assert (missing.value.status, missing.value.code) == (404, "ruleset_not_found")
    with pytest.raises(ProblemError) as unknown:
        await gm.with_token("not-a-token").state(enc)
    assert (unknown.value.status, unknown.value.code) == (401, "token_invalid")
    with pytest.raises(ProblemError) as invalid:
        await gm.command(enc, {"type": "NoSuchCommand"})
    assert (invalid.value.status, invalid.value.code) == (422, "invalid_command")
    with pytest.raises(TypeError):
        await gm.command(enc)


# ---------------------------------------------------------------------- concurrency


async def test_racing_with_if_match_every_conflict_is_decided_again(two_clients, conn) -> None:
    """Sixteen clients, through two app instances (two server processes), each add a Hit to the
    same combatant: read, decide, If-Match. Each loser of a race gets 412, reads again and
    decides again, so all sixteen get through and no update is lost: 16 Hits."""
    a, b = two_clients
    gm, enc, (bandit,) = await opened(api_on(a))
    on_b = api_on(b, gm.token)
    clients = [gm if i % 2 else on_b for i in range(RACERS)]
    replies = await asyncio.gather(*(c.command(enc, decide=one_more_hit(bandit)) for c in clients))

    assert sorted(r.version for r in replies) == list(range(3, 3 + RACERS))
    assert sum(r.retries.conflicts for r in replies) > 0  # they did race
    assert all(r.retries.total == r.retries.conflicts for r in replies)
    assert (await gm.state(enc))["combatants"][bandit]["sheet"]["hits"] == RACERS  # no lost update
    rows = await stored(conn, enc)
    assert [r["version"] for r in rows] == list(range(1, 3 + RACERS))
    assert sorted(r["key"] for r in rows[2:]) == sorted(r.idempotency_key for r in replies)  # once each


async def test_without_decide_a_conflict_is_the_callers(client: httpx.AsyncClient) -> None:
    """``decide`` may give up (None): nothing is sent."""
    gm, enc, (bandit,) = await opened(api_on(client))
    assert await gm.command(enc, decide=lambda state: None) is None
    assert (await gm.state(enc))["version"] == 2

    async def later(state: dict[str, Any]) -> dict[str, Any]:  # a coroutine decides too
        return one_more_hit(bandit)(state)

    assert (await gm.command(enc, decide=later)).state["combatants"][bandit]["sheet"]["hits"] == 1


# ------------------------------------------------------------------ faults and retries


class Faults(httpx.AsyncBaseTransport):
    """In front of the app: the next POSTs meet the listed faults, in order. ``lose``: the app
    takes the request and answers, and the answer is lost (the connection breaks); ``busy``,
    ``down`` (503 with Retry-After), ``broken`` (503 without): answered here; ``refused``: the
    connection is refused."""

    def __init__(self, inner: httpx.AsyncBaseTransport, *faults: str) -> None:
        self.inner = inner
        self.faults = list(faults)
        self.posts: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "POST":
            return await self.inner.handle_async_request(request)
        self.posts.append(request)
        fault = self.faults.pop(0) if self.faults else None
        problem = {"title": "Service unavailable", "status": 503}
        if fault == "lose":
            answer = await self.inner.handle_async_request(request)
            await answer.aread()
            raise httpx.ReadError("the connection broke", request=request)
        if fault == "busy":
            return httpx.Response(503, json={**problem, "code": "encounter_busy"})
        if fault == "down":
            return httpx.Response(503, headers={"Retry-After": "0"}, json={**problem, "code": "database_unavailable"})
        if fault == "broken":
            return httpx.Response(503, json={**problem, "code": "unavailable"})
        if fault == "refused":
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)


def behind(client: httpx.AsyncClient, *faults: str) -> tuple[httpx.AsyncClient, Faults]:
    # the app's own ASGI transport, taken from the fixture's client
    transport = Faults(client._transport, *faults)  # noqa: SLF001
    return httpx.AsyncClient(transport=transport, base_url=client.base_url), transport


async def test_a_lost_answer_is_sent_again_with_its_key_and_recorded_once(client, conn) -> None:
    gm, enc, (bandit,) = await opened(api_on(client))
    http, faults = behind(client, "lose", "refused", "lose")
    async with http:
        flaky = api_on(http, gm.token)
        reply = await flaky.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 2})
        assert reply.retries.connection == 3 and reply.version == 3
        assert {p.headers["Idempotency-Key"] for p in faults.posts} == {reply.idempotency_key}
        assert len(faults.posts) == 4

        # the same with If-Match and decide: the resent request is the same one, answered as first
        faults.faults = ["lose"]
        decided = await flaky.command(enc, decide=one_more_hit(bandit))
        assert decided.retries.connection == 1 and decided.retries.conflicts == 0 and decided.version == 4
        assert [p.headers["If-Match"] for p in faults.posts[4:]] == ['"3"', '"3"']
    rows = await stored(conn, enc)
    assert [r["version"] for r in rows] == [1, 2, 3, 4]
    assert [r["key"] for r in rows[2:]] == [reply.idempotency_key, decided.idempotency_key]
    assert (await gm.state(enc))["combatants"][bandit]["sheet"]["hits"] == 3


async def test_busy_and_unavailable_answers_are_waited_out(client, conn) -> None:
    gm, enc, (bandit,) = await opened(api_on(client))
    http, faults = behind(client, "busy", "down", "busy")
    async with http:
        flaky = api_on(http, gm.token)
        reply = await flaky.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 1})
        assert (reply.retries.busy, reply.retries.unavailable, reply.version) == (2, 1, 3)

        faults.faults = ["broken"]  # a 503 that names neither a wait nor a busy encounter
        with pytest.raises(ProblemError) as broken:
            await flaky.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 2})
        assert (broken.value.status, broken.value.code, broken.value.retries.total) == (503, "unavailable", 0)

        faults.faults = ["busy"] * FAST.attempts  # bounded: after `attempts` sends, the problem
        with pytest.raises(ProblemError) as busy:
            await flaky.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 3})
        assert (busy.value.code, busy.value.retries.busy) == ("encounter_busy", FAST.attempts - 1)

        faults.faults = ["refused"] * FAST.attempts
        with pytest.raises(ConnectionFailed):
            await flaky.command(enc, {"type": "SetHits", "combatant_id": bandit, "hits": 4})
    assert len(await stored(conn, enc)) == 3


async def test_rate_limited_requests_wait_for_retry_after(database_url: str) -> None:
    """The server's own 429: one request a second per token, a burst of one."""
    settings = dataclasses.replace(Settings.from_env(), rate_limit=1.0, rate_burst=1)
    async with app_client(database_url, settings) as http:
        gm, enc, _ = await opened(api_on(http), combatants=0)  # opening: the address's bucket
        first = await gm.state(enc)
        reply = await gm.add_combatant(enc, "Bandit", side="enemies")  # the token's bucket is empty: 429
        assert first["version"] == 1 and reply.retries.rate_limited >= 1 and reply.retries.waited >= 1.0

        impatient = AsyncFracas(http=http, token=gm.token, retry=dataclasses.replace(FAST, max_retry_after=0.5))
        with pytest.raises(ProblemError) as limited:  # a wait longer than the policy allows is not waited
            await impatient.state(enc)
        assert (limited.value.status, limited.value.code) == (429, "rate_limited")
        assert limited.value.headers["retry-after"] == "1"


# ----------------------------------------------------------------------- the sync client


def test_the_blocking_client_against_a_real_server(database_url: str) -> None:
    with serving({**os.environ, "DATABASE_URL": database_url}) as (base, _), Fracas(base, retry=FAST) as api:
        reply = api.open_encounter("places-of-power", "Blocking")
        gm = api.with_token(reply.gm_token)
        enc = reply.encounter_id
        bandit = gm.add_combatant(enc, "Bandit", side="enemies").events[0]["data"]["combatant_id"]
        assert gm.command(enc, decide=one_more_hit(bandit)).state["combatants"][bandit]["sheet"]["hits"] == 1
        assert gm.state(enc)["version"] == 3 and len(gm.events(enc)["events"]) == 3
        with pytest.raises(ProblemError) as refused:
            gm.command(enc, {"type": "EndTurn", "combatant_id": bandit})
        assert refused.value.status == 422
