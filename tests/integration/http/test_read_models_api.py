"""The routes served from the read models (issue 7): the encounter list (filters, paging),
an encounter's summary and its per-combatant statistics, filtered for the caller.

"Read models: the encounter list (ruleset, name, status, round, combatant count, last
activity; filter and page), per-encounter summary, and per-combatant statistics (attacks
made and landed, Hits dealt and taken, defences tried and won, AP spent, rolls and their
outcome classes)."

The ambush: Mira (a player), the Bandit (an NPC) and the Lurker (an NPC added hidden). The
Lurker stabs Mira; Mira stabs the Bandit. Players and spectators must learn nothing of the
Lurker from the statistics: not its row, not the Hits Mira took from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx

from tests.integration.fight import POP, command, mint, open_encounter, seat_party
from tests.integration.read_models import until_listed, until_projected
from tests.rulesets.places_of_power.test_attack_exchange_api import BANDIT, MIRA

LURKER = "Lurker in the Reeds"


@dataclass
class Ambush:
    enc: str
    gm: dict[str, str]
    player: dict[str, str]
    spectator: dict[str, str]
    mira: str
    bandit: str
    lurker: str


async def ambush(client: httpx.AsyncClient) -> Ambush:
    enc = await open_encounter(client, "Ambush in the reeds", dice_policy="reported")
    gm = {"Authorization": client.headers["Authorization"]}
    ids, tokens = await seat_party(client, enc, {"Mira": ("player", MIRA), "Bandit": ("gm", BANDIT)})
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": LURKER, "side": "enemies", "controller": "gm", "sheet": BANDIT, "hidden": True})
    assert r.status_code == 201, r.text
    a = Ambush(enc=enc, gm=gm, player=tokens["Mira"], spectator=await mint(client, enc, "spectator"),
               mira=ids["Mira"], bandit=ids["Bandit"], lurker=r.json()["events"][0]["data"]["combatant_id"])
    await command(client, enc, {"type": "RollInitiative", "dice": [1, 12]})  # Mira 1, the NPCs 12: they go first
    state = (await command(client, enc, {"type": "StartEncounter"}))["state"]
    assert state["order"][-1] == a.mira
    for who in state["order"]:
        if who == a.lurker:  # Strength D10 + Knife D8: 4 + 6 = 10 at Normal; Mira takes the Knife's 2 Hits
            out = await command(client, enc, {"type": "Attack", "combatant_id": a.lurker, "target": a.mira,
                                              "attack": "LightMelee", "weapon": "Knife", "band": "Melee",
                                              "dice": [4, 6]})
            attack = out["events"][0]["data"]["attack_id"]
            # Mira's player is never asked to defend against an attacker she cannot see: the GM answers
            hit = await command(client, enc, {"type": "Defend", "combatant_id": a.mira, "attack": attack,
                                              "defence": "TakeIt"})
            # every step of a hidden attacker's exchange is about it: Mira's player sees the Hits, not the blow
            after = hit["version"] - len(hit["events"])
            seen = (await client.get(f"/encounters/{enc}/events?after={after}", headers=a.player)).json()["events"]
            assert [e["type"] for e in seen] == ["Redacted"] * len(hit["events"])
            mine = (await client.get(f"/encounters/{enc}", headers=a.player)).json()
            assert mine["combatants"][a.mira]["sheet"]["hits"] == 2
        if who != a.mira:
            await command(client, enc, {"type": "EndTurn", "combatant_id": who})
    # Mira, Wounded by her 2 Hits, pays a Penalty Point: a die steps down; 4 + 6 still reaches Normal
    out = await command(client, enc, {"type": "Attack", "combatant_id": a.mira, "target": a.bandit,
                                      "attack": "LightMelee", "weapon": "Knife", "band": "Melee", "dice": [4, 6],
                                      "penalties": ["StepDownDie"]}, **a.player)
    attack = out["events"][0]["data"]["attack_id"]
    await command(client, enc, {"type": "Defend", "combatant_id": a.bandit, "attack": attack, "defence": "TakeIt"})
    return a


def by_name(stats: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in stats["combatants"]}


def counts(c: dict[str, Any]) -> tuple[int, ...]:
    return (c["attacks_made"], c["attacks_landed"], c["hits_dealt"], c["hits_taken"], c["defences_tried"],
            c["defences_won"], c["action_points_spent"], c["rolls"])


async def statistics(client: httpx.AsyncClient, a: Ambush, headers: dict[str, str]) -> dict[str, Any]:
    r = await client.get(f"/encounters/{a.enc}/statistics", headers=headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["projected_version"] == body["version"]
    for c in body["combatants"]:
        assert sum(c["outcomes"].values()) == c["rolls"]
    return dict(body)


async def test_statistics_count_the_fight_and_never_show_a_hidden_combatant(client: httpx.AsyncClient) -> None:
    a = await ambush(client)
    await until_projected(client, a.enc, a.gm)

    # the GM sees it all: (attacks made, landed, Hits dealt, taken, defences tried, won, AP spent, rolls)
    gm = by_name(await statistics(client, a, a.gm))
    assert list(gm) == ["Mira", "Bandit", LURKER]  # in the order they joined
    assert counts(gm[LURKER]) == (1, 1, 2, 0, 0, 0, 1, 1)
    assert counts(gm["Mira"]) == (1, 1, 2, 2, 0, 0, 1, 1)
    assert counts(gm["Bandit"]) == (0, 0, 0, 2, 0, 0, 0, 0)
    assert gm["Mira"]["side"] == "party" and gm["Mira"]["controller"] == "player" and not gm["Mira"]["removed"]

    # a player and a spectator: no Lurker, and none of the Hits Mira took from it
    for headers in (a.player, a.spectator):
        r = await client.get(f"/encounters/{a.enc}/statistics", headers=headers)
        assert a.lurker not in r.text and LURKER not in r.text
        seen = by_name(await statistics(client, a, headers))
        assert list(seen) == ["Mira", "Bandit"]
        assert counts(seen["Mira"]) == (1, 1, 2, 0, 0, 0, 1, 1)
        assert counts(seen["Bandit"]) == counts(gm["Bandit"])

    # once the GM reveals it, everyone sees everything
    await command(client, a.enc, {"type": "RevealCombatant", "combatant_id": a.lurker})
    await until_projected(client, a.enc, a.gm)
    seen = by_name(await statistics(client, a, a.player))
    assert {name: counts(c) for name, c in seen.items()} == {name: counts(c) for name, c in gm.items()}


async def test_the_summary_totals_what_the_caller_may_see(client: httpx.AsyncClient) -> None:
    a = await ambush(client)
    gm = await until_projected(client, a.enc, a.gm)
    assert (gm["name"], gm["ruleset"], gm["status"], gm["round"], gm["combatants"]) == (
        "Ambush in the reeds", POP, "active", 1, 3)
    assert gm["started_at"] is not None and gm["ended_at"] is None
    assert gm["last_activity"] >= gm["started_at"] >= gm["created_at"]
    assert (gm["totals"]["attacks_made"], gm["totals"]["hits_dealt"], gm["totals"]["hits_taken"]) == (2, 4, 4)
    assert gm["sides"]["enemies"]["hits_dealt"] == 2 and gm["sides"]["party"]["hits_taken"] == 2

    for headers in (a.player, a.spectator):
        r = await client.get(f"/encounters/{a.enc}/summary", headers=headers)
        assert r.status_code == 200 and a.lurker not in r.text and LURKER not in r.text
        seen = r.json()
        assert seen["combatants"] == 2
        assert (seen["totals"]["attacks_made"], seen["totals"]["hits_dealt"], seen["totals"]["hits_taken"]) == (1, 2, 2)
        assert seen["sides"]["enemies"]["hits_dealt"] == 0 and seen["sides"]["party"]["hits_taken"] == 0

    await command(client, a.enc, {"type": "EndEncounter"})
    ended = await until_projected(client, a.enc, a.gm)
    assert ended["status"] == "ended" and ended["ended_at"] is not None


async def test_the_read_model_routes_are_guarded_like_the_other_reads(client: httpx.AsyncClient) -> None:
    a = await ambush(client)
    other = await open_encounter(client, "Another table")
    other_gm = {"Authorization": client.headers.pop("Authorization")}
    for path in ("summary", "statistics"):
        r = await client.get(f"/encounters/{a.enc}/{path}")
        assert (r.status_code, r.json()["code"]) == (401, "token_required")
        r = await client.get(f"/encounters/{a.enc}/{path}", headers=other_gm)
        assert (r.status_code, r.json()["code"]) == (403, "wrong_encounter")
        r = await client.get(f"/encounters/{other}/{path}", headers=other_gm)
        assert r.status_code == 200
        r = await client.get(f"/encounters/00000000-0000-4000-8000-000000000000/{path}", headers=a.gm)
        assert r.status_code in (401, 403)  # a token names its own encounter


async def test_the_list_filters_and_pages(client: httpx.AsyncClient) -> None:
    ford = await open_encounter(client, "Ambush at the Ford")
    ford_gm = {"Authorization": client.headers["Authorization"]}
    await seat_party(client, ford, {"Mira": ("player", {"initiative_modifier": 1}),
                                    "Bandit": ("gm", {"initiative_modifier": 0})})
    await command(client, ford, {"type": "RollInitiative"})
    await command(client, ford, {"type": "StartEncounter"})
    crossing = await open_encounter(client, "the ford crossing (100%)")
    await command(client, crossing, {"type": "EndEncounter"})
    siege = await open_encounter(client, "Siege of the tower")
    hidden = await client.post(f"/encounters/{siege}/combatants", json={
        "name": "Sapper", "side": "enemies", "controller": "gm", "hidden": True})
    assert hidden.status_code == 201
    ids = [ford, crossing, siege]
    await until_listed(client, ids)
    await until_projected(client, ford, ford_gm)

    async def listed(**params: Any) -> dict[str, Any]:
        r = await client.get("/encounters", params=params)
        assert r.status_code == 200, r.text
        return dict(r.json())

    everything = await listed()
    assert [e["id"] for e in everything["encounters"]] == [siege, crossing, ford]  # newest first
    assert everything["total"] == 3 and (everything["limit"], everything["offset"]) == (50, 0)
    rows = {e["id"]: e for e in everything["encounters"]}
    assert {k: rows[ford][k] for k in ("name", "ruleset", "status", "round", "combatants")} == {
        "name": "Ambush at the Ford", "ruleset": POP, "status": "active", "round": 1, "combatants": 2}
    assert rows[ford]["last_activity"] >= rows[ford]["created_at"]
    assert rows[crossing]["status"] == "ended"
    assert rows[siege]["combatants"] == 0  # the hidden Sapper is in no count the list shows

    assert [e["id"] for e in (await listed(name="FORD"))["encounters"]] == [crossing, ford]
    assert [e["id"] for e in (await listed(name="%"))["encounters"]] == [crossing]  # a literal %, not a wildcard
    assert [e["id"] for e in (await listed(name="_"))["encounters"]] == []
    assert [e["id"] for e in (await listed(status="active"))["encounters"]] == [ford]
    assert [e["id"] for e in (await listed(status="setup"))["encounters"]] == [siege]
    assert (await listed(ruleset=POP))["total"] == 3
    assert (await listed(ruleset="chess")) == {"encounters": [], "limit": 50, "offset": 0, "total": 0}

    first, second = await listed(limit=2), await listed(limit=2, offset=2)
    assert [e["id"] for e in first["encounters"] + second["encounters"]] == [siege, crossing, ford]
    assert first["total"] == second["total"] == 3
    past = await listed(limit=2, offset=10)
    assert (past["encounters"], past["total"]) == ([], 3)

    for params, code in [({"status": "over"}, "invalid_parameter"), ({"limit": 0}, "invalid_parameter"),
                         ({"name": ""}, "invalid_parameter"), ({"name": "x" * 201}, "invalid_parameter")]:
        r = await client.get("/encounters", params=params)
        assert (r.status_code, r.json()["code"]) == (400, code), params
    assert json.loads((await client.get("/encounters", params={"name": "\u00e9"})).text)["total"] == 0
