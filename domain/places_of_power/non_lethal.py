"""Non-lethal attacks: Trip and Disarm (Grapple is in grapples.py).

"Trip (2 AP): ... This is handled as an Opposed Roll between your skill level with the
weapon you are using and the target's Evade skill. If you are successful then your target
is knocked down and is considered Prone ... This Actions costs Action Points for you, but
not for your target."

"Disarm (2 AP): The weapon your target is using is knocked from their hands and lands Near
to them ... This is handled as an Opposed Roll between your skill level with the weapon you
are using and your target's skill level with the weapon they are using. If your target is
using a two handed weapon then you roll at a Disadvantage. You cannot Disarm a shield."

Every roll pairs an Attribute with the Skill: the weapon skill with Strength, the Evade
skill (Athletics) with Agility, as the Evade defence does.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.contests import Contestant, OpposedRolled, level_reached, roll_contestant
from domain.places_of_power.grapples import pay_opposed, penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.checks import dice_for, judge
from domain.places_of_power.sheet import CONDITION_OF, sides
from domain.places_of_power.table import sheet, spend, with_sheet
from domain.places_of_power.weapons import UNARMED, Weapon

COST = {"Trip": 2, "Disarm": 2}


class NonLethalAttack(Command, tag="NonLethalAttack"):
    """Trip or Disarm a combatant in reach with the weapon in your hand (none: Unarmed).
    Reported dice: your two dice, then the target's."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    move: Literal["Trip", "Disarm"]
    weapon: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class NonLethalAttackRolled(Event, tag="NonLethalAttackRolled"):
    combatant_id: CombatantId
    target: CombatantId
    move: str
    action_points: int
    roll: OpposedRolled
    success: bool
    weapon_lost: str | None = None

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


COMMANDS: tuple[type[Command], ...] = (NonLethalAttack,)
EVENTS: tuple[type[Event], ...] = (NonLethalAttackRolled,)


def _in_hand(c: Combatant, name: str | None) -> Weapon:
    s = sheet(c)
    if name is None:
        return UNARMED
    for w in s.weapons:
        if w.name == name and name not in s.dropped_weapons:
            return w
    raise RuleViolation("unknown_weapon", f"{c.name} has no {name} at hand.")


def _held(c: Combatant) -> Weapon | None:
    s = sheet(c)
    return next((w for w in s.weapons if w.kind == "melee" and w.name not in s.dropped_weapons), None)


def non_lethal(ruleset: object, state: EncounterState, cmd: NonLethalAttack, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id or sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} cannot be the target.")
    weapon = _in_hand(c, cmd.weapon)
    if weapon.kind != "melee":
        raise RuleViolation("wrong_weapon", f"{cmd.move} is done with a melee weapon or bare hands.")
    disadvantage = False
    theirs = None
    if cmd.move == "Disarm":
        theirs = _held(target)
        if theirs is None:
            raise RuleViolation("nothing_to_disarm", f"{target.name} holds no weapon.")
        if theirs.shield:
            raise RuleViolation("nothing_to_disarm", "You cannot Disarm a shield.")
        disadvantage = theirs.two_handed  # "a two handed weapon then you roll at a Disadvantage"
        defence = Contestant(combatant_id=target.id, attribute="strength", skill=theirs.skill)
    else:
        defence = Contestant(combatant_id=target.id, attribute="agility", skill="Athletics")
    mine = Contestant(combatant_id=c.id, attribute="strength", skill=weapon.skill, disadvantage=disadvantage)
    pay = pay_opposed(state, mine, cmd.penalties, penalty_owed(state, c.id), COST[cmd.move])
    ruleset.spend_action_points(c, pay.cost, cmd.move)
    sides = [
        roll_contestant(state, mine, dice, sizes=pay.dice),
        roll_contestant(state, defence, dice),
    ]
    success = sides[0].total > sides[1].total
    winner = None if sides[0].total == sides[1].total else (c.id if success else target.id)
    by_level = winner is not None and level_reached(sides[0].total) != level_reached(sides[1].total)
    roll = OpposedRolled(sides=sides, winner=winner, by_a_level=by_level, reason=cmd.move)
    return [NonLethalAttackRolled(
        combatant_id=c.id, target=target.id, move=cmd.move, action_points=pay.cost, roll=roll, success=success,
        weapon_lost=theirs.name if success and theirs is not None else None,
    )]


def _evolve_attack(state: EncounterState, event: NonLethalAttackRolled) -> EncounterState:
    state = spend(state, event.combatant_id, event.action_points)
    if not event.success:
        return state
    if event.move == "Trip":  # "your target is knocked down and is considered Prone"
        return with_sheet(state, event.target, prone=True)
    s = sheet(state.combatants[event.target])  # "knocked from their hands and lands Near to them"
    return with_sheet(state, event.target, dropped_weapons=[*s.dropped_weapons, event.weapon_lost or ""])


class Taunt(Command, tag="Taunt"):
    """Taunt an NPC (1 AP, on your turn): Persuasion + Strength at Normal if the NPC has not
    yet engaged in the combat, Difficult if it has. The GM decides the effect on its Combat
    Stance. Reported dice: the Strength die, then the Persuasion die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    engaged: bool
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class TauntRolled(Event, tag="TauntRolled"):
    combatant_id: CombatantId
    target: CombatantId
    action_points: int
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


TAUNT_COST = 1


def taunt(ruleset: object, state: EncounterState, cmd: Taunt, dice: Dice) -> list[Event]:
    """Quotes: "Taunt (1 AP): You can attempt to change the targeted NPC's Combat Stance. Roll
    Persuasion + Strength with a Difficulty Level of Normal if the target has not yet engaged in
    the combat, and Difficult if they have. The GM will decide the exact effect this has"."""
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    if target.controller != "gm" or target.id == c.id:
        raise RuleViolation("invalid_target", "Only an NPC can be taunted.")
    s = sheet(c)
    persuasion = s.skill_die("Persuasion")
    if persuasion is None:
        raise RuleViolation("unknown_skill", f"{c.name} has no skill “Persuasion” on their sheet.", skill="Persuasion")
    difficulty = "Difficult" if cmd.engaged else "Normal"
    a, k = dice_for(sides(s.attribute_die("strength")), sides(persuasion), False, CONDITION_OF["strength"] in s.conditions)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty=difficulty, dice=(a, k),
                          cost=TAUNT_COST, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, "Taunt")
    rolled = [dice.roll(n, f"taunt: {label}", c.id) for n, label in zip(pay.dice, ("Strength", "Persuasion"),
                                                                         strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    return [TauntRolled(combatant_id=c.id, target=target.id, action_points=pay.cost, dice=rolled,
                        total=sum(d.face for d in rolled), difficulty=pay.difficulty, outcome=outcome)]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if isinstance(event, NonLethalAttackRolled):
        return _evolve_attack(state, event)
    if isinstance(event, TauntRolled):
        return spend(state, event.combatant_id, event.action_points)
    return None


COMMANDS = (*COMMANDS, Taunt)
EVENTS = (*EVENTS, TauntRolled)
