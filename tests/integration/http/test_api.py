"""The REST API end to end against a real PostgreSQL."""

from __future__ import annotations

import asyncio
import hashlib
import uuid

import pytest

from domain.core.dice import seeded_face
from domain.rulesets import default_registry
from tests.integration.fight import POP, add, command, open_encounter, started_fight
from tests.integration.read_models import until_listed

PROBLEM = "application/problem+json"


def assert_problem(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["title"]
    return body


# ------------------------------------------------------------------ a whole short fight


async def test_a_short_fight(client) -> None:
    r = await client.post("/encounters", json={"ruleset": POP, "name": "Ambush at the ford"})
    assert r.status_code == 201
    opened = r.json()
    enc = opened["encounter_id"]
    client.headers["Authorization"] = f"Bearer {opened['gm_token']['token']}"
    assert opened["gm_token"]["role"] == "gm"
    assert r.headers["location"] == f"/encounters/{enc}"
    assert r.headers["etag"] == '"1"'
    assert opened["state"]["status"] == "setup"
    assert opened["events"][0]["schema_version"] == 2  # EncounterOpened 2: the commitment names its hash
    seed_sha256 = opened["events"][0]["data"]["seed_commitment"].removeprefix("sha256:")

    mira = await add(client, enc, "Mira", modifier=2)
    kess = await add(client, enc, "Kess", modifier=0)
    bandit = await add(client, enc, "Bandit", controller="gm", modifier=1)
    await add(client, enc, "Bandit archer", controller="gm", modifier=3)

    rolled = await command(client, enc, {"type": "RollInitiative"})
    rolls = {r["who"]: r for r in rolled["events"][0]["data"]["rolls"]}
    assert set(rolls) == {mira, kess, "npcs"}
    assert rolls["npcs"]["modifier"] == 3  # the highest NPC modifier
    state = rolled["state"]
    npc_block = [c for c in state["order"] if state["combatants"][c]["controller"] == "gm"]
    assert len(npc_block) == 2

    started = await command(client, enc, {"type": "StartEncounter"})
    state = started["state"]
    assert state["status"] == "active" and state["round"] == 1
    assert {c["action_points"] for c in state["combatants"].values()} == {3}
    assert state["turn"] == state["order"][0]

    # everyone ends their turn once: round 2 begins, players carry over, NPCs get a set 4
    first = state["turn"]
    if state["combatants"][first]["controller"] == "player":
        await command(client, enc, {"type": "TakeAction", "combatant_id": first, "action": "NotchArrow"})
    for cid in state["order"]:
        result = await command(client, enc, {"type": "EndTurn", "combatant_id": cid})
    state = result["state"]
    assert state["round"] == 2
    for cid, c in state["combatants"].items():
        if c["controller"] == "gm":
            assert c["action_points"] == 4
        elif cid == first:
            assert c["action_points"] == 5
        else:
            assert c["action_points"] == 6

    ended = await command(client, enc, {"type": "EndEncounter"})
    seed = bytes.fromhex(ended["events"][0]["data"]["seed"])
    assert hashlib.sha256(seed).hexdigest() == seed_sha256
    # every seeded roll re-derives from the revealed seed
    for roll in rolls.values():
        die = roll["die"]
        assert seeded_face(seed, enc, die["index"], die["sides"]) == die["face"]

    r = await client.get(f"/encounters/{enc}")
    assert r.status_code == 200
    assert r.json()["status"] == "ended"
    assert r.headers["etag"] == f'"{ended["version"]}"'
    await command(client, enc, {"type": "EndTurn", "combatant_id": mira}, expect=422)
    _ = bandit


async def test_state_and_etag_follow_the_version(client) -> None:
    enc, mira, _ = await started_fight(client)
    r = await client.get(f"/encounters/{enc}")
    version = r.json()["version"]
    assert r.headers["etag"] == f'"{version}"'
    res = await command(client, enc, {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})
    assert res["version"] == version + 1
    r = await client.get(f"/encounters/{enc}")
    assert r.headers["etag"] == f'"{version + 1}"'
    assert r.json()["combatants"][mira]["action_points"] == 2


async def test_list_encounters(client) -> None:
    ids = [await open_encounter(client, f"Fight {i}") for i in range(3)]
    await until_listed(client, ids)  # the list is a read model: it follows the log
    r = await client.get("/encounters", params={"limit": 2})
    assert r.status_code == 200
    page = r.json()
    assert len(page["encounters"]) == 2
    r2 = await client.get("/encounters", params={"limit": 2, "offset": 2})
    listed = [e["id"] for e in page["encounters"]] + [e["id"] for e in r2.json()["encounters"]]
    assert sorted(listed) == sorted(ids)
    assert all(e["ruleset"] == POP and e["version"] == 1 for e in page["encounters"])


async def test_events_are_paged(client) -> None:
    enc, _, _ = await started_fight(client)
    r = await client.get(f"/encounters/{enc}/events")
    all_events = r.json()["events"]
    assert [e["version"] for e in all_events] == list(range(1, len(all_events) + 1))
    assert [e["type"] for e in all_events] == [
        "EncounterOpened", "CombatantAdded", "CombatantAdded", "InitiativeRolled", "EncounterStarted", "RoundStarted",
    ]
    page = (await client.get(f"/encounters/{enc}/events", params={"after": 2, "limit": 2})).json()
    assert [e["version"] for e in page["events"]] == [3, 4]
    assert page["has_more"] is True and page["next_after"] == 4
    last = (await client.get(f"/encounters/{enc}/events", params={"after": 4, "limit": 10})).json()
    assert [e["version"] for e in last["events"]] == [5, 6] and last["has_more"] is False
    empty = (await client.get(f"/encounters/{enc}/events", params={"after": 99})).json()
    assert empty == {"events": [], "next_after": 99, "has_more": False}


async def test_rulesets_describe_commands_and_sheet(client) -> None:
    r = await client.get("/rulesets")
    assert r.json() == [{"id": x.id, "name": x.name} for x in default_registry().all()]
    assert {"id": POP, "name": "Places of Power"} in r.json()
    info = (await client.get(f"/rulesets/{POP}")).json()
    types = {c["type"] for c in info["commands"]}
    assert {"AddCombatant", "RollInitiative", "StartEncounter", "EndTurn", "EndEncounter", "TakeAction"} <= types
    costs = {a["summary"].split(":")[0]: a["action_points"] for a in info["actions"]}
    assert costs["Dash"] == 1 and costs["ReloadCrossbow"] == 3
    assert "initiative_modifier" in info["sheet_schema"]["$defs"]["Sheet"]["properties"]
    coverage = {row["heading"]: row["support"] for row in info["coverage"]}
    assert coverage["Armour"] == "enforced" and coverage["Magical Combat"] == "enforced"
    assert_problem(await client.get("/rulesets/chess"), 404, "ruleset_not_found")


async def test_health(client) -> None:
    r = await client.get("/health")
    assert r.status_code == 200 and r.json() == {"status": "ok", "database": "ok"}


# ------------------------------------------------------------------------ refusals


async def test_not_enough_action_points_is_a_clear_422(client) -> None:
    enc, mira, _ = await started_fight(client)
    await command(client, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    r = await client.post(f"/encounters/{enc}/commands",
                          json={"type": "TakeAction", "combatant_id": mira, "action": "ReloadCrossbow"})
    problem = assert_problem(r, 422, "not_enough_action_points")
    assert problem["detail"] == "Mira has 2 Action Points left; ReloadCrossbow costs 3."
    state = (await client.get(f"/encounters/{enc}")).json()
    assert state["combatants"][mira]["action_points"] == 2


async def test_illegal_actions_are_refused_with_codes(client) -> None:
    enc, mira, bandit = await started_fight(client)
    state = (await client.get(f"/encounters/{enc}")).json()
    waiting = bandit if state["turn"] == mira else mira
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": waiting})
    assert_problem(r, 422, "not_your_turn")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "StartEncounter"})
    assert_problem(r, 422, "already_started")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": "nobody"})
    assert_problem(r, 422, "unknown_combatant")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b'{"type": "TakeAction", ', 400, "malformed_json"),
        (b"\xff\xfe not utf-8", 400, "malformed_json"),
        (b"", 400, "malformed_json"),
        (b'{"type": "TakeAction", "combatant_id": "x", "action": "NotchArrow", "extra": 1}', 422, "invalid_command"),
        (b'{"type": "Teleport"}', 422, "invalid_command"),
        (b'{"combatant_id": "x"}', 422, "invalid_command"),
        (b'{"type": "TakeAction", "combatant_id": 7, "action": "NotchArrow"}', 422, "invalid_command"),
        (b'{"type": "TakeAction", "combatant_id": "x", "action": "Fly"}', 422, "invalid_command"),
        (b'[1, 2, 3]', 422, "invalid_command"),
    ],
)
async def test_bad_command_bodies(client, body: bytes, status: int, code: str) -> None:
    enc, _, _ = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/commands", content=body,
                          headers={"content-type": "application/json"})
    assert_problem(r, status, code)
    assert (await client.get(f"/encounters/{enc}")).json()["version"] == 6


async def test_strict_types_no_string_for_a_number(client) -> None:
    enc = await open_encounter(client)
    r = await client.post(f"/encounters/{enc}/combatants",
                          json={"name": "Mira", "side": "party", "controller": "player",
                                "sheet": {"initiative_modifier": "3"}})
    body = assert_problem(r, 422, "invalid_sheet")
    assert "Expected `int`, got `str`" in body["detail"]
    r = await client.post(f"/encounters/{enc}/combatants",
                          json={"name": "Mira", "side": "party", "controller": "king"})
    assert_problem(r, 422, "invalid_body")
    r = await client.post(f"/encounters/{enc}/combatants",
                          json={"name": "Mira", "side": "party", "controller": "player", "sheet": {"d7": 1}})
    assert_problem(r, 422, "invalid_sheet")
    r = await client.post("/encounters", json={"ruleset": POP, "name": 5})
    assert_problem(r, 422, "invalid_body")


async def test_unknown_ruleset_and_missing_encounter(client) -> None:
    assert_problem(await client.post("/encounters", json={"ruleset": "chess", "name": "x"}), 422, "unknown_ruleset")
    assert_problem(await client.post("/encounters", json={"ruleset": POP, "name": "  "}), 422, "invalid_text")
    missing = str(uuid.uuid4())
    # every encounter route needs a token of that encounter, so a missing one is never found:
    # without a token 401, with another encounter's token 403 (nothing tells it exists or not)
    assert_problem(await client.get(f"/encounters/{missing}"), 401, "token_required")
    enc = await open_encounter(client)
    assert_problem(await client.get(f"/encounters/{missing}"), 403, "wrong_encounter")
    assert_problem(await client.get(f"/encounters/{missing}/events"), 403, "wrong_encounter")
    assert_problem(await client.post(f"/encounters/{missing}/commands", json={"type": "StartEncounter"}),
                   403, "wrong_encounter")
    assert_problem(await client.get("/encounters/not-a-uuid"), 404, "not_found")
    assert_problem(await client.delete("/encounters"), 405, "method_not_allowed")
    assert_problem(await client.get("/encounters", params={"limit": 0}), 400, "invalid_parameter")
    assert_problem(await client.get(f"/encounters/{enc}/events", params={"after": -1}), 400, "invalid_parameter")
    assert_problem(await client.get(f"/encounters/{enc}/events", params={"after": "x"}), 400, "invalid_parameter")


async def test_oversized_body_is_413(client) -> None:
    enc = await open_encounter(client)
    r = await client.post(f"/encounters/{enc}/combatants", content=b'{"name": "' + b"a" * 300_000 + b'"}',
                          headers={"content-type": "application/json"})
    assert_problem(r, 413, "request_too_large")


# ---------------------------------------------------------- If-Match and idempotency


async def test_if_match_guards_against_lost_updates(client) -> None:
    enc, mira, _ = await started_fight(client)
    body = {"type": "RollInitiative"}
    ok = await command(client, enc, body, **{"If-Match": '"6"'})
    assert ok["version"] == 7
    r = await client.post(f"/encounters/{enc}/commands", json=body, headers={"If-Match": '"6"'})
    problem = assert_problem(r, 412, "version_mismatch")
    assert problem["details"] == {"expected_version": 6, "current_version": 7}
    assert r.headers["etag"] == '"7"'
    assert_problem(await client.post(f"/encounters/{enc}/commands", json=body, headers={"If-Match": "soon"}),
                   400, "invalid_if_match")
    # a version from the future is also a mismatch, never a 500
    assert_problem(await client.post(f"/encounters/{enc}/commands", json=body, headers={"If-Match": '"99"'}),
                   412, "version_mismatch")
    assert (await command(client, enc, body, **{"If-Match": "*"}))["version"] == 8
    _ = mira


async def test_idempotency_key_returns_the_first_answer(client, conn) -> None:
    enc, mira, _ = await started_fight(client)
    body = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}
    key = {"Idempotency-Key": "dash-once"}
    first = await client.post(f"/encounters/{enc}/commands", json=body, headers=key)
    again = await client.post(f"/encounters/{enc}/commands", json=body, headers=key)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert first.content == again.content
    assert again.headers["etag"] == first.headers["etag"]
    count = await conn.fetchval("SELECT count(*) FROM events WHERE encounter_id = $1", uuid.UUID(enc))
    assert count == 7
    state = (await client.get(f"/encounters/{enc}")).json()
    assert state["combatants"][mira]["action_points"] == 2
    # the same key with a different body is refused, not silently replayed
    other = {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"}
    assert_problem(await client.post(f"/encounters/{enc}/commands", json=other, headers=key),
                   422, "idempotency_key_reused")


async def test_idempotent_open_and_add(client, conn) -> None:
    key = {"Idempotency-Key": "open-1"}
    body = {"ruleset": POP, "name": "Once"}
    a = await client.post("/encounters", json=body, headers=key)
    b = await client.post("/encounters", json=body, headers=key)
    assert a.status_code == b.status_code == 201
    first, again = a.json(), b.json()
    # the same answer, but the GM token's secret (never stored) is issued anew; the lost one stops
    assert {**first, "gm_token": None} == {**again, "gm_token": None}
    assert first["gm_token"]["id"] == again["gm_token"]["id"]
    assert first["gm_token"]["token"] != again["gm_token"]["token"]
    assert await conn.fetchval("SELECT count(*) FROM encounters") == 1
    assert await conn.fetchval("SELECT count(*) FROM tokens") == 1
    enc = a.json()["encounter_id"]
    old = await client.get(f"/encounters/{enc}", headers={"Authorization": f"Bearer {first['gm_token']['token']}"})
    assert_problem(old, 401, "token_invalid")
    client.headers["Authorization"] = f"Bearer {again['gm_token']['token']}"
    new = {"name": "Mira", "side": "party", "controller": "player"}
    c1 = await client.post(f"/encounters/{enc}/combatants", json=new, headers={"Idempotency-Key": "mira"})
    c2 = await client.post(f"/encounters/{enc}/combatants", json=new, headers={"Idempotency-Key": "mira"})
    assert c1.status_code == c2.status_code == 201 and c1.content == c2.content
    assert len((await client.get(f"/encounters/{enc}")).json()["combatants"]) == 1


# --------------------------------------------------------------------------- dice


async def test_reported_dice_are_range_checked_and_marked(client) -> None:
    enc = await open_encounter(client, dice_policy="reported")
    await add(client, enc, "Mira", modifier=2)
    await add(client, enc, "Bandit", controller="gm", modifier=1)
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"})
    assert_problem(r, 422, "dice_missing")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative", "dice": [13, 4]})
    assert_problem(r, 422, "die_face_out_of_range")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative", "dice": [5, 4, 2]})
    assert_problem(r, 422, "dice_unused")
    res = await command(client, enc, {"type": "RollInitiative", "dice": [9, 4]})
    rolls = res["events"][0]["data"]["rolls"]
    assert [(x["die"]["face"], x["die"]["source"], x["total"]) for x in rolls] == [
        (9, "reported", 11), (4, "reported", 5)
    ]


async def test_seeded_encounters_refuse_reported_dice(client) -> None:
    enc = await open_encounter(client)
    await add(client, enc, "Mira")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative", "dice": [12]})
    assert_problem(r, 422, "reported_dice_not_allowed")
    assert_problem(await client.post("/encounters", json={"ruleset": POP, "name": "x", "dice_policy": "loaded"}),
                   422, "invalid_body")


# ------------------------------------------------------------ inputs that must not 500


@pytest.mark.parametrize(
    ("method", "path", "kw", "status", "code"),
    [
        ("post", "/encounters", {"content": b'{"ruleset": "places-of-power", "name": "a\\u0000b"}'},
         422, "invalid_text"),
        ("post", "{enc}/combatants", {"content": b'{"name": "a\\u0000", "side": "p", "controller": "gm"}'},
         422, "invalid_text"),
        ("post", "{enc}/combatants",
         {"content": b'{"name": "d", "side": "p", "controller": "gm", "sheet": {"x\\u0000": 1}}'},
         422, "invalid_sheet"),
        ("post", "{enc}/combatants",
         {"content": b'{"name": "d", "side": "p", "controller": "gm", "sheet": {"x": '
          + b"[" * 100_000 + b"]" * 100_000 + b"}}"},
         400, "malformed_json"),
        ("post", "{enc}/commands",
         {"content": b'{"type": "RollInitiative", "dice": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"},
         422, "invalid_command"),
        ("post", "{enc}/commands", {"json": {"type": "RollInitiative"}, "headers": {"If-Match": b'"\xb2"'}},
         400, "invalid_if_match"),
        ("post", "{enc}/commands", {"json": {"type": "RollInitiative"}, "headers": {"If-Match": 'W/"1"'}},
         400, "invalid_if_match"),
        ("post", "{enc}/commands", {"json": {"type": "RollInitiative"}, "headers": {"Idempotency-Key": ""}},
         400, "invalid_parameter"),
        ("post", "{enc}/commands", {"json": {"type": "RollInitiative", "dice": [2**70]}}, 422, "invalid_command"),
        ("get", "/encounters?offset=99999999999999999999", {}, 400, "invalid_parameter"),
        ("get", "{enc}/events?after=99999999999999999999", {}, 400, "invalid_parameter"),
        ("post", "{enc}/commands", {"json": {"type": "AddCombatant", "combatant_id": "npcs", "name": "P",
                                             "side": "party", "controller": "player"}}, 422, "invalid_id"),
        ("post", "{enc}/commands", {"json": {"type": "AddCombatant", "combatant_id": "a b", "name": "P",
                                             "side": "party", "controller": "player"}}, 422, "invalid_id"),
        ("post", "{enc}/combatants", {"json": {"name": "M", "side": "party", "controller": "player",
                                               "sheet": {"initiative_modifier": 10**30}}}, 422, "invalid_sheet"),
    ],
)
async def test_bad_input_is_a_4xx_never_a_500(client, method, path, kw, status, code) -> None:
    enc = await open_encounter(client, dice_policy="mixed")
    r = await getattr(client, method)(path.replace("{enc}", f"/encounters/{enc}"), **kw)
    assert_problem(r, status, code)


async def test_overlapping_retries_with_one_key_all_get_the_first_answer(two_clients, conn) -> None:
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    await b.get(f"/encounters/{enc}")
    body = {"type": "EndTurn", "combatant_id": mira}
    replies = await asyncio.gather(*(
        (a, b)[i % 2].post(f"/encounters/{enc}/commands", json=body, headers={"Idempotency-Key": "end-1"})
        for i in range(20)
    ))
    assert [r.status_code for r in replies] == [200] * 20, [r.text for r in replies if r.status_code != 200][:2]
    assert len({r.content for r in replies}) == 1
    count = await conn.fetchval("SELECT count(*) FROM events WHERE encounter_id = $1 AND type = 'TurnEnded'",
                                uuid.UUID(enc))
    assert count == 1


async def test_gm_removes_a_combatant_and_sets_the_order(client) -> None:
    enc = await open_encounter(client, dice_policy="mixed")
    mira = await add(client, enc, "Mira", modifier=2)
    kess = await add(client, enc, "Kess")
    bandit = await add(client, enc, "Bandit", controller="gm")
    wolf = await add(client, enc, "Wolf", controller="gm")
    # Mira 10 + 2, Kess 11, the GM 5: both players act before the NPCs
    rolled = await command(client, enc, {"type": "RollInitiative", "dice": [10, 11, 5]})
    assert rolled["state"]["order"] == [mira, kess, bandit, wolf]
    reordered = await command(client, enc, {"type": "SetTurnOrder", "order": [kess, mira, wolf, bandit]})
    assert reordered["state"]["order"] == [kess, mira, wolf, bandit]
    r = await client.post(f"/encounters/{enc}/commands",
                          json={"type": "SetTurnOrder", "order": [kess, wolf, mira, bandit]})
    assert_problem(r, 422, "invalid_turn_order")
    await command(client, enc, {"type": "StartEncounter"})
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RemoveCombatant", "combatant_id": kess})
    assert_problem(r, 422, "combatant_has_turn")
    removed = await command(client, enc, {"type": "RemoveCombatant", "combatant_id": wolf})
    assert removed["state"]["order"] == [kess, mira, bandit]
    assert wolf not in removed["state"]["combatants"]
    for cid in (kess, mira, bandit):
        state = (await command(client, enc, {"type": "EndTurn", "combatant_id": cid}))["state"]
    assert state["round"] == 2 and state["turn"] == kess


async def test_health_is_503_when_the_database_is_gone(database_url) -> None:
    import httpx

    from server.app import create_app

    app = create_app(database_url)
    for hook in app.on_startup:
        await hook(app)
    try:
        await app.state.pool.close()
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            assert_problem(await c.get("/health"), 503, "database_unavailable")
    finally:  # its background tasks (wake-ups, the projection runner) stop with it
        for hook in app.on_shutdown:
            await hook(app)
