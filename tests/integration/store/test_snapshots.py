"""State snapshots (migrations/0008_snapshots.sql, server/store/snapshots.py, domain/core/snapshot.py):
a cold load from a snapshot and the events after it gives exactly the state a full replay gives,
and any snapshot that cannot be trusted (other code, another log, a retcon after it) is ignored."""

from __future__ import annotations

import asyncio
import random
import shutil
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace as dc_replace
from pathlib import Path

import asyncpg
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fights import Fight, append, long_fight, random_fight
from domain.core.dice import SeededDice, choose_dice
from domain.core.encounter import Retcon, Retconned
from domain.core.errors import RuleViolation
from domain.core.snapshot import DOMAIN_ROOT, StateCodec, fingerprint, package_of, source_digest
from domain.rulesets import default_registry
from litestar import Litestar

from server.app import create_app
from server.auth.tokens import TokenStore
from server.store.database import WRITER_ROLE, create_pool
from server.store.encounters import EncounterService
from server.settings import Settings
from server.store.snapshots import Snapshots
from server.store.events import EventStore
from tests.integration.fight import command, started_fight
from tests.integration.store.test_writer_role import http

REGISTRY = default_registry()
POP = REGISTRY.get("places-of-power")


# ---------------------------------------------------------------------------- helpers


@asynccontextmanager
async def started_app(dsn: str, settings: Settings) -> AsyncIterator[Litestar]:
    """The app with these settings, started and shut down as the server does."""
    app = create_app(dsn, settings)
    for hook in app.on_startup:
        await hook(app)
    try:
        yield app
    finally:
        for hook in app.on_shutdown:
            await hook(app)


def retcon(fight: Fight) -> bool:
    """The GM undoes the fight's last command, as the server decides a Retcon (with the history)."""
    to = len(fight.events) - len(fight.groups[-1])
    cmd = Retcon(to_version=to, reason="a mistake")
    dice = choose_dice(fight.state.dice_policy, None, SeededDice(fight.seed, fight.encounter_id, fight.state.rolls_used))
    try:
        new = fight.ruleset.decide(fight.state, cmd, dice, seed=fight.seed, history=fight.groups)
    except RuleViolation:
        return False
    fight.state = fight.ruleset.replay([*fight.events, *new])
    fight.events.extend(new)
    fight.groups.append(list(new))
    fight.commands.append(cmd)
    return True


@asynccontextmanager
async def service_on(dsn: str, every: int = 0) -> AsyncIterator[tuple[EncounterService, Snapshots]]:
    """A server's EncounterService (cold cache) with snapshots, on its own pool."""
    pool = await create_pool(dsn, 2)
    snapshots = Snapshots(pool, REGISTRY, every)
    try:
        yield EncounterService(EventStore(pool), REGISTRY, TokenStore(pool), snapshots=snapshots), snapshots
    finally:
        await snapshots.close()
        await pool.close()


async def hash_at(pool: asyncpg.Pool, encounter_id: str, version: int) -> bytes:
    h = await pool.fetchval("SELECT hash FROM events WHERE encounter_id = $1 AND version = $2", encounter_id, version)
    return bytes(h)


async def snapshot_at(snapshots: Snapshots, fight: Fight, version: int, **changes: object) -> None:
    """Take a snapshot of the fight at ``version`` (its state altered by ``changes``, to poison it)."""
    state = fight.ruleset.replay(fight.events[:version])
    state = msgspec.structs.replace(state, **changes) if changes else state
    await snapshots.take(fight.encounter_id, fight.ruleset, state, await hash_at(snapshots.pool, fight.encounter_id,
                                                                                 version))


async def cold(dsn: str, encounter_id: str) -> tuple[object, Snapshots, bytes]:
    async with service_on(dsn) as (service, snapshots):
        state = await service.current(encounter_id)
        return state, snapshots, service._cache[encounter_id].last_hash


# ------------------------------------------------------------------ pure: fingerprint and codec


def test_the_fingerprint_changes_with_any_domain_source_and_the_ruleset(tmp_path: Path) -> None:
    here = fingerprint(POP.id, POP.schema_versions)
    assert here == fingerprint(POP.id, dict(POP.schema_versions))
    assert here != fingerprint("another-ruleset", POP.schema_versions)
    assert here != fingerprint(POP.id, {**POP.schema_versions, "HitsTaken": 7})
    copy = tmp_path / "domain"
    shutil.copytree(DOMAIN_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_digest(copy) == source_digest(DOMAIN_ROOT)
    rules = copy / "places_of_power" / "harm.py"
    rules.write_bytes(rules.read_bytes() + b"\n# one more line\n")
    assert fingerprint(POP.id, POP.schema_versions, copy) != here


def test_the_fingerprint_covers_core_and_the_ruleset_only(tmp_path: Path) -> None:
    """Issue 18: "The snapshot fingerprint covers core and that ruleset only": another
    ruleset's code changing leaves Places of Power's snapshots valid; core's does not."""
    assert package_of(POP) == "places_of_power"
    here = fingerprint(POP.id, POP.schema_versions, package="places_of_power")
    copy = tmp_path / "domain"
    shutil.copytree(DOMAIN_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert fingerprint(POP.id, POP.schema_versions, copy, package="places_of_power") == here
    other = copy / "novus"
    other.mkdir(exist_ok=True)  # another ruleset's package (domain/novus is one now)
    (other / "rules.py").write_text("ROUND_AP = 5\n")
    assert fingerprint(POP.id, POP.schema_versions, copy, package="places_of_power") == here
    assert fingerprint(POP.id, POP.schema_versions, copy) != fingerprint(POP.id, POP.schema_versions)
    (copy / "core" / "dice.py").write_text((copy / "core" / "dice.py").read_text() + "\n# changed\n")
    assert fingerprint(POP.id, POP.schema_versions, copy, package="places_of_power") != here


def test_the_codec_refuses_a_state_it_cannot_give_back() -> None:
    from domain.core.snapshot import Unsnapshottable

    fight = random_fight(random.Random(3), steps=5)
    odd = msgspec.structs.replace(fight.state, rules=object())
    with pytest.raises(Unsnapshottable):
        StateCodec().encode(odd)


# ------------------------------------------------------------- loads equal the full replay

fights = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "long": st.booleans(),
    "size": st.integers(5, 400),
    "combatants": st.integers(2, 4),
    "hidden": st.booleans(),
    "reveal": st.booleans(),
    "end": st.booleans(),
    "retcon": st.booleans(),
    "more": st.integers(0, 30),
    "at": st.floats(0.0, 1.0),
})


def build(p: dict) -> Fight:
    rng = random.Random(p["seed"])
    if p["long"]:  # Status Effects put on, the fallen replaced, injuries
        fight = long_fight(rng, events=p["size"], combatants=p["combatants"], hidden=p["hidden"], statuses=0.2)
    else:
        fight = random_fight(rng, steps=p["size"] // 5, combatants=p["combatants"], hidden=p["hidden"],
                             reveal=p["reveal"], end=p["end"] and not p["retcon"])
    if p["retcon"] and retcon(fight):
        for _ in range(p["more"] if fight.state.status == "active" else 0):  # and the fight goes on
            fight.afflict(0.0)  # (what fell due is settled first, as long_fight does)
            fight.step()
            fight.reinforce()
    # hypothesis may draw a seed twice: stored under a new encounter id each time (the log and its
    # hash chain name the new id; the events, the state's ``id`` among them, stay as they were driven)
    fight.encounter_id = str(uuid.uuid4())
    return fight


async def _load_from_snapshot(dsn: str, p: dict) -> None:
    fight = build(p)
    pool = await create_pool(dsn, 2)
    try:
        await append(pool, fight)
        snapshots = Snapshots(pool, REGISTRY, every=0)
        n = len(fight.events)
        version = max(1, min(n, round(p["at"] * n)))
        await snapshot_at(snapshots, fight, version)
        assert snapshots.written == 1
        head = await hash_at(pool, fight.encounter_id, n)
    finally:
        await pool.close()
    state, used, last_hash = await cold(dsn, fight.encounter_id)
    assert state == fight.state
    assert msgspec.to_builtins(state) == msgspec.to_builtins(fight.state)
    tail = fight.events[version:]
    assert used.ignored == 0
    assert used.used == (0 if any(isinstance(e, Retconned) for e in tail) else 1)
    assert last_hash == head


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(p=fights)
def test_a_cold_load_from_a_snapshot_equals_the_full_replay(database_url: str, p: dict) -> None:
    asyncio.run(_load_from_snapshot(database_url, p))


async def test_a_long_fight_loads_from_snapshots_at_many_versions(database_url: str) -> None:
    fight = long_fight(random.Random(5), events=1500, statuses=0.2)
    pool = await create_pool(database_url, 2)
    try:
        await append(pool, fight)
        snapshots = Snapshots(pool, REGISTRY)
        for version in (7, 333, 1000, len(fight.events) - 1, len(fight.events)):
            await snapshot_at(snapshots, fight, version)
            state, used, _ = await cold(database_url, fight.encounter_id)
            assert (used.used, used.ignored) == (1, 0)
            assert state == fight.state
        # one row per encounter and fold: the latest
        assert await pool.fetchval("SELECT count(*) FROM snapshots") == 1
    finally:
        await pool.close()


# ------------------------------------------------------------- snapshots that are ignored


@pytest.fixture
async def stored(database_url: str) -> AsyncIterator[tuple[asyncpg.Pool, Fight]]:
    fight = long_fight(random.Random(9), events=300)
    pool = await create_pool(database_url, 2)
    try:
        await append(pool, fight)
        yield pool, fight
    finally:
        await pool.close()


async def test_a_poisoned_snapshot_shows_when_it_is_trusted(database_url: str, stored) -> None:
    """The control for the tests below: a snapshot is really what a load starts from."""
    pool, fight = stored
    await snapshot_at(Snapshots(pool, REGISTRY), fight, 200, name="Poisoned")
    state, used, _ = await cold(database_url, fight.encounter_id)
    assert used.used == 1 and state.name == "Poisoned"


async def test_a_snapshot_of_other_code_is_ignored(database_url: str, stored) -> None:
    pool, fight = stored
    other = Snapshots(pool, REGISTRY)
    other.folds = {r: "0" * 64 for r in other.folds}  # folded by other domain code
    await snapshot_at(other, fight, 200, name="Poisoned")
    assert await pool.fetchval("SELECT count(*) FROM snapshots") == 1
    state, used, _ = await cold(database_url, fight.encounter_id)
    assert state == fight.state and used.used == 0


async def test_a_snapshot_whose_event_is_not_in_the_log_is_ignored(database_url: str, stored) -> None:
    pool, fight = stored
    snapshots = Snapshots(pool, REGISTRY)
    state = msgspec.structs.replace(fight.ruleset.replay(fight.events[:200]), name="Poisoned")
    await snapshots.take(fight.encounter_id, POP, state, bytes(32))  # another history's hash
    state, used, _ = await cold(database_url, fight.encounter_id)
    assert state == fight.state and (used.used, used.ignored) == (0, 1)
    # and a snapshot naming the right hash but holding another version
    late = msgspec.structs.replace(fight.ruleset.replay(fight.events[:201]), name="Poisoned")
    await snapshots.take(fight.encounter_id, POP, late, await hash_at(pool, fight.encounter_id, 200))
    await pool.execute("UPDATE snapshots SET version = 200")
    state, used, _ = await cold(database_url, fight.encounter_id)
    assert state == fight.state and (used.used, used.ignored) == (0, 1)


async def test_a_retcon_after_the_snapshot_replays_the_whole_history(database_url: str) -> None:
    fight = long_fight(random.Random(4), events=400)
    head = len(fight.events)
    assert retcon(fight)  # back before the snapshot taken at the head
    assert fight.state.version == head + 1
    pool = await create_pool(database_url, 2)
    try:
        await append(pool, fight)
        await snapshot_at(Snapshots(pool, REGISTRY), fight, head, name="Poisoned")
        state, used, _ = await cold(database_url, fight.encounter_id)
        assert state == fight.state and used.used == 0
        assert state == fight.ruleset.replay(fight.events)
        assert state.name != "Poisoned"
    finally:
        await pool.close()


# -------------------------------------------------------------- taken in the background


async def test_snapshots_are_taken_in_the_background_and_deleting_them_changes_nothing(database_url: str) -> None:
    settings = dc_replace(Settings.from_env(), snapshot_every=5, rate_limit=0)
    async with started_app(database_url, settings) as app, http(app) as client:
        snapshots: Snapshots = app.state.snapshots
        enc, mira, bandit = await started_fight(client)  # version 6
        await snapshots.idle()
        rows = await app.state.pool.fetch("SELECT version, state FROM snapshots WHERE encounter_id = $1", enc)
        assert [r["version"] for r in rows] == [6]  # 5 versions past none: the state at 6
        for _ in range(3):
            turn = (await client.get(f"/encounters/{enc}")).json()["turn"]
            await command(client, enc, {"type": "EndTurn", "combatant_id": turn})
        await snapshots.idle()
        assert await app.state.pool.fetchval("SELECT version FROM snapshots WHERE encounter_id = $1", enc) == 6
        for _ in range(3):
            turn = (await client.get(f"/encounters/{enc}")).json()["turn"]
            await command(client, enc, {"type": "EndTurn", "combatant_id": turn})
        await snapshots.idle()
        row = await app.state.pool.fetchrow("SELECT version, state FROM snapshots WHERE encounter_id = $1", enc)
        served = (await client.get(f"/encounters/{enc}")).json()
        assert row["version"] >= 11
        assert snapshots.written == 2
        assert msgspec.to_builtins(snapshots.codec.decode(row["state"])) == msgspec.to_builtins(
            POP.replay([POP.decode_event(r["type"], r["schema_version"], r["data"]) for r in
                        await app.state.service.store.read(enc, 0, row["version"])]))
    with_snapshot, used, _ = await cold(database_url, enc)
    assert used.used == 1 and msgspec.to_builtins(POP.shown(with_snapshot)) == served
    pool = await create_pool(database_url, 1)
    try:
        await pool.execute("DELETE FROM snapshots")  # as the server's role
    finally:
        await pool.close()
    without, used, _ = await cold(database_url, enc)
    assert used.used == 0 and without == with_snapshot


async def test_one_snapshot_in_flight_per_encounter(stored) -> None:
    pool, fight = stored
    snapshots = Snapshots(pool, REGISTRY, every=100, max_in_flight=2)
    state, last = fight.state, await hash_at(pool, fight.encounter_id, len(fight.events))
    for _ in range(3):
        snapshots.consider(fight.encounter_id, POP, state, last)
    snapshots.consider("another", POP, state, last)
    snapshots.consider("a third", POP, state, last)  # two in flight already: not now
    assert sorted(snapshots._tasks) == sorted([fight.encounter_id, "another"])
    await snapshots.idle()
    assert snapshots.written == 1  # "another" is no encounter: logged, not raised
    snapshots.consider(fight.encounter_id, POP, state, last)  # taken at this version already
    assert not snapshots._tasks
    off = Snapshots(pool, REGISTRY, every=0)
    off.consider(fight.encounter_id, POP, state, last)
    assert not off._tasks


# ------------------------------------------------------------------------- privileges


async def test_the_server_role_writes_snapshots_but_never_changes_events(database_url: str, stored) -> None:
    pool, fight = stored
    await snapshot_at(Snapshots(pool, REGISTRY), fight, 100)
    async with pool.acquire() as c:
        assert await c.fetchval("SELECT current_user") == WRITER_ROLE
        assert await c.execute("UPDATE snapshots SET taken_at = now()") == "UPDATE 1"
        assert await c.execute("DELETE FROM snapshots") == "DELETE 1"
        for sql in ("UPDATE events SET data = '{}'::jsonb", "DELETE FROM events", "TRUNCATE events"):
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await c.execute(sql)
