"""Issue 16's findings, one test each: what a player or a spectator learnt of a hidden
combatant or of an NPC's sheet before visibility was decided from what the data concerns.

The table is the ambush of tests/integration/http/test_leaks.py: Mira and Kess (players), the
Ogre Brute (a visible NPC) and the Lurking Assassin (hidden); it is the Assassin's turn.
"""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.integration.http.test_leaks import Ambush, ambush, assert_no_trace, bearer, compact, post


async def reads(client: httpx.AsyncClient, a: Ambush, headers: dict[str, str]) -> list[httpx.Response]:
    """The state now and at every version, the events, the log as JSON and text, the live stream."""
    enc = f"/encounters/{a.enc}"
    out = [await client.get(enc, headers=headers)]
    version = out[0].json()["version"]
    out += [await client.get(f"{enc}/state", params={"at": v}, headers=headers) for v in range(1, version + 1)]
    out.append(await client.get(f"{enc}/events", headers=headers))
    out.append(await client.get(f"{enc}/log", headers=headers))
    out.append(await client.get(f"{enc}/log", params={"format": "text"}, headers=headers))
    out.append(await client.get(f"{enc}/live", params={"after": 0, "follow": "false"}, headers=headers))
    for r in out:
        assert r.status_code == 200, r.text
    return out


def events_of(responses: list[httpx.Response]) -> list[dict[str, Any]]:
    return next(r for r in responses if r.request.url.path.endswith("/events")).json()["events"]


async def gm(client: httpx.AsyncClient, a: Ambush, body: dict[str, Any]) -> dict[str, Any]:
    return (await post(client, f"/encounters/{a.enc}/commands", body, a.gm)).json()


async def test_a_range_to_a_hidden_combatant_is_not_seen(client: httpx.AsyncClient) -> None:
    """Finding 1: "SetRange between a hidden NPC and Mira puts "<mira>|<hidden>": "Melee" into
    state.rules.positions.ranges: players and spectators see it"."""
    a = await ambush(client)
    placed = await gm(client, a, {"type": "SetRange", "a": a.assassin, "b": a.mira, "band": "Melee"})
    await gm(client, a, {"type": "SetRange", "a": a.ogre, "b": a.mira, "band": "Near"})
    assert f"{a.assassin}|{a.mira}" in str(placed["state"]["rules"]["positions"]["ranges"]) or \
        f"{a.mira}|{a.assassin}" in str(placed["state"]["rules"]["positions"]["ranges"])  # the GM sees it
    for headers in (a.player, a.spectator):
        seen = await reads(client, a, headers)
        assert_no_trace(seen, a)
        ranges = seen[0].json()["rules"]["positions"]["ranges"]
        assert list(ranges.values()) == ["Near"]  # the visible NPC's range stays
        assert [e["type"] for e in events_of(seen)][-2:] == ["Redacted", "RangeSet"]


async def test_every_step_of_a_hidden_npcs_attack_is_redacted(client: httpx.AsyncClient) -> None:
    """Finding 2: "A hidden NPC's Attack on Mira: only AttackDeclared is Redacted; AttackRolled
    ..., CriticalEffectChosen and SuccessesSpent reach the player" -- "for a multi-step
    exchange every event of it concerns every party of it"."""
    a = await ambush(client)
    attack = {"type": "Attack", "combatant_id": a.assassin, "target": a.mira, "attack": "LightMelee",
              "band": "Melee", "dice": [4, 6]}  # D4 + D6 at their maximum: a Critical Success: every step of the exchange follows
    declared = await gm(client, a, attack)
    attack_id = declared["events"][0]["data"]["attack_id"]
    stage = declared["state"]["rules"]["exchange"]["stage"]
    assert stage == "critical"
    await gm(client, a, {"type": "ChooseCriticalEffect", "combatant_id": a.assassin, "attack": attack_id,
                         "effect": "RefundActionPoint"})
    exchange = (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["rules"]["exchange"]
    if exchange is not None and exchange["stage"] == "spend":
        await gm(client, a, {"type": "SpendSuccesses", "combatant_id": a.assassin, "attack": attack_id,
                             "split": ["Damage"] * exchange["extra"]})
    # Mira's player is not asked to defend against what they cannot see: the GM answers for them
    await gm(client, a, {"type": "Defend", "combatant_id": a.mira, "attack": attack_id, "defence": "TakeIt"})
    gm_events = (await client.get(f"/encounters/{a.enc}/events", headers=a.gm)).json()["events"]
    steps = [e for e in gm_events if e["version"] >= attack_id]
    assert {"AttackDeclared", "AttackRolled", "CriticalEffectChosen", "ExchangeEnded"} <= {e["type"] for e in steps}
    for headers in (a.player, a.spectator):
        seen = await reads(client, a, headers)
        assert_no_trace(seen, a)
        shown = {e["version"]: e["type"] for e in events_of(seen)}
        assert all(shown[e["version"]] == "Redacted" for e in steps), shown
        assert seen[0].json()["rules"]["exchange"] is None
        assert "against" not in compact(seen[-2]) and "Critical" not in compact(seen[-2])  # the log


async def test_a_morale_check_a_hidden_npc_took_part_in_is_redacted(client: httpx.AsyncClient) -> None:
    """Finding 3: "MoraleCheck of a whole side: the player's MoraleChecked shows a die with
    purpose "morale check: Zyx Ambusher"". Dice say who rolled them (``by``), and an event a
    hidden combatant rolled dice in is about it."""
    a = await ambush(client)
    checked = await gm(client, a, {"type": "MoraleCheck", "side": "enemies", "one_roll": False})
    each = next(e for e in checked["events"] if e["type"] == "MoraleChecked")
    assert {d["by"] for d in each["data"]["dice"]} == {a.ogre, a.assassin}
    assert all("Assassin" not in d["purpose"] and "Ogre" not in d["purpose"] for d in each["data"]["dice"])
    b = await ambush(client)
    checked = await gm(client, b, {"type": "MoraleCheck", "side": "enemies"})  # one die for all: the GM's
    together = next(e for e in checked["events"] if e["type"] == "MoraleChecked")
    assert [d["by"] for d in together["data"]["dice"]] == [None]
    for table, event in ((a, each), (b, together)):
        for headers in (table.player, table.spectator):
            seen = await reads(client, table, headers)
            assert_no_trace(seen, table)
            # everyone a Morale Check tests is a party of it
            assert events_of(seen)[event["version"] - 1]["type"] == "Redacted"


async def test_a_players_command_naming_a_hidden_combatant_is_answered_as_an_unknown_id(
        client: httpx.AsyncClient) -> None:
    """Finding 4: "A player can Attack, Shove or Taunt a hidden combatant by its id (200, events
    appended), while an id that does not exist is 422 unknown_combatant; Move answers
    range_unknown instead of invalid_target." -- "A player's command that names a hidden
    combatant gets exactly the answer an unknown id gets, and appends nothing."""
    a = await ambush(client)
    await gm(client, a, {"type": "EndTurn", "combatant_id": a.assassin})  # Mira's turn
    await gm(client, a, {"type": "SetRange", "a": a.assassin, "b": a.mira, "band": "Melee"})
    version = (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["version"]
    nobody = str(uuid.uuid4())
    bodies = [
        {"type": "Attack", "combatant_id": a.mira, "target": "{}", "attack": "LightMelee", "band": "Melee"},
        {"type": "Shove", "combatant_id": a.mira, "target": "{}"},
        {"type": "Taunt", "combatant_id": a.mira, "target": "{}"},
        {"type": "Move", "combatant_id": a.mira, "toward": "{}", "half_steps": 1},
        {"type": "Grapple", "combatant_id": a.mira, "target": "{}"},
        {"type": "Heal", "combatant_id": a.mira, "target": "{}"},
    ]
    for body in bodies:
        def naming(who: str, body: dict[str, Any] = body) -> dict[str, Any]:
            return {k: (who if v == "{}" else v) for k, v in body.items()}
        hidden = await client.post(f"/encounters/{a.enc}/commands", json=naming(a.assassin), headers=a.player)
        unknown = await client.post(f"/encounters/{a.enc}/commands", json=naming(nobody), headers=a.player)
        assert hidden.status_code == unknown.status_code and hidden.status_code in (400, 422), (body, hidden.text)
        h, u = hidden.json(), unknown.json()
        assert (h["code"], h["title"]) == (u["code"], u["title"]), (body, h, u)
        assert h["detail"].replace(a.assassin, "<id>") == u["detail"].replace(nobody, "<id>"), (h, u)
        assert_no_trace([hidden], a) if a.assassin not in h["detail"] else None
        assert "Lurking" not in hidden.text
    after = (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["version"]
    assert after == version  # nothing appended
    # the GM may name anyone
    r = await client.post(f"/encounters/{a.enc}/commands", headers=a.gm, json={
        "type": "Attack", "combatant_id": a.mira, "target": a.assassin, "attack": "LightMelee", "band": "Melee"})
    assert r.status_code == 200, r.text


async def test_an_npcs_willpower_and_morale_are_the_gms(client: httpx.AsyncClient) -> None:
    """Finding 10: "MoraleChecked.tests[].morale and WillpowerTested.willpower copy a visible
    NPC's sheet value to players ("the Ogre 5 against 13"), while the README says players never
    see an NPC's sheet." -- "NPC sheet values reach only the GM, in events and the log as in state"."""
    a = await ambush(client)
    tested = await gm(client, a, {"type": "WillpowerRoll", "combatant_id": a.ogre})
    checked = await gm(client, a, {"type": "MoraleCheck", "combatant_ids": [a.ogre]})
    willpower = tested["events"][0]
    morale = next(e for e in checked["events"] if e["type"] == "MoraleChecked")
    assert "willpower" in willpower["data"] and "morale" in morale["data"]["tests"][0]  # the GM's
    for headers in (a.player, a.spectator):
        seen = await reads(client, a, headers)
        events = events_of(seen)
        assert "willpower" not in events[willpower["version"] - 1]["data"]
        assert [set(t) for t in events[morale["version"] - 1]["data"]["tests"]] == [{"combatant_id", "die", "held"}]
        log = compact(seen[-2])
        assert "Willpower" in log and f"against {willpower['data']['willpower']}" not in log, log
        assert "Morale Check" in log and f"against {morale['data']['tests'][0]['morale']}" not in log, log
    # a player's own character's values are theirs
    mine = await gm(client, a, {"type": "WillpowerRoll", "combatant_id": a.mira})
    seen = (await client.get(f"/encounters/{a.enc}/events", headers=a.player)).json()["events"]
    assert "willpower" in seen[mine["version"] - 1]["data"]


async def test_presence_tells_nothing_of_a_hidden_combatants_player(database_url: str) -> None:
    """Finding 9: "while only a hidden combatant's player is connected, others see "presence":
    {"roles": {...0...}, "combatants": []}, and nothing when nobody is connected"."""
    from tests.integration.live import live_url, served, watch_ws

    async with served(database_url) as s, httpx.AsyncClient(base_url=s.base, timeout=30) as client:
        a = await ambush(client)
        enc = f"/encounters/{a.enc}"
        assert "presence" not in (await client.get(enc, headers=a.spectator)).json()  # nobody connected
        hidden_player = bearer((await post(client, f"{enc}/tokens", {"role": "player", "combatant_ids": [a.assassin]},
                                           a.gm, 201)).json()["token"])
        w = await watch_ws(live_url(s.base, a.enc, ws=True), "the hidden one's player", hidden_player)
        try:
            for _ in range(50):  # until the GM sees the connection
                if "presence" in (await client.get(enc, headers=a.gm)).json():
                    break
                import asyncio
                await asyncio.sleep(0.1)
            assert (await client.get(enc, headers=a.gm)).json()["presence"]["roles"]["player"] == 1
            for headers in (a.player, a.spectator):
                seen = await client.get(enc, headers=headers)
                assert "presence" not in seen.json(), seen.text
        finally:
            await w.stop()


async def test_a_refusal_does_not_tell_of_an_exchange_with_a_hidden_combatant(client: httpx.AsyncClient) -> None:
    """On Mira's turn the GM has her attack the hidden NPC (the GM may name anyone) and the
    exchange waits for its Defend: her player's commands naming a stranger and naming the hidden
    NPC get one answer, explained from what the player may see (there is no exchange there),
    never ``exchange_pending``, which would tell of the hidden one. (Found by the
    hidden-information property, now and then.)"""
    a = await ambush(client)
    await gm(client, a, {"type": "EndTurn", "combatant_id": a.assassin})  # Mira's turn
    await gm(client, a, {"type": "SetRange", "a": a.assassin, "b": a.mira, "band": "Melee"})
    await gm(client, a, {"type": "Attack", "combatant_id": a.mira, "target": a.assassin, "attack": "LightMelee",
                         "band": "Melee", "dice": [4, 5]})
    assert (await client.get(f"/encounters/{a.enc}", headers=a.gm)).json()["rules"]["exchange"] is not None
    assert (await client.get(f"/encounters/{a.enc}", headers=a.player)).json()["rules"]["exchange"] is None
    nobody = str(uuid.uuid4())
    for body in ({"type": "Attack", "combatant_id": a.mira, "target": "{}", "attack": "LightMelee", "band": "Melee"},
                 {"type": "Taunt", "combatant_id": a.mira, "target": "{}"},
                 {"type": "Move", "combatant_id": a.mira, "toward": "{}", "band": "Near"}):
        answers = []
        for who in (a.assassin, nobody):
            sent = {k: (who if v == "{}" else v) for k, v in body.items()}
            r = await client.post(f"/encounters/{a.enc}/commands", json=sent, headers=a.player)
            assert r.status_code in (400, 422), r.text
            answers.append((r.status_code, r.json()["code"], r.json()["detail"].replace(who, "<id>")))
        assert answers[0] == answers[1], answers
        assert answers[0][1] != "exchange_pending", answers
