"""A command whose decision records no event is refused with a 4xx saying why, never a 500
(issue 37: ``rows[-1]`` of an empty list answered 500). Core refuses it for every command of
every ruleset (``Ruleset.decide_as``, the way the server decides): here a ruleset that decides
nothing for one of its commands, through the server against PostgreSQL."""

from __future__ import annotations

from typing import Any

from domain.core.encounter import Command, EncounterState
from domain.core.errors import RuleViolation
from domain.core.ruleset import Registry
from domain.places_of_power.ruleset import PlacesOfPower
from tests.integration.app_client import app_client
from tests.rulesets.door.ruleset import CancelDeclared, Door


class IdleDoor(Door):
    """Hold the Door, but cancelling a declaration decides nothing at all."""

    id = "idle-door"

    def decide_action(self, state: EncounterState, command: Command, dice: Any) -> list[Any]:
        if isinstance(command, CancelDeclared):
            return []
        return super().decide_action(state, command, dice)


def test_decide_as_refuses_a_command_that_records_nothing() -> None:
    door = IdleDoor()
    opened = door.open("e1", "At the door", "seeded", "0" * 64)
    state = door.replay(opened)
    try:
        door.decide_as(frozenset(), state, CancelDeclared(combatant_id="hero"), None)  # type: ignore[arg-type]
    except RuleViolation as refused:
        assert refused.code == "nothing_changes"
        assert "would change nothing" in refused.message
    else:
        raise AssertionError("a command that records nothing was taken")


async def test_the_server_answers_422_not_500(database_url: str) -> None:
    async with app_client(database_url, registry=Registry([PlacesOfPower(), IdleDoor()])) as client:
        r = await client.post("/encounters", json={"ruleset": "idle-door", "name": "At the door"})
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        before = (await client.get(f"/encounters/{enc}")).json()["version"]
        r = await client.post(f"/encounters/{enc}/commands", json={"type": "DoorCancel", "combatant_id": "hero"})
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "nothing_changes"
        assert (await client.get(f"/encounters/{enc}")).json()["version"] == before  # nothing appended
