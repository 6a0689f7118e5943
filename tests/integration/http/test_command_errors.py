"""A refused body says what to put right (issue 17): the command and the field, the values an
enum allows, the command a mistyped ``type`` meant; not the list of every command, and an empty
body is "The body is empty", not a parser's "Input data was truncated"."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from domain.rulesets import default_registry
from tests.integration.fight import POP, open_encounter, started_fight
from tests.integration.http.test_api import assert_problem

JSON = {"content-type": "application/json"}
RULESET = default_registry().get(POP)
KINDS = {t.__struct_config__.tag: t for t in RULESET.command_types}


def literal_values(command: str, field: str) -> list[str]:
    """The values the command's field allows, read off its Literal annotation."""
    return sorted(typing.get_args(typing.get_type_hints(KINDS[command])[field]))


def names_in(text: str) -> set[str]:
    return {name for name in KINDS if f"`{name}`" in text or f" {name} " in f" {text} "}


async def _refused(client: Any, enc: str, body: bytes | dict[str, Any], status: int = 422,
                   code: str = "invalid_command") -> dict[str, Any]:
    before = (await client.get(f"/encounters/{enc}")).json()["version"]
    if isinstance(body, bytes):
        r = await client.post(f"/encounters/{enc}/commands", content=body, headers=JSON)
    else:
        r = await client.post(f"/encounters/{enc}/commands", json=body)
    problem = assert_problem(r, status, code)
    assert (await client.get(f"/encounters/{enc}")).json()["version"] == before
    assert len(names_in(problem["detail"])) <= 1, f"lists commands: {problem['detail']}"
    return problem


@pytest.mark.parametrize("path", ["/encounters", "{enc}/combatants", "{enc}/commands", "{enc}/tokens"])
@pytest.mark.parametrize("body", [b"", b"  \r\n"])
async def test_an_empty_body_is_said_to_be_empty(client, path: str, body: bytes) -> None:
    enc = await open_encounter(client)
    r = await client.post(path.replace("{enc}", f"/encounters/{enc}"), content=body, headers=JSON)
    problem = assert_problem(r, 400, "malformed_json")
    assert problem["detail"].startswith("The body is empty"), problem["detail"]
    assert "truncated" not in problem["detail"]


@pytest.mark.parametrize(("typed", "meant"), [("Endturn", "EndTurn"), ("endturn", "EndTurn"),
                                               ("Atack", "Attack"), ("RollInitative", "RollInitiative")])
async def test_a_mistyped_command_gets_the_nearest_one(client, typed: str, meant: str) -> None:
    enc, mira, _ = await started_fight(client)
    problem = await _refused(client, enc, {"type": typed, "combatant_id": mira})
    assert f"did you mean `{meant}`?" in problem["detail"], problem["detail"]
    assert problem["details"] == {"field": "type", "suggestion": meant}


async def test_an_unknown_command_with_no_near_one_points_to_the_ruleset(client) -> None:
    enc, _, _ = await started_fight(client)
    problem = await _refused(client, enc, {"type": "Teleport"})
    assert "no command `Teleport`" in problem["detail"]
    assert f"GET /rulesets/{POP}" in problem["detail"]
    assert "suggestion" not in problem["details"]


@pytest.mark.parametrize("body", [{"combatant_id": "x"}, {"type": 7}, b"[1, 2, 3]", b'"EndTurn"'])
async def test_a_body_without_a_command_name_says_so(client, body: Any) -> None:
    enc, _, _ = await started_fight(client)
    problem = await _refused(client, enc, body)
    assert "`type`" in problem["detail"] or "JSON object" in problem["detail"], problem["detail"]
    assert f"GET /rulesets/{POP}" in problem["detail"]


async def test_a_missing_field_names_the_command_and_the_field(client) -> None:
    enc, _, _ = await started_fight(client)
    problem = await _refused(client, enc, {"type": "EndTurn"})
    assert problem["detail"] == "EndTurn needs the field `combatant_id`."
    assert problem["details"] == {"command": "EndTurn", "field": "combatant_id"}


async def test_a_wrong_type_names_the_command_and_the_field(client) -> None:
    enc, _, _ = await started_fight(client)
    problem = await _refused(client, enc, {"type": "TakeAction", "combatant_id": 7, "action": "Dash"})
    assert problem["detail"].startswith("TakeAction's `combatant_id`: Expected `str`, got `int`")
    assert problem["details"] == {"command": "TakeAction", "field": "combatant_id"}


@pytest.mark.parametrize(("body", "field", "path"), [
    ({"type": "TakeAction", "action": "Fly"}, "action", "action"),
    ({"type": "Attack", "attack": "Light", "band": "Melee"}, "attack", "attack"),
    ({"type": "Attack", "attack": "LightMelee", "band": "Beside"}, "band", "band"),
])
async def test_a_wrong_enum_value_lists_the_allowed_ones(client, body: dict[str, Any], field: str, path: str) -> None:
    enc, mira, bandit = await started_fight(client)
    body = {"combatant_id": mira, **({"target": bandit} if body["type"] == "Attack" else {}), **body}
    problem = await _refused(client, enc, body)
    allowed = literal_values(body["type"], field)
    assert problem["details"] == {"command": body["type"], "field": path, "allowed": allowed}
    assert problem["detail"].startswith(f"{body['type']}'s `{path}` cannot be '{body[field]}'")
    for value in allowed:
        assert f"`{value}`" in problem["detail"]


async def test_a_wrong_value_inside_a_list_names_its_place(client) -> None:
    enc, mira, bandit = await started_fight(client)
    problem = await _refused(client, enc, {"type": "Attack", "combatant_id": mira, "target": bandit,
                                           "attack": "LightMelee", "band": "Melee", "modifiers": ["Steady", "Sneaky"]})
    assert problem["details"]["field"] == "modifiers[1]"
    assert problem["details"]["allowed"] == sorted(["Knockdown", "Steady", "TargetedHit"])


async def test_an_unknown_field_gets_the_nearest_one_or_the_command_s_fields(client) -> None:
    enc, mira, _ = await started_fight(client)
    problem = await _refused(client, enc, {"type": "EndTurn", "combatant": mira})
    assert problem["detail"] == "EndTurn has no field `combatant`: did you mean `combatant_id`?"
    problem = await _refused(client, enc, {"type": "EndTurn", "combatant_id": mira, "speed": 3})
    assert problem["detail"] == "EndTurn has no field `speed` (its fields: `combatant_id`, `dice`)."
    assert problem["details"] == {"command": "EndTurn", "field": "speed"}


async def test_other_bodies_name_the_field_and_the_allowed_values_too(client) -> None:
    enc = await open_encounter(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={"name": "Mira", "side": "party", "controller": "king"})
    problem = assert_problem(r, 422, "invalid_body")
    assert problem["details"] == {"field": "controller", "allowed": ["gm", "player"]}
    assert "`gm`, `player`" in problem["detail"]
    r = await client.post("/encounters", json={"ruleset": POP, "name": "Ford", "dice_policy": "loaded"})
    problem = assert_problem(r, 422, "invalid_body")
    assert problem["details"] == {"field": "dice_policy", "allowed": ["mixed", "reported", "seeded"]}
    r = await client.post(f"/encounters/{enc}/tokens", json={"combatant_ids": []})
    problem = assert_problem(r, 422, "invalid_body")
    assert problem["detail"] == "The body needs the field `role`."
