"""The OpenAPI document tells a newcomer and a generated client what they need (issue 17):
a short stable id, a description and the token of every operation, described parameters, and
examples of the main bodies that the app decodes and a real server accepts. The security it
declares is checked against what the server enforces, token by token."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import replace
from typing import Any

import pytest

from domain.rulesets import default_registry
from server.http.api import _combatant_decoder, _open_decoder, _token_decoder
from server.cli import render_openapi
from server.schema.openapi_examples import EXAMPLES
from server.settings import Settings
from tests.conftest import app_client
from tests.integration.fight import POP

DOC = json.loads(render_openapi())
OPERATIONS = [(path, method, op) for path, item in DOC["paths"].items() for method, op in item.items()]
BY_ID = {op["operationId"]: (path, method, op) for path, method, op in OPERATIONS}
DECODERS = {"openEncounter": _open_decoder, "addCombatant": _combatant_decoder, "mintToken": _token_decoder,
            "sendCommand": default_registry().get(POP).command_decoder}


def test_every_operation_has_a_short_id_a_description_and_its_security() -> None:
    ids = [op.get("operationId") for _, _, op in OPERATIONS]
    assert len(set(ids)) == len(ids)
    schemes = DOC["components"]["securitySchemes"]
    assert set(schemes) == {"operatorKey", "gmToken", "playerToken", "spectatorToken"}
    for scheme in schemes.values():
        assert (scheme["type"], scheme["scheme"]) == ("http", "bearer") and scheme["description"]
    for path, method, op in OPERATIONS:
        where = f"{method.upper()} {path}"
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+", op["operationId"]), where
        assert len(op["operationId"]) <= 20, where
        assert op.get("summary") and op.get("description"), where
        assert "security" in op, where
        for requirement in op["security"]:
            assert set(requirement) <= set(schemes), where
        assert "Token: " in op["description"], where
        for parameter in op.get("parameters", []):
            assert parameter.get("description"), f"{where}: {parameter['name']}"
    assert set(BY_ID) >= {"sendCommand", "getEncounter", "listEncounters", "openEncounter", "addCombatant",
                          "mintToken", "revokeToken", "listEvents", "getRuleset"}


def test_the_main_bodies_have_examples_the_app_decodes() -> None:
    for operation_id, decoder in DECODERS.items():
        path, method, op = BY_ID[operation_id]
        examples = op["requestBody"]["content"]["application/json"]["examples"]
        assert [e.name for e in EXAMPLES[operation_id]] == list(examples)
        for name, example in examples.items():
            assert example["summary"], (operation_id, name)
            decoder.decode(json.dumps(example["value"]))  # strictly, as the routes decode them


async def test_the_examples_are_accepted_by_a_real_server_in_order(client) -> None:
    def examples(operation_id: str) -> list[dict[str, Any]]:
        path, method, op = BY_ID[operation_id]
        return [e["value"] for e in op["requestBody"]["content"]["application/json"]["examples"].values()]

    (opening,) = examples("openEncounter")
    r = await client.post("/encounters", json=opening)
    assert r.status_code == 201, r.text
    enc = r.json()["encounter_id"]
    client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
    for body in examples("sendCommand"):
        r = await client.post(f"/encounters/{enc}/commands", json=body)
        assert r.status_code == 200, (body, r.text)
        if body["type"] == "Attack":  # the Defend example names the attack by its version
            assert r.json()["events"][0]["data"]["attack_id"] == 7
    state = (await client.get(f"/encounters/{enc}")).json()
    assert state["combatants"]["bandit"]["sheet"]["hits"] == 2  # the Knife's 2 Hits, taken
    for body in examples("addCombatant"):
        r = await client.post(f"/encounters/{enc}/combatants", json=body)
        assert r.status_code == 201, (body, r.text)
    for body in examples("mintToken"):
        r = await client.post(f"/encounters/{enc}/tokens", json=body)
        assert r.status_code == 201, (body, r.text)


# ------------------------------------------------------------- the security, as enforced

OPERATOR_KEY = "op_docs_test_key"
# the routes for every encounter's webhooks: the operator key, on a server that has one
OPERATOR_ONLY = ("addServerWebhook", "listServerWebhooks", "resumeServerWebhook", "rotateServerWebhook", "getMetrics",
                 "deleteServerWebhook")
OPERATOR_ROUTES = ("openEncounter", "listEncounters", *OPERATOR_ONLY)


def _accepts(op: dict[str, Any], scheme: str | None) -> bool:
    """Whether the declared security lets a caller with ``scheme`` (None: no token) in."""
    return any((not req) if scheme is None else (scheme in req) for req in op["security"]) or op["security"] == []


async def _call(client: Any, path: str, method: str, op: dict[str, Any], ids: dict[str, str],
                token: str | None) -> int:
    url = path.format(**ids)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    params = {"follow": "false"} if op["operationId"] == "streamEncounter" else None
    if op["operationId"] == "getCheckOdds":
        params = {"attribute_die": "D8", "skill_die": "D6"}
    examples = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("examples", {})
    body = next(iter(examples.values()))["value"] if examples else {}
    if op["operationId"] == "sendCommand":  # one the player's combatant acts in (the fight has not begun: 422)
        body = {"type": "EndTurn", "combatant_id": ids["mira"]}
    content = json.dumps(body) if method == "post" else None
    r = await client.request(method.upper(), url, headers={**headers, "content-type": "application/json"},
                             params=params, content=content)
    assert r.status_code != 500, (method, url, r.text)
    return r.status_code


@pytest.mark.parametrize("who", ["nobody", "spectatorToken", "playerToken", "gmToken"])
async def test_the_declared_tokens_are_the_ones_the_server_takes(database_url: str, who: str) -> None:
    settings = replace(Settings.from_env(), rate_limit=0)
    async with app_client(database_url, settings) as client:
        r = await client.post("/encounters", json={"ruleset": POP, "name": "Ford"})
        enc, gm = r.json()["encounter_id"], r.json()["gm_token"]["token"]
        auth = {"Authorization": f"Bearer {gm}"}
        r = await client.post(f"/encounters/{enc}/combatants", headers=auth,
                              json={"name": "Mira", "side": "party", "controller": "player"})
        mira = r.json()["events"][0]["data"]["combatant_id"]
        tokens = {"gmToken": gm}
        for role, scheme in (("player", "playerToken"), ("spectator", "spectatorToken")):
            r = await client.post(f"/encounters/{enc}/tokens", headers=auth,
                                  json={"role": role, "combatant_ids": [mira] if role == "player" else []})
            tokens[scheme] = r.json()["token"]
        r = await client.post(f"/encounters/{enc}/tokens", headers=auth, json={"role": "spectator"})
        ids = {"encounter_id": enc, "token_id": r.json()["id"], "ruleset_id": POP, "mira": mira,
               "webhook_id": str(uuid.uuid4())}
        checked = 0
        for path, method, op in OPERATIONS:
            if op["operationId"] in OPERATOR_ROUTES:
                continue  # the operator key: below
            status = await _call(client, path, method, op, ids, tokens.get(who))
            if _accepts(op, None if who == "nobody" else who):
                assert status not in (401, 403), (who, op["operationId"], status)
            else:
                assert status == (401 if who == "nobody" else 403), (who, op["operationId"], status)
            checked += 1
        assert checked == len(OPERATIONS) - len(OPERATOR_ROUTES)


@pytest.mark.parametrize("key", [None, OPERATOR_KEY])
async def test_the_operator_key_is_declared_where_a_server_with_one_asks_for_it(database_url: str,
                                                                              key: str | None) -> None:
    settings = replace(Settings.from_env(), rate_limit=0, operator_key=OPERATOR_KEY)
    async with app_client(database_url, settings) as client:
        for operation_id in ("openEncounter", "listEncounters"):
            path, method, op = BY_ID[operation_id]
            assert op["security"] == [{"operatorKey": []}, {}]  # the key, or none on a server without one
            status = await _call(client, path, method, op, {}, key)
            assert (status == 401) == (key is None), (operation_id, status)
        for operation_id in OPERATOR_ONLY:
            path, method, op = BY_ID[operation_id]
            assert op["security"] == [{"operatorKey": []}]  # the key, always
            status = await _call(client, path, method, op, {"webhook_id": str(uuid.uuid4())}, key)
            assert (status == 401) == (key is None) and status != 403, (operation_id, status)
    async with app_client(database_url, replace(settings, operator_key=None)) as client:
        for operation_id in ("openEncounter", "listEncounters"):
            path, method, op = BY_ID[operation_id]
            assert await _call(client, path, method, op, {}, None) in (200, 201)
        for operation_id in OPERATOR_ONLY:  # a server with no key has no operator to take them
            path, method, op = BY_ID[operation_id]
            assert await _call(client, path, method, op, {"webhook_id": str(uuid.uuid4())}, None) == 403
