"""Hand-written bad input that fuzzing (test_fuzz.py) does not reach: every answer is a
problem detail with a stable code, never a 500, and nothing is appended.

Already covered in test_api.py and not repeated here: the oversized body on
`/combatants`, deep nesting in a sheet and in command dice, invalid UTF-8 in a command,
`after=-1` and `after=99999999999999999999` on `/events`, a d12 face of 13, and one
Idempotency-Key sent twice to `/commands` with different bodies.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.integration.fight import POP, add, mint, open_encounter, started_fight
from tests.integration.http.test_api import assert_problem

JSON = {"content-type": "application/json"}
NESTED = b"[" * 100_000 + b"]" * 100_000


async def _version(client: Any, enc: str) -> int:
    return (await client.get(f"/encounters/{enc}")).json()["version"]


# ------------------------------------------------------------------ huge and deep bodies


@pytest.mark.parametrize("path", ["/encounters", "{enc}/commands", "{enc}/tokens"])
async def test_huge_bodies_are_413_on_every_write_route(client, path: str) -> None:
    enc = await open_encounter(client)
    body = b'{"name": "' + b"a" * 300_000 + b'"}'
    r = await client.post(path.replace("{enc}", f"/encounters/{enc}"), content=body, headers=JSON)
    assert_problem(r, 413, "request_too_large")
    assert await _version(client, enc) == 1


async def test_a_huge_body_without_content_length_is_413(client) -> None:
    """Chunked, so the size is known only while reading: the limit still holds."""
    enc = await open_encounter(client)

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b" " * 10_000

    r = await client.post(f"/encounters/{enc}/commands", content=chunks(), headers=JSON)
    assert_problem(r, 413, "request_too_large")


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/encounters", b'{"ruleset": "places-of-power", "name": ' + NESTED + b"}", "invalid_body"),
        ("{enc}/tokens", b'{"role": "player", "combatant_ids": ' + NESTED + b"}", "invalid_body"),
        ("{enc}/commands", b'{"type": "TakeAction", "combatant_id": ' + b'{"a": ' * 20_000 + b"1"
         + b"}" * 20_000 + b"}", "invalid_command"),
    ],
)
async def test_deeply_nested_bodies_are_refused(client, path: str, body: bytes, code: str) -> None:
    enc = await open_encounter(client)
    r = await client.post(path.replace("{enc}", f"/encounters/{enc}"), content=body, headers=JSON)
    assert_problem(r, 422, code)
    assert await _version(client, enc) == 1


# ------------------------------------------------------------------------ invalid UTF-8


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/encounters", b'{"ruleset": "places-of-power", "name": "\xff\xfe"}'),
        ("{enc}/combatants", b'{"name": "\xc3\x28", "side": "party", "controller": "gm"}'),
        ("{enc}/tokens", b'{"role": "\xff"}'),
        # an encoded UTF-16 surrogate, and a lone surrogate written as an escape
        ("{enc}/commands", b'{"type": "TakeAction", "combatant_id": "\xed\xa0\x80", "action": "NotchArrow"}'),
        ("{enc}/commands", b'{"type": "TakeAction", "combatant_id": "\\ud800", "action": "NotchArrow"}'),
        ("/encounters", b'{"ruleset": "places-of-power", "name": "\\ud800"}'),
    ],
)
async def test_invalid_utf8_bodies_are_malformed_json(client, path: str, body: bytes) -> None:
    enc = await open_encounter(client)
    r = await client.post(path.replace("{enc}", f"/encounters/{enc}"), content=body, headers=JSON)
    assert_problem(r, 400, "malformed_json")
    assert await _version(client, enc) == 1


async def test_invalid_utf8_in_path_and_query(client) -> None:
    enc = await open_encounter(client)
    assert_problem(await client.get("/encounters/%FF"), 404, "not_found")
    assert_problem(await client.get(f"/encounters/{enc}/events?after=%FF"), 400, "invalid_parameter")


# ------------------------------------------------------------- negative or enormous `after`


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        ("events", {"after": 2**31}, 400, "invalid_parameter"),
        ("events", {"after": 2**63}, 400, "invalid_parameter"),
        ("events", {"limit": 2**40}, 400, "invalid_parameter"),
        ("state", {"at": -1}, 400, "invalid_parameter"),
        ("state", {"at": 0}, 400, "invalid_parameter"),
        ("state", {"at": 2**31}, 400, "invalid_parameter"),
        ("state", {"at": 2**31 - 1}, 404, "version_not_found"),
        ("live", {"after": -1, "follow": "false"}, 400, "invalid_parameter"),
        ("live", {"after": 2**31, "follow": "false"}, 400, "invalid_parameter"),
        ("live", {"after": 2**31 - 1, "follow": "false"}, 400, "after_beyond_version"),
    ],
)
async def test_versions_out_of_range(client, path: str, params: dict[str, Any], status: int, code: str) -> None:
    enc = await open_encounter(client)
    assert_problem(await client.get(f"/encounters/{enc}/{path}", params=params), status, code)


async def test_after_past_the_last_version_is_an_empty_page(client) -> None:
    enc = await open_encounter(client)
    r = await client.get(f"/encounters/{enc}/events", params={"after": 2**31 - 1})
    assert r.status_code == 200, r.text
    assert r.json() == {"events": [], "next_after": 2**31 - 1, "has_more": False}


# ------------------------------------------------------ a combatant of another encounter


async def test_a_combatant_of_another_encounter_is_unknown_here(client) -> None:
    enc, _, _ = await started_fight(client)
    gm = client.headers["Authorization"]
    other = await open_encounter(client, name="Elsewhere")
    stranger = await add(client, other, "Zed")
    other_gm = client.headers["Authorization"]
    client.headers["Authorization"] = gm
    for body in ({"type": "TakeAction", "combatant_id": stranger, "action": "NotchArrow"},
                 {"type": "EndTurn", "combatant_id": stranger},
                 {"type": "RemoveCombatant", "combatant_id": stranger}):
        r = await client.post(f"/encounters/{enc}/commands", json=body)
        assert_problem(r, 422, "unknown_combatant")
    r = await client.post(f"/encounters/{enc}/tokens", json={"role": "player", "combatant_ids": [stranger]})
    assert_problem(r, 422, "unknown_combatant")
    assert await _version(client, enc) == 6
    client.headers["Authorization"] = other_gm
    assert await _version(client, other) == 2


async def test_a_player_token_of_another_encounter_commands_nothing_here(client) -> None:
    enc, mira, _ = await started_fight(client)
    gm = client.headers["Authorization"]
    other = await open_encounter(client, name="Elsewhere")
    zed = await add(client, other, "Zed")
    zed_token = await mint(client, other, "player", [zed])
    client.headers["Authorization"] = gm
    r = await client.post(f"/encounters/{enc}/commands", headers=zed_token,
                          json={"type": "TakeAction", "combatant_id": mira, "action": "NotchArrow"})
    assert_problem(r, 403, "wrong_encounter")
    assert await _version(client, enc) == 6


# ------------------------------------------------------------------- dice out of range


@pytest.mark.parametrize(
    ("dice", "code"),
    [
        ([0, 1], "die_face_out_of_range"),
        ([-1, 1], "die_face_out_of_range"),
        ([1, 0], "die_face_out_of_range"),
        ([2**31, 1], "invalid_command"),
        ([1.5, 1], "invalid_command"),
        ([True, 1], "invalid_command"),
        ([3] * 1000, "invalid_command"),
    ],
)
async def test_reported_faces_out_of_range(client, dice: list[Any], code: str) -> None:
    enc = await open_encounter(client, dice_policy="reported")
    await add(client, enc, "Mira")
    await add(client, enc, "Bandit", controller="gm")
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative", "dice": dice})
    assert_problem(r, 422, code)
    assert await _version(client, enc) == 3


# ------------------------------------------- one Idempotency-Key, two different bodies


async def test_a_reused_idempotency_key_with_another_body_is_refused_everywhere(client, conn) -> None:
    key = {"Idempotency-Key": "once"}
    first = await client.post("/encounters", json={"ruleset": POP, "name": "A"}, headers=key)
    assert first.status_code == 201, first.text
    assert_problem(await client.post("/encounters", json={"ruleset": POP, "name": "B"}, headers=key),
                   422, "idempotency_key_reused")
    assert await conn.fetchval("SELECT count(*) FROM encounters") == 1
    enc = first.json()["encounter_id"]
    client.headers["Authorization"] = f"Bearer {first.json()['gm_token']['token']}"
    path = f"/encounters/{enc}"
    bodies = {"/combatants": ({"name": "A", "side": "party", "controller": "gm"},
                              {"name": "B", "side": "party", "controller": "gm"}),
              "/tokens": ({"role": "spectator", "combatant_ids": []}, {"role": "spectator", "label": "other"})}
    for route, (a, b) in bodies.items():
        k = {"Idempotency-Key": f"key-{route}"}
        assert (await client.post(path + route, json=a, headers=k)).status_code == 201
        assert_problem(await client.post(path + route, json=b, headers=k), 422, "idempotency_key_reused")
    assert await _version(client, enc) == 2
    assert await conn.fetchval("SELECT count(*) FROM tokens WHERE encounter_id = $1", uuid.UUID(enc)) == 2


@pytest.mark.parametrize("params", [{"name": "Amb\x00ush"}, {"ruleset": "places-of-power\x00"},
                                    {"status": "ended", "name": "\x00"}])
async def test_a_nul_in_a_list_filter_is_a_bad_query_not_a_database_error(client, params: dict[str, str]) -> None:
    """Found by the fuzzer: PostgreSQL's text cannot hold U+0000, so no encounter has it in its
    name or ruleset; the filter is refused with a problem detail before the query."""
    await open_encounter(client)
    r = await client.get("/encounters", params=params)
    assert_problem(r, 400, "invalid_query")
    assert "NUL" in r.json()["detail"]
