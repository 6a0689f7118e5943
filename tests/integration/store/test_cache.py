"""The aggregate cache never serves stale state, even when another server process writes.

Two app instances on one database stand for two server processes: each has its own cache.
"""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from domain.core.encounter import RollInitiative
from domain.rulesets import default_registry
from server.app import create_app
from server.store.database import create_pool
from server.auth.tokens import TokenStore
from server.store.encounters import EncounterService, Write
from server.store.events import EventStore
from tests.integration.fight import command, started_fight




async def test_reads_catch_up_with_writes_from_another_process(two_clients) -> None:
    a, b = two_clients
    enc, mira, bandit = await started_fight(a, b)
    assert (await b.get(f"/encounters/{enc}")).json()["version"] == 6  # b now caches version 6
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    await command(a, enc, {"type": "EndTurn", "combatant_id": mira})
    r = await b.get(f"/encounters/{enc}")
    assert r.headers["etag"] == '"8"'
    state = r.json()
    assert state["turn"] == bandit and state["combatants"][mira]["action_points"] == 2
    events = (await b.get(f"/encounters/{enc}/events", params={"after": 6})).json()["events"]
    assert [e["type"] for e in events] == ["ActionTaken", "TurnEnded"]


async def test_a_stale_cache_does_not_refuse_a_legal_command(two_clients) -> None:
    a, b = two_clients
    enc, mira, bandit = await started_fight(a, b)
    await b.get(f"/encounters/{enc}")  # b's cache: Mira's turn
    await command(a, enc, {"type": "EndTurn", "combatant_id": mira})  # now the Bandit's turn
    # b's stale cache would say "not the Bandit's turn"; the command is legal on the real state
    res = await command(b, enc, {"type": "TakeAction", "combatant_id": bandit, "action": "TakeCover"})
    assert res["version"] == 8
    assert res["state"]["combatants"][bandit]["action_points"] == 2


async def test_a_stale_cache_does_not_overwrite_newer_events(two_clients) -> None:
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    await b.get(f"/encounters/{enc}")
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    # decided against b's stale version 6, this append conflicts and is decided again at 7
    res = await command(b, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    assert res["version"] == 8
    assert res["state"]["combatants"][mira]["action_points"] == 1
    # with an If-Match naming the stale version the client is told, not overruled
    r = await b.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"}, headers={"If-Match": '"6"'})
    assert r.status_code == 412
    state_a = (await a.get(f"/encounters/{enc}")).json()
    state_b = (await b.get(f"/encounters/{enc}")).json()
    assert state_a == state_b


async def test_a_read_that_overlaps_a_write_never_applies_an_event_twice(database_url) -> None:
    """A read catches up from version 6 while a write in the same process commits version 7:
    the read's row 7 must not be applied on top of the write's state 7."""
    class GatedStore(EventStore):
        gate: asyncio.Event | None = None

        async def read(self, encounter_id, after, limit=None, **kw):
            if self.gate is not None:
                await self.gate.wait()
            return await super().read(encounter_id, after, limit, **kw)

    pool = await create_pool(database_url, 4)
    try:
        store = GatedStore(pool)
        tokens = TokenStore(pool)
        service = EncounterService(store, default_registry(), tokens)
        opened = msgspec.json.decode((await service.open("places-of-power", "Gated", "seeded",
                                                          idempotency_key=None, body=b"")).body)
        enc = opened["encounter_id"]
        gm = await tokens.principal(opened["gm_token"]["token"])
        assert gm is not None
        add = msgspec.json.decode(b'{"type":"AddCombatant","name":"Mira","side":"party","controller":"player"}',
                                  type=default_registry().get("places-of-power").command_type)
        await service.execute(enc, add, Write(gm))
        store.gate = asyncio.Event()
        reading = asyncio.create_task(service.current(enc))  # reads after version 2, held at the gate
        await asyncio.sleep(0.05)
        written = await service.execute(enc, RollInitiative(), Write(gm))
        assert written.version == 3
        store.gate.set()
        state = await reading
        assert state.version == 3
        assert (await service.current(enc)).version == 3
    finally:
        await pool.close()
