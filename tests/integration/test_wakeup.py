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
