"""Resolving declared actions in ``Novus`` (a mixin): at one's Initiative Point, or at the end of
the round, one action after another until one waits."""

from __future__ import annotations

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import (
    EncounterState,
    Event,
)
from domain.novus import limbs, snags, zones
from domain.novus.actions import Action
from domain.novus.events import (
    ActionsResolved,
    ActionTaken,
    LateAttacksResolved,
    Resolve,
)
from domain.novus.state import (
    PHASES,
    rules,
)

replace = msgspec.structs.replace


class Resolving:
    """Resolving declared actions in ``Novus`` (domain/novus/ruleset.py composes it)."""

    def _resolve(self, state: EncounterState, cmd: Resolve, dice: Dice) -> list[Event]:
        r = rules(state)
        late = self.phase(state) == "end of round"
        if late:
            c = self.combatant(state, cmd.combatant_id)
            self._check_move(state, "end of round", c)
        else:
            c = self.require_turn(state, cmd.combatant_id)
            PHASES.check_move(r.position, "resolve", c.id, self._ranked(state), c.name)
        return self._carry_on(state, c.id, late, dice)

    def _carry_on(self, state: EncounterState, cid: str, late: bool, dice: Dice, finish: bool = True) -> list[Event]:
        """Perform the declared actions due now, in turn, until one waits (Boon Points to spend);
        then the character's resolution (at the IP, or at the end of the round) is over."""
        declared = rules(state).declared.get(cid)
        out: list[Event] = []
        after = state
        if declared is not None and self.can_act(state, cid):
            for a in declared.next_actions(late):
                more = self._perform(after, cid, a, dice)
                out += more
                for e in more:
                    after = self.evolve(after, e)
                if rules(after).boons_due is not None or self._waiting(after):
                    return out  # the rest waits for the Boon Points to be spent, or for Opportunity Attacks
        if not finish:
            return out
        if late:
            return [*out, LateAttacksResolved(combatant_id=cid)]
        done = ActionsResolved(combatant_id=cid)
        return [*out, done, *self._held_turn(self.evolve(after, done), dice)]

    def _perform(self, state: EncounterState, cid: str, a: Action, dice: Dice, instead: bool = False) -> list[Event]:
        if limbs.unusable(rules(state).data.limbs, self.useless_limbs(state, cid), a.kind):
            return [ActionTaken(combatant_id=cid, action=a, lapsed=True)]  # the limb became useless meanwhile
        if a.kind in ("move", "run"):
            zoned = [*a.through, *a.leaves]
            taken = ActionTaken(combatant_id=cid, action=a, reach=zones.reaches(state, zoned) if zoned else [])
            foes = self._opportunities(self.evolve(state, taken), cid, a)
            if foes:
                return [taken, self._oa_window(state, f"oa:{state.version + 1}", cid, foes,
                                               f"{state.combatants[cid].name}'s move")]
            return [taken]
        if a.kind not in ("attack", "mounted_charge"):
            return [ActionTaken(combatant_id=cid, action=a)]
        if a.target not in state.combatants or a.target in rules(state).dead \
                or a.weapon in rules(state).disarmed.get(cid, []) \
                or snags.unusable(rules(state), cid, a.weapon, state.round):  # disarmed, broken, fumbled: it lapses
            return [ActionTaken(combatant_id=cid, action=a, lapsed=True)]
        return self._attack(state, cid, a, dice, instead)
