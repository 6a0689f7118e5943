"""Who ``Novus`` waits for (a mixin): the decisions offered now, each with the choices the rules take."""

from __future__ import annotations

import contextvars

import msgspec

from domain.core import reactions
from domain.core.dice import Dice
from domain.core.encounter import (
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision
from domain.novus import boons
from domain.novus.offering import words
from domain.novus.opportunity import how_many
from domain.novus.prompts import cancels_and_holds
from domain.novus.state import (
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

# Set while core's ``with_steps`` runs (a context variable: a server's threads and tasks each their own).
_STEPPING: contextvars.ContextVar[bool] = contextvars.ContextVar("novus_stepping", default=False)


class Pending:
    """Who ``Novus`` waits for (domain/novus/ruleset.py composes it)."""

    def pending(self, state: EncounterState) -> list[Decision]:
        """What the fight waits for now, each with its choices (asked of one state many times over: the
        prompts, the next moves, each answer tried; worked out once for the last few states asked, a state
        and the same shown counting as one: ``shown`` changes only the sheets, never the round's books)."""
        if state.status != "active":
            return []
        if _STEPPING.get():  # core's with_steps: only what blocks the turn's end is read (see below)
            return self._pending(state, optional=False)
        memo = self._pending_memo
        for seen, decided in memo:  # the same state, or it as shown (the same round's books: its sheets' toll)
            if seen is state or (seen.rules is state.rules and seen.version == state.version
                                 and seen.turn == state.turn and seen.combatants.keys() == state.combatants.keys()):
                return list(decided)
        decided = self._pending(state, optional=True)
        memo.append((state, decided))
        if len(memo) > 8:
            del memo[0]
        return list(decided)

    @property
    def _pending_memo(self) -> list[tuple[EncounterState, list[Decision]]]:
        memo = self.__dict__.get("_pending_recent")
        if memo is None:
            memo = self.__dict__["_pending_recent"] = []
        return memo

    def with_steps(self, state: EncounterState, events: list[Event], dice: Dice) -> list[Event]:
        """Core's, which asks what is pending before and after each turn's and round's step to see whether
        the step left a decision that blocks the turn's end: it is asked only for those (the declarations,
        cancels and holds, each choice tried, never block it), on the many states a command's steps pass."""
        token = _STEPPING.set(True)
        try:
            return super().with_steps(state, events, dice)  # type: ignore[misc]
        finally:
            _STEPPING.reset(token)

    def turn_end_refusal(self, state: EncounterState) -> RuleViolation | None:
        """The refusal ending the turn gets while a decision that blocks it waits: only those are worked
        out (the declarations, cancels and holds offered meanwhile never block it)."""
        if state.status != "active":
            return None
        for decision in self._pending(state, optional=False):
            if decision.blocks_turn_end:
                return (decision.refusal.violation() if decision.refusal is not None else
                        RuleViolation("decision_pending", f"{decision.summary or 'A decision'} is still awaited "
                                      f"({decision.command}).", decision=decision.id))
        return None

    def _pending(self, state: EncounterState, optional: bool) -> list[Decision]:
        """The decisions pending; ``optional`` False: only those that may block the turn's end."""
        r = rules(state)
        due = r.boons_due
        if due is not None and due.attacker in state.combatants:
            return [self._boon_decision(state, due)]
        if r.snags_due is not None and r.snags_due.roller in state.combatants:
            return [self._snag_decision(state, r.snags_due)]
        left = [n for n in r.stray.near if n in state.combatants] if r.stray is not None else []
        if left:
            who = left[0]
            return [Decision(id=f"stray:{r.stray.at if r.stray is not None else 0}:{who}", kind="stray_save", combatant_id=who,
                             command="NovusRollStraySave", body={"combatant_id": who}, blocks_turn_end=True,
                             refusal=STRAY, summary="A shot into melee missed its target: make a Saving Throw "
                             "vs Spd against the attack's total, or be hit.")]
        if self.contest_waits(state):
            return self._contest_decisions(state)
        if r.window is not None and not r.window.settled:
            return [replace(d, blocks_turn_end=True, refusal=WAITS, choices=self._oa_choices(state, r.window))
                    for d in reactions.decisions(
                        r.window, "An Opportunity Attack (it counts as your attack for the round), or pass.")]
        phase = PHASES.current(r.position)
        mover = PHASES.mover(r.position, self._ranked(state))
        if phase is None or mover is None or (r.unseen_mover and phase.name != "resolve"):
            return []
        if phase.name == "declare":
            if not optional:
                return []
            return [Decision(id=f"declare:{state.round}:{mover}", kind="declare", combatant_id=mover,
                             command="NovusDeclare", body={"combatant_id": mover}, choice_field="actions",
                             choices=self._declare_choices(state, mover),
                             summary="Declare this round's actions (from the lowest Initiative Point to the highest)."),
                    *cancels_and_holds(self, state)]
        if phase.name == "end of round":
            return [Decision(id=f"late:{state.round}:{mover}", kind="end_of_round_attacks", combatant_id=mover,
                             command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                             refusal=LATE_FIRST, summary="Make your remaining attacks, at the end of the round.",
                             choices=(Choice(name="Make the remaining attacks", answer={}),
                                      Choice(name="Cancel the remaining attacks",
                                             answer={"type": "NovusCancel", "instead": []}))
                             if optional and self.can_act(state, mover) else ()),  # the helpless cancel nothing (N22)
                    *(cancels_and_holds(self, state) if optional else [])]
        out: list[Decision] = cancels_and_holds(self, state) if optional else []
        if phase.name == "resolve" and optional:
            for cid in r.holding:  # held actions, at any IP lower than one's own (a choice, never a wait)
                if cid in state.acted and cid in state.combatants:
                    out.append(Decision(id=f"held:{state.round}:{cid}", kind="held_action", combatant_id=cid,
                                        command="NovusActHeld", body={"combatant_id": cid}, choice_field="actions",
                                        choices=tuple(replace(ch, name="Let the hold lapse" if not ch.answer["actions"]
                                                              else f"Act now: {ch.name}")
                                                      for ch in self._declare_choices(state, cid, carry=False)),
                                        summary="Perform your held actions now, if you wish."))
        if mover != state.turn:
            return out
        due = r.declared[mover].next_actions(False) if mover in r.declared and optional else []
        what = f": {words(state, state.combatants[mover], due)}" if due else ""
        return out + [Decision(id=f"resolve:{state.round}:{mover}", kind="resolve", combatant_id=mover,
                         command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                         refusal=RESOLVE_FIRST, summary=f"Resolve the declared actions at your Initiative Point{what}.")]

    @staticmethod
    def _oa_choices(state: EncounterState, window: reactions.ReactionWindow) -> tuple[Choice, ...]:
        """Each answer to a window of Opportunity Attacks, a whole body in words: the attacks ("he may use
        any number of his attacks for the OA"), or letting the move go on (a PassReaction)."""
        mover = state.combatants.get(window.actor)
        on = f" on {mover.name}" if mover is not None else ""
        out = [Choice(name=f"{'An Opportunity Attack' if how_many(r) == 1 else f'{how_many(r)} Opportunity Attacks'}{on}",
                      answer={"reaction": r}) for r in window.reactions]
        return (*out, Choice(name=f"Let {mover.name if mover else 'the move'} pass (no Opportunity Attack)",
                             answer={"type": reactions.PassReaction.__struct_config__.tag}))

    def _declare_choices(self, state: EncounterState, cid: str, carry: bool = True) -> tuple[Choice, ...]:
        """Each declaration the rules take now, a whole answer in the game's words (domain/novus/offering.py)."""
        return tuple(Choice(name=name, action_points=cost, answer={"actions": [msgspec.to_builtins(a) for a in acts]})
                     for name, acts, cost in self.declarations(state, cid, carry))

    def _boon_decision(self, state: EncounterState, due: BoonsDue) -> Decision:
        attacker = state.combatants[due.attacker]
        others = [(f, state.combatants[f].name) for f in self.foes(state, attacker) if f != due.target]
        choices = boons.choices(rules(state).data, due, others)
        return Decision(id=f"boons:{due.at}:{due.attacker}", kind="boons",
                        combatant_id=due.attacker, command="NovusSpendBoons", body={"combatant_id": due.attacker},
                        choice_field="boons", choices=tuple(choices), blocks_turn_end=True, refusal=BOONS_DUE,
                        summary=f"Spend {due.points} Boon Point(s)"
                                + (f" (+{due.head_points} on Boons that impair judgement or consciousness)"
                                   if due.head_points else "") + " at once.")
