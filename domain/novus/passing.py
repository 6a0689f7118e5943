"""Who cannot act does not hold the round (a part of the ``Novus`` decider, a mixin).

N22: "At 0 to -10 hit points a character is helpless and can do nothing but try to stabilise himself
with First Aid (TN 25)"; surprised: "if this puts an individual character's Initiative at or below
zero, then that character will not be allowed to take action until the following round". Such a
character has nothing to declare and nothing to resolve: when the round comes to him (his place in
the declarations, his turn to resolve, the end of his turn) it goes on without him, recorded as an
empty declaration, his actions resolved (they lapse) and his turn ended, in the events of the command
that brought the round to him. A helpless character's First Aid is a roll (``NovusRollSkill``), never
a step of the round.

It stops while something waits (Boon or Snag Points, a stray shot's saves, Opportunity Attacks,
Opposed Saving Throws), and when nobody in the fight could act again (everyone helpless or dead):
the rounds would pass for ever; the GM ends the fight, or heals someone.
"""

from __future__ import annotations

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import EncounterState, EndTurn, Event
from domain.core.errors import RuleViolation
from domain.novus.events import ActionsDeclared, ActionsResolved
from domain.novus.state import PHASES, rules

replace = msgspec.structs.replace


class Passing:
    """The round going on past those who cannot act (domain/novus/ruleset.py composes it)."""

    def out_of_fight(self, state: EncounterState, combatant: object) -> bool:
        """N22: "At 0 to -10 hit points a character is helpless and can do nothing but try to stabilise
        himself"; dead past the GM's threshold (``death_below``, U-N4). Either is out of the fight."""
        cid = getattr(combatant, "id", None)
        if cid is None or cid not in state.combatants:
            return True
        return cid in rules(state).dead or self.helpless(state, cid)  # type: ignore[attr-defined]

    def _may_come_back(self, state: EncounterState) -> bool:
        """Whether anyone in the fight can act in some round to come (not helpless, not dead)."""
        return any(not self.out_of_fight(state, c) for c in state.combatants.values())

    def _pass_on(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The events that take the round past the one it comes to, if he cannot act: his empty
        declaration, or his resolution and the end of his turn (and so on, past the next ones)."""
        if state.status != "active" or not state.combatants or self._held_up(state):
            return []
        if not self._may_come_back(state):
            return []
        r = rules(state)
        phase = self.phase(state)  # type: ignore[attr-defined]
        ranked = self._ranked(state)  # type: ignore[attr-defined]
        if phase == "declare":
            mover = PHASES.mover(r.position, ranked)
            if mover is None or mover not in state.combatants or self.can_act(state, mover):  # type: ignore[attr-defined]
                return []
            declared = ActionsDeclared(combatant_id=mover, actions=[], ap=0)
            return [declared, *self._pass_on(self.evolve(state, declared), dice)]  # type: ignore[attr-defined]
        t = state.turn
        if t is None or t not in state.combatants or self.can_act(state, t) or phase == "end of round":  # type: ignore[attr-defined]
            return []
        out: list[Event] = []
        if t not in r.resolved:
            if phase != "resolve" or PHASES.mover(r.position, ranked) != t:
                return []
            out.append(ActionsResolved(combatant_id=t))  # what he declared lapses: he can do nothing
            state = self.evolve(state, out[0])  # type: ignore[attr-defined]
        try:
            ended = self.decide_end_turn(state, EndTurn(combatant_id=t))  # type: ignore[attr-defined]
        except RuleViolation:
            return out
        return [*out, *self.with_steps(state, ended, dice)]  # type: ignore[attr-defined]

    def _held_up(self, state: EncounterState) -> bool:
        """Something the round waits for before anyone's turn goes on."""
        r = rules(state)
        return (r.boons_due is not None or self._waiting(state)  # type: ignore[attr-defined]
                or self.contest_waits(state))  # type: ignore[attr-defined]

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """A turn (or a round) that begins with one who cannot act goes on past him."""
        return self._pass_on(state, dice)

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """What waited only on the one taken out goes on (the resolution under way), then the round,
        past those who cannot act."""
        out = super().after_removal(state, dice)  # type: ignore[misc]
        for e in out:
            state = self.evolve(state, e)  # type: ignore[attr-defined]
        return [*out, *self._pass_on(state, dice)]
