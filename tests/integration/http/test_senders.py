"""Which commands a player may send (issue 22, a player's page: "commands they may send, refused
ones explained with the server's message"), through HTTP: `GET /rulesets/{id}` lists each
command's `senders` and `actor_field` as the ruleset's door ``Ruleset.senders`` says, and the
server refuses a player any command the door keeps for the GM, even one naming their own
combatant (a ruleset that narrows the default: the test-only Hold the Door, with a house rule)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

import httpx

from domain.core.encounter import Command
from domain.core.ruleset import Registry, Sender
from domain.places_of_power.ruleset import PlacesOfPower
from domain.rulesets import default_registry
from tests.integration.app_client import app_client
from tests.integration.fight import command, mint
from tests.rulesets.door.ruleset import CancelDeclared, Door


class StrictDoor(Door):
    """Hold the Door with a house rule: once declared, only the GM cancels an action."""

    id = "strict-door"
    name = "Hold the Door (strict)"

    def senders(self, command_type: type[Command]) -> tuple[Sender, ...]:
        return ("gm",) if command_type is CancelDeclared else super().senders(command_type)


def strict_client(database_url: str) -> AbstractAsyncContextManager[httpx.AsyncClient]:
    return app_client(database_url, registry=Registry([PlacesOfPower(), StrictDoor()]))


async def test_each_command_lists_who_may_send_it(client: httpx.AsyncClient) -> None:
    for ruleset in default_registry().all():
        listed = (await client.get(f"/rulesets/{ruleset.id}")).json()["commands"]
        by_type = {c["type"]: c for c in listed}
        for kind in ruleset.command_types:
            doc = by_type[kind.__struct_config__.tag]
            assert doc["senders"] == list(ruleset.senders(kind))
            assert doc["actor_field"] == kind.actor_field
    pop = {c["type"]: c for c in (await client.get("/rulesets/places-of-power")).json()["commands"]}
    assert pop["Attack"]["senders"] == ["gm", "player"] and pop["Attack"]["actor_field"] == "combatant_id"
    assert pop["TreatInjury"]["actor_field"] == "healer"
    assert pop["RollInitiative"]["senders"] == ["gm"] and pop["RollInitiative"]["actor_field"] is None


async def test_a_command_the_ruleset_keeps_for_the_gm_is_refused_to_a_player(database_url: str) -> None:
    async with strict_client(database_url) as client:
        listed = {c["type"]: c for c in (await client.get("/rulesets/strict-door")).json()["commands"]}
        assert listed["DoorCancel"]["senders"] == ["gm"]
        assert listed["DoorDeclare"]["senders"] == ["gm", "player"]

        r = await client.post("/encounters", json={"ruleset": "strict-door", "name": "At the door",
                                                   "dice_policy": "mixed"})
        assert r.status_code == 201, r.text
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        for cid, controller, sheet in (("hero", "player", {"might": 1, "guard": 2, "hits": 6}),
                                       ("troll", "gm", {"might": 0, "guard": 1, "hits": 2})):
            await command(client, enc, {"type": "AddCombatant", "combatant_id": cid, "name": cid.title(),
                                        "side": "party" if controller == "player" else "enemies",
                                        "controller": controller, "sheet": sheet})
        await command(client, enc, {"type": "RollInitiative", "dice": [7, 5, 10, 4, 3]})
        await command(client, enc, {"type": "StartEncounter"})
        hero = await mint(client, enc, "player", ["hero"])
        declared = await client.post(f"/encounters/{enc}/commands", headers=hero, json={
            "type": "DoorDeclare", "combatant_id": "hero", "action": "strike", "target": "troll"})
        assert declared.status_code == 200, declared.text

        refused = await client.post(f"/encounters/{enc}/commands", headers=hero,
                                    json={"type": "DoorCancel", "combatant_id": "hero"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "gm_only"
        assert "Only the GM may send DoorCancel" in refused.json()["detail"]
        # the GM may, for the same combatant
        await command(client, enc, {"type": "DoorCancel", "combatant_id": "hero"})
