"""Whole Health/Trauma fights through the server against PostgreSQL, with reported dice: what a
client is shown of each combatant's health (as the GM and as a player), a character dying and
taking Trauma while dying, each result of the injury chart, and death both ways. Each fight ends
by checking that a replay of its stored events equals the state the server serves."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import msgspec
import pytest

from domain.rulesets import default_registry
from projections.visibility import GM, state_for
from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for

RULESET = default_registry().get("health-trauma")
# Mira: maximum Health 5 + Physique 1 = 6; Protection 1; a Fear MSvs of 1D10 - 1
MIRA = {"physique": 1, "combat_skill": 5, "guard": 3, "protection": 1, "mental_save": -1,
        "weapons": [{"name": "Sword", "damage_dice": 1, "damage_sides": 6}]}
# the Bandit: maximum Health 5; an Axe of 2D6 (the first to act: initiative 15 against Mira's 3)
BANDIT = {"physique": 0, "combat_skill": 3, "guard": 2, "weapons": [{"name": "Axe", "damage_dice": 2, "damage_sides": 6}]}
# the GM's chart (the text gives no bands): every result within the first injury's 1D10
CHART = [{"least": 1, "result": "lucky_escape"}, {"least": 3, "result": "sliced_muscle"},
         {"least": 5, "result": "reeling"}, {"least": 7, "result": "maimed"},
         {"least": 9, "result": "gut_wound"}, {"least": 10, "result": "mortal_blow"}]
NPC_SEEN = {"trauma", "wounded", "dying", "dead", "injuries", "conditions"}


class Fight:
    """One encounter: the client speaks as its GM, ``player`` is Mira's player's header."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.enc = ""
        self.player: dict[str, str] = {}

    async def opened(self) -> Fight:
        """The encounter opened with reported dice, the client speaking as its GM; nobody added."""
        r = await self.client.post("/encounters", json={"ruleset": "health-trauma", "name": "At the mill",
                                                        "dice_policy": "reported"})
        assert r.status_code == 201, r.text
        self.enc = r.json()["encounter_id"]
        self.client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        return self

    async def open(self, initiative: list[int], chart: list[dict[str, Any]] | None = CHART) -> Fight:
        await self.opened()
        # a fixed Guard, no Reactions: an attack rolls its die, then its damage dice
        data: dict[str, Any] = {"defence_die": 0, "reactions": []}
        if chart is not None:
            data["injury_chart"] = chart
        await self.gm({"type": "SetHealthTraumaRules", "data": data})
        for cid, controller, sheet in (("mira", "player", MIRA), ("bandit", "gm", BANDIT)):
            await self.gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(),
                           "side": "party" if controller == "player" else "enemies", "controller": controller,
                           "sheet": sheet})
        await self.gm({"type": "RollInitiative", "dice": initiative})
        await self.gm({"type": "StartEncounter"})
        self.player = await mint(self.client, self.enc, "player", ["mira"])
        return self

    async def gm(self, body: dict[str, Any]) -> dict[str, Any]:
        return await command(self.client, self.enc, body)

    async def mira(self, body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        r = await self.client.post(f"/encounters/{self.enc}/commands", json=body, headers=self.player)
        assert r.status_code == expect, r.text
        return r.json()

    async def state(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}", headers=headers)
        assert r.status_code == 200, r.text
        return r.json()

    async def sheet(self, cid: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
        return (await self.state(headers))["combatants"][cid]["sheet"]

    async def prompts(self, headers: dict[str, str]) -> list[dict[str, Any]]:
        """The prompts the live stream sends the viewer now (read once: ``follow=false``)."""
        r = await self.client.get(f"/encounters/{self.enc}/live", params={"follow": "false"}, headers=headers)
        assert r.status_code == 200, r.text
        messages = [json.loads(line[5:]) for line in r.text.splitlines() if line.startswith("data:")]
        return [m["prompt"] for m in messages if m["type"] == "prompt"]

    async def assert_replays(self, conn: Any) -> None:
        """Every stored event, decoded and replayed, gives the state the server serves the GM."""
        rows = await conn.fetch("SELECT type, schema_version, data::text AS data FROM events "
                                "WHERE encounter_id = $1 ORDER BY version", uuid.UUID(self.enc))
        replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
        served = await self.state()
        assert replayed.version == len(rows) == served["version"]
        assert msgspec.to_builtins(state_for(replayed, GM)) == served  # the GM's view: as shown, no AP field


def types(out: dict[str, Any]) -> list[str]:
    return [e["type"] for e in out["events"]]


async def test_the_served_state_carries_each_combatants_health_and_a_player_sees_an_npcs_wound_level(
        database_url: str, conn: Any) -> None:
    """"Each character starts with a maximum health equal to five plus their Physique." "Whenever
    you are reduced below half of your character's health your character becomes Wounded." "Each
    point of trauma reduces the maximum health of the character by one." "When a character's health
    is at or below 0, that character receives an injury and is dying." A player sees an NPC's
    wound level and conditions, not its sheet (nor its Health, which at full is its Physique)."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([3, 15])
        mira = await f.sheet("mira")
        assert {k: mira[k] for k in ("health", "maximum_health", "trauma", "wounded", "dying", "dead",
                                     "injuries", "conditions")} == {
            "health": 6, "maximum_health": 6, "trauma": 0, "wounded": False, "dying": False, "dead": False,
            "injuries": [], "conditions": []}
        assert (await f.sheet("mira", f.player))["maximum_health"] == 6  # a player's own sheet, whole
        assert set(await f.sheet("bandit", f.player)) == NPC_SEEN
        assert (await f.sheet("bandit"))["maximum_health"] == 5  # the GM sees the NPC's whole sheet

        # the Bandit's Axe: 10 + 3 > Guard 3; 2 + 2 damage less Protection 1: Mira at 3 of 6, not below half
        await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 2, 2]})
        mira = await f.sheet("mira")
        assert (mira["health"], mira["wounded"], mira["conditions"]) == (3, False, [])
        await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
        # Mira's Sword: 10 + 5 > Guard 2; 3 damage: the Bandit at 2 of 5, below half: Wounded
        await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]})
        seen = await f.sheet("bandit", f.player)
        assert seen == {"trauma": 0, "wounded": True, "dying": False, "dead": False, "injuries": [],
                        "conditions": ["Wounded"]}
        assert (await f.sheet("bandit"))["health"] == 2
        # nor anywhere else: the state's bodies, the events and the log keep an NPC's Health the GM's
        assert "health" not in (await f.state(f.player))["rules"]["bodies"]["bandit"]
        assert (await f.state())["rules"]["bodies"]["bandit"]["health"] == 2
        assert (await f.state(f.player))["rules"]["bodies"]["mira"]["health"] == 3
        feed = (await client.get(f"/encounters/{f.enc}/events", headers=f.player)).json()["events"]
        harmed = [e["data"] for e in feed if e["type"] == "HTHarmed"]
        assert harmed == [{"type": "HTHarmed", "combatant_id": "mira", "damage": 3, "health": 3, "cause": "attack",
                           "trauma": 0, "dying": False},
                          {"type": "HTHarmed", "combatant_id": "bandit", "damage": 3, "cause": "attack",
                           "trauma": 0, "dying": False}]
        told = (await client.get(f"/encounters/{f.enc}/log", params={"format": "text"}, headers=f.player)).text
        assert "Mira takes 3 damage: health 3." in told and "The Bandit takes 3 damage." in told
        told = (await client.get(f"/encounters/{f.enc}/log", params={"format": "text"})).text
        assert "The Bandit takes 3 damage: health 2." in told
        # 4 more: the Bandit at -2, dying; its injury (a lucky escape on the GM's chart)
        await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 4]})
        await f.gm({"type": "HTRollInjury", "combatant_id": "bandit", "dice": [1]})
        seen = await f.sheet("bandit", f.player)
        assert (seen["dying"], seen["injuries"], seen["conditions"]) == (True, ["lucky_escape"], ["Dying", "Wounded"])
        # the end of the round: one point of damage while dying is one Trauma, the maximum one lower
        await f.mira({"type": "EndTurn", "combatant_id": "mira"})
        bandit = await f.sheet("bandit")
        assert (bandit["health"], bandit["trauma"], bandit["maximum_health"]) == (-3, 1, 4)
        assert (await f.sheet("bandit", f.player))["trauma"] == 1
        await f.assert_replays(conn)


async def test_a_player_makes_their_own_initiative_test_and_the_gm_rolls_for_the_npcs(
        database_url: str, conn: Any) -> None:
    """"Each participant in Combat will make an Initiative Test before Combat begins. Players will
    roll for their characters while the Game Master rolls for Non-Player Characters. These results
    will be placed in descending order to Track who acts when.\""""
    async with client_for(database_url) as client:
        f = await Fight(client).opened()
        for cid, controller, sheet in (("mira", "player", MIRA), ("bandit", "gm", BANDIT)):
            await f.gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(),
                        "side": "party" if controller == "player" else "enemies", "controller": controller,
                        "sheet": sheet})
        f.player = await mint(client, f.enc, "player", ["mira"])
        await f.mira({"type": "HTRollInitiativeTest", "combatant_id": "bandit", "dice": [20]}, expect=403)
        tested = await f.mira({"type": "HTRollInitiativeTest", "combatant_id": "mira", "dice": [12]})
        assert tested["events"][0]["data"]["roll"]["total"] == 12
        again = await f.mira({"type": "HTRollInitiativeTest", "combatant_id": "mira", "dice": [20]}, expect=422)
        assert again["code"] == "ht_initiative_tested"
        rolled = await f.gm({"type": "RollInitiative", "dice": [14]})  # one die: the Bandit's
        assert [(x["who"], x["total"]) for x in rolled["events"][0]["data"]["rolls"]] == [("bandit", 14)]
        assert (await f.state(f.player))["order"] == ["bandit", "mira"]
        told = (await client.get(f"/encounters/{f.enc}/log", params={"format": "text"}, headers=f.player)).text
        assert "Mira makes their Initiative Test: 12 + 0 = 12." in told
        await f.assert_replays(conn)


async def test_a_dying_character_takes_trauma_and_dies_when_it_reaches_the_maximum(database_url: str, conn: Any) -> None:
    """"The most common way to receive Trauma is taking damage while dying." "A dying character
    takes one point of damage at the end of each round." "The first happens if they have taken
    Trauma equal or greater than their maximum Health." "There are no ways of returning the dead.\""""
    async with client_for(database_url) as client:
        f = await Fight(client).open([3, 15])
        # 10 + 3 > 3; 6 + 2 - 1 = 7 damage: Mira at -1, dying; the fight waits for her injury roll
        hit = await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 6, 2]})
        assert types(hit) == ["HTAttackDeclared", "HTAttackRolled", "HTHarmed"]
        r = await client.post(f"/encounters/{f.enc}/commands", json={"type": "EndTurn", "combatant_id": "bandit"})
        assert r.status_code == 422 and r.json()["code"] == "ht_injury_due", r.text
        assert [(p["kind"], p["command"]) for p in await f.prompts(f.player)] == [("injury", "HTRollInjury")]
        await f.mira({"type": "HTRollInjury", "combatant_id": "mira", "dice": [1]})  # a lucky escape
        assert await f.prompts(f.player) == []
        await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
        ended = await f.mira({"type": "EndTurn", "combatant_id": "mira"})
        assert types(ended) == ["TurnEnded", "HTHarmed", "RoundStarted"]  # one point at the round's end
        mira = await f.sheet("mira", f.player)
        assert (mira["health"], mira["trauma"], mira["maximum_health"], mira["dying"]) == (-2, 1, 5, True)
        # 4 + 2 - 1 = 5 more while dying: Trauma 6, equal to her maximum Health of five plus Physique
        died = await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 4, 2]})
        assert types(died)[-2:] == ["HTHarmed", "HTDied"] and died["events"][-1]["data"]["cause"] == "trauma"
        mira = await f.sheet("mira", f.player)
        assert (mira["trauma"], mira["dead"], mira["dying"], mira["conditions"]) == (6, True, False, ["Dead"])
        r = await client.post(f"/encounters/{f.enc}/commands", json={"type": "HTHeal", "combatant_id": "mira",
                                                                      "amount": 5})
        assert r.status_code == 422 and r.json()["code"] == "ht_dead", r.text
        await f.assert_replays(conn)


async def test_a_second_injury_adds_five_on_our_default_chart(database_url: str, conn: Any) -> None:
    """"Roll 1D10, add five for each injury you already have, then consult the chart." On our
    default chart (1-3 a lucky escape ... 13-15 a gut wound): 10 + 5 for the one had is a gut wound."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([3, 15], chart=None)
        await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 6, 2]})
        await f.mira({"type": "HTRollInjury", "combatant_id": "mira", "dice": [2]})  # a lucky escape
        healed = await f.gm({"type": "HTHeal", "combatant_id": "mira", "amount": 3})  # -1 + 3: no longer dying
        assert healed["events"][0]["data"]["revived"] is True
        await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
        await f.mira({"type": "EndTurn", "combatant_id": "mira"})
        await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 2, 2]})  # 2 - 3: dying
        rolled = await f.mira({"type": "HTRollInjury", "combatant_id": "mira", "dice": [10]})
        injury = rolled["events"][0]["data"]
        assert (injury["injuries_had"], injury["total"], injury["result"]) == (1, 15, "gut_wound")
        assert (await f.sheet("mira", f.player))["injuries"] == ["lucky_escape", "gut_wound"]
        await f.assert_replays(conn)


# each result of the chart: the faces of the injury roll (and the part's 1D6), then what it does
RESULTS = {
    "lucky_escape": [1],
    "sliced_muscle": [3],
    "reeling": [5],
    "maimed": [7, 1],
    "gut_wound": [9],
    "mortal_blow": [10],
}


@pytest.mark.parametrize("result", list(RESULTS))
async def test_each_injury_result_of_the_chart(database_url: str, conn: Any, result: str) -> None:
    """"When you are put into the dying state Roll 1D10, add five for each injury you already have,
    then consult the chart." (the bands: the GM's chart, the text gives none)"""
    async with client_for(database_url) as client:
        f = await Fight(client).open([3, 15])
        await f.gm({"type": "HTAttack", "combatant_id": "bandit", "target": "mira", "dice": [10, 6, 2]})
        rolled = await f.mira({"type": "HTRollInjury", "combatant_id": "mira", "dice": RESULTS[result]})
        assert rolled["events"][0]["data"]["result"] == result
        mira = await f.sheet("mira", f.player)
        assert mira["injuries"] == [result]
        await CHECKS[result](f, mira, rolled)
        await f.assert_replays(conn)


async def lucky_escape(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"By luck or miracle the character avoids being badly injured. They are still dying as normal.\""""
    assert types(rolled) == ["HTInjuryRolled"]
    assert (mira["dying"], mira["conditions"]) == (True, ["Dying", "Wounded"])


async def sliced_muscle(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"You receive an -X modifier to any Skill Tests, Saves, or Damage Rolls until your trauma is
    reduced to 0." (X: the GM's data, ours 1)"""
    await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
    hit = await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]})
    attack = hit["events"][1]["data"]
    assert (attack["attack_total"], attack["rolled_damage"]) == (10 + 5 - 1, 3 - 1)


async def reeling(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"this injury takes effect if they are stabilized or healed. At the start of the character's
    turn they must take a Fear MSvs Trauma they received from the attack. If the test is failed they
    are Stunned and can't act on their turn. This effect ends once the character succeeds on this save.\""""
    await f.gm({"type": "HTStabilise", "combatant_id": "mira"})
    started = await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
    assert "HTFearSaveDue" in types(started)  # the save is due at the start of her turn: a prompt
    assert [(p["kind"], p["command"], p["combatant_id"]) for p in await f.prompts(f.player)] == [
        ("fear_save", "HTRollFearSave", "mira")]
    r = await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]}, expect=422)
    assert r["code"] == "ht_fear_save_due", r
    failed = await f.mira({"type": "HTRollFearSave", "combatant_id": "mira", "dice": [1]})  # 1 - 1 = 0, not above 0
    assert failed["events"][0]["data"]["passed"] is False
    assert "Stunned" in (await f.sheet("mira", f.player))["conditions"]
    r = await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]}, expect=422)
    assert r["code"] == "ht_stunned", r
    await f.mira({"type": "EndTurn", "combatant_id": "mira"})
    await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
    passed = await f.mira({"type": "HTRollFearSave", "combatant_id": "mira", "dice": [5]})  # 5 - 1 above 0: ended
    assert passed["events"][0]["data"]["passed"] is True
    await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]})  # she acts again


async def maimed(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"A part of you has been mangled to the point of uselessness. Roll 1D6 and consult the table.\""""
    assert rolled["events"][0]["data"]["part"] == "left arm"  # the 1D6's 1 on the (our) table
    assert (await f.state(f.player))["rules"]["bodies"]["mira"]["maimed"] == ["left arm"]


async def gut_wound(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"The Character is considered Dazed and may only take the move action until they receive
    medical treatment.\""""
    assert "Dazed" in mira["conditions"]
    await f.gm({"type": "EndTurn", "combatant_id": "bandit"})
    r = await f.mira({"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "dice": [10, 3]}, expect=422)
    assert r["code"] == "ht_dazed_move_only", r
    await f.mira({"type": "HTTakeAction", "combatant_id": "mira", "action": "Crawl"})


async def mortal_blow(f: Fight, mira: dict[str, Any], rolled: dict[str, Any]) -> None:
    """"The other way is if they receive the “Mortal Blow” injury from the Injury Table." "The
    attack that injured the character was fatal. The character is dead.\""""
    assert types(rolled) == ["HTInjuryRolled", "HTDied"] and rolled["events"][1]["data"]["cause"] == "mortal_blow"
    assert (mira["dead"], mira["dying"], mira["conditions"]) == (True, False, ["Dead"])
    r = await f.client.post(f"/encounters/{f.enc}/commands", json={"type": "HTStabilise", "combatant_id": "mira"})
    assert r.status_code == 422 and r.json()["code"] == "ht_dead", r.text


CHECKS = {"lucky_escape": lucky_escape, "sliced_muscle": sliced_muscle, "reeling": reeling, "maimed": maimed,
          "gut_wound": gut_wound, "mortal_blow": mortal_blow}


async def test_a_game_without_action_points_shows_no_action_points_field(database_url: str) -> None:
    """Issue 37: "No `action_points` field that reads 0 in a game that has none": Health/Trauma's
    turn is its resources (turn quarters, a Quick Action, a Reaction), shown in their own words."""
    async with client_for(database_url) as client:
        r = await client.post("/encounters", json={"ruleset": "health-trauma", "name": "No AP here"})
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        info = (await client.get("/rulesets/health-trauma")).json()
        for example in info["examples"]:
            assert (await client.post(f"/encounters/{enc}/combatants", json=example["body"])).status_code == 201
        await command(client, enc, {"type": "RollInitiative"})
        await command(client, enc, {"type": "StartEncounter"})
        state = (await client.get(f"/encounters/{enc}")).json()
        assert state["combatants"]
        for c in state["combatants"].values():
            assert "action_points" not in c and c["resources"]


async def test_the_gms_data_takes_a_merge_patch_and_keeps_the_chart(database_url: str) -> None:
    """Issue 37: "the settings documents take a partial document, merged into the current one (JSON
    Merge Patch, RFC 7396). Changing X no longer resets the GM's chart"."""
    async with client_for(database_url) as client:
        r = await client.post("/encounters", json={"ruleset": "health-trauma", "name": "House rules"})
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        chart = [{"least": 1, "result": "lucky_escape"}, {"least": 9, "result": "gut_wound"}]
        await command(client, enc, {"type": "SetHealthTraumaRules", "data": {"injury_chart": chart}})
        await command(client, enc, {"type": "SetHealthTraumaRules", "data": {"initiative_die": 12}})
        data = (await client.get(f"/encounters/{enc}")).json()["rules"]["data"]
        assert data["initiative_die"] == 12 and data["injury_chart"] == chart
        refused = await client.post(f"/encounters/{enc}/commands",
                                    json={"type": "SetHealthTraumaRules", "data": {"initiative_die": "d12"}})
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_settings"
        info = (await client.get("/rulesets/health-trauma")).json()
        doc = next(c for c in info["commands"] if c["type"] == "SetHealthTraumaRules")["settings_schema"]
        assert doc["$defs"]["HealthTraumaData"]["properties"]["initiative_die"]["default"] == 20
