"""Status Effects through HTTP, against the real server and PostgreSQL, with reported dice:
the GM applies them, a player settles a Bleeding with their own token before anything else
on their turn (the refusal is a problem with the code ``status_due``), another player
stabilises it, and only the GM may apply or remove one. Every test ends by replaying the
stored events and comparing the result with what the server serves the GM.

Rules quoted are from ../shared/rules/places-of-power-combat.txt. Mira and Kess are players
(each with their own token), the Bandit is the GM's NPC; initiative 12, 11 and the GM's 1:
Mira, Kess, then the Bandit.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
import pytest

from domain.rulesets import default_registry
from tests.integration.fight import command, mint, open_encounter, seat_party

RULESET = default_registry().get("places-of-power")
PROBLEM = "application/problem+json"

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
# Mira: Dexterity D8 + Medical D6 to stabilise; Kess: Stamina D6 + Medical D8 for her bleeding.
MIRA = {"attributes": {"strength": "D10", "dexterity": "D8", "stamina": "D8"},
        "skills": {"Knife": "D8", "Medical": "D6"}, "weapons": [KNIFE]}
KESS = {"attributes": {"strength": "D8", "stamina": "D6", "dexterity": "D8"},
        "skills": {"Medical": "D8", "Knife": "D6"}, "weapons": [KNIFE]}
BANDIT = {"attributes": {"strength": "D8", "agility": "D6"}, "skills": {"Knife": "D8", "Athletics": "D6"},
          "weapons": [KNIFE]}


class Table:
    """A reported-dice encounter, round 1 begun, Mira's turn; ``client`` speaks as the GM."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.enc = ""
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, dict[str, str]] = {}

    async def open(self) -> Table:
        self.enc = await open_encounter(self.client, dice_policy="reported")
        self.ids, self.tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", MIRA), "Kess": ("player", KESS), "Bandit": ("gm", BANDIT)})
        self.tokens["spectator"] = await mint(self.client, self.enc, "spectator")
        await self.send(None, "RollInitiative", [12, 11, 1])
        await self.send(None, "StartEncounter")
        return self

    def id(self, who: str) -> str:
        return self.ids[who]

    async def post(self, who: str | None, kind: str, faces: list[int] | None = None, **fields: Any) -> Any:
        """The raw response to a command, as the GM (``who`` None) or with a token."""
        body: dict[str, Any] = {"type": kind, **fields}
        if faces is not None:
            body["dice"] = faces
        return await self.client.post(f"/encounters/{self.enc}/commands", json=body,
                                      headers=self.tokens[who] if who is not None else None)

    async def send(self, who: str | None, kind: str, faces: list[int] | None = None, *, expect: int = 200,
                   **fields: Any) -> Any:
        body: dict[str, Any] = {"type": kind, **fields}
        if faces is not None:
            body["dice"] = faces
        headers = self.tokens[who] if who is not None else {}
        return await command(self.client, self.enc, body, expect=expect, **headers)

    async def state(self, who: str | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}", headers=self.tokens[who] if who else None)
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def statuses(self, who: str, viewer: str | None = None) -> dict[str, dict[str, Any]]:
        sheet = (await self.state(viewer))["combatants"][self.id(who)]["sheet"] or {}
        return {s["name"]: s for s in sheet.get("statuses", [])}


def events(out: Any) -> list[dict[str, Any]]:
    return [{"type": e["type"], **e["data"]} for e in out["events"]]


def problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = dict(r.json())
    assert (body["status"], body["code"]) == (status, code), body
    return body


async def assert_replays(t: Table, conn: Any) -> dict[str, Any]:
    """Every stored event, decoded and replayed, gives the state the server serves the GM."""
    rows = await conn.fetch(
        "SELECT type, schema_version, data::text AS data FROM events WHERE encounter_id = $1 ORDER BY version",
        uuid.UUID(t.enc),
    )
    replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
    served = await t.state()
    assert replayed.version == len(rows) == served["version"]
    assert msgspec.to_builtins(RULESET.shown(replayed)) == served  # as shown: with the choices
    return served


async def test_a_bleeding_player_settles_it_first_and_another_player_stabilises_it(client: Any, conn: Any) -> None:
    """"When a character becomes Afflicted the GM can inflict an appropriate Status Effect ...
    this is likely to be the effect Bleeding". Bleeding: "At the start of each turn you roll a
    Medical + Stamina check. If you fail then you suffer an addition Hit. Difficulty level for
    the check starts at Easy". "Stabilise (3 AP): Remove a Status Effect manually using a
    Medical Check." "Another player, or friendly NPC, will need to do this for them\""""
    t = await Table(client).open()
    kess = t.id("Kess")
    applied = events(await t.send(None, "ApplyStatus", combatant_id=kess, status="Bleeding",
                                  reason="a knife across the ribs"))
    assert [e["type"] for e in applied] == ["StatusApplied"]
    bleeding = (await t.statuses("Kess"))["Bleeding"]
    assert (bleeding["lasts"], bleeding["due"], bleeding["reason"]) == ("until_removed", False,
                                                                       "a knife across the ribs")
    assert (await t.statuses("Kess", viewer="Kess"))["Bleeding"]["due"] is False  # she sees it too

    await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"))
    assert (await t.state())["turn"] == kess
    assert (await t.statuses("Kess", viewer="Kess"))["Bleeding"]["due"] is True

    version = (await t.state())["version"]
    for kind, fields in (("TakeAction", {"action": "TakeCover"}), ("EndTurn", {}),
                         ("Attack", {"target": t.id("Bandit"), "attack": "LightMelee", "weapon": "Knife",
                                     "band": "Melee", "dice": [5, 4]})):
        body = problem(await t.post("Kess", kind, combatant_id=kess, **fields), 422, "status_due")
        assert "Bleeding" in body["detail"]
    assert (await t.state())["version"] == version  # a refusal changes nothing

    # Kess settles it with her own token: Stamina D6 then Medical D8, 4 + 3 = 7 holds at Easy.
    rolled = events(await t.send("Kess", "ResolveStatus", [4, 3], combatant_id=kess, status="Bleeding"))
    (check,) = [e for e in rolled if e["type"] == "StatusRolled"]
    assert [d["sides"] for d in check["dice"]] == [6, 8]
    assert (check["difficulty"], check["hits"]) == ("Easy", 0)
    assert (await t.statuses("Kess"))["Bleeding"]["due"] is False
    await t.send("Kess", "TakeAction", combatant_id=kess, action="TakeCover")
    await t.send("Kess", "EndTurn", combatant_id=kess)
    await t.send(None, "EndTurn", combatant_id=t.id("Bandit"))

    # Round 2, Mira's turn: Kess cannot stabilise through Mira; Mira can (Dexterity D8 +
    # Medical D6, Easy for Kess's 0 Hits).
    state = await t.state()
    assert (state["round"], state["turn"]) == (2, t.id("Mira"))
    refused = await t.post("Kess", "Stabilise", [4, 3], combatant_id=t.id("Mira"), target=kess, status="Bleeding")
    problem(refused, 403, "not_your_combatant")
    ap = state["combatants"][t.id("Mira")]["action_points"]
    out = events(await t.send("Mira", "Stabilise", [4, 3], combatant_id=t.id("Mira"), target=kess,
                              status="Bleeding"))
    (stabilised,) = [e for e in out if e["type"] == "StatusRolled"]
    assert (stabilised["check"], stabilised["removed"], stabilised["healer"]) == ("Stabilise", True, t.id("Mira"))
    assert await t.statuses("Kess") == {}
    assert (await t.state())["combatants"][t.id("Mira")]["action_points"] == ap - 3
    await assert_replays(t, conn)


async def test_only_the_gm_applies_or_removes_a_status(client: Any, conn: Any) -> None:
    """"the GM can inflict an appropriate Status Effect": a player's token (even for their own
    combatant) is refused with 403 gm_only, a spectator's with 403 read_only_token; nothing
    changes. The GM's removal works."""
    t = await Table(client).open()
    mira = t.id("Mira")
    before = await t.state()
    for who, code in (("Mira", "gm_only"), ("Kess", "gm_only"), ("spectator", "read_only_token")):
        problem(await t.post(who, "ApplyStatus", combatant_id=mira, status="Blinded"), 403, code)
    await t.send(None, "ApplyStatus", combatant_id=t.id("Bandit"), status="Exposed", lasts="end_of_round")
    for who, code in (("Mira", "gm_only"), ("spectator", "read_only_token")):
        problem(await t.post(who, "RemoveStatus", combatant_id=t.id("Bandit"), status="Exposed"), 403, code)
    assert (await t.state())["version"] == before["version"] + 1
    await t.send(None, "RemoveStatus", combatant_id=t.id("Bandit"), status="Exposed")
    assert await t.statuses("Bandit") == {}
    await assert_replays(t, conn)


async def test_the_state_shows_each_status_with_its_duration(client: Any, conn: Any) -> None:
    """"These conditions will last either until the end of the round, a set number of turns,
    or until actively removed": GET state shows each with how it lasts, counting down."""
    t = await Table(client).open()
    mira, kess, bandit = t.id("Mira"), t.id("Kess"), t.id("Bandit")
    await t.send(None, "ApplyStatus", combatant_id=mira, status="Blinded", lasts="turns", turns=2)
    await t.send(None, "ApplyStatus", combatant_id=kess, status="Frightened", source=bandit)
    await t.send(None, "ApplyStatus", combatant_id=kess, status="Entangled", difficulty="Difficult")
    await t.send(None, "ApplyStatus", combatant_id=bandit, status="Exposed", lasts="end_of_round")
    blinded = (await t.statuses("Mira"))["Blinded"]
    assert (blinded["lasts"], blinded["turns"]) == ("turns", 2)
    shown = await t.statuses("Kess")
    assert shown["Frightened"]["source"] == bandit and shown["Entangled"]["difficulty"] == "Difficult"
    assert (await t.statuses("Bandit"))["Exposed"]["round"] == 1
    # refusals are problems too: the same status twice, a detail missing
    problem(await t.post(None, "ApplyStatus", combatant_id=mira, status="Blinded"), 422, "status_present")
    problem(await t.post(None, "ApplyStatus", combatant_id=mira, status="Frightened"), 422, "missing_detail")
    problem(await t.post(None, "RemoveStatus", combatant_id=mira, status="Burning"), 422, "no_status")

    await t.send("Mira", "EndTurn", combatant_id=mira)
    assert (await t.statuses("Mira"))["Blinded"]["turns"] == 1
    await t.send("Kess", "EndTurn", combatant_id=kess)
    await t.send(None, "EndTurn", combatant_id=bandit)
    assert "Exposed" not in await t.statuses("Bandit")  # round 2 began
    await t.send("Mira", "EndTurn", combatant_id=mira)
    assert "Blinded" not in await t.statuses("Mira")
    assert set(await t.statuses("Kess")) == {"Frightened", "Entangled"}
    await assert_replays(t, conn)


async def test_the_gm_settles_a_burning_for_a_player(client: Any, conn: Any) -> None:
    """Burning: "At the start of each turn you suffer an addition Hit of damage": settled by
    the bearer's player or, for a player who is away, the GM; the other player cannot."""
    t = await Table(client).open()
    mira = t.id("Mira")
    await t.send("Mira", "EndTurn", combatant_id=mira)
    await t.send(None, "ApplyStatus", combatant_id=mira, status="Burning")
    await t.send("Kess", "EndTurn", combatant_id=t.id("Kess"))
    await t.send(None, "EndTurn", combatant_id=t.id("Bandit"))
    problem(await t.post("Mira", "EndTurn", combatant_id=mira), 422, "status_due")
    problem(await t.post("Kess", "ResolveStatus", combatant_id=mira, status="Burning"), 403, "not_your_combatant")
    out = events(await t.send(None, "ResolveStatus", combatant_id=mira, status="Burning"))
    (burnt,) = [e for e in out if e["type"] == "StatusRolled"]
    assert (burnt["hits"], burnt["hits_after"]) == (1, 1)
    sheet = (await t.state())["combatants"][mira]["sheet"]
    assert sheet["hits"] == 1
    await t.send("Mira", "EndTurn", combatant_id=mira)
    await assert_replays(t, conn)


async def test_players_see_an_npcs_status_effects_in_the_state(client: Any) -> None:
    """Exposed: "All attacks made against you are performed at Advantage OR gain an extra Hit
    of Base damage" - the attacker's pick, so the player must be able to see that the Bandit
    is Exposed; the events they read already say so."""
    t = await Table(client).open()
    bandit = t.id("Bandit")
    await t.send(None, "ApplyStatus", combatant_id=bandit, status="Exposed")
    r = await client.get(f"/encounters/{t.enc}/events", headers=t.tokens["Mira"])
    assert r.status_code == 200, r.text
    body = r.json()
    listed = body["events"] if isinstance(body, dict) else body
    assert any(e["type"] == "StatusApplied" and e["data"]["combatant_id"] == bandit for e in listed)
    for viewer in ("Mira", "spectator"):
        assert "Exposed" in await t.statuses("Bandit", viewer=viewer), viewer
