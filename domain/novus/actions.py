"""The Action Points table (novus-combat "Action Points", N13) and the cost of each declared action.

"Normally a character has only 5 Action Points to use in a given round. However, some spells and
items can Haste the character, giving him a total of 10 AP for the round ... no amount of Haste
will allow for casting more than one spell per round."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.novus.data import NovusData
from domain.novus.kinds import Kind
from domain.novus.moves import BASIC_BLOCK, BASIC_MELEE, BASIC_SHOT, MoveRule
from domain.novus.sheet import NovusSheet, Weapon

ROUND_AP = 5
HASTED_AP = 10

CalledShot = Literal["arm", "leg", "head"]

# The table's rows, in its order: (the row as the text words it, the action, its AP). A "*" row's
# attack costs more with some Combat Moves ("Refer to the specific Combat Move").
TABLE: tuple[tuple[str, str, str], ...] = (
    ("Cast a Spell, Use Item or Rune/Read Scroll", "cast_spell", "4"),
    ("Cast Counterspell or a Fast Cast a Spell", "counterspell", "2"),
    ("Perform Instantaneous Spell Action (if any)", "instant_spell", "3"),
    ("Concentration", "concentration", "3"),
    ("Basic Melee Attack (Tiny/Small Weapons)", "attack", "3*"),
    ("Basic Melee Attack (Medium Weapons)", "attack", "4*"),
    ("Basic Melee Attack (Large/Huge Weapons)", "attack", "5*"),
    ("Basic Missile Attack", "attack", "2*"),
    ("Basic Unarmed/Natural Attacks", "attack", "3*"),
    ("Multiple Weapon Attacks in 1 round", "multiple_weapon_attacks", "5"),
    ("Reloading/Loading Sling/Bow", "reload_sling_bow", "3"),
    ("Reloading/Loading Light Crossbow", "reload_light_crossbow", "5"),
    ("Reloading/Loading Heavy Crossbow", "reload_heavy_crossbow", "10"),
    ("Perception roll", "perception", "1"),
    ("Move Base Movement", "move", "1"),
    ("Move Double Base Movement at a Run", "run", "1"),
    ("Get up from Prone position", "get_up", "2"),
    ("Draw Weapon", "draw_weapon", "1"),
    ("Simple Actions (GM’s Discretion)", "gm_action", "1-2"),
    ("Complex Actions (GM’s Discretion)", "gm_action", "2-5"),
)

FIXED: dict[str, int] = {
    "cast_spell": 4, "counterspell": 2, "instant_spell": 3, "concentration": 3, "multiple_weapon_attacks": 5,
    "reload_sling_bow": 3, "reload_light_crossbow": 5, "reload_heavy_crossbow": 10, "perception": 1, "move": 1,
    "run": 1, "get_up": 2, "draw_weapon": 1,
    "disengage": 1,  # Disengaging: "spend 1 AP for Disengaging and then move out ... by spending other, additional AP"
    "set_initiative": 2,  # Set Initiative: "use 2 AP of his available activity in a round"
    "reroll_initiative": 4,  # Reroll Initiative: "using 4 AP of that round"
}
ATTACK_AP: dict[str, int] = {"tiny": 3, "small": 3, "medium": 4, "large": 5, "huge": 5}
MISSILE_AP = 2
UNARMED_AP = 3
SPELLS = ("cast_spell", "counterspell", "instant_spell")


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """One declared action. An ``attack`` names its ``target`` and ``weapon`` (none: a Brawling
    attack), with ``called_shot`` (-4 an arm or a leg, -8 the head), ``two_hands`` (a one-handed
    weapon in both: +1 AP, +2 Base Damage), ``off_hand`` (-4 unless ambidextrous), ``improvised``
    (the better of the skill and Brawling, -4, half damage), ``into_melee`` (a ranged attack into
    a melee: -2), and ``position`` (from the ``flank``: +2, the ``rear``: +4). A ``move`` or ``run`` names the foes whose Control Zone it enters or crosses (``through``) and
    leaves (``leaves``: no Opportunity Attack after a Disengage this round). A ``gm_action`` names one of the
    encounter's Simple or Complex actions (``name``). An attack names the Combat Move it is made with
    (``move``; none: the Basic Melee Attack, or the Basic Shot with a missile weapon) and, a shot, its
    ``distance`` in feet (range penalties). ``multiple_weapon_attacks`` ("Multiple Weapon Attacks in 1 round",
    5 AP) names the first attack's ``target`` and ``weapon``, and each further one's in ``more_targets`` and
    ``more_weapons``: the first is made at one's IP, the rest at the end of the round."""

    kind: Kind
    target: CombatantId | None = None
    weapon: str | None = None
    called_shot: CalledShot | None = None
    two_hands: bool = False
    off_hand: bool = False
    improvised: bool = False
    into_melee: bool = False
    position: Literal["front", "flank", "rear"] = "front"
    name: str | None = None
    # a move's way: the foes whose Control Zone it enters or crosses, and those whose it leaves
    through: list[CombatantId] = []
    leaves: list[CombatantId] = []
    # firing into melee: the others within 5' of the path of the attack, the closest to the attacker first
    near: list[CombatantId] = []
    pace: int = 2  # a Mounted Charge: the multiple of the mount's pace (2x, 3x, 4x)
    # Multiple Attacks from High Skill: the other foes attacked (one a further attack; a foe again: the
    # same id again), and the Attack Bonus of each attack, the first's first ("in whatever split the
    # player desires"); ``share``: that AB, on each attack once declared (the ruleset sets it)
    more_targets: list[CombatantId] = []
    split: list[int] = []
    share: int | None = None
    # Multiple Weapon Attacks (5 AP): the weapon of each further attack, one a foe of ``more_targets``
    more_weapons: list[str] = []
    of_multiple: bool = False  # one attack of Multiple Weapon Attacks, as each is recorded (``each_attack``)
    move: str | None = None
    distance: Annotated[int, msgspec.Meta(ge=0, le=10000)] | None = None


def each_attack(actions: Sequence[Action]) -> list[Action]:
    """Attacks from high skill, one attack each, with its share of the AB; Multiple Weapon Attacks, one
    attack with each weapon (the first at one's IP, the rest at the end of the round: ``Declaration``).
    A declaration is recorded so: an attack on one hidden from the table is then an item of its own,
    which a viewer who does not see him does not see, nor counts among the others."""
    out: list[Action] = []
    for a in actions:
        if a.kind == "multiple_weapon_attacks":
            out += [msgspec.structs.replace(a, kind="attack", target=t, weapon=w, more_targets=[], more_weapons=[],
                                            of_multiple=True)
                    for t, w in zip([a.target, *a.more_targets], [a.weapon, *a.more_weapons], strict=False)]
            continue
        if not a.split:
            out.append(a)
            continue
        for target, share in zip([a.target, *a.more_targets], a.split, strict=True):
            out.append(msgspec.structs.replace(a, target=target, more_targets=[], split=[], share=share))
    return out


def move_of(data: NovusData, sheet: NovusSheet, action: Action) -> MoveRule | None:
    """The Combat Move an action is performed as: the one it names, else its kind's plain one (an
    attack's Basic Melee Attack, a missile weapon's Basic Shot; the Basic Dodge; the Basic Block)."""
    if action.move is not None:
        return data.move(action.move)
    if action.kind == "attack":
        weapon = sheet.weapon(action.weapon)
        return data.move(BASIC_SHOT if weapon is not None and weapon.kind == "missile" else BASIC_MELEE)
    return data.move({"dodge": "Basic Dodge", "block": BASIC_BLOCK}.get(action.kind))


def attack_ap(sheet: NovusSheet, action: Action, data: NovusData | None = None) -> int:
    """The Basic attack rows: "Basic Melee Attack (Tiny/Small Weapons) 3 ... (Medium Weapons) 4 ...
    (Large/Huge Weapons) 5", "Basic Missile Attack 2", "Basic Unarmed/Natural Attacks 3", as the move's
    AP reads them ("BMA": "as a Basic Melee Attack with this weapon size", N18); and One Handed Weapons
    in Two Hands: "the attack requires 1 additional AP"."""
    weapon = sheet.weapon(action.weapon)
    if weapon is None or weapon.kind == "unarmed":
        base = UNARMED_AP
    elif weapon.kind == "missile":
        base = MISSILE_AP
    else:
        base = ATTACK_AP[weapon.size]
    move = move_of(data, sheet, action) if data is not None else None
    if move is not None:
        base = move.ap_cost(base)
    return base + (1 if action.two_hands else 0)


MOUNTED_CHARGE_AP = 8  # "requires a total of 8 Action Points (AP), 4 more than is required for a normal attack"
MOUNTED_CHARGE_AP_II = 6  # "If the character has the Talent, Mounted Combat II, then the charge will only require 6 AP"


def cost(sheet: NovusSheet, action: Action, data: NovusData, mounted: bool = False) -> int:
    """The AP ``action`` takes (a ``gm_action`` not in the GM's list: see ``data.action``). Mounted
    Combat: "All mounted attacks, excluding Mounted Charges ... require an extra 2 Action Points (AP)
    to perform. If the character has the Mounted Combat II Talent, then attacks only require 1 extra AP"."""
    if action.kind == "mounted_charge":
        return MOUNTED_CHARGE_AP_II if sheet.talents.mounted_combat_2 else MOUNTED_CHARGE_AP
    if action.kind == "attack":
        extra = (1 if sheet.talents.mounted_combat_2 else 2) if mounted else 0
        return attack_ap(sheet, action, data) + extra
    if action.kind in ("dodge", "block"):
        move = move_of(data, sheet, action)
        return move.ap_cost(0) if move is not None else 0
    if action.kind == "gm_action":
        rule = data.action(action.name)
        return rule.ap if rule is not None else 0
    return FIXED[action.kind]


def weapon_of(sheet: NovusSheet, action: Action) -> Weapon | None:
    return sheet.weapon(action.weapon)
