"""Issue 42, "An MCP server: AI agents at the table, under the same tokens": "Tests use the SDK's own
client against the real server. An agent holding the GM token plays the NPCs' turns of a fight in
every ruleset, with players acting over HTTP beside it. A player-token agent is refused the GM's
moves and never sees a hidden combatant." A real ``fracas serve``; the agents are the ``mcp`` SDK's
``Client`` over streamable HTTP, each with its Fracas token."""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from domain.rulesets import default_registry
from tests.contract.walk import UNLIKELY
from tests.e2e.test_cli import serving

RULESETS = [r.id for r in default_registry().all()]


@asynccontextmanager
async def agent(base: str, token: str | None) -> AsyncIterator[Client]:
    """An MCP client of ``base``'s /mcp, each request carrying ``token``."""
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"} if token else None)
    async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client:
        yield client


async def tool(client: Client, name: str, **arguments: Any) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text if result.content else name
    return result.structured_content


async def refused(client: Client, name: str, **arguments: Any) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error
    return result.content[0].text


def pick(moves: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A move or an answer, as a player would choose one: mostly not ending the turn."""
    offered = [a for a in moves["actions"] if a["kind"] in ("move", "decision")]
    if not offered:
        return None
    acting = [a for a in offered if a["command"]["type"] != "EndTurn"]
    return rng.choice(acting if acting and rng.random() < 0.85 else offered)


async def _fight(base: str, ruleset: str, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        opened = (await http.post("/encounters", json={"ruleset": ruleset, "name": f"Agents {ruleset}"})).json()
        enc, gm_token = opened["encounter_id"], opened["gm_token"]["token"]
        gm = {"Authorization": f"Bearer {gm_token}"}
        examples = (await http.get(f"/rulesets/{ruleset}")).json()["examples"]
        pc = next(e["body"] for e in examples if e["body"]["controller"] == "player")
        npc = next(e["body"] for e in examples if e["body"]["controller"] == "gm")
        r = await http.post(f"/encounters/{enc}/combatants", headers=gm, json=pc)
        assert r.status_code == 201, r.text
        mira = r.json()["events"][0]["data"]["combatant_id"]
        for n in range(2):
            r = await http.post(f"/encounters/{enc}/combatants", headers=gm, json={**npc, "name": f"{npc['name']} {n}"})
            assert r.status_code == 201, r.text
        token = (await http.post(f"/encounters/{enc}/tokens", headers=gm,
                                 json={"role": "player", "combatant_ids": [mira]})).json()["token"]
        player = {"Authorization": f"Bearer {token}"}
        counts = {"agent": 0, "player": 0}
        async with agent(base, gm_token) as gm_agent:
            for kind in ("RollInitiative", "StartEncounter"):  # the GM's agent starts the fight
                moves = await tool(gm_agent, "next_moves", encounter_id=enc)
                [start] = [a for a in moves["actions"] if a["command"]["type"] == kind]
                await tool(gm_agent, "act", encounter_id=enc, action_id=start["id"])
            for _ in range(900):
                theirs = (await http.get(f"/encounters/{enc}/actions", headers=player)).json()
                if theirs["over"]:
                    break
                chosen = pick(theirs, rng)
                if chosen is not None:  # the player, over HTTP
                    r = await http.post(f"/encounters/{enc}/commands", headers=player, json=chosen["command"])
                    assert r.status_code == 200, (chosen, r.text)
                    counts["player"] += 1
                    continue
                moves = await tool(gm_agent, "next_moves", encounter_id=enc)
                chosen = pick(moves, rng)
                assert chosen is not None, f"nobody may act: {moves['waiting_on']}"
                assert chosen["combatant_id"] != mira, "the GM's agent plays the NPCs"
                done = await tool(gm_agent, "act", encounter_id=enc, action_id=chosen["id"])
                assert done["events"], chosen
                counts["agent"] += 1
            assert (await tool(gm_agent, "next_moves", encounter_id=enc))["over"], counts
            told = await tool(gm_agent, "log", encounter_id=enc)
            assert len(json.dumps(told)) > 200
    return counts


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_agent_with_the_gm_token_plays_the_npcs_to_the_end_beside_a_player_over_http(
        database_url: str, ruleset: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    with serving(env) as (base, _):
        counts = asyncio.run(_fight(base, ruleset, seed=7))
    assert counts["agent"] >= 3 and counts["player"] >= 1, counts


async def _player_agent(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        opened = (await http.post("/encounters", json={"ruleset": "places-of-power", "name": "Hidden",
                                                       "dice_policy": "reported"})).json()
        enc, gm_token = opened["encounter_id"], opened["gm_token"]["token"]
        gm = {"Authorization": f"Bearer {gm_token}"}
        r = await http.post(f"/encounters/{enc}/combatants", headers=gm, json={
            "name": "Mira", "side": "party", "controller": "player", "sheet": {"initiative_modifier": 2}})
        mira = r.json()["events"][0]["data"]["combatant_id"]
        r = await http.post(f"/encounters/{enc}/combatants", headers=gm, json={
            "name": f"Lurker{UNLIKELY}", "side": "enemies", "controller": "gm", "hidden": True,
            "sheet": {"initiative_modifier": 1}})
        lurker = r.json()["events"][0]["data"]["combatant_id"]
        token = (await http.post(f"/encounters/{enc}/tokens", headers=gm,
                                 json={"role": "player", "combatant_ids": [mira]})).json()["token"]
    async with agent(base, gm_token) as gm_agent, agent(base, token) as mine, agent(base, None) as nobody:
        gm_moves = await tool(gm_agent, "next_moves", encounter_id=enc)
        roll = next(a for a in gm_moves["actions"] if a["command"]["type"] == "RollInitiative")
        # a GM's move is none of the player's: refused, and nothing recorded
        assert "no_such_action" in await refused(mine, "act", encounter_id=enc, action_id=roll["id"])
        assert (await tool(gm_agent, "state", encounter_id=enc))["version"] == gm_moves["version"]
        # reported dice: the faces, in the order the move lists them
        faces = [rng_face for need in roll["dice"] for rng_face in [3] * need["count"]]
        assert "dice_missing" in await refused(gm_agent, "act", encounter_id=enc, action_id=roll["id"])
        await tool(gm_agent, "act", encounter_id=enc, action_id=roll["id"], dice=faces)
        start = next(a for a in (await tool(gm_agent, "next_moves", encounter_id=enc))["actions"]
                     if a["command"]["type"] == "StartEncounter")
        assert "invalid_values" in await refused(gm_agent, "act", encounter_id=enc, action_id=start["id"],
                                                 values={"winner": "Mira"})
        await tool(gm_agent, "act", encounter_id=enc, action_id=start["id"])
        seen = [await tool(mine, name, encounter_id=enc) for name in ("state", "next_moves", "log")]
        text = json.dumps(seen)
        assert lurker not in text and UNLIKELY not in text, "the player's agent sees nothing of the hidden NPC"
        assert "Mira" in text
        assert UNLIKELY in json.dumps(await tool(gm_agent, "state", encounter_id=enc))  # it is there
        assert "token_required" in await refused(nobody, "state", encounter_id=enc)


def test_a_player_agent_is_refused_the_gms_moves_and_never_sees_a_hidden_combatant(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    with serving(env) as (base, _):
        asyncio.run(_player_agent(base))
