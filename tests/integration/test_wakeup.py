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
        with wakeup.waiter(enc) as mine:
            killed = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
            assert killed >= 1  # ours, and the app's own
            assert await mine.wait(10)  # the reconnection wakes everyone
            assert wakeup.connections == 2
            await add(client, enc, "Mira")  # and notifications flow again
            for _ in range(3):
                if await mine.wait(5):
                    break
            else:
                raise AssertionError("no wake-up after reconnecting")
    finally:
        await wakeup.stop()
        await asyncio.sleep(0)
