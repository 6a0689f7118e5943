"""The next moves over HTTP (issue 37): ``GET /encounters/{id}/actions`` for every kind of token,
each offered command accepted exactly as sent, nothing hidden named to a player, a command that
records nothing refused with a 4xx, and ``Prefer: return=minimal``."""

from __future__ import annotations

import pytest

from tests.integration.fight import add, command, mint, open_encounter, started_fight


async def actions(client, enc: str, headers: dict[str, str] | None = None) -> dict:
    r = await client.get(f"/encounters/{enc}/actions", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["etag"] == f'"{r.json()["version"]}"'
    return r.json()


def types(moves: dict) -> list[str]:
    return [a["command"]["type"] for a in moves["actions"]]


async def test_setup_offers_the_gm_the_lifecycle_and_waits_on_the_gm(client) -> None:
    enc = await open_encounter(client)
    moves = await actions(client, enc)
    assert moves["over"] is False
    assert [w["who"] for w in moves["waiting_on"]] == ["gm"]
    assert "RollInitiative" not in types(moves)  # nobody to roll for yet
    await add(client, enc, "Mira")
    await add(client, enc, "Bandit", controller="gm")
    moves = await actions(client, enc)
    assert {"RollInitiative", "EndEncounter"} <= set(types(moves))
    roll = next(a for a in moves["actions"] if a["command"]["type"] == "RollInitiative")
    assert roll["kind"] == "lifecycle"
    # sent exactly as offered, it is accepted; then starting is offered
    await command(client, enc, roll["command"])
    moves = await actions(client, enc)
    start = next(a for a in moves["actions"] if a["command"]["type"] == "StartEncounter")
    await command(client, enc, start["command"])


async def test_a_player_is_offered_their_own_turn_and_the_gm_waits(client) -> None:
    enc, mira, bandit = await started_fight(client)
    player = await mint(client, enc, "player", [mira])
    spectator = await mint(client, enc, "spectator")
    mine = await actions(client, enc, player)
    assert mine["waiting_on"] == [{"combatant_id": mira, "who": "player", "what": "Mira's turn"}]
    end = next(a for a in mine["actions"] if a["command"] == {"type": "EndTurn", "combatant_id": mira})
    assert end["kind"] == "move" and end["combatant_id"] == mira
    assert all(a["combatant_id"] == mira for a in mine["actions"])
    watching = await actions(client, enc, spectator)
    assert watching["actions"] == [] and watching["waiting_on"] == mine["waiting_on"]
    gm = await actions(client, enc)
    # the player's turn is theirs: the GM is offered rulings about Mira, not her moves
    assert not any(a["combatant_id"] == mira and a["kind"] in ("move", "decision") for a in gm["actions"])
    # the player's offer, sent by the player as it is, is accepted; then the Bandit's turn is the GM's
    r = await client.post(f"/encounters/{enc}/commands", json=end["command"], headers=player)
    assert r.status_code == 200, r.text
    gm = await actions(client, enc)
    assert {"combatant_id": bandit, "who": "gm", "what": "Bandit's turn"} in gm["waiting_on"]
    assert {"type": "EndTurn", "combatant_id": bandit} in [a["command"] for a in gm["actions"]]
    assert (await actions(client, enc, player))["actions"] == []


async def test_a_player_is_told_nothing_of_a_hidden_combatant(client) -> None:
    enc = await open_encounter(client, dice_policy="mixed")
    mira = await add(client, enc, "Mira", modifier=2)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Zqxvw the lurker", "side": "enemies", "controller": "gm", "sheet": {"initiative_modifier": 9},
        "hidden": True})
    lurker = r.json()["events"][0]["data"]["combatant_id"]
    await add(client, enc, "Bandit", controller="gm")
    await command(client, enc, {"type": "RollInitiative", "dice": [1, 12]})
    await command(client, enc, {"type": "StartEncounter"})
    player = await mint(client, enc, "player", [mira])
    gm = await actions(client, enc)
    assert any(a["command"] == {"type": "RevealCombatant", "combatant_id": lurker} for a in gm["actions"])
    mine = await actions(client, enc, player)
    text = str(mine)
    assert lurker not in text and "Zqxvw" not in text
    assert mine["waiting_on"], "the fight waits on someone: the GM, unnamed"


async def test_a_command_that_changes_nothing_is_refused_never_a_500(client) -> None:
    """A decision that records no event used to answer 500 (``rows[-1]`` of an empty list)."""
    from domain.core.errors import CODES

    assert "nothing_changes" in CODES
    enc, mira, _ = await started_fight(client)
    r = await client.get("/rulesets/places-of-power")
    assert "nothing_changes" in r.json()["violation_codes"]


async def test_prefer_return_minimal_answers_the_events_and_the_version(client) -> None:
    enc, mira, _ = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": mira},
                          headers={"Prefer": "return=minimal"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"encounter_id", "version", "events"}
    assert body["events"][0]["type"] == "TurnEnded"
    assert r.headers["preference-applied"] == "return=minimal"
    assert r.headers["etag"] == f'"{body["version"]}"'
    full = await client.post(f"/encounters/{enc}/commands", json={"type": "RollInitiative"})
    assert "state" in full.json() and "preference-applied" not in full.headers


@pytest.mark.parametrize("ruleset", ["places-of-power", "health-trauma", "realms", "novus"])
async def test_every_ruleset_documents_its_own_initiative_dice_and_examples_that_are_accepted(client, ruleset) -> None:
    info = (await client.get(f"/rulesets/{ruleset}")).json()
    roll = next(c for c in info["commands"] if c["type"] == "RollInitiative")
    assert roll["dice"].endswith(".") and len(roll["dice"]) > 20
    enc = await open_encounter(client, ruleset=ruleset)
    for example in info["examples"]:
        r = await client.post(f"/encounters/{enc}/combatants", json=example["body"])
        assert r.status_code == 201, (example["label"], r.text)


@pytest.mark.parametrize("ruleset", ["places-of-power", "health-trauma", "realms", "novus"])
async def test_every_cost_is_named_in_the_rulesets_words(client, ruleset) -> None:
    """Issue 37, "One vocabulary": each ruleset names what actions spend, as stable ids with labels
    (`resources` in `GET /rulesets/{id}`): every offered action's cost, and every combatant's
    resources, use those ids."""
    info = (await client.get(f"/rulesets/{ruleset}")).json()
    words = info["resources"]
    assert words and all(isinstance(v, str) and v for v in words.values())
    enc = await open_encounter(client, ruleset=ruleset)
    viewers: list[dict[str, str] | None] = [None]
    for example in info["examples"]:
        r = await client.post(f"/encounters/{enc}/combatants", json=example["body"])
        assert r.status_code == 201
        if example["body"]["controller"] == "player":
            viewers.append(await mint(client, enc, "player", [r.json()["events"][0]["data"]["combatant_id"]]))
    await command(client, enc, {"type": "RollInitiative"})
    await command(client, enc, {"type": "StartEncounter"})
    seen = set()
    for _ in range(6):
        offered = [(who, a) for who in viewers for a in (await actions(client, enc, who))["actions"]]
        for _, a in offered:
            seen.update(a["cost"])
        state = (await client.get(f"/encounters/{enc}")).json()
        for c in state["combatants"].values():
            assert set(c.get("resources") or {}) <= set(words), c.get("resources")
        turn = state.get("turn")
        if turn is None:
            break
        end = [(who, a) for who, a in offered if a["command"] == {"type": "EndTurn", "combatant_id": turn}]
        if not end:
            break
        r = await client.post(f"/encounters/{enc}/commands", json=end[0][1]["command"], headers=end[0][0])
        assert r.status_code == 200, r.text
    assert seen and seen <= set(words), (seen, words)


async def test_who_is_out_of_the_fight_is_said_to_each_viewer_of_whom_they_see(client) -> None:
    """Places of Power: "(hits: taken; 4 is Helpless)": a combatant the rules count out of the fight
    (``Ruleset.out_of_fight``, what ``over`` is judged by) is listed in ``out_of_fight``, for a page
    to mark; a player is told of those they see, never of a hidden one."""
    enc, mira, bandit = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurker", "side": "enemies", "controller": "gm", "sheet": {}, "hidden": True})
    lurker = r.json()["events"][0]["data"]["combatant_id"]
    player = await mint(client, enc, "player", [mira])
    assert (await actions(client, enc))["out_of_fight"] == []
    for who in (bandit, lurker):
        await command(client, enc, {"type": "SetHits", "combatant_id": who, "hits": 4})
    assert (await actions(client, enc))["out_of_fight"] == [bandit, lurker]
    mine = await actions(client, enc, player)
    assert mine["out_of_fight"] == [bandit] and lurker not in str(mine)
