"""Morale Checks, Demand Surrender and Suppression."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.encounter import AddCombatant, Command, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import Attack, Defend
from domain.places_of_power.enemies import UseSpecialAction
from domain.places_of_power.morale import DemandSurrender, MoraleCheck, MoraleChecked, Suppression, morale
from tests.rulesets.places_of_power.fight import Fight

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
CLUB = {"name": "Club", "skill": "Melee", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
BOW = {"name": "Bow", "skill": "Ranged", "kind": "ranged", "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
MIRA = {"attributes": {"strength": "D8", "agility": "D8", "dexterity": "D8"},
        "skills": {"Persuasion": "D8", "Knife": "D8", "Pistol": "D8", "Athletics": "D8"}, "weapons": [KNIFE, PISTOL]}


def goon(morale: int = 10, **block: Any) -> dict[str, Any]:
    return {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Melee": "D8", "Ranged": "D8",
                                                                         "Athletics": "D8"},
            "weapons": [CLUB, BOW], "stat_block": {"morale": morale, **block}}


def fight(**npcs: dict[str, Any]) -> Fight:
    """Mira (a player) acts first, then the NPCs in the order given, all on side "enemies"."""
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=MIRA))
    for cid, sheet in npcs.items():
        f.send(AddCombatant(combatant_id=cid, name=cid.capitalize(), side="enemies", controller="gm", sheet=sheet))
    f.send(RollInitiative(dice=[12, 1]))
    f.send(StartEncounter())
    return f


def refused(f: Fight, command: Command) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.send(command)
    assert f.state == before
    return e.value


# --------------------------------------------------------------------------- morale check


def test_one_roll_for_all_the_remaining_npcs() -> None:
    """"any remaining enemies must perform an immediate Morale Check. Those that fail this check
    will flee the battle. The GM can roll a single check for all of the remaining NPCs." A D20 at
    or under the Morale value holds ("If they roll less than or equal to the ... value then their
    willpower/morale held")."""
    f = fight(brute=goon(12), coward=goon(8), thug={"willpower": 9})
    (checked,) = f.send(MoraleCheck(side="enemies", reason="Force Morale Check", dice=[9]))
    assert isinstance(checked, MoraleChecked) and len(checked.dice) == 1
    assert [(t.combatant_id, t.morale, t.held) for t in checked.tests] == [
        ("brute", 12, True), ("coward", 8, False), ("thug", 9, True)]  # no Stat Block: the sheet's Willpower
    assert morale(f.state).fled == ["coward"]
    # the fled no longer remain: a second check leaves them out
    (again,) = f.send(MoraleCheck(side="enemies", dice=[20]))
    assert [t.combatant_id for t in again.tests] == ["brute", "thug"]
    assert morale(f.state).fled == ["coward", "brute", "thug"]


def test_named_npcs_one_die_each() -> None:
    f = fight(brute=goon(12), coward=goon(8))
    (checked,) = f.send(MoraleCheck(combatant_ids=["coward", "brute"], one_roll=False, dice=[3, 13]))
    assert [(t.combatant_id, t.die, t.held) for t in checked.tests] == [("coward", 0, True), ("brute", 1, False)]
    assert morale(f.state).fled == ["brute"]


def test_a_morale_check_is_for_npcs_still_in_the_fight() -> None:
    f = fight(brute=goon(12))
    assert refused(f, MoraleCheck(combatant_ids=["mira"], dice=[1])).code == "invalid_target"
    assert refused(f, MoraleCheck(dice=[1])).code == "missing_detail"
    assert refused(f, MoraleCheck(side="party", dice=[1])).code == "invalid_target"
    f.send(MoraleCheck(combatant_ids=["brute"], dice=[20]))
    assert refused(f, MoraleCheck(combatant_ids=["brute"], dice=[1])).code == "invalid_target"


def test_a_fled_npc_can_no_longer_act() -> None:
    """"Those that fail this check will flee the battle": out of the fight, its actions are
    refused; a blow that reaches it is still taken."""
    f = fight(coward=goon(8, special_actions=[{"name": "Rally", "action_points": 1}]))
    f.send(MoraleCheck(combatant_ids=["coward"], dice=[9]))
    f.send(Attack(combatant_id="mira", target="coward", attack="LightMelee", band="Melee", weapon="Knife",
                  dice=[5, 4]))
    attack = f.state.rules.exchange.id
    assert refused(f, Defend(combatant_id="coward", attack=attack, defence="Evade", dice=[5, 5])).code == "fled"
    f.send(Defend(combatant_id="coward", attack=attack, defence="TakeIt"))
    f.end_turn("mira")
    for command in (
        Attack(combatant_id="coward", target="mira", attack="LightMelee", band="Melee", weapon="Club", dice=[5, 4]),
        TakeAction(combatant_id="coward", action="Dash"),
        UseSpecialAction(combatant_id="coward", name="Rally"),
    ):
        assert refused(f, command).code == "fled"
    f.end_turn("coward")  # the GM ends its turn


# ------------------------------------------------------------------------ demand surrender


def test_demand_surrender_beats_the_morale_value_and_drops_the_weapons() -> None:
    """"Demand Surrender (2 AP): ... an Opposed Roll between your Persuasion + Strength and the
    target's Morale level. If you are successful then your target will immediate drop any weapon
    they have in their hands." The Morale value stands as the target's total: 5 + 6 beats 10."""
    f = fight(brute=goon(10))
    (event,) = f.send(DemandSurrender(combatant_id="mira", target="brute", dice=[5, 6]))
    assert event.success and event.roll.sides[1].total == 10 and event.roll.sides[1].dice == []
    assert f.state.combatants["brute"].sheet.dropped_weapons == ["Club", "Bow"]
    assert morale(f.state).surrendered == ["brute"]
    assert f.ap("mira") == 1


def test_a_demand_that_only_ties_the_morale_fails() -> None:
    """The higher total wins an opposed roll: 4 + 6 against Morale 10 does not."""
    f = fight(brute=goon(10))
    (event,) = f.send(DemandSurrender(combatant_id="mira", target="brute", dice=[4, 6]))
    assert not event.success and event.roll.winner is None
    assert f.state.combatants["brute"].sheet.dropped_weapons == [] and morale(f.state).surrendered == []
    assert f.ap("mira") == 1


def test_surrender_is_demanded_of_humans_only() -> None:
    """"This can only be attempted on a human target.\""""
    f = fight(wolf=goon(10, human=False))
    assert refused(f, DemandSurrender(combatant_id="mira", target="wolf", dice=[6, 6])).code == "not_human"


# ---------------------------------------------------------------------------- suppression


def test_suppression_pins_down_the_npcs_that_fail_for_the_round() -> None:
    """"Suppression (2 AP): Requires the player to have a loaded ranged weapon, and the target or
    targets to be behind cover. Fire a shot at the cover to trigger a standard Morale Check in all
    targets behind it. Any NPCs that fail the check are unable to act this round, and must remain
    in cover.\""""
    f = fight(brute=goon(12), coward=goon(8))
    f.end_turn("mira")
    f.send(TakeAction(combatant_id="brute", action="TakeCover"))
    f.end_turn("brute")
    f.send(TakeAction(combatant_id="coward", action="TakeCover"))
    f.end_turn("coward")  # round 2: Mira again
    (fired,) = f.send(Suppression(combatant_id="mira", targets=["brute", "coward"], dice=[10, 10]))
    assert fired.weapon == "Pistol" and fired.suppressed == ["coward"]
    assert f.ap("mira") == 3 + 3 - 2 - 0  # Mira kept 3 from round 1
    f.send(Attack(combatant_id="mira", target="coward", attack="Ranged", band="Near", weapon="Pistol", dice=[5, 4]))
    attack = f.state.rules.exchange.id
    # unable to act: no active defence either; taking the blow is no action
    assert refused(f, Defend(combatant_id="coward", attack=attack, defence="Dive", dice=[5, 5])).code == "suppressed"
    f.send(Defend(combatant_id="coward", attack=attack, defence="TakeIt"))
    f.end_turn("mira")
    f.send(TakeAction(combatant_id="brute", action="NotchArrow"))  # held its nerve
    f.end_turn("brute")
    assert refused(f, TakeAction(combatant_id="coward", action="Dash")).code == "suppressed"
    f.end_turn("coward")
    assert morale(f.state).suppressed == []  # a new round
    f.end_turn("mira")
    f.end_turn("brute")
    f.send(TakeAction(combatant_id="coward", action="Dash"))


def test_suppression_needs_targets_in_cover_and_a_ranged_weapon() -> None:
    f = fight(brute=goon(12))
    e = refused(f, Suppression(combatant_id="mira", targets=["brute"], dice=[1]))
    assert e.code == "not_in_cover"
    f.end_turn("mira")
    f.send(TakeAction(combatant_id="brute", action="TakeCover"))
    f.end_turn("brute")
    assert refused(f, Suppression(combatant_id="mira", targets=["brute"], weapon="Knife", dice=[1])).code == \
        "wrong_weapon"
    assert refused(f, Suppression(combatant_id="mira", targets=["brute"], weapon="Musket", dice=[1])).code == \
        "unknown_weapon"
    assert refused(f, Suppression(combatant_id="mira", targets=["brute", "brute"], dice=[1, 1])).code == \
        "invalid_target"
    f.send(Suppression(combatant_id="mira", targets=["brute"], weapon="Pistol", dice=[1]))
