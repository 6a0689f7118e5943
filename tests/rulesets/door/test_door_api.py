"""Hold the Door served end to end against PostgreSQL: a ruleset defined only in the tests
plugs into the app through its registry alone, and its state and events are served through
the command, state and event paths, filtered for a player by its own rules."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

import httpx

from domain.core.ruleset import Registry
from domain.places_of_power.ruleset import PlacesOfPower
from server.app import create_app
from server.settings import Settings
from tests.integration.app_client import app_client
from tests.integration.fight import command, mint
from tests.rulesets.door.ruleset import Door


def door_client(database_url: str) -> AbstractAsyncContextManager[httpx.AsyncClient]:
    return app_client(database_url, registry=Registry([PlacesOfPower(), Door()]))


async def add(client: httpx.AsyncClient, enc: str, cid: str, controller: str, sheet: dict) -> None:
    await command(client, enc, {
        "type": "AddCombatant", "combatant_id": cid, "name": cid.title(),
        "side": "party" if controller == "player" else "enemies", "controller": controller, "sheet": sheet})


async def test_a_door_fight_through_the_server(database_url: str) -> None:
    async with door_client(database_url) as client:
        listed = (await client.get("/rulesets")).json()
        assert {r["id"] for r in listed} >= {"door", "places-of-power"}

        r = await client.post("/encounters", json={"ruleset": "door", "name": "At the door", "dice_policy": "mixed"})
        assert r.status_code == 201, r.text
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        await add(client, enc, "hero", "player", {"might": 1, "guard": 2, "hits": 6})
        await add(client, enc, "troll", "gm", {"might": 0, "guard": 1, "hits": 2})
        rolled = await command(client, enc, {"type": "RollInitiative", "dice": [7, 5, 10, 4, 3]})
        troll_roll = next(x for x in rolled["events"][0]["data"]["rolls"] if x["who"] == "troll")
        assert [d["face"] for d in [troll_roll["die"], *troll_roll["more_dice"]]] == [10, 4, 3]
        started = await command(client, enc, {"type": "StartEncounter"})
        assert started["state"]["combatants"]["hero"]["resources"] == {"actions": 2, "reaction": 1}
        hero = await mint(client, enc, "player", ["hero"])

        # the declare phase: the player declares for their own combatant, lowest initiative first
        r = await client.post(f"/encounters/{enc}/commands", headers=hero,
                              json={"type": "DoorDeclare", "combatant_id": "hero", "action": "strike", "target": "troll"})
        assert r.status_code == 200, r.text
        r = await client.post(f"/encounters/{enc}/commands", headers=hero,
                              json={"type": "DoorDeclare", "combatant_id": "troll", "action": "brace"})
        assert r.status_code == 403, r.text  # not the player's combatant
        await command(client, enc, {"type": "DoorDeclare", "combatant_id": "troll", "action": "brace"})
        await command(client, enc, {"type": "DoorResolve", "combatant_id": "troll"})
        await command(client, enc, {"type": "EndTurn", "combatant_id": "troll"})

        # the hero's strike waits in a reaction window; the GM answers for the troll
        opened = (await client.post(f"/encounters/{enc}/commands", headers=hero,
                                    json={"type": "DoorResolve", "combatant_id": "hero"})).json()
        window = opened["events"][0]["data"]["window"]["id"]
        r = await client.post(f"/encounters/{enc}/commands", headers=hero,
                              json={"type": "EndTurn", "combatant_id": "hero"})
        assert r.status_code == 422 and r.json()["code"] == "door_resolve_first", r.text
        parried = await command(client, enc, {"type": "React", "combatant_id": "troll", "window": window,
                                              "reaction": "parry", "dice": [5]})
        assert [e["type"] for e in parried["events"]] == ["DoorParried", "DoorStrikeRolled"]
        assert parried["events"][1]["data"]["damage"] == 2

        # the end of the round rolls the troll's bleeding and appends it before the new round
        ended = (await client.post(f"/encounters/{enc}/commands", headers=hero,
                                   json={"type": "EndTurn", "combatant_id": "hero", "dice": [2]})).json()
        assert [e["type"] for e in ended["events"]] == ["TurnEnded", "DoorBled", "RoundStarted"]

        # read paths: the state and the events, for the GM and for the player
        gm_state = (await client.get(f"/encounters/{enc}")).json()
        assert gm_state["round"] == 2 and gm_state["rules"]["hits_lost"] == {"troll": 3}
        player_state = (await client.get(f"/encounters/{enc}", headers=hero)).json()
        assert player_state["rules"]["hits_lost"] == {"troll": 3}
        assert player_state["combatants"]["troll"]["sheet"] is None  # an NPC's sheet is the GM's
        events = (await client.get(f"/encounters/{enc}/events", headers=hero)).json()
        types = [e["type"] for e in (events["events"] if isinstance(events, dict) else events)]
        assert "DoorBled" in types and "ReactionsOpened" in types


async def test_a_door_fight_reaches_a_players_live_stream(database_url: str) -> None:
    """The live feed (a real server: WebSocket and SSE) sends the door's events and its state,
    filtered for the player by the door's own rules."""
    import asyncio

    import uvicorn

    from tests.integration.live import live_url, watch_sse, watch_ws

    app = create_app(database_url, Settings.from_env(), registry=Registry([PlacesOfPower(), Door()]))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=2))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    try:
        async with httpx.AsyncClient(base_url=base) as client:
            r = await client.post("/encounters", json={"ruleset": "door", "name": "Live door", "dice_policy": "mixed"})
            enc = r.json()["encounter_id"]
            client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
            await add(client, enc, "hero", "player", {"might": 1, "guard": 2, "hits": 6})
            await add(client, enc, "troll", "gm", {"might": 0, "guard": 1, "hits": 2})
            await command(client, enc, {"type": "RollInitiative", "dice": [7, 5, 10, 4, 3]})
            hero = await mint(client, enc, "player", ["hero"])
            watching = await watch_ws(live_url(base, enc, ws=True), "ws", hero)
            started = await command(client, enc, {"type": "StartEncounter"})
            await command(client, enc, {"type": "DoorDeclare", "combatant_id": "hero", "action": "wait"})
            last = await command(client, enc, {"type": "DoorDeclare", "combatant_id": "troll", "action": "brace"})
            await watching.at_version(last["version"])
            types = [m["event"]["type"] for m in watching.of("event")]
            assert types[-3:] == ["RoundStarted", "DoorActionDeclared", "DoorActionDeclared"]
            assert watching.state["state"]["rules"]["declared"] == {"hero": {"action": "wait", "target": None},
                                                                   "troll": {"action": "brace", "target": None}}
            assert watching.state["state"]["combatants"]["troll"]["sheet"] is None
            assert watching.state["state"]["combatants"]["hero"]["resources"] == {"actions": 2, "reaction": 1}
            await watching.stop()
            once = await watch_sse(live_url(base, enc, ws=False, after=started["version"], follow="false"), "sse", hero)
            assert await once.ended() == (200, "ended")
            assert [m["type"] for m in once.messages if m["type"] not in ("actions", "actions_patch")][-1] == "state"
            assert "DoorActionDeclared" in once.text
    finally:
        server.should_exit = True
        await task
