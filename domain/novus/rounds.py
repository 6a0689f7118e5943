"""The round of ``Novus`` (a mixin): its Action Points, the Initiative rolled once per combat and
each round's Initiative Points, the three phases and who takes part in each."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec

from domain.core.action_points import ActionPointBudget
from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    CombatantRemoved,
    EncounterState,
    Event,
    InitiativeRoll,
    InitiativeRolled,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import Entry, order_descending
from domain.core.phases import Phase, PhasePosition
from domain.core.resources import Resource, Resources
from domain.novus.actions import HASTED_AP, ROUND_AP
from domain.novus.codes import OWN_CODES
from domain.novus.dice import roll_2d10
from domain.novus.events import (
    InitiativeRerolled,
)
from domain.novus.state import (
    AP,
    PHASES,
    SURPRISE,
    NovusRules,
    rules,
    taken_out,
)

replace = msgspec.structs.replace


def _round_ap(amount: int) -> Resources:
    """The round's AP, ``amount`` of them."""
    return Resources((Resource(AP, amount, ("round_start",)),))


# made once for each amount a round can give (a fold asks for each combatant every round)
_ROUND_AP = {amount: _round_ap(amount) for amount in range(HASTED_AP + 1)}


# The end of the round's phase: the one phase an action's step can leave with nobody in it to move (a
# declaration's attacks done or cancelled, one made helpless). Who takes part in the declare phase is set as
# the round begins (``declarers``) and in the resolve phase is the order of play (core's): no action's step
# changes them, and a step moves the position only by ``PHASES.moved`` (which leaves a phase once all in it
# have moved). So the fold asks ``_unstuck`` after an action only in this phase (folding.py; checked by
# tests/rulesets/novus/test_fold_phases.py along long fights and walks).
END_OF_ROUND = next(i for i, p in enumerate(PHASES.phases) if p.name == "end of round")
RESOLVE = next(i for i, p in enumerate(PHASES.phases) if p.name == "resolve")  # where the position says it is


class Rounds:
    """The round of ``Novus`` (domain/novus/ruleset.py composes it)."""

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # the round's AP are a resource: 5, or 10 Hasted

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """"Normally a character has only 5 Action Points to use in a given round ... Haste ...
        giving him a total of 10 AP for the round", less what an action running on from the last
        round still takes."""
        r = rules(state)
        amount = (HASTED_AP if combatant.id in r.hasted else ROUND_AP) - r.carried.get(combatant.id, 0)
        amount = max(amount, 0)
        return _ROUND_AP.get(amount) or _round_ap(amount)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """N11: "Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus ... rolled once per combat"."""
        if state.status == "active":
            raise RuleViolation("novus_initiative_once", OWN_CODES["novus_initiative_once"])
        r = rules(state)
        rolls, entries = [], []
        for c in sorted(state.combatants.values(), key=lambda c: c.seq):
            roll = self._initiative_roll(c, dice)
            rolls.append(roll)
            first = roll.total + (SURPRISE if c.id in r.surprised else 0)
            entries.append(Entry(c.id, first, c.seq, tiebreak=c.sheet.initiative_bonus()))
        return InitiativeRolled(rolls=rolls, order=order_descending(entries))

    @staticmethod
    def _initiative_roll(c: Combatant, dice: Dice) -> InitiativeRoll:
        roll = roll_2d10(dice, "initiative", c.id)
        bonus = c.sheet.initiative_bonus()
        return InitiativeRoll(who=c.id, die=roll.dice[0], more_dice=list(roll.dice[1:]), modifier=bonus,
                              total=roll.total + bonus)

    def round_order(self, state: EncounterState) -> list[str] | None:
        """The next round's order: each one's IP for it (a Set or Rerolled Initiative, a Boost)."""
        nxt = state.round + 1
        entries = [Entry(cid, self.ip_for(state, cid, nxt), c.seq, tiebreak=c.sheet.initiative_bonus())
                   for cid, c in state.combatants.items()]
        return order_descending(entries)

    def ip_for(self, state: EncounterState, cid: str, round_number: int) -> int:
        """A combatant's Initiative Points in ``round_number``: the IP rolled once per combat (or
        rerolled); Set Initiative: "treated as if he rolled a 20 on the 2d10" for one round;
        Initiative Boost: "+2 IP next round per BP"; surprised: -20 in the first round."""
        r = rules(state)
        return self._ip(r, r.rolled_ip, cid, state.combatants[cid], round_number)

    @staticmethod
    def _ip(r: NovusRules, rolled: dict[str, int], cid: str, c: Combatant, round_number: int) -> int:
        """``ip_for`` of ``cid`` (``c``) with the IP rolled once per combat as ``rolled`` has them."""
        ip = rolled.get(cid, c.initiative if c.initiative is not None else 0)
        if r.set_initiative.get(cid) == round_number - 1:
            ip = 20 + c.sheet.initiative_bonus()
        ip += r.boost.get(cid, 0) if round_number > 1 else 0
        if round_number == 1 and cid in r.surprised:
            ip += SURPRISE
        return ip

    def round_began(self, state: EncounterState) -> EncounterState:
        """The round's books afresh: each one's IP for the round (the IP rolled once per combat kept for
        the rest of it), who declares (those who may act, in the order), the first phase anyone is in."""
        r = rules(state)
        combatants, now = state.combatants, state.round
        rolled = dict(r.rolled_ip)
        for cid, c in combatants.items():
            if cid not in rolled and c.initiative is not None:
                rolled[cid] = c.initiative
        ip_of = self._ip
        fresh = replace(r, rolled_ip=rolled, ip={cid: ip_of(r, rolled, cid, c, now) for cid, c in combatants.items()},
                        declared={}, resolved=[], carried={}, carried_unseen={}, owed_unseen=r.carried_unseen, boost={}, holding=[], window=None, attacked=[],
                        disengaged=[], riding={}, late_dodge=[], blocks_used={}, boons_due=None,
                        position=PhasePosition())
        may_act, state = self.can_act, replace(state, rules=fresh)
        state = replace(state, rules=replace(fresh, declarers=[cid for cid in state.order if may_act(state, cid)]))
        position = PHASES.begin(self._ranked(state))
        # mostly the declare phase, as it stands: no copy for it
        if position == state.rules.position:
            return state
        return replace(state, rules=replace(state.rules, position=position))

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Reroll Initiative: prepared this round, "in order to reroll his initiative in the following round"."""
        return [InitiativeRerolled(roll=self._initiative_roll(state.combatants[cid], dice))
                for cid in rules(state).reroll if cid in state.combatants]

    def before_end_turn(self, state: EncounterState) -> None:
        if state.turn not in rules(state).resolved:
            raise RuleViolation("novus_resolve_first", OWN_CODES["novus_resolve_first"])
        if self.phase(state) == "end of round":
            raise RuleViolation("novus_end_of_round_attacks", OWN_CODES["novus_end_of_round_attacks"])

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        state = super().evolve_removed(state, event)
        return self._unstuck(replace(state, rules=taken_out(rules(state), event.combatant_id)))

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """What waited only on the one taken out goes on (the resolution under way)."""
        return self._continue(state, dice)

    def _unstuck(self, state: EncounterState) -> EncounterState:
        """Past a phase nobody left in it still has to move in (one taken out of the fight). Asked after
        every event: answered at once while someone in the current phase has yet to move (the first
        one found), the phases' lists made only when the phase must be left."""
        if state.status != "active":
            return state
        r: NovusRules = state.rules
        at = r.position
        phase = PHASES.current(at)
        if phase is None:
            return state
        moved = at.moved
        for c in self._taking_part(state, phase.name):
            if c not in moved:
                return state
        ranked = self._ranked(state)
        while not PHASES.done(at) and not PHASES.waiting(at, ranked):
            at = PHASES._skip_empty(PhasePosition(phase=at.phase + 1), ranked)
        return replace(state, rules=replace(r, position=at)) if at != r.position else state

    def _ranked(self, state: EncounterState) -> Callable[[Phase], Sequence[str]]:
        """Who takes part in each phase, worked out when asked for (most events ask only for the current
        phase's, once: not kept, which cost more than asking again where a phase is asked twice)."""
        taking_part = self._taking_part

        def ranked(phase: Phase) -> Sequence[str]:
            part = taking_part(state, phase.name)
            return part if isinstance(part, list) else list(part)  # the order itself: not copied

        return ranked

    def _taking_part(self, state: EncounterState, phase: str) -> Iterable[str]:
        """Who takes part in ``phase``, highest IP first: those who may declare, everyone in the order,
        those with attacks left for the end of the round (lazily: a question of the first may stop early)."""
        if phase == "resolve":
            return state.order
        r: NovusRules = state.rules
        if phase == "declare":
            combatants = state.combatants
            for c in r.declarers:
                if c not in combatants:
                    return [c for c in r.declarers if c in combatants]
            return r.declarers  # all of them (mostly): the list itself, not a copy
        declared = r.declared
        return (c for c in state.order
                if (d := declared.get(c)) is not None and d.late_left > 0 and self.can_act(state, c))

    def phase(self, state: EncounterState) -> str | None:
        p = PHASES.current(rules(state).position)
        return p.name if p is not None else None
