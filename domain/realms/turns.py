"""Rounds and turns: AP set at the end of each turn, the free Interaction and Ability Roll, what
"one round" lasts, and the End-of-Turn Overcome."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.dice import Dice
from domain.core.durations import Boundary, has_run_out
from domain.core.encounter import (
    EncounterState,
    EndTurn,
    Event,
    RoundStarted,
    TurnEnded,
)
from domain.realms import conditions as conds
from domain.realms.body import Body, afflictions
from domain.realms.events import (
    HidingRolled,
    OvercomeDue,
)
from domain.realms.state import (
    AP,
    body_of,
    rules,
)

replace = msgspec.structs.replace


class Turns:
    """A part of ``Realms`` (domain/realms/ruleset.py): turns."""

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """A new turn: the Multiple Action Penalty counts afresh ("in a turn"), armour's reductions
        are back ("until the start of the next turn"), and one's own Evade, lasting "one round",
        runs out at the start of one's next turn if no attack used it first."""
        r = rules(state)
        at = Boundary(kind="turn_start", round=state.round, combatant=combatant_id)
        out = {}
        for cid, b in r.bodies.items():
            changes: dict[str, Any] = {}
            if b.repeats:
                changes["repeats"] = {}
            if b.armour_uses:
                changes["armour_uses"] = 0
            if b.evade is not None and has_run_out(b.evade, at):
                changes.update(evade=None, evades=0, split_evades=0, evade_split=False)
            if cid == combatant_id and (b.attacks or b.quick_attacked or b.off_hand_attacked or b.free_actions
                                        or b.moves):
                changes.update(attacks=[], quick_attacked=False, off_hand_attacked=False, free_actions=0, moves=0)
            if cid == combatant_id and b.prepared is not None:
                changes["prepared"] = None  # unused: "you do not regain those spent resources"
            out[cid] = replace(b, **changes) if changes else b
        return replace(state, rules=replace(r, bodies=out))

    def decide_start(self, state: EncounterState) -> list[Event]:
        """"At the start of combat ... your Action Points (AP) are set to 4", but R22's Dying creature (the
        initiator's free Action may leave one before initiative) "gains only 1 AP"."""
        events = super().decide_start(state)
        dying = {cid for cid, b in rules(state).bodies.items() if b.dying and cid in state.combatants}
        if not dying:
            return events
        return [replace(e, action_points={**e.action_points, **{cid: 1 for cid in dying}})
                if isinstance(e, RoundStarted) else e for e in events]

    def decide_end_turn(self, state: EncounterState, cmd: EndTurn) -> list[Event]:
        """R22: a Dying creature "gains only 1 AP at the end of each of its turns"; Stunned: "level
        fewer AP at the end of the turn, but never fewer than 1 gained"."""
        events = super().decide_end_turn(state, cmd)
        b = body_of(state, cmd.combatant_id)
        ap = 1 if b.dying else conds.turn_end_ap(AP, afflictions(b))
        if ap == AP:
            return events
        out: list[Event] = []
        for e in events:
            if isinstance(e, TurnEnded):
                e = replace(e, action_points=ap)
            elif isinstance(e, RoundStarted):
                e = replace(e, action_points={**e.action_points, cmd.combatant_id: ap})
            out.append(e)
        return out

    def at_turn_end(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """"At the end of your turn, before gaining Action Points, you may attempt to overcome each
        condition or effect currently affecting your Character": a decision, once a turn."""
        b = body_of(state, combatant_id)
        out: list[Event] = []
        if b.stealth is not None and b.stealth.free_round != state.round and not b.overcome_due:
            # "At the end of each turn (except the turn in which you first took this action), but before
            # your Action Points are renewed, you must spend 1 Action Point to stay hidden"
            c = state.combatants[combatant_id]
            upkeep = HidingRolled(combatant_id=c.id, mode=b.stealth.mode, action_points=1 if c.action_points else 0,
                                  upkeep=True, hidden_from=list(b.stealth.hidden_from), ended=not c.action_points)
            out.append(upkeep)
            state = self.evolve(state, upkeep)
            b = body_of(state, combatant_id)
        if b.dead or b.overcome_due or b.overcome_round == state.round or not self._to_overcome(b):
            return out
        return [*out, OvercomeDue(combatant_id=combatant_id)]

    @staticmethod
    def _to_overcome(b: Body) -> dict[str, list[tuple[str, int]]]:
        """The Scores on each Defence: (condition, Difficulty Score or Potency)."""
        out: dict[str, list[tuple[str, int]]] = {}
        for name, a in sorted(b.conditions.items()):
            if a.defence is not None and a.score is not None:
                out.setdefault(a.defence, []).append((name, a.score))
        return out

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """R22: "On each of its later turns a dying creature takes escalating damage" (1d4, 2d4,
        4d4 by the chapter; 1d4, 1d8, 2d8, 4d8 by the appendix: ``SetRealmsRules``), stopped once
        stabilised."""
        b = body_of(state, combatant_id)
        c = state.combatants.get(combatant_id)
        if c is None or b.dead:
            return []
        out: list[Event] = []
        bleed = conds.level(b.conditions, "bleed")
        if bleed:  # Bleed: "−1 Health at the start of the turn per level"
            out.append(self._harm(state, combatant_id, bleed, "bleed"))
            state = self.evolve(state, out[-1])
            b = body_of(state, combatant_id)
        if not b.dying or b.stabilised or b.dead:
            return out
        count, sides = rules(state).data.dying_step(b.dying_step)
        rolled = [dice.roll(sides, "dying damage", combatant_id) for _ in range(count)]
        return [*out, self._harm(state, combatant_id, sum(d.face for d in rolled), "dying", dice=rolled)]
