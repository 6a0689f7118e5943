"""Loading an encounter on a cache miss: the rows the server stored, read back with only the
columns a replay needs, fold to the state the fight reached live."""

from __future__ import annotations

import random

import msgspec

from bench.fights import append, long_fight
from domain.rulesets import default_registry
from server.auth.tokens import TokenStore
from server.store.database import create_pool
from server.store.encounters import EncounterService
from server.store.events import EventStore


async def test_a_cold_load_folds_the_stored_history_to_the_live_state(database_url: str) -> None:
    fight = long_fight(random.Random(11), events=800)  # attacks, statuses, the fallen replaced
    pool = await create_pool(database_url, 2)
    try:
        await append(pool, fight)
        service = EncounterService(EventStore(pool), default_registry(), TokenStore(pool))
        state = await service.current(fight.encounter_id)
        assert state == fight.state
        # (key order aside: the store keeps each payload with its keys sorted)
        assert msgspec.to_builtins(state) == msgspec.to_builtins(fight.state)
        every = await service.store.read(fight.encounter_id, 0)
        slim = await service.store.read(fight.encounter_id, 0, fold_only=True)
        assert [(r["type"], r["schema_version"], r["data"], r["hash"]) for r in every] == [tuple(r) for r in slim]
        assert list(slim[0].keys()) == ["type", "schema_version", "data", "hash"]
        assert service._cache[fight.encounter_id].last_hash == bytes(every[-1]["hash"])
        assert len(every) == len(fight.events) == state.version
    finally:
        await pool.close()


async def test_a_slim_read_keeps_after_and_limit(database_url: str) -> None:
    fight = long_fight(random.Random(12), events=120)
    pool = await create_pool(database_url, 2)
    try:
        await append(pool, fight)
        store = EventStore(pool)
        every = await store.read(fight.encounter_id, 40, 25)
        slim = await store.read(fight.encounter_id, 40, 25, fold_only=True)
        assert [r["version"] for r in every] == list(range(41, 66))
        assert [r["hash"] for r in every] == [r["hash"] for r in slim]
    finally:
        await pool.close()
