"""Status Effects: applied, lasting, falling due at the start of a turn, stabilised.

"Status Effects are temporary conditions that affect a character's abilities or behaviour in
combat. These conditions will last either until the end of the round, a set number of turns,
or until actively removed by an action, spell, or another condition. When a character
becomes Afflicted the GM can inflict an appropriate Status Effect in line with the cause of
the Hit."

- The GM applies (``ApplyStatus``) and removes (``RemoveStatus``) them; a status lasting to
  the end of the round ends when the next round begins, one lasting turns counts down at the
  end of each of its bearer's turns.
- Bleeding and Burning fall due as their bearer's turn begins: the bearer (or the GM) settles
  them with ``ResolveStatus`` before doing anything else on that turn, and cannot end the turn
  with one unsettled.
- ``Stabilise`` (3 AP): "Remove a Status Effect manually using a Medical Check", at the
  difficulty for the target's Hits.
- What each status does to actions is enforced where the action is decided: attacks
  (Blinded, Paralysed, Exposed, Frightened, Deafened), movement (Crippled, Entangled,
  Frightened, Paralysed), and here for acting at all (Paralysed, Unconscious, Staggered).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, EndTurn, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.checks import LADDER, dice_for, judge
from domain.places_of_power.healing import medical_check
from domain.places_of_power.harm import take_hits
from domain.places_of_power.sheet import CONDITION_OF, sides
from domain.places_of_power.status_effect import Lasts, Status, StatusName
from domain.places_of_power.table import replace, sheet, spend, with_sheet

Attribute = Literal[
    "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
]
Penalties = Annotated[list[str], msgspec.Meta(max_length=4)]

STABILISE_COST = 3  # "Stabilise (3 AP): Remove a Status Effect manually using a Medical Check."
SUCCESSES = ("Partial Success", "Full Success", "Critical Success")
DUE_AT_TURN_START = ("Bleeding", "Burning")
CANNOT_ACT = ("Paralysed", "Unconscious")
LOWEST_DIE = "D4"  # a sheet that omits a core skill has it at the lowest die
ROSMERE_AFFINITY = 5  # "Characters with an Affinity for Rosmere of Level 5"


# ------------------------------------------------------------------------ commands


class ApplyStatus(Command, tag="ApplyStatus"):
    """The GM puts a Status Effect on a combatant. ``lasts``: ``end_of_round``, ``turns``
    (then ``turns`` ≥ 1) or ``until_removed``. Frightened names its ``source`` (a combatant);
    Entangled the ``difficulty`` of the Athletics check that frees it (default Normal)."""

    combatant_id: CombatantId
    status: StatusName
    lasts: Lasts = "until_removed"
    turns: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    source: CombatantId | None = None
    difficulty: Literal["Easy", "Normal", "Difficult", "Hard", "Very Hard"] | None = None
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class RemoveStatus(Command, tag="RemoveStatus"):
    """The GM removes a Status Effect (its cause dealt with, a spell, the story)."""

    combatant_id: CombatantId
    status: StatusName
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class ResolveStatus(Command, tag="ResolveStatus"):
    """Settle a Bleeding or Burning that fell due as the turn began (the bearer's player or
    the GM). Reported dice: Bleeding, the Stamina die then the Medical die; Burning with a
    Rosmere Affinity of 5, the Stamina die then the Rosmere die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    status: Literal["Bleeding", "Burning"]


class Stabilise(Command, tag="Stabilise"):
    """Stabilise (3 AP, on your turn): a Medical check, at the difficulty for the target's
    Hits, to remove one Status Effect of the ``target``. Reported dice: the Attribute die, then
    the Medical die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    status: StatusName
    attribute: Attribute = "dexterity"
    penalties: Penalties = msgspec.field(default_factory=list)


class BreakLoose(Command, tag="BreakLoose"):
    """An Entangled combatant's Athletics + Strength or Agility check at the difficulty the GM
    set; success frees them. Once a turn; no Action Points (the text names none)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attribute: Literal["strength", "agility"] = "strength"


COMMANDS = (ApplyStatus, RemoveStatus, ResolveStatus, Stabilise, BreakLoose)

# -------------------------------------------------------------------------- events


class StatusApplied(Event, tag="StatusApplied"):
    combatant_id: CombatantId
    status: Status


class StatusRemoved(Event, tag="StatusRemoved"):
    combatant_id: CombatantId
    status: str
    reason: str = ""


class StatusRolled(Event, tag="StatusRolled"):
    """A check a status called for: a Bleeding or Burning check, Stabilise, breaking loose.
    ``removed``: the status is gone; ``hits``: Hits the status dealt (then the harm fields)."""

    combatant_id: CombatantId
    status: str
    check: Literal["Bleeding", "Burning", "Stabilise", "BreakLoose"]
    dice: list[DieRoll] = msgspec.field(default_factory=list)
    total: int = 0
    difficulty: str = ""
    outcome: str = ""
    removed: bool = False
    healer: CombatantId | None = None
    action_points: int = 0
    hits: int = 0
    hits_after: int = 0
    dead: bool = False
    helpless: bool = False
    injuries: int = 0
    helpless_for_fight: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


EVENTS = (StatusApplied, StatusRemoved, StatusRolled)

# --------------------------------------------------------------------------- reading


def statuses(c: Combatant) -> list[Status]:
    return list(_borne(c))


def _borne(c: Combatant) -> list[Status]:
    """The combatant's statuses themselves, not a copy: to read, never to change."""
    return getattr(c.sheet, "statuses", ())  # type: ignore[no-any-return]


def status(c: Combatant, name: str) -> Status | None:
    for s in _borne(c):
        if s.name == name:
            return s
    return None


def has(c: Combatant, name: str) -> bool:
    return status(c, name) is not None


def _with_statuses(state: EncounterState, cid: str, new: list[Status]) -> EncounterState:
    return with_sheet(state, cid, statuses=new)


def _skill(c: Combatant, skill: str) -> int:
    return sides(sheet(c).skill_die(skill) or LOWEST_DIE)


def _roll(c: Combatant, attribute: str, skill: str, difficulty: str, dice: Dice, label: str,
          ) -> tuple[list[DieRoll], int, str]:
    s = sheet(c)
    a, k = dice_for(sides(s.attribute_die(attribute)), _skill(c, skill), False, CONDITION_OF[attribute] in s.conditions)
    rolled = [dice.roll(n, f"{label}: {name}", c.id) for n, name in zip((a, k), (attribute.title(), skill), strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], difficulty)
    return rolled, sum(d.face for d in rolled), outcome


# -------------------------------------------------------------------------- deciding


def apply(state: EncounterState, cmd: ApplyStatus) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    if has(c, cmd.status):
        raise RuleViolation("status_present", f"{c.name} is already {cmd.status}.")
    if cmd.lasts == "turns" and cmd.turns < 1:
        raise RuleViolation("missing_detail", "A status lasting a number of turns names `turns` (1 or more).")
    if cmd.status == "Frightened":
        if cmd.source is None or cmd.source not in state.combatants or cmd.source == c.id:
            raise RuleViolation("missing_detail", "Frightened names its `source`: the combatant feared.")
    elif cmd.source is not None:
        raise RuleViolation("missing_detail", "Only Frightened names a `source`.")
    if cmd.difficulty is not None and cmd.status != "Entangled":
        raise RuleViolation("missing_detail", "Only Entangled names a `difficulty` (to break loose).")
    new = Status(name=cmd.status, lasts=cmd.lasts, turns=cmd.turns if cmd.lasts == "turns" else 0, round=state.round,
                 source=cmd.source, difficulty=cmd.difficulty or ("Normal" if cmd.status == "Entangled" else None),
                 reason=cmd.reason or "the GM")
    return [StatusApplied(combatant_id=c.id, status=new)]


def remove(state: EncounterState, cmd: RemoveStatus) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    if not has(c, cmd.status):
        raise RuleViolation("no_status", f"{c.name} is not {cmd.status}.")
    return [StatusRemoved(combatant_id=c.id, status=cmd.status, reason=cmd.reason or "the GM")]


def resolve(ruleset: Any, state: EncounterState, cmd: ResolveStatus, dice: Dice) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    st = status(c, cmd.status)
    if st is None or not st.due:
        raise RuleViolation("nothing_due", f"{c.name} has no {cmd.status} to settle this turn.")
    s = sheet(c)
    if cmd.status == "Bleeding":
        # "At the start of each turn you roll a Medical + Stamina check. If you fail then you
        # suffer an addition Hit. Difficulty level for the check starts at Easy and increases by
        # one level every turn until the bleeding is stabilised."
        difficulty = LADDER[min(st.level, len(LADDER) - 1)]
        rolled, total, outcome = _roll(c, "stamina", "Medical", difficulty, dice, "bleeding")
        hurt = outcome not in SUCCESSES
        return [_hurt(c, StatusRolled(combatant_id=c.id, status="Bleeding", check="Bleeding", dice=rolled,
                                      total=total, difficulty=difficulty, outcome=outcome), hurt)]
    # Burning: "At the start of each turn you suffer an addition Hit of damage, until the cause
    # of the burning is dealt with. Characters with an Affinity for Rosmere of Level 5 can roll
    # a Normal difficulty Rosmere + Stamina check to see if they burning affects them."
    if s.affinities.get("Rosmere", 0) >= ROSMERE_AFFINITY:
        rolled, total, outcome = _roll(c, "stamina", "Rosmere", "Normal", dice, "burning")
        return [_hurt(c, StatusRolled(combatant_id=c.id, status="Burning", check="Burning", dice=rolled, total=total,
                                      difficulty="Normal", outcome=outcome), outcome not in SUCCESSES)]
    return [_hurt(c, StatusRolled(combatant_id=c.id, status="Burning", check="Burning"), True)]


def _hurt(c: Combatant, event: StatusRolled, hurt: bool) -> StatusRolled:
    s = sheet(c)
    if not hurt:
        return replace(event, hits_after=s.hits, injuries=s.injuries, helpless_for_fight=s.helpless_for_fight)
    harm = take_hits(s.hits, 1, is_player=c.controller == "player", injuries_before=s.injuries,
                     helpless_for_fight=s.helpless_for_fight)
    return replace(event, hits=1, hits_after=harm.hits, dead=harm.dead, helpless=harm.helpless,
                   injuries=harm.injuries, helpless_for_fight=harm.helpless_for_fight)


def stabilise(ruleset: Any, state: EncounterState, cmd: Stabilise, dice: Dice) -> list[Event]:
    healer = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    if not has(target, cmd.status) and not sheet(target).dead:
        raise RuleViolation("no_status", f"{target.name} is not {cmd.status}.")
    check = medical_check(ruleset, state, healer, target, cmd.attribute, cmd.penalties, STABILISE_COST, "stabilising",
                          dice, untrained=True)
    ts = sheet(target)
    return [StatusRolled(combatant_id=target.id, status=cmd.status, check="Stabilise", dice=check.dice,
                         total=check.total, difficulty=check.difficulty, outcome=check.outcome,
                         removed=check.succeeded, healer=healer.id, action_points=check.action_points,
                         hits_after=ts.hits, injuries=ts.injuries, helpless_for_fight=ts.helpless_for_fight)]


def break_loose(ruleset: Any, state: EncounterState, cmd: BreakLoose, dice: Dice) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    st = status(c, "Entangled")
    if st is None:
        raise RuleViolation("no_status", f"{c.name} is not Entangled.")
    if st.used:
        raise RuleViolation("already_tried", f"{c.name} has already tried to break loose this turn.")
    # "You are unable to move until you perform a successful Athletics + Strength/Agility
    # check, difficulty specified by the GM."
    difficulty = st.difficulty or "Normal"
    rolled, total, outcome = _roll(c, cmd.attribute, "Athletics", difficulty, dice, "breaking loose")
    s = sheet(c)
    return [StatusRolled(combatant_id=c.id, status="Entangled", check="BreakLoose", dice=rolled, total=total,
                         difficulty=difficulty, outcome=outcome, removed=outcome in SUCCESSES, hits_after=s.hits,
                         injuries=s.injuries, helpless_for_fight=s.helpless_for_fight)]


DECISIONS = {
    ApplyStatus: lambda r, s, c, d: apply(s, c),
    RemoveStatus: lambda r, s, c, d: remove(s, c),
    ResolveStatus: resolve,
    Stabilise: stabilise,
    BreakLoose: break_loose,
}

# --------------------------------------------------------------------- gates and hooks

# Commands a combatant sends that are not a new action: settling a status, and the later steps
# of an attack already paid for (its critical addition, its extra Successes, pulling its punch).
# Every other command naming its actor is an action, and so waits for a due status and is barred
# by Paralysed, Unconscious or a Staggered combatant's spent action (a GM command naming the
# combatant is bookkeeping, not theirs).
NOT_NEW_ACTIONS = frozenset({"ResolveStatus", "ChooseCriticalEffect", "SpendSuccesses", "PullYourPunch"})


def gate(ruleset: Any, state: EncounterState, command: Command) -> None:
    actor = command.acting_combatant()
    if actor is None or actor not in state.combatants or type(command).__name__ in NOT_NEW_ACTIONS:
        return
    c = state.combatants[actor]
    if not _borne(c):
        return  # no status: nothing due, nothing that bars acting
    due = [s.name for s in statuses(c) if s.due]
    if due and state.turn == actor:
        raise RuleViolation("status_due", f"{c.name} must first settle {' and '.join(due)} (ResolveStatus).",
                            due=due)
    defending_passively = getattr(command, "defence", None) in ("Armour", "TakeIt")
    for name in CANNOT_ACT:
        # Paralysed: "You cannot move or act whilst in this condition." Unconscious: "You
        # cannot act at all." Taking a blow on the armour, or taking it, is not an act.
        if has(c, name) and not defending_passively:
            raise RuleViolation("cannot_act", f"{c.name} is {name} and cannot act.", status=name)
    st = status(c, "Staggered")
    # "You can only perform a total of a single action per turn when in this condition. This
    # applies to both Offensive and Defensive actions."
    if st is not None and st.used and not defending_passively and not isinstance(command, BreakLoose):
        raise RuleViolation("staggered", f"{c.name} is Staggered and has already acted this turn.")


GATES = (gate,)


def before_end_turn(state: EncounterState) -> None:
    if state.turn is None or state.turn not in state.combatants:
        return
    c = state.combatants[state.turn]
    due = [s.name for s in statuses(c) if s.due]
    if due and not sheet(c).dead:  # the dead have nothing left to settle
        raise RuleViolation("status_due", f"{c.name} must first settle {' and '.join(due)} (ResolveStatus).",
                            due=due)


def round_began(state: EncounterState) -> EncounterState:
    """Statuses lasting "until the end of the round" end as the next round begins."""
    for cid, c in state.combatants.items():
        borne = _borne(c)
        if not borne:
            continue
        kept = [s for s in borne if not (s.lasts == "end_of_round" and s.round < state.round)]
        if len(kept) != len(borne):
            state = _with_statuses(state, cid, kept)
    return state


def turn_began(state: EncounterState, combatant_id: str) -> EncounterState:
    """Bleeding and Burning fall due; Staggered and Entangled's once-a-turn count resets."""
    c = state.combatants.get(combatant_id)
    if c is None or not _borne(c) or sheet(c).dead:
        return state
    new = [replace(s, due=s.name in DUE_AT_TURN_START, used=0) for s in statuses(c)]
    return _with_statuses(state, combatant_id, new)


def turn_finished(state: EncounterState, combatant_id: str) -> EncounterState:
    """A status lasting turns counts one of its bearer's turns; nothing stays due once the turn
    is over (a turn ends with a status due only for the dead, who have nothing left to settle)."""
    c = state.combatants.get(combatant_id)
    if c is None or not any(s.lasts == "turns" or s.due for s in _borne(c)):
        return state
    new = [replace(s, turns=s.turns - 1 if s.lasts == "turns" else s.turns, due=False) for s in statuses(c)]
    return _with_statuses(state, combatant_id, [s for s in new if not (s.lasts == "turns" and s.turns <= 0)])


def after_event(before: EncounterState, after: EncounterState) -> EncounterState:
    """What any event does to statuses: a Staggered combatant who paid Action Points has taken
    their one action; one brought back from Helpless is Staggered for 2 turns ("Upon recovery
    apply Staggered for 2 turns")."""
    if after.combatants is before.combatants:
        return after  # nobody changed
    for cid, c in after.combatants.items():
        was = before.combatants.get(cid)
        if was is None or was is c:  # new, or unchanged: neither paid nor recovered
            continue
        st = status(c, "Staggered")
        if st is not None and c.action_points < was.action_points and not st.used:
            after = _with_statuses(after, cid, [replace(s, used=1) if s.name == "Staggered" else s
                                                for s in statuses(c)])
        s_was, s_now = sheet(was), sheet(c)
        if s_was.hits >= 4 and s_now.hits < 4 and not s_now.dead and not s_now.helpless_for_fight:
            staggered = Status(name="Staggered", lasts="turns", turns=2, round=after.round,
                               reason="recovered from Helpless")
            kept = [s for s in statuses(after.combatants[cid]) if s.name != "Staggered"]
            after = _with_statuses(after, cid, [*kept, staggered])
    return after


# ------------------------------------------------------------------------- evolving


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case StatusApplied():
            c = state.combatants[event.combatant_id]
            state = _with_statuses(state, c.id, [*statuses(c), event.status])
            if event.status.name == "Unconscious":  # "You are rendered Prone"
                state = with_sheet(state, c.id, prone=True)
            return state
        case StatusRemoved():
            c = state.combatants[event.combatant_id]
            return _with_statuses(state, c.id, [s for s in statuses(c) if s.name != event.status])
        case StatusRolled():
            if event.healer is not None:
                state = spend(state, event.healer, event.action_points)
            c = state.combatants[event.combatant_id]
            kept: list[Status] = []
            for s in statuses(c):
                if s.name != event.status:
                    kept.append(s)
                elif event.removed:
                    continue
                elif event.check == "Bleeding":
                    kept.append(replace(s, due=False, level=s.level + 1))
                elif event.check == "BreakLoose":
                    kept.append(replace(s, used=1))
                else:
                    kept.append(replace(s, due=False))
            state = _with_statuses(state, c.id, kept)
            if event.hits:
                s = sheet(state.combatants[c.id])
                state = with_sheet(state, c.id, hits=min(event.hits_after, 20), dead=event.dead,
                                   injuries=event.injuries,
                                   helpless_for_fight=event.helpless_for_fight or s.helpless_for_fight)
            return state
    return None
