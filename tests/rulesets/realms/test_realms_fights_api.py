"""Whole RealmsRPG fights through the server against PostgreSQL, with reported dice: the text's
initiative example, a surprised side, a reaction window answered by a player (Dodge, then Defend
with a shield), a critical hit with a raised multiplier, a creature Dying and stabilised, and the
odds route. Each fight ends by checking that a replay of its stored events equals the state the
server serves."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import msgspec

from domain.rulesets import default_registry
from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for

RULESET = default_registry().get("realms")
ARWEN = {"health": 20, "martial_proficiency": 2, "abilities": {"agility": 3, "acuity": 1, "strength": 1},
         "weapons": [{"name": "Rapier", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "finesse",
                      "critical_multiplier": 1}],
         "proficiencies": {"piercing": 6}}
BRAM = {"health": 18, "martial_proficiency": 2, "abilities": {"strength": 3},
        "weapons": [{"name": "Axe", "dice": 1, "sides": 8}], "proficiencies": {"slashing": 8}, "shield": {"sides": 6}}
BRIGAND = {"health": 12, "martial_proficiency": 1, "abilities": {"agility": 1, "strength": 2},
           "weapons": [{"name": "Club", "dice": 1, "sides": 6, "damage_type": "bludgeoning"}],
           "proficiencies": {"bludgeoning": 6}}


class Fight:
    """One encounter: the client speaks as its RM; ``players`` holds each player's header."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.enc = ""
        self.players: dict[str, dict[str, str]] = {}

    async def open(self, cast: list[tuple[str, str, dict[str, Any]]]) -> Fight:
        r = await self.client.post("/encounters", json={"ruleset": "realms", "name": "At the ford",
                                                        "dice_policy": "reported"})
        assert r.status_code == 201, r.text
        self.enc = r.json()["encounter_id"]
        self.client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        for cid, side, sheet in cast:
            controller = "player" if side == "party" else "gm"
            await self.rm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(), "side": side,
                           "controller": controller, "sheet": sheet})
            if controller == "player":
                self.players[cid] = await mint(self.client, self.enc, "player", [cid])
        return self

    async def rm(self, body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return await command(self.client, self.enc, body, expect=expect)

    async def player(self, cid: str, body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        r = await self.client.post(f"/encounters/{self.enc}/commands", json=body, headers=self.players[cid])
        assert r.status_code == expect, r.text
        return r.json()

    async def state(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}", headers=headers)
        assert r.status_code == 200, r.text
        return r.json()

    async def prompts(self, headers: dict[str, str]) -> list[dict[str, Any]]:
        r = await self.client.get(f"/encounters/{self.enc}/live", params={"follow": "false"}, headers=headers)
        assert r.status_code == 200, r.text
        messages = [msgspec.json.decode(line[5:]) for line in r.text.splitlines() if line.startswith("data:")]
        return [m["prompt"] for m in messages if m["type"] == "prompt"]

    async def log(self) -> str:
        r = await self.client.get(f"/encounters/{self.enc}/log", params={"format": "text"})
        assert r.status_code == 200, r.text
        return r.text

    async def assert_replays(self, conn: Any) -> None:
        rows = await conn.fetch("SELECT type, schema_version, data::text AS data FROM events "
                                "WHERE encounter_id = $1 ORDER BY version", uuid.UUID(self.enc))
        replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
        served = await self.state()
        assert replayed.version == len(rows) == served["version"]
        # through JSON, as served (a map keyed by versions has string keys there)
        assert msgspec.json.decode(msgspec.json.encode(RULESET.shown(replayed))) == served


async def brigand_attacks_arwen(client: httpx.AsyncClient) -> tuple[Fight, dict[str, Any]]:
    """Arwen and Bram (players') against the Brigand (first): its attack on Arwen waits on her Dodge."""
    f = await Fight(client).open([("arwen", "party", ARWEN), ("bram", "party", BRAM), ("brigand", "enemies", BRIGAND)])
    await f.rm({"type": "RollInitiative", "dice": [3, 2, 15]})
    await f.rm({"type": "StartEncounter"})
    await f.rm({"type": "RealmsAttack", "combatant_id": "brigand", "target": "arwen"})
    [prompt] = await f.prompts(f.players["arwen"])
    return f, prompt


def health(state: dict[str, Any], cid: str) -> int:
    return state["combatants"][cid]["sheet"]["current_health"]


async def test_the_texts_initiative_example_and_a_surprised_side(database_url: str, conn: Any) -> None:
    """"Enemy 1 (14), Player 1 (13), Enemy 2 (10), Player 2 (4 - ACU 3), Enemy 3 (8), Player 3 (4 -
    ACU 2), Enemy 4 (6), Enemy 5 (4)"; "During the first round of Combat, all surprised parties act
    after the opposing side has taken their turns. Subsequent rounds follow the normal initiative order"."""
    async with client_for(database_url) as client:
        cast = [("p3", "party", {"abilities": {"acuity": 2}}), ("p1", "party", {}),
                ("p2", "party", {"abilities": {"acuity": 3}})]
        cast += [(f"e{i}", "enemies", {}) for i in range(1, 6)]
        f = await Fight(client).open(cast)
        await f.rm({"type": "RollInitiative", "dice": [2, 13, 1, 14, 10, 8, 6, 4]})
        assert (await f.state())["order"] == ["e1", "p1", "e2", "p2", "e3", "p3", "e4", "e5"]
        # the party was unaware: the RM says so, and initiative is rolled again
        for cid in ("p1", "p2", "p3"):
            await f.rm({"type": "SetInitiative", "combatant_id": cid, "surprised": True}, expect=422)
        await f.assert_replays(conn)

    async with client_for(database_url) as client:
        f = await Fight(client).open(cast)
        for cid in ("p1", "p2", "p3"):
            await f.rm({"type": "SetInitiative", "combatant_id": cid, "surprised": True})
        await f.rm({"type": "RollInitiative", "dice": [2, 13, 1, 14, 10, 8, 6, 4]})
        assert (await f.state())["order"] == ["e1", "e2", "e3", "e4", "e5", "p1", "p2", "p3"]
        await f.rm({"type": "StartEncounter"})
        for cid in ["e1", "e2", "e3", "e4", "e5"]:
            await f.rm({"type": "EndTurn", "combatant_id": cid})
        for cid in ["p1", "p2", "p3"]:
            await f.player(cid, {"type": "EndTurn", "combatant_id": cid})
        state = await f.state()
        assert state["round"] == 2 and state["order"] == ["e1", "p1", "e2", "p2", "e3", "p3", "e4", "e5"]
        await f.assert_replays(conn)


async def test_a_players_dodge_and_an_allys_shield_defense_answer_the_attacks_windows(
        database_url: str, conn: Any) -> None:
    """R2: "Dodge 1 (+1 Evasion, declared before you know whether the attack hits)"; Defend: "This can
    be done after knowing the damage"; R18: "If you meet or beat it, roll the Shield Die ... and reduce
    the damage by that much"."""
    async with client_for(database_url) as client:
        f, prompt = await brigand_attacks_arwen(client)
        assert prompt["command"] == "React" and [c["name"] for c in prompt["choices"]] == ["Dodge", "Pass"]
        assert await f.prompts(f.players["bram"]) == []
        # the Dodge: Evasion 13 + 1; the Club 13 + 3 = 16 hits; 5 + 3 = 8 damage
        await f.player("arwen", {**prompt["body"], "type": "React", "reaction": "Dodge", "dice": [13, 5]})
        [defend] = await f.prompts(f.players["bram"])
        assert [c["name"] for c in defend["choices"]] == ["Shield Defense", "Body Shield", "Pass"]
        refused = await f.rm({"type": "EndTurn", "combatant_id": "brigand"}, expect=422)
        assert refused["code"] == "realms_attack_waiting"
        # Bram's Strength attack roll 11 + 2 + 3 = 16 meets 16: the Shield Die 6 off the 8
        await f.player("bram", {**defend["body"], "type": "React", "reaction": "Shield Defense", "dice": [11, 6]})
        state = await f.state()
        assert health(state, "arwen") == 20 - 2
        assert (state["combatants"]["arwen"]["action_points"], state["combatants"]["bram"]["action_points"]) == (3, 3)
        told = await f.log()
        assert "Arwen reacts: Dodge (1 AP)" in told and "the Shield Die shows 6" in told, told
        await f.assert_replays(conn)


async def test_a_critical_hit_with_a_raised_multiplier_and_a_creature_dying_and_stabilised(
        database_url: str, conn: Any) -> None:
    """"Whenever your Critical Multiplier increases by +1 or +1x, it adds one additional multiple of
    your normal damage dice"; R22: Dying at 0 Health or below, "its AP drops to 1 at once", the Dying
    damage "1d4, then 2d4" on its later turns, and stabilising "stops the escalation"."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("arwen", "party", ARWEN), ("brigand", "enemies", BRIGAND)])
        await f.rm({"type": "RollInitiative", "dice": [15, 3]})
        await f.rm({"type": "StartEncounter"})
        await f.player("arwen", {"type": "RealmsAttack", "combatant_id": "arwen", "target": "brigand"})
        # 17 + 5 = 22 against Evasion 11: 11 over, a Critical Hit; the Rapier's 3x: three d6 + 5
        out = await f.rm({"type": "PassReaction", "combatant_id": "brigand",
                          "window": (await f.state())["rules"]["window"]["id"], "dice": [17, 4, 3, 2]})
        rolled = next(e["data"] for e in out["events"] if e["type"] == "RealmsAttackRolled")
        assert rolled["critical"] and rolled["multiplier"] == 3 and len(rolled["damage_dice"]) == 3
        state = await f.state()
        assert health(state, "brigand") == 12 - 14 and state["rules"]["bodies"]["brigand"]["dying"]
        seen = (await f.state(f.players["arwen"]))["combatants"]["brigand"]["sheet"]
        assert seen == {"dying": True, "dead": False, "unconscious": False, "conditions": ["dying", "prone", "terminal"]}
        assert state["combatants"]["brigand"]["action_points"] == 1
        # the Brigand's turn: 1d4 Dying damage as it begins
        await f.player("arwen", {"type": "EndTurn", "combatant_id": "arwen", "dice": [3]})
        assert health(await f.state(), "brigand") == -5
        await f.rm({"type": "RealmsStabilise", "combatant_id": "brigand"})
        await f.rm({"type": "EndTurn", "combatant_id": "brigand"})
        await f.player("arwen", {"type": "EndTurn", "combatant_id": "arwen"})  # no Dying damage now
        state = await f.state()
        assert health(state, "brigand") == -5 and state["rules"]["bodies"]["brigand"]["exhausted"] == 1
        assert state["combatants"]["brigand"]["action_points"] == 1  # "only 1 AP at the end of each of its turns"
        await f.assert_replays(conn)


async def test_the_initiators_free_action_is_offered_and_taken_before_initiative_through_the_server(
        database_url: str, conn: Any) -> None:
    """"The creature who initiates Combat can take their first Action without spending any Action
    Points. Afterward, all creatures involved roll for Initiative to determine turn order": Arwen's player
    is offered her attack before the roll and makes it; the Brigand cannot act before it; then the RM
    rolls, and Arwen's turn has its 4 AP. A wrong move is a 4xx problem, never a 500."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("arwen", "party", ARWEN), ("brigand", "enemies", BRIGAND)])
        await f.rm({"type": "SetInitiative", "combatant_id": "arwen", "initiator": True})
        r = await client.get(f"/encounters/{f.enc}/actions", headers=f.players["arwen"])
        assert r.status_code == 200, r.text
        attacks = [a for a in r.json()["actions"] if a["command"]["type"] == "RealmsAttack"]
        assert attacks and all(a["command"]["combatant_id"] == "arwen" for a in attacks)
        await f.rm({"type": "RealmsAttack", "combatant_id": "brigand", "target": "arwen", "dice": [12, 4]},
                   expect=422)
        out = await f.player("arwen", {"type": "RealmsAttack", "combatant_id": "arwen", "target": "brigand",
                                       "dice": [14, 3]})
        declared = next(e["data"] for e in out["events"] if e["type"] == "RealmsAttackDeclared")
        assert declared["free"] and declared["action_points"] == 0
        assert health(await f.state(), "brigand") == 12 - 8  # 14 + 5 against 11; 3 + 5
        await f.player("arwen", {"type": "RealmsTakeAction", "combatant_id": "arwen", "action": "Evade"},
                       expect=422)
        await f.rm({"type": "RollInitiative", "dice": [15, 3]})
        await f.rm({"type": "StartEncounter"})
        assert (await f.state())["combatants"]["arwen"]["action_points"] == 4
        await f.assert_replays(conn)


async def test_the_odds_route(database_url: str) -> None:
    """``GET /rulesets/realms/odds``: D20 + bonus against a Defence, natural 20 and 1, the critical chance."""
    async with client_for(database_url) as client:
        r = await client.get("/rulesets/realms/odds", params={"bonus": "5", "score": "15"})
        assert r.status_code == 200, r.text
        odds = r.json()
        assert (odds["hit_ways"], odds["critical_ways"], odds["ways"]) == (11, 1, 20)


MAGE = {"health": 14, "power_proficiency": 2, "power_ability": "intelligence", "energy": 20,
        "abilities": {"intelligence": 3},
        "powers": [{"name": "Fire Bolt", "dice": 2, "sides": 6, "damage_type": "fire", "range": 10, "energy": 5}]}
WARDEN = {"health": 14, "power_proficiency": 3, "power_ability": "charisma", "energy": 10, "abilities": {"charisma": 2},
          "powers": [{"name": "Ward", "dice": 0, "range": 10, "energy": 5, "action_points": 1}], "shield": {"sides": 4}}


async def test_a_counter_power_that_fails_then_a_shield_defense_in_one_attack(database_url: str, conn: Any) -> None:
    """Counter Power: "If your roll exceeds the target roll or Score, you successfully nullify their
    Power"; Defend: "if the attack would hit. This can be done after knowing the damage"."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("mage", "enemies", MAGE), ("arwen", "party", ARWEN),
                                      ("warden", "party", WARDEN)])
        await f.rm({"type": "RollInitiative", "dice": [15, 3, 2]})
        await f.rm({"type": "StartEncounter"})
        await f.rm({"type": "RealmsAttack", "combatant_id": "mage", "target": "arwen", "power": "Fire Bolt",
                    "distance": 4})
        [counter] = await f.prompts(f.players["warden"])
        assert [(c["name"], c["action_points"]) for c in counter["choices"]] == [("Counter Power: Ward", 1), ("Pass", 0)]
        await f.player("warden", {**counter["body"], "type": "React", "reaction": "Counter Power: Ward"})
        [dodge] = await f.prompts(f.players["arwen"])
        # the Fire Bolt 14 + 5 + 1 = 20 against the Ward's 9 + 5 + 1 = 15: not nullified; Evasion 13 is hit,
        # 2d6 + 5 = 3 + 4 + 5 = 12
        await f.player("arwen", {**dodge["body"], "type": "PassReaction", "dice": [14, 9, 3, 4]})
        [defend] = await f.prompts(f.players["warden"])
        assert [c["name"] for c in defend["choices"]] == ["Shield Defense", "Body Shield", "Pass"]
        # the Warden's Strength attack roll 20 + 2 = 22 meets 20; the Shield Die 4
        await f.player("warden", {**defend["body"], "type": "React", "reaction": "Shield Defense", "dice": [20, 4]})
        state = await f.state()
        assert health(state, "arwen") == 20 - 8
        assert state["combatants"]["warden"]["sheet"]["current_energy"] == 5
        assert state["combatants"]["warden"]["action_points"] == 2
        told = await f.log()
        assert "Warden counters with 9, total 15: a hit" in told, told
        await f.assert_replays(conn)


async def test_the_end_of_turn_overcome_is_prompted_to_the_player_and_answered(database_url: str, conn: Any) -> None:
    """"At the end of your turn, before gaining Action Points, you may attempt to overcome each
    condition or effect currently affecting your Character"."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("arwen", "party", ARWEN), ("brigand", "enemies", BRIGAND)])
        await f.rm({"type": "RollInitiative", "dice": [15, 3]})
        await f.rm({"type": "StartEncounter"})
        await f.rm({"type": "RealmsApplyCondition", "combatant_id": "arwen", "condition": "stunned", "level": 2,
                    "defence": "might", "score": 12})
        assert (await f.state())["combatants"]["arwen"]["action_points"] == 2  # "lose level AP at once"
        out = await f.player("arwen", {"type": "EndTurn", "combatant_id": "arwen"})
        assert [e["type"] for e in out["events"]] == ["RealmsOvercomeDue"]
        [prompt] = await f.prompts(f.players["arwen"])
        assert prompt["command"] == "RealmsOvercome" and [c["name"] for c in prompt["choices"]] == ["roll", "decline"]
        refused = await f.player("arwen", {"type": "EndTurn", "combatant_id": "arwen"}, expect=422)
        assert refused["code"] == "realms_overcome_due"
        # Might: 11 + Strength 1 = 12 meets the Difficulty Score 12
        await f.player("arwen", {**prompt["body"], "type": "RealmsOvercome", "attempt": "roll", "dice": [11]})
        await f.player("arwen", {"type": "EndTurn", "combatant_id": "arwen"})
        state = await f.state()
        assert state["turn"] == "brigand" and state["combatants"]["arwen"]["action_points"] == 4
        assert "stunned" not in state["rules"]["bodies"]["arwen"]["conditions"]
        await f.assert_replays(conn)


async def test_a_player_attacked_by_a_hidden_npc_is_prompted_and_learns_nothing_of_it(
        database_url: str, conn: Any) -> None:
    """R2: "Dodge 1 (+1 Evasion, declared before you know whether the attack hits)"; Defend "can be done
    after knowing the damage"; R24 Hidden: "location unknown". The player is asked for a Dodge, then for
    a Shield Defense, from what they may know: an attack comes, on their Evasion, and then its damage;
    neither the prompts nor their state name the hidden creature or its weapon."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("arwen", "party", ARWEN), ("bram", "party", BRAM)])
        await f.rm({"type": "AddCombatant", "combatant_id": "lurker", "name": "Lurker", "side": "enemies",
                    "controller": "gm", "hidden": True, "sheet": BRIGAND})
        await f.rm({"type": "RollInitiative", "dice": [3, 2, 15]})
        await f.rm({"type": "StartEncounter"})
        await f.rm({"type": "RealmsAttack", "combatant_id": "lurker", "target": "arwen"})
        [dodge] = await f.prompts(f.players["arwen"])
        assert dodge["command"] == "React" and [c["name"] for c in dodge["choices"]] == ["Dodge", "Pass"]
        seen = msgspec.json.encode(await f.state(f.players["arwen"])).decode()
        told = msgspec.json.encode(dodge).decode() + seen
        for secret in ("lurker", "Lurker", "Club"):
            assert secret not in told, f"the player learns {secret}"
        assert "an attack by a creature unseen" in seen
        # the Dodge: Evasion 13 + 1; the Club 13 + 3 = 16 hits; 5 + 3 = 8 damage
        await f.player("arwen", {**dodge["body"], "type": "React", "reaction": "Dodge", "dice": [13, 5]})
        [defend] = await f.prompts(f.players["bram"])
        assert [c["name"] for c in defend["choices"]] == ["Shield Defense", "Body Shield", "Pass"]
        told = msgspec.json.encode(defend).decode() + msgspec.json.encode(await f.state(f.players["bram"])).decode()
        assert "lurker" not in told and "Lurker" not in told and "Club" not in told
        await f.player("bram", {**defend["body"], "type": "React", "reaction": "Shield Defense", "dice": [11, 6]})
        state = await f.state()
        assert health(state, "arwen") == 20 - 2 and state["rules"]["attack"] is None
        await f.assert_replays(conn)


async def test_energy_below_zero_overheal_a_determination_die_and_rest_through_the_server(
        database_url: str, conn: Any) -> None:
    """R20: "If Energy drops below 0, the creature takes 1 damage per point below 0"; "Overheal can go over
    the maximum, stacks, and lasts until damage would take you below the maximum or until a recovery";
    R10: "Spending it re-rolls any roll, and you keep the result you prefer"; R25: "Full recovery (8–10
    hours) restores everything"."""
    async with client_for(database_url) as client:
        f = await Fight(client).open([("arwen", "party", {**ARWEN, "energy": 6}), ("brigand", "enemies", BRIGAND)])
        await f.rm({"type": "RollInitiative", "dice": [15, 3]})
        await f.rm({"type": "StartEncounter"})
        out = await f.rm({"type": "RealmsChangeEnergy", "combatant_id": "arwen", "amount": -8})
        assert [e["type"] for e in out["events"]] == ["RealmsEnergyChanged", "RealmsHarmed"]
        sheet = (await f.state(f.players["arwen"]))["combatants"]["arwen"]["sheet"]
        assert (sheet["current_energy"], sheet["current_health"]) == (0, 18)
        await f.rm({"type": "RealmsHeal", "combatant_id": "arwen", "amount": 5, "overheal": True})
        assert health(await f.state(), "arwen") == 23
        # the player spends the Determination Die: 2, re-rolled 12 kept; 12 + 5 = 17 hits Evasion 11, 4 + 5
        await f.player("arwen", {"type": "RealmsAttack", "combatant_id": "arwen", "target": "brigand",
                                 "determination": True})
        window = (await f.state())["rules"]["window"]["id"]
        await f.rm({"type": "PassReaction", "combatant_id": "brigand", "window": window, "dice": [2, 12, 4]})
        assert health(await f.state(), "brigand") == 12 - 9
        refused = await f.player("arwen", {"type": "RealmsTakeAction", "combatant_id": "arwen",
                                           "action": "Ability Roll", "roll_with": "agility", "determination": True},
                                 expect=422)
        assert refused["code"] == "realms_no_determination"
        assert "a Determination Die re-rolls it, 2 set aside" in await f.log()
        await f.rm({"type": "EndEncounter"})
        await f.rm({"type": "RealmsRecover", "combatant_id": "arwen", "recovery": "full"})
        sheet = (await f.state())["combatants"]["arwen"]["sheet"]
        assert (sheet["current_health"], sheet["current_energy"]) == (20, 6)
        await f.assert_replays(conn)


async def test_the_rm_takes_a_creature_out_in_the_middle_of_an_attack(database_url: str, conn: Any) -> None:
    """The attack on one taken out is void (an ally's answer to it is refused as a 4xx, not a crash);
    one that waited only on one taken out goes on; one added again under the same id starts afresh."""
    async with client_for(database_url) as client:
        f, prompt = await brigand_attacks_arwen(client)
        await f.player("arwen", {**prompt["body"], "type": "React", "reaction": "Dodge", "dice": [13, 5]})
        [defend] = await f.prompts(f.players["bram"])
        await f.rm({"type": "RemoveCombatant", "combatant_id": "arwen"})
        assert await f.prompts(f.players["bram"]) == []
        refused = await f.player("bram", {**defend["body"], "type": "React", "reaction": "Shield Defense",
                                          "dice": [11, 6]}, expect=422)
        assert refused["code"] == "no_reaction_window"
        # the Brigand's turn goes on: its next attack, on Bram, who passes the Dodge; the Club 14 + 3
        # hits Evasion 10, and Bram alone may Defend now (Arwen, who could have, is gone)
        await f.rm({"type": "RealmsAttack", "combatant_id": "brigand", "target": "bram"})
        [dodge] = await f.prompts(f.players["bram"])
        await f.player("bram", {**dodge["body"], "type": "PassReaction", "dice": [14, 6]})
        [defend] = await f.prompts(f.players["bram"])
        assert defend["body"]["window"].endswith(":defend")
        await f.player("bram", {**defend["body"], "type": "PassReaction"})
        assert health(await f.state(), "bram") == 18 - 9
        await f.rm({"type": "AddCombatant", "combatant_id": "arwen", "name": "Arwen", "side": "party",
                    "controller": "player", "sheet": ARWEN})
        state = await f.state()
        assert health(state, "arwen") == 20  # added again: a fresh body
        await f.assert_replays(conn)
