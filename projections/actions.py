"""The next moves of one viewer: what the fight waits on and what they may send now.

The GM is offered the lifecycle, their rulings, the turns and decisions of NPCs, their own
decisions, and any decision a player cannot see (one about a hidden attacker: the fight would
stall waiting on someone who is never told). A player is offered their own combatants' moves and
decisions, worked out from the state as they may see it and tried on the whole state as their
command will be (``Ruleset.decide_as``): nothing offered or awaited names what is hidden from
them. A spectator is offered nothing and sees what the table waits on.
"""

from __future__ import annotations

from domain.core.encounter import EncounterState
from domain.core.next_moves import (
    Action,
    NextMoves,
    Offer,
    Waiting,
    decision_offers,
    lifecycle_offers,
    try_offer,
    turn_offers,
    unique,
    waiting_words,
)
from domain.core.pending import Decision
from domain.core.ruleset import Ruleset
from projections.visibility import Viewer, seen_by

GM_MOVE = Waiting(combatant_id=None, who="gm", what="the GM's move")


def actions_for(ruleset: Ruleset, state: EncounterState, viewer: Viewer) -> NextMoves:
    """What ``state`` waits on and what ``viewer`` may send now."""
    if viewer.sees_all:
        return _for_gm(ruleset, state)
    return _for_table(ruleset, state, viewer)


def _for_gm(ruleset: Ruleset, state: EncounterState) -> NextMoves:
    shown = ruleset.shown(state)
    over = ruleset.fight_over(state)
    decisions = ruleset.pending(shown)
    unseen = _unseen_by_players(ruleset, state, decisions)
    offers: list[Offer] = []
    waiting: list[Waiting] = []
    for d in decisions:
        gm_decides = d.combatant_id is None or d.id in unseen or _controller(state, d.combatant_id) != "player"
        waiting.append(Waiting(combatant_id=d.combatant_id, who="gm" if gm_decides else "player",
                               what=d.summary or d.command))
        if gm_decides:
            offers.extend(decision_offers(d))
    if not over:
        for cid in ruleset.acting(shown):
            c = state.combatants[cid]
            npc = c.controller != "player"
            waiting.append(Waiting(combatant_id=cid, who="gm" if npc else "player", what=waiting_words(state, c)))
            if npc:
                offers.extend(turn_offers(ruleset, state, cid))
    if not over:  # moves out of turn (a reaction the rules allow): offered, not waited on
        offers.extend(o for cid in ruleset.may_act(shown) if cid not in ruleset.acting(shown)
                      and _controller(state, cid) != "player" for o in ruleset.moves(state, cid))
    offers.extend(lifecycle_offers(ruleset, state))
    # the GM's rulings, after the fight too (one the rules take then, treating injuries, is tried like the rest)
    offers.extend(Offer(label=o.label, command=o.command, kind="gm", combatant_id=o.combatant_id, vary=o.vary)
                  for o in ruleset.rulings(state))
    if state.status == "setup":
        waiting.append(Waiting(combatant_id=None, who="gm",
                               what="add the combatants, roll initiative and start the fight"))
    elif over and state.status != "ended":
        waiting.append(Waiting(combatant_id=None, who="gm", what="the fight is over: end the encounter"))
    elif state.status == "active" and not waiting:
        waiting.append(GM_MOVE)  # nothing the rules name: the GM moves the fight on
    actions = _tried(ruleset, state, unique(offers))
    return NextMoves(version=state.version, over=over, waiting_on=_dedupe(waiting), actions=actions,
                     out_of_fight=_out(ruleset, state))


def _for_table(ruleset: Ruleset, state: EncounterState, viewer: Viewer) -> NextMoves:
    own = viewer.combatant_ids if viewer.role == "player" else frozenset()
    hidden = ruleset.hidden_from(state, own)
    seen = seen_by(ruleset, state, viewer)
    # over as far as the viewer can see (a hidden foe left does not tell), moves while it goes on
    over, goes_on = ruleset.fight_over(seen), not ruleset.fight_over(state)
    waiting_in_fight = {d.id for d in ruleset.pending(state)}
    decisions = [d for d in ruleset.pending(seen) if d.id in waiting_in_fight]
    offers: list[Offer] = []
    waiting: list[Waiting] = []
    told = set()
    for d in decisions:
        c = seen.combatants.get(d.combatant_id) if d.combatant_id else None
        if c is None:
            continue  # the GM's own, or about no one this viewer sees: the GM's move below
        told.add(d.id)
        waiting.append(Waiting(combatant_id=c.id, who="player" if c.controller == "player" else "gm",
                               what=d.summary or d.command))
        if d.combatant_id in own:
            offers.extend(decision_offers(d))
    acting = ruleset.acting(seen) if goes_on else []
    for cid in acting:
        c = seen.combatants[cid]
        waiting.append(Waiting(combatant_id=cid, who="player" if c.controller == "player" else "gm",
                               what=waiting_words(seen, c)))
        if cid in own:
            offers.extend(turn_offers(ruleset, seen, cid))
    if goes_on:  # moves out of turn (a reaction the rules allow): offered, not waited on
        offers.extend(o for cid in ruleset.may_act(seen) if cid in own and cid not in acting
                      for o in ruleset.moves(seen, cid))
    # what the fight waits on that this viewer may not be told of: the GM's move
    if state.status == "active" and goes_on and (waiting_in_fight - told or set(ruleset.acting(state)) - set(acting)
                                                 or not waiting):
        waiting.append(GM_MOVE)
    elif state.status == "setup":
        waiting.append(Waiting(combatant_id=None, who="gm", what="the GM sets up the fight"))
    elif over and state.status != "ended":
        waiting.append(Waiting(combatant_id=None, who="gm", what="the fight is over: the GM ends the encounter"))
    actions = _tried(ruleset, state, unique(offers), hidden) if viewer.role == "player" else []
    return NextMoves(version=state.version, over=over, waiting_on=_dedupe(waiting), actions=actions,
                     out_of_fight=_out(ruleset, seen))


def _out(ruleset: Ruleset, state: EncounterState) -> list[str]:
    """The combatants of ``state`` (the viewer's: as they see it) out of the fight, by the rules."""
    return [c.id for c in sorted(state.combatants.values(), key=lambda c: c.seq) if ruleset.out_of_fight(state, c)]


def _unseen_by_players(ruleset: Ruleset, state: EncounterState, decisions: list[Decision]) -> set[str]:
    """The decisions awaiting a player's combatant that its player cannot see (they concern a
    hidden combatant): the GM makes them, or the fight would wait on someone never told."""
    if not state.concealed:
        return set()
    out: set[str] = set()
    seen_ids: dict[str, set[str]] = {}
    for d in decisions:
        cid = d.combatant_id
        if cid is None or _controller(state, cid) != "player":
            continue
        if cid not in seen_ids:
            seen = seen_by(ruleset, state, Viewer("player", frozenset({cid})))
            seen_ids[cid] = {x.id for x in ruleset.pending(seen)}
        if d.id not in seen_ids[cid]:
            out.add(d.id)
    return out


def _controller(state: EncounterState, cid: str) -> str | None:
    c = state.combatants.get(cid)
    return c.controller if c is not None else None


def _tried(ruleset: Ruleset, state: EncounterState, offers: list[Offer],
           hidden: frozenset[str] = frozenset()) -> list[Action]:
    out = []
    for offer in offers:
        action = try_offer(ruleset, state, offer, hidden)
        if action is not None:
            out.append(action)
    return out


def _dedupe(waiting: list[Waiting]) -> list[Waiting]:
    out: list[Waiting] = []
    for w in waiting:
        if w not in out:
            out.append(w)
    return out
