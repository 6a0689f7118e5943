"""The Places of Power attack exchange (issue 5) through HTTP, against the real server and
PostgreSQL, with reported dice: each exchange is checked step by step through the command
replies and ``GET /encounters/{id}`` (``state.rules.exchange``: ``stage``, ``awaiting`` and
the legal ``choices`` with their Action Point costs), and every test ends by replaying the
stored events and comparing the result with what the server serves the GM.

Rules quoted are from ../shared/rules/places-of-power-combat.txt.

Mira and Kess are players (each with their own token), the Bandit is the GM's NPC.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

from domain.rulesets import default_registry
from tests.integration.fight import command, mint, open_encounter, seat_party

RULESET = default_registry().get("places-of-power")

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Close": {"difficulty": "Normal", "damage": 3}, "Near": {"difficulty": "Normal", "damage": 3}}}
AXE = {"name": "Axe", "skill": "Axe", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 5}}}

MIRA = {"attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
        "skills": {"Knife": "D8", "Athletics": "D6", "Pistol": "D8", "Brawling": "D6"},
        "weapons": [KNIFE, PISTOL],
        "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}]}
KESS = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Athletics": "D6", "Brawling": "D6"}}
BANDIT = {"attributes": {"strength": "D10", "agility": "D6"},
          "skills": {"Knife": "D8", "Axe": "D8", "Athletics": "D6"},
          "weapons": [KNIFE, AXE],
          "armour": [{"name": "Greatcoat", "layer": "Outer", "value": 1, "durability": 2},
                     {"name": "Jerkin", "layer": "Base", "value": 2, "durability": 2},
                     {"name": "Gambeson", "layer": "Skin", "value": 1, "durability": 1}]}


class Table:
    """A reported-dice encounter with Mira and Kess (players with tokens) and a Bandit (NPC),
    round 1 begun. ``client`` speaks as the GM."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.enc = ""
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, dict[str, str]] = {}

    async def open(self, initiative: list[int], bandit: dict[str, Any] | None = None) -> Table:
        """``initiative``: Mira's die, Kess's die, then the GM's die."""
        self.enc = await open_encounter(self.client, dice_policy="reported")
        ids, tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", MIRA), "Kess": ("player", KESS), "Bandit": ("gm", bandit or BANDIT)})
        self.ids.update(ids)
        self.tokens.update(tokens)
        await self.gm("RollInitiative", initiative)
        await self.gm("StartEncounter")
        return self

    def id(self, who: str) -> str:
        return self.ids[who]

    async def send(self, who: str | None, kind: str, faces: list[int] | None = None, *, expect: int = 200,
                   **fields: Any) -> Any:
        """A command, as the GM (``who`` None or "Bandit") or with a player's token."""
        body: dict[str, Any] = {"type": kind, **fields}
        if faces is not None:
            body["dice"] = faces
        headers = self.tokens[who] if who in self.tokens else {}
        return await command(self.client, self.enc, body, expect=expect, **headers)

    async def gm(self, kind: str, faces: list[int] | None = None, *, expect: int = 200, **fields: Any) -> Any:
        return await self.send(None, kind, faces, expect=expect, **fields)

    async def state(self) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def exchange(self) -> Any:
        return (await self.state())["rules"]["exchange"]

    async def sheet(self, who: str) -> dict[str, Any]:
        return dict((await self.state())["combatants"][self.id(who)]["sheet"])

    async def ap(self, who: str) -> int:
        return int((await self.state())["combatants"][self.id(who)]["action_points"])

    async def attack(self, who: str, target: str, faces: list[int], **fields: Any) -> list[dict[str, Any]]:
        out = await self.send(who, "Attack", faces, combatant_id=self.id(who), target=self.id(target), **fields)
        return flat(out)

    async def defend(self, who: str, attack: int, defence: str, faces: list[int] | None = None, *,
                     sender: str | None = "self", expect: int = 200) -> Any:
        out = await self.send(who if sender == "self" else sender, "Defend", faces, expect=expect,
                              combatant_id=self.id(who), attack=attack, defence=defence)
        return flat(out) if expect == 200 else out


def flat(out: Any) -> list[dict[str, Any]]:
    return [{"type": e["type"], **e["data"]} for e in out["events"]]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def choices(ex: dict[str, Any]) -> dict[str, int]:
    return {c["name"]: c["action_points"] for c in ex["choices"]}


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


# Initiative: Mira 12, Kess 11, the GM 1: Mira, Kess, then the Bandit.
PLAYERS_FIRST = [12, 11, 1]
# Mira 1, Kess 2, the GM 12: the Bandit first.
GM_FIRST = [1, 2, 12]


# ------------------------------------------------------------------------ exchanges


async def test_the_knife_example_step_by_step(client: Any, conn: Any) -> None:
    """ "You attack an opponent with a Knife at Melee Range. A Knife has a Base Damage of 2 and
    a Normal (9) Difficulty to hit at this Range. You roll 16. This reaches two additional
    Difficulty Levels: Difficult (13) and Hard (16). You therefore gain 2 extra Successes.
    ... Or you could split them: spend one Success on Damage and one on Precision. The attack
    would then inflict 3 Hits, and the target would need to roll Difficult (13) to defend
    against it." Then: "Should the target attempt to actively defend themselves ... and fail
    to do so, then they can still choose to take the hit to their armour"."""
    t = await Table(client).open(PLAYERS_FIRST)
    assert await t.ap("Mira") == 3
    # Strength D10 + Knife D8: 10 + 6 = 16, no pair, not both at their maximum.
    declared, rolled = await t.attack("Mira", "Bandit", [10, 6], attack="LightMelee", weapon="Knife", band="Melee")
    assert declared["type"] == "AttackDeclared"
    assert (declared["difficulty"], declared["base_damage"], declared["action_points"]) == ("Normal", 2, 1)
    assert (rolled["total"], rolled["outcome"], rolled["extra"]) == (16, "Full Success", 2)
    assert [d["sides"] for d in rolled["dice"]] == [10, 8]
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert (ex["id"], ex["stage"], ex["awaiting"]) == (attack, "spend", t.id("Mira"))
    assert choices(ex) == {"Damage": 0, "Precision": 0}
    assert await t.ap("Mira") == 2  # "Light Melee Attack (1 AP)"

    # Spending the wrong number of Successes is refused.
    await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack, split=["Damage"], expect=422)
    (spent,) = flat(await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack,
                                 split=["Damage", "Precision"]))
    assert (spent["damage"], spent["defence_difficulty"]) == (3, "Difficult")
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"], ex["damage"], ex["defence_difficulty"]) == (
        "defence", t.id("Bandit"), 3, "Difficult")
    assert choices(ex) == {"Evade": 1, "Parry": 1, "Tank": 2, "Armour": 0, "TakeIt": 0}

    # Evade: Agility D6 + Athletics D6 = 5 + 6 = 11 < Difficult (13): failed.
    (evaded,) = await t.defend("Bandit", attack, "Evade", [5, 6])
    assert (evaded["defence"], evaded["total"], evaded["difficulty"], evaded["success"]) == (
        "Evade", 11, "Difficult", False)
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"]) == ("defence", t.id("Bandit"))
    assert choices(ex) == {"Tank": 2, "Armour": 0, "TakeIt": 0}
    assert await t.ap("Bandit") == 2

    # On the armour: Greatcoat 1, then Jerkin 2 stop all 3 Hits; the Gambeson is not reached.
    took, ended = await t.defend("Bandit", attack, "Armour")
    assert took["type"] == "ArmourTook"
    assert (took["damage"], took["damage_through"], took["used"], took["destroyed"]) == (
        3, 0, ["Greatcoat", "Jerkin"], [])
    assert ended == {"type": "ExchangeEnded", "attack_id": attack, "result": "hit"}
    assert await t.exchange() is None
    bandit = await t.sheet("Bandit")
    assert [p["durability"] for p in bandit["armour"]] == [1, 1, 1]
    assert bandit["hits"] == 0
    await assert_replays(t, conn)


async def test_a_gunshot_against_layered_armour(client: Any, conn: Any) -> None:
    """ "Defending against a gun shot works slightly differently. Firstly, you add up how much
    total damage reduction your Armour provides (not including any Helmet you may be
    wearing), and then you subtract one from that total. ... more often than not all of your
    Armour will reduce its Durability by one." "If the Durability reaches zero, then that
    piece of Armour is destroyed and cannot be repaired later." Dive: "You can only use Dive
    on Ranged Attacks, and only if the attacker was at Near or greater range"."""
    t = await Table(client).open(PLAYERS_FIRST)
    # Dexterity D8 + Pistol D8: 4 + 6 = 10 at Normal: a hit, no extra Success.
    declared, rolled = await t.attack("Mira", "Bandit", [4, 6], attack="Ranged", weapon="Pistol", band="Near")
    assert (declared["gun"], declared["melee"], declared["base_damage"], declared["action_points"]) == (
        True, False, 3, 1)
    assert (rolled["outcome"], rolled["extra"]) == ("Partial Success", 0)
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"], ex["damage"], ex["defence_difficulty"]) == (
        "defence", t.id("Bandit"), 3, "Normal")
    # Ranged: no Evade or Parry; Dive and Tank since the shot came from Near.
    assert choices(ex) == {"Dive": 2, "Tank": 2, "Armour": 0, "TakeIt": 0}

    # 1 + 2 + 1 = 4, minus one: 3 stops the 3 Hits; every layer loses a point.
    took, ended = await t.defend("Bandit", attack, "Armour")
    assert (took["damage"], took["damage_through"]) == (3, 0)
    assert took["used"] == ["Greatcoat", "Jerkin", "Gambeson"]
    assert took["destroyed"] == ["Gambeson"]
    assert ended["result"] == "hit"
    bandit = await t.sheet("Bandit")
    assert [(p["name"], p["durability"]) for p in bandit["armour"]] == [
        ("Greatcoat", 1), ("Jerkin", 1), ("Gambeson", 0)]
    assert bandit["hits"] == 0

    # A second shot: the destroyed Gambeson plays no part: 1 + 2 - 1 = 2 stops 2 of 3.
    declared, _ = await t.attack("Mira", "Bandit", [5, 6], attack="Ranged", weapon="Pistol", band="Near")
    took, hit, _ = await t.defend("Bandit", declared["attack_id"], "Armour")
    assert (took["damage_through"], took["used"], took["destroyed"]) == (1, ["Greatcoat", "Jerkin"],
                                                                         ["Greatcoat", "Jerkin"])
    assert (hit["type"], hit["damage"], hit["hits"], hit["dead"]) == ("HitsTaken", 1, 1, False)
    bandit = await t.sheet("Bandit")
    assert [p["durability"] for p in bandit["armour"]] == [0, 0, 0]
    assert bandit["hits"] == 1
    assert await t.ap("Mira") == 1

    # A third shot: no armour is left, so "Armour" is no longer a choice.
    declared, _ = await t.attack("Mira", "Bandit", [5, 6], attack="Ranged", weapon="Pistol", band="Near")
    assert choices(await t.exchange()) == {"Dive": 2, "Tank": 2, "TakeIt": 0}
    await t.defend("Bandit", declared["attack_id"], "Armour", expect=422)
    await t.defend("Bandit", declared["attack_id"], "TakeIt")
    assert (await t.sheet("Bandit"))["hits"] == 4
    await assert_replays(t, conn)


async def test_a_player_past_helpless_lives_and_one_further_dies(client: Any, conn: Any) -> None:
    """ "As long as the number of Hits they have taken does not exceed the point at which they
    would become Helpless by more than two, then that player is simply Helpless, and the usual
    rules apply. If the number of Hits does however exceed the number needed to render the
    target Helpless by more than two, then that player is also killed." "If you suffer two or
    more Hits in a single attack, or you are rendered Helpless, then you suffer an Injury."
    "Heavy Melee Attack (2 AP): ... Add 1 Hit to the base damage"."""
    t = await Table(client).open(GM_FIRST)
    assert (await t.state())["turn"] == t.id("Bandit")
    # Heavy: Axe 5 + 1 = 6 Hits: Helpless by 2, no more: alive, stored at 4 Hits.
    declared, rolled = await t.attack("Bandit", "Mira", [6, 5], attack="HeavyMelee", weapon="Axe", band="Melee")
    assert (declared["base_damage"], declared["action_points"], rolled["extra"]) == (6, 2, 0)
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert ex["awaiting"] == t.id("Mira")
    # Mira has a Knife in hand; Heavy: "opponents attempting to Parry or Evade ... roll at Advantage".
    assert choices(ex) == {"Evade": 1, "Parry": 1, "Tank": 2, "Armour": 0, "TakeIt": 0}
    # The prompt is in the state Mira's own token reads: a frontend renders it from there.
    r = await client.get(f"/encounters/{t.enc}", headers=t.tokens["Mira"])
    assert r.status_code == 200, r.text
    seen = r.json()["rules"]["exchange"]
    assert (seen["stage"], seen["awaiting"], choices(seen)) == ("defence", t.id("Mira"), choices(ex))
    # Kess's token cannot answer for Mira.
    refused = await t.defend("Mira", attack, "TakeIt", sender="Kess", expect=403)
    assert refused["code"] == "not_your_combatant"
    # Mira answers herself.
    hit, ended = await t.defend("Mira", attack, "TakeIt")
    assert (hit["damage"], hit["hits"], hit["dead"], hit["helpless"], hit["injuries"]) == (6, 4, False, True, 1)
    assert ended["result"] == "hit"
    mira = await t.sheet("Mira")
    assert (mira["hits"], mira["dead"], mira["injuries"]) == (4, False, 1)

    # Light: Axe 5, 10 + 7 = 17 reaches Difficult and Hard: 2 Damage: 7 Hits on Kess: dead.
    declared, rolled = await t.attack("Bandit", "Kess", [10, 7], attack="LightMelee", weapon="Axe", band="Melee")
    assert (rolled["outcome"], rolled["extra"]) == ("Full Success", 2)
    attack = declared["attack_id"]
    await t.send("Bandit", "SpendSuccesses", combatant_id=t.id("Bandit"), attack=attack, split=["Damage", "Damage"])
    ex = await t.exchange()
    assert (ex["damage"], ex["awaiting"]) == (7, t.id("Kess"))
    # Kess has no melee weapon: no Parry.
    assert choices(ex) == {"Evade": 1, "Tank": 2, "TakeIt": 0}
    hit, _ = await t.defend("Kess", attack, "TakeIt")
    assert (hit["damage"], hit["dead"]) == (7, True)
    kess = await t.sheet("Kess")
    assert kess["dead"] is True and kess["hits"] > 4
    assert await t.ap("Bandit") == 0
    # A dead combatant cannot be attacked again.
    await t.send("Bandit", "Attack", [5, 5], expect=422, combatant_id=t.id("Bandit"), target=t.id("Kess"),
                 attack="LightMelee", weapon="Knife", band="Melee")
    await assert_replays(t, conn)


async def test_an_npc_taken_past_helpless_is_killed_outright(client: Any, conn: Any) -> None:
    """ "it is possible to inflict enough Hits on a target that they are taken beyond the
    Helpless stage. If this happens to an NPC, either friend or foe, then that NPC has been
    killed outright." """
    t = await Table(client).open(PLAYERS_FIRST)
    # Heavy Knife: 2 + 1 = 3; 10 + 6 = 16: two extra Successes on Damage: 5 Hits.
    declared, rolled = await t.attack("Mira", "Bandit", [10, 6], attack="HeavyMelee", weapon="Knife", band="Melee")
    assert (declared["base_damage"], rolled["extra"]) == (3, 2)
    attack = declared["attack_id"]
    await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack, split=["Damage", "Damage"])
    assert (await t.exchange())["damage"] == 5
    (blow,) = await t.defend("Bandit", attack, "TakeIt")
    # Lethal: the exchange waits for Mira to Pull her Punch or not; she lets it land.
    assert blow["type"] == "LethalBlow" and (await t.exchange())["stage"] == "pull"
    hit, ended = flat(await t.send("Mira", "PullYourPunch", combatant_id=t.id("Mira"), attack=attack, pull=False))
    assert (hit["hits"], hit["dead"], hit["helpless"]) == (5, True, False)
    assert ended["type"] == "ExchangeEnded"
    bandit = await t.sheet("Bandit")
    assert bandit["dead"] is True and bandit["hits"] == 5
    assert await t.ap("Mira") == 1
    await assert_replays(t, conn)


async def test_a_parry_that_beats_the_attack_by_a_level_is_a_riposte(client: Any, conn: Any) -> None:
    """Parry: "If you beat the required value by one or more Difficulty levels then that
    constitutes a Repost, and you inflict a set 1 Hit of damage back on your attacker. Your
    opponent cannot use a Defensive Action to block a Repost, but they can block it with
    Armour." """
    t = await Table(client).open(GM_FIRST)
    # Bandit: Strength D10 + Knife D8: 4 + 6 = 10 at Normal.
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    # Mira parries: Strength D10 + Knife D8: 9 + 5 = 14 reaches Difficult (13): a Riposte.
    (parried,) = await t.defend("Mira", attack, "Parry", [9, 5])
    assert (parried["success"], parried["riposte"], parried["difficulty"], parried["action_points"]) == (
        True, True, "Normal", 1)
    assert [d["sides"] for d in parried["dice"]] == [10, 8]
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"], ex["damage"]) == ("riposte", t.id("Bandit"), 1)
    assert choices(ex) == {"Armour": 0, "TakeIt": 0}
    # No Defensive Action against a Riposte.
    await t.defend("Bandit", attack, "Parry", [5, 5], expect=422)
    hit, ended = await t.defend("Bandit", attack, "TakeIt")
    assert (hit["combatant_id"], hit["damage"], hit["hits"]) == (t.id("Bandit"), 1, 1)
    assert ended["result"] == "riposte"
    assert (await t.sheet("Mira"))["hits"] == 0
    assert await t.ap("Mira") == 2

    # A second Riposte, blocked by the Bandit's armour (the outermost layer takes it).
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    await t.defend("Mira", declared["attack_id"], "Parry", [9, 5])
    took, ended = await t.defend("Bandit", declared["attack_id"], "Armour")
    assert (took["damage"], took["damage_through"], took["used"]) == (1, 0, ["Greatcoat"])
    assert (await t.sheet("Bandit"))["hits"] == 1
    await assert_replays(t, conn)


async def test_tank_after_a_failed_evade(client: Any, conn: Any) -> None:
    """Tank: "All incoming damage is reduced down to a single, unavoidable Hit. You cannot use
    Armour to negate this final Hit. Tank is the only Defensive Action you can use if a
    previous Defensive Action fails." """
    t = await Table(client).open(PLAYERS_FIRST)
    declared, _ = await t.attack("Mira", "Bandit", [10, 6], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack, split=["Damage", "Damage"])
    (evaded,) = await t.defend("Bandit", attack, "Evade", [1, 2])
    assert evaded["success"] is False
    ex = await t.exchange()
    assert choices(ex) == {"Tank": 2, "Armour": 0, "TakeIt": 0}
    await t.defend("Bandit", attack, "Parry", [6, 6], expect=422)
    await t.defend("Bandit", attack, "Evade", [6, 6], expect=422)
    tanked, hit, ended = await t.defend("Bandit", attack, "Tank")
    assert (tanked["defence"], tanked["action_points"], tanked["dice"]) == ("Tank", 2, [])
    assert (hit["damage"], hit["hits"]) == (1, 1)
    assert ended["result"] == "tanked"
    bandit = await t.sheet("Bandit")
    assert [p["durability"] for p in bandit["armour"]] == [2, 2, 1]  # armour untouched
    assert await t.ap("Bandit") == 0
    await assert_replays(t, conn)


async def test_a_critical_miss_and_the_gm_resolving_the_mishap(client: Any, conn: Any) -> None:
    """ "If you fail to roll the target difficulty value, and you roll the same number on both
    dice, then that counts as a Critical Miss. ... This can be selected directly by the GM, or
    rolled using a D6." "3. Your weapon slips from your fingers and slides across the floor"
    "5. ... Lose one Action Point." """
    t = await Table(client).open(PLAYERS_FIRST)
    declared, rolled, marked = await t.attack("Mira", "Bandit", [3, 3], attack="LightMelee", weapon="Knife",
                                              band="Melee")
    assert rolled["outcome"] == "Critical Miss"
    # "Whenever you make a roll that results in either a Critical Success or a Critical Failure, mark the box
    # next to the Skill you used on your Character Sheet"
    assert (marked["type"], marked["combatant_id"], marked["skill"]) == ("SkillMarked", t.id("Mira"), "Knife")
    assert (await t.sheet("Mira"))["marked_skills"] == ["Knife"]
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"]) == ("mishap", "gm")
    assert [c["name"] for c in ex["choices"]] == ["1", "2", "3", "4", "5", "6", "roll"]
    # The mishap is the GM's: a player token is refused.
    refused = await t.send("Mira", "ResolveMishap", attack=attack, result=1, expect=403)
    assert refused["code"] == "gm_only"
    suffered, ended = flat(await t.gm("ResolveMishap", attack=attack, result=3))
    assert (suffered["result"], suffered["combatant_id"], suffered["die"]) == (3, t.id("Mira"), None)
    assert ended["result"] == "critical miss"
    assert await t.exchange() is None
    assert (await t.sheet("Mira"))["dropped_weapons"] == ["Knife"]
    # The knife is no longer at hand.
    await t.send("Mira", "Attack", [5, 6], expect=422, combatant_id=t.id("Mira"), target=t.id("Bandit"),
                 attack="LightMelee", weapon="Knife", band="Melee")

    # Unarmed (Brawling D6 + Strength D10): 2 + 2 = 4: another Critical Miss; the GM rolls the D6.
    declared, rolled, marked = await t.attack("Mira", "Bandit", [2, 2], attack="LightMelee", band="Melee")
    assert (declared["weapon"], declared["base_damage"], rolled["outcome"]) == ("Unarmed", 0, "Critical Miss")
    assert marked["skill"] == "Brawling" and (await t.sheet("Mira"))["marked_skills"] == ["Knife", "Brawling"]
    assert await t.ap("Mira") == 1
    suffered, _ = flat(await t.gm("ResolveMishap", [5], attack=declared["attack_id"]))
    assert suffered["result"] == 5 and suffered["die"]["sides"] == 6 and suffered["die"]["face"] == 5
    assert await t.ap("Mira") == 0
    await assert_replays(t, conn)


async def test_a_critical_knockdown_then_stand(client: Any, conn: Any) -> None:
    """Critical Hits: "Knockdown: In addition to the damage you cause, your target is knocked
    down and is considered Prone until they can regain their feet on their turn." "Stand
    (1 AP): ... You must spend 1 Action Point to get back up again." And the turn cannot end
    while the exchange waits for a decision."""
    t = await Table(client).open(PLAYERS_FIRST)
    # 8 + 8 = 16 over Normal with a pair: a Critical Success with 2 extra Successes.
    declared, rolled, _ = await t.attack("Mira", "Bandit", [8, 8], attack="LightMelee", weapon="Knife", band="Melee")
    assert (rolled["outcome"], rolled["extra"]) == ("Critical Success", 2)
    attack = declared["attack_id"]
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"]) == ("critical", t.id("Mira"))
    assert [c["name"] for c in ex["choices"]] == [
        "UnavoidableHit", "BypassArmour", "Knockdown", "Knockback", "Disarm", "InflictCondition",
        "ForceMoraleCheck", "RefundActionPoint"]
    refused = await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"), expect=422)
    assert refused["code"] == "exchange_pending"
    await t.send("Mira", "ChooseCriticalEffect", combatant_id=t.id("Mira"), attack=attack, effect="Knockdown")
    assert (await t.exchange())["stage"] == "spend"
    await t.send("Mira", "SpendSuccesses", combatant_id=t.id("Mira"), attack=attack,
                 split=["Precision", "Precision"])
    ex = await t.exchange()
    assert (ex["stage"], ex["defence_difficulty"], ex["critical"]) == ("defence", "Hard", "Knockdown")
    refused = await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"), expect=422)
    assert refused["code"] == "exchange_pending"
    # The armour stops both Hits; the Critical's Knockdown still lands.
    took, prone, ended = await t.defend("Bandit", attack, "Armour")
    assert (took["damage"], took["damage_through"], ended["type"]) == (2, 0, "ExchangeEnded")
    assert (await t.sheet("Bandit"))["hits"] == 0
    assert prone == {"type": "KnockedProne", "combatant_id": t.id("Bandit"), "reason": "Knockdown"}
    assert (await t.sheet("Bandit"))["prone"] is True

    # Standing up is the Bandit's, on their turn: Mira cannot stand when not Prone.
    refused = await t.send("Mira", "TakeAction", combatant_id=t.id("Mira"), action="Stand", expect=422)
    assert refused["code"] == "not_prone"
    await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"))
    await t.send("Kess", "EndTurn", combatant_id=t.id("Kess"))
    assert (await t.state())["turn"] == t.id("Bandit")
    before = await t.ap("Bandit")
    (stood,) = flat(await t.gm("TakeAction", combatant_id=t.id("Bandit"), action="Stand"))
    assert (stood["action"], stood["action_points"]) == ("Stand", 1)
    assert await t.ap("Bandit") == before - 1
    assert (await t.sheet("Bandit"))["prone"] is False
    await assert_replays(t, conn)


async def test_the_gm_answers_for_a_player_who_left(client: Any, conn: Any) -> None:
    """Issue 5: "The GM can resolve a stalled decision (a player who left) with a GM command,
    recorded as the GM's." The defender's own token may answer; another player's may not."""
    t = await Table(client).open(GM_FIRST)
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    refused = await t.defend("Mira", attack, "TakeIt", sender="Kess", expect=403)
    assert refused["code"] == "not_your_combatant"
    # A player cannot answer an attack aimed at someone else with their own combatant either.
    await t.send("Kess", "Defend", expect=422, combatant_id=t.id("Kess"), attack=attack, defence="TakeIt")
    out = await t.send(None, "Defend", combatant_id=t.id("Mira"), attack=attack, defence="Armour")
    assert types(flat(out)) == ["ArmourTook", "HitsTaken", "ExchangeEnded"]
    for event in out["events"]:
        assert event["metadata"]["actor"]["role"] == "gm"
        assert event["metadata"]["command"] == "Defend"
    r = await client.get(f"/encounters/{t.enc}/events", params={"after": out["events"][0]["version"] - 1})
    stored = r.json()["events"]
    assert [e["metadata"]["actor"]["role"] for e in stored] == ["gm"] * 3
    # The Coat takes 1 of the Knife's 2 Hits.
    mira = await t.sheet("Mira")
    assert (mira["hits"], mira["armour"][0]["durability"]) == (1, 1)

    # Mira's own token answers the next attack, and the metadata says so.
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    out = await t.send("Mira", "Defend", combatant_id=t.id("Mira"), attack=declared["attack_id"], defence="TakeIt")
    assert {e["metadata"]["actor"]["role"] for e in out["events"]} == {"player"}
    await assert_replays(t, conn)


# ------------------------------------------------- issue 17: rules the server got wrong


async def next_turn_of(t: Table, who: str) -> None:
    """End turns (each with the token that may) until it is ``who``'s."""
    for _ in range(6):
        turn = (await t.state())["turn"]
        if turn == t.id(who):
            return
        name = next(n for n, cid in t.ids.items() if cid == turn)
        await t.send(name, "EndTurn", combatant_id=turn)
    raise AssertionError(f"{who}'s turn never came")


async def test_cheat_death_brings_the_character_back_to_act(client: Any, conn: Any) -> None:
    """Hero Points: "Cheat Death, restoring your Character to a single Hit rather than having
    them die". The Bandit's Axe puts 7 Hits on Kess (dead: "exceed the number needed to render
    the target Helpless by more than two"); her Hero Point leaves her alive at a single Hit,
    and on her turn she acts."""
    t = await Table(client).open(GM_FIRST)
    await t.gm("StartSession")
    declared, _ = await t.attack("Bandit", "Kess", [10, 7], attack="LightMelee", weapon="Axe", band="Melee")
    attack = declared["attack_id"]
    await t.send("Bandit", "SpendSuccesses", combatant_id=t.id("Bandit"), attack=attack, split=["Damage", "Damage"])
    (blow,) = await t.defend("Kess", attack, "TakeIt")
    assert blow["type"] == "LethalBlow"  # the Bandit lets it land
    hit, _ = flat(await t.send("Bandit", "PullYourPunch", combatant_id=t.id("Bandit"), attack=attack, pull=False))
    assert (hit["damage"], hit["dead"]) == (7, True)
    out = await t.send("Kess", "SpendHeroPoint", combatant_id=t.id("Kess"), use="CheatDeath")
    kess = out["state"]["combatants"][t.id("Kess")]["sheet"]
    assert (kess["dead"], kess["hits"], kess["hero_points"]) == (False, 1, 0)
    await next_turn_of(t, "Kess")
    (dashed,) = flat(await t.send("Kess", "TakeAction", combatant_id=t.id("Kess"), action="Dash"))
    assert (dashed["action"], dashed["action_points"]) == ("Dash", 1)
    await assert_replays(t, conn)


SHIELD = {"name": "Shield", "skill": "Knife", "kind": "melee", "shield": True,
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}


async def test_a_mishap_4_against_a_shield_leaves_the_attacker_prone(client: Any, conn: Any) -> None:
    """Critical Miss - Melee: "4. You crash into your opponent suffering the Weakened
    Condition. If they armed with a shield then you also become Prone." """
    t = await Table(client).open(PLAYERS_FIRST, bandit={**BANDIT, "weapons": [KNIFE, SHIELD]})
    declared, rolled, _ = await t.attack("Mira", "Bandit", [3, 3], attack="LightMelee", weapon="Knife", band="Melee")
    assert rolled["outcome"] == "Critical Miss"
    suffered, prone, ended = flat(await t.gm("ResolveMishap", attack=declared["attack_id"], result=4))
    assert (suffered["result"], ended["result"]) == (4, "critical miss")
    assert prone == {"type": "KnockedProne", "combatant_id": t.id("Mira"), "reason": "crashed into a shield"}
    mira = await t.sheet("Mira")
    assert (mira["conditions"], mira["prone"]) == (["Weakened"], True)
    log = (await client.get(f"/encounters/{t.enc}/log")).json()
    assert any("Mira is Prone (crashed into a shield)." in line["sentence"] for line in log["entries"]), log
    await assert_replays(t, conn)


async def test_an_action_point_regains_the_balance_a_mishap_2_took(client: Any, conn: Any) -> None:
    """Critical Miss - Melee: "2. You are left unbalanced and struggling to keep your feel. You
    can spend an Action Point to regain your balance, otherwise you cannot use Evade, Parry, or
    Dive for the rest of this round." Mira's player spends it when the Bandit attacks her."""
    info = (await client.get("/rulesets/places-of-power")).json()
    (doc,) = [c for c in info["commands"] if c["type"] == "RegainBalance"]
    assert "regain your balance" in doc["summary"] and doc["summary"].endswith(".")
    t = await Table(client).open(PLAYERS_FIRST)
    declared, *_ = await t.attack("Mira", "Bandit", [3, 3], attack="LightMelee", weapon="Knife", band="Melee")
    await t.gm("ResolveMishap", attack=declared["attack_id"], result=2)
    await next_turn_of(t, "Bandit")
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    assert choices(await t.exchange()) == {"Tank": 2, "Armour": 0, "TakeIt": 0}
    refused = await t.defend("Mira", declared["attack_id"], "Evade", [6, 5], expect=422)
    assert refused["code"] == "defence_not_allowed"
    out = await t.send("Mira", "RegainBalance", combatant_id=t.id("Mira"))
    assert flat(out) == [{"type": "BalanceRegained", "combatant_id": t.id("Mira"), "action_points": 1}]
    assert choices(out["state"]["rules"]["exchange"]) == {"Evade": 1, "Parry": 1, "Armour": 0, "TakeIt": 0}
    again = await t.send("Mira", "RegainBalance", combatant_id=t.id("Mira"), expect=422)
    assert again["code"] == "not_off_balance"
    evaded, ended = await t.defend("Mira", declared["attack_id"], "Evade", [6, 5])
    assert (evaded["success"], ended["result"]) == (True, "avoided")
    assert await t.ap("Mira") == 0
    log = (await client.get(f"/encounters/{t.enc}/log")).json()
    assert any(e["sentence"] == "Mira regains their balance (1 AP): Evade, Parry and Dive again this round."
               for e in log["entries"]), log
    await assert_replays(t, conn)


async def test_a_deafened_defender_attacked_from_behind_has_only_armour_for_the_first_blow(
        client: Any, conn: Any) -> None:
    """Deafened: "If attacked from behind you cannot mount an active defence until after the
    first blow." No Defensive Action, Tank included ("Damage can be avoided actively, by way of
    Defensive Actions, or more passively, by the use of Armour"): the armour, or taking it.
    After that first blow, the next one from behind may be defended."""
    t = await Table(client).open(GM_FIRST)
    await t.gm("ApplyStatus", combatant_id=t.id("Mira"), status="Deafened")
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee",
                                 from_behind=True)
    attack = declared["attack_id"]
    assert choices(await t.exchange()) == {"Armour": 0, "TakeIt": 0}
    for defence in ("Tank", "Evade", "Parry"):
        refused = await t.defend("Mira", attack, defence, [6, 5] if defence != "Tank" else None, expect=422)
        assert refused["code"] == "defence_not_allowed"
    await t.defend("Mira", attack, "Armour")
    await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee", from_behind=True)
    assert choices(await t.exchange()) == {"Evade": 1, "Parry": 1, "Tank": 2, "Armour": 0, "TakeIt": 0}
    await assert_replays(t, conn)


async def test_breaking_free_pays_its_penalty_point_with_a_die(client: Any, conn: Any) -> None:
    """Grapple: "your opponent can attempt to break free or turn the tables by way of an Opposed
    Brawling Roll, with a 1 Point Penalty"; Penalty Points: "the Player is free to select the
    specific penalty or penalties of their choice" - "Reduce Dice Value". Mira steps her
    Brawling D6 down to a D4 and keeps her Action Points; a difficulty she cannot raise."""
    brawler = {**BANDIT, "skills": {**BANDIT["skills"], "Brawling": "D8"}}
    t = await Table(client).open(GM_FIRST, bandit=brawler)
    (held,) = flat(await t.send("Bandit", "Grapple", [10, 8, 1, 1], combatant_id=t.id("Bandit"),
                                target=t.id("Mira")))
    assert held["held"] is True
    await next_turn_of(t, "Mira")
    refused = await t.send("Mira", "BreakFree", [10, 4, 1, 1], expect=422, combatant_id=t.id("Mira"),
                           penalties=["IncreaseDifficulty"])
    assert refused["code"] == "penalty_not_applicable" and "opposed" in refused["detail"]
    (broke,) = flat(await t.send("Mira", "BreakFree", [10, 4, 1, 1], combatant_id=t.id("Mira"),
                                 penalties=["StepDownDie:1"]))
    assert [d["sides"] for d in broke["roll"]["sides"][0]["dice"]] == [10, 4]
    assert (broke["freed"], broke["action_points"]) == (True, 2)
    assert await t.ap("Mira") == 1
    assert (await t.state())["rules"]["grapples"] == {}
    await assert_replays(t, conn)


async def test_an_npcs_marked_skill_is_its_sheets_and_a_player_sees_only_that_one_is_marked(client: Any,
                                                                                            conn: Any) -> None:
    """Levelling Up Skills: "mark the box next to the Skill you used on your Character Sheet". The
    Bandit's critical miss marks his Knife; which skill it is, is a value of his sheet, which a
    player does not see (DESIGN: "a player learns nothing of an NPC's sheet on any path")."""
    t = await Table(client).open(GM_FIRST)
    declared, rolled, marked = flat(await t.gm("Attack", [3, 3], combatant_id=t.id("Bandit"), target=t.id("Mira"),
                                               attack="LightMelee", weapon="Knife", band="Melee"))
    assert (rolled["outcome"], marked["type"], marked["skill"]) == ("Critical Miss", "SkillMarked", "Knife")
    events = (await client.get(f"/encounters/{t.enc}/events", headers=t.tokens["Mira"])).json()["events"]
    [seen] = [e["data"] for e in events if e["type"] == "SkillMarked"]
    assert seen == {"type": "SkillMarked", "combatant_id": t.id("Bandit")}
    told = (await client.get(f"/encounters/{t.enc}/log", params={"format": "text"}, headers=t.tokens["Mira"])).text
    assert "The Bandit's skill is marked for levelling." in told and "Knife is marked" not in told
