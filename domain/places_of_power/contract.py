"""What the contract suite (tests/contract) walks Places of Power with: a few sheets (bench/fights.py
drives its fights with them too) and the moves of a fight (attacks, common actions, called checks)."""

from __future__ import annotations

from typing import Any

from domain.core.contract import Chooser, Walk
from domain.core.encounter import Command, EncounterState
from domain.core.ruleset import Ruleset
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import Attack
from domain.places_of_power.check_rolls import CallForCheck, RollCheck

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
AXE = {"name": "Axe", "skill": "Axe", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 4}}}
BOW = {"name": "Bow", "skill": "Bow", "kind": "ranged",
       "ranges": {"Melee": {"difficulty": "Difficult", "damage": 2}, "Close": {"difficulty": "Normal", "damage": 2}}}
SHEETS: list[dict[str, Any]] = [
    {"initiative_modifier": 2, "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
     "skills": {"Knife": "D8", "Athletics": "D6", "Bow": "D8", "Brawling": "D6"}, "weapons": [KNIFE, BOW],
     "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}]},
    {"initiative_modifier": 1, "attributes": {"strength": "D10", "agility": "D6"},
     "skills": {"Knife": "D8", "Axe": "D8", "Athletics": "D6"}, "weapons": [KNIFE, AXE],
     "armour": [{"name": "Greatcoat", "layer": "Outer", "value": 1, "durability": 2},
                {"name": "Jerkin", "layer": "Base", "value": 2, "durability": 2}]},
    {"initiative_modifier": 0, "attributes": {"strength": "D8", "agility": "D8"},
     "skills": {"Athletics": "D6", "Brawling": "D6"}},
]
ACTIONS = ("TakeCover", "NotchArrow", "Stand", "Dash")


def sheet(rng: Chooser, npc: bool) -> dict[str, Any]:
    return rng.choice(SHEETS)


def moves(ruleset: Ruleset, state: EncounterState, rng: Chooser) -> list[Command]:
    turn = state.turn
    if turn is None or turn not in state.combatants:
        return []
    c = state.combatants[turn]
    out: list[Command] = [TakeAction(combatant_id=turn, action=rng.choice(ACTIONS))]
    others = [o for o in state.combatants if o != turn]
    if others:
        weapons = [w.name for w in c.sheet.weapons if w.name not in c.sheet.dropped_weapons]
        weapon = rng.choice(weapons) if weapons else None
        ranged = weapon == "Bow"
        out.append(Attack(combatant_id=turn, target=rng.choice(others),
                          attack="Ranged" if ranged else rng.choice(("LightMelee", "HeavyMelee")),
                          band="Close" if ranged else "Melee", weapon=weapon))
    if rng.random() < 0.15:  # now and then: a fight is mostly attacks
        out.append(CallForCheck(combatant_id=turn, attribute="agility", skill="Athletics", difficulty="Normal"))
    out += [RollCheck(combatant_id=v.combatant_id, check=v.id) for v in state.rules.checks.values()
            if v.status == "called"]
    return out


def secret(sheet: dict[str, Any], marker: str) -> dict[str, Any]:
    """The occupation and a skill no rule of the walk calls for: values of the sheet only."""
    return {**sheet, "occupation": marker, "skills": {**sheet.get("skills", {}), marker: "D6"}}


WALK = Walk(sheet=sheet, moves=moves, secret=secret)
