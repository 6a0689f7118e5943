"""The projection runner against a real PostgreSQL (issue 7).

"A projection runner that follows the global event log in commit order ..., keeps a
checkpoint per projection in the same transaction as its writes, wakes on LISTEN/NOTIFY and
falls back to polling, and survives a lost connection."
"A test makes a slow transaction hold a lower position while a later one commits, and shows
the runner never skips the slow event."
"``fracas projections rebuild [NAME]`` drops and rebuilds a projection from the log while
the server keeps serving, and ends at the same rows as the live run (a test compares them)."

The logs are random Places of Power fights (``bench/fights.py``) written straight into the
event store, or fights played through the API.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from bench import projections as bench_projections
from bench.fights import fights, random_fight, store
from projections.catalog import all_projections
from projections.event_log import Decoder, Slice, read_batch
from projections.rebuild import RebuildBusy, rebuild
from projections.runner import (
    REBUILD_LOCK,
    Projection,
    ProjectionRunner,
    ReadAhead,
    ensure_checkpoint,
    lock_key,
    run_batch,
)
from projections.wakeup import Wakeup
from server.store.events import GENESIS_HASH, chain
from tests.integration.fight import command, open_encounter, started_fight
from tests.integration.read_models import caught_up, checkpoint, folded_rows, live_rows, until_listed, whole_log


@asynccontextmanager
async def running(dsn: str, projections: Sequence[Projection] | None = None, **kw: Any
                  ) -> AsyncIterator[ProjectionRunner]:
    runner = ProjectionRunner(dsn, list(projections or all_projections()), **{"poll_seconds": 0.05, **kw})
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()


async def test_the_runner_catches_up_in_batches_and_matches_a_fold_of_the_whole_log(database_url: str,
                                                                                   conn: Any) -> None:
    written = 0
    for fight in fights(7, events=3000):
        written += await store(conn, [fight])
    async with running(database_url, batch_size=97):  # many batches, some ending mid-transaction
        await caught_up(conn)
        assert await live_rows(conn) == folded_rows(await whole_log(conn))
        assert await conn.fetchval("SELECT sum(events) FROM projection_checkpoints WHERE live") == 2 * written
        # and it follows what comes next
        for fight in fights(8, events=500):
            await store(conn, [fight])
        await caught_up(conn)
        assert await live_rows(conn) == folded_rows(await whole_log(conn))


class Failing(Projection):
    """A projection that writes its rows, then fails the batch, ``times`` times."""

    def __init__(self, inner: Projection, times: int) -> None:
        self.inner, self.times = inner, times
        self.name, self.tables = inner.name, inner.tables  # type: ignore[misc]

    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        await self.inner.apply(conn, generation, batch)
        if self.times > 0:
            self.times -= 1
            raise RuntimeError("the batch fails after its rows were written")


async def test_rows_and_checkpoint_commit_together(database_url: str, conn: Any) -> None:
    """A batch that fails after writing leaves neither rows nor checkpoint; the runner tries again
    and every event counts once ("resumes from its checkpoint with no row twice")."""
    await store(conn, list(fights(3, events=400)))
    projections = [Failing(p, 0) for p in all_projections()]
    runner_conn = await asyncpg.connect(database_url)
    try:
        for p in projections:
            await ensure_checkpoint(runner_conn, p)
            p.times = 1
            with pytest.raises(RuntimeError):
                await run_batch(runner_conn, p, Decoder(), 50)
            assert await checkpoint(conn, p.name) == (0, 0)
        assert all(rows == [] for rows in (await live_rows(conn)).values())
    finally:
        await runner_conn.close()
    for p in projections:
        p.times = 2  # the live runner meets two failures of each, then goes on
    async with running(database_url, projections, batch_size=50, retry_seconds=0.01):
        await caught_up(conn)
    assert await live_rows(conn) == folded_rows(await whole_log(conn))


class Stalling(Projection):
    """A projection that, in its first batch, writes its rows and then waits to be let go."""

    def __init__(self, inner: Projection) -> None:
        self.inner, self.name, self.tables = inner, inner.name, inner.tables  # type: ignore[misc]
        self.writing, self.go = asyncio.Event(), asyncio.Event()

    async def apply(self, conn: asyncpg.Connection, generation: int, batch: Sequence[Slice]) -> None:
        await self.inner.apply(conn, generation, batch)
        if not self.go.is_set():
            self.writing.set()
            await self.go.wait()


async def test_a_runner_killed_mid_batch_resumes_from_its_checkpoint(database_url: str, conn: Any) -> None:
    """Its backend is terminated while a batch has written rows but not committed: nothing of the
    batch stays, the runner connects again, and every event counts once."""
    await store(conn, list(fights(9, events=600)))
    stalling = [Stalling(p) for p in all_projections()]
    async with running(database_url, stalling, batch_size=100, retry_seconds=0.05) as runner:
        await asyncio.wait_for(stalling[0].writing.wait(), 10)
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", runner.server_pid)
        assert await checkpoint(conn, stalling[0].name) == (0, 0)
        for p in stalling:
            p.go.set()
        await caught_up(conn)
        assert runner.connections == 2
    assert await live_rows(conn) == folded_rows(await whole_log(conn))
    assert await conn.fetchval("SELECT sum(events) FROM projection_checkpoints") == 2 * await conn.fetchval(
        "SELECT count(*) FROM events")


async def _append(conn: Any, enc: str, version: int, prev_hash: bytes, events: list[Any]) -> None:
    rows = chain(enc, prev_hash, version, events, {"actor": {"role": "gm"}})
    await conn.executemany(
        """INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, recorded_at, hash)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9)""",
        [(enc, r.version, r.event_id, r.type, r.schema_version, r.data.decode(), r.metadata.decode(), r.recorded_at,
          r.hash) for r in rows],
    )


async def test_a_slow_transaction_is_never_skipped(database_url: str, conn: Any) -> None:
    """The slow transaction inserts first (the lower position) and commits last. The runner
    must not pass it while it is open, even though a later event has committed (and woken
    it); once it commits, the runner reads it."""
    from domain.core.encounter import CombatantAdded

    slow_fight = random_fight(random.Random(1), steps=5)
    await store(conn, [slow_fight])
    slow_enc, opened = slow_fight.encounter_id, len(slow_fight.events)
    wakeup = Wakeup(database_url)
    await wakeup.start()
    try:
        async with running(database_url, wakeup=wakeup, poll_seconds=0.05):
            await caught_up(conn)
            last_hash = bytes(await conn.fetchval("SELECT hash FROM events WHERE encounter_id = $1 AND version = $2",
                                                  uuid.UUID(slow_enc), opened))
            slow = await asyncpg.connect(database_url)
            try:
                tx = slow.transaction()
                await tx.start()
                await _append(slow, slow_enc, opened + 1, last_hash, [CombatantAdded(
                    combatant_id="late", name="Late", side="party", controller="player", sheet={})])
                slow_position = await slow.fetchval("SELECT max(global_position) FROM events")
                fast_fight = random_fight(random.Random(2), steps=5)
                await store(conn, [fast_fight])  # commits, at higher positions
                fast_position = await conn.fetchval("SELECT max(global_position) FROM events")
                assert fast_position > slow_position
                await asyncio.sleep(0.5)  # the runner was woken by that commit, and polled since
                for name in ("encounter_list", "combatant_statistics"):
                    cp = await checkpoint(conn, name)
                    assert cp is not None and cp[1] < slow_position, "the runner passed the open transaction"
                assert await conn.fetchval("SELECT count(*) FROM encounter_list WHERE encounter_id = $1",
                                           uuid.UUID(fast_fight.encounter_id)) == 0  # nor read the later events
                await tx.commit()
            finally:
                await slow.close()
            await caught_up(conn)
        counts = dict(await conn.fetch("SELECT encounter_id::text, combatants FROM encounter_list"))
        assert counts[slow_enc] == len(slow_fight.state.combatants) + 1
        assert fast_fight.encounter_id in counts
        late = await conn.fetchval("SELECT name FROM combatant_statistics_combatants WHERE combatant_id = 'late'")
        assert late == "Late"
        assert await live_rows(conn) == folded_rows(await whole_log(conn))
    finally:
        await wakeup.stop()


async def test_the_projectors_runner_stops_listening_while_it_settles_and_misses_nothing(database_url: str,
                                                                                        conn: Any) -> None:
    """The projector's runner has its wake-up to itself (``pause_wakeup``): once woken it stops
    listening while it settles, listens again, then reads all that came meanwhile. So a commit
    every few milliseconds reaches it about once a settle, not once a commit, and what commits
    while it does not listen is read by that batch, not by its next poll (30 s here)."""
    from projections.wakeup import CHANNEL

    nobody = "00000000-0000-4000-8000-000000000000"
    wakeup = Wakeup(database_url)
    await wakeup.start()
    try:
        await wakeup.connected()
        async with running(database_url, wakeup=wakeup, pause_wakeup=True, poll_seconds=30, settle_seconds=0.1):
            await store(conn, [random_fight(random.Random(4), steps=5)])
            await caught_up(conn)
            before = wakeup.notified
            for _ in range(100):
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, nobody)
                await asyncio.sleep(0.005)
            assert wakeup.notified - before < 40, "woken by every commit while it settles"
            await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, nobody)  # it wakes, stops listening, settles
            await asyncio.sleep(0.03)
            fight = random_fight(random.Random(5), steps=5)
            await store(conn, [fight])  # its notification reaches nobody
            await caught_up(conn, timeout=5)
            assert await conn.fetchval("SELECT count(*) FROM encounter_list WHERE encounter_id = $1",
                                       uuid.UUID(fight.encounter_id)) == 1
    finally:
        await wakeup.stop()


async def test_a_lost_connection_is_made_again_and_the_runner_goes_on(database_url: str, conn: Any) -> None:
    await store(conn, list(fights(21, events=300)))
    async with running(database_url, retry_seconds=0.05) as runner:
        await caught_up(conn)
        assert runner.connections == 1 and runner.leading == {"encounter_list", "combatant_statistics"}
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", runner.server_pid)
        await store(conn, list(fights(22, events=300)))
        await caught_up(conn)
        assert runner.connections == 2
        assert runner.leading == {"encounter_list", "combatant_statistics"}
    assert await live_rows(conn) == folded_rows(await whole_log(conn))


async def test_only_one_process_runs_a_projection_and_another_takes_over(database_url: str, conn: Any) -> None:
    await store(conn, list(fights(11, events=300)))
    async with running(database_url) as first, running(database_url) as second:
        await caught_up(conn)
        assert first.leading | second.leading == {"encounter_list", "combatant_statistics"}
        assert not first.leading & second.leading
        leader, other = (first, second) if first.leading else (second, first)
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", leader.server_pid)
        await store(conn, list(fights(12, events=300)))
        await caught_up(conn)
        assert other.leading or leader.leading
    assert await live_rows(conn) == folded_rows(await whole_log(conn))


async def test_a_rebuild_ends_at_the_rows_of_the_live_run(client: Any, database_url: str, conn: Any) -> None:
    """The app's runner keeps the live generation (the server keeps serving); the rebuild makes
    a new one live, with the same rows; the live runner goes on with it."""
    await store(conn, list(fights(5, events=1500)))
    await caught_up(conn)
    live = await live_rows(conn)
    rebuilder = await asyncpg.connect(database_url)
    try:
        for p in all_projections():
            done = await rebuild(rebuilder, p, batch_size=113)
            assert (done.generation, done.events) == (2, await conn.fetchval("SELECT count(*) FROM events"))
    finally:
        await rebuilder.close()
    assert await live_rows(conn) == live
    assert await conn.fetchval("SELECT count(*) FROM encounter_list WHERE generation = 1") == 0  # the old one is gone
    enc = await open_encounter(client, "After the rebuild")
    await until_listed(client, [enc])
    await caught_up(conn)
    assert await live_rows(conn) == folded_rows(await whole_log(conn))


async def test_a_rebuild_while_the_log_grows_misses_nothing(client: Any, database_url: str, conn: Any) -> None:
    """Fights are played through the API while each projection is rebuilt: the rows it makes
    live, then kept by the app's runner, are those of the whole log. One rebuild at a time."""
    await store(conn, list(fights(6, events=4000)))
    stop = asyncio.Event()

    async def play() -> None:  # one player: the helpers keep the GM's token on the client
        while not stop.is_set():
            enc, mira, _ = await started_fight(client)
            await command(client, enc, {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})
            await command(client, enc, {"type": "EndTurn", "combatant_id": mira})
            await command(client, enc, {"type": "EndEncounter"})
            client.headers.pop("Authorization")

    player = asyncio.create_task(play())
    rebuilder = await asyncpg.connect(database_url)
    other = await asyncpg.connect(database_url)
    try:
        for p in all_projections():  # the next batch read ahead on a second connection as the log grows
            await rebuild(rebuilder, p, batch_size=200, reader=other)
        await other.execute("SELECT pg_advisory_lock($1, $2)", REBUILD_LOCK, lock_key("encounter_list"))
        with pytest.raises(RebuildBusy):
            await rebuild(rebuilder, all_projections()[0])
    finally:
        stop.set()
        await player
        await rebuilder.close()
        await other.close()
    await caught_up(conn)
    assert await live_rows(conn) == folded_rows(await whole_log(conn))
    assert await conn.fetchval("SELECT count(*) FROM encounter_list WHERE name = 'Ambush at the ford'") > 0


async def test_a_rebuild_of_every_rulesets_fights_ends_at_the_rows_the_live_runner_kept(database_url: str,
                                                                                        conn: Any) -> None:
    """The four rulesets' fights, kept by the live runner (every payload read, batches shared
    by the projections), then rebuilt (the payloads of what each projection folds only, the next
    batch read ahead on a second connection, and again on one): the same rows each time."""
    await bench_projections.write_log(database_url, 2500, 4, "mixed")
    async with running(database_url, batch_size=89):
        await caught_up(conn)
        live = await live_rows(conn)
    assert live["combatant_statistics"] and live["combatant_statistics_attacks"]
    reader = await asyncpg.connect(database_url)
    try:
        for ahead in (reader, None):
            for p in all_projections():
                await rebuild(conn, p, batch_size=101, reader=ahead)
            assert await live_rows(conn) == live
    finally:
        await reader.close()
    assert live == folded_rows(await whole_log(conn))


async def test_a_batch_read_ahead_after_another_checkpoint_is_dropped(database_url: str, conn: Any) -> None:
    """``ReadAhead`` hands over the batch it read only to the checkpoint it was read after; any
    other is read afresh, and its reader is free again for the next read ahead."""
    await store(conn, list(fights(3, events=300)))
    first = [e.global_position for e in await read_batch(conn, Decoder(), (0, 0), 50)]
    reader = await asyncpg.connect(database_url)
    try:
        ahead = ReadAhead(reader, Decoder(), 50, None)
        await ahead.start((0, 0))
        assert await ahead.take((0, 1)) is None
        await ahead.start((0, 0))
        events, by_encounter = await ahead.take((0, 0))  # type: ignore[misc]
        assert [e.global_position for e in events] == first and by_encounter
        assert await ahead.take((0, 0)) is None  # handed over once
    finally:
        await ahead.aclose()
        await reader.close()


async def test_every_payload_is_read_in_its_current_shape(database_url: str, conn: Any) -> None:
    """An encounter opened under an older schema of EncounterOpened is listed all the same:
    the runner reads payloads through the ruleset's upcasters."""
    fight = random_fight(random.Random(3), steps=10)
    await store(conn, [fight])
    enc = fight.encounter_id
    # Rewrite the opening as a version-1 payload (the trigger refuses UPDATE: recreate it)
    opened = await conn.fetchrow("SELECT data::text AS data FROM events WHERE encounter_id = $1 AND version = 1",
                                 uuid.UUID(enc))
    import msgspec

    data = msgspec.json.decode(opened["data"])
    assert "seed_commitment" in data  # stored as version 2
    old = {k: v for k, v in data.items() if k != "seed_commitment"}
    old["seed_sha256"] = data["seed_commitment"].removeprefix("sha256:")
    enc2 = str(uuid.uuid4())
    old["encounter_id"] = enc2
    await conn.execute("INSERT INTO encounters (id, ruleset, name, seed) VALUES ($1, $2, $3, $4)",
                       uuid.UUID(enc2), "places-of-power", old["name"], b"\0" * 32)
    await conn.execute(
        """INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, recorded_at, hash)
           VALUES ($1, 1, $2, 'EncounterOpened', 1, $3::jsonb, now(), $4)""",
        uuid.UUID(enc2), uuid.uuid4(), msgspec.json.encode(old).decode(), GENESIS_HASH)
    async with running(database_url):
        await caught_up(conn)
    names = dict(await conn.fetch("SELECT encounter_id::text, name FROM encounter_list"))
    assert names[enc2] == old["name"] and names[enc] == fight.state.name


@pytest.mark.parametrize("batch_size", [1, 7, 10_000])
async def test_a_retcon_undoes_what_it_undid_in_every_read_model(database_url: str, conn: Any,
                                                                 batch_size: int) -> None:
    """"The state is again the state at ``to_version``": the statistics and the list count only
    what still stands, whether the retcon comes in the batch of what it undoes or later; the
    version and the last activity go on. Two retcons, the second going back past commands
    sent again after the first."""
    from types import SimpleNamespace

    import domain.core.encounter as core
    from tests.integration.store.test_statistics_property import direct

    retconned = core.Retconned
    fight = random_fight(random.Random(41), steps=40, combatants=3)
    await store(conn, [fight])
    events, n = list(fight.events), len(fight.events)
    k = next(i for i, e in enumerate(events, 1) if type(e).__name__ == "EncounterStarted") + 1  # after RoundStarted
    again = events[k:k + 6]  # the commands after k, sent again after the first retcon

    async def append(new: list[Any], version: int) -> None:
        prev = bytes(await conn.fetchval("SELECT hash FROM events WHERE encounter_id = $1 AND version = $2",
                                         uuid.UUID(fight.encounter_id), version - 1))
        async with conn.transaction():
            await _append(conn, fight.encounter_id, version, prev, new)

    await append([retconned(to_version=k, undone_from=k + 1, undone_to=n)], n + 1)
    await append(again, n + 2)
    await append([retconned(to_version=n + 3, undone_from=n + 4, undone_to=n + 1 + len(again))],
                 n + 2 + len(again))
    standing = events[:k] + again[:2]
    decoder = Decoder()
    for p in all_projections():
        await ensure_checkpoint(conn, p)
        while await run_batch(conn, p, decoder, batch_size):
            pass
    assert await live_rows(conn) == folded_rows(await whole_log(conn))
    counts = dict(await conn.fetch(
        "SELECT combatant_id || ' ' || stat, sum(value) FROM combatant_statistics GROUP BY 1"))
    expected = {f"{who} {stat}": n for who, c in direct(SimpleNamespace(events=standing), set()).items()
                for stat, n in c.items()}
    assert counts == expected
    row = await conn.fetchrow("SELECT version, round FROM encounter_list")
    assert row["version"] == n + 2 + len(again)


class CountingDecoder(Decoder):
    """Counts the batches read from the log (each read decodes its rows once)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def events(self, rows: Any) -> Any:
        self.reads += 1
        return super().events(rows)


async def test_projections_at_one_checkpoint_share_the_batch_read_for_the_first(database_url: str, conn: Any) -> None:
    """A batch after a checkpoint, below the oldest running transaction, never changes: the
    read models at the same checkpoint apply one read of it, and end as a fold of the log."""
    await store(conn, list(fights(4, events=300)))
    decoder = CountingDecoder()
    runner = ProjectionRunner(database_url, all_projections(), decoder=decoder, batch_size=500)
    runner_conn = await asyncpg.connect(database_url)
    try:
        for p in runner.projections:
            await ensure_checkpoint(runner_conn, p)
        passes = 0
        while await runner._pass(runner_conn) or passes == 0:
            passes += 1
        passes += 1
        assert decoder.reads == passes  # one read a pass, for both projections
        assert len({await checkpoint(conn, p.name) for p in runner.projections}) == 1
    finally:
        await runner_conn.close()
    assert await live_rows(conn) == folded_rows(await whole_log(conn))


def duel_fight() -> Any:
    """A fight of Duel (a ruleset of the tests, tests/unit/duel.py), whose ``AttackDeclared``
    has another shape than Places of Power's: ``by`` and ``at``, no attacker or defender."""
    from types import SimpleNamespace

    from domain.core.encounter import AddCombatant
    from domain.core.dice import ReportedDice
    from tests.unit.duel import AttackDeclared, Duel, Struck

    duel = Duel()
    enc = str(uuid.uuid4())
    events = duel.open(enc, "At dawn", "reported", "00" * 32)
    state = duel.replay(events)
    for cid, name, controller in (("mira", "Mira", "player"), ("bandit", "Bandit", "gm")):
        added = duel.decide(state, AddCombatant(combatant_id=cid, name=name, side=cid, controller=controller,
                                                sheet={}), ReportedDice([]))
        events += added
        state = duel.replay(added, state)
    blows = [AttackDeclared(blow=4, by="mira", at=["bandit"]), Struck(blow=4, combatant_id="bandit", wounds=2)]
    events += blows
    return SimpleNamespace(ruleset=duel, encounter_id=enc, seed=b"\0" * 32, events=events,
                           state=duel.replay(blows, state))


async def test_another_rulesets_attack_passes_through_the_statistics(database_url: str, conn: Any) -> None:
    """"A differently shaped ``AttackDeclared`` from another ruleset raises in the projection
    runner" no more: each event counts what its own ruleset says (``Ruleset.tally``), and the
    step of an attack opened in an earlier batch knows the attack's sides. Under a registry
    that does not know the ruleset, its events count nothing (its combatants are still listed)."""
    from domain.core.ruleset import Registry
    from domain.places_of_power.ruleset import PlacesOfPower
    from projections.combatant_statistics import CombatantStatistics
    from tests.unit.duel import Duel

    pop = random_fight(random.Random(7), steps=30, combatants=3)
    duel = duel_fight()
    await store(conn, [duel, pop])
    decoder = Decoder(Registry([PlacesOfPower(), Duel()]))
    for projection, size in ((CombatantStatistics(Registry([PlacesOfPower(), Duel()])), 1),
                             (next(p for p in all_projections() if p.name == "combatant_statistics"), 5)):
        await conn.execute("DELETE FROM projection_checkpoints")
        for table in projection.tables:
            await conn.execute(f"DELETE FROM {table}")
        await ensure_checkpoint(conn, projection)
        while await run_batch(conn, projection, decoder, size):  # the strike in a batch after its attack
            pass
        rows = await conn.fetch("SELECT combatant_id, opponent_id, stat, value FROM combatant_statistics "
                                "WHERE encounter_id = $1 ORDER BY 1, 3", uuid.UUID(duel.encounter_id))
        knows_duel = size == 1
        assert [tuple(r) for r in rows] == ([("bandit", "mira", "hits_taken", 2), ("mira", "bandit", "attacks_made", 1),
                                             ("mira", "bandit", "hits_dealt", 2)] if knows_duel else [])
        members = await conn.fetch("SELECT combatant_id FROM combatant_statistics_combatants WHERE encounter_id = $1 "
                                   "ORDER BY seq", uuid.UUID(duel.encounter_id))
        assert [m[0] for m in members] == ["mira", "bandit"]
        pop_rows = await conn.fetch("SELECT encounter_id::text, combatant_id, opponent_id, stat, value "
                                    "FROM combatant_statistics WHERE encounter_id = $1", uuid.UUID(pop.encounter_id))
        folded = folded_rows(await whole_log(conn))["combatant_statistics"]
        assert sorted(tuple(r) for r in pop_rows) == [r for r in folded if r[0] == pop.encounter_id]


async def test_a_rebuild_reading_only_the_payloads_it_folds_gives_the_rows_of_a_fold(database_url: str,
                                                                                     conn: Any) -> None:
    """A rebuild reads the payloads of the event types its projection folds only
    (``Projection.payloads``, and every retcon's: the retcon test above runs batches so too);
    over fights of all four rulesets its rows are those of a fold of the whole log read with
    every payload."""
    await bench_projections.write_log(database_url, 1200, 3, "all")
    await store(conn, list(fights(6, events=600)))
    for p in all_projections():
        await rebuild(conn, p, batch_size=97)
    assert await live_rows(conn) == folded_rows(await whole_log(conn))
    listed = next(p for p in all_projections() if p.name == "encounter_list")
    events = await read_batch(conn, Decoder(), (0, 0), 10_000, listed.payloads)
    unread = [e for e in events if e.type not in listed.payloads | {"Retconned"}]
    assert unread and all(e.raw is None for e in unread)
    assert all(e.raw is not None for e in events if e.type in listed.payloads)
    with pytest.raises(LookupError):
        unread[0].data  # noqa: B018
