"""Commands on one encounter in one server process do not wait for each other to commit.

A command is decided on the state the encounter's pending append leaves (the "tip") and its
append follows that one (server/store/encounters.py ``Entry``, server/store/events.py ``EventStore.settle``):
appended only if that one is, in the same statement or a later one. These tests race many
clients on one encounter in one app instance and check what DESIGN.md asks of any append:
versions stay gapless, nothing is lost or stored twice, a refusal is judged on the committed
state, and the cache equals a replay.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

from tests.conftest import app_client
from tests.integration.fight import command, mint, reroll_initiative, started_fight

CLIENTS = 16


async def _versions(conn, enc: str) -> list[int]:
    return [r["version"] for r in await conn.fetch(
        "SELECT version FROM events WHERE encounter_id = $1 ORDER BY global_position", uuid.UUID(enc))]


def _store(client):
    return client._transport.app.state.service.store


async def test_racing_commands_on_one_encounter_follow_each_other_and_all_land(client, conn, database_url) -> None:
    enc, _, _ = await started_fight(client)
    per_client = 6

    racing = (reroll_initiative(client, enc, per_client) for _ in range(CLIENTS))
    got = [v for vs in await asyncio.gather(*racing) for v in vs]
    total = CLIENTS * per_client
    assert sorted(got) == list(range(7, 7 + total))  # one answer per version
    assert await _versions(conn, enc) == list(range(1, 7 + total))
    assert await conn.fetchval("SELECT count(DISTINCT event_id) FROM events WHERE encounter_id = $1",
                               uuid.UUID(enc)) == 6 + total
    assert _store(client).followed > 0  # commands were decided before the one before them committed
    tail = client._transport.app.state.service._cache[enc].tail
    assert tail is not None and tail.done.done() and tail.after is None  # no chain of settled appends kept
    async with app_client(database_url) as cold:  # the hash chain and the state, from the log alone
        cold.headers["Authorization"] = client.headers["Authorization"]
        assert (await cold.get(f"/encounters/{enc}/audit")).json()["ok"] is True
        truth = (await cold.get(f"/encounters/{enc}")).json()
    assert truth["version"] == 6 + total
    assert (await client.get(f"/encounters/{enc}")).json() == truth


async def test_a_command_refused_on_a_pending_state_is_judged_on_the_committed_one(client, conn) -> None:
    """Mira has 3 Action Points: of twenty arrows notched at once, three are, and the rest are
    refused for want of Action Points, each refusal judged once the arrows before it committed."""
    enc, mira, _ = await started_fight(client)
    body = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}
    results = await asyncio.gather(*(client.post(f"/encounters/{enc}/commands", json=body) for _ in range(20)))
    assert Counter(r.status_code for r in results) == {200: 3, 422: 17}
    assert {r.json()["code"] for r in results if r.status_code == 422} == {"not_enough_action_points"}
    assert await _versions(conn, enc) == list(range(1, 10))
    assert (await client.get(f"/encounters/{enc}")).json()["combatants"][mira]["action_points"] == 0


async def test_followers_of_a_command_whose_token_was_revoked_are_decided_again(client, conn) -> None:
    """The player's token is revoked in the database while this process still has it cached:
    the append statement refuses the player's command (401), and the GM's commands decided on
    the state it would have left are decided again and land."""
    enc, mira, _ = await started_fight(client)
    player = await mint(client, enc, "player", [mira])
    await command(client, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}, **player)
    await conn.execute("UPDATE tokens SET revoked_at = now() WHERE role = 'player' AND encounter_id = $1",
                       uuid.UUID(enc))
    store = _store(client)
    entry = client._transport.app.state.service._cache[enc]
    player_try = asyncio.ensure_future(client.post(
        f"/encounters/{enc}/commands", json={"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"},
        headers=player))
    while entry.tail is None or entry.tail.done.done():  # until the player's append is pending
        await asyncio.sleep(0)
    theirs, followed = entry.tail, store.followed
    gm = [asyncio.ensure_future(client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"}))
          for _ in range(4)]
    while store.followed == followed:
        await asyncio.sleep(0)
    assert not theirs.done.done()  # the GM's first command was decided on the state the player's would leave
    refused = await player_try
    gm_results = await asyncio.gather(*gm)
    assert refused.status_code == 401 and refused.json()["code"] == "token_invalid"
    assert [r.status_code for r in gm_results] == [200] * 4
    assert sorted(r.json()["version"] for r in gm_results) == [8, 9, 10, 11]
    assert await _versions(conn, enc) == list(range(1, 12))
