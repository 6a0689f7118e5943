"""History through HTTP against PostgreSQL (issue 7, "History and time travel"): the event
history's paging parameters, the state at any version, the readable log, and the GM's
retcons.

"`GET /encounters/{id}/state?at=N`: the state as it was after event N, derived by
replaying, for any N." "`GET /encounters/{id}/log`: a readable log, one sentence per event
in the game's words ..., filtered for the caller; also as plain text." "Corrections: the
GM can retcon (undo the last command, or any later part of a round) by appending
compensating events; nothing is ever deleted, the log shows the retcon, and time travel
shows both the mistake and the fix."
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
import pytest

from domain.rulesets import default_registry
from tests.integration.fight import command, mint, open_encounter, seat_party, started_fight
from tests.rulesets.places_of_power.test_attack_exchange_api import BANDIT, KESS, MIRA, PLAYERS_FIRST, Table

RULESET = default_registry().get("places-of-power")


def problem(r: Any, status: int, code: str) -> dict[str, Any]:
    """A refusal: a response, or the body ``command`` already checked the status of."""
    if not isinstance(r, dict):
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    body = r if isinstance(r, dict) else r.json()
    assert (body["status"], body["code"]) == (status, code), body
    return dict(body)


async def stored_versions(conn: Any, enc: str) -> list[int]:
    rows = await conn.fetch("SELECT version FROM events WHERE encounter_id = $1 ORDER BY version", uuid.UUID(enc))
    return [r["version"] for r in rows]


async def replayed(conn: Any, enc: str) -> dict[str, Any]:
    rows = await conn.fetch(
        "SELECT type, schema_version, data::text AS data FROM events WHERE encounter_id = $1 ORDER BY version",
        uuid.UUID(enc))
    return dict(msgspec.to_builtins(RULESET.shown(RULESET.replay(
        [RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows]))))


# --------------------------------------------------------------------- the event history


@pytest.mark.parametrize("query", [
    "after=-1", "after=99999999999999999999999999", "after=seven", "after=1.5",
    "limit=0", "limit=-3", "limit=1001", "limit=99999999999999999999", "limit=",
])
async def test_bad_paging_is_a_clean_400(client: Any, query: str) -> None:
    """"`GET /encounters/{id}/events?after=N&limit=M`: the event history, paged": a negative,
    enormous or malformed ``after`` or ``limit`` is a problem with a code, never a 500."""
    enc = await open_encounter(client)
    problem(await client.get(f"/encounters/{enc}/events?{query}"), 400, "invalid_parameter")


async def test_paging_past_the_end_is_an_empty_page(client: Any) -> None:
    enc, _, _ = await started_fight(client)
    page = (await client.get(f"/encounters/{enc}/events", params={"after": 2_147_483_647})).json()
    assert page == {"events": [], "next_after": 2_147_483_647, "has_more": False}
    page = (await client.get(f"/encounters/{enc}/events", params={"after": 4, "limit": 1})).json()
    assert [e["version"] for e in page["events"]] == [5] and page["has_more"] and page["next_after"] == 5


# ----------------------------------------------------------------------------- time travel


async def test_the_state_at_every_version_is_the_state_that_version_was_answered_with(client: Any) -> None:
    """"the state as it was after event N, derived by replaying, for any N": every command's
    reply carries the state after its last event; the state at that version, asked for later,
    is the same. ``/state`` without ``at`` is the current state, with its ETag."""
    enc = await open_encounter(client, dice_policy="mixed")
    answered: dict[int, Any] = {}
    ids, _ = await seat_party(client, enc, {"Mira": ("player", MIRA), "Kess": ("player", KESS),
                                            "Bandit": ("gm", BANDIT)})
    for body in [{"type": "RollInitiative", "dice": PLAYERS_FIRST}, {"type": "StartEncounter"},
                 {"type": "TakeAction", "combatant_id": ids["Mira"], "action": "TakeCover"},
                 {"type": "Attack", "combatant_id": ids["Mira"], "target": ids["Bandit"], "attack": "LightMelee",
                  "weapon": "Knife", "band": "Melee"},
                 {"type": "EndTurn", "combatant_id": ids["Kess"], "expect": 422}]:
        expect = body.pop("expect", 200)
        out = await command(client, enc, body, expect=expect)
        if expect == 200:
            answered[out["version"]] = out["state"]
    current = (await client.get(f"/encounters/{enc}")).json()
    for version, state in answered.items():
        r = await client.get(f"/encounters/{enc}/state", params={"at": version})
        assert r.status_code == 200, r.text
        assert r.json() == state and r.json()["version"] == version
    for version in range(1, current["version"] + 1):  # every version, mid-command ones too
        r = await client.get(f"/encounters/{enc}/state", params={"at": version})
        assert r.status_code == 200 and r.json()["version"] == version
    assert (await client.get(f"/encounters/{enc}/state", params={"at": 1})).json()["combatants"] == {}
    r = await client.get(f"/encounters/{enc}/state")
    assert r.json() == current and r.headers["etag"] == f'"{current["version"]}"'
    assert (await client.get(f"/encounters/{enc}/state", params={"at": current["version"]})).json() == current


@pytest.mark.parametrize(("at", "status", "code"), [
    ("0", 400, "invalid_parameter"), ("-1", 400, "invalid_parameter"), ("two", 400, "invalid_parameter"),
    ("99999999999999999999", 400, "invalid_parameter"), ("7", 404, "version_not_found"),
    ("2147483647", 404, "version_not_found"),
])
async def test_a_version_that_never_was_is_a_problem(client: Any, at: str, status: int, code: str) -> None:
    """"0 < N <= current version; beyond it or below 1: a 4xx problem with a code"."""
    enc, _, _ = await started_fight(client)  # version 6
    body = problem(await client.get(f"/encounters/{enc}/state?at={at}"), status, code)
    if code == "version_not_found":
        assert body["details"] == {"current_version": 6}


async def test_time_travel_on_another_server_process_sees_the_same_history(two_clients: Any) -> None:
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})
    seen = (await b.get(f"/encounters/{enc}/state", params={"at": 7})).json()
    assert seen == (await a.get(f"/encounters/{enc}")).json()


# ------------------------------------------------------------------------------ the log


async def test_the_log_tells_an_exchange_in_the_games_words(client: Any) -> None:
    """"a readable log, one sentence per event in the game's words ... also as plain text".
    The knife example of the rules: 16 against Normal, two extra Successes."""
    t = await Table(client).open(PLAYERS_FIRST)
    declared, _ = await t.attack("Mira", "Bandit", [10, 6], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack, split=["Damage", "Precision"])
    await t.defend("Bandit", attack, "Evade", [5, 6])
    await t.defend("Bandit", attack, "TakeIt")
    await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"))

    r = await client.get(f"/encounters/{t.enc}/log")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    log = r.json()
    version = (await t.state())["version"]
    assert log["version"] == version and log["encounter_id"] == t.enc
    entries = log["entries"]
    told = [v for e in entries for v in e["versions"]]
    assert told == list(range(1, version + 1))  # every event told once, in order
    said = [e["sentence"] for e in entries]
    assert said[:4] == [
        "The encounter “Ambush at the ford” opens: Places of Power, dice reported by the table.",
        "Mira joins the fight on the party side.",
        "Kess joins the fight on the party side.",
        "The Bandit joins the fight on the enemies side.",
    ]
    assert said[4] == ("Initiative: Mira 12 + 0 = 12, Kess 11 + 0 = 11 and the GM for the NPCs 1 + 0 = 1. "
                       "The order of play: Mira, Kess and the Bandit.")
    assert said[5:7] == ["The fight begins.", "Round 1. Action Points: Mira 3, Kess 3 and the Bandit 3."]
    assert said[7] == ("Mira attacks the Bandit: a light attack with the Knife at Melee range (1 AP). "
                       "16 against Normal: a Full Success, two extra Successes.")
    assert said[8] == ("Mira puts one extra Success on Damage and one on Precision: 3 Hits of damage, "
                       "defended at Difficult.")
    assert said[9] == "The Bandit evades (1 AP): 11 against Difficult, fails."
    assert said[10] == "The Bandit takes 3 Hits, suffers an Injury and is Afflicted."
    assert said[11] == "Mira ends the turn."
    assert [e["round"] for e in entries][6:] == [1] * (len(entries) - 6)
    assert all(not e["undone"] for e in entries)

    text = await client.get(f"/encounters/{t.enc}/log", headers={"Accept": "text/plain"})
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    lines = text.text.splitlines()
    assert len(lines) == len(entries)
    assert lines[7].split(None, 1) == [f"{entries[7]['versions'][0]}-{entries[7]['versions'][-1]}", said[7]]
    assert (await client.get(f"/encounters/{t.enc}/log?format=text")).text == text.text
    assert (await client.get(f"/encounters/{t.enc}/log?format=json",
                             headers={"Accept": "text/plain"})).json() == log
    problem(await client.get(f"/encounters/{t.enc}/log?format=xml"), 400, "invalid_parameter")


async def test_the_log_is_filtered_for_the_caller(client: Any) -> None:
    """A hidden NPC's doings are "Something happened out of sight." for a player, and its
    name is nowhere; the GM reads them whole."""
    enc, mira, bandit = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True})
    assert r.status_code == 201
    player = await mint(client, enc, "player", [mira])
    gm_log = (await client.get(f"/encounters/{enc}/log")).json()["entries"]
    seen = (await client.get(f"/encounters/{enc}/log", headers=player)).json()["entries"]
    assert [e["versions"] for e in seen] == [e["versions"] for e in gm_log]
    assert gm_log[-1]["sentence"] == ("The Lurking Assassin joins the fight on the enemies side, hidden from the "
                                      "players, with 3 Action Points.")  # an NPC joining mid-fight
    assert seen[-1]["sentence"] == "Something happened out of sight."
    text = (await client.get(f"/encounters/{enc}/log?format=text", headers=player)).text
    assert "Lurking" not in text and "Assassin" not in text


# --------------------------------------------------------------------------------- retcons


class Mixed:
    """Mira and Kess (players), the Bandit (NPC): initiative reported (Mira, Kess, the
    Bandit), every later die seeded. ``client`` speaks as the GM."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def open(self) -> Mixed:
        self.enc = await open_encounter(self.client, dice_policy="mixed")
        self.ids, self.tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", MIRA), "Kess": ("player", KESS), "Bandit": ("gm", BANDIT)})
        await self.send({"type": "RollInitiative", "dice": PLAYERS_FIRST})
        await self.send({"type": "StartEncounter"})
        return self

    async def send(self, body: dict[str, Any], *, expect: int = 200, **headers: str) -> Any:
        return await command(self.client, self.enc, body, expect=expect, **headers)

    async def retcon(self, to: int, reason: str = "", *, expect: int = 200) -> Any:
        return await self.send({"type": "Retcon", "to_version": to, "reason": reason}, expect=expect)

    def attack(self, target: str) -> dict[str, Any]:
        return {"type": "Attack", "combatant_id": self.ids["Mira"], "target": self.ids[target],
                "attack": "LightMelee", "weapon": "Knife", "band": "Melee"}

    async def at(self, version: int, **headers: str) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}/state", params={"at": version}, headers=headers or None)
        assert r.status_code == 200, r.text
        return dict(r.json())


async def test_a_retcon_fixes_a_wrong_target_with_the_same_dice(client: Any, conn: Any) -> None:
    """"the GM can retcon ... by appending compensating events; nothing is ever deleted, the
    log shows the retcon, and time travel shows both the mistake and the fix." Seeded dice go
    back with the story: the attack sent again rolls the same faces (a retcon is no re-roll)."""
    m = await Mixed(client).open()
    before = (await client.get(f"/encounters/{m.enc}")).json()
    v0 = before["version"]
    wrong = await m.send(m.attack("Kess"))  # the mistake: Mira meant the Bandit
    mistake = wrong["version"]
    faces = [d["face"] for d in wrong["events"][1]["data"]["dice"]]
    indices = [d["index"] for d in wrong["events"][1]["data"]["dice"]]
    assert wrong["state"]["combatants"][m.ids["Mira"]]["action_points"] == 2

    undone = await m.retcon(v0, "wrong target")
    (event,) = undone["events"]
    assert event["type"] == "Retconned"
    assert event["data"] == {"type": "Retconned", "to_version": v0, "undone_from": v0 + 1, "undone_to": mistake,
                             "reason": "wrong target"}
    assert undone["version"] == mistake + 1
    after = undone["state"]
    assert after == {**before, "version": mistake + 1}  # the state at v0, its version going on
    assert (await client.get(f"/encounters/{m.enc}")).json() == after

    fixed = await m.send(m.attack("Bandit"))
    assert [d["face"] for d in fixed["events"][1]["data"]["dice"]] == faces
    assert [d["index"] for d in fixed["events"][1]["data"]["dice"]] == indices
    assert fixed["events"][0]["data"]["defender"] == m.ids["Bandit"]

    # nothing is deleted: every version is stored; time travel shows the mistake and the fix
    assert await stored_versions(conn, m.enc) == list(range(1, fixed["version"] + 1))
    # (right after each AttackDeclared the exchange is open, whatever the dice then did)
    assert (await m.at(v0 + 1))["rules"]["exchange"]["defender"] == m.ids["Kess"]
    assert (await m.at(mistake))["combatants"][m.ids["Mira"]]["action_points"] == 2
    assert (await m.at(mistake + 1)) == after
    assert (await m.at(mistake + 2))["rules"]["exchange"]["defender"] == m.ids["Bandit"]
    assert (await m.at(fixed["version"])) == fixed["state"]
    assert await replayed(conn, m.enc) == (await client.get(f"/encounters/{m.enc}")).json()

    entries = (await client.get(f"/encounters/{m.enc}/log")).json()["entries"]
    by_version = {e["versions"][0]: e for e in entries}
    assert by_version[v0 + 1]["undone"] is True
    assert by_version[v0 + 1]["sentence"].startswith("Mira attacks Kess: ")
    assert by_version[mistake + 1]["sentence"] == f"The GM undid events {v0 + 1}-{mistake}: wrong target."
    assert by_version[mistake + 1]["undone"] is False
    assert by_version[mistake + 2]["sentence"].startswith("Mira attacks the Bandit: ")
    text = (await client.get(f"/encounters/{m.enc}/log?format=text")).text
    assert "(undone) Mira attacks Kess" in text


async def test_a_retcon_reaches_back_to_the_rounds_start_or_the_last_command(client: Any) -> None:
    """Our reading of "undo the last command, or any later part of a round": back to any
    version a command ended at from the start of the current round, or to just before the
    last command whatever the round; never into a command's middle, never before the fight
    began, never to a version already undone."""
    m = await Mixed(client).open()  # version 7: StartEncounter recorded 6 (started) and 7 (round 1)
    mira, kess = m.ids["Mira"], m.ids["Kess"]
    await m.send({"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})  # 8
    await m.send({"type": "EndTurn", "combatant_id": mira})  # 9
    await m.send({"type": "EndTurn", "combatant_id": kess})  # 10
    last = await m.send({"type": "EndTurn", "combatant_id": m.ids["Bandit"]})  # 11 TurnEnded, 12 round 2
    assert last["version"] == 12 and last["state"]["round"] == 2
    await m.send({"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})  # 13

    problem(await m.retcon(13, expect=422), 422, "retcon_nothing_to_undo")
    problem(await m.retcon(40, expect=422), 422, "retcon_nothing_to_undo")
    problem(await m.retcon(0, expect=422), 422, "retcon_out_of_reach")
    problem(await m.retcon(10, expect=422), 422, "retcon_out_of_reach")  # round 1, and not the last command
    problem(await m.retcon(11, expect=422), 422, "retcon_mid_command")
    problem(await m.retcon(6, expect=422), 422, "retcon_mid_command")
    problem(await m.retcon(5, expect=422), 422, "retcon_before_start")
    out = await m.retcon(12, "cover was taken already")  # the start of round 2: undoes 13
    assert out["events"][0]["data"]["undone_from"] == 13 and out["version"] == 14
    # now the last command in effect is the Bandit's EndTurn (11-12): back to 10, in round 1
    problem(await m.retcon(13, expect=422), 422, "retcon_undone")
    problem(await m.retcon(9, expect=422), 422, "retcon_out_of_reach")
    back = await m.retcon(10, "the Bandit is not done")
    assert back["state"]["round"] == 1 and back["state"]["turn"] == m.ids["Bandit"]
    assert back["state"] == {**(await m.at(10)), "version": 15}
    # and the GM alone may retcon
    problem(await m.send({"type": "Retcon", "to_version": 10}, expect=403, **m.tokens["Mira"]), 403, "gm_only")


async def test_a_retcon_after_the_fight_ended_reaches_back_no_further_than_its_end(client: Any) -> None:
    m = await Mixed(client).open()
    ended = await m.send({"type": "EndEncounter"})
    assert ended["state"]["status"] == "ended"
    body = problem(await m.retcon(7, expect=422), 422, "encounter_ended")
    assert body["details"] == {"earliest_version": 8}


async def test_a_retcon_before_the_fight_undoes_any_command(client: Any) -> None:
    enc = await open_encounter(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={"name": "Mira", "side": "party",
                                                                 "controller": "player"})
    assert r.status_code == 201
    out = await command(client, enc, {"type": "Retcon", "to_version": 1, "reason": "wrong table"})
    assert out["state"]["combatants"] == {} and out["version"] == 3
    entries = (await client.get(f"/encounters/{enc}/log")).json()["entries"]
    assert [e["undone"] for e in entries] == [False, True, False]
    assert entries[-1]["sentence"] == "The GM undid event 2: wrong table."


async def test_a_retcon_on_one_server_process_is_seen_by_another(two_clients: Any) -> None:
    """The other process's cache catches up by replaying: a retcon is not one more fold."""
    a, b = two_clients
    enc, mira, _ = await started_fight(a, b)
    assert (await b.get(f"/encounters/{enc}")).json()["version"] == 6  # b caches the encounter
    await command(a, enc, {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})
    await command(a, enc, {"type": "Retcon", "to_version": 6})
    seen = (await b.get(f"/encounters/{enc}")).json()
    assert seen == {**(await b.get(f"/encounters/{enc}/state", params={"at": 6})).json(), "version": 8}
    again = await command(b, enc, {"type": "TakeAction", "combatant_id": mira, "action": "TakeCover"})
    assert again["version"] == 9
