"""The fight's timeline as a picture (issue 22): "A fight's timeline as a picture (SVG): rounds
across, combatants down, each action, hit and decision marked, hidden parts absent for viewers who
may not see them; shown on the encounter page and available alone (`/encounters/{id}/timeline.svg`)"."""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from typing import Any

from tests.integration.fight import command, mint, started_fight

SVG = "{http://www.w3.org/2000/svg}"


def parsed(r: Any) -> ET.Element:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("image/svg+xml")
    return ET.fromstring(r.text)


def rows(svg: ET.Element) -> list[str]:
    return [g.get("data-combatant", "") for g in svg.iter(f"{SVG}g") if g.get("class") == "combatant"]


def marks(svg: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == f"mark {kind}"]


async def test_rounds_across_combatants_down_each_turn_marked(client: Any) -> None:
    enc, mira, bandit = await started_fight(client)
    await command(client, enc, {"type": "EndTurn", "combatant_id": mira})
    await command(client, enc, {"type": "EndTurn", "combatant_id": bandit})
    svg = parsed(await client.get(f"/encounters/{enc}/timeline.svg"))
    assert svg.find(f"{SVG}title") is not None and "Timeline" in (svg.find(f"{SVG}title").text or "")
    assert rows(svg) == [mira, bandit]  # the order of play
    ends = marks(svg, "turn")
    assert [m.find(f"{SVG}title").text for m in ends] == ["Round 1: Mira ends the turn",
                                                          "Round 1: the Bandit ends the turn"] or \
        [m.find(f"{SVG}title").text for m in ends] == ["Round 1: Mira ends the turn", "Round 1: Bandit ends the turn"]
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert "Round 1" in labels and "Round 2" not in labels
    again = await client.get(f"/encounters/{enc}/timeline.svg")
    assert again.text == (await client.get(f"/encounters/{enc}/timeline.svg")).text  # same history, same bytes


async def test_a_hidden_combatant_is_absent_from_the_players_and_spectators_timeline_until_revealed(client: Any) -> None:
    enc, mira, bandit = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True})
    assert r.status_code == 201, r.text
    lurker = r.json()["events"][0]["data"]["combatant_id"]
    await command(client, enc, {"type": "EndTurn", "combatant_id": mira})
    await command(client, enc, {"type": "EndTurn", "combatant_id": bandit})
    state = (await client.get(f"/encounters/{enc}")).json()
    if state.get("turn") == lurker:
        await command(client, enc, {"type": "EndTurn", "combatant_id": lurker})
    player = await mint(client, enc, "player", [mira])
    spectator = await mint(client, enc, "spectator", [])
    gm = await client.get(f"/encounters/{enc}/timeline.svg")
    assert lurker in rows(parsed(gm)) and "Lurking Assassin" in gm.text
    for headers in (player, spectator):
        seen = await client.get(f"/encounters/{enc}/timeline.svg", headers=headers)
        assert rows(parsed(seen)) == [c for c in rows(parsed(gm)) if c != lurker]
        assert lurker not in seen.text and "Lurking" not in seen.text and "Assassin" not in seen.text
    await command(client, enc, {"type": "RevealCombatant", "combatant_id": lurker})
    for headers in (player, spectator):
        seen = await client.get(f"/encounters/{enc}/timeline.svg", headers=headers)
        assert lurker in rows(parsed(seen)) and "Lurking Assassin" in seen.text


async def test_a_stranger_gets_no_timeline(client: Any) -> None:
    enc, _, _ = await started_fight(client)
    r = await client.get(f"/encounters/{enc}/timeline.svg", headers={"Authorization": "Bearer nonsense"})
    assert r.status_code == 401 and r.json()["code"]
    r = await client.get(f"/encounters/{uuid.uuid4()}/timeline.svg")
    assert r.status_code in (401, 403, 404)
