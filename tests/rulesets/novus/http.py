"""Kael (a player's) and an Orc (the GM's) in a Novus encounter through the server, with reported dice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.integration.fight import command

Send = Callable[..., Awaitable[dict[str, Any]]]


async def kael_and_orc(client: Any, name: str, kael: dict[str, Any], orc: dict[str, Any]) -> tuple[str, Send]:
    """Open the encounter (the client then carries the GM's token), add both, and give the GM's command sender."""
    r = await client.post("/encounters", json={"ruleset": "novus", "name": name, "dice_policy": "reported"})
    assert r.status_code == 201, r.text
    enc = r.json()["encounter_id"]
    client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"

    async def gm(body: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return await command(client, enc, body, expect=expect)

    for cid, controller, sheet in (("kael", "player", kael), ("orc", "gm", orc)):
        await gm({"type": "AddCombatant", "combatant_id": cid, "name": cid.title(), "controller": controller,
                  "side": "party" if controller == "player" else "enemies", "sheet": sheet})
    return enc, gm
