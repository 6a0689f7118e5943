"""The leak test of issue 3: hidden things leave no trace in what players and spectators read.

"A leak test: an encounter with a hidden combatant and secret GM rolls; every read path as
a player and as a spectator; no trace of the hidden things in any response body."

The table: two players (Mira, Kess), a visible NPC whose sheet is the GM's (the Ogre
Brute, initiative modifier 7) and a hidden NPC (the Lurking Assassin, modifier 3). The GM
rolls initiative in secret with a reported 11 (11 + 7 = 18); Mira rolls 12 (+ 2 = 14),
Kess 3 (+ 1 = 4). Everyone is below the GM, so the order is Ogre, Assassin, Mira, Kess.
The Assassin takes a turn of its own, then Mira's player acts with their own token.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.integration.fight import POP, add, command, mint, open_encounter
from tests.integration.read_models import until_projected

HIDDEN_NAME = "Lurking Assassin"
OGRE_SHEET = '"initiative_modifier":7'  # the visible NPC's sheet, as the JSON bodies spell it
ASSASSIN_SHEET = '"initiative_modifier":3'
GM_FACE, GM_TOTAL = 11, 18  # the secret GM roll: a reported 11, + 7
SECRET_ROLL = ('"face":11', '"total":18')  # no other die shows 11, no other total is 18


def compact(r: httpx.Response) -> str:
    """A body as compact JSON: the stored events come back from PostgreSQL's jsonb as
    ``{"face": 11}``, the filtered ones as ``{"face":11}``; the checks see one spelling."""
    if r.headers.get("content-type", "").startswith(("text/plain", "image/svg+xml")):
        return r.text
    if r.headers.get("content-type", "").startswith("text/event-stream"):  # the live stream: its data lines
        return "\n".join(json.dumps(json.loads(line[6:]), separators=(",", ":"), ensure_ascii=False)
                         for line in r.text.splitlines() if line.startswith("data: "))
    return json.dumps(r.json(), separators=(",", ":"), ensure_ascii=False) if r.content else ""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Ambush:
    enc: str
    gm: dict[str, str]
    player: dict[str, str]  # Mira's player
    spectator: dict[str, str]
    mira: str
    kess: str
    ogre: str
    assassin: str
    initiative_version: int
    replies: list[httpx.Response] = field(default_factory=list)  # what Mira's player was answered


async def post(client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str],
               expect: int = 200) -> httpx.Response:
    r = await client.post(url, json=body, headers=headers)
    assert r.status_code == expect, r.text
    return r


async def ambush(client: httpx.AsyncClient) -> Ambush:
    """The table above, the fight begun, the Ogre's turn over: it is the Assassin's turn."""
    r = await post(client, "/encounters", {"ruleset": POP, "name": "Ambush at the ford", "dice_policy": "mixed"},
                   {}, 201)
    enc, gm = r.json()["encounter_id"], bearer(r.json()["gm_token"]["token"])
    ids = {}
    for name, controller, modifier, hidden in [
        ("Mira", "player", 2, False), ("Kess", "player", 1, False),
        ("Ogre Brute", "gm", 7, False), (HIDDEN_NAME, "gm", 3, True),
    ]:
        r = await post(client, f"/encounters/{enc}/combatants", {
            "name": name, "side": "party" if controller == "player" else "enemies", "controller": controller,
            "sheet": {"initiative_modifier": modifier, "skills": {"Brawling": "D6"}}, "hidden": hidden,
        }, gm, 201)
        ids[name] = r.json()["events"][0]["data"]["combatant_id"]  # the GM's reply names the hidden one
    mira, kess, ogre, assassin = ids["Mira"], ids["Kess"], ids["Ogre Brute"], ids[HIDDEN_NAME]
    player = bearer((await post(client, f"/encounters/{enc}/tokens",
                                {"role": "player", "combatant_ids": [mira]}, gm, 201)).json()["token"])
    spectator = bearer((await post(client, f"/encounters/{enc}/tokens", {"role": "spectator"}, gm, 201)).json()["token"])

    commands = f"/encounters/{enc}/commands"
    rolled = (await post(client, commands, {"type": "RollInitiative", "secret": True, "dice": [12, 3, GM_FACE]},
                         gm)).json()
    initiative = rolled["events"][0]
    assert initiative["type"] == "InitiativeRolled" and initiative["data"]["secret"] is True
    npcs = next(x for x in initiative["data"]["rolls"] if x["who"] == "npcs")
    assert (npcs["die"]["face"], npcs["modifier"], npcs["total"], npcs["secret"]) == (GM_FACE, 7, GM_TOTAL, True)
    started = (await post(client, commands, {"type": "StartEncounter"}, gm)).json()["state"]
    assert started["order"] == [ogre, assassin, mira, kess]
    ended = (await post(client, commands, {"type": "EndTurn", "combatant_id": ogre}, gm)).json()["state"]
    assert ended["turn"] == assassin
    return Ambush(enc=enc, gm=gm, player=player, spectator=spectator, mira=mira, kess=kess, ogre=ogre,
                  assassin=assassin, initiative_version=initiative["version"])


async def read_everything(client: httpx.AsyncClient, a: Ambush, headers: dict[str, str]) -> dict[str, Any]:
    """Every read path of the API, as ``headers`` sees it: the state, the events (every page,
    two at a time, and in one page), the list of encounters, and the answers of the routes
    that are the GM's alone. Returns the parsed state and events and every response."""
    enc = f"/encounters/{a.enc}"
    responses: list[httpx.Response] = []

    r = await client.get(enc, headers=headers)
    assert r.status_code == 200, r.text
    responses.append(r)
    state = r.json()

    events: list[dict[str, Any]] = []
    after, pages = 0, 0
    while True:
        r = await client.get(f"{enc}/events", params={"after": after, "limit": 2}, headers=headers)
        assert r.status_code == 200, r.text
        responses.append(r)
        page = r.json()
        events += page["events"]
        after, pages = page["next_after"], pages + 1
        if not page["has_more"]:
            break
    assert pages > 3  # the paging was exercised
    r = await client.get(f"{enc}/events", headers=headers)
    assert r.status_code == 200 and not r.json()["has_more"]
    assert r.json()["events"] == events  # one page or many: the same history
    responses.append(r)

    r = await client.get("/encounters", headers=headers)
    assert r.status_code == 200
    responses.append(r)

    # the live stream (SSE; follow=false ends it once caught up), from the start and resumed
    for after in (0, 4):
        r = await client.get(f"{enc}/live", params={"after": after, "follow": "false"}, headers=headers)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream"), r.text
        responses.append(r)

    await until_projected(client, a.enc, a.gm)  # the read models have read all there is so far
    for path in ("summary", "statistics"):
        r = await client.get(f"{enc}/{path}", headers=headers)
        assert r.status_code == 200, r.text
        responses.append(r)

    # the history: the state as it was at every version (filtered as of that version), the
    # current one, and the readable log as JSON and as plain text
    for version in [None, *range(1, state["version"] + 1)]:
        r = await client.get(f"{enc}/state", params={} if version is None else {"at": version}, headers=headers)
        assert r.status_code == 200, r.text
        responses.append(r)
    for query in ({}, {"format": "text"}):
        r = await client.get(f"{enc}/log", params=query, headers=headers)
        assert r.status_code == 200, r.text
        responses.append(r)

    r = await client.get(f"{enc}/audit", headers=headers)  # the audit of the whole log, hidden events included
    assert r.status_code == 200 and r.json()["ok"] is True, r.text
    responses.append(r)

    if headers is not a.gm:  # the routes that are the GM's alone: their refusals are answers too
        for method, path, body in [
            ("GET", "/tokens", None),
            ("POST", "/tokens", {"role": "spectator"}),
            ("POST", "/combatants", {"name": "Wolf", "side": "enemies", "controller": "gm"}),
            ("DELETE", f"/tokens/{uuid.uuid4()}", None),
            ("POST", "/commands", {"type": "RevealCombatant", "combatant_id": a.assassin}),
        ]:
            r = await client.request(method, enc + path, json=body, headers=headers)
            assert r.status_code == 403, r.text
            responses.append(r)
    return {"state": state, "events": events, "responses": responses}


def assert_no_trace(responses: list[httpx.Response], a: Ambush) -> None:
    """No body names the hidden NPC (by id or name), shows an NPC's sheet or the secret roll."""
    for r in responses:
        where, text = f"{r.request.method} {r.request.url}", compact(r)
        assert a.assassin not in r.text, f"the hidden NPC's id in {where}: {text}"
        assert HIDDEN_NAME not in text, f"the hidden NPC's name in {where}: {text}"
        for sheet in (OGRE_SHEET, ASSASSIN_SHEET):
            assert sheet not in text, f"an NPC's sheet in {where}: {text}"
        for secret in SECRET_ROLL:
            assert secret not in text, f"the secret GM roll in {where}: {text}"


def names_assassin(event: dict[str, Any], a: Ambush) -> bool:
    return any(v == a.assassin for k, v in event["data"].items() if k != "type")


def assert_filtered(seen: dict[str, Any], gm: dict[str, Any], a: Ambush) -> None:
    """The state and events a player or spectator got, against what the GM got."""
    state = seen["state"]
    # "a player or spectator sees a hidden combatant nowhere (state, events, initiative order, counts)"
    assert set(state["combatants"]) == {a.mira, a.kess, a.ogre}
    assert len(gm["state"]["combatants"]) == 4
    assert a.assassin not in state["order"] and a.assassin not in state["acted"]
    assert state["turn"] != a.assassin
    assert "combatants_added" not in state and "rolls_used" not in state
    assert all("seq" not in c for c in state["combatants"].values())
    # "and sees an NPC's name, visible condition and wound level, not its sheet"
    assert state["combatants"][a.ogre]["name"] == "Ogre Brute"
    # "sees an NPC's name, visible condition and wound level, not its sheet"
    assert state["combatants"][a.ogre]["sheet"] == {"hits": 0, "conditions": [], "prone": False, "dead": False, "injuries": 0,
                                                      "statuses": []}
    assert state["combatants"][a.mira]["sheet"]["initiative_modifier"] == 2
    # "GM rolls can be secret: ... players and spectators get it redacted until the GM reveals it"
    assert state["group_initiative"] == {}

    # events about the hidden NPC are there, as Redacted, with their versions: no gaps
    events, gm_events = seen["events"], gm["events"]
    assert [e["version"] for e in events] == [e["version"] for e in gm_events] == list(range(1, len(events) + 1))
    about = {e["version"] for e in gm_events if names_assassin(e, a)}
    assert {"CombatantAdded", "ActionTaken", "TurnEnded"} <= {
        e["type"] for e in gm_events if e["version"] in about}
    for e, g in zip(events, gm_events):
        if e["version"] in about:
            assert (e["type"], e["data"], e["metadata"]) == ("Redacted", {}, {}), e
        else:
            assert e["type"] == g["type"] and e["event_id"] == g["event_id"], e

    # the initiative event: the players' own rolls stay, the GM's secret one is redacted
    rolled = next(e for e in events if e["version"] == a.initiative_version)
    assert rolled["type"] == "InitiativeRolled" and rolled["data"]["secret"] is True
    rolls = {r["who"]: r for r in rolled["data"]["rolls"]}
    assert rolls["npcs"] == {"who": "npcs", "secret": True}
    assert (rolls[a.mira]["die"]["face"], rolls[a.mira]["total"]) == (12, 14)
    assert (rolls[a.kess]["die"]["face"], rolls[a.kess]["total"]) == (3, 4)
    assert rolled["data"]["order"] == [a.ogre, a.mira, a.kess]
    # and the combatant events of the visible NPC carry no sheet
    ogre_added = next(e for e in events if e["type"] == "CombatantAdded" and e["data"]["combatant_id"] == a.ogre)
    assert ogre_added["data"]["sheet"] == {"hits": 0, "conditions": [], "prone": False, "dead": False, "injuries": 0,
                                                      "statuses": []}
    assert ogre_added["data"]["name"] == "Ogre Brute"


def assert_gm_sees_it_all(gm: dict[str, Any], a: Ambush) -> None:
    """The GM, on the same paths, gets everything: the test looks for things that exist."""
    text = "".join(compact(r) for r in gm["responses"])
    for trace in (a.assassin, HIDDEN_NAME, OGRE_SHEET, ASSASSIN_SHEET, *SECRET_ROLL):
        assert trace in text, trace
    state = gm["state"]
    assert state["combatants"][a.assassin]["hidden"] is True
    assert state["combatants"][a.ogre]["sheet"]["initiative_modifier"] == 7
    assert state["group_initiative"] == {"npcs": GM_TOTAL}
    assert state["combatants_added"] == 4
    assert "Redacted" not in {e["type"] for e in gm["events"]}
    assert [e["type"] for e in gm["events"] if names_assassin(e, a)] == [
        "CombatantAdded", "ActionTaken", "TurnEnded"]


async def test_hidden_things_leave_no_trace_on_any_read_path(client: httpx.AsyncClient) -> None:
    """"Combatants can be hidden (an ambush) and NPC sheets are the GM's: a player or
    spectator sees a hidden combatant nowhere (state, events, initiative order, counts), and
    sees an NPC's name, visible condition and wound level, not its sheet."
    "GM rolls can be secret: the event is stored whole, but players and spectators get it
    redacted until the GM reveals it."
    "The filtering happens on the server, for every read path"."""
    a = await ambush(client)
    commands = f"/encounters/{a.enc}/commands"

    # while it is the hidden NPC's turn, nobody else sees whose turn it is
    during = {who: await read_everything(client, a, h) for who, h in [("player", a.player), ("spectator", a.spectator)]}
    for seen in during.values():
        assert seen["state"]["turn"] is None
        assert_no_trace(seen["responses"], a)

    # the hidden NPC acts, so there are events about it
    await post(client, commands, {"type": "TakeAction", "combatant_id": a.assassin, "action": "NotchArrow"}, a.gm)
    await post(client, commands, {"type": "EndTurn", "combatant_id": a.assassin}, a.gm)

    # Mira's player acts with their own token; every reply they get is filtered too
    a.replies.append(await post(client, commands, {"type": "TakeAction", "combatant_id": a.mira,
                                                   "action": "TakeCover"}, a.player))
    a.replies.append(await post(client, commands, {"type": "EndTurn", "combatant_id": a.mira}, a.player))
    refused = await post(client, commands, {"type": "TakeAction", "combatant_id": a.mira, "action": "NotchArrow"},
                         a.player, 422)
    assert refused.json()["code"] == "not_your_turn"  # it is Kess's turn now
    a.replies.append(refused)
    for r in a.replies[:2]:
        reply = r.json()
        assert set(reply["state"]["combatants"]) == {a.mira, a.kess, a.ogre}
        assert reply["state"]["order"] == [a.ogre, a.mira, a.kess]
    assert_no_trace(a.replies, a)
    spectator_write = await post(client, commands, {"type": "EndTurn", "combatant_id": a.kess}, a.spectator, 403)
    assert_no_trace([spectator_write], a)

    gm = await read_everything(client, a, a.gm)
    assert_gm_sees_it_all(gm, a)
    for who, headers in [("player", a.player), ("spectator", a.spectator)]:
        seen = await read_everything(client, a, headers)
        assert_no_trace(seen["responses"], a)
        assert_filtered(seen, gm, a)

    # "until the GM reveals it": the hidden NPC first ...
    await post(client, commands, {"type": "RevealCombatant", "combatant_id": a.assassin}, a.gm)
    gm = await read_everything(client, a, a.gm)
    for headers in (a.player, a.spectator):
        seen = await read_everything(client, a, headers)
        state = seen["state"]
        assert set(state["combatants"]) == {a.mira, a.kess, a.ogre, a.assassin}
        assert state["combatants"][a.assassin]["name"] == HIDDEN_NAME
        assert state["combatants"][a.assassin]["sheet"] == {"hits": 0, "conditions": [], "prone": False, "dead": False, "injuries": 0,
                                                      "statuses": []}  # the rest is the GM's
        assert state["order"] == [a.ogre, a.assassin, a.mira, a.kess]
        assert state["group_initiative"] == {}  # the roll is still secret
        assert [e["type"] for e in seen["events"]] == [e["type"] for e in gm["events"]]  # its history too
        assert [e["type"] for e in seen["events"] if names_assassin(e, a)] == [
            "CombatantAdded", "ActionTaken", "TurnEnded", "CombatantRevealed"]
        rolled = next(e for e in seen["events"] if e["version"] == a.initiative_version)
        assert {"who": "npcs", "secret": True} in rolled["data"]["rolls"]
        for r in seen["responses"]:
            for secret in (*SECRET_ROLL, OGRE_SHEET, ASSASSIN_SHEET):
                assert secret not in compact(r), secret

    # ... then the secret roll
    await post(client, commands, {"type": "RevealRoll", "version": a.initiative_version}, a.gm)
    for headers in (a.player, a.spectator):
        seen = await read_everything(client, a, headers)
        assert seen["state"]["group_initiative"] == {"npcs": GM_TOTAL}
        rolled = next(e for e in seen["events"] if e["version"] == a.initiative_version)
        npcs = next(x for x in rolled["data"]["rolls"] if x["who"] == "npcs")
        assert (npcs["die"]["face"], npcs["total"]) == (GM_FACE, GM_TOTAL)
        assert "Redacted" not in {e["type"] for e in seen["events"]}
        for r in seen["responses"]:
            for sheet in (OGRE_SHEET, ASSASSIN_SHEET):
                assert sheet not in compact(r), sheet


async def test_a_refusal_does_not_name_the_hidden_combatant_whose_turn_it_is(client: httpx.AsyncClient) -> None:
    """"no client may see what its role must not see" -- a refused command is a read path too:
    a player who acts out of turn while the hidden NPC has its turn must not learn its name
    or id from the refusal."""
    a = await ambush(client)
    commands = f"/encounters/{a.enc}/commands"
    for body in ({"type": "TakeAction", "combatant_id": a.mira, "action": "NotchArrow"},
                 {"type": "EndTurn", "combatant_id": a.mira}):
        r = await post(client, commands, body, a.player, 422)
        assert r.json()["code"] == "not_your_turn"
        assert_no_trace([r], a)


async def test_initiative_tells_nothing_of_hidden_npcs(client) -> None:
    """Issue 16: "With every NPC hidden, RollInitiative still shows players {"who": "npcs",
    "secret": true} and the log "the GM for the NPCs in secret"; the GM's roll being forced
    secret whenever an NPC is hidden is itself a tell." -- "Initiative and presence tell nothing
    about combatants hidden from the viewer." The GM's modifier is a value off an NPC's sheet,
    which players never see; so a roll is secret only when the GM asks."""
    enc = await open_encounter(client, dice_policy="mixed")
    mira = await add(client, enc, "Mira")
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True,
        "sheet": {"initiative_modifier": 9}})
    assert r.status_code == 201
    rolled = await command(client, enc, {"type": "RollInitiative", "dice": [5, 2]})
    assert rolled["events"][0]["data"]["secret"] is False  # not forced
    as_player = await mint(client, enc, "player", [mira])
    events = (await client.get(f"/encounters/{enc}/events", headers=as_player)).json()["events"]
    initiative = next(e for e in events if e["type"] == "InitiativeRolled")
    assert [r["who"] for r in initiative["data"]["rolls"]] == [mira]  # every NPC hidden: no roll for them
    assert initiative["data"]["secret"] is False
    state = (await client.get(f"/encounters/{enc}", headers=as_player)).json()
    assert state["group_initiative"] == {}
    log = (await client.get(f"/encounters/{enc}/log", params={"format": "text"}, headers=as_player)).text
    assert "NPC" not in log and "secret" not in log, log

    # a visible NPC joins: the table sees the GM's die and total, never the modifier (the hidden
    # Assassin's 9, the best, is in it: the total alone tells players nothing they can place)
    await add(client, enc, "Ogre", controller="gm", modifier=1)
    await command(client, enc, {"type": "RollInitiative", "dice": [5, 2]})
    events = (await client.get(f"/encounters/{enc}/events", headers=as_player)).json()["events"]
    initiative = [e for e in events if e["type"] == "InitiativeRolled"][-1]
    npcs = next(r for r in initiative["data"]["rolls"] if r["who"] == "npcs")
    assert "modifier" not in npcs and (npcs["die"]["face"], npcs["total"]) == (2, 11)
    mine = next(r for r in initiative["data"]["rolls"] if r["who"] == mira)
    assert mine["modifier"] == 0  # a player character's sheet is the table's
    gm_events = (await client.get(f"/encounters/{enc}/events")).json()["events"]
    assert next(r for r in gm_events[-1]["data"]["rolls"] if r["who"] == "npcs")["modifier"] == 9


async def test_a_retconned_ambush_leaves_no_trace(client: httpx.AsyncClient) -> None:
    """A retcon undoes a hidden combatant's arrival: its events stay in the history, and stay
    hidden from players and spectators in every read path (events, log, time travel to the
    versions where it was there), though the state no longer holds it."""
    a = await ambush(client)
    commands = f"/encounters/{a.enc}/commands"
    await post(client, commands, {"type": "EndTurn", "combatant_id": a.assassin}, a.gm)  # Mira's turn
    before = (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["version"]
    second = "Second Knife"
    r = await post(client, f"/encounters/{a.enc}/combatants", {
        "name": second, "side": "enemies", "controller": "gm", "hidden": True,
        "sheet": {"initiative_modifier": 3}}, a.gm, 201)
    knife = r.json()["events"][0]["data"]["combatant_id"]
    undone = (await post(client, commands, {"type": "Retcon", "to_version": before, "reason": "not yet"},
                         a.gm)).json()
    assert knife not in undone["state"]["combatants"] and knife in undone["state"]["concealed"]
    gm = await read_everything(client, a, a.gm)
    assert second in "".join(compact(r) for r in gm["responses"])  # the GM reads it all: the test looks
    for headers in (a.player, a.spectator):
        seen = await read_everything(client, a, headers)
        assert_no_trace(seen["responses"], a)
        for r in seen["responses"]:
            assert knife not in r.text and second not in compact(r), f"{r.request.url}: {compact(r)}"
        log = next(r for r in seen["responses"] if r.request.url.path.endswith("/log")
                   and "format" not in str(r.request.url)).json()["entries"]
        assert any(e["undone"] and e["sentence"] == "Something happened out of sight." for e in log)
        assert log[-1]["sentence"].startswith("The GM undid event")


async def test_live_streams_leave_no_trace(database_url: str) -> None:
    """The live streams are read paths too: a player's and a spectator's stream, open while the
    ambush is set and the hidden NPC acts, by WebSocket and by SSE, hold no trace of it."""
    from tests.integration.live import live_url, served, watch_sse, watch_ws

    async with served(database_url) as s, httpx.AsyncClient(base_url=s.base, timeout=30) as client:
        a = await ambush(client)
        watchers = [await watch_ws(live_url(s.base, a.enc, ws=True), "player", a.player),
                    await watch_sse(live_url(s.base, a.enc, ws=False), "spectator", a.spectator),
                    await watch_ws(live_url(s.base, a.enc, ws=True, after=3), "player, resumed", a.player),
                    await watch_ws(live_url(s.base, a.enc, ws=True), "gm", a.gm)]
        commands = f"/encounters/{a.enc}/commands"
        await post(client, commands, {"type": "TakeAction", "combatant_id": a.assassin, "action": "NotchArrow"}, a.gm)
        await post(client, commands, {"type": "EndTurn", "combatant_id": a.assassin}, a.gm)
        await post(client, commands, {"type": "TakeAction", "combatant_id": a.mira, "action": "TakeCover"}, a.player)
        final = (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["version"]
        for w in watchers:
            await w.at_version(final)
        *others, gm = watchers

        def text(w: Any) -> str:  # compact, as compact() spells it
            return "\n".join(json.dumps(m, separators=(",", ":"), ensure_ascii=False) for m in w.messages)

        for trace in (a.assassin, HIDDEN_NAME, OGRE_SHEET, ASSASSIN_SHEET, *SECRET_ROLL):
            assert trace in text(gm), trace  # the test looks for things that are there
        for w in others:
            for trace in (a.assassin, HIDDEN_NAME, OGRE_SHEET, ASSASSIN_SHEET, *SECRET_ROLL):
                assert trace not in text(w) and trace not in w.text, f"{trace} in the {w.name}'s live stream"
            assert "Redacted" in {m["event"]["type"] for m in w.of("event")}
        for w in watchers:
            await w.stop()
