"""Grappling, as far as the attack exchange needs it (the rest of the non-lethal moves come
with the combat chapter's remaining rules).

"Grapple (2 AP): ... This is handled as an Opposed Roll between your Brawling skill and the
target's Brawling skill. This action costs Action Points for you, but not for your target.
If you fail then you are knocked down and are considered Prone until you can regain your
feet. If you succeed then your opponent is in your grip and unable to move." "If you are in
control of the grapple then you may release your opponent at any time as a free action."

Both sides roll Strength + Brawling (every roll in the game pairs an Attribute and a
Skill); a tie holds no grip.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.contests import Contestant, OpposedRolled, contestant_dice, roll_contestant, level_reached
from domain.places_of_power.harm import PenaltyPayment, apply_penalties, penalty_points, take_hits
from domain.places_of_power.table import rules, sheet, spend, with_rules, with_sheet

GRAPPLE_COST = 2


class Grapple(Command, tag="Grapple"):
    """Grapple a combatant in reach (2 AP, on your turn). Reported dice: your two dice, then
    the target's."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class ReleaseGrapple(Command, tag="ReleaseGrapple"):
    """The combatant in control lets go (a free action)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class BreakFree(Command, tag="BreakFree"):
    """The held combatant tries to break free or turn the tables (2 AP, an opposed Brawling
    roll at a 1-point penalty; free for the holder). ``reverse``: on a win, hold the holder.
    ``penalties``: one per Penalty Point, ``StepDownDie`` (one of your dice) or ``IncreaseCost``."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    reverse: bool = False
    penalties: Annotated[list[str], msgspec.Meta(max_length=6)] = msgspec.field(default_factory=list)


class Squeeze(Command, tag="Squeeze"):
    """The holder spends 2 AP to inflict 1 Hit of unavoidable damage on the held."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class GrappleAttempted(Event, tag="GrappleAttempted"):
    combatant_id: CombatantId
    target: CombatantId
    action_points: int
    roll: OpposedRolled
    held: bool

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


class GrappleEnded(Event, tag="GrappleEnded"):
    controller: CombatantId
    held: CombatantId
    reason: str


class BreakFreeRolled(Event, tag="BreakFreeRolled"):
    combatant_id: CombatantId
    holder: CombatantId
    action_points: int
    roll: OpposedRolled
    freed: bool
    reversed: bool

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


class Squeezed(Event, tag="Squeezed"):
    controller: CombatantId
    held: CombatantId
    action_points: int


COMMANDS = (Grapple, ReleaseGrapple, BreakFree, Squeeze)
EVENTS = (GrappleAttempted, GrappleEnded, BreakFreeRolled, Squeezed)


def cost_only(penalties: list[str]) -> None:
    """Actions rolled by nobody or by others (a squeeze, a Special Action, a suppressing shot)
    have no difficulty to raise and no die of their own: their Penalty Points are paid in
    Action Points."""
    if any(p != "IncreaseCost" for p in penalties):
        raise RuleViolation("penalty_not_applicable", "This action rolls no dice of its own: its Penalty Points are "
                            "paid in Action Points (IncreaseCost).")


def pay_opposed(state: EncounterState, side: Contestant, penalties: list[str], owed: int, cost: int, *,
                lowest_if_missing: bool = False) -> PenaltyPayment:
    """The Penalty Points of an opposed roll, as the roller chooses them: "the Player is free to
    select the specific penalty or penalties of their choice". "Reduce Dice Value" steps one of
    the roller's own two dice down (after Advantage, Disadvantage and Conditions: "Condition
    effects still apply when choosing this option"); "Increase Action Point Cost" adds an Action
    Point. An opposed roll has no Difficulty Level to increase ("the person who rolls the
    highest wins") and no Base Damage to reduce: those two are refused."""
    return apply_penalties(penalties, owed, difficulty=None,
                           dice=contestant_dice(state, side, lowest_if_missing=lowest_if_missing), cost=cost,
                           base_damage=0)


def penalty_owed(
    state: EncounterState, combatant_id: str, *, breaking_free: bool = False, grapple_move: bool = False
) -> int:
    """Penalty Points an action owes: the wounds' ("1 Penalty Point" Wounded, "2" Afflicted)
    plus the grapple's: "You can attempt to perform other actions, but you do so with a 1
    Point Penalty" (in control), "They can also attempt to perform other actions when
    grappled, but do so at a 2 Point Penalty" (held; breaking free itself is "with a 1
    Point Penalty"). The holder's own grapple moves (a Human Shield) are not "other actions"."""
    owed = penalty_points(sheet(state.combatants[combatant_id]).hits)
    if controlled_by(state, combatant_id) is not None and not grapple_move:
        owed += 1
    if combatant_id in rules(state).grapples:
        owed += 1 if breaking_free else 2
    return owed


def controlled_by(state: EncounterState, combatant_id: str) -> str | None:
    """Whom ``combatant_id`` holds in a grapple they control, if anyone."""
    for held, controller in rules(state).grapples.items():
        if controller == combatant_id:
            return held
    return None


def grapple(ruleset: object, state: EncounterState, cmd: Grapple, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id or sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} cannot be grappled.")
    if cmd.target in rules(state).grapples or controlled_by(state, c.id) is not None:
        raise RuleViolation("already_grappling", "One of you is already in a grapple.")
    mine = Contestant(combatant_id=c.id, attribute="strength", skill="Brawling")
    pay = pay_opposed(state, mine, cmd.penalties, penalty_owed(state, c.id), GRAPPLE_COST)
    ruleset.spend_action_points(c, pay.cost, "Grapple")
    sides = [
        roll_contestant(state, mine, dice, sizes=pay.dice),
        roll_contestant(state, Contestant(combatant_id=target.id, attribute="strength", skill="Brawling"), dice),
    ]
    held = sides[0].total > sides[1].total
    winner = None if sides[0].total == sides[1].total else (c.id if held else target.id)
    by_level = winner is not None and abs(level_reached(sides[0].total) - level_reached(sides[1].total)) > 0
    roll = OpposedRolled(sides=sides, winner=winner, by_a_level=by_level, reason="Grapple")
    return [GrappleAttempted(combatant_id=c.id, target=target.id, action_points=pay.cost, roll=roll, held=held)]


def break_free(ruleset: object, state: EncounterState, cmd: BreakFree, dice: Dice) -> list[Event]:
    """Quotes: "On their turn, your opponent can attempt to break free or turn the tables by way
    of an Opposed Brawling Roll, with a 1 Point Penalty. This action costs them 2 Actions
    Points but is free for you. If they win then they can choose to either end the grapple
    and break free, or turn the grapple on you instead."
    """
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    holder = rules(state).grapples.get(c.id)
    if holder is None:
        raise RuleViolation("not_grappling", f"Nobody holds {c.name} in a grapple.")
    mine = Contestant(combatant_id=c.id, attribute="strength", skill="Brawling")
    pay = pay_opposed(state, mine, cmd.penalties, penalty_owed(state, c.id, breaking_free=True), GRAPPLE_COST)
    ruleset.spend_action_points(c, pay.cost, "breaking free")
    sides = [
        roll_contestant(state, mine, dice, sizes=pay.dice),
        roll_contestant(state, Contestant(combatant_id=holder, attribute="strength", skill="Brawling"), dice),
    ]
    won = sides[0].total > sides[1].total
    winner = None if sides[0].total == sides[1].total else (c.id if won else holder)
    by_level = winner is not None and level_reached(sides[0].total) != level_reached(sides[1].total)
    roll = OpposedRolled(sides=sides, winner=winner, by_a_level=by_level, reason="Break free")
    return [BreakFreeRolled(combatant_id=c.id, holder=holder, action_points=pay.cost, roll=roll, freed=won,
                            reversed=won and cmd.reverse)]


def squeeze(ruleset: object, state: EncounterState, cmd: Squeeze) -> list[Event]:
    """Quotes: "Whilst they are in this condition you may spent 2 Action Points to inflict 1 Hit
    of unavoidable damage upon them."
    """
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    held = controlled_by(state, c.id)
    if held is None:
        raise RuleViolation("not_grappling", "You hold nobody in a grapple.")
    cost_only(cmd.penalties)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id, grapple_move=True), difficulty="Normal", dice=(),
                          cost=GRAPPLE_COST, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, "a squeeze")
    return [Squeezed(controller=c.id, held=held, action_points=pay.cost)]


def release(state: EncounterState, cmd: ReleaseGrapple) -> list[Event]:
    held = controlled_by(state, cmd.combatant_id)
    if held is None:
        raise RuleViolation("not_grappling", "You hold nobody in a grapple.")
    return [GrappleEnded(controller=cmd.combatant_id, held=held, reason="released")]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case GrappleAttempted():
            state = spend(state, event.combatant_id, event.action_points)
            if event.held:
                return with_rules(state, grapples={**rules(state).grapples, event.target: event.combatant_id})
            # "If you fail then you are knocked down and are considered Prone"
            return with_sheet(state, event.combatant_id, prone=True)
        case GrappleEnded():
            return with_rules(state, grapples={k: v for k, v in rules(state).grapples.items() if k != event.held})
        case BreakFreeRolled():
            state = spend(state, event.combatant_id, event.action_points)
            if not event.freed:
                return state
            grapples = {k: v for k, v in rules(state).grapples.items() if k != event.combatant_id}
            if event.reversed:
                grapples[event.holder] = event.combatant_id
            return with_rules(state, grapples=grapples)
        case Squeezed():
            state = spend(state, event.controller, event.action_points)
            s = sheet(state.combatants[event.held])
            harm = take_hits(min(s.hits, 20), 1, is_player=state.combatants[event.held].controller == "player",
                             injuries_before=s.injuries, helpless_for_fight=s.helpless_for_fight)
            state = with_sheet(state, event.held, hits=harm.hits, dead=harm.dead, injuries=harm.injuries,
                               helpless_for_fight=harm.helpless_for_fight)
            if harm.dead:
                state = with_rules(state, grapples={k: v for k, v in rules(state).grapples.items() if k != event.held})
            return state
    return None
