"""Group commit (server/store/events.py): the appends queued in one turn of the event loop, and
those waiting for a free statement slot, are appended together, in one statement, and each
still gets its own answer.

Appends started together (``asyncio.gather``) are queued in one turn, so one statement
carries them all: the tests below make every way one command of a group can fail happen
inside such a group, and check that the others are appended exactly once and the failing
one gets the error it would have got alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from typing import Any

import asyncpg
import msgspec
import pytest

from server.store.database import create_pool
from server.store.events import (
    GENESIS_HASH,
    EventStore,
    Idempotency,
    IdempotencyConflict,
    PredecessorFailed,
    TokenRevoked,
    UnstorableText,
    VersionConflict,
    chain,
)


class Noted(msgspec.Struct, tag="Noted"):
    text: str


async def _encounter(conn: asyncpg.Connection) -> tuple[str, bytes]:
    """A registered encounter and its GM token's hash."""
    enc = str(uuid.uuid4())
    await conn.execute(
        "INSERT INTO encounters (id, ruleset, name, seed) VALUES ($1, 'places-of-power', 'group', '\\x00')", enc
    )
    token_hash = hashlib.sha256(enc.encode()).digest()
    await conn.execute(
        "INSERT INTO tokens (id, encounter_id, role, label, secret_hash) VALUES ($1, $2, 'gm', 'GM', $3)",
        str(uuid.uuid4()), enc, token_hash,
    )
    return enc, token_hash


def _rows(enc: str, first_version: int, *texts: str) -> Any:
    return chain(enc, GENESIS_HASH, first_version, [Noted(t) for t in texts], {"actor": {"role": "gm"}})


@pytest.fixture
async def store(database_url: str) -> Any:
    pool = await create_pool(database_url, 4)
    try:
        yield EventStore(pool, max_in_flight=1)
    finally:
        await pool.close()


async def _turns_until(condition: Any, turns: int = 50) -> None:
    """Let the event loop run until ``condition()`` holds, at most ``turns`` turns."""
    for _ in range(turns):
        await asyncio.sleep(0)
        if condition():
            return
    raise AssertionError("the condition did not come true")


async def _stored(conn: asyncpg.Connection, enc: str) -> list[tuple[int, str]]:
    rows = await conn.fetch("SELECT version, data->>'text' AS t FROM events WHERE encounter_id = $1 ORDER BY version",
                            enc)
    return [(r["version"], r["t"]) for r in rows]


async def test_waiting_appends_go_in_one_statement_each_appended_once(store: EventStore, conn: asyncpg.Connection) -> None:
    encounters = [await _encounter(conn) for _ in range(12)]
    appends = [store.append(enc, _rows(enc, 1, f"{n}a", f"{n}b"), th) for n, (enc, th) in enumerate(encounters)]
    await asyncio.gather(*appends)
    assert (store.statements, store.grouped) == (1, 12)  # all together
    for n, (enc, _) in enumerate(encounters):
        assert await _stored(conn, enc) == [(1, f"{n}a"), (2, f"{n}b")]


async def test_appends_of_one_turn_go_together_though_slots_are_free(store: EventStore, conn: asyncpg.Connection) -> None:
    # A statement started for the first command of a turn the moment a slot is free would
    # take that slot for one command while the others queued in the same turn wait.
    store = EventStore(store.pool, max_in_flight=4)
    encounters = [await _encounter(conn) for _ in range(6)]
    await asyncio.gather(*(store.append(enc, _rows(enc, 1, "x"), th) for enc, th in encounters))
    assert (store.statements, store.grouped) == (1, 6)
    for enc, _ in encounters:
        assert await _stored(conn, enc) == [(1, "x")]


async def test_an_append_alone_goes_alone(store: EventStore, conn: asyncpg.Connection) -> None:
    enc, th = await _encounter(conn)
    await store.append(enc, _rows(enc, 1, "a"), th)
    await store.append(enc, _next(enc, _rows(enc, 1, "a"), "b"), th)
    assert (store.statements, store.grouped) == (2, 0)  # each in the statement for one
    assert await _stored(conn, enc) == [(1, "a"), (2, "b")]


async def test_each_command_of_a_group_gets_its_own_answer(store: EventStore, conn: asyncpg.Connection) -> None:
    good = [await _encounter(conn) for _ in range(4)]
    revoked_enc, revoked_hash = await _encounter(conn)
    await conn.execute("UPDATE tokens SET revoked_at = now() WHERE encounter_id = $1", revoked_enc)
    taken_enc, taken_hash = await _encounter(conn)
    await store.append(taken_enc, _rows(taken_enc, 1, "first"), taken_hash)  # version 1 is taken
    nul_enc, nul_hash = await _encounter(conn)
    key_enc, key_hash = await _encounter(conn)
    idem = Idempotency("scope", "key-1", b"h", 200, b'{"version":1}')
    await store.append(key_enc, _rows(key_enc, 1, "keyed"), key_hash, idem)  # the key is used

    results = await asyncio.gather(
        *[store.append(enc, _rows(enc, 1, "ok"), th) for enc, th in good[:2]],
        store.append(revoked_enc, _rows(revoked_enc, 1, "revoked"), revoked_hash),
        store.append(taken_enc, _rows(taken_enc, 1, "again"), taken_hash),
        store.append(nul_enc, _rows(nul_enc, 1, "a\u0000b"), nul_hash),
        store.append(key_enc, _rows(key_enc, 2, "keyed again"), key_hash, idem),
        *[store.append(enc, _rows(enc, 1, "ok"), th) for enc, th in good[2:]],
        return_exceptions=True,
    )
    assert results[:2] == [None, None] and results[-2:] == [None, None]
    assert isinstance(results[2], TokenRevoked)
    assert isinstance(results[3], VersionConflict)
    assert isinstance(results[4], UnstorableText)
    assert isinstance(results[5], IdempotencyConflict)
    for enc, _ in good:
        assert await _stored(conn, enc) == [(1, "ok")]
    assert await _stored(conn, revoked_enc) == []
    assert await _stored(conn, taken_enc) == [(1, "first")]
    assert await _stored(conn, nul_enc) == []
    assert await _stored(conn, key_enc) == [(1, "keyed")]


async def test_a_group_stores_idempotency_answers_byte_for_byte(store: EventStore, conn: asyncpg.Connection) -> None:
    encounters = [await _encounter(conn) for _ in range(5)]
    answers = [f'{{"version":1,"note":"é ✓ {n}"}}'.encode() for n in range(5)]
    await asyncio.gather(*(
        store.append(enc, _rows(enc, 1, "k"), th, Idempotency(f"s{n}", f"k{n}", bytes([n]) * 32, 201, answers[n]))
        for n, (enc, th) in enumerate(encounters)
    ))
    assert store.grouped >= 4
    for n in range(5):
        row = await conn.fetchrow("SELECT request_hash, status, response FROM idempotency_keys WHERE scope = $1",
                                  f"s{n}")
        assert (bytes(row["request_hash"]), row["status"], bytes(row["response"])) == (bytes([n]) * 32, 201, answers[n])


# ------------------------------------------------------- appends that follow a pending one
# A command decided on the state a pending append of its encounter leaves goes to the store
# with ``after`` set: it is appended only if that one is, never by a statement that could
# commit first (server/store/events.py, ``EventStore.settle``).


def _next(enc: str, before: Any, *texts: str) -> Any:
    """Rows that follow ``before`` (rows) on the encounter's hash chain."""
    return chain(enc, before[-1].hash, before[-1].version + 1, [Noted(t) for t in texts], {"actor": {"role": "gm"}})


async def test_a_follower_goes_in_the_same_statement_as_the_append_it_follows(
    store: EventStore, conn: asyncpg.Connection
) -> None:
    enc, th = await _encounter(conn)
    blocker, bh = await _encounter(conn)
    first = _rows(enc, 1, "a", "b")
    second = _next(enc, first, "c")
    third = _next(enc, second, "d")
    hold = asyncio.ensure_future(store.append(blocker, _rows(blocker, 1, "x"), bh))  # takes the one slot
    await asyncio.sleep(0)
    p1 = store.prepare(enc, first, th)
    p2 = store.prepare(enc, second, th, after=p1)
    p3 = store.prepare(enc, third, th, after=p2)
    await asyncio.gather(hold, store.settle(p1), store.settle(p2), store.settle(p3))
    assert store.grouped == 3  # all three in the statement after the blocker's
    assert await _stored(conn, enc) == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]


async def test_a_follower_of_an_append_in_flight_waits_for_it_to_commit(
    store: EventStore, conn: asyncpg.Connection
) -> None:
    store = EventStore(store.pool, max_in_flight=2)  # a second slot is free all along
    enc, th = await _encounter(conn)
    first = _rows(enc, 1, "a")
    p1 = store.prepare(enc, first, th)
    t1 = asyncio.ensure_future(store.settle(p1))
    await _turns_until(lambda: store._in_flight == 1)  # p1's statement is in flight
    p2 = store.prepare(enc, _next(enc, first, "b"), th, after=p1)
    t2 = asyncio.ensure_future(store.settle(p2))
    await _turns_until(lambda: store.statements == 1 and not store._tick_due and not p2.done.done())
    # (p2 queued, its turn over, no second statement started)
    # held back although a slot is free: a statement of its own could commit before p1's
    assert store._in_flight == 1 and not p2.done.done() and p2 in store._waiting
    await asyncio.gather(t1, t2)
    assert await _stored(conn, enc) == [(1, "a"), (2, "b")]


async def test_an_append_whose_statement_is_cancelled_fails_and_its_follower_decides_again(
    store: EventStore, conn: asyncpg.Connection
) -> None:
    # the server shutting down cancels the statements in flight: their appends must not stay
    # pending for ever, nor the ones that follow them
    enc, th = await _encounter(conn)
    first = _rows(enc, 1, "a")
    p1 = store.prepare(enc, first, th)
    t1 = asyncio.ensure_future(store.settle(p1))
    await _turns_until(lambda: bool(store._flushes))
    await asyncio.sleep(0.001)  # the statement is on its way
    for task in list(store._flushes):
        task.cancel()
    p2 = store.prepare(enc, _next(enc, first, "b"), th, after=p1)
    with pytest.raises(PredecessorFailed):
        await asyncio.wait_for(store.settle(p2), 10)
    assert p1.done.cancelled() and store._in_flight == 0
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(t1, 10)


async def test_followers_of_an_append_that_fails_are_not_appended(store: EventStore, conn: asyncpg.Connection) -> None:
    # in one statement: the first's token is revoked, so the two after it (another, valid
    # token's) fail too
    enc, th = await _encounter(conn)
    other, oh = await _encounter(conn)
    await conn.execute("UPDATE tokens SET revoked_at = now() WHERE encounter_id = $1", enc)
    valid = hashlib.sha256(b"player of " + enc.encode()).digest()
    await conn.execute(
        "INSERT INTO tokens (id, encounter_id, role, label, secret_hash) VALUES ($1, $2, 'spectator', 'P', $3)",
        str(uuid.uuid4()), enc, valid,
    )
    blocker, bh = await _encounter(conn)
    hold = asyncio.ensure_future(store.append(blocker, _rows(blocker, 1, "x"), bh))
    await asyncio.sleep(0)
    first = _rows(enc, 1, "a")
    second = _next(enc, first, "b")
    p1 = store.prepare(enc, first, th)
    p2 = store.prepare(enc, second, valid, after=p1)
    p3 = store.prepare(enc, _next(enc, second, "c"), valid, after=p2)
    bystander = store.prepare(other, _rows(other, 1, "ok"), oh)
    results = await asyncio.gather(hold, *(store.settle(p) for p in (p1, p2, p3, bystander)), return_exceptions=True)
    assert results[0] is None and results[4] is None
    assert isinstance(results[1], TokenRevoked)
    assert isinstance(results[2], PredecessorFailed) and isinstance(results[3], PredecessorFailed)
    assert await _stored(conn, enc) == []
    assert await _stored(conn, other) == [(1, "ok")]


async def test_a_conflict_in_a_group_appends_each_encounter_in_order(
    store: EventStore, conn: asyncpg.Connection
) -> None:
    # a unique violation fails the statement; one by one, the chain keeps its order, and the
    # follower of the command that conflicts is not appended
    enc, th = await _encounter(conn)
    taken, tah = await _encounter(conn)
    await store.append(taken, _rows(taken, 1, "first"), tah)
    blocker, bh = await _encounter(conn)
    hold = asyncio.ensure_future(store.append(blocker, _rows(blocker, 1, "x"), bh))
    await asyncio.sleep(0)
    first = _rows(enc, 1, "a")
    p1 = store.prepare(enc, first, th)
    p2 = store.prepare(enc, _next(enc, first, "b"), th, after=p1)
    clash = store.prepare(taken, _rows(taken, 1, "again"), tah)
    clash_follower = store.prepare(taken, _next(taken, _rows(taken, 1, "again"), "more"), tah, after=clash)
    results = await asyncio.gather(hold, *(store.settle(p) for p in (p1, p2, clash, clash_follower)),
                                   return_exceptions=True)
    assert results[:3] == [None, None, None]
    assert isinstance(results[3], VersionConflict) and isinstance(results[4], PredecessorFailed)
    assert await _stored(conn, enc) == [(1, "a"), (2, "b")]
    assert await _stored(conn, taken) == [(1, "first")]


async def test_a_follower_of_a_failed_append_fails_at_once(store: EventStore, conn: asyncpg.Connection) -> None:
    taken, tah = await _encounter(conn)
    await store.append(taken, _rows(taken, 1, "first"), tah)
    p1 = store.prepare(taken, _rows(taken, 1, "again"), tah)
    with pytest.raises(VersionConflict):
        await store.settle(p1)
    p2 = store.prepare(taken, _next(taken, _rows(taken, 1, "again"), "b"), tah, after=p1)
    p3 = store.prepare(taken, _next(taken, p2.rows, "c"), tah, after=p2)
    with pytest.raises(PredecessorFailed):
        await store.settle(p2)
    with pytest.raises(PredecessorFailed):  # and so does the one after it
        await store.settle(p3)
    assert await _stored(conn, taken) == [(1, "first")]


async def test_only_an_append_alone_in_flight_notifies_from_its_transaction(
    store: EventStore, conn: asyncpg.Connection
) -> None:
    """A NOTIFY inside the appending transaction holds PostgreSQL's notify-queue lock through the
    commit and its WAL flush, so two appends that both did would commit one at a time: only a
    statement with no other in flight notifies from its transaction; one that starts while
    another is in flight is announced after its commit (``notified`` False)."""
    store = EventStore(store.pool, max_in_flight=2)
    store.wake_channel = "fracas_test_wake"
    told: list[tuple[list[str], bool]] = []
    store.on_commit = lambda ids, notified: told.append((sorted(ids), notified))
    heard: list[str] = []
    await conn.add_listener("fracas_test_wake", lambda _c, _pid, _ch, payload: heard.append(payload))
    (a, ta), (b, tb), (c, tc) = [await _encounter(conn) for _ in range(3)]
    await store.append(a, _rows(a, 1, "alone"), ta)
    async with store.pool.acquire() as blocker:
        held = blocker.transaction()
        await held.start()
        # b's version 1, uncommitted: b's append waits on the unique key until this ends
        await blocker.execute(
            "INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, hash) "
            "VALUES ($1, 1, gen_random_uuid(), 'Noted', 1, '{}', '{}', '\\x00')", uuid.UUID(b))
        t1 = asyncio.ensure_future(store.append(b, _rows(b, 1, "first"), tb))
        await _turns_until(lambda: store._in_flight == 1)
        await store.append(c, _rows(c, 1, "beside"), tc)  # while b's statement is in flight
        await held.rollback()
        await t1
    for _ in range(50):
        if len(heard) >= 2:
            break
        await asyncio.sleep(0.02)
    assert told == [([a], True), ([c], False), ([b], True)]
    assert sorted(heard) == sorted([a + ",", b + ","])  # c's readers are told after its commit, by on_commit
    assert [await _stored(conn, e) for e in (a, b, c)] == [[(1, "alone")], [(1, "first")], [(1, "beside")]]
