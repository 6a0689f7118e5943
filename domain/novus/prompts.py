"""Cancelling and Holding as prompts: offered to each who may still do them now, never waited for
("an action declared by a character may be canceled at any time prior to its resolution"; "Sometimes
a player will want to hold off performing his declared actions for a little while")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.core.encounter import EncounterState
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision
from domain.novus.actions import Action
from domain.novus.events import Hold
from domain.novus.offering import words
from domain.novus.state import PHASES, rules

if TYPE_CHECKING:
    from domain.novus.ruleset import Novus


def cancels_and_holds(novus: Novus, state: EncounterState) -> list[Decision]:
    r = rules(state)
    phase = novus.phase(state)
    if phase not in ("declare", "resolve", "end of round"):
        return []
    out: list[Decision] = []
    # "once the first of the attacks is made, the character may no longer cancel his action to perform other
    # actions ... though he may still cancel his remaining attacks" (the one making them now: his own choice)
    mover = PHASES.mover(r.position, novus._ranked(state))
    for cid, d in r.declared.items():
        if d.done and d.late_left and cid in state.combatants and novus.can_act(state, cid) \
                and not (phase == "end of round" and cid == mover):
            out.append(Decision(id=f"cancel_late:{state.round}:{cid}", kind="cancel_late", combatant_id=cid,
                                command="NovusCancel", body={"combatant_id": cid, "instead": []},
                                summary="Cancel your remaining attacks (made at the end of the round)."))
    if phase == "end of round":
        return out
    mover = PHASES.mover(r.position, novus._ranked(state))
    holders = [mover] if phase == "declare" and mover is not None and not r.unseen_mover else []
    holders += [cid for cid in r.declared if cid not in r.resolved and cid not in holders]
    for cid in holders:
        if cid in state.combatants and novus.can_act(state, cid) and _may_hold(novus, state, cid):
            before = cid not in r.declared
            out.append(Decision(id=f"hold:{state.round}:{cid}", kind="hold", combatant_id=cid, command="NovusHold",
                                body={"combatant_id": cid},
                                summary="Hold your actions (free before declaring)." if before else
                                "Hold your declared actions (1 AP lost; declared again when you act)."))
    if phase in ("declare", "resolve"):  # "at any time prior to its resolution"
        for cid in r.declared:
            if cid in state.combatants and cid not in r.resolved and novus.can_act(state, cid) \
                    and not r.declared[cid].cancelled:
                choices = _instead(novus, state, cid)
                if choices:
                    out.append(Decision(id=f"cancel:{state.round}:{cid}", kind="cancel", combatant_id=cid,
                                        command="NovusCancel", body={"combatant_id": cid}, choice_field="instead",
                                        choices=choices, summary="Cancel your declared actions before they resolve, "
                                        "and do one of these at once instead."))
    return out


def _instead(novus: Novus, state: EncounterState, cid: str) -> tuple[Choice, ...]:
    """What may replace the cancelled actions now ("A character who has canceled his action(s) for the
    round may perform one of the following"): nothing, a Dodge, a Block, a move (or a run) of up to 3 AP,
    an attack on each foe with each weapon (at half the Attack Bonus in melee), each in the game's words.
    The spells (an Instantaneous defensive spell, Counterspell) are left out: the sheet has none."""
    c = state.combatants[cid]
    kinds = ("dodge", "block", "move", "run")
    tries: list[list[Action]] = [[], *[[Action(kind=k)] for k in kinds]]
    tries += [[Action(kind="move")] * 3]
    weapons = [w.name for w in c.sheet.weapons] or [None]
    tries += [[Action(kind="attack", target=o, weapon=w)] for o in novus.foes(state, c) for w in weapons]
    out = []
    try:
        check = novus.cancelling(state, c)
    except RuleViolation:
        return ()
    for instead in tries:
        try:
            cancelled = check(instead)
        except RuleViolation:
            continue
        # (the AP a button shows are the trial's: what the instead costs beyond the cancelled actions' AP)
        what = "Move three times" if len(instead) == 3 else words(state, c, instead)
        name = "Cancel, and do nothing instead" if not instead else f"Cancel, and instead: {what}"
        out.append(Choice(name=name, action_points=cancelled.ap,
                          answer={"instead": [msgspec.to_builtins(a) for a in instead]}))
    return tuple(out)


def _may_hold(novus: Novus, state: EncounterState, cid: str) -> bool:
    try:
        novus._hold(state, Hold(combatant_id=cid))
    except RuleViolation:
        return False
    return True
