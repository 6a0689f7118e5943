"""Spending Boon Points (N4, N15): which Boons the points an attack earned may buy, and the Boons that
do more than add damage at once: Disarm Foe's save and Lightning Attack's second attack. (What lasts into
the next round, Attack Boost, Inspiring Attack, Initiative Boost ..., is in the fold: domain/novus/folding.py.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import EncounterState, Event
from domain.core.errors import RuleViolation
from domain.core.pending import Choice
from domain.novus import performing
from domain.novus.actions import Action
from domain.novus.data import LIGHTNING, NovusData
from domain.novus.events import AttackRolled
from domain.novus.state import BoonsDue, rules

if TYPE_CHECKING:
    from domain.novus.ruleset import Novus

DISARM_FOE = "Disarm Foe"
DISARM_FOE_TN = 15  # N15: "the foe saves vs Str at TN 15 + the attacker's ranks in the Combat Skill"


def bought(data: NovusData, due: BoonsDue, names: Sequence[str]) -> list[str]:
    """The Boons ``names`` buy with ``due``'s points, checked: each one the GM allows, a Boon not
    marked "+" once, none with a Boon it excludes, a "2+" one named once a Boon Point and at least
    twice ("+1 AB per BP"), the head's extra points only on the impairing Boons, no more than earned."""
    points, head = due.points, due.head_points
    seen: list[str] = []
    for name in names:
        b = data.boon(name)
        if b is None:
            raise RuleViolation("novus_unknown_boon", f"“{name}” is not a Boon the GM allows here "
                                f"({', '.join(x.name for x in data.boons)}).")
        if name in seen and not b.repeatable:
            raise RuleViolation("novus_boons_over", f"{name} may be bought once.")
        if any(x in seen for x in b.excludes):
            raise RuleViolation("novus_boons_over", f"{name} does not go with {', '.join(b.excludes)}.")
        if name == LIGHTNING and due.missile:
            raise RuleViolation("novus_boons_over", "Lightning Attack: its text for ranged weapons is cut off "
                                "(novus-gaps N15): here it follows a melee attack only.")
        cost = 1 if b.repeatable else b.cost
        if name in data.impairing_boons:  # the head's extra points first, on these only
            from_head = min(head, cost)
            head, cost = head - from_head, cost - from_head
        if cost > points:
            raise RuleViolation("novus_boons_over", f"The Boons chosen cost more than the {due.points} Boon "
                                f"Point(s) earned.")
        points -= cost
        seen.append(name)
    for name, times in Counter(seen).items():
        b = data.boon(name)
        if b is not None and b.repeatable and times < b.cost:
            raise RuleViolation("novus_boons_over", f"{name} takes {b.cost} Boon Points or more: name it once for "
                                f"each Boon Point spent on it.")
    return seen


def choices(data: NovusData, due: BoonsDue, others: Sequence[tuple[str, str]] = ()) -> list[Choice]:
    """Each Boon the points buy alone, a "+" one at each number of Boon Points it may take; Lightning
    Attack also on each of ``others`` (id, name): the other foes it may strike instead."""
    out = [Choice(name="Spend none (the points are lost)", answer={"boons": []})]
    for b in data.boons:
        room = due.points + (due.head_points if b.name in data.impairing_boons else 0)
        if b.cost > room or (b.name == LIGHTNING and due.missile):
            continue
        if not b.repeatable:
            out.append(Choice(name=b.name, answer={"boons": [b.name]}))
            if b.name == LIGHTNING:
                out += [Choice(name=f"{b.name} on {name}", answer={"boons": [b.name], "lightning_target": fid})
                        for fid, name in others]
            continue
        for n in range(b.cost, room + 1):  # "+": a Boon Point's worth each time
            out.append(Choice(name=b.name if n == 1 else f"{b.name} ×{n}", answer={"boons": [b.name] * n}))
    return out


def disarm(state: EncounterState, due: BoonsDue, seen: Sequence[str], dice: Dice) -> list[Event]:
    """Disarm Foe: "the foe saves vs Str at TN 15 + the attacker's ranks in the Combat Skill, or the weapon
    flies 1-10 ft" (the foe dead: no save; no weapon in hand: none either)."""
    r = rules(state)
    t = state.combatants.get(due.target)
    if DISARM_FOE not in seen or t is None or t.id in r.dead:
        return []
    theirs = r.declared.get(t.id)
    save = performing.disarm_save(dice, due.attacker, t.id, t.sheet, theirs.actions if theirs else [],
                                  r.disarmed.get(t.id, []), 0, tn=DISARM_FOE_TN + due.skill_ranks)
    return [save] if save is not None else []


def lightning_foe(novus: Novus, state: EncounterState, due: BoonsDue, seen: Sequence[str],
                  target: str | None) -> str:
    """Whom Lightning Attack strikes: ``target`` ("another foe within range and sight": of another side,
    not dead; range and sight are the table's, the engine keeps no positions), or the same foe."""
    if target is None or target == due.target:
        return due.target
    if LIGHTNING not in seen:
        raise RuleViolation("novus_boons_over", "lightning_target names the foe of a Lightning Attack: buy one "
                            "to name it.")
    foe, attacker = novus.combatant(state, target), state.combatants[due.attacker]
    if foe.id == attacker.id or foe.side == attacker.side:
        raise RuleViolation("novus_not_a_target", f"Lightning Attack strikes a foe, and {foe.name} is on "
                            f"{attacker.name}'s side.")
    if foe.id in rules(state).dead:
        raise RuleViolation("novus_not_a_target", f"{foe.name} is dead: Lightning Attack needs a foe still in the fight.")
    return foe.id


def lightning(novus: Novus, state: EncounterState, due: BoonsDue, seen: Sequence[str], dice: Dice,
              target: str) -> list[Event]:
    """Lightning Attack: "a second attack on the same or another foe within range and sight": at once, on
    ``target`` (``lightning_foe``) with the same weapon, a plain attack. It counts as none of the declared
    actions."""
    r = rules(state)
    if LIGHTNING not in seen or target not in state.combatants or target in r.dead \
            or due.attacker not in state.combatants or not novus.can_act(state, due.attacker):
        return []
    second = Action(kind="attack", target=target, weapon=due.weapon)
    return [msgspec.structs.replace(e, lightning=True) if isinstance(e, AttackRolled) and e.combatant_id == due.attacker
            else e for e in novus._roll_attack(state, due.attacker, second, dice, due.instead, False)]
