"""Cancelling declared actions in ``Novus`` (a mixin), and what is done instead."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.resources import held
from domain.novus import actions as ap_table
from domain.novus.actions import Action
from domain.novus.declaring import unseen_ap
from domain.novus.events import (
    ActionsCancelled,
    Cancel,
    LateAttacksCancelled,
)
from domain.novus.state import (
    AP,
    ATTACKS,
    rules,
)

replace = msgspec.structs.replace


class Cancelling:
    """Cancelling declared actions in ``Novus`` (domain/novus/ruleset.py composes it)."""

    def _cancel(self, state: EncounterState, cmd: Cancel, dice: Dice) -> list[Event]:
        """"An action declared by a character may be canceled at any time prior to its resolution" (while
        others still declare too): "The new action is performed at the time that the old action was canceled"."""
        c = self.combatant(state, cmd.combatant_id)
        declared = rules(state).declared.get(c.id)
        if declared is not None and declared.cancelled:
            raise RuleViolation("novus_not_now", f"{c.name} has already cancelled his actions this round.")
        if declared is not None and declared.done and declared.late_left and not cmd.instead:
            return [LateAttacksCancelled(combatant_id=c.id)]  # "he may still cancel his remaining attacks"
        out: list[Event] = [self.check_cancel(state, c, cmd.instead)]
        after = self.evolve(state, out[0])
        for a in cmd.instead:
            more = self._perform(after, c.id, a, dice, instead=True)
            out += more
            for e in more:
                after = self.evolve(after, e)
        return out + self._held_turn(after, dice)

    def check_cancel(self, state: EncounterState, c: Combatant, instead: Sequence[Action]) -> ActionsCancelled:
        """The cancelling, if the rules take it now with ``instead`` (else the RuleViolation)."""
        return self.cancelling(state, c)(instead)

    def cancelling(self, state: EncounterState, c: Combatant) -> Callable[[Sequence[Action]], ActionsCancelled]:
        """What checks a cancelling of ``c``'s declared actions with what is done instead (the checks of
        the cancelling itself made once: the choices of a prompt are each checked with it)."""
        r = rules(state)
        declared = r.declared.get(c.id)
        phase = self.phase(state)
        if phase not in ("declare", "resolve") or c.id in r.resolved:
            raise RuleViolation("novus_nothing_declared", f"{c.name} has no declared action waiting to resolve.")
        if declared is None:
            raise RuleViolation("novus_nothing_declared", f"{c.name} has not declared this round's actions yet: "
                                "there is nothing to cancel.")
        if declared.cancelled:
            raise RuleViolation("novus_not_now", f"{c.name} has already cancelled his actions this round.")
        if declared.done:
            raise RuleViolation("novus_not_now", "Once the first of the attacks is made, the character may no longer "
                                "cancel his action to perform other actions.")
        may_act = self.can_act(state, c.id)
        melee = next((a.target for a in declared.actions if a.kind in ATTACKS and self._melee(c, a)), None)
        have = held(c).get(AP, 0) + declared.ap
        mounted = c.id in r.mounted
        refund_on = declared.unseen(state.concealed)  # (the AP of those aimed at one hidden: apart)

        def check(instead: Sequence[Action]) -> ActionsCancelled:
            if instead and not may_act:
                raise RuleViolation("novus_cannot_act", f"{c.name} cannot act now.")
            for a in instead:
                self._check_action(state, c, a)
            if instead:
                self._check_instead(state, c, instead, melee, "novus_bad_action")
            costs = [ap_table.cost(c.sheet, a, r.data, mounted) for a in instead]
            cost = sum(costs)
            if cost > have:
                raise RuleViolation("novus_too_many_ap", f"{c.name} has {have} AP for it; that takes {cost}.",
                                    available=have, cost=cost)
            ap_on, _ = unseen_ap(state, instead, costs, 0)
            return ActionsCancelled(combatant_id=c.id, instead=list(instead), refund=declared.ap - sum(refund_on.values()),
                                    ap=cost - sum(ap_on.values()), refund_on=refund_on, ap_on=ap_on)

        return check

    @staticmethod
    def _melee(c: Combatant, a: Action) -> bool:
        w = c.sheet.weapon(a.weapon)
        return w is None or w.kind != "missile"
