"""The aggregate cache never serves stale state, even when another server process writes.

Two app instances on one database stand for two server processes: each has its own cache.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from server.app import create_app
from tests.integration.fight import command, started_fight


@pytest.fixture
async def two_clients(database_url: str) -> AsyncIterator[tuple[AsyncTestClient, AsyncTestClient]]:
    async with AsyncTestClient(app=create_app(database_url)) as a, AsyncTestClient(app=create_app(database_url)) as b:
        yield a, b


async def test_reads_catch_up_with_writes_from_another_process(two_clients) -> None:
    a, b = two_clients
    enc, mira, bandit = await started_fight(a)
    assert (await b.get(f"/encounters/{enc}")).json()["version"] == 6  # b now caches version 6
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "Dash"})
    await command(a, enc, {"type": "EndTurn", "combatant_id": mira})
    r = await b.get(f"/encounters/{enc}")
    assert r.headers["etag"] == '"8"'
    state = r.json()
    assert state["turn"] == bandit and state["combatants"][mira]["action_points"] == 2
    events = (await b.get(f"/encounters/{enc}/events", params={"after": 6})).json()["events"]
    assert [e["type"] for e in events] == ["ActionTaken", "TurnEnded"]


async def test_a_stale_cache_does_not_refuse_a_legal_command(two_clients) -> None:
    a, b = two_clients
    enc, mira, bandit = await started_fight(a)
    await b.get(f"/encounters/{enc}")  # b's cache: Mira's turn
    await command(a, enc, {"type": "EndTurn", "combatant_id": mira})  # now the Bandit's turn
    # b's stale cache would say "not the Bandit's turn"; the command is legal on the real state
    res = await command(b, enc, {"type": "TakeAction", "combatant_id": bandit, "action": "TakeCover"})
    assert res["version"] == 8
    assert res["state"]["combatants"][bandit]["action_points"] == 2


async def test_a_stale_cache_does_not_overwrite_newer_events(two_clients) -> None:
    a, b = two_clients
    enc, mira, _ = await started_fight(a)
    await b.get(f"/encounters/{enc}")
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "Dash"})
    # decided against b's stale version 6, this append conflicts and is decided again at 7
    res = await command(b, enc, {"type": "TakeAction", "combatant_id": mira, "action": "Dash"})
    assert res["version"] == 8
    assert res["state"]["combatants"][mira]["action_points"] == 1
    # with an If-Match naming the stale version the client is told, not overruled
    r = await b.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"}, headers={"If-Match": '"6"'})
    assert r.status_code == 412
    state_a = (await a.get(f"/encounters/{enc}")).json()
    state_b = (await b.get(f"/encounters/{enc}")).json()
    assert state_a == state_b
