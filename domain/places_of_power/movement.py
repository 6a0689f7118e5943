"""Range bands, moving, free actions, Dash, Disengaging and Shove.

"Everything in a combat encounter is considered to be either at Melee, Close, Near, Far, or
Long Range." The engine keeps the band between pairs of combatants the GM has placed
(``SetRange``); a move changes the band to the combatant moved toward or away from, and the
GM re-places the others as the story says.

How far a turn's movement goes, in half-steps (every figure from the Movement section):

- Melee↔Close 2, Close↔Near 2, Near↔Far 4, Far↔Long 8.
- A turn's movement is 4 half-steps: "Things that are Near of you can be reached on your turn
  by using your movement action" (Near→Melee: 4). "Far ... will required more than a single
  movement action to reach, but no more than three" (Far→Melee: 8, two turns). "Long ...
  will take at least four turns, or two if you choose to Dash each turn" (Long→Melee: 16).
- Dash doubles it ("Double your normal movement range for this turn"); an Enemy's Speed
  halves it (Slow) or moves "as if using the Dash ability, but without paying the Action
  Point cost" (Fast); Crippled halves it ("Movement is halved").
- A step to the next band longer than what is left of the turn's movement (Far to Long, or
  any step at halved movement) is begun and finished on a later turn.
- "Close: To reach an object in Close range you will need to use a free action": the Small
  Change of Position free action moves between Melee and Close without using the movement.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.checks import dice_for, judge
from domain.places_of_power.contests import Contestant, OpposedRolled, level_reached, roll_contestant
from domain.places_of_power.grapples import pay_opposed, penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.sheet import CONDITION_OF, sides
from domain.places_of_power.statuses import has, status
from domain.places_of_power.table import can_act, replace, rules, sheet, spend, with_rules, with_sheet
from domain.places_of_power.weapons import RANGE_BANDS, UNARMED

Band = Literal["Melee", "Close", "Near", "Far", "Long"]
FreeActionKind = Literal["SmallChangeOfPosition", "PickUp", "Drop", "ShoutCommand", "DrawWeapon"]
Penalties = Annotated[list[str], msgspec.Meta(max_length=4)]

STEP = {("Melee", "Close"): 2, ("Close", "Near"): 2, ("Near", "Far"): 4, ("Far", "Long"): 8}
TURN_MOVEMENT = 4
SPEED = {"Slow": TURN_MOVEMENT // 2, "Normal": TURN_MOVEMENT, "Fast": TURN_MOVEMENT * 2}
DISENGAGE_COST = 1  # "you must spend 1 Action Point and roll an Athletics + Agility Check at Normal"
SHOVE_COST = 1
SHIELD_BONUS = 2  # "If you are armed with a shield you can Shove with that. Doing so gives you +2"
REACH = ("Melee", "Close")  # "Most of these actions can only be used if you are in Melee or Close Range"


class Partway(msgspec.Struct, kw_only=True):
    """A step to the next band begun on an earlier turn: ``done`` half-steps of it made."""

    band: str
    done: int


class Positions(msgspec.Struct, kw_only=True):
    """Where everyone stands. ``ranges``: the band between two combatants (key ``a|b``, ids
    sorted); the rest is the turn now being played: half-steps of movement used, Dash taken,
    a movement made, the free actions used; ``disengaged``: the round of each combatant's
    last Disengage attempt; ``partway``: steps to the next band begun on earlier turns (a step
    longer than a turn's movement - Far to Long, or any halved movement - takes several)."""

    ranges: dict[str, str] = msgspec.field(default_factory=dict)
    partway: dict[str, Partway] = msgspec.field(default_factory=dict)
    used: int = 0
    dashed: bool = False
    moved: bool = False
    free_actions: list[str] = msgspec.field(default_factory=list)
    disengaged: dict[CombatantId, int] = msgspec.field(default_factory=dict)


# ------------------------------------------------------------------------ commands


class SetRange(Command, tag="SetRange"):
    """The GM places two combatants at a range band from each other."""

    a: CombatantId
    b: CombatantId
    band: Band


class Move(Command, tag="Move"):
    """Use the turn's movement to go to a range ``band`` from a combatant (``toward``), nearer or
    farther."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    toward: CombatantId
    band: Band


class FreeAction(Command, tag="FreeAction"):
    """A free action, one of each kind a turn: ``SmallChangeOfPosition`` (between Melee and
    Close of ``toward``: ``band``), ``PickUp`` / ``Drop`` / ``DrawWeapon`` (``item``: a weapon
    name), ``ShoutCommand`` (``words``: a few short words)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    kind: FreeActionKind
    toward: CombatantId | None = None
    band: Band | None = None
    item: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    words: Annotated[str, msgspec.Meta(max_length=80)] | None = None


class Disengage(Command, tag="Disengage"):
    """Pull back from melee (1 AP, once a round): Athletics + Agility at Normal. Success moves
    you out of reach of everyone engaging you. Reported dice: Agility die, then Athletics."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    penalties: Penalties = msgspec.field(default_factory=list)


class Shove(Command, tag="Shove"):
    """Shove a target at Melee or Close range to Near (1 AP): opposed Athletics + Strength,
    +2 with a shield at hand. ``edge``: the GM says the target stands at an edge: a
    successful shove makes them fall (Prone; the GM applies the Fall Damage). Reported dice:
    your two dice, then the target's."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    edge: bool = False
    penalties: Penalties = msgspec.field(default_factory=list)


COMMANDS = (SetRange, Move, FreeAction, Disengage, Shove)

# -------------------------------------------------------------------------- events


class RangeSet(Event, tag="RangeSet"):
    a: CombatantId
    b: CombatantId
    band: str
    reason: str = ""


class Moved(Event, tag="Moved"):
    combatant_id: CombatantId
    toward: CombatantId
    from_band: str
    band: str
    half_steps: int
    free: bool = False
    partway: bool = False  # the step to ``band`` is begun, not finished: the band is unchanged


class FreeActionTaken(Event, tag="FreeActionTaken"):
    combatant_id: CombatantId
    kind: str
    item: str | None = None
    words: str | None = None


class DisengageRolled(Event, tag="DisengageRolled"):
    """``ranges``: the bands to each opponent afterwards (on success)."""

    combatant_id: CombatantId
    action_points: int
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str
    success: bool
    ranges: dict[CombatantId, str] = msgspec.field(default_factory=dict)

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class ShoveRolled(Event, tag="ShoveRolled"):
    combatant_id: CombatantId
    target: CombatantId
    action_points: int
    roll: OpposedRolled
    success: bool
    fell: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


EVENTS = (RangeSet, Moved, FreeActionTaken, DisengageRolled, ShoveRolled)

# --------------------------------------------------------------------------- reading


def positions(state: EncounterState) -> Positions:
    p = getattr(rules(state), "positions", None)
    return p if isinstance(p, Positions) else Positions()


def _key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def concealed(p: Positions, hidden: frozenset[str], their_turn: bool) -> Positions:
    """``p`` without the ``hidden`` combatants: no band to or from them, no step of theirs
    under way, no Disengage of theirs; while one of them has the turn, nothing of its movement."""
    def seen(key: str) -> bool:
        return not any(c in hidden for c in key.split("|"))

    turn = Positions() if their_turn else p
    return replace(
        turn,
        ranges={k: v for k, v in p.ranges.items() if seen(k)},
        partway={k: v for k, v in p.partway.items() if seen(k)},
        disengaged={k: v for k, v in p.disengaged.items() if k not in hidden},
    )


def band_between(state: EncounterState, a: str, b: str) -> str | None:
    """The tracked band between two combatants; None when the GM has not placed them."""
    return positions(state).ranges.get(_key(a, b))


def half_steps(a: str, b: str) -> int:
    i, j = sorted((RANGE_BANDS.index(a), RANGE_BANDS.index(b)))
    return sum(STEP[(RANGE_BANDS[k], RANGE_BANDS[k + 1])] for k in range(i, j))


def allowance(c: Combatant, dashed: bool) -> int:
    block = sheet(c).stat_block
    base = SPEED[block.speed] if block is not None else TURN_MOVEMENT
    if dashed:
        base *= 2
    return base // 2 if has(c, "Crippled") else base


def _able(c: Combatant) -> bool:
    s = sheet(c)
    out = getattr(s, "fled", False)
    return not (s.dead or s.hits >= 4 or s.helpless_for_fight or out or has(c, "Paralysed")
                or has(c, "Unconscious"))


def engaged_by(state: EncounterState, c: Combatant) -> list[Combatant]:
    """Able opponents (another side) at Melee range."""
    return [o for o in state.combatants.values()
            if o.id != c.id and o.side != c.side and band_between(state, c.id, o.id) == "Melee" and _able(o)]



def _can_move(state: EncounterState, c: Combatant) -> None:
    s = sheet(c)
    can_act(c)
    for name in ("Entangled", "Paralysed"):
        if has(c, name):  # Entangled: "You are unable to move"; Paralysed: "You cannot move"
            raise RuleViolation("cannot_move", f"{c.name} is {name} and cannot move.", status=name)
    if c.id in rules(state).grapples:  # "your opponent is in your grip and unable to move"
        raise RuleViolation("cannot_move", f"{c.name} is held in a grapple and cannot move.")
    if s.prone:  # "You will need to spend 1 Action Point to regain your feet."
        raise RuleViolation("prone", f"{c.name} is Prone: Stand first (1 AP).")


def _check_step(state: EncounterState, c: Combatant, toward: str, band: str) -> str:
    """The band now, after checking the step to ``band`` is allowed."""
    if toward == c.id or toward not in state.combatants:
        raise RuleViolation("invalid_target", "Move toward or away from another combatant.")
    now = band_between(state, c.id, toward)
    if now is None:
        name = state.combatants[toward].name
        raise RuleViolation("range_unknown", f"The GM has not placed {c.name} and {name} yet (SetRange).")
    if now == band:
        raise RuleViolation("already_there", f"{c.name} is already at {band} range.")
    _can_move(state, c)
    closer = RANGE_BANDS.index(band) < RANGE_BANDS.index(now)
    fear = status(c, "Frightened")
    if closer and fear is not None and fear.source == toward:
        # "You cannot choose to move closer to the source of your fear."
        raise RuleViolation("frightened", f"{c.name} is Frightened and cannot move closer to its source.")
    engaged = engaged_by(state, c)
    if engaged and not (closer and toward in {o.id for o in engaged}):
        # "if you are stuck in melee combat ... If you wish to pull back from melee combat you
        # must spend 1 Action Point and roll an Athletics + Agility Check"
        names = ", ".join(o.name for o in engaged)
        raise RuleViolation("engaged_in_melee", f"{c.name} is in melee with {names}: Disengage first.")
    return now


# -------------------------------------------------------------------------- deciding


def set_range(ruleset: Any, state: EncounterState, cmd: SetRange) -> list[Event]:
    ruleset.combatant(state, cmd.a)
    ruleset.combatant(state, cmd.b)
    if cmd.a == cmd.b:
        raise RuleViolation("invalid_target", "A range is between two different combatants.")
    return [RangeSet(a=cmd.a, b=cmd.b, band=cmd.band, reason="the GM")]


def move(ruleset: Any, state: EncounterState, cmd: Move) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    now = _check_step(state, c, cmd.toward, cmd.band)
    p = positions(state)
    begun = p.partway.get(_key(c.id, cmd.toward))
    cost = half_steps(now, cmd.band) - (begun.done if begun is not None and begun.band == cmd.band else 0)
    left = allowance(c, p.dashed) - p.used
    one_step = abs(RANGE_BANDS.index(now) - RANGE_BANDS.index(cmd.band)) == 1
    if cost > left and one_step and left > 0:
        # Long "will take at least four turns": a step longer than what is left of the turn's
        # movement is begun now and finished on a later turn.
        return [Moved(combatant_id=c.id, toward=cmd.toward, from_band=now, band=cmd.band, half_steps=left,
                      partway=True)]
    if cost > left:
        hint = "" if p.dashed else " (Dash doubles it for 1 AP)"
        raise RuleViolation("too_far", f"{c.name} cannot get from {now} to {cmd.band} range this turn: {cost} "
                            f"half-steps, {left} left{hint}.", needed=cost, left=left)
    return [Moved(combatant_id=c.id, toward=cmd.toward, from_band=now, band=cmd.band, half_steps=cost)]


def free_action(ruleset: Any, state: EncounterState, cmd: FreeAction) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    can_act(c)  # Helpless: "You are unable to perform ANY actions on your own."
    if cmd.kind in positions(state).free_actions:
        # "You can perform as many of these Free Actions as you like on your turn, but only one
        # of each type."
        raise RuleViolation("free_action_used", f"{c.name} has already used {cmd.kind} this turn.")
    s = sheet(c)
    if cmd.kind == "SmallChangeOfPosition":
        if cmd.toward is None or cmd.band is None:
            raise RuleViolation("missing_detail", "A Small Change of Position names `toward` and `band`.")
        now = _check_step(state, c, cmd.toward, cmd.band)
        if {now, cmd.band} != {"Melee", "Close"}:
            raise RuleViolation("too_far", "A Small Change of Position goes between Melee and Close range only.")
        return [Moved(combatant_id=c.id, toward=cmd.toward, from_band=now, band=cmd.band, half_steps=0, free=True),
                FreeActionTaken(combatant_id=c.id, kind=cmd.kind)]
    if cmd.kind == "ShoutCommand":
        if not cmd.words:
            raise RuleViolation("missing_detail", "Shout a Command names its `words` (a few short words).")
        return [FreeActionTaken(combatant_id=c.id, kind=cmd.kind, words=cmd.words)]
    if cmd.item is None:
        raise RuleViolation("missing_detail", f"{cmd.kind} names the `item` (a weapon).")
    at_hand = [w.name for w in s.weapons]
    if cmd.kind == "PickUp":
        if cmd.item not in s.dropped_weapons:
            raise RuleViolation("nothing_to_pick_up", f"{c.name} has no dropped {cmd.item} to pick up.")
        # "Should they wish to pick it up on their turn they must use their movement action to
        # reach it, and their Free Pick Up Action to recover it."
        if not positions(state).moved:
            raise RuleViolation("move_first", f"The {cmd.item} lies Near: {c.name} must move to it first.")
    elif cmd.item not in at_hand or cmd.item in s.dropped_weapons:
        raise RuleViolation("unknown_weapon", f"{c.name} has no {cmd.item} at hand.")
    return [FreeActionTaken(combatant_id=c.id, kind=cmd.kind, item=cmd.item)]


def disengage(ruleset: Any, state: EncounterState, cmd: Disengage, dice: Dice) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    engaged = engaged_by(state, c)
    if not engaged:
        raise RuleViolation("not_in_melee", f"{c.name} is not in melee with anyone able to fight.")
    if positions(state).disengaged.get(c.id) == state.round:
        raise RuleViolation("already_tried", f"{c.name} can only attempt to disengage once per round.")
    _can_move(state, c)
    s = sheet(c)
    athletics = sides(s.skill_die("Athletics") or "D4")
    a, k = dice_for(sides(s.attribute_die("agility")), athletics, False, CONDITION_OF["agility"] in s.conditions)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty="Normal", dice=(a, k),
                          cost=DISENGAGE_COST, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, "Disengage")
    rolled = [dice.roll(n, f"disengaging: {label}", c.id) for n, label in zip(pay.dice, ("Agility", "Athletics"),
                                                                           strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    success = outcome in ("Partial Success", "Full Success", "Critical Success")
    # "If you are successful then you automatically move out of range of your opponent": the
    # first band none of their melee weapons at hand (or bare hands) reaches.
    ranges = {o.id: _out_of_reach(o) for o in engaged} if success else {}
    return [DisengageRolled(combatant_id=c.id, action_points=pay.cost, dice=rolled, total=sum(d.face for d in rolled),
                            difficulty=pay.difficulty, outcome=outcome, success=success, ranges=ranges)]


def _out_of_reach(opponent: Combatant) -> str:
    s = sheet(opponent)
    reach = [UNARMED, *(w for w in s.weapons if w.kind == "melee" and w.name not in s.dropped_weapons)]
    furthest = max(RANGE_BANDS.index(b) for w in reach for b in w.ranges)
    return RANGE_BANDS[min(furthest + 1, len(RANGE_BANDS) - 1)]


def shove(ruleset: Any, state: EncounterState, cmd: Shove, dice: Dice) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    can_act(c)
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id or sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} cannot be shoved.")
    now = band_between(state, c.id, target.id)
    if now is not None and now not in REACH:
        # "You can attempt to move a target that is in Melee or Close range of you"
        raise RuleViolation("out_of_range", f"{target.name} is at {now} range: a Shove reaches Melee or Close.")
    s = sheet(c)
    shield = any(w.shield and w.name not in s.dropped_weapons for w in s.weapons)
    athletics = "Athletics"
    shover = Contestant(combatant_id=c.id, attribute="strength", skill=athletics, bonus=SHIELD_BONUS if shield else 0)
    pay = pay_opposed(state, shover, cmd.penalties, penalty_owed(state, c.id), SHOVE_COST, lowest_if_missing=True)
    ruleset.spend_action_points(c, pay.cost, "Shove")
    # "an Opposed Roll between your Athletics + Strength value and your targets Athletics +
    # Strength value"
    sides_rolled = [
        roll_contestant(state, shover, dice, sizes=pay.dice),
        roll_contestant(state, Contestant(combatant_id=target.id, attribute="strength", skill=athletics), dice,
                        lowest_if_missing=True),
    ]
    mine, theirs = sides_rolled[0].total, sides_rolled[1].total
    success = mine > theirs
    winner = None if mine == theirs else (c.id if success else target.id)
    roll = OpposedRolled(sides=sides_rolled, winner=winner,
                         by_a_level=winner is not None and level_reached(mine) != level_reached(theirs), reason="Shove")
    return [ShoveRolled(combatant_id=c.id, target=target.id, action_points=pay.cost, roll=roll, success=success,
                        fell=success and cmd.edge)]


DECISIONS = {
    SetRange: lambda r, s, c, d: set_range(r, s, c),
    Move: lambda r, s, c, d: move(r, s, c),
    FreeAction: lambda r, s, c, d: free_action(r, s, c),
    Disengage: disengage,
    Shove: shove,
}

# --------------------------------------------------------------------- gates and hooks


def gate(ruleset: Any, state: EncounterState, command: Command) -> None:
    """Attacks at the tracked range; Dash once a turn; non-lethal moves within reach."""
    actor = command.acting_combatant()
    target = getattr(command, "target", None)
    kind = type(command).__name__
    if kind == "TakeAction" and getattr(command, "action", None) == "Dash" and positions(state).dashed:
        raise RuleViolation("already_dashed", "Dash has already doubled this turn's movement.")
    if actor is None or not isinstance(target, str) or target not in state.combatants:
        return
    now = band_between(state, actor, target)
    if now is None:
        return
    band = getattr(command, "band", None)
    if kind == "Attack" and band != now:
        raise RuleViolation("wrong_range", f"{state.combatants[target].name} is at {now} range, not {band}.",
                            band=now)
    if kind in ("NonLethalAttack", "Grapple") and now not in REACH:
        raise RuleViolation("out_of_range", f"{state.combatants[target].name} is at {now} range: non-lethal "
                            "attacks reach Melee or Close.")


GATES = (gate,)


def turn_began(state: EncounterState, combatant_id: str) -> EncounterState:
    p = getattr(rules(state), "positions", None)
    if not isinstance(p, Positions) or (p.used == 0 and not p.dashed and not p.moved and not p.free_actions):
        return state  # the turn's movement is fresh already (nobody placed: the default Positions)
    return with_rules(state, positions=replace(p, used=0, dashed=False, moved=False, free_actions=[]))


def dashed(state: EncounterState) -> EncounterState:
    return with_rules(state, positions=replace(positions(state), dashed=True))


def _with_ranges(state: EncounterState, ranges: dict[str, str], **changes: Any) -> EncounterState:
    p = positions(state)
    return with_rules(state, positions=replace(p, ranges={**p.ranges, **ranges}, **changes))


def knock_back(state: EncounterState, attacker: str, target: str) -> EncounterState:
    """Knockback: "The target is sent reeling backwards, moving them one Movement step further
    away from you" - one band, when the GM has placed them."""
    now = band_between(state, attacker, target)
    if now is None or now == RANGE_BANDS[-1]:
        return state
    return _with_ranges(state, {_key(attacker, target): RANGE_BANDS[RANGE_BANDS.index(now) + 1]})


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case RangeSet():
            key = _key(event.a, event.b)
            p = positions(state)
            return _with_ranges(state, {key: event.band}, partway={k: v for k, v in p.partway.items() if k != key})
        case Moved():
            p = positions(state)
            key = _key(event.combatant_id, event.toward)
            partway = {k: v for k, v in p.partway.items() if k != key}
            if event.partway:
                begun = p.partway.get(key)
                done = begun.done if begun is not None and begun.band == event.band else 0
                partway[key] = Partway(band=event.band, done=done + event.half_steps)
                state = with_rules(state, positions=replace(p, partway=partway, used=p.used + event.half_steps,
                                                            moved=True))
            else:
                state = _with_ranges(state, {key: event.band}, used=p.used + event.half_steps,
                                     moved=p.moved or not event.free, partway=partway)
            return with_sheet(state, event.combatant_id, in_cover=False)
        case FreeActionTaken():
            p = positions(state)
            state = with_rules(state, positions=replace(p, free_actions=[*p.free_actions, event.kind]))
            s = sheet(state.combatants[event.combatant_id])
            if event.kind == "PickUp":
                dropped = list(s.dropped_weapons)
                dropped.remove(event.item or "")
                return with_sheet(state, event.combatant_id, dropped_weapons=dropped)
            if event.kind == "Drop":
                return with_sheet(state, event.combatant_id, dropped_weapons=[*s.dropped_weapons, event.item or ""])
            return state
        case DisengageRolled():
            state = spend(state, event.combatant_id, event.action_points)
            p = positions(state)
            state = with_rules(state, positions=replace(p, disengaged={**p.disengaged, event.combatant_id: state.round}))
            return _with_ranges(state, {_key(event.combatant_id, o): band for o, band in event.ranges.items()})
        case ShoveRolled():
            state = spend(state, event.combatant_id, event.action_points)
            if not event.success:
                return state
            # "If you succeed then your target moves to Near range."
            state = _with_ranges(state, {_key(event.combatant_id, event.target): "Near"})
            return with_sheet(state, event.target, prone=True) if event.fell else state
    return None
