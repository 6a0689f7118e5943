"""Weapons at hand and carried."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.weapons_at_hand import SwapWeapons
from domain.rulesets import default_registry

RULESET = default_registry().get("places-of-power")


def weapon(name: str) -> dict:
    return {"name": name, "skill": "Blades", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}


SHEET = {"weapons": [weapon("Knife"), weapon("Sword"), weapon("Axe")], "carried": [weapon("Mace"), weapon("Spear")]}


class Table:
    def __init__(self) -> None:
        self.state = RULESET.replay(RULESET.open("e", "Armoury", "reported", "x"))
        self.play(AddCombatant(name="Mira", side="a", controller="player", combatant_id="mira", sheet=SHEET))

    def play(self, command, faces=()):
        for event in RULESET.decide(self.state, command, ReportedDice(list(faces))):
            self.state = RULESET.evolve(self.state, event)

    def names(self, field: str) -> list[str]:
        return [w.name for w in getattr(self.state.combatants["mira"].sheet, field)]


def test_outside_combat_swapping_is_free() -> None:
    """"Outside of combat you can swap which weapons are “at hand” and which are “carried”
    whenever you like.\""""
    t = Table()
    t.play(SwapWeapons(combatant_id="mira", put_away=["Axe"], take=["Mace"]))
    assert t.names("weapons") == ["Knife", "Sword", "Mace"] and t.names("carried") == ["Spear", "Axe"]


def test_in_combat_each_weapon_swapped_costs_three() -> None:
    """"During combat however, swapping your weapons in this manner will cost you 3 Action
    Points per weapon swapped.\""""
    t = Table()
    t.play(RollInitiative(), [4])
    t.play(StartEncounter())
    t.play(SwapWeapons(combatant_id="mira", put_away=["Axe"], take=["Mace"]))
    assert t.state.combatants["mira"].action_points == 0
    with pytest.raises(RuleViolation) as e:
        t.play(SwapWeapons(combatant_id="mira", put_away=["Mace"], take=["Axe"]))
    assert e.value.code == "not_enough_action_points"


def test_at_most_three_at_hand() -> None:
    """"you can only ever have three weapons active on your character sheet at any one time\""""
    t = Table()
    with pytest.raises(RuleViolation) as e:
        t.play(SwapWeapons(combatant_id="mira", take=["Mace"]))
    assert e.value.code == "too_many_weapons"
    with pytest.raises(RuleViolation) as e:
        t.play(SwapWeapons(combatant_id="mira", put_away=["Bow"]))
    assert e.value.code == "unknown_weapon"
