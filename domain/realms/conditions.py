"""The conditions of realms-gaps.md R23-R24: what each does to rolls, Defences, Speed, AP and
damage, worked out from the creature's conditions. Pure.

"Conditions don't stack: only one instance of each. A new source replaces the old one only if
it is stronger; the RM decides" (``ApplyCondition`` sets it; levels never add up). "A leveled
condition that goes over the value it reduces (for example Stunned 5 against 4 AP) reduces that
value only to a minimum of 1. This applies to AP and Speed, not to d20 penalties."
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.realms.sheet import half_up

Unleveled = Literal["blinded", "charmed", "restrained", "dazed", "deafened", "faint", "grappled", "hidden",
                    "immobile", "invisible", "prone"]
Leveled = Literal["bleed", "exhausted", "exposed", "frightened", "staggered", "resilient", "slowed", "stunned",
                  "susceptible", "weakened"]
ConditionName = Literal["blinded", "charmed", "restrained", "dazed", "deafened", "faint", "grappled", "hidden",
                        "immobile", "invisible", "prone", "bleed", "exhausted", "exposed", "frightened", "staggered",
                        "resilient", "slowed", "stunned", "susceptible", "weakened"]
LEVELED = frozenset(Leveled.__args__)  # type: ignore[attr-defined]
COMPLETE_OBSCURITY = 4  # R11: "Complete ±4"; "Attacks take −1 per level"


class Affliction(msgspec.Struct, frozen=True, kw_only=True):
    """One condition on a creature: its ``level`` (1 for an unleveled one), and the Defence and
    the Difficulty Score or Potency an Overcome rolls against (None: it is not overcome by a roll);
    ``source``: the charmer, or the source of fear."""

    level: int = 1
    defence: str | None = None
    score: int | None = None
    source: CombatantId | None = None


Conditions = Mapping[str, Affliction]


def level(conds: Conditions, name: str) -> int:
    a = conds.get(name)
    return a.level if a is not None else 0


def d20(conds: Conditions) -> int:
    """Every d20 roll: Weakened "−1 to all d20 rolls", Exhausted "−1 to all Bonuses" per level."""
    return -level(conds, "weakened") - level(conds, "exhausted")


def attacking(conds: Conditions) -> int:
    """The creature's own attack rolls: Grappled "−2 to its attacks", Blinded "everything is
    Completely Obscured to it" (−4), Hidden "+2 to attack creatures unaware of it"."""
    out = d20(conds)
    if "grappled" in conds:
        out -= 2
    if "blinded" in conds:
        out -= COMPLETE_OBSCURITY
    if "hidden" in conds:
        out += 2
    return out


def obscured(level: int, attacker: Conditions, target: Conditions) -> int:
    """R11: "Attacks take −1 per level" of Obscurity between attacker and target. Levels do not add
    up: a Blinded attacker or an Invisible target is already Completely Obscured (−4 above), so a
    claimed level counts only beyond that."""
    complete = COMPLETE_OBSCURITY if ("blinded" in attacker or "invisible" in target) else 0
    return -max(0, level - complete)


def attacked(conds: Conditions, melee: bool) -> int:
    """Attack rolls on the creature: Grappled "+2 to hit it"; Prone "+2 to hit it from melee range;
    +2 Obscurity against creatures that aren't above it or in melee" (−2); Invisible "Completely
    Obscured to sight" (−4)."""
    out = 0
    if "grappled" in conds:
        out += 2
    if "prone" in conds:
        out += 2 if melee else -2
    if "invisible" in conds:
        out -= COMPLETE_OBSCURITY
    return out


def evasion(conds: Conditions) -> int:
    """Exposed "−1 to all Defences and Evasion", Staggered "−1 Evasion", Exhausted "−1 to ... Evasion"
    (each per level), Faint "−1 to Evasion"."""
    return -level(conds, "exposed") - level(conds, "staggered") - level(conds, "exhausted") - level(conds, "faint")


def defence(conds: Conditions, name: str) -> int:
    """Exposed −1 to all Defences per level; Faint −1 to Might and Reflexes."""
    return -level(conds, "exposed") - (1 if "faint" in conds and name in ("might", "reflexes") else 0)


def speed(base: int, conds: Conditions) -> int:
    """Immobile "Speed 0"; Grappled "no Movement actions"; Prone "Speed halved"; Slowed "−1 to every
    Speed" per level, Exhausted "−1 Speed per 2 levels", never below 1 by a level (R23)."""
    if "immobile" in conds or "grappled" in conds:
        return 0
    s = half_up(base) if "prone" in conds else base
    cut = level(conds, "slowed") + level(conds, "exhausted") // 2
    return max(s - cut, 1) if cut else s


def damage_taken(damage: int, conds: Conditions) -> int:
    """Resilient "−1 damage taken", Susceptible "+1 damage taken", per level."""
    return damage - level(conds, "resilient") + level(conds, "susceptible")


def stunned_ap(ap: int, stun: int) -> int:
    """Stunned: "lose level AP at once", only "to a minimum of 1"."""
    if not stun:
        return ap
    return ap - stun if ap - stun >= 1 else min(ap, 1)


def turn_end_ap(amount: int, conds: Conditions) -> int:
    """Stunned: "level fewer AP at the end of the turn, but never fewer than 1 gained"."""
    stun = level(conds, "stunned")
    return max(amount - stun, 1) if stun else amount


def may_react(conds: Conditions) -> bool:
    """Dazed: "no Reactions"."""
    return "dazed" not in conds


def words(name: str, a: Affliction) -> str:
    return f"{name} {a.level}" if name in LEVELED else name


def of_source(conds: Conditions, name: str, source: str) -> Affliction | None:
    a = conds.get(name)
    return a if a is not None and a.source is not None and a.source == source else None


def against(conds: Conditions, target: str) -> int:
    """Frightened: "−level against the source of fear" (on attacks and grapples against it)."""
    a = of_source(conds, "frightened", target)
    return -a.level if a is not None else 0


def charmed_by(conds: Conditions, charmer: str) -> bool:
    """Charmed: "can't harm the charmer; the charmer gets +2 on Charisma rolls and potencies against it"."""
    return of_source(conds, "charmed", charmer) is not None


def restrained(conds: Conditions) -> bool:
    """Restrained: "no actions or reactions that need the arms" (a weapon: "all weapons require at
    least one hand to use"; a shield)."""
    return "restrained" in conds
