"""Opportunity Attacks with several attacks (a part of the ``Novus`` decider, a mixin): "If the character
has multiple attacks (high skill, multiple weapons, etc.) each round, he may use any number of his
attacks for the OA. If the character doesn't use all of his attacks for the OA, then he makes the rest
of his attacks normally according to normal initiative procedures."

The reaction names how many: ``opportunity attack`` (one) or ``N opportunity attacks``. Each is one of
the attacks the character declared and has not made (the first, if none is made yet, else the last
left), with its weapon and its share of the AB, made at the one who moves (ours; a missile attack's
turn goes to the first melee weapon, or Brawling). Attacks left after Boon Points come once they are spent.
"""

from __future__ import annotations

import re

import msgspec

from domain.core import reactions
from domain.core.dice import Dice
from domain.core.encounter import EncounterState, Event
from domain.core.errors import RuleViolation
from domain.novus.actions import Action
from domain.novus.events import AttackRolled
from domain.novus.state import ATTACKS, OPPORTUNITY, rules

replace = msgspec.structs.replace

_SEVERAL = re.compile(r"^([2-9]|1[0-9]) opportunity attacks$")


def reaction_names(most: int) -> tuple[str, ...]:
    """The reactions a window offers when a foe may use up to ``most`` attacks for it."""
    return (OPPORTUNITY, *[f"{n} opportunity attacks" for n in range(2, min(most, 19) + 1)])


def how_many(reaction: str) -> int:
    """How many attacks a reaction names (``opportunity attack``: one)."""
    m = _SEVERAL.match(reaction)
    return int(m.group(1)) if m else 1


class Opportunity:
    """The Opportunity Attacks of ``Novus`` (domain/novus/ruleset.py)."""

    def _oa_window(self, state: EncounterState, window_id: str, mover: str, foes: list[str],
                   trigger: str) -> reactions.ReactionsOpened:
        most = max([self._attacks_left(rules(state), f) for f in foes] + [1])  # type: ignore[attr-defined]
        return reactions.open_window(window_id, mover, foes, reaction_names(most), trigger)

    def _opportunity(self, state: EncounterState, cmd: reactions.React, dice: Dice) -> list[Event]:
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)  # type: ignore[attr-defined]
        window = reactions.check_answer(r.window, cmd.window, c.id, c.name)
        reactions.check_reaction(window, cmd.reaction)
        if window.actor not in state.combatants or window.actor in r.dead:  # felled by an earlier one's attack
            raise RuleViolation("novus_not_a_target", "The one moving is dead: there is no one left to make an "
                                "Opportunity Attack on (pass).")
        n = how_many(cmd.reaction)
        have = max(self._attacks_left(r, c.id), 1)  # type: ignore[attr-defined]
        if n > have:
            raise RuleViolation("novus_bad_action", f"{c.name} has {have} attack(s) left this round for the "
                                "Opportunity Attack.", available=have)
        out = self._oa_attacks(state, c.id, window.actor, n, dice)
        after = state
        for e in out:
            after = self.evolve(after, e)  # type: ignore[attr-defined]
        return out + self._continue(after, dice)  # type: ignore[attr-defined]

    def _oa_attacks(self, state: EncounterState, cid: str, target: str, n: int, dice: Dice) -> list[Event]:
        """``n`` attacks at ``target``, in turn, until one waits (Boon Points, Snag Points)."""
        out: list[Event] = []
        for k in range(n):
            if target not in state.combatants or target in rules(state).dead or not self.can_act(state, cid):  # type: ignore[attr-defined]
                break
            a = self._oa_action(state, cid, target)
            more = [replace(e, opportunity_more=n - k - 1)
                    if isinstance(e, AttackRolled) and e.opportunity else e
                    for e in self._attack(state, cid, a, dice, instead=False, opportunity=True)]  # type: ignore[attr-defined]
            out += more
            for e in more:
                state = self.evolve(state, e)  # type: ignore[attr-defined]
            if rules(state).boons_due is not None or self._waiting(state):  # type: ignore[attr-defined]
                break
        return out

    def _oa_more(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The Opportunity Attacks still to make once what waited is over."""
        r = rules(state)
        for cid, (target, n) in r.oa_more.items():
            if cid in state.combatants:
                return self._oa_attacks(state, cid, target, n, dice)
        return []

    @staticmethod
    def _oa_action(state: EncounterState, cid: str, target: str) -> Action:
        """The declared attack the OA uses (the one ``_spend_an_attack`` takes), at ``target``."""
        c = state.combatants[cid]
        d = rules(state).declared.get(cid)
        left = [d.actions[i] for i in d.schedule[d.done:] if d.actions[i].kind in ATTACKS] if d else []
        used = (left[0] if d.done == 0 else left[-1]) if d and left else None
        away = rules(state).disarmed.get(cid, [])  # not one a Disarm knocked away
        weapon = c.sheet.weapon(used.weapon) if used is not None else None
        if used is not None and weapon is not None and weapon.kind != "missile" and weapon.name not in away:
            return Action(kind="attack", target=target, weapon=weapon.name, share=used.share)
        melee = next((w for w in c.sheet.weapons if w.kind != "missile" and w.name not in away), None)
        return Action(kind="attack", target=target, weapon=melee.name if melee else None)
