"""Tokens end to end: minting, listing, revoking (at once, on every process), idempotent
minting, actors in the history, rate limits and CORS."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import replace

import httpx
import msgspec

from server.auth.tokens import hash_secret
from server.settings import Settings
from tests.conftest import app_client
from tests.integration.fight import add, command, mint, open_encounter, started_fight
from tests.integration.live import served, watch_ws


def only(request: httpx.Request, headers: dict[str, str]) -> httpx.Request:
    """The request without the client's default ``Authorization`` header (the GM's) unless
    ``headers`` sets its own."""
    if "Authorization" not in headers:
        del request.headers["Authorization"]
    return request


def settings(**changes) -> Settings:
    return replace(Settings.from_env(), **changes)


async def test_the_gm_mints_lists_and_revokes_tokens(client, conn) -> None:
    """"The GM mints player tokens bound to one or more combatants and read-only spectator
    tokens, lists them, and revokes them. Tokens are long random secrets stored only as hashes"."""
    enc = await open_encounter(client)
    mira = await add(client, enc, "Mira")
    kess = await add(client, enc, "Kess")
    r = await client.post(f"/encounters/{enc}/tokens",
                          json={"role": "player", "combatant_ids": [mira, kess], "label": "Ana"})
    assert r.status_code == 201
    issued = r.json()
    assert issued["role"] == "player" and issued["combatant_ids"] == [mira, kess] and issued["label"] == "Ana"
    assert issued["token"].startswith("frc_") and len(issued["token"]) > 40
    spectator = (await client.post(f"/encounters/{enc}/tokens", json={"role": "spectator"})).json()
    listed = (await client.get(f"/encounters/{enc}/tokens")).json()
    assert [t["role"] for t in listed] == ["gm", "player", "spectator"]
    assert all("token" not in t for t in listed)
    stored = await conn.fetch("SELECT secret_hash FROM tokens")
    assert {bytes(r["secret_hash"]) for r in stored} >= {hash_secret(issued["token"]), hash_secret(spectator["token"])}
    assert not any(issued["token"].encode() in bytes(r["secret_hash"]) for r in stored)
    # revoke: it stops at once
    as_player = {"Authorization": f"Bearer {issued['token']}"}
    assert (await client.get(f"/encounters/{enc}", headers=as_player)).status_code == 200
    assert (await client.delete(f"/encounters/{enc}/tokens/{issued['id']}")).status_code == 204
    r = await client.get(f"/encounters/{enc}", headers=as_player)
    assert r.status_code == 401 and r.json()["code"] == "token_invalid"
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert [t["revoked_at"] is not None for t in (await client.get(f"/encounters/{enc}/tokens")).json()] == [
        False, True, False]
    # the GM's own token cannot be revoked, and an unknown id is a 404
    gm_id = listed[0]["id"]
    assert (await client.delete(f"/encounters/{enc}/tokens/{gm_id}")).json()["code"] == "token_not_found"
    assert (await client.delete(f"/encounters/{enc}/tokens/{uuid.uuid4()}")).status_code == 404


async def test_token_requests_are_checked(client) -> None:
    enc = await open_encounter(client)
    mira = await add(client, enc, "Mira")
    for body, code in [
        ({"role": "player"}, "invalid_token_request"),
        ({"role": "spectator", "combatant_ids": [mira]}, "invalid_token_request"),
        ({"role": "player", "combatant_ids": ["ghost"]}, "unknown_combatant"),
        ({"role": "gm"}, "invalid_body"),
        ({"role": "player", "combatant_ids": [mira], "label": "a\u0001"}, "invalid_text"),
    ]:
        r = await client.post(f"/encounters/{enc}/tokens", json=body)
        assert r.status_code == 422 and r.json()["code"] == code, (body, r.text)


async def test_a_revoked_token_stops_on_every_process_at_once(two_clients) -> None:
    """"a revoked token stops working at once, on every server process"."""
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    as_player = await mint(a, enc, "player", [mira])
    dash = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}
    assert (await b.post(f"/encounters/{enc}/commands", json=dash, headers=as_player)).status_code == 200
    assert (await b.get(f"/encounters/{enc}", headers=as_player)).status_code == 200  # b caches the token
    token_id = (await a.get(f"/encounters/{enc}/tokens")).json()[1]["id"]
    assert (await a.delete(f"/encounters/{enc}/tokens/{token_id}")).status_code == 204
    for r in [
        await b.get(f"/encounters/{enc}", headers=as_player),
        await b.get(f"/encounters/{enc}/events", headers=as_player),
        await b.post(f"/encounters/{enc}/commands", json=dash, headers=as_player),
        await b.post(f"/encounters/{enc}/commands",  # refused by the rules, still no answer for it
                     json={"type": "TakeAction", "combatant_id": mira, "action": "ReloadCrossbow"},
                     headers=as_player),
    ]:
        assert r.status_code == 401 and r.json()["code"] == "token_invalid", r.text
    state = (await a.get(f"/encounters/{enc}")).json()
    assert state["combatants"][mira]["action_points"] == 2  # the revoked token's action never landed


async def test_a_revoked_token_gets_401_for_every_write_even_when_cached(two_clients) -> None:
    """Issue 16: "A revoked token is 401 for every request (writes, idempotent replays, live
    streams), on every process." Process b has each token cached (it served a request with it);
    the revocation goes through process a, and b answers no request of it with anything but 401:
    not the stored answer of an ``Idempotency-Key`` retry, not a 400, 403, 412 or 422 refusal, not
    a mint or a revocation by a GM secret that was issued anew. Each case has a token of its own:
    a 401 makes b forget the token it had cached, and the next would not test the cache."""
    a, b = two_clients
    enc, mira, bandit = await started_fight(a, b)
    dash = {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}
    cmd = f"/encounters/{enc}/commands"
    cases: list[tuple[str, str, dict[str, object]]] = [  # (role, method and path, request)
        ("player", "POST " + cmd, {"json": dash, "headers": {"Idempotency-Key": "k1"}}),  # the stored 200 before
        ("player", "POST " + cmd, {"json": dash, "headers": {"Idempotency-Key": "k2"}}),
        ("player", "POST " + cmd, {"json": {"type": "EndTurn", "combatant_id": bandit}}),  # 403 before
        ("player", "POST " + cmd, {"json": {"type": "StartEncounter"}}),  # 403 gm_only before
        ("player", "POST " + cmd, {"content": b'{"type": "NoSuchCommand"}'}),  # 422 before
        ("player", "POST " + cmd, {"content": b"{"}),  # 400 before
        ("player", "POST " + cmd, {"json": dash, "headers": {"If-Match": "nonsense"}}),  # 400 before
        ("player", "POST " + cmd, {"json": dash, "headers": {"If-Match": '"1"'}}),  # 412 before
        ("spectator", "POST " + cmd, {"json": {"type": "StartEncounter"}}),  # 403 read_only_token before
        ("spectator", f"POST /encounters/{enc}/combatants",
         {"json": {"name": "X", "side": "party", "controller": "player"}}),  # 403 before
        ("player", f"GET /encounters/{enc}", {}),
        ("spectator", f"GET /encounters/{enc}/events", {}),
        ("player", f"GET /encounters/{enc}/live", {"params": {"follow": "false"}}),
        ("spectator", f"GET /encounters/{enc}/live", {"params": {"follow": "false"}, "query_token": True}),
    ]
    secrets = []
    for role, _, _ in cases:
        auth = await mint(a, enc, role, [mira] if role == "player" else None)
        assert (await b.get(f"/encounters/{enc}", headers=auth)).status_code == 200  # b caches it
        secrets.append(auth["Authorization"].removeprefix("Bearer "))
    first = await b.post(cmd, json=dash, headers={"Authorization": f"Bearer {secrets[0]}", "Idempotency-Key": "k1"})
    assert first.status_code == 200, first.text
    for t in (await a.get(f"/encounters/{enc}/tokens")).json()[1:]:
        assert (await a.delete(f"/encounters/{enc}/tokens/{t['id']}")).status_code == 204
    for (_, route, request), secret in zip(cases, secrets, strict=True):
        method, path = route.split(" ", 1)
        options = dict(request)
        headers = {"Authorization": f"Bearer {secret}", **options.pop("headers", {})}  # type: ignore[dict-item]
        if options.pop("query_token", False):
            options["params"] = {**options["params"], "token": secret}  # type: ignore[dict-item]
            headers = {k: v for k, v in headers.items() if k != "Authorization"}
        r = await b.send(only(b.build_request(method, path, headers=headers, **options), headers))
        assert (r.status_code, r.json().get("code")) == (401, "token_invalid"), (route, request, r.text[:300])
    assert (await a.get(f"/encounters/{enc}")).json()["version"] == 7  # only the first dash landed

    # A GM secret issued anew (a retried open) is revoked too: the old one mints and revokes nothing.
    for n, (method, path, body) in enumerate([
        ("POST", "tokens", {"role": "spectator"}),  # 201 before
        ("POST", "tokens", {"role": "player", "combatant_ids": ["ghost"]}),  # 422 before
        ("DELETE", "tokens/{spectator}", None),  # 204 before
        ("DELETE", f"tokens/{uuid.uuid4()}", None),  # 404 before
    ]):
        opened = await a.post("/encounters", json={"ruleset": "places-of-power", "name": "Twice"},
                              headers={"Idempotency-Key": f"open-{n}"})
        enc2, old_gm = opened.json()["encounter_id"], {"Authorization": f"Bearer {opened.json()['gm_token']['token']}"}
        spectator = (await b.post(f"/encounters/{enc2}/tokens", json={"role": "spectator"}, headers=old_gm)).json()
        again = await a.post("/encounters", json={"ruleset": "places-of-power", "name": "Twice"},
                             headers={"Idempotency-Key": f"open-{n}"})
        new_gm = {"Authorization": f"Bearer {again.json()['gm_token']['token']}"}
        assert new_gm != old_gm
        r = await b.request(method, f"/encounters/{enc2}/" + path.format(spectator=spectator["id"]), json=body,
                            headers=old_gm)
        assert (r.status_code, r.json().get("code")) == (401, "token_invalid"), (method, path, r.text[:300])
        listed = (await b.get(f"/encounters/{enc2}/tokens", headers=new_gm)).json()
        assert [(t["role"], t["revoked_at"]) for t in listed] == [("gm", None), ("spectator", None)]


async def test_the_history_shows_who_did_what(client, conn) -> None:
    """"The actor (role and token id, never the secret) is written into each event's metadata"."""
    enc, mira, _ = await started_fight(client)
    as_player = await mint(client, enc, "player", [mira])
    secret = as_player["Authorization"].split()[1]
    await command(client, enc, {"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"}, **as_player)
    rows = await conn.fetch("SELECT type, metadata::text AS m FROM events WHERE encounter_id = $1 ORDER BY version",
                            uuid.UUID(enc))
    tokens = {r["role"]: r["id"] for r in await conn.fetch(
        "SELECT role, id::text AS id FROM tokens WHERE encounter_id = $1", uuid.UUID(enc))}
    actors = [msgspec.json.decode(r["m"])["actor"] for r in rows]
    assert actors[-1] == {"role": "player", "token_id": tokens["player"]}
    assert all(a == {"role": "gm", "token_id": tokens["gm"]} for a in actors[:-1])
    assert not any(secret in r["m"] for r in rows)


async def test_a_retried_mint_returns_the_same_token_with_a_new_secret(client, conn) -> None:
    enc = await open_encounter(client)
    mira = await add(client, enc, "Mira")
    body = {"role": "player", "combatant_ids": [mira]}
    first = (await client.post(f"/encounters/{enc}/tokens", json=body, headers={"Idempotency-Key": "t1"})).json()
    again = (await client.post(f"/encounters/{enc}/tokens", json=body, headers={"Idempotency-Key": "t1"})).json()
    assert first["id"] == again["id"] and first["token"] != again["token"]
    assert await conn.fetchval("SELECT count(*) FROM tokens WHERE role = 'player'") == 1
    assert (await client.get(f"/encounters/{enc}", headers={"Authorization": f"Bearer {first['token']}"})
            ).status_code == 401
    assert (await client.get(f"/encounters/{enc}", headers={"Authorization": f"Bearer {again['token']}"})
            ).status_code == 200
    other = await client.post(f"/encounters/{enc}/tokens", json={"role": "spectator"},
                              headers={"Idempotency-Key": "t1"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


async def test_rate_limit_per_token_answers_429_with_retry_after(database_url) -> None:
    async with app_client(database_url, settings(rate_limit=1.0, rate_burst=3)) as c:
        enc = await open_encounter(c)  # the first request, without a token, has its own bucket
        statuses = [(await c.get(f"/encounters/{enc}")).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        r = await c.get(f"/encounters/{enc}")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert r.headers["content-type"].startswith("application/problem+json")
        assert int(r.headers["retry-after"]) >= 1
        # the limit is the token's: a request without it (its own bucket) still passes
        assert (await c.get("/rulesets", headers={"Authorization": ""})).status_code == 200


async def test_rate_limit_counts_per_token_however_spelt_and_per_address_without_one(database_url) -> None:
    """Issue 16: "The rate limit counts per token identity (however the header is spelt) and per
    client address for requests without a valid token." Over HTTP and the live WebSocket."""
    async with served(database_url, settings(rate_limit=1.0, rate_burst=3), heartbeat_seconds=30) as s, \
            httpx.AsyncClient(base_url=s.base) as c:
        enc = await open_encounter(c)  # from the address's bucket: 2 left; the GM token's is full
        gm = c.headers.pop("Authorization").removeprefix("Bearer ")
        path = f"/encounters/{enc}"
        spelt = [f"Bearer {gm}", f"bearer {gm}", f"BEARER    {gm}", f"Bearer {gm}"]
        assert [(await c.get(path, headers={"Authorization": a})).status_code for a in spelt] == [200, 200, 200, 429]
        # without a valid token: the address's bucket, whatever the token
        bogus = [(await c.get(path, headers={"Authorization": f"Bearer frc_{uuid.uuid4().hex}"})).status_code
                 for _ in range(3)]
        assert bogus == [401, 401, 429]
        for headers in [{}, {"Authorization": "Basic abc"}, {"Authorization": f"Bearer frc_{uuid.uuid4().hex}"}]:
            r = await c.get(path, headers=headers)
            assert (r.status_code, r.json()["code"]) == (429, "rate_limited"), r.text
            assert int(r.headers["retry-after"]) >= 1
        w = await watch_ws(f"{s.ws_base}{path}/live?token=frc_{uuid.uuid4().hex}")
        assert await w.ended() == (4429, "rate_limited")
        assert w.messages[0]["type"] == "error" and w.messages[0]["code"] == "rate_limited"
        # the GM's bucket is its own: a second later, the token passes while its address is limited
        await asyncio.sleep(1.1)
        assert [(await c.get(path, headers={"Authorization": a})).status_code
                for a in (f"Bearer frc_{uuid.uuid4().hex}", "Bearer frc_nope", f"bearer  {gm}")] == [401, 429, 200]


async def test_cors_is_off_by_default_and_configurable(database_url) -> None:
    origin = {"Origin": "https://vtt.example"}
    async with app_client(database_url) as c:
        r = await c.get("/rulesets", headers=origin)
        assert "access-control-allow-origin" not in r.headers
    async with app_client(database_url, settings(cors_origins=("https://vtt.example",))) as c:
        r = await c.get("/rulesets", headers=origin)
        assert r.headers["access-control-allow-origin"] == "https://vtt.example"
        pre = await c.options("/rulesets", headers={**origin, "Access-Control-Request-Method": "POST",
                                                    "Access-Control-Request-Headers": "authorization,if-match"})
        assert pre.status_code in (200, 204)
        assert "authorization" in pre.headers["access-control-allow-headers"].lower()
        r = await c.get("/rulesets", headers={"Origin": "https://evil.example"})
        assert r.headers.get("access-control-allow-origin") != "https://evil.example"


async def test_a_refusal_never_names_a_hidden_combatant(client) -> None:
    """"a player or spectator sees a hidden combatant nowhere": not even in why a command was refused."""
    enc = await open_encounter(client, dice_policy="mixed")
    mira = await add(client, enc, "Mira")
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True})
    assassin = r.json()["events"][0]["data"]["combatant_id"]
    await command(client, enc, {"type": "RollInitiative", "dice": [1, 12]})  # the GM's NPCs go first
    await command(client, enc, {"type": "StartEncounter"})
    as_player = await mint(client, enc, "player", [mira])
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": mira},
                          headers=as_player)
    assert r.status_code == 422 and r.json()["code"] == "not_your_turn"
    assert "Assassin" not in r.text and assassin not in r.text
    # the GM gets the full explanation
    gm = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": mira})
    assert "Lurking Assassin" in gm.json()["detail"]


async def test_a_removed_hidden_combatant_stays_hidden(client) -> None:
    enc = await open_encounter(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True})
    assassin = r.json()["events"][0]["data"]["combatant_id"]
    mira = await add(client, enc, "Mira")
    await command(client, enc, {"type": "RemoveCombatant", "combatant_id": assassin})
    as_player = await mint(client, enc, "player", [mira])
    events = (await client.get(f"/encounters/{enc}/events", headers=as_player)).text
    assert "Assassin" not in events and assassin not in events
    assert events.count('"type":"Redacted"') == 2  # added, removed
