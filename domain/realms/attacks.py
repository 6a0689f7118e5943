"""What an attack is made with, worked out from the attacker's sheet: its Attack Bonus, its
damage dice, type and bonus, the Defence it targets, its range and its critical adjustments.

"Your Attack Bonus is either your Martial Bonus or your Power Bonus depending on the type of
Attack made. These bonuses cannot be combined." Pure."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.errors import RuleViolation
from domain.realms.scores import PROWESS_DICE, improvised_bonus
from domain.realms.sheet import KIND_ABILITY, RealmsSheet, half_up

UNARMED = "Unarmed"
IMPROVISED = "Improvised"


@dataclass(frozen=True)
class Profile:
    """An attack as the sheet makes it. ``kind``: martial or power; ``bonus``: to the Attack
    Roll; ``damage_bonus``: added to the damage dice; ``dice`` of ``sides`` (0: no dice);
    ``range``: normal reach in spaces; ``long_range``: the farthest, at -5 beyond ``range``."""

    name: str
    kind: str
    bonus: int
    dice: int
    sides: int
    damage_bonus: int
    damage_type: str
    targets: str
    range: int
    long_range: int
    ranged: bool
    critical_range: int = 0
    critical_multiplier: int = 0
    proficient: bool = True
    ability: str = ""
    action_points: int = 2
    energy: int = 0
    deals_damage: bool = True
    minimum_zero: bool = False  # improvised: "This cannot make the damage less than 0"
    also_targets: tuple[str, ...] = ()


def profile(sheet: RealmsSheet, weapon: str | None, power: str | None, *, off_hand: bool = False,
            thrown: bool = False, who: str = "The attacker") -> Profile:
    """The attack made with ``power`` (a Power on the sheet) or ``weapon`` (a weapon's name,
    ``Unarmed`` or ``Improvised``; default: the first weapon, else unarmed)."""
    if power is not None:
        p = sheet.power(power)
        if p is None:
            raise RuleViolation("realms_unknown_attack", f"{who} knows no Power “{power}”.")
        # "When you deal damage with a Power, you add your Power Bonus to that damage. If the
        # Power doesn't deal damage by itself, you do not deal your Power Bonus in damage."
        return Profile(name=p.name, kind="power", bonus=sheet.power_bonus, dice=p.dice, sides=p.sides,
                       damage_bonus=sheet.power_bonus if p.dice else 0, damage_type=p.damage_type,
                       targets=p.targets, range=p.range, long_range=p.range, ranged=p.range > 1,
                       ability=sheet.power_ability, action_points=p.action_points, energy=p.energy,
                       deals_damage=p.dice > 0, also_targets=tuple(p.also_targets))
    name = weapon or (sheet.weapons[0].name if sheet.weapons else UNARMED)
    strength, agility = sheet.abilities.strength, sheet.abilities.agility
    if name == UNARMED:
        if sheet.unarmed_prowess:
            # "When proficient with Unarmed Prowess you use your full Strength or Agility, as well
            # as adding your Martial Proficiency to the attack and to determine damage."
            ability = "agility" if agility > strength else "strength"
            bonus = sheet.martial_proficiency + sheet.abilities.of(ability)
            return Profile(name=UNARMED, kind="martial", bonus=bonus, dice=1 if PROWESS_DICE[sheet.unarmed_prowess] else 0,
                           sides=PROWESS_DICE[sheet.unarmed_prowess] or 2, damage_bonus=bonus,
                           damage_type="bludgeoning", targets="evasion", range=1, long_range=1, ranged=False,
                           ability=ability)
        # "All Characters can make unarmed attacks, using half their Strength for their attack
        # Bonus and dealing damage equal to half their Strength as well."
        return Profile(name=UNARMED, kind="martial", bonus=half_up(strength), dice=0, sides=2,
                       damage_bonus=half_up(strength), damage_type="bludgeoning", targets="evasion", range=1,
                       long_range=1, ranged=False, proficient=False, ability="strength", minimum_zero=True)
    if name == IMPROVISED:
        # "you use 1d4 for damage and add ½ of your Strength to melee attack and damage rolls";
        # thrown: "a number of spaces equal to double your Agility or Strength to a minimum of
        # one", and "four times that of your Agility or Strength" at -5
        half = improvised_bonus(strength)
        reach = max(2 * max(agility, strength), 1) if thrown else 1
        far = max(4 * max(agility, strength), 1) if thrown else 1
        return Profile(name=IMPROVISED, kind="martial", bonus=half, dice=1, sides=4, damage_bonus=half,
                       damage_type="bludgeoning", targets="evasion", range=reach, long_range=far, ranged=thrown,
                       proficient=False, ability="strength", minimum_zero=True)
    w = sheet.weapon(name)
    if w is None:
        raise RuleViolation("realms_unknown_attack", f"{who} has no weapon “{name}”.")
    ability = KIND_ABILITY[w.kind]
    score = sheet.abilities.of(ability)
    proficient_die = sheet.proficiencies.get(w.damage_type, 0)  # type: ignore[call-overload]
    full = proficient_die >= w.sides
    if full:
        bonus, sides = sheet.martial_proficiency + score, w.sides
    else:
        # "you only add half of the relevant Ability to the Attack and Damage Rolls and no Martial
        # Proficiency. If you are partially proficient with the weapon's damage type ..., you roll
        # a die that matches your proficiency (1d6 in this case) to a minimum of 1d4."
        bonus = half_up(score)
        sides = max(proficient_die, 4) if proficient_die else w.sides
    # "You can only use the properties of a weapon if you are proficient with those properties"
    crit = w.critical_range if full else 0
    long_range = w.range * 4 if w.ranged else w.range
    return Profile(name=w.name, kind="martial", bonus=bonus, dice=w.dice, sides=sides,
                   damage_bonus=0 if off_hand else bonus, damage_type=w.damage_type, targets="evasion",
                   range=w.range, long_range=long_range, ranged=w.ranged, critical_range=crit,
                   critical_multiplier=w.critical_multiplier if full else 0, proficient=full, ability=ability)


def range_penalty(p: Profile, distance: int, who: str = "The target") -> int:
    """"Ranged attacks made against a target within 1 space incur a -5 penalty"; "you can attempt
    to target at a distance equal four times that of the Ranged or Thrown Weapons' normal
    distance, but do so with a -5 long-range penalty". Refused beyond reach."""
    if distance < 0 or distance > p.long_range:
        raise RuleViolation("realms_out_of_range", f"{who} is {distance} spaces away; the {p.name} reaches "
                            f"{p.long_range} space{'s' if p.long_range != 1 else ''}.", distance=distance,
                            range=p.long_range)
    penalty = 0
    if p.ranged and distance <= 1:
        penalty -= 5
    if distance > p.range:
        penalty -= 5
    return penalty
