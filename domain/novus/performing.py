"""Performing a Combat Move (the stat lines of domain/novus/moves.py, novus-gaps N18-N19): which moves an
action may name, the AB and the round's DEF they give, the damage they deal, and Basic Disarm's save."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain.core.dice import Dice
from domain.core.errors import RuleViolation
from domain.novus import limbs
from domain.novus.actions import Action, move_of
from domain.novus.data import NovusData
from domain.novus.dice import roll_2d10, save_bonus, succeeds
from domain.novus.events import DisarmSaveRolled
from domain.novus.moves import MoveRule
from domain.novus.sheet import NovusSheet

DISARM_TN = 15  # N19: "saves vs Str at TN 15 + 1 for every 5 points the roll beat DEF"


def check_move(data: NovusData, name: str, sheet: NovusSheet, a: Action, disarmed: Sequence[str]) -> None:
    """An attack's (or a Dodge's, a Block's) Combat Move: one of the encounter's, performed as that action,
    with a weapon it fits; an advanced one learnt for the weapon's Combat Skill ("Moves are bought separately
    for each Combat Skill"), a Basic one "free with any Combat
    Skill that has at least 1 rank" (the plain attack needs none: "Any character may make an untrained ...
    attack"). A disarmed weapon is not in hand."""
    if a.weapon is not None and a.weapon in disarmed and a.kind in ("attack", "mounted_charge"):
        raise RuleViolation("novus_disarmed", f"weapon: {name}'s {a.weapon} was knocked away (Disarm): "
                            "pick it up first (a Simple action naming it).")
    if a.move is None and a.distance is None:
        return
    if a.kind not in ("attack", "dodge", "block"):
        raise RuleViolation("novus_bad_action", f"move: only an attack, a Dodge or a Block is a Combat Move ({a.kind}).")
    move = move_of(data, sheet, a)
    if move is None:
        raise RuleViolation("novus_unknown_move", f"move: “{a.move}” is not one of this encounter's Combat Moves "
                            f"({', '.join(m.name for m in data.moves)}).")
    if move.use != a.kind:
        raise RuleViolation("novus_bad_action", f"move: {move.name} is performed as a {move.use}, not as a {a.kind}.")
    weapon = sheet.weapon(a.weapon)
    ranged = weapon is not None and weapon.kind == "missile"
    if a.kind == "attack":
        if (move.family == "ranged") != ranged:
            raise RuleViolation("novus_bad_action", f"move: {move.name} is a {move.family} move; the "
                                f"{weapon.name if weapon else 'bare hand'} is {'a missile' if ranged else 'not a missile'} weapon.")
        if move.family == "unarmed" and weapon is not None and weapon.kind != "unarmed":
            raise RuleViolation("novus_bad_action", f"move: {move.name} is an Unarmed Combat Move.")
        if move.edged_only and not (weapon is not None and weapon.edged):
            raise RuleViolation("novus_bad_action", f"move: {move.name} is for edged weapons only (the weapon's edged).")
    if a.distance is not None and not ranged:
        raise RuleViolation("novus_bad_action", "distance: only a shot with a missile weapon names its distance.")
    skill = sheet.skill(weapon.skill) if weapon is not None else None
    if not move.basic:
        if skill is None:
            raise RuleViolation("novus_move_not_known", f"move: {move.name} is learnt for a Combat Skill; the "
                                f"{weapon.name if weapon else 'bare hand'} is used with none (Brawling: the Basic moves only).")
        if move.name.lower() not in sheet.learnt(skill.name):
            raise RuleViolation("novus_move_not_known", f"move: {name} has not learnt {move.name} for {skill.name} "
                                f"(the sheet's skills[{sheet.skills.index(skill)}].moves).")
        return
    plain = move_of(data, sheet, Action(kind=a.kind, weapon=a.weapon))
    if move is not plain and (skill is None or skill.ranks < 1):
        raise RuleViolation("novus_move_not_known", f"move: {move.name} comes free with at least 1 rank in the "
                            "weapon's Combat Skill.")


def learnt_attacks(data: NovusData, sheet: NovusSheet, weapon: str | None) -> list[str]:
    """The advanced attack moves learnt for the weapon's Combat Skill that the encounter's table has
    (offered when declaring)."""
    w = sheet.weapon(weapon)
    known = sheet.learnt(w.skill if w is not None else None)
    return [m.name for m in data.moves if not m.basic and m.use == "attack" and m.name.lower() in known]


def check_declaration(data: NovusData, sheet: NovusSheet, actions: Sequence[Action], defensive: int,
                      defensive_weapon: str | None, disarmed: Sequence[str]) -> None:
    """All Out Attack: "not allowed while Fighting Defensively"; and Fighting Defensively needs "the
    weapon(s) for the Melee Combat Skill that he is shifting towards DEF in his hand" (not disarmed)."""
    if not defensive:
        return
    if defensive_weapon in disarmed:
        raise RuleViolation("novus_disarmed", f"defensive_weapon: the {defensive_weapon} was knocked away (Disarm): "
                            "it is not in hand.")
    for a in actions:
        move = move_of(data, sheet, a)
        if move is not None and move.not_defensive:
            raise RuleViolation("novus_bad_action", f"move: {move.name} is not allowed while Fighting Defensively "
                                "(defensive).")


def attack_modifier(data: NovusData, sheet: NovusSheet, a: Action) -> int:
    """The move's AB ("a modifier to every roll made with that Combat Skill while using the move") and,
    a shot, its range penalty at ``distance``."""
    move = move_of(data, sheet, a)
    if move is None:
        return 0
    weapon = sheet.weapon(a.weapon)
    increment = move.rng or (weapon.range if weapon is not None else 0)
    return move.ab + move.range_modifier(a.distance, increment)


def round_def(data: NovusData, sheet: NovusSheet, actions: Sequence[Action], hits: Mapping[str, int]) -> int:
    """"DEF is a modifier to the user's DEF for the whole round the move is used": each move declared
    this round once, however often it is performed (OURS); a move's DEF less the -2 a hit on the limbs
    it uses (N14, a Dodge's legs)."""
    used: dict[str, MoveRule] = {}
    for a in actions:
        move = move_of(data, sheet, a)
        if move is not None:
            used[move.name] = move
    return sum(limbs.hindered(m.defence, data.limbs, hits, m.use) for m in used.values())


def damage_parts(move: MoveRule | None, base: int, scaled: int, armour: int) -> tuple[int, int, int]:
    """Base Damage, Scaled Damage and the armour the hit meets, as the move changes them: All Out Attack's
    "+4 Base Damage"; Cut's "Base Damage only (no Scaled), and it ignores armour"; none (a Disarm)."""
    if move is None:
        return base, scaled, armour
    if move.damage == "none":
        return 0, 0, 0
    base += move.base_damage
    if move.damage == "base_only":
        scaled = 0
    return base, scaled, 0 if move.ignores_armour else armour


def disarm_save(dice: Dice, attacker: str, target: str, sheet: NovusSheet, declared: Sequence[Action],
                disarmed: Sequence[str], beat: int, tn: int | None = None) -> DisarmSaveRolled | None:
    """The foe's Saving Throw vs Str against a Basic Disarm that hit by ``beat`` over DEF (or at ``tn``: the
    Boon Disarm Foe's). The weapon at stake (OURS): the one of the foe's declared attacks this round, else
    the first melee weapon on the sheet; none in hand, no save."""
    names = [a.weapon for a in declared if a.kind in ("attack", "mounted_charge") and a.weapon]
    names += [w.name for w in sheet.weapons if w.kind == "melee"]
    weapon = next((w for w in names if w not in disarmed), None)
    if weapon is None:
        return None
    roll = roll_2d10(dice, "save vs str (disarm)", target)
    bonus = save_bonus(sheet.stats.strength.bonus)
    tn = DISARM_TN + beat // 5 if tn is None else tn
    total = roll.total + bonus
    passed = succeeds(total, tn)
    event = DisarmSaveRolled(combatant_id=target, attacker=attacker, weapon=weapon, dice=list(roll.dice),
                             rolled=roll.total, nova=roll.nova, bonus=bonus, total=total, tn=tn, passed=passed)
    if passed:
        return event
    feet = dice.roll(10, "disarmed weapon flies (ft)", target)
    return msgspec.structs.replace(event, feet=feet.face, feet_dice=[feet])
