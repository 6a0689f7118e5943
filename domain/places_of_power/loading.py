"""Loading ranged weapons: a shot spends the load, and the Common Action the weapon names loads it
again: "Notch Arrow (1 AP): Draw and notch a new arrow to a bow", "Reload Crossbow (3 AP)", "Reload
Gun (6 AP) ... Some ranged weapons, such as volley guns, cannot be reloaded during combat";
Suppression "Requires the player to have a loaded ranged weapon ... Fire a shot at the cover".

A weapon is loaded when the fight begins (the sheet's ``unloaded`` says otherwise); one whose
``reload`` the sheet leaves out is not tracked (a thrown weapon)."""

from __future__ import annotations

from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.places_of_power.table import sheet, with_sheet
from domain.places_of_power.weapons import Weapon

WORDS = {"NotchArrow": "Notch Arrow", "ReloadCrossbow": "Reload Crossbow", "ReloadGun": "Reload Gun"}


def check_loaded(c: Combatant, weapon: Weapon) -> None:
    """A shot with ``weapon`` needs it loaded."""
    if weapon.reload is not None and weapon.name in sheet(c).unloaded:
        how = f"{WORDS[weapon.reload]} first" if weapon.reloadable else "it cannot be reloaded during combat"
        raise RuleViolation("not_loaded", f"{c.name}'s {weapon.name} is not loaded: {how}.", weapon=weapon.name)


def fired(state: EncounterState, cid: str, name: str) -> EncounterState:
    """The load of ``cid``'s weapon ``name`` spent by a shot (a weapon not tracked: no change)."""
    c = state.combatants[cid]
    s = sheet(c)
    weapon = next((w for w in s.weapons if w.name == name), None)
    if weapon is None or weapon.reload is None or name in s.unloaded:
        return state
    return with_sheet(state, cid, unloaded=[*s.unloaded, name])


def to_load(c: Combatant, action: str, name: str | None) -> str | None:
    """The weapon a Notch Arrow, Reload Crossbow or Reload Gun loads: the one named, else the first
    at hand it loads that is spent. None: nothing tracked to load (the action is only its cost)."""
    s = sheet(c)
    at_hand = [w for w in s.weapons if w.name not in s.dropped_weapons]
    if name is None:
        spent = [w for w in at_hand if w.reload == action and w.reloadable and w.name in s.unloaded]
        return spent[0].name if spent else None
    weapon = next((w for w in at_hand if w.name == name), None)
    if weapon is None:
        raise RuleViolation("unknown_weapon", f"{c.name} has no {name} at hand.")
    if weapon.reload != action:
        raise RuleViolation("nothing_to_load", f"{WORDS.get(action, action)} does not load the {name}"
                            + (f": {WORDS[weapon.reload]} does." if weapon.reload else "."))
    if not weapon.reloadable:
        raise RuleViolation("nothing_to_load", f"The {name} cannot be reloaded during combat.")
    if name not in s.unloaded:
        raise RuleViolation("nothing_to_load", f"{c.name}'s {name} is loaded already.")
    return name


def loaded(state: EncounterState, cid: str, name: str) -> EncounterState:
    s = sheet(state.combatants[cid])
    return with_sheet(state, cid, unloaded=[w for w in s.unloaded if w != name]) if name in s.unloaded else state
