"""Enemies played from a Stat Block: the reduced skill list, Set Actions, Special Actions,
Speed, Abilities."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.encounter import AddCombatant, Command, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power import enemies
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import Attack, Defend
from domain.places_of_power.enemies import UseSpecialAction
from domain.places_of_power.grapples import Grapple
from domain.places_of_power.non_lethal import NonLethalAttack
from projections.visibility import Viewer, state_for
from tests.unit.pop_fight import Fight

SWORD = {"name": "Sword", "skill": "Sword", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
CLUB = {"name": "Club", "skill": "Melee", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
BOW = {"name": "Bow", "skill": "Ranged", "kind": "ranged", "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
MIRA = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Sword": "D8", "Athletics": "D8",
                                                                      "Brawling": "D6"}, "weapons": [SWORD]}
BLOCK = {
    "speed": "Fast", "morale": 8, "set_actions": ["Light Melee Attack", "Parry"], "abilities": ["Fights dirty"],
    "special_actions": [{"name": "Rally", "action_points": 1},
                        {"name": "War Cry", "action_points": 2, "once_per_combat": True}],
}
GOON = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Melee": "D8", "Athletics": "D8"},
        "weapons": [CLUB], "stat_block": BLOCK}


def add(f: Fight, cid: str, sheet: dict[str, Any], *, gm: bool = True) -> None:
    f.send(AddCombatant(combatant_id=cid, name=cid.capitalize(), side="enemies" if gm else "party",
                        controller="gm" if gm else "player", sheet=sheet))


def fight(goon: dict[str, Any] | None = None) -> Fight:
    """Mira (a player) acts first, then the Goon (an Enemy with a Stat Block)."""
    f = Fight(dice_policy="reported")
    add(f, "mira", MIRA, gm=False)
    add(f, "goon", goon or GOON)
    f.send(RollInitiative(dice=[12, 1]))
    f.send(StartEncounter())
    return f


def refused(f: Fight, command: Command) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.send(command)
    assert f.state == before
    return e.value


def adding_refused(sheet: dict[str, Any], *, gm: bool = True) -> RuleViolation:
    f = Fight(dice_policy="reported")
    with pytest.raises(RuleViolation) as e:
        add(f, "goon", sheet, gm=gm)
    return e.value


# --------------------------------------------------------------------- reduced skill list


def test_an_enemys_skills_are_the_reduced_list() -> None:
    """"Reduced Skill List: Enemies have a greatly reduced list of Skills ... Weapon Skills are
    grouped into Melee and Ranged, with Brawling being separate. Mere use is also grouped into a
    single Skill called Magic." (Athletics stays: the Evade and Dive defences roll it.)"""
    e = adding_refused({**GOON, "skills": {"Melee": "D8", "Sword": "D8"}})
    assert e.code == "invalid_sheet" and "Sword" in e.message
    e = adding_refused({**GOON, "mere_skills": {"Rosmere": "D8"}})
    assert e.code == "invalid_sheet" and "Rosmere" in e.message
    f = Fight(dice_policy="reported")
    add(f, "goon", {**GOON, "skills": {"Melee": "D8", "Ranged": "D6", "Brawling": "D6", "Magic": "D8",
                                       "Athletics": "D6"}, "weapons": [CLUB, BOW]})
    assert f.state.combatants["goon"].sheet.stat_block.morale == 8


def test_an_enemys_weapons_use_melee_or_ranged() -> None:
    """Weapon Skills "grouped into Melee and Ranged, with Brawling being separate": a melee weapon
    rolls Melee (or Brawling), a ranged one Ranged."""
    e = adding_refused({**GOON, "weapons": [SWORD]})
    assert e.code == "invalid_sheet" and "Sword" in e.message
    e = adding_refused({**GOON, "weapons": [{**BOW, "skill": "Melee"}]})
    assert e.code == "invalid_sheet" and "Ranged" in e.message


def test_only_the_gm_has_stat_blocks_and_npcs_without_one_keep_a_full_sheet() -> None:
    """Stat Blocks describe "The Enemies you face"; an NPC without one is played like a player."""
    assert adding_refused({**MIRA, "stat_block": BLOCK}, gm=False).code == "invalid_sheet"
    f = Fight(dice_policy="reported")
    add(f, "thug", MIRA)  # an NPC with a player's sheet: any skill, any weapon skill
    assert f.state.combatants["thug"].sheet.stat_block is None


def test_speed_is_exposed() -> None:
    """"A Speed value: ... Normal means they move like a regular Player Character, Slow reduces
    their movement to half, and Fast allows them to move as if using the Dash ability\""""
    f = fight()
    assert enemies.speed(f.state.combatants["goon"]) == "Fast"
    assert enemies.speed(f.state.combatants["mira"]) == "Normal"


def test_abilities_stay_on_the_block_for_the_gm_and_hidden_from_players() -> None:
    """"Abilities: ... a list of certain things they can do, and ways they behave": the GM reads
    them in the state; players see an NPC's wound level, not its sheet."""
    f = fight()
    assert f.state.combatants["goon"].sheet.stat_block.abilities == ["Fights dirty"]
    seen = state_for(f.state, Viewer("player", frozenset({"mira"})))
    assert "stat_block" not in (seen["combatants"]["goon"]["sheet"] or {})


# --------------------------------------------------------------------------- set actions


def goons_turn(f: Fight) -> None:
    f.end_turn("mira")
    assert f.turn == "goon"


def test_an_enemy_cannot_do_what_its_block_does_not_list() -> None:
    """"each Enemy only has a limited number of Set Actions that they can perform ... they cannot
    have the Enemy do something that is not listed.\""""
    f = fight()
    goons_turn(f)
    e = refused(f, Attack(combatant_id="goon", target="mira", attack="HeavyMelee", band="Melee", weapon="Club",
                          dice=[4, 4]))
    assert e.code == "not_a_set_action" and e.details["set_actions"] == ["Light Melee Attack", "Parry"]
    f.send(Attack(combatant_id="goon", target="mira", attack="LightMelee", band="Melee", weapon="Club", dice=[1, 2]))
    assert f.ap("goon") == 2
    assert refused(f, NonLethalAttack(combatant_id="goon", target="mira", move="Trip", weapon="Club",
                                      dice=[1, 1, 1, 1])).code == "not_a_set_action"
    assert refused(f, Grapple(combatant_id="goon", target="mira", dice=[1, 1, 1, 1])).code == "not_a_set_action"


def test_set_actions_cover_defensive_actions_too_but_not_taking_a_blow() -> None:
    """"This applies to both Offensive and Defensive Actions." Taking the Hit on the armour or
    taking it is no action: always open."""
    f = fight()
    f.send(Attack(combatant_id="mira", target="goon", attack="LightMelee", band="Melee", weapon="Sword",
                  dice=[5, 4]))
    attack = f.state.rules.exchange.id
    assert refused(f, Defend(combatant_id="goon", attack=attack, defence="Evade", dice=[4, 5])).code == \
        "not_a_set_action"
    f.send(Defend(combatant_id="goon", attack=attack, defence="Parry", dice=[1, 2]))  # listed; it fails
    f.send(Defend(combatant_id="goon", attack=attack, defence="TakeIt"))
    assert f.state.combatants["goon"].sheet.hits == 2


def test_common_actions_are_not_set_actions() -> None:
    """Set Actions are the "Offensive and Defensive Actions"; moving, cover and standing are
    Common Actions every combatant has."""
    f = fight()
    goons_turn(f)
    f.send(TakeAction(combatant_id="goon", action="TakeCover"))
    assert f.state.combatants["goon"].sheet.in_cover is True


def test_a_block_listing_no_actions_restricts_nothing() -> None:
    """An empty ``set_actions``: the GM has not written the Set Actions down."""
    f = fight({**GOON, "stat_block": {**BLOCK, "set_actions": []}})
    goons_turn(f)
    f.send(Attack(combatant_id="goon", target="mira", attack="HeavyMelee", band="Melee", weapon="Club", dice=[1, 2]))
    assert f.ap("goon") == 1


def test_listed_names_ignore_case_spaces_and_the_word_attack() -> None:
    assert enemies.plain("Light Melee Attack") == enemies.plain("LightMelee") == "lightmelee"
    assert enemies.plain("human shield") == "humanshield"
    assert enemies.plain("Ranged Attack") == "ranged"


# ----------------------------------------------------------------------- special actions


def test_a_special_action_costs_its_action_points_once_a_turn() -> None:
    """"Only a single Special Action can be used per turn\""""
    f = fight()
    goons_turn(f)
    f.send(UseSpecialAction(combatant_id="goon", name="Rally", note="the goons close ranks"))
    assert f.ap("goon") == 2
    e = refused(f, UseSpecialAction(combatant_id="goon", name="War Cry"))
    assert e.code == "special_action_this_turn"
    f.end_round()
    f.end_turn("mira")
    f.send(UseSpecialAction(combatant_id="goon", name="Rally"))  # a new turn
    assert f.ap("goon") == 3


def test_some_special_actions_are_once_per_combat() -> None:
    """"with some being limited to a single use per Combat\""""
    f = fight()
    goons_turn(f)
    f.send(UseSpecialAction(combatant_id="goon", name="War Cry"))
    f.end_round()
    f.end_turn("mira")
    assert refused(f, UseSpecialAction(combatant_id="goon", name="War Cry")).code == "special_action_spent"
    f.send(UseSpecialAction(combatant_id="goon", name="Rally"))


def test_a_special_action_must_be_on_the_block_and_used_on_the_enemys_turn() -> None:
    f = fight()
    assert refused(f, UseSpecialAction(combatant_id="goon", name="Rally")).code == "not_your_turn"
    goons_turn(f)
    e = refused(f, UseSpecialAction(combatant_id="goon", name="Fireball"))
    assert e.code == "unknown_special_action" and e.details["special_actions"] == ["Rally", "War Cry"]
    f.send(TakeAction(combatant_id="goon", action="TakeCover"))
    f.send(TakeAction(combatant_id="goon", action="Dash"))
    assert refused(f, UseSpecialAction(combatant_id="goon", name="War Cry")).code == "not_enough_action_points"
