"""Loading ranged weapons through the server (places-of-power-combat.txt, Common Actions): "Notch
Arrow (1 AP): Draw and notch a new arrow to a bow", "Reload Crossbow (3 AP): Reload a crossbow or
similar weapon", "Reload Gun (6 AP) ... Some ranged weapons, such as volley guns, cannot be reloaded
during combat". A shot spends the load; the weapon's Common Action loads it again."""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, open_encounter, seat_party

BOW = {"name": "Bow", "skill": "Bow", "kind": "ranged", "reload": "NotchArrow",
       "ranges": {"Near": {"difficulty": "Normal", "damage": 2}}}
VOLLEY = {"name": "Volley Gun", "skill": "Gun", "kind": "ranged", "gun": True, "reload": "ReloadGun",
          "reloadable": False, "ranges": {"Near": {"difficulty": "Normal", "damage": 3}}}
ATTRS = {"strength": "D8", "stamina": "D8", "agility": "D8", "dexterity": "D10", "intelligence": "D6",
         "perception": "D8", "empathy": "D6", "charisma": "D6"}
ARCHER = {"attributes": ATTRS, "skills": {"Bow": "D8", "Gun": "D8", "Athletics": "D6"}, "willpower": 10,
          "weapons": [BOW, VOLLEY]}
BANDIT = {"attributes": {"strength": "D6", "agility": "D6", "dexterity": "D6"}, "skills": {"Athletics": "D4"},
          "willpower": 8}


async def _offered(client: Any, enc: str, headers: dict[str, str]) -> dict[str, dict[str, Any]]:
    r = await client.get(f"/encounters/{enc}/actions", headers=headers)
    assert r.status_code == 200, r.text
    return {a["label"]: a for a in r.json()["actions"]}


async def test_a_shot_spends_the_load_and_the_weapons_own_action_loads_it_again(client: Any) -> None:
    enc = await open_encounter(client, dice_policy="reported")
    ids, tokens = await seat_party(client, enc, {"Ada": ("player", ARCHER), "Bandit": ("gm", BANDIT)})
    await command(client, enc, {"type": "RollInitiative", "dice": [12, 1]})
    await command(client, enc, {"type": "StartEncounter"})
    ada = tokens["Ada"]

    async def send(body: dict[str, Any], expect: int = 200) -> Any:
        return await command(client, enc, {"combatant_id": ids["Ada"], **body}, expect=expect, **ada)

    shot = {"type": "Attack", "target": ids["Bandit"], "attack": "Ranged", "weapon": "Bow", "band": "Near"}
    await send({**shot, "dice": [1, 2]})  # a miss: the arrow is spent all the same
    sheet = (await client.get(f"/encounters/{enc}", headers=ada)).json()["combatants"][ids["Ada"]]["sheet"]
    assert sheet["unloaded"] == ["Bow"]
    refused = await send({**shot, "dice": [1, 2]}, expect=422)
    assert refused["code"] == "not_loaded" and "Notch Arrow first" in refused["detail"]
    offered = await _offered(client, enc, ada)
    assert not [a for a in offered.values() if a["command"].get("weapon") == "Bow" and a["command"]["type"] == "Attack"]
    notch = offered["Notch Arrow: Bow (1 AP)"]
    assert notch["command"] == {"type": "TakeAction", "combatant_id": ids["Ada"], "action": "NotchArrow",
                                "weapon": "Bow"} and notch["cost"] == {"AP": 1}
    out = await send({k: v for k, v in notch["command"].items() if k != "combatant_id"})
    assert out["events"][0]["data"]["weapon"] == "Bow"
    again = await send({"type": "TakeAction", "action": "NotchArrow", "weapon": "Bow"}, expect=422)
    assert again["code"] == "nothing_to_load" and "loaded already" in again["detail"]
    await send({**shot, "dice": [1, 2]})  # notched: it shoots

    # "Some ranged weapons, such as volley guns, cannot be reloaded during combat"
    await command(client, enc, {"type": "EndTurn", "combatant_id": ids["Ada"]}, **ada)
    await command(client, enc, {"type": "EndTurn", "combatant_id": ids["Bandit"]})
    volley = {**shot, "weapon": "Volley Gun", "dice": [1, 2]}
    await send(volley)
    refused = await send(volley, expect=422)
    assert refused["code"] == "not_loaded" and "cannot be reloaded during combat" in refused["detail"]
    r = await send({"type": "TakeAction", "action": "ReloadGun", "weapon": "Volley Gun"}, expect=422)
    assert r["code"] == "nothing_to_load"
    assert not [label for label in await _offered(client, enc, ada) if "Volley Gun" in label and "Reload" in label]
