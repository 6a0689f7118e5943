"""What ``Novus`` shows (a mixin): Hit Points and limbs on the sheets, and the round's books
without what the hidden do."""

from __future__ import annotations

import msgspec

from domain.core.encounter import (
    EncounterState,
)
from domain.core.resources import held
from domain.novus.shown import with_hits_shown
from domain.novus.state import (
    AP,
    PHASES,
    Declaration,
    NovusRules,
    leaving_out,
    rules,
)

replace = msgspec.structs.replace


class Concealing:
    """What ``Novus`` shows (domain/novus/ruleset.py composes it)."""

    def shown(self, state: EncounterState) -> EncounterState:
        """Each sheet with its Hit Points now, helpless, dead, prone, useless limbs and Fate Points (the
        same state shown as the last few were: asked of one state many times over, by the next moves)."""
        if not state.combatants or not isinstance(state.rules, NovusRules):
            return state
        recent = _recent(self, "_shown_recent")
        for seen, out in recent:
            if seen is state:
                return out
        out = self._shown(state)
        _keep(recent, (state, out))
        return out

    def conceal(self, state: EncounterState, hidden: frozenset[str]) -> EncounterState:
        """Core's, the same state for the last few asked of (a player's view, asked for each answer tried)."""
        if not hidden:
            return state
        recent = _recent(self, "_concealed_recent")
        for seen, without, out in recent:
            if seen is state and without == hidden:
                return out
        out = _unspent(state, super().conceal(state, hidden), hidden)  # type: ignore[misc]
        _keep(recent, (state, hidden, out))
        return out

    def _shown(self, state: EncounterState) -> EncounterState:
        hits = {cid: self.hit_points(state, cid) for cid in state.combatants}
        useless = {cid: self.useless_limbs(state, cid) for cid in state.combatants}
        return with_hits_shown(state, hits, useless)

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> NovusRules:
        r = rules(state)
        if not hidden:
            return r
        declared = {k: _seen(v, hidden) for k, v in r.declared.items() if k not in hidden}
        kept = leaving_out(r, hidden)
        carried = {k: n for k, n in kept.carried.items() if k not in declared or declared[k].actions
                   or not r.declared[k].actions}  # a lone action carried on at one hidden: not seen
        real_mover = PHASES.mover(r.position, self._ranked(state)) if state.status == "active" else None
        due = r.boons_due
        if due is not None and (due.attacker in hidden or due.target in hidden):
            due = None
        stray = r.stray
        if stray is not None and (stray.attacker in hidden or any(c in hidden for c in stray.near)):
            stray = None
        window = r.window
        if window is not None and (window.actor in hidden or any(c in hidden for c in window.may_react)):
            window = None
        contest = r.contest
        if contest is not None and (contest.holder in hidden or contest.other in hidden):
            contest = None
        snags_due = r.snags_due if r.snags_due is None or r.snags_due.roller not in hidden else None
        return replace(
            kept, declared=declared, carried=carried, boons_due=due, carried_unseen=_without(kept.carried_unseen, hidden),
            owed_unseen=_without(kept.owed_unseen, hidden), unseen_mover=real_mover in hidden,
            unseen_waits=tuple(code for code, kept, real in (
                ("novus_boons_due", due, r.boons_due), ("novus_stray_save_due", stray, r.stray),
                ("novus_waits_for_reactions", window, r.window if r.window is not None and not r.window.settled
                 else None), ("novus_snags_due", snags_due, r.snags_due),
                ("novus_opposed_saves_due", contest, r.contest if r.contest is not None and r.contest.waiting
                 else None)) if real is not None and kept is None),
            window=window, stray=stray, contest=contest, snags_due=snags_due)


def _seen(d: Declaration, hidden: frozenset[str]) -> Declaration:
    """A declaration as one who does not see the ``hidden`` sees it: without the actions aimed at them,
    nor their AP (``unseen_ap``)."""
    if all(a.target not in hidden for a in d.actions) and hidden.isdisjoint(d.unseen_ap):
        return d  # (an action's target taken out of the fight is no longer on it, but still in unseen_ap)
    gone = sum(n for k, n in d.unseen_ap.items() if k in hidden)
    return replace(d, actions=[a for a in d.actions if a.target not in hidden], ap=d.ap - gone,
                   unseen_ap={k: n for k, n in d.unseen_ap.items() if k not in hidden})


def _without(by_whom: dict[str, dict[str, int]], hidden: frozenset[str]) -> dict[str, dict[str, int]]:
    """AP by whom and by the one aimed at, without those at the ``hidden``."""
    if not by_whom:
        return by_whom
    out = {k: {t: n for t, n in on.items() if t not in hidden} for k, on in by_whom.items()}
    return {k: on for k, on in out.items() if on}


def _unspent(state: EncounterState, shown: EncounterState, hidden: frozenset[str]) -> EncounterState:
    """The AP each one spent on actions aimed at the ``hidden`` back in what he is shown to hold, this
    round's and those an action at one of them carried on from the last: "the table sees the AP it
    spent" would tell it that he acts against someone unseen."""
    combatants = None
    r = rules(state)
    for k in {*r.declared, *r.owed_unseen}:
        d = r.declared.get(k)
        gone = sum(n for t, n in d.unseen_ap.items() if t in hidden) if d is not None else 0
        gone += sum(n for t, n in r.owed_unseen.get(k, {}).items() if t in hidden)
        c = shown.combatants.get(k)
        if not gone or c is None:
            continue
        combatants = dict(shown.combatants) if combatants is None else combatants
        had = held(c)
        combatants[k] = replace(c, resources={**had, AP: had.get(AP, 0) + gone})
    return shown if combatants is None else replace(shown, combatants=combatants)


def _recent(owner: object, name: str) -> list:  # type: ignore[type-arg]
    """A short list of what was worked out last (states are never changed in place: each a new one)."""
    recent = owner.__dict__.get(name)
    if recent is None:
        recent = owner.__dict__[name] = []
    return recent


def _keep(recent: list, entry: tuple) -> None:  # type: ignore[type-arg]
    recent.append(entry)
    if len(recent) > 8:
        del recent[0]
