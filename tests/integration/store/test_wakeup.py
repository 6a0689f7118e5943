"""Wake-ups from LISTEN/NOTIFY: a committed command wakes the waiters of its encounter and the
waiters of any encounter; a lost LISTEN connection comes back by itself and wakes everyone (a
notification may have been missed meanwhile)."""

from __future__ import annotations

import asyncio
from typing import Any

from projections.wakeup import Wakeup
from tests.integration.fight import add, open_encounter


async def test_a_commit_wakes_its_encounters_waiters_and_the_global_ones(client: Any, database_url: str) -> None:
    wakeup = Wakeup(database_url)
    await wakeup.start()
    try:
        await wakeup.connected()
        enc = await open_encounter(client)
        other = "00000000-0000-4000-8000-000000000000"
        with wakeup.waiter(enc) as mine, wakeup.waiter(None) as anyone, wakeup.waiter(other) as theirs:
            await add(client, enc, "Mira")
            assert await mine.wait(5)
            assert await anyone.wait(5)
            assert not await theirs.wait(0.3)
    finally:
        await wakeup.stop()


async def test_a_lost_listen_connection_reconnects_and_wakes_everyone(client: Any, database_url: str,
                                                                      conn: Any) -> None:
    wakeup = Wakeup(database_url, retry_seconds=0.05)
    await wakeup.start()
    try:
        await wakeup.connected()
        enc = await open_encounter(client)
        quiet = "00000000-0000-4000-8000-000000000001"  # nothing is ever written to it
        with wakeup.waiter(quiet) as idle, wakeup.waiter(enc) as mine:
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", wakeup.server_pid)
            assert await idle.wait(10)  # only the reconnection wakes it: it wakes everyone
            assert wakeup.connections == 2
            await mine.wait(0.5)  # drop any wake-up from before
            await add(client, enc, "Mira")  # and notifications flow again
            assert await mine.wait(5)
    finally:
        await wakeup.stop()
        await asyncio.sleep(0)


async def test_a_lone_append_tells_the_readers_from_its_own_transaction_once(
    client: Any, database_url: str, conn: Any
) -> None:
    """The server's pool sets ``fracas.wake = after_commit`` (migrations/0009), so the trigger
    sends nothing for it: an append with no other statement in flight notifies from its own
    transaction (delivered at the commit: no NOTIFY round trip after it, bench/README.md), the
    others are announced after their commit on the LISTEN connection (the opening here). Each
    commit is told once, and the app's own Wakeup does not wake its waiters a second time for
    what its own appends sent."""
    app_wakeup = client._transport.app.state.wakeup
    await app_wakeup.connected()
    heard: list[tuple[int, str]] = []
    await conn.add_listener("fracas_events", lambda _c, pid, _ch, payload: heard.append((pid, payload)))
    enc = await open_encounter(client)
    with app_wakeup.waiter(enc) as woken:
        await add(client, enc, "Mira")
        assert await woken.wait(5)  # at once, by the process itself
        for _ in range(100):
            if len([1 for _, payload in heard if enc in payload.split(",")]) >= 2:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # a second notification of either commit would be here by now
        assert not await woken.wait(0.3)  # its own backend's notification did not wake it again
    mine = [(pid, payload) for pid, payload in heard if enc in payload.split(",")]
    assert len(mine) == 2  # the opening and the combatant, each once
    # the opening, after its commit (sent in the background: it may come second)
    assert [pid for pid, _ in mine].count(app_wakeup.server_pid) == 1
    ((add_pid, add_payload),) = [(pid, p) for pid, p in mine if pid != app_wakeup.server_pid]
    assert add_payload == enc + ","  # the combatant: from its own transaction (the comma: an append's)
    assert add_pid in app_wakeup.own_backends
    # once that connection is gone, its pid may become another process's backend's: not ignored
    assert await conn.fetchval("SELECT pg_terminate_backend($1)", add_pid)
    async with asyncio.timeout(5):
        while not app_wakeup.own_backends[add_pid].is_closed():
            await asyncio.sleep(0.05)
    pool_pids = {r["pid"] for r in await conn.fetch(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND usename = 'fracas_writer'")}
    assert app_wakeup.server_pid not in pool_pids


async def test_another_writer_is_still_announced_by_the_trigger(database_url: str, conn: Any, client: Any) -> None:
    """``fracas import`` and any other writer without the setting: the trigger notifies."""
    wakeup = Wakeup(database_url)
    await wakeup.start()
    try:
        await wakeup.connected()
        enc = await open_encounter(client)
        with wakeup.waiter(enc) as mine:
            await conn.execute(
                "INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, hash) "
                "SELECT encounter_id, 99, gen_random_uuid(), 'Noted', 1, '{}', '{}', '\\x00' FROM events "
                "WHERE encounter_id = $1 LIMIT 1", __import__("uuid").UUID(enc))
            assert await mine.wait(5)
    finally:
        await wakeup.stop()


async def test_announcements_wake_other_processes_and_fit_the_payload_limit(client: Any, database_url: str) -> None:
    from projections.wakeup import NOTIFY_PAYLOAD_BYTES, _payloads

    ids = [f"00000000-0000-4000-8000-{n:012d}" for n in range(1000)]
    payloads = list(_payloads(ids))
    assert len(payloads) > 1 and all(len(p) <= NOTIFY_PAYLOAD_BYTES for p in payloads)
    assert [e for p in payloads for e in p.split(",") if e] == ids
    assert all(p.endswith(",") for p in payloads)  # a commit's: only new events (Waiter.take_more)
    other = Wakeup(database_url)  # another process's
    await other.start()
    try:
        await other.connected()
        app_wakeup = client._transport.app.state.wakeup
        await app_wakeup.connected()
        with other.waiter(ids[-1]) as last, other.waiter(ids[0]) as first:
            app_wakeup.announce(ids)
            assert await first.wait(5) and await last.wait(5)
    finally:
        await other.stop()


async def test_a_commit_wakes_for_new_events_only_and_anything_else_for_more(
    client: Any, database_url: str, conn: Any
) -> None:
    """A live feed reads who is connected only when a wake-up may be about more than new events
    (``Waiter.take_more``): a commit's notification (another process's append or announcement:
    its payload ends with a comma) is new events only; who is connected changing, a token
    revoked, another writer's trigger, a reconnection are more."""
    wakeup = Wakeup(database_url, retry_seconds=0.05)
    await wakeup.start()
    try:
        await wakeup.connected()
        enc = await open_encounter(client)
        with wakeup.waiter(enc) as w:
            assert w.take_more()  # a new waiter reads everything first
            await add(client, enc, "Mira")  # the app's append: another process's, to this Wakeup
            assert await w.wait(5)
            assert not w.take_more()
            await conn.execute("SELECT pg_notify('fracas_events', $1)", enc + ",")  # an announcement
            assert await w.wait(5)
            assert not w.take_more()
            await conn.execute("SELECT pg_notify('fracas_events', $1)", enc)  # presence, a token, the trigger
            # wake-ups coalesce: one still pending from the add may come first, so wait for the one
            # that is about more (within 5 s), then it is taken once
            deadline = asyncio.get_running_loop().time() + 5
            while not w.take_more():
                assert await w.wait(max(0.0, deadline - asyncio.get_running_loop().time()))
            assert not w.take_more()
            wakeup.announce([enc])  # this process's own commit
            assert await w.wait(5)
            assert not w.take_more()
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", wakeup.server_pid)
            deadline = asyncio.get_running_loop().time() + 10  # the reconnection: anything may have been missed
            while not w.take_more():
                assert await w.wait(max(0.0, deadline - asyncio.get_running_loop().time()))
    finally:
        await wakeup.stop()
        await asyncio.sleep(0)
