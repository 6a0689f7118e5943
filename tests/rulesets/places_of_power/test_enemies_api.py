"""Enemies, Morale, Demand Surrender and Suppression through HTTP, against the real server and
PostgreSQL, with reported dice. Every test ends by replaying the stored events and comparing
the result with what the server serves the GM.

Rules quoted are from ../shared/rules/places-of-power-combat.txt. Mira is a player (with her
own token); the Brute and the Coward are the GM's Enemies with Stat Blocks, the Thug an NPC
without one (its sheet's Willpower is its Morale).
"""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, open_encounter, seat_party
from tests.rulesets.places_of_power.test_attack_exchange_api import assert_replays, flat

CLUB = {"name": "Club", "skill": "Melee", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
BOW = {"name": "Bow", "skill": "Ranged", "kind": "ranged", "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
MIRA = {"attributes": {"strength": "D8", "agility": "D8", "dexterity": "D8"},
        "skills": {"Persuasion": "D8", "Knife": "D8", "Pistol": "D8", "Athletics": "D8"}, "weapons": [KNIFE, PISTOL]}


def enemy(morale: int, **block: Any) -> dict[str, Any]:
    return {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Melee": "D8", "Ranged": "D8",
                                                                         "Athletics": "D8"},
            "weapons": [CLUB, BOW], "stat_block": {"morale": morale, **block}}


BRUTE = enemy(12, set_actions=["Light Melee Attack", "Parry"], abilities=["Fights to the last"],
              special_actions=[{"name": "Rally", "action_points": 1},
                               {"name": "War Cry", "action_points": 1, "once_per_combat": True}])
COWARD = enemy(8)
THUG = {"willpower": 9}


class Table:
    """Mira, then the NPCs (initiative: Mira's 12, the GM's 1), round 1 begun. ``client``
    speaks as the GM."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.enc = ""
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, dict[str, str]] = {}

    async def open(self, **npcs: dict[str, Any]) -> Table:
        self.enc = await open_encounter(self.client, dice_policy="reported")
        self.ids, self.tokens = await seat_party(self.client, self.enc, {
            "Mira": ("player", MIRA), **{name: ("gm", sheet) for name, sheet in npcs.items()}})
        await self.send(None, "RollInitiative", [12, 1])
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

    async def state(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/encounters/{self.enc}", headers=headers)
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def end_turn(self, who: str) -> None:
        await self.send("Mira" if who == "Mira" else None, "EndTurn", combatant_id=self.ids[who])

    async def act(self, who: str, action: str, *, expect: int = 200) -> Any:
        return await self.send("Mira" if who == "Mira" else None, "TakeAction", expect=expect,
                               combatant_id=self.ids[who], action=action)


async def test_an_enemy_does_only_what_its_stat_block_lists(client: Any, conn: Any) -> None:
    """"each Enemy only has a limited number of Set Actions that they can perform ... they cannot
    have the Enemy do something that is not listed." The block stays the GM's: players see the
    Brute's wounds, not its Abilities."""
    t = await Table(client).open(Brute=BRUTE)
    seen = await t.state(t.tokens["Mira"])
    assert "stat_block" not in (seen["combatants"][t.ids["Brute"]]["sheet"] or {})
    assert (await t.state())["combatants"][t.ids["Brute"]]["sheet"]["stat_block"]["abilities"] == \
        ["Fights to the last"]
    await t.end_turn("Mira")
    heavy = dict(combatant_id=t.ids["Brute"], target=t.ids["Mira"], attack="HeavyMelee", band="Melee", weapon="Club")
    refused = await t.send(None, "Attack", [4, 4], expect=422, **heavy)
    assert refused["code"] == "not_a_set_action" and "Light Melee Attack" in refused["detail"]
    events = await t.send(None, "Attack", [1, 2], **{**heavy, "attack": "LightMelee"})
    assert events[0]["type"] == "AttackDeclared" and events[0]["attack"] == "LightMelee"
    await assert_replays(t, conn)


async def test_an_enemys_defence_choices_are_its_set_actions(client: Any, conn: Any) -> None:
    """Set Actions: "This applies to both Offensive and Defensive Actions." The Brute lists Parry,
    not Evade nor Tank: the exchange's choices (the legal ones) are exactly what Defend accepts."""
    t = await Table(client).open(Brute=BRUTE)
    events = await t.send("Mira", "Attack", [4, 6], combatant_id=t.ids["Mira"], target=t.ids["Brute"],
                          attack="LightMelee", band="Melee", weapon="Knife")
    attack = events[0]["attack_id"]
    ex = (await t.state())["rules"]["exchange"]
    assert {c["name"]: c["action_points"] for c in ex["choices"]} == {"Parry": 1, "TakeIt": 0}
    for defence in ("Evade", "Tank"):
        refused = await t.send(None, "Defend", [4, 4], expect=422, combatant_id=t.ids["Brute"], attack=attack,
                               defence=defence)
        assert refused["code"] == "not_a_set_action"
    parried = await t.send(None, "Defend", [1, 2], combatant_id=t.ids["Brute"], attack=attack, defence="Parry")
    assert parried[0]["success"] is False
    ex = (await t.state())["rules"]["exchange"]
    assert [c["name"] for c in ex["choices"]] == ["TakeIt"]
    await t.send(None, "Defend", combatant_id=t.ids["Brute"], attack=attack, defence="TakeIt")
    await assert_replays(t, conn)


async def test_one_special_action_a_turn_and_some_once_per_combat(client: Any, conn: Any) -> None:
    """"Only a single Special Action can be used per turn, with some being limited to a single use
    per Combat.\""""
    t = await Table(client).open(Brute=BRUTE)
    await t.end_turn("Mira")
    brute = t.ids["Brute"]
    (used,) = await t.send(None, "UseSpecialAction", combatant_id=brute, name="War Cry", note="the goons rally")
    assert used["type"] == "SpecialActionUsed" and used["action_points"] == 1
    refused = await t.send(None, "UseSpecialAction", combatant_id=brute, name="Rally", expect=422)
    assert refused["code"] == "special_action_this_turn"
    await t.end_turn("Brute")
    await t.end_turn("Mira")
    refused = await t.send(None, "UseSpecialAction", combatant_id=brute, name="War Cry", expect=422)
    assert refused["code"] == "special_action_spent"
    await t.send(None, "UseSpecialAction", combatant_id=brute, name="Rally")
    served = await assert_replays(t, conn)
    assert served["combatants"][brute]["action_points"] == 3


async def test_one_morale_roll_for_all_the_remaining_npcs_and_the_fled_cannot_act(client: Any, conn: Any) -> None:
    """"Force Morale Check: ... any remaining enemies must perform an immediate Morale Check.
    Those that fail this check will flee the battle. The GM can roll a single check for all of
    the remaining NPCs." One D20 (9): the Coward (Morale 8) flees, the Brute (12) and the Thug
    (Willpower 9) hold."""
    t = await Table(client).open(Brute=BRUTE, Coward=COWARD, Thug=THUG)
    (checked,) = await t.send(None, "MoraleCheck", [9], side="enemies", reason="Force Morale Check")
    assert len(checked["dice"]) == 1 and checked["fled"] == [t.ids["Coward"]]
    assert [x["held"] for x in checked["tests"]] == [True, False, True]
    await t.end_turn("Mira")
    await t.end_turn("Brute")
    refused = await t.act("Coward", "Dash", expect=422)
    assert refused["code"] == "fled"
    await t.end_turn("Coward")
    served = await assert_replays(t, conn)
    assert served["rules"]["morale"]["fled"] == [t.ids["Coward"]]


async def test_demand_surrender_drops_the_weapons(client: Any, conn: Any) -> None:
    """"Demand Surrender (2 AP): ... an Opposed Roll between your Persuasion + Strength and the
    target's Morale level. If you are successful then your target will immediate drop any weapon
    they have in their hands." Mira's 6 + 7 beats the Brute's Morale 12."""
    t = await Table(client).open(Brute=BRUTE)
    (demanded,) = await t.send("Mira", "DemandSurrender", [6, 7], combatant_id=t.ids["Mira"], target=t.ids["Brute"])
    assert demanded["success"] is True and demanded["weapons_dropped"] == ["Club", "Bow"]
    served = await assert_replays(t, conn)
    assert served["combatants"][t.ids["Brute"]]["sheet"]["dropped_weapons"] == ["Club", "Bow"]
    assert served["rules"]["morale"]["surrendered"] == [t.ids["Brute"]]
    assert served["combatants"][t.ids["Mira"]]["action_points"] == 1


async def test_suppression_pins_an_npc_in_cover_for_the_round(client: Any, conn: Any) -> None:
    """"Suppression (2 AP): Requires the player to have a loaded ranged weapon, and the target or
    targets to be behind cover. Fire a shot at the cover to trigger a standard Morale Check in all
    targets behind it. Any NPCs that fail the check are unable to act this round, and must remain
    in cover.\""""
    t = await Table(client).open(Coward=COWARD)
    mira, coward = t.ids["Mira"], t.ids["Coward"]
    refused = await t.send("Mira", "Suppression", [1], expect=422, combatant_id=mira, targets=[coward])
    assert refused["code"] == "not_in_cover"
    await t.end_turn("Mira")
    await t.act("Coward", "TakeCover")
    await t.end_turn("Coward")
    (fired,) = await t.send("Mira", "Suppression", [15], combatant_id=mira, targets=[coward])
    assert fired["suppressed"] == [coward] and fired["weapon"] == "Pistol"
    await t.end_turn("Mira")
    refused = await t.send(None, "Attack", [1, 2], expect=422, combatant_id=coward, target=mira, attack="Ranged",
                           band="Near", weapon="Bow")
    assert refused["code"] == "suppressed"
    await t.end_turn("Coward")  # round 3: free again
    await t.end_turn("Mira")
    await t.act("Coward", "NotchArrow")
    served = await assert_replays(t, conn)
    assert served["rules"]["morale"]["suppressed"] == []
