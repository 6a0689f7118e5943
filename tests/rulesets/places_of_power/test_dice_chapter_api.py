"""The Places of Power dice chapter (places-of-power-dice.txt) through HTTP, against the real
server and PostgreSQL (issue 4: "Every item above works through `POST
/encounters/{id}/commands` against the real server, both with seeded dice and with
reported dice, and replays identically").

Each rolling test runs twice: in a ``seeded`` encounter (the server rolls; the test checks
each result against the faces it rolled) and in a ``reported`` one (the faces are given
in ``dice`` in the order the command documents, so each result is known). The GM calls
and runs; each player rolls and spends with their own player token. Every test ends by
replaying the stored events (``decode_event`` + ``replay``) and comparing the result with
what ``GET /encounters/{id}`` serves the GM.

Mira's sheet: Strength D6, Stamina D8, Agility D10, Dexterity D12, Intelligence D4,
Perception D6, Empathy D8, Charisma D10; Athletics D4, Brawling D6, Deception D8, Knife
D10, Medical D12, Lore D20; Mere: Rosmere D10, Vermere D8; Willpower 12.
"""

from __future__ import annotations

import uuid
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from domain.core.dice import seeded_face
from domain.rulesets import default_registry
from tests.integration.fight import command, mint, open_encounter, seat_party

RULESET = default_registry().get("places-of-power")
POLICIES = ["seeded", "reported"]
ODDS = "/rulesets/places-of-power/odds"

MIRA = {
    "attributes": {"strength": "D6", "stamina": "D8", "agility": "D10", "dexterity": "D12",
                   "intelligence": "D4", "perception": "D6", "empathy": "D8", "charisma": "D10"},
    "skills": {"Athletics": "D4", "Brawling": "D6", "Deception": "D8", "Knife": "D10", "Medical": "D12",
               "Lore": "D20"},
    "mere_skills": {"Rosmere": "D10", "Vermere": "D8"},
    "willpower": 12, "occupation": "Smuggler", "initiative_modifier": 2, "hero_points": 0,
    "marked_skills": ["Rosmere", "Lore"],
}
KESS = {"attributes": {"strength": "D8"}, "skills": {"Brawling": "D6"}, "willpower": 7,
        "marked_skills": ["Brawling"]}
BANDIT = {"attributes": {"strength": "D8"}, "skills": {"Brawling": "D8"}, "hero_points": 2}
TARGETS = {"Easy": 7, "Normal": 9, "Difficult": 13, "Hard": 16, "Very Hard": 20}

# --------------------------------------------------------------------------- helpers


class Table:
    """An encounter with Mira and Kess (players, each with their own token) and a Bandit (NPC);
    ``client`` speaks as the GM."""

    def __init__(self, client: Any, policy: str) -> None:
        self.client = client
        self.policy = policy
        self.enc = ""
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, dict[str, str]] = {}

    async def open(self) -> Table:
        self.enc = await open_encounter(self.client, dice_policy=self.policy)
        ids, tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", MIRA), "Kess": ("player", KESS), "Bandit": ("gm", BANDIT)})
        self.ids.update(ids)
        self.tokens.update(tokens)
        return self

    def body(self, kind: str, faces: list[int] | None = None, **fields: Any) -> dict[str, Any]:
        """A command; ``faces`` go in ``dice`` only in the reported encounter."""
        body = {"type": kind, **fields}
        if self.policy == "reported" and faces is not None:
            body["dice"] = faces
        return body

    async def gm(self, kind: str, faces: list[int] | None = None, *, expect: int = 200, **fields: Any) -> Any:
        return await command(self.client, self.enc, self.body(kind, faces, **fields), expect=expect)

    async def player(self, who: str, kind: str, faces: list[int] | None = None, *, expect: int = 200,
                     **fields: Any) -> Any:
        return await command(self.client, self.enc, self.body(kind, faces, **fields), expect=expect,
                             **self.tokens[who])

    async def call(self, attribute: str, skill: str, difficulty: str = "Normal", who: str = "Mira",
                   **flags: Any) -> int:
        """The GM calls a check; its id is the version of the event that called it."""
        out = await self.gm("CallForCheck", combatant_id=self.ids[who], attribute=attribute, skill=skill,
                            difficulty=difficulty, **flags)
        (called,) = out["events"]
        assert called["type"] == "CheckCalled" and called["data"]["check"] == called["version"]
        return int(called["data"]["check"])

    async def roll(self, check: int, faces: list[int], who: str = "Mira") -> list[dict[str, Any]]:
        """The player rolls the check with their own token; the events, as ``{type, data}``."""
        out = await self.player(who, "RollCheck", faces, combatant_id=self.ids[who], check=check)
        return [{"type": e["type"], **e["data"]} for e in out["events"]]

    async def check(self, attribute: str, skill: str, difficulty: str, faces: list[int], who: str = "Mira",
                    **flags: Any) -> dict[str, Any]:
        rolled = (await self.roll(await self.call(attribute, skill, difficulty, who, **flags), faces, who))[0]
        assert rolled["type"] == "CheckRolled"
        assert rolled["outcome"] == by_the_text(rolled, difficulty), rolled
        assert {d["source"] for d in rolled["dice"]} == {self.policy}
        return rolled

    async def sheet(self, who: str = "Mira") -> dict[str, Any]:
        state = (await self.client.get(f"/encounters/{self.enc}")).json()
        return dict(state["combatants"][self.ids[who]]["sheet"])

    async def a_plain_failure(self, attribute: str = "intelligence", skill: str = "Athletics") -> int:
        """A check that fails, not critically: Intelligence D4 + Athletics D4 never reaches
        Very Hard; with seeded dice, checks are called until one fails without a pair."""
        for _ in range(60):
            c = await self.call(attribute, skill, "Very Hard")
            (rolled, *_) = await self.roll(c, [1, 2])
            if rolled["outcome"] == "Failure":
                return c
            assert self.policy == "seeded" and rolled["outcome"] == "Critical Failure"
        raise AssertionError("60 checks in a row failed critically")


def faces_of(rolled: dict[str, Any]) -> list[int]:
    return [d["face"] for d in rolled["dice"]]


def sides_of(rolled: dict[str, Any]) -> list[int]:
    return [d["sides"] for d in rolled["dice"]]


def by_the_text(rolled: dict[str, Any], difficulty: str) -> str:
    """The outcome class the rules text gives for the dice as rolled (a re-roll that fails is
    a Critical Failure: "should you fail the re-roll, even if it is just a regular failure,
    it counts as a Critical Failure")."""
    faces, dice = faces_of(rolled), sides_of(rolled)
    target, total = TARGETS[difficulty], sum(faces)
    following = {"Easy": 9, "Normal": 13, "Difficult": 16, "Hard": 20}.get(difficulty)
    pair = len(set(faces)) < len(faces)
    if total < target:
        return "Critical Failure" if pair or rolled.get("reroll") else "Failure"
    if (pair and total > target) or (faces[0] == dice[0] and faces[1] == dice[1]):
        return "Critical Success"
    if following is not None and total >= following:
        return "Full Success"
    return "Partial Success"


async def assert_replays(client: Any, conn: Any, enc: str) -> dict[str, Any]:
    """Every stored event, decoded and replayed, gives the state the server serves the GM."""
    rows = await conn.fetch(
        "SELECT type, schema_version, data::text AS data FROM events WHERE encounter_id = $1 ORDER BY version",
        uuid.UUID(enc),
    )
    replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
    r = await client.get(f"/encounters/{enc}")
    assert r.status_code == 200, r.text
    served = r.json()
    assert replayed.version == len(rows) == served["version"]
    assert msgspec.to_builtins(RULESET.shown(replayed)) == served  # as shown: with the choices
    return served


async def assert_seeded_dice_verify(client: Any, enc: str) -> int:
    """End the encounter; with the revealed seed, every seeded die re-derives: "anyone can
    re-derive every roll". Returns how many dice were checked."""
    ended = await command(client, enc, {"type": "EndEncounter"})
    seed = bytes.fromhex(ended["state"]["seed"])
    r = await client.get(f"/encounters/{enc}/events", params={"limit": 1000})
    seen = 0

    def walk(value: Any) -> None:
        nonlocal seen
        if isinstance(value, dict):
            if value.get("source") == "seeded" and "index" in value:
                assert value["face"] == seeded_face(seed, enc, value["index"], value["sides"]), value
                seen += 1
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk([e["data"] for e in r.json()["events"]])
    return seen


# ------------------------------------------------------------------------ the sheet


async def test_a_full_sheet_through_the_api(client, conn) -> None:
    """"Every player character has 8 Attributes, 22 Core Skills, 12 Weapon Skills, and 7
    Mere Skills. Each of these has a dice value associated with it, ranging from D4 to D12
    (some Skills may reach D20 later in the game)."

    Mira's sheet is served as sent; a D7 Attribute and a ninth Attribute are refused (422
    invalid_sheet) with the field named, and nothing is added.
    """
    t = await Table(client, "seeded").open()
    s = await t.sheet()
    for key in ("attributes", "skills", "mere_skills", "willpower", "occupation", "initiative_modifier",
                "marked_skills"):
        assert s[key] == MIRA[key], key
    assert (s["conditions"], s["hero_points"], s["hits"], s["mere_activation_points"]) == ([], 0, 0, 0)

    r = await client.post(f"/encounters/{t.enc}/combatants", json={
        "name": "Odd", "side": "party", "controller": "player",
        "sheet": {"attributes": {**MIRA["attributes"], "strength": "D7"}}})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_sheet")
    assert "D7" in r.json()["detail"] and "attributes.strength" in r.json()["detail"]
    r = await client.post(f"/encounters/{t.enc}/combatants", json={
        "name": "Lucky", "side": "party", "controller": "player", "sheet": {"attributes": {"luck": "D6"}}})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_sheet")
    assert "luck" in r.json()["detail"]
    served = await assert_replays(client, conn, t.enc)
    assert len(served["combatants"]) == 3


# --------------------------------------------------------------------------- checks


@pytest.mark.parametrize("policy", POLICIES)
async def test_the_gm_calls_checks_and_the_player_rolls_them(client, conn, policy: str) -> None:
    """"The GM can also request that players roll a specific combination of an Attribute and
    Skill in a given situation." ... "Each difficulty rating represents a value you need to
    roll equal to or higher than in order to successfully complete the task" ... "When you
    roll at Advantage you Step Up the lowest of the two dice" ... "you can roll an
    additional D6 on top of the dice you would usually roll".

    The GM calls; Mira rolls with her own player token.
    """
    t = await Table(client, policy).open()
    plain = await t.check("strength", "Deception", "Normal", [4, 5])
    assert sides_of(plain) == [6, 8] and plain["total"] == sum(faces_of(plain))
    if policy == "reported":
        assert (faces_of(plain), plain["outcome"], plain["levels"]) == ([4, 5], "Partial Success", 0)

    knife = await t.check("stamina", "Knife", "Normal", [7, 9])
    assert sides_of(knife) == [8, 10]
    if policy == "reported":  # the knife example: "You roll 16. This reaches two additional Difficulty Levels"
        assert (knife["total"], knife["outcome"], knife["levels"]) == (16, "Full Success", 2)

    advantage = await t.check("strength", "Deception", "Normal", [8, 8], advantage=True)
    assert (sides_of(advantage), advantage["advantage"]) == ([8, 8], True)
    if policy == "reported":
        assert (advantage["outcome"], advantage["levels"]) == ("Critical Success", 2)  # both at maximum: 16

    disadvantage = await t.check("dexterity", "Brawling", "Difficult", [10, 5], disadvantage=True)
    assert (sides_of(disadvantage), disadvantage["disadvantage"]) == ([10, 6], True)
    if policy == "reported":
        assert disadvantage["outcome"] == "Partial Success"

    occupation = await t.check("strength", "Deception", "Normal", [3, 6, 3], occupation=True)
    assert sides_of(occupation) == [6, 8, 6] and len(occupation["dice"]) == 3
    if policy == "reported":  # "any two of the three dice" match, over the target
        assert (occupation["total"], occupation["outcome"]) == (12, "Critical Success")

    at_the_target = await t.check("dexterity", "Lore", "Hard", [8, 8])
    if policy == "reported":  # a pair exactly at the target is not over it
        assert at_the_target["outcome"] == "Partial Success"

    # one roll per check; the check names its combatant
    c = await t.call("charisma", "Deception", "Easy")
    await t.roll(c, [5, 5])
    r = await t.player("Mira", "RollCheck", [5, 5], expect=422, combatant_id=t.ids["Mira"], check=c)
    assert r["code"] == "check_already_rolled"
    kess_check = await t.call("strength", "Brawling", "Easy", who="Kess")
    r = await t.player("Mira", "RollCheck", [1, 2], expect=422, combatant_id=t.ids["Mira"], check=kess_check)
    assert r["code"] == "not_your_check"
    if policy == "reported":
        r = await t.player("Kess", "RollCheck", [], expect=422, combatant_id=t.ids["Kess"], check=kess_check)
        assert r["code"] == "dice_missing"
    else:
        r = await command(client, t.enc, {"type": "RollCheck", "combatant_id": t.ids["Kess"], "check": kess_check,
                                          "dice": [1, 2]}, expect=422, **t.tokens["Kess"])
        assert r["code"] == "reported_dice_not_allowed"
    await t.roll(kess_check, [4, 3], who="Kess")

    served = await assert_replays(client, conn, t.enc)
    checks = served["rules"]["checks"]
    assert checks[str(c)]["status"] == "rolled" and checks[str(kess_check)]["combatant_id"] == t.ids["Kess"]
    if policy == "seeded":
        # five checks of two dice, the occupation check's three, then Mira's and Kess's last two
        assert await assert_seeded_dice_verify(client, t.enc) == 5 * 2 + 3 + 2 * 2


@pytest.mark.parametrize("policy", POLICIES)
async def test_a_reroll_through_the_api(client, conn, policy: str) -> None:
    """"As long as you did not fail Critically then you have the option to attempt a single
    re-roll. However, if you choose to do this then you immediately take a Condition against
    the Attribute you used in the roll." ... "including this re-roll." ... "should you fail
    the re-roll, even if it is just a regular failure, it counts as a Critical Failure."

    Intelligence D4 + Athletics D4 at Very Hard cannot succeed: the re-roll (on D4 + D4 at
    Disadvantage) fails, so it is a Critical Failure, Mira is Dazed and Athletics is marked.
    """
    t = await Table(client, policy).open()
    c = await t.a_plain_failure()
    out = await t.player("Mira", "ReRoll", [1, 2], combatant_id=t.ids["Mira"], check=c)
    types = [e["type"] for e in out["events"]]
    assert types[:2] == ["ConditionTaken", "CheckRolled"]
    assert out["events"][0]["data"]["condition"] == "Dazed"
    again = out["events"][1]["data"]
    assert (again["reroll"], again["disadvantage"], sides_of(again), again["outcome"]) == (
        True, True, [4, 4], "Critical Failure")
    assert "Athletics" in out["state"]["combatants"][t.ids["Mira"]]["sheet"]["marked_skills"]
    assert out["state"]["combatants"][t.ids["Mira"]]["sheet"]["conditions"] == ["Dazed"]
    r = await t.player("Mira", "ReRoll", [1, 2], expect=422, combatant_id=t.ids["Mira"], check=c)
    assert r["code"] == "already_rerolled"

    # a success cannot be re-rolled; a player cannot re-roll someone else's check
    success = await t.call("charisma", "Lore", "Easy")
    await t.roll(success, [10, 3])
    if policy == "reported":  # 13 at Easy: a Full Success
        r = await t.player("Mira", "ReRoll", [1, 2], expect=422, combatant_id=t.ids["Mira"], check=success)
        assert r["code"] == "reroll_not_allowed"
    r = await t.player("Kess", "ReRoll", [1, 2], expect=403, combatant_id=t.ids["Mira"], check=success)
    assert r["code"] == "not_your_combatant"

    # "Unless the GM states otherwise, re-rolls are always an option": the GM states otherwise for a check
    if policy == "reported":
        barred = await t.call("intelligence", "Athletics", "Very Hard", no_reroll=True)
        (rolled, *_) = await t.roll(barred, [1, 2])
        assert rolled["outcome"] == "Failure"
        moves = (await client.get(f"/encounters/{t.enc}/actions", headers=t.tokens["Mira"])).json()["actions"]
        assert not [a for a in moves if a["command"]["type"] == "ReRoll" and a["command"]["check"] == barred]
        r = await t.player("Mira", "ReRoll", [1, 2], expect=422, combatant_id=t.ids["Mira"], check=barred)
        assert r["code"] == "reroll_not_allowed" and "no re-roll" in r["detail"]

    # Dazed: the next Intelligence check is at Disadvantage (Intelligence D4 + Knife D10 -> D4 + D8)
    dazed = await t.check("intelligence", "Knife", "Easy", [4, 3])
    assert (sides_of(dazed), dazed["disadvantage"]) == ([4, 8], True)
    await assert_replays(client, conn, t.enc)


# ------------------------------------------------------------- Conditions, Hero Points


@pytest.mark.parametrize("policy", POLICIES)
async def test_conditions_and_hero_points_through_the_api(client, conn, policy: str) -> None:
    """"Once applied, any rolls made using the associated Attribute are done so at a
    Disadvantage, until the condition can be removed" ... "At the start of each session all
    of the players gain 1 Hero Point. During the session, the GM can award additional Hero
    Points" ... "Reducing the Difficulty of a Roll", "Removing a Condition", "Restoring a
    Hit Point", "Turning an incoming Critical Hit into a regular Hit", "Reduce a Critical
    Failure to a regular Failure", "Cheat Death, restoring your Character to a single Hit
    rather than having them die", "Activating a Flashback".
    """
    t = await Table(client, policy).open()
    mira, kess, bandit = t.ids["Mira"], t.ids["Kess"], t.ids["Bandit"]

    out = await t.gm("StartSession")
    assert out["events"][0]["data"] == {"type": "SessionStarted", "session": 1, "hero_points": {mira: 1, kess: 1}}
    sheets = {cid: c["sheet"]["hero_points"] for cid, c in out["state"]["combatants"].items()}
    assert sheets == {mira: 1, kess: 1, bandit: 2}
    for _ in range(6):
        await t.gm("AwardHeroPoint", combatant_id=mira, reason="creative play")
    assert (await t.sheet())["hero_points"] == 7

    # the GM's Condition: Strength rolls at Disadvantage until the GM removes it
    await t.gm("ApplyCondition", combatant_id=mira, condition="Weakened", reason="poisoned")
    weak = await t.check("strength", "Deception", "Normal", [6, 6])
    assert (sides_of(weak), weak["disadvantage"]) == ([6, 6], True)
    await t.gm("RemoveCondition", combatant_id=mira, condition="Weakened")
    strong = await t.check("strength", "Deception", "Normal", [6, 8])
    assert (sides_of(strong), strong["disadvantage"]) == ([6, 8], False)

    # Reducing the Difficulty of a Roll: Normal -> Easy before the roll
    c = await t.call("charisma", "Deception", "Normal")
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="ReduceDifficulty", check=c)
    assert [e["type"] for e in out["events"]] == ["HeroPointSpent", "CheckEased"]
    assert out["events"][1]["data"] == {"type": "CheckEased", "check": c, "difficulty": "Easy"}
    eased = (await t.roll(c, [3, 4]))[0]
    assert eased["difficulty"] == "Easy" and eased["outcome"] == by_the_text(eased, "Easy")
    if policy == "reported":
        assert eased["outcome"] == "Partial Success"

    # Removing a Condition
    await t.gm("ApplyCondition", combatant_id=mira, condition="Anxious")
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="RemoveCondition", condition="Anxious")
    assert out["state"]["combatants"][mira]["sheet"]["conditions"] == []

    # Restoring a Hit Point
    await t.gm("SetHits", combatant_id=mira, hits=3)
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="RestoreHit")
    assert out["state"]["combatants"][mira]["sheet"]["hits"] == 2
    await t.gm("SetHits", combatant_id=mira, hits=0)  # unhurt again: no Penalty Points on her checks

    # Turning an incoming Critical Hit into a regular Hit: none is incoming (see the attack tests)
    r = await t.player("Mira", "SpendHeroPoint", expect=422, combatant_id=mira, use="DowngradeCriticalHit")
    assert r["code"] == "no_incoming_critical"

    # Reduce a Critical Failure to a regular Failure: a failed re-roll is always critical
    failed = await t.a_plain_failure()
    await t.player("Mira", "ReRoll", [2, 1], combatant_id=mira, check=failed)
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="ReduceCriticalFailure", check=failed)
    assert out["events"][1]["data"] == {"type": "CheckOutcomeChanged", "check": failed, "outcome": "Failure"}
    assert out["state"]["rules"]["checks"][str(failed)]["outcome"] == "Failure"

    # Cheat Death: only beyond Helpless, back to a single Hit
    await t.gm("SetHits", combatant_id=mira, hits=4)
    r = await t.player("Mira", "SpendHeroPoint", expect=422, combatant_id=mira, use="CheatDeath")
    assert r["code"] == "not_dying"
    await t.gm("SetHits", combatant_id=mira, hits=6)
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="CheatDeath")
    assert out["state"]["combatants"][mira]["sheet"]["hits"] == 1

    # Activating a Flashback, with its narration
    r = await t.player("Mira", "SpendHeroPoint", expect=422, combatant_id=mira, use="Flashback")
    assert r["code"] == "flashback_needs_narration"
    out = await t.player("Mira", "SpendHeroPoint", combatant_id=mira, use="Flashback",
                         narration="I left a rope under the bridge last night.")
    assert out["events"][0]["data"]["narration"] == "I left a rope under the bridge last night."
    assert out["state"]["combatants"][mira]["sheet"]["hero_points"] == 7 - 6

    # Kess spends her one point; then she has none
    await t.player("Kess", "SpendHeroPoint", combatant_id=kess, use="Flashback", narration="I paid the guard.")
    r = await t.player("Kess", "SpendHeroPoint", expect=422, combatant_id=kess, use="Flashback", narration="again")
    assert r["code"] == "no_hero_points"
    r = await t.player("Kess", "SpendHeroPoint", expect=403, combatant_id=mira, use="Flashback", narration="hers")
    assert r["code"] == "not_your_combatant"

    # the next session: back at one, the NPC untouched
    out = await t.gm("StartSession")
    assert out["events"][0]["data"] == {"type": "SessionStarted", "session": 2, "hero_points": {mira: 1, kess: 1}}
    assert out["state"]["combatants"][bandit]["sheet"]["hero_points"] == 2
    await assert_replays(client, conn, t.enc)


# ------------------------------------------------------------- opposed and Willpower


@pytest.mark.parametrize("policy", POLICIES)
async def test_opposed_and_willpower_rolls_through_the_api(client, conn, policy: str) -> None:
    """"In this situation you and the GM would both roll Brawling + Strength, and the person
    who rolls the highest wins the match. If you beat your opposition by an entire
    difficulty level then you might even injure their arm in the process." and "they will
    need to roll a D20 against their Willpower value. If they roll less than or equal to the
    Willpower value then their willpower/morale held, however if they roll over it then
    their willpower was broken".

    Reported dice: Mira's two dice (Strength D6 + Brawling D6), then the Bandit's (D8 + D8).
    """
    t = await Table(client, policy).open()
    mira, bandit = t.ids["Mira"], t.ids["Bandit"]
    sides = {"first": {"combatant_id": mira, "attribute": "strength", "skill": "Brawling"},
             "second": {"combatant_id": bandit, "attribute": "strength", "skill": "Brawling"}}
    out = await t.gm("OpposedRoll", [5, 6, 5, 5], reason="arm wrestling", **sides)
    rolled = out["events"][0]["data"]
    totals = [s["total"] for s in rolled["sides"]]
    assert [[d["sides"] for d in s["dice"]] for s in rolled["sides"]] == [[6, 6], [8, 8]]
    assert totals == [sum(d["face"] for d in s["dice"]) for s in rolled["sides"]]
    assert rolled["winner"] == (None if totals[0] == totals[1] else mira if totals[0] > totals[1] else bandit)
    if policy == "reported":
        assert (totals, rolled["winner"], rolled["by_a_level"]) == ([11, 10], mira, False)
        tie = (await t.gm("OpposedRoll", [3, 4, 4, 3], **sides))["events"][0]["data"]
        assert (tie["winner"], tie["by_a_level"]) == (None, False)
        big = (await t.gm("OpposedRoll", [1, 3, 8, 8], **sides))["events"][0]["data"]
        assert (big["winner"], big["by_a_level"]) == (bandit, True)
    r = await t.player("Mira", "OpposedRoll", [1, 1, 1, 1], expect=403, **sides)
    assert r["code"] == "gm_only"

    for face in (12, 13):
        tested = (await t.gm("WillpowerRoll", [face], combatant_id=mira, reason="the dragon roars"))["events"][0]
        die = tested["data"]["die"]
        assert die["sides"] == 20 and tested["data"]["held"] == (die["face"] <= 12)
        if policy == "reported":
            assert (die["face"], tested["data"]["held"]) == (face, face == 12)
    r = await t.player("Mira", "WillpowerRoll", [1], expect=403, combatant_id=mira)
    assert r["code"] == "gm_only"
    await assert_replays(client, conn, t.enc)


# ------------------------------------------------------------------------- levelling


@pytest.mark.parametrize("policy", POLICIES)
async def test_a_long_rest_levels_marked_skills_through_the_api(client, conn, policy: str) -> None:
    """"Whenever you make a roll that results in either a Critical Success or a Critical
    Failure, mark the box next to the Skill you used" ... "To Level Up a given skill you roll
    a D20 against a target value" ("Current Skill D4 - Next Level D6 - Roll 6 or above",
    "Current Skill D6 - Next Level D8 - Roll 9 or above", "Current Skill D10 - Next Level
    D12 - Roll 15 or above") ... "If you fail the roll, simply remove the mark" ... "or you
    can choose to gain a Mere Activation Point instead."

    Marked: Mira's Rosmere (Mere D10, chosen for a Mere Activation Point) and Lore (D20: no
    roll), then Athletics (D4, by a failed re-roll); Kess's Brawling (D6). Reported D20s in
    the documented order (combatants as added, skills as marked): 15, 5, 9.
    """
    t = await Table(client, policy).open()
    mira, kess = t.ids["Mira"], t.ids["Kess"]
    failed = await t.a_plain_failure()
    await t.player("Mira", "ReRoll", [1, 1], combatant_id=mira, check=failed)
    assert (await t.sheet())["marked_skills"] == ["Rosmere", "Lore", "Athletics"]
    assert (await t.sheet())["conditions"] == ["Dazed"]

    r = await t.gm("LongRest", [20, 20, 20], expect=422, mere_activation={mira: ["Vermere"]})
    assert r["code"] == "invalid_mere_choice"
    r = await t.player("Mira", "LongRest", [20, 20, 20], expect=403)
    assert r["code"] == "gm_only"
    out = await t.gm("LongRest", [15, 5, 9], mere_activation={mira: ["Rosmere"]})
    events = [{"type": e["type"], **e["data"]} for e in out["events"]]
    assert [(e["type"], e.get("combatant_id"), e.get("skill")) for e in events] == [
        ("SkillLevelRolled", mira, "Rosmere"), ("MarkCleared", mira, "Lore"),
        ("SkillLevelRolled", mira, "Athletics"), ("SkillLevelRolled", kess, "Brawling"), ("LongRestTaken", None, None),
    ]
    rolls = [e for e in events if e["type"] == "SkillLevelRolled"]
    assert [(e["target"], e["from_die"]) for e in rolls] == [(15, "D10"), (6, "D4"), (9, "D6")]
    for e in rolls:
        assert e["die"]["sides"] == 20 and e["success"] == (e["die"]["face"] >= e["target"])
    rosmere, athletics, brawling = rolls
    assert rosmere["activation_point"] == rosmere["success"] and rosmere["to_die"] is None
    assert athletics["to_die"] == ("D6" if athletics["success"] else None)
    assert brawling["to_die"] == ("D8" if brawling["success"] else None)
    if policy == "reported":
        assert [e["success"] for e in rolls] == [True, False, True]

    sheets = {cid: c["sheet"] for cid, c in out["state"]["combatants"].items()}
    assert sheets[mira]["mere_skills"]["Rosmere"] == "D10"
    assert sheets[mira]["mere_activation_points"] == (1 if rosmere["success"] else 0)
    assert sheets[mira]["skills"]["Athletics"] == ("D6" if athletics["success"] else "D4")
    assert sheets[mira]["skills"]["Lore"] == "D20"
    assert sheets[kess]["skills"]["Brawling"] == ("D8" if brawling["success"] else "D6")
    assert (sheets[mira]["marked_skills"], sheets[kess]["marked_skills"], sheets[mira]["conditions"]) == ([], [], [])
    await assert_replays(client, conn, t.enc)


# ----------------------------------------------------------------------- permissions


async def test_a_player_may_not_call_a_check_nor_roll_anothers(client, conn) -> None:
    """"The GM can also request that players roll a specific combination of an Attribute and
    Skill": the GM calls checks (a player's token: 403 gm_only) and each player rolls their
    own (Kess's token for Mira's check: 403 not_your_combatant); the GM's own commands
    (StartSession, AwardHeroPoint, ApplyCondition, SetHits) are refused to players."""
    t = await Table(client, "reported").open()
    mira = t.ids["Mira"]
    r = await t.player("Mira", "CallForCheck", expect=403, combatant_id=mira, attribute="strength",
                       skill="Deception", difficulty="Easy")
    assert r["code"] == "gm_only"
    c = await t.call("strength", "Deception", "Easy")
    r = await t.player("Kess", "RollCheck", [1, 2], expect=403, combatant_id=mira, check=c)
    assert r["code"] == "not_your_combatant"
    for kind, fields in (("StartSession", {}), ("AwardHeroPoint", {"combatant_id": mira}),
                         ("ApplyCondition", {"combatant_id": mira, "condition": "Numb"}),
                         ("RemoveCondition", {"combatant_id": mira, "condition": "Numb"}),
                         ("SetHits", {"combatant_id": mira, "hits": 0})):
        r = await t.player("Mira", kind, expect=403, **fields)
        assert r["code"] == "gm_only", kind
    spectator = await mint(client, t.enc, "spectator")
    r = await command(client, t.enc, {"type": "RollCheck", "combatant_id": mira, "check": c, "dice": [1, 2]},
                      expect=403, **spectator)
    assert r["code"] == "read_only_token"
    rolled = (await t.roll(c, [1, 2]))[0]
    assert (rolled["total"], rolled["outcome"]) == (3, "Failure")
    served = await assert_replays(client, conn, t.enc)
    assert served["rules"]["checks"][str(c)]["outcome"] == "Failure"


# ------------------------------------------------------------------------------ odds


def fraction(outcome: dict[str, Any]) -> Fraction:
    assert outcome["probability"] == pytest.approx(outcome["numerator"] / outcome["denominator"])
    return Fraction(outcome["numerator"], outcome["denominator"])


async def test_the_odds_endpoint_counted_by_hand(client) -> None:
    """"Easy - 7", "Normal - 9" and the outcome classes, counted by hand:

    - D4 + D4 at Easy, 16 ways: pairs below 7 (1-1, 2-2, 3-3) 3; other totals below 7: 10;
      7 (3-4, 4-3) 2 Partial; 8 (4-4, a pair over the target) 1 Critical Success.
    - D6 + D6 at Normal, 36 ways: totals 2..8 are 26 ways, 4 of them pairs; 9..12 are 10
      ways, 2 of them pairs (5-5, 6-6); 13 is out of reach, so no Full Success.
    - D4 + D6 at Advantage is D6 + D6 ("Step Up the lowest of the two dice").
    - D4 + D4 + the occupation D6 at Very Hard: never reached; no two alike 4 x 3 x 4 = 48
      of 96 ways, a pair in the other 48 ("the same number on any two of the three dice").
    """
    r = await client.get(ODDS, params={"attribute_die": "D4", "skill_die": "D4", "difficulty": "Easy"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["dice"], body["difficulty"]) == (["D4", "D4"], "Easy")
    assert {k: fraction(v) for k, v in body["outcomes"].items()} == {
        "Critical Failure": Fraction(3, 16), "Failure": Fraction(10, 16), "Partial Success": Fraction(2, 16),
        "Full Success": 0, "Critical Success": Fraction(1, 16),
    }
    d6d6 = {"Critical Failure": Fraction(4, 36), "Failure": Fraction(22, 36), "Partial Success": Fraction(8, 36),
            "Full Success": 0, "Critical Success": Fraction(2, 36)}
    for params in ({"attribute_die": "D6", "skill_die": "D6"},
                   {"attribute_die": "D4", "skill_die": "D6", "advantage": "true"}):
        r = await client.get(ODDS, params=params)  # Normal by default
        assert r.status_code == 200, r.text
        assert (r.json()["dice"], r.json()["difficulty"]) == (["D6", "D6"], "Normal")
        assert {k: fraction(v) for k, v in r.json()["outcomes"].items()} == d6d6
    r = await client.get(ODDS, params={"attribute_die": "D4", "skill_die": "D4", "occupation": "true",
                                       "difficulty": "Very Hard"})
    assert r.status_code == 200, r.text
    assert r.json()["dice"] == ["D4", "D4", "D6"]
    assert {k: fraction(v) for k, v in r.json()["outcomes"].items()} == {
        "Critical Failure": Fraction(1, 2), "Failure": Fraction(1, 2), "Partial Success": 0, "Full Success": 0,
        "Critical Success": 0,
    }
    r = await client.get(ODDS, params={"attribute_die": "D12", "skill_die": "D20", "disadvantage": "true",
                                       "difficulty": "Hard"})
    assert r.json()["dice"] == ["D12", "D12"]
    assert sum(fraction(v) for v in r.json()["outcomes"].values()) == 1


@pytest.mark.parametrize("params", [
    {"attribute_die": "D7", "skill_die": "D6"},
    {"attribute_die": "D6", "skill_die": "D7"},
    {"attribute_die": "D20", "skill_die": "D6"},
    {"attribute_die": "D6", "skill_die": "D6", "difficulty": "Impossible"},
    {"skill_die": "D6"},
], ids=["D7 attribute", "D7 skill", "D20 attribute", "unknown difficulty", "no attribute die"])
async def test_the_odds_endpoint_refuses_bad_dice(client, params: dict[str, str]) -> None:
    """"Places of Power makes use of four, six, eight, ten, twelve, and twenty sided dice":
    a D7 is a 400, and so is an Attribute D20, a difficulty off the ladder, a missing die."""
    r = await client.get(ODDS, params=params)
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


# ------------------------------------------------------------ the readings, documented


async def test_the_coverage_table_covers_the_dice_chapter_and_its_readings(client, conn) -> None:
    """Critical Successes and Critical Failures: "It also counts as a Critical Success if you roll
    the maximum value possible on both dice" and "if you roll the same value on both dice, and
    the total value is below the target value ... that counts as a Critical Failure". D4 + D4
    rolling 4 and 4 at Normal is both: the server's reading (a Critical Failure) is written in
    the coverage row of that section, where a client reads it, and is what a roll and the odds
    give. Every section of the dice chapter has its row, in the order of the text."""
    from tests.rulesets.places_of_power.test_coverage import headings

    info = (await client.get("/rulesets/places-of-power")).json()
    dice_rows = [row for row in info["coverage"] if row["chapter"] == "dice"]
    assert [row["heading"] for row in dice_rows] == headings("dice")
    assert [row["heading"] for row in info["coverage"] if row["chapter"] == "combat"] == headings("combat")
    (crits,) = [row for row in dice_rows if row["heading"] == "Critical Successes and Critical Failures"]
    assert any("D4 + D4 rolling 4 and 4 at Normal" in r and "Critical Failure" in r for r in crits["readings"])

    r = await client.get(ODDS, params={"attribute_die": "D4", "skill_die": "D4", "difficulty": "Normal"})
    assert {k: fraction(v) for k, v in r.json()["outcomes"].items()} == {
        "Critical Failure": Fraction(4, 16), "Failure": Fraction(12, 16), "Partial Success": 0,
        "Full Success": 0, "Critical Success": 0,
    }
    t = await Table(client, "reported").open()
    rolled = await t.check("intelligence", "Athletics", "Normal", [4, 4])  # Intelligence D4 + Athletics D4
    assert (sides_of(rolled), rolled["outcome"]) == ([4, 4], "Critical Failure")
    await assert_replays(client, conn, t.enc)
