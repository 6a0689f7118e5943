"""Weapons and the attack roll's arithmetic (used by the attack exchange, issue 5; not yet
wired to commands).

"Every weapon in Places of Power has a Base Damage value, which can vary depending on the
Range at which it is used." "The difficulty level you are rolling against is dictated by
the type of weapon and the range you are attempting to use it at."
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.errors import RuleViolation
from domain.places_of_power.checks import DIFFICULTIES, LADDER, Difficulty, levels_above

RangeBand = Literal["Melee", "Close", "Near", "Far", "Long"]
RANGE_BANDS: tuple[str, ...] = ("Melee", "Close", "Near", "Far", "Long")
Split = Literal["Damage", "Precision"]


class AtRange(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A weapon at one range band: the difficulty to hit and the Base Damage in Hits."""

    difficulty: Difficulty
    damage: Annotated[int, msgspec.Meta(ge=0, le=10)]


class Weapon(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A weapon at hand. ``kind``: melee weapons roll Skill + Strength, ranged ones Skill +
    Dexterity; ``gun``: armour meets it by the gun shot rule; ``ranges``: the bands it can
    reach (a band it lacks is out of its reach)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    skill: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    kind: Literal["melee", "ranged"]
    gun: bool = False
    two_handed: bool = False
    shield: bool = False
    ranges: dict[RangeBand, AtRange]
    # the Common Action that loads it again after each shot (none: not tracked, e.g. a thrown
    # weapon); ``reloadable`` false: "Some ranged weapons, such as volley guns, cannot be
    # reloaded during combat"
    reload: Literal["NotchArrow", "ReloadCrossbow", "ReloadGun"] | None = None
    reloadable: bool = True

    @property
    def attribute(self) -> str:
        return "strength" if self.kind == "melee" else "dexterity"


# "Roll against your Brawling skill plus Strength. All Unarmed attacks have a base damage of
# zero." Brawling is not usable at Close range ("Short weapons like Knives, axes, and
# hammers, as well as brawling, are not useable at this distance").
UNARMED = Weapon(name="Unarmed", skill="Brawling", kind="melee",
                 ranges={"Melee": AtRange(difficulty="Normal", damage=0)})


def at_range(weapon: Weapon, band: str) -> AtRange:
    """The weapon's difficulty and damage at ``band``; a band it cannot reach is refused."""
    found = weapon.ranges.get(band)  # type: ignore[call-overload]
    if found is None:
        reach = ", ".join(b for b in RANGE_BANDS if b in weapon.ranges) or "no range"
        raise RuleViolation("out_of_range", f"The {weapon.name} cannot reach {band} range (it reaches {reach}).")
    return found


def extra_successes(total: int, difficulty: str) -> int:
    """"If you reach that Difficulty value then your attack succeeded. If, however, your roll
    reaches higher Difficulty Levels beyond the one required to hit, each additional level
    gives you one extra Success." 0 for a miss too (check ``total`` against the target)."""
    return levels_above(total, DIFFICULTIES[difficulty])


def spend_successes(extra: int, split: list[str], base_damage: int, difficulty: str) -> tuple[int, str]:
    """Spend every extra Success on Damage (+1 Hit) or Precision (+1 defence difficulty level):
    returns (damage, the difficulty the defender must roll). Precision cannot go past Very
    Hard, the top of the ladder."""
    if len(split) != extra:
        raise RuleViolation(
            "successes_unspent", f"The attack has {extra} extra Success{'es' if extra != 1 else ''} to spend; "
            f"{len(split)} were spent.",
        )
    damage = base_damage + split.count("Damage")
    level = LADDER.index(difficulty) + split.count("Precision")
    if level >= len(LADDER):
        raise RuleViolation("precision_past_very_hard", "Precision cannot raise the defence past Very Hard.")
    return damage, LADDER[level]
