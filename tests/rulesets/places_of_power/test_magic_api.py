"""Magical Combat through HTTP, against the real server and PostgreSQL, with reported dice:
a player's damaging spell the target defends against, an Enemy's Set Spells, a healing spell,
the GM's cost table and Mere. Every test ends by replaying the stored events and comparing
the result with what the server serves the GM.

Rules quoted are from ../shared/rules/places-of-power-combat.txt. Mira and Kess are players
(each with their own token), the Witch is the GM's Enemy with a Stat Block.
"""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, open_encounter, seat_party
from tests.rulesets.places_of_power.test_attack_exchange_api import assert_replays, flat

MIRA = {"attributes": {"intelligence": "D8", "empathy": "D6"}, "mere_skills": {"Rosmere": "D8", "Vitamere": "D6"},
        "mere": 10, "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}]}
KESS = {"attributes": {"agility": "D8"}, "skills": {"Athletics": "D6"}, "hits": 2}
WITCH = {
    "attributes": {"empathy": "D8", "agility": "D6"}, "skills": {"Magic": "D8", "Athletics": "D6"}, "mere": 6,
    "armour": [{"name": "Robe", "layer": "Outer", "value": 1, "durability": 2}],
    "stat_block": {"set_actions": ["Light Melee Attack", "Dive"], "set_spells": [
        {"name": "Hex", "mere": "Morimere", "mere_cost": 2, "complexity": 1, "description": "A withering curse."},
    ]},
}


class Table:
    """Mira, Kess, then the Witch (initiative 12, 11 and the GM's 1), round 1 begun. ``client``
    speaks as the GM."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.enc = ""
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, dict[str, str]] = {}

    async def open(self, **sheets: dict[str, Any]) -> Table:
        self.enc = await open_encounter(self.client, dice_policy="reported")
        self.ids, self.tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", sheets.get("mira", MIRA)), "Kess": ("player", sheets.get("kess", KESS)),
            "Witch": ("gm", sheets.get("witch", WITCH))})
        await self.send(None, "RollInitiative", [12, 11, 1])
        await self.send(None, "StartEncounter")
        return self

    async def send(self, who: str | None, kind: str, faces: list[int] | None = None, *, expect: int = 200,
                   **fields: Any) -> Any:
        """A command, as the GM (``who`` None) or with a player's token."""
        body: dict[str, Any] = {"type": kind, **fields}
        if faces is not None:
            body["dice"] = faces
        out = await command(self.client, self.enc, body, expect=expect, **(self.tokens[who] if who else {}))
        return flat(out) if expect == 200 else out

    async def cast(self, who: str | None, caster: str, faces: list[int], *, expect: int = 200, **fields: Any) -> Any:
        return await self.send(who, "CastSpell", faces, expect=expect, combatant_id=self.ids[caster], **fields)

    async def state(self) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def sheet(self, who: str) -> dict[str, Any]:
        return dict((await self.state())["combatants"][self.ids[who]]["sheet"])

    async def ap(self, who: str) -> int:
        return int((await self.state())["combatants"][self.ids[who]]["action_points"])

    async def end_turn(self, who: str) -> None:
        await self.send(who if who in self.tokens else None, "EndTurn", combatant_id=self.ids[who])


async def test_a_player_casts_a_damaging_spell_the_target_defends_and_hits_land(client: Any, conn: Any) -> None:
    """"your spells do 1 Hit of Base damage for each level of complexity involved in the spell":
    Mira's two-modifier Firebolt (3 Hits) is an attack; the Witch tries to Dive, fails, and takes
    it on her Robe. Action Points and Mere are spent by the complexity (our default: 3 and 3)."""
    t = await Table(client).open()
    # Intelligence D8 + Rosmere D8: 4 + 6 = 10 at Normal: a hit, no extra Success.
    cast, declared, rolled = await t.cast("Mira", "Mira", [4, 6], spell="Firebolt", attribute="intelligence",
                                          mere="Rosmere", complexity=2, target=t.ids["Witch"], band="Near")
    assert (cast["type"], cast["mere_spent"], cast["attack_id"]) == ("SpellCast", 3, declared["attack_id"])
    assert (declared["type"], declared["attack"], declared["weapon"], declared["base_damage"],
            declared["action_points"]) == ("AttackDeclared", "Spell", "Firebolt", 3, 3)
    assert (rolled["total"], rolled["outcome"]) == (10, "Partial Success")
    assert (await t.ap("Mira"), (await t.sheet("Mira"))["mere"]) == (0, 7)
    ex = (await t.state())["rules"]["exchange"]
    assert (ex["stage"], ex["awaiting"], ex["damage"]) == ("defence", t.ids["Witch"], 3)
    # her Set Actions list Dive, not Tank: only what Defend accepts is offered
    assert {c["name"] for c in ex["choices"]} == {"Dive", "Armour", "TakeIt"}

    # Dive: Agility D6 + Athletics D6 = 3 + 5 = 8 < Normal (9): failed, and Prone.
    (dived, prone) = await t.send(None, "Defend", [3, 5], combatant_id=t.ids["Witch"], attack=declared["attack_id"],
                                  defence="Dive")
    assert (dived["success"], prone["type"]) == (False, "KnockedProne")
    took, hits, ended = await t.send(None, "Defend", combatant_id=t.ids["Witch"], attack=declared["attack_id"],
                                     defence="Armour")
    assert (took["damage"], took["damage_through"]) == (3, 2)
    assert (hits["type"], hits["damage"], hits["hits"]) == ("HitsTaken", 2, 2)
    assert ended["result"] == "hit"
    assert (await t.sheet("Witch"))["hits"] == 2

    # Out of Action Points now: the next spell is refused, and nothing is recorded.
    refused = await t.cast("Mira", "Mira", [4, 6], expect=422, spell="Spark", attribute="intelligence",
                           mere="Rosmere", complexity=0, target=t.ids["Witch"], band="Near")
    assert refused["code"] == "not_enough_action_points"
    await assert_replays(t, conn)


async def test_an_enemy_casts_its_set_spell_and_is_refused_an_unlisted_one(client: Any, conn: Any) -> None:
    """"Enemies, if they use magic at all, have a list of Set Spells they can use. These Spells
    have a Mere type, a Mere Cost, and a Description of what they do." The Witch rolls Magic."""
    t = await Table(client).open()
    await t.end_turn("Mira")
    await t.end_turn("Kess")
    refused = await t.cast(None, "Witch", [4, 6], expect=422, spell="Firebolt", attribute="empathy",
                           target=t.ids["Mira"], band="Close")
    assert refused["code"] == "unknown_spell"
    cast, declared, rolled = await t.cast(None, "Witch", [4, 6], spell="Hex", attribute="empathy",
                                          target=t.ids["Mira"], band="Close")
    assert (cast["mere"], cast["complexity"], cast["mere_spent"]) == ("Morimere", 1, 2)
    assert declared["base_damage"] == 2
    assert [d["purpose"] for d in rolled["dice"]] == [f"attack {declared['attack_id']}: Empathy",
                                                      f"attack {declared['attack_id']}: Magic"]
    assert ((await t.sheet("Witch"))["mere"], await t.ap("Witch")) == (4, 1)
    # Mira takes it: no Dive at Close range, no Evade against a spell.
    ex = (await t.state())["rules"]["exchange"]
    assert {c["name"] for c in ex["choices"]} == {"Armour", "TakeIt"}
    hits, ended = await t.send("Mira", "Defend", combatant_id=t.ids["Mira"], attack=declared["attack_id"],
                               defence="TakeIt")
    assert (hits["damage"], hits["hits"], hits["injuries"]) == (2, 2, 1)  # two Hits at once: an Injury
    await assert_replays(t, conn)


async def test_a_healing_spell_heals_after_status_effects_are_resolved(client: Any, conn: Any) -> None:
    """"If a spell is used for healing purposes, then the number of Hits healed is equal to the
    Base Damage associated with the spell's complexity." "Status Effects must always be resolved
    before you can treat any Hits a target has suffered." The GM sets the costs and Mere."""
    t = await Table(client).open()
    costs = [{"action_points": 1, "mere": 1, "difficulty": "Easy"}, {"action_points": 2, "mere": 3},
             {"action_points": 3, "mere": 5}, {"action_points": 4, "mere": 7}]
    # The cost table and Mere are the GM's: a player token is refused.
    assert (await t.send("Mira", "SetSpellCosts", expect=403, costs=costs))["code"] == "gm_only"
    assert (await t.send("Mira", "SetMere", expect=403, combatant_id=t.ids["Mira"], mere=99))["code"] == "gm_only"
    (table,) = await t.send(None, "SetSpellCosts", costs=costs)
    assert table["type"] == "SpellCostsSet"
    flat_costs = [{"action_points": 2, "mere": 2}] * 4
    assert (await t.send(None, "SetSpellCosts", expect=422, costs=flat_costs))["code"] == "spell_costs_must_rise"

    await t.send(None, "ApplyStatus", combatant_id=t.ids["Kess"], status="Bleeding")
    mend = {"spell": "Mend", "attribute": "empathy", "mere": "Vitamere", "complexity": 1, "healing": True,
            "target": t.ids["Kess"]}
    assert (await t.cast("Mira", "Mira", [4, 5], expect=422, **mend))["code"] == "statuses_first"
    await t.send(None, "RemoveStatus", combatant_id=t.ids["Kess"], status="Bleeding")

    # Empathy D6 + Vitamere D6: 4 + 5 = 9 at Normal (the GM's complexity 1): 2 Hits healed.
    cast, rolled = await t.cast("Mira", "Mira", [4, 5], **mend)
    assert (cast["mere_spent"], rolled["type"], rolled["action_points"], rolled["hits_healed"]) == (
        3, "SpellRolled", 2, 2)
    assert (await t.sheet("Kess"))["hits"] == 0
    assert ((await t.sheet("Mira"))["mere"], await t.ap("Mira")) == (7, 1)

    await t.send(None, "SetMere", combatant_id=t.ids["Mira"], mere=0)
    refused = await t.cast("Mira", "Mira", [4, 5], expect=422, spell="Spark", attribute="intelligence",
                           mere="Rosmere", complexity=0)
    assert refused["code"] == "not_enough_mere"
    await assert_replays(t, conn)
