"""Live streams across two real ``fracas serve`` processes sharing one PostgreSQL (issue 8).

"Two server processes on two ports, one PostgreSQL: clients on both, commands on both, every
client receives every event it may see, in version order, no duplicates, no gaps; a client
that disconnects mid-fight and resumes has the same final state."
"A hidden combatant's events never reach a player's stream."
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import httpx
import pytest

from tests.e2e.test_cli import serving
from tests.integration.live import Watcher, live_url, watch_sse, watch_ws

HIDDEN = "Lurking Assassin"


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "FRACAS_LIVE_HEARTBEAT": "2"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str],
               expect: int = 200) -> Any:
    r = await client.post(url, json=body, headers=headers)
    assert r.status_code == expect, r.text
    return r.json()


def assert_every_event_once_in_order(w: Watcher, first: int, last: int) -> None:
    assert w.versions == list(range(first, last + 1)), (w.name, w.versions)
    versions = [m["version"] for m in w.messages]
    assert versions == sorted(versions), w.name


async def test_two_processes_one_fight_every_client_sees_every_event_in_order(env: dict[str, str]) -> None:
    with serving(env) as (a, proc_a), serving(env) as (b, proc_b):
        async with httpx.AsyncClient(timeout=30) as http:
            hosts = itertools.cycle([a, b])  # every request goes to the other process than the last
            opened = await post(http, a + "/encounters",
                                {"ruleset": "places-of-power", "name": "Two hosts", "dice_policy": "mixed"}, {}, 201)
            enc = opened["encounter_id"]
            gm = bearer(opened["gm_token"]["token"])
            ids: dict[str, str] = {}
            for name, controller, hidden in [("Mira", "player", False), ("Kess", "player", False),
                                             ("Bandit", "gm", False), (HIDDEN, "gm", True)]:
                added = await post(http, f"{next(hosts)}/encounters/{enc}/combatants", {
                    "name": name, "side": "party" if controller == "player" else "enemies",
                    "controller": controller, "hidden": hidden, "sheet": {"initiative_modifier": 1}}, gm, 201)
                ids[name] = added["events"][0]["data"]["combatant_id"]
            tokens = {"GM": gm}
            for name in ("Mira", "Kess"):
                minted = await post(http, f"{next(hosts)}/encounters/{enc}/tokens",
                                    {"role": "player", "combatant_ids": [ids[name]]}, gm, 201)
                tokens[name] = bearer(minted["token"])
            tokens["overlay"] = bearer((await post(http, f"{b}/encounters/{enc}/tokens", {"role": "spectator"}, gm,
                                                   201))["token"])

            # clients on both processes, by WebSocket and by SSE (token in the query, as a browser sends it)
            secret = tokens["GM"]["Authorization"].removeprefix("Bearer ")
            watchers = {
                "gm@a": await watch_ws(live_url(a, enc, ws=True, token=secret), "gm@a"),  # as a browser does
                "mira@b": await watch_ws(live_url(b, enc, ws=True), "mira@b", tokens["Mira"]),
                "kess@a(sse)": await watch_sse(live_url(a, enc, ws=False,
                                                        token=tokens["Kess"]["Authorization"][7:]), "kess@a(sse)"),
                "overlay@b": await watch_ws(live_url(b, enc, ws=True), "overlay@b", tokens["overlay"]),
                "gm@b(sse)": await watch_sse(live_url(b, enc, ws=False), "gm@b(sse)", tokens["GM"]),
            }
            dropper = await watch_ws(live_url(a, enc, ws=True), "dropper@a", tokens["Mira"])

            async def send(body: dict[str, Any], who: str = "GM") -> Any:
                return await post(http, f"{next(hosts)}/encounters/{enc}/commands", body, tokens[who])

            def token_for(combatant: str) -> str:
                return next((n for n in ("Mira", "Kess") if ids[n] == combatant), "GM")

            await send({"type": "RollInitiative", "dice": [9, 5, 7]})
            state = (await send({"type": "StartEncounter"}))["state"]
            dropped_at = None
            for step in range(24):  # turns on both processes: each acts once, then ends its turn
                turn = state["turn"]
                who = token_for(turn)
                if step % 2 == 0 and state["combatants"][turn]["action_points"] >= 1:
                    state = (await send({"type": "TakeAction", "combatant_id": turn, "action": "NotchArrow"},
                                        who))["state"]
                state = (await send({"type": "EndTurn", "combatant_id": turn}, who))["state"]
                if step == 6:  # a phone loses its connection mid-fight
                    await dropper.until(lambda w: w.state is not None and w.state["version"] >= state["version"])
                    dropped_at = dropper.state["version"]  # type: ignore[index]
                    await dropper.stop()
                if step == 14:  # ... and comes back, on the other process, after its last version
                    watchers["dropper@b"] = await watch_ws(
                        live_url(b, enc, ws=True, after=dropped_at), "dropper@b", tokens["Mira"])
            final = (await send({"type": "EndEncounter"}))["version"]

            for w in watchers.values():
                await w.at_version(final, timeout=30)
            for name, w in watchers.items():
                start = dropped_at + 1 if name == "dropper@b" else 1
                assert_every_event_once_in_order(w, start, final)
            assert_every_event_once_in_order(dropper, 1, dropper.versions[-1])
            assert dropper.versions + watchers["dropper@b"].versions == list(range(1, final + 1))

            # the resumed client ends with the same state as the one that never left, and as the API
            mira_view = (await http.get(f"{a}/encounters/{enc}", headers=tokens["Mira"])).json()
            mira_view.pop("presence", None)
            for name in ("mira@b", "dropper@b"):
                assert watchers[name].state["state"] == mira_view, name  # type: ignore[index]
            gm_view = (await http.get(f"{b}/encounters/{enc}", headers=gm)).json()
            gm_view.pop("presence", None)
            assert watchers["gm@a"].state["state"] == watchers["gm@b(sse)"].state["state"] == gm_view  # type: ignore[index]

            # the hidden combatant: everywhere for the GM, nowhere for players and the overlay
            hidden_id = ids[HIDDEN]
            about = {m["version"] for m in watchers["gm@a"].of("event")  # events about it (it acts, its turn ends)
                     if hidden_id in m["event"]["data"].values()}
            assert about, "the hidden NPC did things"
            assert HIDDEN in watchers["gm@a"].text
            for name in ("mira@b", "kess@a(sse)", "overlay@b", "dropper@b"):
                w = watchers[name]
                assert hidden_id not in w.text and HIDDEN not in w.text, name
                redacted = {m["version"] for m in w.of("event") if m["event"]["type"] == "Redacted"}
                assert redacted == {v for v in about if v in set(w.versions)}, name
            for w in [*watchers.values(), dropper]:
                await w.stop()
    # the token sent in the query never reaches the logs (uvicorn logs each WebSocket's path)
    outs = [proc.stdout.read() if proc.stdout else "" for proc in (proc_a, proc_b)]
    assert "/live?token=[redacted]" in outs[0]
    assert all(secret not in out for out in outs)
