"""Live streams (issue 8), in process: the app served by a real uvicorn in the test's event loop,
clients over WebSocket (the ``websockets`` package) and Server-Sent Events (httpx).

"Each must see each change as soon as it is committed, in order, with nothing missed after a
dropped connection, and see only what its role may see."
"""

from __future__ import annotations

import asyncio
import json
import socket
import uuid
from base64 import b64encode
from os import urandom
from typing import Any

import httpx
import pytest

from tests.integration.fight import add, command, mint, started_fight
from tests.integration.live import Served, Watcher, live_url, served, watch_sse, watch_ws
from tests.rulesets.places_of_power.test_attack_exchange_api import GM_FIRST, Table, choices


NEXT_MOVES = ("actions", "actions_patch")


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


def without_presence(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "presence"}


async def ws(s: Served, enc: str, headers: dict[str, str], name: str = "ws", **params: Any) -> Watcher:
    return await watch_ws(live_url(s.base, enc, ws=True, **params), name, headers)


async def sse(s: Served, enc: str, headers: dict[str, str] | None, name: str = "sse", **params: Any) -> Watcher:
    return await watch_sse(live_url(s.base, enc, ws=False, **params), name, headers)


def assert_in_order(w: Watcher, first: int, last: int) -> None:
    """Every version from ``first`` to ``last``, once each, in order; a state after each batch."""
    assert w.versions == list(range(first, last + 1)), (w.name, w.versions)
    seen = 0
    for m in w.messages:
        assert m["version"] >= seen, (w.name, m)
        seen = m["version"]


@pytest.fixture(params=["direct", "deflate"])
async def live(database_url: str, request: Any) -> Any:
    """Served as ``fracas serve`` (no compression: batches written to the socket directly), and
    with uvicorn's compression (every batch through the ASGI ``send``)."""
    async with served(database_url, heartbeat_seconds=30, deflate=request.param == "deflate") as s:
        async with httpx.AsyncClient(base_url=s.base, timeout=30) as c:
            yield s, c


async def test_history_then_each_new_event_with_the_state_after_it(live: Any) -> None:
    """"first sends every event after N that the caller may see, then streams new ones as they
    commit, each with its version, then the derived state change the client needs"."""
    s, c = live
    enc, mira, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    w = await ws(s, enc, gm, after=0)
    await w.at_version(6)
    hello = w.messages[0]
    assert (hello["type"], hello["version"], hello["head"], hello["role"]) == ("hello", 0, 6, "gm")
    assert_in_order(w, 1, 6)
    served_state = (await c.get(f"/encounters/{enc}")).json()
    assert w.state is not None and w.state["state"] == without_presence(served_state)

    reply = await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    await w.at_version(7)
    assert_in_order(w, 1, 7)
    (event,) = [m for m in w.messages if m["type"] == "event" and m["version"] == 7]
    assert event["event"] == reply["events"][0]  # the event as the API shows it
    assert w.state["state"] == reply["state"]
    # after the first state, the change: a JSON Patch against the state the client has
    told = [m for m in w.messages if m["type"] not in NEXT_MOVES]
    assert [m["type"] for m in told[-2:]] == ["event", "patch"]
    assert told[-1]["base"] == 6 and 0 < len(told[-1]["patch"]) < 10
    # the next moves: whole once, then only their changes
    assert [m["type"] for m in w.messages if m["type"] in NEXT_MOVES][0] == "actions"
    # without compression (as `fracas serve`), a caught-up WebSocket's batches are written to
    # its socket directly; with it, through the ASGI send: the same messages either way
    streams = [st for st in s.app.state.live.streams.values() if st.transport == "websocket"]
    assert streams and all((st.direct is not None) is not s.deflate for st in streams)
    full = await ws(s, enc, gm, "full", after=7, state="full")
    await full.at_version(7)
    await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    await full.at_version(8)
    assert [m["type"] for m in full.messages if m["type"] not in ("presence", *NEXT_MOVES)] == [
        "hello", "state", "event", "state"]
    assert {m["type"] for m in full.messages if m["type"] in NEXT_MOVES} == {"actions"}  # whole, as the state
    await w.at_version(8)
    assert w.state["state"] == full.state["state"]  # type: ignore[index]
    for watcher in (w, full):
        await watcher.stop()


async def test_a_retcon_reaches_the_streams_with_the_state_it_leaves(live: Any) -> None:
    """A feed folds the events it reads onto its state, except a retcon, which goes back: the
    state after it is the one the service replays, as ``GET`` shows it, on every stream."""
    s, c = live
    enc, mira, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    player = await mint(c, enc, "player", [mira])
    watchers = [await ws(s, enc, who, name, after=0) for name, who in (("gm", gm), ("player", player))]
    for w in watchers:
        await w.at_version(6)
    await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    final = (await command(c, enc, {"type": "Retcon", "to_version": 6, "reason": "wrong button"}))["version"]
    final = (await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}))["version"]
    for w, who in zip(watchers, (gm, player), strict=True):
        await w.at_version(final)
        assert_in_order(w, 1, final)
        served_state = (await c.get(f"/encounters/{enc}", headers=who)).json()
        assert w.state is not None and w.state["state"] == without_presence(served_state)
    for w in watchers:
        await w.stop()


async def test_a_client_that_resumes_gets_exactly_what_it_missed(live: Any) -> None:
    """"a client that reconnects with its last version gets exactly what it missed"."""
    s, c = live
    enc, mira, bandit = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    steady = await ws(s, enc, gm, "steady")
    first = await ws(s, enc, gm, "first")
    await first.at_version(6)
    await first.stop()
    last = first.state["version"]  # type: ignore[index]
    for body in ({"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"},
                 {"type": "EndTurn", "combatant_id": mira}, {"type": "EndTurn", "combatant_id": bandit}):
        await command(c, enc, body)
    final = (await c.get(f"/encounters/{enc}")).json()["version"]
    again = await ws(s, enc, gm, "again", after=last)
    await again.at_version(final)
    await steady.at_version(final)
    assert_in_order(again, last + 1, final)
    assert again.messages[0]["version"] == last
    assert again.state["state"] == steady.state["state"]  # type: ignore[index]
    # the SSE way: an EventSource sends the last id it got as Last-Event-ID
    resumed = await sse(s, enc, {**gm, "Last-Event-ID": str(last)}, after=0, follow="false")
    await resumed.ended()
    assert_in_order(resumed, last + 1, final)
    assert resumed.state["state"] == steady.state["state"]  # type: ignore[index]
    for w in (steady, again):
        await w.stop()


async def test_sse_sends_the_same_messages_and_follow_false_ends(live: Any) -> None:
    s, c = live
    enc, mira, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    by_ws = await ws(s, enc, gm, after=2)
    by_sse = await sse(s, enc, None, token=token_of(gm), after=2)  # the token in the query, as a browser sends it
    for w in (by_ws, by_sse):  # both have their first batch (else one may get 3..7 in it, the other 3..6 and 7)
        await w.at_version(6)
    await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    for w in (by_ws, by_sse):
        await w.at_version(7)
        assert_in_order(w, 3, 7)
    strip = ("connection_id", "presence", "time")

    def same(w: Watcher) -> list[dict[str, Any]]:  # who is connected changes with timing: left out
        return [{k: v for k, v in m.items() if k not in strip} for m in w.messages
                if m["type"] not in ("hello", "presence")]

    assert same(by_ws) == same(by_sse)
    once = await sse(s, enc, gm, after=5, follow="false")
    assert await once.ended() == (200, "ended")
    assert [m["type"] for m in once.messages] == ["hello", "event", "event", "state", "actions"]  # the first: whole
    for w in (by_ws, by_sse):
        await w.stop()


async def test_with_batch_true_each_batch_comes_in_one_frame(live: Any) -> None:
    """``?batch=true``: the same messages, each batch (a commit's events, the patch, the
    prompts) in one text frame holding their JSON array; a refusal comes as an array too."""
    s, c = live
    enc, mira, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    player = await mint(c, enc, "player", [mira])
    watchers = [await ws(s, enc, who, f"{name} {batch}", after=2, batch=batch)
                for name, who in (("gm", gm), ("player", player)) for batch in ("true", None)]
    for w in watchers:
        await w.at_version(6)
    frames = [w.frames for w in watchers]
    for body in ({"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"},
                 {"type": "EndTurn", "combatant_id": mira}):
        final = (await command(c, enc, body))["version"]
        for w in watchers:
            await w.at_version(final)
            assert_in_order(w, 3, final)
    gm_batched, gm_single, player_batched, player_single = watchers

    def same(w: Watcher) -> list[dict[str, Any]]:  # who is connected changes with timing: left out
        return [{k: v for k, v in m.items() if k not in ("connection_id", "presence")} for m in w.messages
                if m["type"] != "presence"]

    assert same(gm_batched) == same(gm_single) and same(player_batched) == same(player_single)
    for batched, single, before in ((gm_batched, gm_single, frames[0]), (player_batched, player_single, frames[2])):
        assert all(r.startswith("[") for r in batched.raw)
        assert not any(r.startswith("[") for r in single.raw)
        kinds = [[m["type"] for m in json.loads(r)] for r in batched.raw[before:]]
        commits = [k for k in kinds if "event" in k]  # the others: who is connected changed
        assert len(commits) == 2 and all(k[:k.index("patch")] == ["event"] * k.index("patch") for k in commits), kinds
    refused = await ws(s, enc, gm, after="x", batch="true")
    assert await refused.ended() == (4400, "invalid_after")
    assert refused.raw[0].startswith("[") and refused.messages[0]["code"] == "invalid_after"
    wrong = await ws(s, enc, gm, batch="yes")
    assert await wrong.ended() == (4400, "invalid_batch")
    for w in watchers:
        await w.stop()


@pytest.mark.parametrize("after", ["7", "-1", "x"])
async def test_an_after_the_encounter_has_not_reached_is_refused(live: Any, after: str) -> None:
    s, c = live
    enc, _, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    code = "after_beyond_version" if after == "7" else "invalid_after"
    w = await ws(s, enc, gm, after=after)
    assert await w.ended() == (4400, code)
    assert w.messages[0]["type"] == "error" and w.messages[0]["code"] == code
    r = await c.get(f"/encounters/{enc}/live", params={"after": after, "follow": "false"})
    assert (r.status_code, r.json()["code"]) == (400, code if after == "7" else "invalid_parameter"), r.text


async def test_a_hidden_combatants_events_never_reach_a_players_stream(live: Any) -> None:
    """"A hidden combatant's events never reach a player's stream." An event about it reaches
    players and spectators as ``Redacted``, with its version (so they resume without gaps)."""
    s, c = live
    enc, mira, bandit = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    player = await mint(c, enc, "player", [mira])
    spectator = await mint(c, enc, "spectator")
    watchers = [await ws(s, enc, gm, "gm"), await ws(s, enc, player, "player"),
                await sse(s, enc, spectator, "spectator")]
    r = await c.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True,
        "sheet": {"initiative_modifier": 3}})
    assert r.status_code == 201
    assassin = r.json()["events"][0]["data"]["combatant_id"]
    hidden_version = r.json()["version"]
    await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    final = (await c.get(f"/encounters/{enc}")).json()["version"]
    for w in watchers:
        await w.at_version(final)
        assert_in_order(w, 1, final)
    gm_w, *others = watchers
    assert assassin in gm_w.text and "Lurking Assassin" in gm_w.text
    for w in others:
        assert assassin not in w.text and "Lurking Assassin" not in w.text and '"initiative_modifier":3' not in w.text
        (redacted,) = [m for m in w.of("event") if m["version"] == hidden_version]
        assert (redacted["event"]["type"], redacted["event"]["data"]) == ("Redacted", {})
        assert set(w.state["state"]["combatants"]) == {mira, bandit}  # type: ignore[index]
    for w in watchers:
        await w.stop()


async def test_a_pending_decision_prompts_the_player_who_must_decide(live: Any) -> None:
    """"Pending decisions reach the client that must decide (the defender's player) as a
    prompt message, with the legal choices." The Bandit (the GM's) attacks Mira: Mira's player
    is prompted to Defend; Kess's player and the GM are not. Then Mira attacks the Bandit:
    the GM is prompted for its NPC."""
    s, c = live
    t = await Table(c).open(GM_FIRST)
    gm = {"Authorization": c.headers["Authorization"]}
    mira_w = await ws(s, t.enc, t.tokens["Mira"], "mira")
    kess_w = await ws(s, t.enc, t.tokens["Kess"], "kess")
    gm_w = await ws(s, t.enc, gm, "gm")
    declared, _ = await t.attack("Bandit", "Mira", [6, 4], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"]) == ("defence", t.id("Mira"))
    await mira_w.until(lambda w: bool(w.of("prompt")))
    prompt = mira_w.of("prompt")[-1]["prompt"]
    assert (prompt["kind"], prompt["command"], prompt["combatant_id"], prompt["choice_field"]) == (
        "attack_exchange", "Defend", t.id("Mira"), "defence")
    assert prompt["body"] == {"type": "Defend", "attack": attack, "combatant_id": t.id("Mira")}
    assert {ch["name"]: ch["action_points"] for ch in prompt["choices"]} == choices(ex)
    version = (await t.state())["version"]
    for w in (kess_w, gm_w):
        await w.at_version(version)
        assert w.of("prompt") == []
    # the player answers with what the prompt says
    body = dict(prompt["body"])
    await t.send("Mira", body.pop("type"), **body, **{prompt["choice_field"]: "TakeIt"})
    version = (await t.state())["version"]
    await mira_w.at_version(version)
    assert [m for m in mira_w.messages if m["type"] not in NEXT_MOVES][-1]["type"] == "patch"  # nothing pending
    assert not [a for a in mira_w.actions["actions"] if a["kind"] == "decision"]  # the answered one is gone

    # the GM is prompted for the NPC's decisions: the Bandit's turn ends, Kess punches it
    await t.gm("EndTurn", combatant_id=t.id("Bandit"))
    declared, _ = await t.attack("Kess", "Bandit", [6, 4], attack="LightMelee", band="Melee")
    await gm_w.until(lambda w: bool(w.of("prompt")))
    prompt = gm_w.of("prompt")[-1]["prompt"]
    assert (prompt["command"], prompt["combatant_id"]) == ("Defend", t.id("Bandit"))
    await mira_w.at_version((await t.state())["version"])
    assert [p["prompt"]["command"] for p in mira_w.of("prompt")] == ["Defend"]  # only the first one
    assert kess_w.of("prompt") == []
    for w in (mira_w, kess_w, gm_w):
        await w.stop()


async def test_a_revoked_token_closes_its_streams_at_once(live: Any) -> None:
    """"a token revoked while connected closes the connection" -- at once: revoking wakes the
    streams (the heartbeat here is 30 s)."""
    s, c = live
    enc, mira, _ = await started_fight(c)
    r = await c.post(f"/encounters/{enc}/tokens", json={"role": "player", "combatant_ids": [mira]})
    token = r.json()
    player = {"Authorization": f"Bearer {token['token']}"}
    by_ws = await ws(s, enc, player, "ws")
    by_sse = await sse(s, enc, player, "sse")
    other = await ws(s, enc, {"Authorization": c.headers["Authorization"]}, "gm")
    for w in (by_ws, by_sse, other):
        await w.at_version(6)
    assert (await c.delete(f"/encounters/{enc}/tokens/{token['id']}")).status_code == 204
    assert await by_ws.ended(5) == (4401, "token_revoked")
    assert await by_sse.ended(5) == (200, "ended")
    for w in (by_ws, by_sse):
        assert w.messages[-1]["type"] == "error" and w.messages[-1]["code"] == "token_revoked"
    assert other.closed is None  # the GM's stream goes on
    await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    await other.at_version(7)
    refused = await ws(s, enc, player, "again")
    assert await refused.ended() == (4401, "token_invalid")
    await other.stop()


async def test_a_token_revoked_through_another_process_ends_and_refuses_its_streams(database_url: str) -> None:
    """Issue 16: "A revoked token is 401 for every request (writes, idempotent replays, live
    streams), on every process." Revoked through process a, the token's streams on process b
    end at once (the heartbeat is 30 s), and b refuses it on both transports, however sent."""
    async with served(database_url, heartbeat_seconds=30) as a, served(database_url, heartbeat_seconds=30) as b, \
            httpx.AsyncClient(base_url=a.base, timeout=30) as c:
        enc, mira, _ = await started_fight(c)
        token = (await c.post(f"/encounters/{enc}/tokens", json={"role": "player", "combatant_ids": [mira]})).json()
        player = {"Authorization": f"Bearer {token['token']}"}
        streams = [await ws(b, enc, player, "ws"), await sse(b, enc, player, "sse"),
                   await ws(b, enc, {}, "ws ?token", token=token["token"]),
                   await sse(b, enc, None, "sse ?token", token=token["token"])]
        for w in streams:
            await w.at_version(6)
        assert (await c.delete(f"/encounters/{enc}/tokens/{token['id']}")).status_code == 204
        for w in streams:
            assert await w.ended(5) in ((4401, "token_revoked"), (200, "ended")), w.name
            assert (w.messages[-1]["type"], w.messages[-1]["code"]) == ("error", "token_revoked"), w.name
        for headers, params in [(player, {}), ({}, {"token": token["token"]})]:
            refused = await ws(b, enc, headers, **params)
            assert await refused.ended() == (4401, "token_invalid")
            async with httpx.AsyncClient(base_url=b.base) as bare:
                r = await bare.get(f"/encounters/{enc}/live", params={**params, "follow": "false"}, headers=headers)
                assert (r.status_code, r.json()["code"]) == (401, "token_invalid"), r.text


async def stalled_websocket(s: Served, enc: str, token: str) -> socket.socket:
    """A WebSocket client that opens the stream and never reads (its receive buffer is small)."""
    host, port = s.base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, (host, int(port)))
    await loop.sock_sendall(sock, (
        f"GET /encounters/{enc}/live HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {b64encode(urandom(16)).decode()}\r\n"
        f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(sock, 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


async def test_a_client_that_stops_reading_is_dropped_and_nobody_waits_for_it(database_url: str) -> None:
    """"a client that stops reading is disconnected without slowing anyone else": its outbox
    (8 batches here) fills and its socket stops taking data; after the send timeout (0.5 s
    here) it is dropped, its presence goes, and the reading client has had every event."""
    async with served(database_url, heartbeat_seconds=30, queue_size=8, send_timeout_seconds=0.5) as s:
        async with httpx.AsyncClient(base_url=s.base, timeout=30) as c:
            enc, mira, bandit = await started_fight(c)
            gm = {"Authorization": c.headers["Authorization"]}
            live = s.app.state.live
            stalled = await stalled_websocket(s, enc, token_of(gm))
            reader = await ws(s, enc, gm, "reader")
            await reader.at_version(6)
            assert len(live.streams) == 2
            turn = (await c.get(f"/encounters/{enc}")).json()["turn"]
            sent = 0
            while len(live.streams) == 2 and sent < 5000:  # until the stalled one's socket is full
                turn = (await command(c, enc, {"type": "EndTurn", "combatant_id": turn}))["state"]["turn"]
                sent += 1
            assert len(live.streams) == 1, "the stalled client was never dropped"
            for _ in range(3):  # and the fight goes on for the others
                turn = (await command(c, enc, {"type": "EndTurn", "combatant_id": turn}))["state"]["turn"]
            final = (await c.get(f"/encounters/{enc}")).json()
            await reader.at_version(final["version"])
            assert_in_order(reader, 1, final["version"])
            assert final["presence"]["roles"] == {"gm": 1, "player": 0, "spectator": 0}
            await reader.stop()
            stalled.close()


async def test_presence_shows_who_is_at_the_table(live: Any) -> None:
    """"Presence: the state shows which roles are connected (so the GM sees who is at the
    table)." The GM sees each connection; a player sees the count by role and whose players
    are there; nobody connected: no ``presence`` at all."""
    s, c = live
    enc, mira, bandit = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    assert "presence" not in (await c.get(f"/encounters/{enc}")).json()
    kess = await add(c, enc, "Kess")
    player = await mint(c, enc, "player", [mira])
    kess_player = await mint(c, enc, "player", [kess])
    spectator = await mint(c, enc, "spectator")
    gm_w = await ws(s, enc, gm, "gm")
    await gm_w.until(lambda w: w.state is not None)
    mira_w = await ws(s, enc, player, "mira")
    watch = await sse(s, enc, spectator, "overlay")
    await gm_w.until(lambda w: bool(w.of("presence")) and w.of("presence")[-1]["presence"]["roles"]
                     == {"gm": 1, "player": 1, "spectator": 1})

    seen = (await c.get(f"/encounters/{enc}")).json()["presence"]
    assert seen["roles"] == {"gm": 1, "player": 1, "spectator": 1}
    assert seen["combatants"] == [mira]
    assert {(x["role"], x["transport"]) for x in seen["connections"]} == {
        ("gm", "websocket"), ("player", "websocket"), ("spectator", "sse")}
    as_kess = (await c.get(f"/encounters/{enc}", headers=kess_player)).json()["presence"]
    assert as_kess == {"roles": {"gm": 1, "player": 1, "spectator": 1}, "combatants": [mira]}
    await mira_w.until(lambda w: w.state is not None)

    await mira_w.stop()  # the player leaves: the GM's stream says so
    await gm_w.until(lambda w: w.of("presence")[-1]["presence"]["roles"] == {"gm": 1, "player": 0, "spectator": 1})
    await watch.stop()
    await gm_w.stop()
    async with asyncio.timeout(5):
        while "presence" in (await c.get(f"/encounters/{enc}")).json():
            await asyncio.sleep(0.05)


async def test_stale_presence_rows_expire(live: Any, conn: Any) -> None:
    """A process that died leaves its rows: they are not shown once older than the TTL (three
    heartbeats), and the next refresh deletes them."""
    s, c = live
    enc, _, _ = await started_fight(c)
    gm_token = (await conn.fetchrow("SELECT id FROM tokens WHERE encounter_id = $1", uuid.UUID(enc)))["id"]
    await conn.execute(
        "INSERT INTO live_connections (id, encounter_id, token_id, role, transport, seen_at) "
        "VALUES ($1, $2, $3, 'gm', 'websocket', now() - interval '1 hour')", uuid.uuid4(), uuid.UUID(enc), gm_token)
    assert "presence" not in (await c.get(f"/encounters/{enc}")).json()
    await s.app.state.live.presence.refresh([])
    assert await conn.fetchval("SELECT count(*) FROM live_connections") == 0


async def test_who_is_connected_is_read_each_heartbeat_not_on_every_commit(database_url: str, conn: Any) -> None:
    """Woken by commits alone, a feed reads the new events and the tokens, not who is connected
    (building that for hundreds of streams on every commit was most of PostgreSQL's work under a
    live fight: bench/README.md); it reads it when told it changed, and each heartbeat: a
    connection another process keeps (no notification here) shows within a heartbeat while
    commits keep coming."""
    async with served(database_url, heartbeat_seconds=0.5) as s, \
            httpx.AsyncClient(base_url=s.base, timeout=30) as c:
        enc, mira, bandit = await started_fight(c)
        gm = {"Authorization": c.headers["Authorization"]}
        gm_w = await ws(s, enc, gm, "gm")
        await gm_w.until(lambda w: w.state is not None)
        # its own arrival shown (the wake-up of its presence row may come after the first state):
        # from here on every read of who is connected is counted
        await gm_w.until(lambda w: [m["presence"]["roles"]["gm"] for m in w.messages
                                    if m["type"] in ("state", "presence")][-1:] == [1])
        await asyncio.sleep(0.1)
        store = s.app.state.live.presence
        reads: list[bool] = []
        catch_up = store.catch_up

        async def counted(*args: Any) -> Any:
            reads.append(args[4])
            return await catch_up(*args)

        store.catch_up = counted
        token_id = await conn.fetchval("SELECT token_id FROM live_connections WHERE encounter_id = $1", uuid.UUID(enc))
        elsewhere = uuid.uuid4()
        await conn.execute(
            "INSERT INTO live_connections (id, encounter_id, token_id, role, transport) "
            "VALUES ($1, $2, $3, 'spectator', 'sse')", elsewhere, uuid.UUID(enc), token_id)
        started = asyncio.get_running_loop().time()
        turn, version, sent = mira, 6, 0
        async with asyncio.timeout(10):
            while not (gm_w.of("presence") and gm_w.of("presence")[-1]["presence"]["roles"]["spectator"] == 1):
                reply = await command(c, enc, {"type": "EndTurn", "combatant_id": turn})
                turn, version = reply["state"]["turn"], reply["version"]
                sent += 1
                await conn.execute("UPDATE live_connections SET seen_at = now() WHERE id = $1", elsewhere)
                await asyncio.sleep(0.02)
        took = asyncio.get_running_loop().time() - started
        assert took < 3 * 0.5 + 1, took  # within a heartbeat or so, not at the rows' expiry
        await gm_w.at_version(version)
        assert_in_order(gm_w, 1, version)
        assert reads.count(False) >= sent // 2, reads  # the commits' wake-ups did not read it
        assert 1 <= reads.count(True) <= took / 0.5 + 2, reads
        await gm_w.stop()


async def test_no_token_and_wrong_tokens_are_refused_on_both_transports(live: Any) -> None:
    """A WebSocket refusal is a message and a close code (4000 + the status: a browser sees no
    HTTP status); an SSE refusal is the problem itself."""
    s, c = live
    enc, _, _ = await started_fight(c)
    async with httpx.AsyncClient(base_url=s.base) as bare:
        for headers, params, status, code in [
            ({}, {}, 401, "token_required"),
            ({}, {"token": "frc_nope"}, 401, "token_invalid"),
            ({"Authorization": "Basic abc"}, {}, 401, "token_malformed"),
        ]:
            w = await ws(s, enc, headers, **params)
            assert await w.ended() == (4000 + status, code)
            assert (w.messages[0]["type"], w.messages[0]["code"], w.messages[0]["status"]) == ("error", code, status)
            r = await bare.get(f"/encounters/{enc}/live", params={**params, "follow": "false"}, headers=headers)
            assert (r.status_code, r.json()["code"]) == (status, code), r.text


async def test_an_idle_stream_gets_heartbeats_with_its_version(database_url: str) -> None:
    """"Heartbeats": a stream with nothing to send gets one every heartbeat (0.3 s here), with
    the version the client has, so a client tells a quiet fight from a dead connection."""
    async with served(database_url, heartbeat_seconds=0.3) as s, \
            httpx.AsyncClient(base_url=s.base, timeout=30) as c:
        enc, mira, _ = await started_fight(c)
        w = await ws(s, enc, {"Authorization": c.headers["Authorization"]})
        await w.until(lambda w: len(w.of("heartbeat")) >= 2)
        assert {h["version"] for h in w.of("heartbeat")} == {6}
        await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
        await w.until(lambda w: any(h["version"] == 7 for h in w.of("heartbeat")))
        await w.stop()


async def test_the_next_moves_come_live_patched_and_equal_what_get_answers(live: Any) -> None:
    """Issue 37: "The same content is part of the live stream (patched like the state)". Each
    viewer's stream keeps the next moves ``GET /encounters/{id}/actions`` answers it, whole once
    and then as patches; a change nobody's moves see sends nothing."""
    s, c = live
    enc, mira, bandit = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    player = await mint(c, enc, "player", [mira])
    watchers = [(await ws(s, enc, gm, "gm"), gm), (await ws(s, enc, player, "player"), player)]

    def plain(moves: dict[str, Any] | None) -> Any:
        return None if moves is None else {k: v for k, v in moves.items() if k != "version"}

    for body in ({"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"},
                 {"type": "EndTurn", "combatant_id": mira}, {"type": "EndTurn", "combatant_id": bandit}):
        version = (await command(c, enc, body))["version"]
        for w, who in watchers:
            await w.at_version(version)
            served_moves = (await c.get(f"/encounters/{enc}/actions", headers=who)).json()
            await w.until(lambda w, m=served_moves: plain(w.actions) == plain(m))
    player_w = watchers[1][0]
    assert len(player_w.of("actions")) == 1 and player_w.of("actions_patch")
    # the player's turn came back: their EndTurn is offered, live
    assert {"type": "EndTurn", "combatant_id": mira} in [a["command"] for a in player_w.actions["actions"]]
    for w, _ in watchers:
        await w.stop()


async def test_get_actions_shares_the_next_moves_the_live_feed_worked_out(live: Any, monkeypatch: Any) -> None:
    """The next moves of one version and viewer are one answer: the live feed's (sent as
    ``actions``) and ``GET /actions``'s are worked out once in a process (issue 43: they were
    worked out for every viewer on every commit, and again for every ``GET /actions``)."""
    import server.http.api as api
    import server.live.feed as feed

    s, c = live
    enc, mira, _ = await started_fight(c)
    gm = {"Authorization": c.headers["Authorization"]}
    kess = await mint(c, enc, "player", [mira])
    gm_w, kess_w = await ws(s, enc, gm, "gm"), await ws(s, enc, kess, "kess")
    await gm_w.until(lambda w: bool(w.of("actions")))
    await kess_w.until(lambda w: bool(w.of("actions")))
    worked: list[str] = []

    def counted(module: Any) -> Any:
        real = module.actions_for

        def actions_for(ruleset: Any, state: Any, viewer: Any) -> Any:
            worked.append(viewer.role)
            return real(ruleset, state, viewer)
        return actions_for

    monkeypatch.setattr(feed, "actions_for", counted(feed))
    monkeypatch.setattr(api, "actions_for", counted(api))
    reply = await command(c, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    for w in (gm_w, kess_w):  # the next moves are worked out with each stream's step to the state
        await w.at_version(reply["version"])
    assert sorted(worked) == ["gm", "player"]  # once for each viewer, by the feed
    for headers in (gm, kess):
        answer = (await c.get(f"/encounters/{enc}/actions", headers=headers)).json()
        assert answer["version"] == reply["version"]
    assert sorted(worked) == ["gm", "player"]  # not again
    await gm_w.stop()
    await kess_w.stop()
