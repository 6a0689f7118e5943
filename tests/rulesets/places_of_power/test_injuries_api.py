"""Injuries after the fight through HTTP, against the real server and PostgreSQL, with reported
dice (places-of-power-combat.txt, "Injuries").

Mira (player) comes in with one Injury and takes a second from the Bandit's Club; Doc, the
village surgeon (a player, not in Mira's party, so Mira may treat herself with Medical), treats
her after the fight. The GM sets each Injury's terms, then days pass until she has recovered.
"""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command, mint, open_encounter
from tests.rulesets.places_of_power.test_attack_exchange_api import Table, assert_replays, flat

CLUB = {"name": "Club", "skill": "Club", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
SHEETS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "Mira": ("player", "party", {"attributes": {"dexterity": "D8"}, "skills": {"Medical": "D8"}, "injuries": 1}),
    "Doc": ("player", "village", {"attributes": {"dexterity": "D8"}, "skills": {"Surgery": "D10"}}),
    "Bandit": ("gm", "enemies", {"attributes": {"strength": "D8"}, "skills": {"Club": "D8"}, "weapons": [CLUB]}),
}


async def injured(client: Any) -> Table:
    """The fight: the Bandit (first: initiative 1, 1 against the GM's 12) clubs Mira for 2 Hits."""
    t = Table(client)
    t.enc = await open_encounter(client, dice_policy="reported")
    for name, (controller, side, sheet) in SHEETS.items():
        r = await client.post(f"/encounters/{t.enc}/combatants",
                              json={"name": name, "side": side, "controller": controller, "sheet": sheet})
        assert r.status_code == 201, r.text
        t.ids[name] = r.json()["events"][0]["data"]["combatant_id"]
        if controller == "player":
            t.tokens[name] = await mint(client, t.enc, "player", [t.ids[name]])
    await t.gm("RollInitiative", [1, 1, 12])
    await t.gm("StartEncounter")
    declared, _ = flat(await t.send("Bandit", "Attack", [5, 4], combatant_id=t.id("Bandit"), target=t.id("Mira"),
                                    attack="LightMelee", weapon="Club", band="Melee"))
    hit, _ = flat(await t.send("Mira", "Defend", combatant_id=t.id("Mira"), attack=declared["attack_id"],
                               defence="TakeIt"))
    assert (hit["type"], hit["damage"], hit["injuries"]) == ("HitsTaken", 2, 2)
    return t


def records(sheet: dict[str, Any]) -> list[tuple[int, bool, bool, int | None, str | None, bool]]:
    return [(r["number"], r["new"], r["treated"], r["total_recovery_time"], r["permanent_condition"],
             r["needs_surgery"]) for r in sheet["injury_records"]]


async def test_treating_injuries_after_the_fight_and_recovering(client: Any, conn: Any) -> None:
    """ "Injuries cannot be healed during combat." "Once a fight is over, any newly acquired
    Injuries need to be treated ... The GM will set the difficulty of the check". "Every time
    an in game day passes, the Total Recovery Time of the Injury is reduced by one. When the
    Total Recovery Time reaches zero, the Injury is considered to be completely recovered and
    is removed from the players character sheet." """
    t = await injured(client)
    mira = await t.sheet("Mira")
    assert mira["injuries"] == 2
    assert records(mira) == [(1, False, False, None, None, False), (2, True, False, None, None, False)]

    # During the fight: refused, for the healer's player and for the GM alike.
    treat = {"healer": t.id("Doc"), "patient": t.id("Mira"), "injury": 2, "method": "Surgery"}
    problem = await t.send("Doc", "TreatInjury", [4, 6, 3], expect=422, **treat)
    assert problem["code"] == "injuries_not_in_combat"
    assert "Injuries cannot be healed during combat." in problem["detail"]
    terms = {"patient": t.id("Mira"), "difficulty": "Normal", "base_recovery_time": 10, "recovery_die": "D6"}
    assert (await t.gm("SetInjuryTreatment", expect=422, injury=2, **terms))["code"] == "injuries_not_in_combat"
    assert (await t.gm("PassDays", expect=422, days=1))["code"] == "fight_in_progress"

    await t.gm("EndEncounter")
    # The difficulty is the GM's: a player cannot set it, and cannot treat before it is set.
    assert (await t.send("Mira", "SetInjuryTreatment", expect=403, injury=2, **terms))["code"] == "gm_only"
    assert (await t.send("Doc", "TreatInjury", [4, 6, 3], expect=422, **treat))["code"] == "injury_treatment_not_set"
    await t.gm("SetInjuryTreatment", injury=2, permanent_condition="a stiff shoulder", **terms)
    await t.gm("SetInjuryTreatment", injury=1, permanent_condition="a limp", **terms)
    # Mira's token does not act for Doc.
    assert (await t.send("Mira", "TreatInjury", [4, 6, 3], expect=403, **treat))["code"] == "not_your_combatant"

    # "Successful Surgery - ... Base Recovery Time + the rolled Recovery Dice Value": 4 + 6 = 10,
    # a Partial Success at Normal, is a success; the D6 shows 3: 13 days.
    (treated,) = flat(await t.send("Doc", "TreatInjury", [4, 6, 3], **treat))
    assert (treated["type"], treated["outcome"], treated["total_recovery_time"]) == ("InjuryTreated", "Partial Success",
                                                                                    13)
    assert [(d["sides"], d["face"], d["source"]) for d in treated["dice"]] == [(8, 4, "reported"), (10, 6, "reported")]
    assert (treated["recovery_roll"]["sides"], treated["recovery_roll"]["face"]) == (6, 3)

    # "Critically Failed Medical Check - The Injury remains untreated and no Recovery Time is
    # set. The Injury now requires a Surgery Check to resolve, and will result in a Permanent
    # Condition regardless of the success of the Surgery Check." Mira treats herself.
    medical = {"healer": t.id("Mira"), "patient": t.id("Mira"), "injury": 1, "method": "Medical"}
    (botched,) = flat(await t.send("Mira", "TreatInjury", [2, 2], **medical))
    assert (botched["outcome"], botched["total_recovery_time"], botched["needs_surgery"]) == (
        "Critical Failure", None, True)
    assert (await t.send("Mira", "TreatInjury", [5, 6], expect=422, **medical))["code"] == "injury_needs_surgery"
    # Doc's Surgery succeeds fully (6 + 7 = 13), the D6 shows 1: 11 days, and the limp stays.
    (operated,) = flat(await t.send("Doc", "TreatInjury", [6, 7, 1], **{**treat, "injury": 1}))
    assert (operated["outcome"], operated["total_recovery_time"], operated["permanent_condition"]) == (
        "Full Success", 11, "a limp")

    # GET state shows the recovery times, to the GM and to Mira's own player.
    expected = [(1, False, True, 11, "a limp", False), (2, True, True, 13, None, False)]
    assert records(await t.sheet("Mira")) == expected
    r = await client.get(f"/encounters/{t.enc}", headers=t.tokens["Mira"])
    assert r.status_code == 200, r.text
    assert records(r.json()["combatants"][t.id("Mira")]["sheet"]) == expected

    # Days pass: 10 leaves 1 and 3; 1 more heals the first; 2 more the second.
    await t.gm("PassDays", days=10)
    assert [r[3] for r in records(await t.sheet("Mira"))] == [1, 3]
    (passed,) = flat(await t.gm("PassDays", days=1))
    assert passed["recovered"] == [{"combatant_id": t.id("Mira"), "injury": 1}]
    mira = await t.sheet("Mira")
    assert (mira["injuries"], records(mira)) == (1, [(2, True, True, 2, None, False)])
    await t.gm("PassDays", days=2)
    mira = await t.sheet("Mira")
    assert (mira["injuries"], mira["injury_records"]) == (0, [])
    await assert_replays(t, conn)
