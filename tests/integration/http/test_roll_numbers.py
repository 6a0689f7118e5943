"""Issue 40, "Dice numbers count what is hidden": a seeded die's ``index`` numbers every roll of
the encounter, the GM's unseen ones too, so a player who saw initiative dice 0, 2 and 3 knew a
hidden combatant was added between. A player or spectator is shown, while the seed is secret, a
``roll`` tag in its place, which tells nothing; once the fight ends and the seed is revealed, the
numbers are shown, and every tag seen before is found again among them (and each face derived)."""

from __future__ import annotations

from typing import Any

from domain.core.dice import roll_number, seeded_face
from tests.integration.fight import command, mint, open_encounter

HT = "health-trauma"


def dice_in(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list):
        return [d for v in value for d in dice_in(v)]
    if isinstance(value, dict):
        if "sides" in value and "face" in value and "source" in value:
            return [value]
        return [d for v in value.values() for d in dice_in(v)]
    return []


async def seat(client: Any, enc: str, name: str, example: dict[str, Any], hidden: bool = False) -> str:
    body = {**example["body"], "name": name, "hidden": hidden}
    r = await client.post(f"/encounters/{enc}/combatants", json=body)
    assert r.status_code == 201, r.text
    return r.json()["events"][0]["data"]["combatant_id"]


async def events(client: Any, enc: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    r = await client.get(f"/encounters/{enc}/events?after=0&limit=1000", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["events"]


async def test_a_player_sees_roll_tags_that_count_nothing_until_the_seed_is_revealed(client) -> None:
    examples = (await client.get(f"/rulesets/{HT}")).json()["examples"]
    pc, npc = (next(e for e in examples if (e["body"]["controller"] == "player") == want) for want in (True, False))
    enc = await open_encounter(client, ruleset=HT)
    mira = await seat(client, enc, "Mira", pc)
    await seat(client, enc, "Lurker", npc, hidden=True)  # rolls its initiative die between Mira's and Kess's
    kess = await seat(client, enc, "Kess", pc)
    player = await mint(client, enc, "player", [mira])
    spectator = await mint(client, enc, "spectator")
    answer = await command(client, enc, {"type": "RollInitiative"})
    await command(client, enc, {"type": "StartEncounter"})

    gm_dice = [d for e in await events(client, enc) for d in dice_in(e["data"])]
    assert [d["index"] for d in gm_dice][:3] == [0, 1, 2]  # the GM sees the numbers: Mira, the Lurker, Kess
    seen: dict[str, list[dict[str, Any]]] = {}
    for who, headers in (("player", player), ("spectator", spectator)):
        dice = [d for e in await events(client, enc, headers) for d in dice_in(e["data"])]
        assert dice and all("index" not in d and isinstance(d.get("roll"), str) for d in dice), dice
        assert len({d["roll"] for d in dice}) == len(dice)  # one tag a roll
        seen[who] = dice
    assert len(seen["player"]) == len(gm_dice) - 1  # the Lurker's die is not among them
    r = await client.get(f"/encounters/{enc}/live", params={"after": 0, "follow": "false"}, headers=player)
    assert r.status_code == 200 and '"roll"' in r.text and '"index"' not in r.text  # the live stream likewise
    r = await client.get(f"/encounters/{enc}", headers=player)
    assert '"index"' not in r.text and kess in r.text  # nor a number in the state
    # the GM's own answer carries numbers; a player's answer does not
    assert all("index" in d for d in dice_in(answer["events"]))

    ended = await command(client, enc, {"type": "EndEncounter"})
    seed = bytes.fromhex(next(e for e in ended["events"] if e["type"] == "EncounterEnded")["data"]["seed"])
    after = [d for e in await events(client, enc, player) for d in dice_in(e["data"])]
    assert all(isinstance(d["index"], int) and "roll" not in d for d in after)  # the seed is out: numbers
    rolls = max(d["index"] for d in gm_dice) + 1
    for before, now in zip(seen["player"], after, strict=True):
        assert roll_number(seed, enc, before["roll"], rolls) == now["index"]  # each tag found again
        assert seeded_face(seed, enc, now["index"], now["sides"]) == now["face"]  # and its face derived
