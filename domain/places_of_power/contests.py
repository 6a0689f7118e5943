"""Opposed rolls and Willpower rolls.

"This is called an Opposed Roll ... the person who rolls the highest wins the match. If
you beat your opposition by an entire difficulty level then you might even injure their
arm in the process."

"they will need to roll a D20 against their Willpower value. If they roll less than or
equal to the Willpower value then their willpower/morale held, however if they roll over
it then their willpower was broken"
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId, SheetValue
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.marks import skill_marks
from domain.places_of_power.checks import DIFFICULTIES, dice_for
from domain.places_of_power.sheet import CONDITION_OF, Attribute, sides
from domain.places_of_power.table import sheet

WILLPOWER_DIE = 20


class Contestant(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One side of an opposed roll. ``bonus``: a flat modifier the rules give (a shield's +2)."""

    combatant_id: CombatantId
    attribute: Attribute
    skill: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    advantage: bool = False
    disadvantage: bool = False
    bonus: Annotated[int, msgspec.Meta(ge=-20, le=20)] = 0


class OpposedRoll(Command, tag="OpposedRoll"):
    """The GM has two combatants roll against each other; the higher total wins. Reported
    dice: the first side's two dice, then the second side's."""

    first: Contestant
    second: Contestant
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class WillpowerRoll(Command, tag="WillpowerRoll"):
    """The GM tests a combatant's willpower or morale: a D20 at or under Willpower holds."""

    combatant_id: CombatantId
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class ContestantRolled(msgspec.Struct, kw_only=True):
    combatant_id: CombatantId
    dice: list[DieRoll]
    bonus: int
    total: int


class OpposedRolled(Event, tag="OpposedRolled"):
    """``winner``: the higher total (None on a tie: the GM decides); ``by_a_level``: the
    winner's total reached a difficulty level above the one the loser's reached."""

    sides: list[ContestantRolled]
    winner: CombatantId | None
    by_a_level: bool
    reason: str = ""

    def dice_rolled(self) -> list[DieRoll]:
        return [d for s in self.sides for d in s.dice]


class WillpowerTested(Event, tag="WillpowerTested"):
    combatant_id: CombatantId
    die: DieRoll
    willpower: SheetValue[int, "combatant_id"]
    held: bool
    reason: str = ""

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


COMMANDS = (OpposedRoll, WillpowerRoll)
EVENTS = (OpposedRolled, WillpowerTested)


def level_reached(total: int) -> int:
    """How many difficulty values the total reaches (0 below Easy, 5 at Very Hard)."""
    return sum(1 for v in DIFFICULTIES.values() if total >= v)


def opposed(state: EncounterState, cmd: OpposedRoll, dice: Dice) -> list[Event]:
    if cmd.first.combatant_id == cmd.second.combatant_id:
        raise RuleViolation("invalid_opposed_roll", "An opposed roll needs two different combatants.")
    rolled = [roll_contestant(state, side, dice) for side in (cmd.first, cmd.second)]
    a, b = rolled
    winner = None if a.total == b.total else (a if a.total > b.total else b)
    loser = None if winner is None else (b if winner is a else a)
    by_a_level = winner is not None and loser is not None and level_reached(winner.total) > level_reached(loser.total)
    marks = [m for side, r in zip((cmd.first, cmd.second), rolled, strict=True)
             for m in skill_marks(state.combatants[r.combatant_id], side.skill, critical_without_target(r.dice))]
    return [OpposedRolled(sides=rolled, winner=winner.combatant_id if winner else None, by_a_level=by_a_level,
                          reason=cmd.reason), *marks]


def critical_without_target(dice: list[DieRoll]) -> str:
    """An opposed roll has no target to be over or below; the one Critical Success the text gives
    without one: "if you roll the maximum value possible on both dice"."""
    return "Critical Success" if all(d.face == d.sides for d in dice[:2]) else ""


def contestant_dice(state: EncounterState, side: Contestant, *, lowest_if_missing: bool = False) -> tuple[int, int]:
    """The two dice one side rolls (Attribute, Skill), after Advantage, Disadvantage and the
    Attribute's Condition. ``lowest_if_missing``: a skill the sheet omits is rolled at D4 (a
    core skill every character has, such as Athletics, left off a sheet) instead of refused."""
    c = state.combatants.get(side.combatant_id)
    if c is None:
        raise RuleViolation("unknown_combatant", f"There is no combatant {side.combatant_id} in this encounter.",
                            combatant_id=side.combatant_id)
    s = sheet(c)
    skill_die = s.skill_die(side.skill) or ("D4" if lowest_if_missing else None)
    if skill_die is None:
        raise RuleViolation("unknown_skill", f"{c.name} has no skill “{side.skill}” on their sheet.", skill=side.skill)
    conditioned = CONDITION_OF[side.attribute] in s.conditions
    return dice_for(sides(s.attribute_die(side.attribute)), sides(skill_die), side.advantage,
                    side.disadvantage or conditioned)


def roll_contestant(state: EncounterState, side: Contestant, dice: Dice, *,
                    lowest_if_missing: bool = False, sizes: tuple[int, ...] | None = None) -> ContestantRolled:
    """One side's roll (``contestant_dice``). ``sizes``: the dice as a Penalty Point reduced
    them ("Reduce Dice Value"), when the roller paid one so."""
    a, k = sizes if sizes is not None else contestant_dice(state, side, lowest_if_missing=lowest_if_missing)
    c = state.combatants[side.combatant_id]
    rolls = [dice.roll(a, f"opposed roll: {side.attribute.title()}", c.id),
             dice.roll(k, "opposed roll: skill", c.id)]
    return ContestantRolled(combatant_id=c.id, dice=rolls, bonus=side.bonus,
                            total=sum(r.face for r in rolls) + side.bonus)


def willpower(state: EncounterState, cmd: WillpowerRoll, dice: Dice) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    w = sheet(c).willpower
    die = dice.roll(WILLPOWER_DIE, "willpower", c.id)
    return [WillpowerTested(combatant_id=c.id, die=die, willpower=w, held=die.face <= w, reason=cmd.reason)]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    """Opposed and Willpower rolls record their dice and results; they change no sheet."""
    if isinstance(event, (OpposedRolled, WillpowerTested)):
        return state
    return None
