"""The permissions matrix of issue 3: for each route and each role, the expected status.

"A permissions matrix test: for each route and each role (none, GM, own player, other
player, spectator, token of another encounter), the expected status. A new route without
an entry in the matrix fails the test."

The roles, as requests carry them:

- ``none``: no ``Authorization`` header;
- ``gm``: the encounter's GM token;
- ``own_player``: a player token bound to the combatant the request acts for (Mira);
- ``other_player``: a player token of the same encounter bound to another combatant (Kess);
- ``spectator``: a read-only token of the encounter;
- ``other_encounter``: the GM token of a different encounter.

Every cell runs against a fresh encounter (so no cell spends another's Action Points or
revokes another's token) on one server and database shared by the module.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any

import asyncpg
import httpx
import pytest

from server.app import create_app
from server.settings import Settings
from server.webhooks.delivery import WebhookSettings
from tests.conftest import TEMPLATE, app_client, with_database
from tests.integration.fight import POP

ROLES = ("none", "gm", "own_player", "other_player", "spectator", "other_encounter")
PROBLEM = "application/problem+json"

# ---------------------------------------------------------------------------- the matrix

Expect = tuple[int, str | None]  # the status, and for a refusal its problem `code`

TOKEN_REQUIRED: Expect = (401, "token_required")
WRONG_ENCOUNTER: Expect = (403, "wrong_encounter")
READ_ONLY: Expect = (403, "read_only_token")
GM_ONLY: Expect = (403, "gm_only")
NOT_YOURS: Expect = (403, "not_your_combatant")


def public(status: int) -> dict[str, Expect]:
    """A route open to everyone (without an operator key): every role succeeds."""
    return {role: (status, None) for role in ROLES}


def guarded(*, gm: Expect, own_player: Expect, other_player: Expect, spectator: Expect) -> dict[str, Expect]:
    """An encounter route: "no token is 401; a valid token for another encounter ... is 403"."""
    return {
        "none": TOKEN_REQUIRED,
        "gm": gm,
        "own_player": own_player,
        "other_player": other_player,
        "spectator": spectator,
        "other_encounter": WRONG_ENCOUNTER,
    }


ENC = "/encounters/{encounter_id:uuid}"
READ: dict[str, Expect] = guarded(gm=(200, None), own_player=(200, None), other_player=(200, None),
                                  spectator=(200, None))

MATRIX: dict[tuple[str, str], dict[str, Expect]] = {
    ("POST", "/encounters"): public(201),
    ("GET", "/encounters"): public(200),
    ("GET", ENC): READ,
    ("GET", f"{ENC}/events"): READ,
    ("GET", f"{ENC}/live"): READ,  # the live stream by SSE (follow=false here: it ends); WebSocket: LIVE_WEBSOCKET
    ("GET", f"{ENC}/state"): READ,  # time travel (?at=N), filtered for the caller as of N
    ("GET", f"{ENC}/actions"): READ,  # the next moves: each viewer its own (a spectator is offered nothing)
    ("GET", f"{ENC}/log"): READ,  # the readable log, filtered for the caller
    ("GET", f"{ENC}/timeline.svg"): READ,  # the timeline, filtered for the caller
    ("GET", f"{ENC}/audit"): READ,  # any token of the encounter may audit it (filtered for its role)
    ("GET", f"{ENC}/summary"): READ,  # read models: filtered for the caller
    ("GET", f"{ENC}/statistics"): READ,
    ("POST", f"{ENC}/combatants"): guarded(gm=(201, None), own_player=GM_ONLY, other_player=GM_ONLY,
                                           spectator=READ_ONLY),
    ("POST", f"{ENC}/commands"): guarded(gm=(200, None), own_player=(200, None), other_player=NOT_YOURS,
                                         spectator=READ_ONLY),
    ("POST", f"{ENC}/tokens"): guarded(gm=(201, None), own_player=GM_ONLY, other_player=GM_ONLY,
                                       spectator=READ_ONLY),
    ("GET", f"{ENC}/tokens"): guarded(gm=(200, None), own_player=GM_ONLY, other_player=GM_ONLY,
                                      spectator=GM_ONLY),
    ("DELETE", f"{ENC}/tokens/{{token_id:uuid}}"): guarded(gm=(204, None), own_player=GM_ONLY,
                                                          other_player=GM_ONLY, spectator=READ_ONLY),
    # webhooks: an encounter's are the GM's; those for every encounter need the operator key,
    # which this server has not: refused to everyone (tests/integration/webhooks/test_webhooks.py has the key)
    ("POST", f"{ENC}/webhooks"): guarded(gm=(201, None), own_player=GM_ONLY, other_player=GM_ONLY,
                                         spectator=READ_ONLY),
    ("GET", f"{ENC}/webhooks"): guarded(gm=(200, None), own_player=GM_ONLY, other_player=GM_ONLY,
                                        spectator=GM_ONLY),
    ("POST", f"{ENC}/webhooks/{{webhook_id:uuid}}/resume"): guarded(gm=(200, None), own_player=GM_ONLY,
                                                                   other_player=GM_ONLY, spectator=READ_ONLY),
    ("DELETE", f"{ENC}/webhooks/{{webhook_id:uuid}}"): guarded(gm=(204, None), own_player=GM_ONLY,
                                                              other_player=GM_ONLY, spectator=READ_ONLY),
    ("POST", f"{ENC}/webhooks/{{webhook_id:uuid}}/secret"): guarded(gm=(200, None), own_player=GM_ONLY,
                                                                   other_player=GM_ONLY, spectator=READ_ONLY),
    ("POST", "/webhooks/{webhook_id:uuid}/secret"): {role: (403, "operator_key_not_set") for role in ROLES},
    # the metrics tell of every table: the operator key's only (tests/integration/http/test_metrics.py has it)
    ("GET", "/metrics"): {role: (403, "operator_key_not_set") for role in ROLES},
    ("POST", "/webhooks"): {role: (403, "operator_key_not_set") for role in ROLES},
    ("GET", "/webhooks"): {role: (403, "operator_key_not_set") for role in ROLES},
    ("POST", "/webhooks/{webhook_id:uuid}/resume"): {role: (403, "operator_key_not_set") for role in ROLES},
    ("DELETE", "/webhooks/{webhook_id:uuid}"): {role: (403, "operator_key_not_set") for role in ROLES},
    ("GET", "/rulesets"): public(200),
    ("GET", "/rulesets/{ruleset_id:str}"): public(200),
    ("GET", "/rulesets/{ruleset_id:str}/odds"): public(200),  # Places of Power's URL among them (issue 18)
    ("GET", "/health"): public(200),
    # the web table's pages and their files (server/http/web_pages.py): static, the token stays in the page
    ("GET", "/"): public(200),
    ("GET", "/play"): public(200),
    ("GET", "/watch"): public(200),
    ("GET", "/web/{file_path:path}"): public(200),
}

# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Table:
    """A fight in progress, round 1, Mira's turn (Mira 12 + 2, the GM 1 + 1, Kess 1 + 0:
    the order is Mira, Bandit, Kess), and the headers of every role."""

    enc: str
    mira: str
    kess: str
    bandit: str
    headers: dict[str, dict[str, str]]
    gm: dict[str, str]
    revocable: str  # a spectator token's id, minted for this cell alone
    webhook: str  # a webhook's id (to a closed port of 127.0.0.1: nothing is delivered), this cell's alone


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def open_table(client: httpx.AsyncClient, name: str, headers: dict[str, str] | None = None,
                     **extra: Any) -> tuple[str, dict[str, str]]:
    """Open an encounter; returns its id and the GM's headers (the client keeps no default header)."""
    r = await client.post("/encounters", json={"ruleset": POP, "name": name, **extra}, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()["encounter_id"], bearer(r.json()["gm_token"]["token"])


async def gm_post(client: httpx.AsyncClient, gm: dict[str, str], url: str, body: dict[str, Any],
                  expect: int = 200) -> Any:
    r = await client.post(url, json=body, headers=gm)
    assert r.status_code == expect, r.text
    return r.json()


async def set_table(client: httpx.AsyncClient, webhook: bool = True) -> Table:
    enc, gm = await open_table(client, "The matrix", dice_policy="mixed")
    ids = {}
    for name, controller, modifier in [("Mira", "player", 2), ("Kess", "player", 0), ("Bandit", "gm", 1)]:
        added = await gm_post(client, gm, f"/encounters/{enc}/combatants", {
            "name": name, "side": "party" if controller == "player" else "enemies", "controller": controller,
            "sheet": {"initiative_modifier": modifier},
        }, 201)
        ids[name] = added["events"][0]["data"]["combatant_id"]
    await gm_post(client, gm, f"/encounters/{enc}/commands", {"type": "RollInitiative", "dice": [12, 1, 1]})
    started = await gm_post(client, gm, f"/encounters/{enc}/commands", {"type": "StartEncounter"})
    assert started["state"]["order"] == [ids["Mira"], ids["Bandit"], ids["Kess"]]
    assert started["state"]["turn"] == ids["Mira"]

    async def token(role: str, combatant_ids: list[str]) -> dict[str, Any]:
        return await gm_post(client, gm, f"/encounters/{enc}/tokens",
                             {"role": role, "combatant_ids": combatant_ids}, 201)

    _, other_gm = await open_table(client, "Another table")
    return Table(
        enc=enc, mira=ids["Mira"], kess=ids["Kess"], bandit=ids["Bandit"], gm=gm,
        headers={
            "none": {},
            "gm": gm,
            "own_player": bearer((await token("player", [ids["Mira"]]))["token"]),
            "other_player": bearer((await token("player", [ids["Kess"]]))["token"]),
            "spectator": bearer((await token("spectator", []))["token"]),
            "other_encounter": other_gm,
        },
        revocable=(await token("spectator", []))["id"],
        webhook=(await gm_post(client, gm, f"/encounters/{enc}/webhooks", {"url": WEBHOOK_URL}, 201))["webhook_id"]
        if webhook else "",
    )


# A legal body for each route that takes one; the command acts for the own player's combatant.
BODIES: dict[tuple[str, str], Callable[[Table], dict[str, Any]]] = {
    ("POST", "/encounters"): lambda t: {"ruleset": POP, "name": "Another fight"},
    ("POST", f"{ENC}/combatants"): lambda t: {"name": "Wolf", "side": "enemies", "controller": "gm",
                                             "sheet": {"initiative_modifier": 0}},
    ("POST", f"{ENC}/commands"): lambda t: {"type": "TakeAction", "combatant_id": t.mira, "action": "TakeCover"},
    ("POST", f"{ENC}/tokens"): lambda t: {"role": "spectator", "label": "matrix"},
    ("POST", f"{ENC}/webhooks"): lambda t: {"url": WEBHOOK_URL},
    ("POST", f"{ENC}/webhooks/{{webhook_id:uuid}}/resume"): lambda t: {},
    ("POST", f"{ENC}/webhooks/{{webhook_id:uuid}}/secret"): lambda t: {},
    ("POST", "/webhooks/{webhook_id:uuid}/secret"): lambda t: {},
    ("POST", "/webhooks"): lambda t: {"url": WEBHOOK_URL},
    ("POST", "/webhooks/{webhook_id:uuid}/resume"): lambda t: {},
}
WEBHOOK_URL = "http://127.0.0.1:9/matrix"  # the discard port: closed here, so every delivery fails at once


def url_of(path: str, t: Table) -> str:
    url = (path.replace("{encounter_id:uuid}", t.enc).replace("{token_id:uuid}", t.revocable)
           .replace("{ruleset_id:str}", POP).replace("{webhook_id:uuid}", t.webhook)
           .replace("{file_path:path}", "fracas-client.js"))
    assert "{" not in url, f"no value for a path parameter of {path}: add one to url_of"
    return url + QUERIES.get(path, "")


# Required query parameters of the routes that have some.
QUERIES = {"/rulesets/{ruleset_id:str}/odds": "?attribute_die=D8&skill_die=D6", f"{ENC}/live": "?follow=false", f"{ENC}/state": "?at=3"}


async def snapshot(client: httpx.AsyncClient, t: Table) -> tuple[int, int]:
    """What a refused write must leave alone: the encounter's version and its tokens."""
    state = await client.get(f"/encounters/{t.enc}", headers=t.gm)
    tokens = await client.get(f"/encounters/{t.enc}/tokens", headers=t.gm)
    return state.json()["version"], len([x for x in tokens.json() if x["revoked_at"] is None])


def assert_answer(r: httpx.Response, expect: Expect) -> None:
    status, code = expect
    assert r.status_code == status, r.text
    if code is None:
        return
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert (body["status"], body["code"]) == (status, code), body
    if status == 401:
        assert r.headers["www-authenticate"].startswith("Bearer")


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
async def server(pg_admin_dsn: str, template_dsn: str) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
    """One app and database for the module; every cell opens encounters of its own."""
    name = f"perm_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(pg_admin_dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    finally:
        await admin.close()
    dsn = with_database(pg_admin_dsn, name)
    try:
        # the webhooks this matrix registers go to 127.0.0.1 (a closed port): allowed here
        async with app_client(dsn, webhook_settings=WebhookSettings(allow_private=True)) as c:
            yield c, dsn
    finally:
        admin = await asyncpg.connect(pg_admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


# ------------------------------------------------------------------------------- tests


def app_routes() -> set[tuple[str, str]]:
    """Every (method, path) the app serves, but the OpenAPI document and its viewers."""
    app = create_app("postgresql://unused/unused", Settings.from_env())
    return {
        (method, route.path)
        for route in app.routes
        if not route.path.startswith("/schema") and route.path != "/docs"
        for handler in getattr(route, "route_handlers", [])
        for method in handler.http_methods
        if method not in ("HEAD", "OPTIONS")
    }


def test_every_route_has_an_entry_in_the_matrix() -> None:
    """"A new route without an entry in the matrix fails the test"; and an entry for a route
    that is gone fails it too, so the matrix stays the app's."""
    routes = app_routes()
    assert routes - MATRIX.keys() == set(), "routes without an entry in the permissions matrix"
    assert MATRIX.keys() - routes == set(), "matrix entries for routes the app does not serve"


def test_every_entry_names_every_role() -> None:
    for key, row in MATRIX.items():
        assert set(row) == set(ROLES), key


CELLS = [
    pytest.param(method, path, role, expect, id=f"{method} {path} as {role}")
    for (method, path), row in MATRIX.items()
    for role, expect in row.items()
]


@pytest.mark.parametrize(("method", "path", "role", "expect"), CELLS)
async def test_permissions(server, method: str, path: str, role: str, expect: Expect) -> None:
    """"Every route is guarded: no token is 401; a valid token for another encounter, a
    spectator writing, or a player acting for a combatant that is not theirs is 403.
    Problem details, stable codes." A refused write changes nothing."""
    client, _ = server
    t = await set_table(client)
    body = BODIES[(method, path)](t) if (method, path) in BODIES else None
    writes_encounter = method != "GET" and path.startswith(ENC)
    before = await snapshot(client, t) if writes_encounter else None

    r = await client.request(method, url_of(path, t), json=body, headers=t.headers[role])
    assert_answer(r, expect)

    if writes_encounter and expect[0] >= 400:
        assert await snapshot(client, t) == before, "a refused write changed the encounter"
    if method == "DELETE" and "webhooks" in path:  # a refused delete leaves the webhook; a delete ends it
        listed = (await client.get(f"/encounters/{t.enc}/webhooks", headers=t.gm)).json()
        assert [x["webhook_id"] for x in listed] == ([] if expect[0] == 204 else [t.webhook])
    elif method == "DELETE":  # a refused revoke leaves the token working; a revoke stops it
        revoked = expect[0] == 204
        listed = (await client.get(f"/encounters/{t.enc}/tokens", headers=t.gm)).json()
        assert [x["revoked_at"] is not None for x in listed if x["id"] == t.revocable] == [revoked]


# GM-only commands, as a player (whose combatant it is not about, or is) sends them. The
# body of each is valid; the refusal comes before the rules are asked.
GM_COMMANDS: dict[str, Callable[[Table], dict[str, Any]]] = {
    "RollInitiative": lambda t: {"type": "RollInitiative"},
    "RollInitiative (secret)": lambda t: {"type": "RollInitiative", "secret": True},
    "SetTurnOrder": lambda t: {"type": "SetTurnOrder", "order": [t.mira, t.bandit, t.kess]},
    "StartEncounter": lambda t: {"type": "StartEncounter"},
    "EndEncounter": lambda t: {"type": "EndEncounter"},
    "AddCombatant": lambda t: {"type": "AddCombatant", "name": "Wolf", "side": "enemies", "controller": "gm"},
    "RemoveCombatant (own)": lambda t: {"type": "RemoveCombatant", "combatant_id": t.mira},
    "RevealCombatant": lambda t: {"type": "RevealCombatant", "combatant_id": t.bandit},
    "RevealRoll": lambda t: {"type": "RevealRoll", "version": 5},
    "Retcon": lambda t: {"type": "Retcon", "to_version": 6, "reason": "the GM's alone"},
}

EXTRA_CELLS = [
    pytest.param(body, role, expect, id=f"{name} as {role}")
    for name, body in GM_COMMANDS.items()
    for role, expect in [("own_player", GM_ONLY), ("other_player", GM_ONLY), ("spectator", READ_ONLY),
                         ("none", TOKEN_REQUIRED), ("other_encounter", WRONG_ENCOUNTER)]
] + [
    # a player acting for someone else: an NPC, or the other player's combatant (ending their turn)
    pytest.param(lambda t: {"type": "TakeAction", "combatant_id": t.bandit, "action": "NotchArrow"}, "own_player",
                 NOT_YOURS, id="TakeAction for the NPC as own_player"),
    pytest.param(lambda t: {"type": "EndTurn", "combatant_id": t.mira}, "other_player", NOT_YOURS,
                 id="EndTurn for Mira as other_player"),
    # and the legal ones
    pytest.param(lambda t: {"type": "EndTurn", "combatant_id": t.mira}, "own_player", (200, None),
                 id="EndTurn for Mira as own_player"),
    pytest.param(lambda t: {"type": "RollInitiative"}, "gm", (200, None), id="RollInitiative as gm"),
    pytest.param(lambda t: {"type": "EndEncounter"}, "gm", (200, None), id="EndEncounter as gm"),
]


@pytest.mark.parametrize(("body", "role", "expect"), EXTRA_CELLS)
async def test_command_permissions(server, body: Callable[[Table], dict[str, Any]], role: str,
                                   expect: Expect) -> None:
    """"A player may declare actions only for their combatants ...; GM-only commands (set
    difficulty, apply a status, adjust Hits, re-roll initiative, end the encounter, retcon)
    are the GM's alone.\""""
    client, _ = server
    t = await set_table(client)
    before = await snapshot(client, t)
    r = await client.post(f"/encounters/{t.enc}/commands", json=body(t), headers=t.headers[role])
    assert_answer(r, expect)
    after = await snapshot(client, t)
    assert (after == before) == (expect[0] >= 400)


# ------------------------------------------------------------------- the operator key

OPERATOR_KEY = "op_" + "k" * 40


@pytest.mark.parametrize(("method", "auth", "expect"), [
    pytest.param(method, auth, expect, id=f"{method} /encounters with {label}")
    for method, ok in [("POST", 201), ("GET", 200)]
    for label, auth, expect in [
        ("no key", None, (401, "operator_key_required")),
        ("a wrong key", "op_wrong", (403, "operator_key_invalid")),
        ("an encounter's GM token", "gm", (403, "operator_key_invalid")),
        ("the operator key", OPERATOR_KEY, (ok, None)),
    ]
])
async def test_the_operator_key_guards_opening_and_listing(server, method: str, auth: str | None,
                                                           expect: Expect) -> None:
    """"Creating encounters: open by default for a local server; when the server is started
    with an operator key (env var or CLI flag), creating an encounter requires it.\""""
    _, dsn = server
    settings = replace(Settings.from_env(), operator_key=OPERATOR_KEY, rate_limit=0)
    async with app_client(dsn, settings) as client:
        headers = {}
        if auth == "gm":  # a real token, of an encounter opened with the key
            _, headers = await open_table(client, "Keyed", bearer(OPERATOR_KEY))
        elif auth is not None:
            headers = bearer(auth)
        body = {"ruleset": POP, "name": "Keyed table"} if method == "POST" else None
        r = await client.request(method, "/encounters", json=body, headers=headers)
        assert_answer(r, expect)


async def test_with_an_operator_key_the_other_routes_are_unchanged(server) -> None:
    """The operator key guards opening and listing encounters only: the public routes stay
    open, and an encounter's routes still take the encounter's tokens."""
    _, dsn = server
    settings = replace(Settings.from_env(), operator_key=OPERATOR_KEY, rate_limit=0)
    async with app_client(dsn, settings) as client:
        for url in ("/health", "/rulesets", f"/rulesets/{POP}"):
            assert (await client.get(url)).status_code == 200, url
        r = await client.post("/encounters", json={"ruleset": POP, "name": "Keyed"}, headers=bearer(OPERATOR_KEY))
        enc, gm = r.json()["encounter_id"], bearer(r.json()["gm_token"]["token"])
        assert (await client.get(f"/encounters/{enc}", headers=gm)).status_code == 200
        assert_answer(await client.get(f"/encounters/{enc}", headers=bearer(OPERATOR_KEY)), (401, "token_invalid"))
        assert_answer(await client.get(f"/encounters/{enc}"), TOKEN_REQUIRED)


# ------------------------------------------------------------------- the live WebSocket

# The same path upgrades to a WebSocket (not an HTTP route: the matrix above cannot hold it). A
# refusal is an `error` message and a close code of 4000 + the status; None: the stream opens.
LIVE_WEBSOCKET: dict[str, tuple[int, str] | None] = {
    "none": (4401, "token_required"), "gm": None, "own_player": None, "other_player": None, "spectator": None,
    "other_encounter": (4403, "wrong_encounter"),
}


def test_the_only_websocket_route_is_the_live_stream() -> None:
    """A new WebSocket route needs a matrix of its own, like LIVE_WEBSOCKET."""
    from litestar.routes import WebSocketRoute

    app = create_app("postgresql://unused/unused", Settings.from_env())
    assert {r.path for r in app.routes if isinstance(r, WebSocketRoute)} == {f"{ENC}/live"}
    assert set(LIVE_WEBSOCKET) == set(ROLES)


def test_the_only_mounted_asgi_route_is_the_mcp_door() -> None:
    """/mcp answers the Model Context Protocol; each of its tools is answered by the API with the
    token the call carries (tests/e2e/test_agents.py: no token, token_required; a player's agent
    refused the GM's moves). A new ASGI route needs a matrix of its own."""
    from litestar.routes import ASGIRoute

    app = create_app("postgresql://unused/unused", Settings.from_env())
    assert {r.path for r in app.routes if isinstance(r, ASGIRoute)} == {"/mcp"}


async def test_live_websocket_permissions(server) -> None:
    """The live WebSocket takes the same tokens as the reads: any token of the encounter."""
    from tests.integration.live import live_url, served, watch_ws

    _, dsn = server
    async with served(dsn) as s, httpx.AsyncClient(base_url=s.base) as client:
        t = await set_table(client, webhook=False)
        for role, expect in LIVE_WEBSOCKET.items():
            w = await watch_ws(live_url(s.base, t.enc, ws=True), role, t.headers[role])
            if expect is None:
                await w.until(lambda w: w.state is not None)
                assert w.messages[0]["role"] == role.removeprefix("own_").removeprefix("other_"), role
                await w.stop()
            else:
                assert await w.ended() == expect, role
                assert (w.messages[0]["type"], w.messages[0]["code"]) == ("error", expect[1])
