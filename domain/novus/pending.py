"""Who ``Novus`` waits for (a mixin): the decisions offered now, each with the choices the rules take."""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.encounter import (
    EncounterState,
)
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision
from domain.core.resources import held
from domain.novus import actions as ap_table
from domain.novus import performing
from domain.novus.actions import Action
from domain.novus.prompts import cancels_and_holds
from domain.novus.state import (
    AP,
    BOONS_DUE,
    LATE_FIRST,
    PHASES,
    RESOLVE_FIRST,
    STRAY,
    WAITS,
    BoonsDue,
    rules,
)

replace = msgspec.structs.replace


class Pending:
    """Who ``Novus`` waits for (domain/novus/ruleset.py composes it)."""

    def pending(self, state: EncounterState) -> list[Decision]:
        if state.status != "active":
            return []
        r = rules(state)
        due = r.boons_due
        if due is not None and due.attacker in state.combatants:
            return [self._boon_decision(state, due)]
        if r.snags_due is not None and r.snags_due.roller in state.combatants:
            return [self._snag_decision(state, r.snags_due)]
        left = [n for n in r.stray.near if n in state.combatants] if r.stray is not None else []
        if left:
            who = left[0]
            return [Decision(id=f"stray:{state.version}:{who}", kind="stray_save", combatant_id=who,
                             command="NovusRollStraySave", body={"combatant_id": who}, blocks_turn_end=True,
                             refusal=STRAY, summary="A shot into melee missed its target: make a Saving Throw "
                             "vs Spd against the attack's total, or be hit.")]
        if self.contest_waits(state):
            return self._contest_decisions(state)
        if r.window is not None and not r.window.settled:
            return [replace(d, blocks_turn_end=True, refusal=WAITS) for d in reactions.decisions(
                r.window, "An Opportunity Attack (it counts as your attack for the round), or pass.")]
        phase = PHASES.current(r.position)
        mover = PHASES.mover(r.position, self._ranked(state))
        if phase is None or mover is None or (r.unseen_mover and phase.name != "resolve"):
            return []
        if phase.name == "declare":
            return [Decision(id=f"declare:{state.round}:{mover}", kind="declare", combatant_id=mover,
                             command="NovusDeclare", body={"combatant_id": mover}, choice_field="actions",
                             choices=self._declare_choices(state, mover),
                             summary="Declare this round's actions (from the lowest Initiative Point to the highest)."),
                    *cancels_and_holds(self, state)]
        if phase.name == "end of round":
            return [Decision(id=f"late:{state.round}:{mover}", kind="end_of_round_attacks", combatant_id=mover,
                             command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                             refusal=LATE_FIRST, summary="Make your remaining attacks, at the end of the round.")]
        out: list[Decision] = cancels_and_holds(self, state)
        if phase.name == "resolve":
            for cid in r.holding:  # held actions, at any IP lower than one's own (a choice, never a wait)
                if cid in state.acted and cid in state.combatants:
                    out.append(Decision(id=f"held:{state.round}:{cid}", kind="held_action", combatant_id=cid,
                                        command="NovusActHeld", body={"combatant_id": cid}, choice_field="actions",
                                        choices=self._declare_choices(state, cid),
                                        summary="Perform your held actions now, if you wish."))
        if mover != state.turn:
            return out
        return out + [Decision(id=f"resolve:{state.round}:{mover}", kind="resolve", combatant_id=mover,
                         command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                         refusal=RESOLVE_FIRST, summary="Resolve the declared actions at your Initiative Point.")]

    def _declare_choices(self, state: EncounterState, cid: str) -> tuple[Choice, ...]:
        """A few declarations the rules take now: nothing, a Dodge, an attack on each foe (and with each
        advanced attack move learnt)."""
        c = state.combatants[cid]
        out = [Choice(name="nothing", answer={"actions": []})]
        if not self.may_act(state, cid):
            return tuple(out)
        data = rules(state).data
        left = held(c).get(AP, 0)
        tries = [Action(kind="dodge")]
        weapon = c.sheet.weapons[0].name if c.sheet.weapons else None
        for o, other in state.combatants.items():
            if other.side != c.side and o not in rules(state).dead:
                tries.append(Action(kind="attack", target=o, weapon=weapon))
                tries += [Action(kind="attack", target=o, weapon=weapon, move=m)
                          for m in performing.learnt_attacks(data, c.sheet, weapon)]
        for a in tries:
            try:
                self._check_declaration(state, c, [a], 0, None)
            except RuleViolation:
                continue
            cost = ap_table.cost(c.sheet, a, data, c.id in rules(state).mounted)
            if cost <= left:
                name = a.kind if a.target is None else f"attack {a.target}" + (f" ({a.move})" if a.move else "")
                out.append(Choice(name=name, action_points=cost, answer={"actions": [msgspec.to_builtins(a)]}))
        return tuple(out)

    def _boon_decision(self, state: EncounterState, due: BoonsDue) -> Decision:
        data = rules(state).data
        choices = [Choice(name="none", answer={"boons": []})]
        for b in data.boons:
            if b.cost <= due.points or (b.name in data.impairing_boons and b.cost <= due.points + due.head_points):
                choices.append(Choice(name=b.name, answer={"boons": [b.name]}))
        return Decision(id=f"boons:{state.round}:{due.attacker}:{state.version}", kind="boons",
                        combatant_id=due.attacker, command="NovusSpendBoons", body={"combatant_id": due.attacker},
                        choice_field="boons", choices=tuple(choices), blocks_turn_end=True, refusal=BOONS_DUE,
                        summary=f"Spend {due.points} Boon Point(s)"
                                + (f" (+{due.head_points} on Boons that impair judgement or consciousness)"
                                   if due.head_points else "") + " at once.")
