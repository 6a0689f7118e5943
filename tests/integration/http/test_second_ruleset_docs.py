"""A second ruleset beside Places of Power (issue 18): "a second ruleset with its own `Attack`
or `Defend` makes `create_app` fail (msgspec refuses duplicate tags)". Skirmish, defined here,
has commands and an event whose tags are Places of Power's; the app and its OpenAPI document
build, each ruleset's commands and events are its own schemas, each encounter's commands are
decoded (and explained when refused) by its own ruleset, and each ruleset lists its own codes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace as dc_replace
from typing import Any

import httpx
import msgspec
import pytest

from domain.core.concerns import CombatantId
from domain.core.dice import Dice
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import CODES, RuleViolation
from domain.core.ruleset import Registry
from domain.places_of_power.ruleset import PlacesOfPower
from server.app import create_app
from server.settings import Settings
from tests.integration.app_client import app_client
from tests.rulesets.plain import Plain

SKIRMISH = "skirmish"
POP = "places-of-power"


class Sheet(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A skirmisher: how hard they hit."""

    strength: int = 1


class Attack(Command, tag="Attack"):
    """The attacker strikes the target with all their strength."""

    actor_field = "attacker"
    attacker: CombatantId
    target: CombatantId


class Defend(Command, tag="Defend"):
    """The defender braces against the next blow."""

    actor_field = "defender"
    defender: CombatantId
    brace: bool = True


class AttackDeclared(Event, tag="AttackDeclared"):
    attacker: CombatantId
    target: CombatantId
    strength: int


class Braced(Event, tag="Braced"):
    defender: CombatantId


class Skirmish(Plain):
    id = SKIRMISH
    name = "Skirmish"
    sheet_type = Sheet
    extra_commands = (Attack, Defend)
    extra_events = (AttackDeclared, Braced)
    own_codes = {"attack_self": "A combatant cannot attack themselves."}

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        if isinstance(command, Attack):
            attacker = self.combatant(state, command.attacker)
            self.combatant(state, command.target)
            if command.attacker == command.target:
                raise RuleViolation("attack_self", f"{attacker.name} cannot attack themselves.")
            return [AttackDeclared(attacker=attacker.id, target=command.target, strength=attacker.sheet.strength)]
        if isinstance(command, Defend):
            return [Braced(defender=self.combatant(state, command.defender).id)]
        return super().decide_action(state, command, dice)

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        return state


def registry() -> Registry:
    return Registry([PlacesOfPower(), Skirmish()])


def settings() -> Settings:
    return dc_replace(Settings.from_env(), rate_limit=0)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _name(ref: str) -> str:
    return ref.rsplit("/", 1)[1]


def test_the_app_and_its_document_build_with_each_rulesets_schemas() -> None:
    app = create_app("postgresql://unused/unused", settings(), registry=registry())
    doc = app.openapi_schema.to_schema()
    schemas = doc["components"]["schemas"]
    for ref in _refs(doc):
        assert _name(ref) in schemas, f"dangling {ref}"
    body = doc["paths"]["/encounters/{encounter_id}/commands"]["post"]["requestBody"]["content"]["application/json"]
    assert [_name(r) for r in body["schema"]["anyOf"][0:2] for r in _refs(r)] == ["PlacesOfPower.Command",
                                                                               "Skirmish.Command"]
    pop, skirmish = schemas["PlacesOfPower.Command"], schemas["Skirmish.Command"]
    # each union maps its own tags to its own types; the lifecycle's are shared
    assert skirmish["discriminator"]["propertyName"] == "type"
    assert {k: _name(v) for k, v in skirmish["discriminator"]["mapping"].items() if k in ("Attack", "Defend",
                                                                                        "EndTurn")} == {
        "Attack": "Skirmish.Attack", "Defend": "Skirmish.Defend", "EndTurn": "EndTurn"}
    assert _name(pop["discriminator"]["mapping"]["Attack"]) == "PlacesOfPower.Attack"
    assert set(schemas["Skirmish.Attack"]["required"]) == {"type", "attacker", "target"}
    assert "band" in schemas["PlacesOfPower.Attack"]["properties"]
    assert "TakeAction" not in skirmish["discriminator"]["mapping"]
    # events typed too: an event's data is one of the rulesets' event unions
    data = schemas["EventView"]["properties"]["data"]
    assert [_name(r) for r in _refs(data)] == ["PlacesOfPower.Event", "Skirmish.Event"]
    events = schemas["Skirmish.Event"]["discriminator"]["mapping"]
    assert _name(events["AttackDeclared"]) == "Skirmish.AttackDeclared"
    assert _name(schemas["PlacesOfPower.Event"]["discriminator"]["mapping"]["AttackDeclared"]) == \
        "PlacesOfPower.AttackDeclared"
    assert _name(events["EncounterOpened"]) == "EncounterOpened"
    # Skirmish counts no odds: only Places of Power's are documented, by their own parameters
    assert "/rulesets/skirmish/odds" not in doc["paths"]
    odds = doc["paths"]["/rulesets/places-of-power/odds"]["get"]
    assert odds["operationId"] == "getCheckOdds"
    assert [(p["name"], p["required"]) for p in odds["parameters"]] == [
        ("attribute_die", True), ("skill_die", True), ("difficulty", False), ("occupation", False),
        ("advantage", False), ("disadvantage", False)]
    assert odds["parameters"][0]["schema"] == {"type": "string", "enum": ["D4", "D6", "D8", "D10", "D12"]}
    assert _name(odds["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]) == "PlacesOfPower.Odds"


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(database_url, settings(), registry()) as c:
        yield c


async def _encounter(client: httpx.AsyncClient, ruleset: str) -> tuple[str, dict[str, str]]:
    r = await client.post("/encounters", json={"ruleset": ruleset, "name": "Ford"})
    assert r.status_code == 201, r.text
    return r.json()["encounter_id"], {"Authorization": f"Bearer {r.json()['gm_token']['token']}"}


async def _join(client: httpx.AsyncClient, enc: str, gm: dict[str, str], name: str) -> str:
    r = await client.post(f"/encounters/{enc}/combatants", headers=gm,
                          json={"name": name, "side": name, "controller": "gm"})
    assert r.status_code == 201, r.text
    return r.json()["events"][0]["data"]["combatant_id"]


async def test_each_encounters_commands_are_decoded_by_its_own_ruleset(client: httpx.AsyncClient) -> None:
    enc, gm = await _encounter(client, SKIRMISH)
    ada, bo = await _join(client, enc, gm, "Ada"), await _join(client, enc, gm, "Bo")
    url = f"/encounters/{enc}/commands"
    r = await client.post(url, headers=gm, json={"type": "Attack", "attacker": ada, "target": bo})
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["type"] == "AttackDeclared"
    assert r.json()["events"][0]["data"] == {"type": "AttackDeclared", "attacker": ada, "target": bo, "strength": 1}
    r = await client.post(url, headers=gm, json={"type": "Defend", "defender": bo})
    assert (r.status_code, r.json()["events"][0]["type"]) == (200, "Braced")
    # Places of Power's Attack is not Skirmish's: refused in Skirmish's words
    r = await client.post(url, headers=gm, json={"type": "Attack", "combatant_id": ada, "target": bo,
                                                  "attack": "melee", "band": "Melee"})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_command"), r.text
    assert r.json()["details"]["command"] == "Attack"
    r = await client.post(url, headers=gm, json={"type": "Atack", "attacker": ada, "target": bo})
    assert r.json()["details"]["suggestion"] == "Attack", r.text
    r = await client.post(url, headers=gm, json={"type": "TakeAction", "combatant_id": ada, "action": "Dash"})
    assert r.json()["detail"].startswith("Skirmish has no command `TakeAction`"), r.text
    # its own refusal, with its own code
    r = await client.post(url, headers=gm, json={"type": "Attack", "attacker": ada, "target": ada})
    assert (r.status_code, r.json()["code"]) == (422, "attack_self"), r.text

    # a Places of Power encounter on the same server decodes Places of Power's Attack
    enc, gm = await _encounter(client, POP)
    mira = await _join(client, enc, gm, "Mira")
    r = await client.post(f"/encounters/{enc}/commands", headers=gm,
                          json={"type": "Attack", "attacker": mira, "target": mira})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_command"), r.text
    assert r.json()["details"]["field"] == "attacker"  # Skirmish's field, not one of Places of Power's Attack
    r = await client.post(f"/encounters/{enc}/commands", headers=gm, json={"type": "TakeActoin"})
    assert r.json()["details"]["suggestion"] == "TakeAction", r.text


async def test_each_ruleset_lists_its_own_codes_and_odds(client: httpx.AsyncClient) -> None:
    """``GET /rulesets/{id}`` lists that ruleset's codes: the lifecycle's and its own."""
    skirmish = (await client.get(f"/rulesets/{SKIRMISH}")).json()
    assert skirmish["violation_codes"] == {**CODES, "attack_self": "A combatant cannot attack themselves."}
    assert [c["type"] for c in skirmish["commands"]][-2:] == ["Attack", "Defend"]
    pop = (await client.get(f"/rulesets/{POP}")).json()
    assert "attack_self" not in pop["violation_codes"] and "no_helmet" in pop["violation_codes"]
    assert "no_helmet" not in skirmish["violation_codes"]
    assert set(CODES) <= set(pop["violation_codes"])

    r = await client.get(f"/rulesets/{SKIRMISH}/odds", params={"attribute_die": "D8", "skill_die": "D6"})
    assert (r.status_code, r.json()["code"]) == (404, "no_odds"), r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["detail"] == "Skirmish has no odds to count."
    r = await client.get("/rulesets/nowhere/odds")
    assert (r.status_code, r.json()["code"]) == (404, "ruleset_not_found"), r.text
    r = await client.get(f"/rulesets/{POP}/odds", params={"attribute_die": "D8", "skill_die": "D6"})
    assert r.status_code == 200 and r.json()["dice"] == ["D8", "D6"], r.text
