"""Helpers that drive a fight through the HTTP API."""

from __future__ import annotations

from typing import Any

POP = "places-of-power"


async def open_encounter(client: Any, name: str = "Ambush at the ford", **extra: Any) -> str:
    """Open an encounter; the client then speaks as its GM (its Authorization header is set)."""
    r = await client.post("/encounters", json={"ruleset": POP, "name": name, **extra})
    assert r.status_code == 201, r.text
    client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
    return r.json()["encounter_id"]


async def mint(client: Any, enc: str, role: str = "player", combatant_ids: list[str] | None = None) -> dict[str, str]:
    """A player or spectator token minted by the GM; returns the Authorization header to use it."""
    r = await client.post(f"/encounters/{enc}/tokens", json={"role": role, "combatant_ids": combatant_ids or []})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def add(client: Any, enc: str, name: str, *, controller: str = "player", side: str | None = None,
              modifier: int = 0) -> str:
    side = side or ("party" if controller == "player" else "enemies")
    r = await client.post(
        f"/encounters/{enc}/combatants",
        json={"name": name, "side": side, "controller": controller, "sheet": {"initiative_modifier": modifier}},
    )
    assert r.status_code == 201, r.text
    return r.json()["events"][0]["data"]["combatant_id"]


async def command(client: Any, enc: str, body: dict[str, Any], *, expect: int = 200, **headers: str) -> Any:
    r = await client.post(f"/encounters/{enc}/commands", json=body, headers=headers or None)
    assert r.status_code == expect, r.text
    return r.json()


async def reroll_initiative(client: Any, enc: str, times: int) -> list[int]:
    """RollInitiative ``times`` in a row (always legal once begun: a racing writer's command);
    the version each answer names."""
    versions = []
    for _ in range(times):
        versions.append((await command(client, enc, {"type": "RollInitiative"}))["version"])
    return versions


async def started_fight(client: Any, *others: Any) -> tuple[str, str, str]:
    """An encounter with Mira (player) and a Bandit (NPC), round 1 begun, Mira's turn first.

    Dice are "mixed": initiative uses reported faces (Mira 12 + 2, the GM 1 + 1), so the
    order is known; later rolls are seeded. Six events: version 6.
    """
    enc = await open_encounter(client, dice_policy="mixed")
    mira = await add(client, enc, "Mira", modifier=2)
    bandit = await add(client, enc, "Bandit", controller="gm", modifier=1)
    await command(client, enc, {"type": "RollInitiative", "dice": [12, 1]})
    await command(client, enc, {"type": "StartEncounter"})
    for other in others:  # more clients (other server processes) speaking as the same GM
        other.headers["Authorization"] = client.headers["Authorization"]
    return enc, mira, bandit


async def seat_party(client: Any, enc: str, sheets: dict[str, tuple[str, dict[str, Any]]]
                     ) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Add combatants (name → (controller, sheet)); players get their own tokens.
    Returns (ids by name, player Authorization headers by name)."""
    ids: dict[str, str] = {}
    tokens: dict[str, dict[str, str]] = {}
    for name, (controller, sheet) in sheets.items():
        r = await client.post(f"/encounters/{enc}/combatants", json={
            "name": name, "side": "party" if controller == "player" else "enemies", "controller": controller,
            "sheet": sheet})
        assert r.status_code == 201, r.text
        ids[name] = r.json()["events"][0]["data"]["combatant_id"]
    for name, (controller, _) in sheets.items():
        if controller == "player":
            tokens[name] = await mint(client, enc, "player", [ids[name]])
    return ids, tokens
