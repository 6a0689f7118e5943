"""Hold the Door: a ruleset that lives only in the tests and proves the door.

It plugs into Fracas with no edit outside this file and a registry (``Registry([..., Door()])``),
and it uses what core hosts for the four rule systems: named action resources, a round in
phases (declare from the lowest initiative to the highest, resolve from the highest down),
a reaction window with core ``React`` / ``PassReaction`` / ``CloseReactions``, a duration to the
end of the round, a roll of several dice for initiative, and a step at the end of each round that
rolls dice.

The game, whole:

- Initiative: 2d10 that explode and implode, plus Might; highest first.
- Each round every fighter gets 2 Actions; each gets 1 Reaction back at the end of their own turn
  (and has one when the fight starts).
- Declare phase, lowest initiative first: each declares a Strike at a foe (2 Actions), a Brace
  (1 Action) or a Wait (nothing). A declared action may be cancelled before it resolves.
- Resolve phase, highest initiative first, on one's turn: a Strike waits while its target may
  Parry (1 Reaction) or pass; then it deals a d6, less the target's Guard if they parried, less 2
  if they are braced. A Brace lasts to the end of the round.
- End of each round: whoever is down to 0 Hits or fewer bleeds: they roll a d6, and on 1 to 3
  lose one more Hit.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core import reactions
from domain.core.action_points import ActionPointBudget
from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.durations import Boundary, Duration, after
from domain.core.encounter import Combatant, CombatantRemoved, Command, EncounterState, Event, InitiativeRoll, InitiativeRolled
from domain.core.errors import RuleViolation, ruleset_codes
from domain.core.initiative import Entry, order_descending, roll_exploding
from domain.core.pending import Choice, Decision, Refusal
from domain.core.phases import Phase, PhasePosition, Phases
from domain.core.resources import Resource, Resources, held
from domain.core.ruleset import Ruleset

replace = msgspec.structs.replace

OWN_CODES = ruleset_codes({
    "door_nothing_declared": "The combatant has no declared action left to resolve or cancel.",
    "door_not_a_foe": "A Strike needs a foe in the fight to strike at.",
    "door_resolve_first": "Resolve the declared action before ending the turn.",
})

RESOLVE_FIRST = Refusal(code="door_resolve_first", message=OWN_CODES["door_resolve_first"])
ACTIONS = "actions"
REACTION = "reaction"
PARRY = "parry"
COSTS = {"strike": 2, "brace": 1, "wait": 0}
PHASES = Phases((Phase("declare", "ascending"), Phase("resolve", "descending")))

Kind = Literal["strike", "brace", "wait"]


class DoorSheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    might: int = 0
    guard: int = 1
    hits: int = 6


class Declared(msgspec.Struct, frozen=True, kw_only=True):
    action: Kind
    target: CombatantId | None = None


class DoorRules(msgspec.Struct, kw_only=True):
    position: PhasePosition = msgspec.field(default_factory=PhasePosition)
    declared: dict[CombatantId, Declared] = msgspec.field(default_factory=dict)
    resolved: list[CombatantId] = msgspec.field(default_factory=list)
    window: reactions.ReactionWindow | None = None
    braced: dict[CombatantId, Duration] = msgspec.field(default_factory=dict)
    hits_lost: dict[CombatantId, int] = msgspec.field(default_factory=dict)


# ---------------------------------------------------------------- commands


class Declare(Command, tag="DoorDeclare"):
    """Declare this round's action, in the declare phase (lowest initiative first). A Strike
    with no ``target`` is at the first foe in the order of play."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    action: Kind
    target: CombatantId | None = None


class CancelDeclared(Command, tag="DoorCancel"):
    """Cancel one's declared action before it resolves."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class Resolve(Command, tag="DoorResolve"):
    """Resolve one's declared action, on one's turn in the resolve phase."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


# ------------------------------------------------------------------ events


class ActionDeclared(Event, tag="DoorActionDeclared"):
    combatant_id: CombatantId
    action: Kind
    target: CombatantId | None = None
    cost: int = 0


class DeclarationCancelled(Event, tag="DoorDeclarationCancelled"):
    combatant_id: CombatantId


class Braced(Event, tag="DoorBraced"):
    combatant_id: CombatantId
    lasts: Duration


class Waited(Event, tag="DoorWaited"):
    combatant_id: CombatantId


class Parried(Event, tag="DoorParried"):
    """``combatant_id`` reacted to the strike waiting in ``window`` with a Parry (1 Reaction)."""

    window: str
    combatant_id: CombatantId


class StrikeRolled(Event, tag="DoorStrikeRolled"):
    combatant_id: CombatantId
    target: CombatantId
    die: DieRoll
    parried: bool
    braced: bool
    damage: int

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class Bled(Event, tag="DoorBled"):
    combatant_id: CombatantId
    die: DieRoll
    lost: int

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


def rules(state: EncounterState) -> DoorRules:
    return state.rules


class Door(Ruleset):
    id = "door"
    name = "Hold the Door"
    sheet_type = DoorSheet
    own_codes = OWN_CODES
    extra_commands = (Declare, CancelDeclared, Resolve, *reactions.COMMANDS)
    extra_events = (ActionDeclared, DeclarationCancelled, Braced, Waited, Parried, StrikeRolled, Bled,
                    *reactions.EVENTS)

    # ------------------------------------------------------------ hooks

    def initial_rules(self) -> DoorRules:
        return DoorRules()

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # the door counts Actions and Reactions, not AP

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        return Resources((
            Resource(ACTIONS, 2, ("round_start",)),
            Resource(REACTION, 1, ("combat_start", "turn_end")),
        ))

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        rolls, entries = [], []
        for c in sorted(state.combatants.values(), key=lambda c: c.seq):
            roll = roll_exploding(dice, "initiative", c.id)
            total = roll.total + c.sheet.might
            rolls.append(InitiativeRoll(who=c.id, die=roll.dice[0], more_dice=list(roll.dice[1:]),
                                        modifier=c.sheet.might, total=total))
            entries.append(Entry(c.id, total, c.seq, tiebreak=c.sheet.might))
        return InitiativeRolled(rolls=rolls, order=order_descending(entries))

    def round_began(self, state: EncounterState) -> EncounterState:
        r = rules(state)
        braced = {}
        for cid, lasts in r.braced.items():  # the last round's end, and this one's start
            for at in (Boundary(kind="round_end", round=state.round - 1), Boundary(kind="round_start", round=state.round)):
                lasts = lasts and after(lasts, at)
            if lasts:
                braced[cid] = lasts
        fresh = replace(r, declared={}, resolved=[], window=None, braced=braced, position=PhasePosition())
        state = replace(state, rules=fresh)
        return replace(state, rules=replace(fresh, position=PHASES.begin(self._ranked(state))))

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        events: list[Event] = []
        for cid in state.order:
            if self.hits(state, cid) <= 0:
                die = dice.roll(6, "bleeding", cid)
                events.append(Bled(combatant_id=cid, die=die, lost=1 if die.face <= 3 else 0))
        return events

    def before_end_turn(self, state: EncounterState) -> None:
        r = rules(state)
        if state.turn not in r.resolved:
            raise RESOLVE_FIRST.violation()

    def sentences(self) -> dict[str, Any]:
        """The log's sentence of each of Hold the Door's events."""
        return SENTENCES

    def pending(self, state: EncounterState) -> list[Decision]:
        if state.status != "active":
            return []
        r = rules(state)
        if r.window is not None and not r.window.settled:
            return reactions.decisions(r.window)
        phase = PHASES.current(r.position)
        mover = PHASES.mover(r.position, self._ranked(state))
        if phase is None or mover is None:
            return []
        if phase.name == "declare":
            left = held(state.combatants[mover]).get(ACTIONS, 0)
            choices = tuple(Choice(name=k, action_points=v) for k, v in COSTS.items() if v <= left)
            return [Decision(id=f"declare:{state.round}:{mover}", kind="declare", combatant_id=mover,
                             command="DoorDeclare", body={"combatant_id": mover}, choice_field="action",
                             choices=choices, summary="Declare this round's action.")]
        if mover != state.turn:
            return []  # the one who resolved has still to end their turn
        return [Decision(id=f"resolve:{state.round}:{mover}", kind="resolve", combatant_id=mover,
                         command="DoorResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                         refusal=RESOLVE_FIRST, summary="Resolve the declared action.")]

    # ---------------------------------------------------------- decider

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        self.require_active(state)
        r = rules(state)
        match command:
            case Declare():
                c = self.combatant(state, command.combatant_id)
                PHASES.check_move(r.position, "declare", c.id, self._ranked(state), c.name)
                cost = COSTS[command.action]
                target = None
                if command.action == "strike":
                    target = command.target or next(
                        (o for o in state.order if state.combatants[o].side != c.side), None)
                    if target not in state.combatants or target == c.id:
                        raise RuleViolation("door_not_a_foe", "A Strike needs a foe in the fight to strike at.")
                self.check_resource(c, ACTIONS, cost, f"a {command.action.title()}")
                return [ActionDeclared(combatant_id=c.id, action=command.action, target=target, cost=cost)]
            case CancelDeclared():
                c = self.combatant(state, command.combatant_id)
                if c.id not in r.declared or c.id in r.resolved:
                    raise RuleViolation("door_nothing_declared", f"{c.name} has no declared action to cancel.")
                return [DeclarationCancelled(combatant_id=c.id)]
            case Resolve():
                c = self.require_turn(state, command.combatant_id)
                PHASES.check_move(r.position, "resolve", c.id, self._ranked(state), c.name)
                if r.window is not None and not r.window.settled:
                    raise RuleViolation("door_nothing_declared", "The strike is waiting for its target's answer.")
                declared = r.declared.get(c.id, Declared(action="wait"))
                if declared.action == "brace":
                    return [Braced(combatant_id=c.id, lasts=Duration.end_of_round(state.round))]
                if declared.action == "strike" and declared.target in state.combatants:
                    target = state.combatants[declared.target]
                    if held(target).get(REACTION, 0) >= 1:
                        return [reactions.open_window(f"strike:{state.version + 1}", c.id, [target.id], (PARRY,),
                                                      f"{c.name}'s strike at {target.name}")]
                    return [self._strike(state, c.id, target.id, False, dice)]
                return [Waited(combatant_id=c.id)]
            case reactions.React():
                c = self.combatant(state, command.combatant_id)
                window = reactions.check_answer(r.window, command.window, c.id, c.name)
                reactions.check_reaction(window, command.reaction)
                self.check_resource(c, REACTION, 1, "a Parry")
                return [Parried(window=window.id, combatant_id=c.id), self._strike(state, window.actor, c.id, True, dice)]
            case reactions.PassReaction():
                c = self.combatant(state, command.combatant_id)
                passed = reactions.decide_pass(r.window, command, c.name)
                return [passed, self._strike(state, r.window.actor, c.id, False, dice)]
            case reactions.CloseReactions():
                closed = reactions.decide_close(r.window, command)
                return [closed, self._strike(state, r.window.actor, r.window.may_react[0], False, dice)]
        return super().decide_action(state, command, dice)

    def _strike(self, state: EncounterState, attacker: str, target: str, parried: bool, dice: Dice) -> StrikeRolled:
        die = dice.roll(6, "strike damage", attacker)
        braced = target in rules(state).braced
        damage = die.face - (state.combatants[target].sheet.guard if parried else 0) - (2 if braced else 0)
        return StrikeRolled(combatant_id=attacker, target=target, die=die, parried=parried, braced=braced,
                            damage=max(damage, 0))

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        ranked = self._ranked(state)
        match event:
            case ActionDeclared():
                state = self.spent(state, event.combatant_id, ACTIONS, event.cost)
                r = replace(r, declared={**r.declared, event.combatant_id: Declared(action=event.action, target=event.target)},
                            position=PHASES.moved(r.position, event.combatant_id, ranked))
            case DeclarationCancelled():
                r = replace(r, declared={k: v for k, v in r.declared.items() if k != event.combatant_id})
            case Braced():
                r = self._resolved(replace(r, braced={**r.braced, event.combatant_id: event.lasts}), event.combatant_id, ranked)
            case Waited():
                r = self._resolved(r, event.combatant_id, ranked)
            case reactions.ReactionsOpened() | reactions.ReactionPassed() | reactions.ReactionsClosed():
                r = replace(r, window=reactions.evolve_window(r.window, event))
            case Parried():
                state = self.spent(state, event.combatant_id, REACTION, 1)
                r = replace(r, window=reactions.answered(r.window, event.combatant_id, PARRY))
            case StrikeRolled():
                lost = {**r.hits_lost, event.target: r.hits_lost.get(event.target, 0) + event.damage}
                r = self._resolved(replace(r, hits_lost=lost, window=None), event.combatant_id, ranked)
            case Bled():
                r = replace(r, hits_lost={**r.hits_lost, event.combatant_id: r.hits_lost.get(event.combatant_id, 0) + event.lost})
            case _:
                return super().evolve_action(state, event)
        return replace(state, rules=r)

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """One taken out leaves nothing: as if hidden from everyone (a strike by or on them is void)."""
        state = super().evolve_removed(state, event)
        return replace(state, rules=self.conceal_rules(state, frozenset((event.combatant_id,))))

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> DoorRules:
        r = rules(state)
        if not hidden:
            return r
        window = r.window
        if window is not None and (window.actor in hidden or any(c in hidden for c in window.may_react)):
            window = None
        return replace(
            r,
            position=replace(r.position, moved=tuple(c for c in r.position.moved if c not in hidden)),
            declared={k: v for k, v in r.declared.items() if k not in hidden and v.target not in hidden},
            resolved=[c for c in r.resolved if c not in hidden],
            window=window,
            braced={k: v for k, v in r.braced.items() if k not in hidden},
            hits_lost={k: v for k, v in r.hits_lost.items() if k not in hidden},
        )

    # --------------------------------------------------------- helpers

    def _resolved(self, r: DoorRules, cid: str, ranked) -> DoorRules:
        return replace(r, resolved=[*r.resolved, cid], position=PHASES.moved(r.position, cid, ranked),
                       declared={k: v for k, v in r.declared.items() if k != cid})

    def _ranked(self, state: EncounterState):
        order = list(state.order)
        return lambda phase: order

    def hits(self, state: EncounterState, cid: str) -> int:
        return state.combatants[cid].sheet.hits - rules(state).hits_lost.get(cid, 0)


# ------------------------------------------------------------------ the log's sentences


def _declared(d: Any, s: Any) -> str:
    at = f" at {s.who(d.get('target'))}" if d.get("target") else ""
    return f"{s.Who(d.get('combatant_id'))} declares a {d.get('action')}{at}."


def _struck(d: Any, s: Any) -> str:
    how = "parried" if d.get("parried") else "braced against" if d.get("braced") else "lands"
    return (f"{s.Whose(d.get('combatant_id'))} strike at {s.who(d.get('target'))} rolls "
            f"{(d.get('die') or {}).get('face')}: {how}, {d.get('damage')} damage.")


SENTENCES: dict[str, Any] = {
    "DoorActionDeclared": _declared,
    "DoorDeclarationCancelled": lambda d, s: f"{s.Who(d.get('combatant_id'))} cancels the declared action.",
    "DoorBraced": lambda d, s: f"{s.Who(d.get('combatant_id'))} braces.",
    "DoorWaited": lambda d, s: f"{s.Who(d.get('combatant_id'))} waits.",
    "DoorParried": lambda d, s: f"{s.Who(d.get('combatant_id'))} parries.",
    "DoorStrikeRolled": _struck,
    "DoorBled": lambda d, s: (f"{s.Who(d.get('combatant_id'))} bleeds: {(d.get('die') or {}).get('face')}, "
                              f"{d.get('lost')} Hit lost."),
}
