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
from domain.novus.state import PHASES, rules

if TYPE_CHECKING:
    from domain.novus.ruleset import Novus


def cancels_and_holds(novus: Novus, state: EncounterState) -> list[Decision]:
    r = rules(state)
    phase = novus.phase(state)
    if phase not in ("declare", "resolve"):
        return []
    out: list[Decision] = []
    mover = PHASES.mover(r.position, novus._ranked(state))
    holders = [mover] if phase == "declare" and mover is not None and not r.unseen_mover else []
    holders += [cid for cid in r.declared if cid not in r.resolved and cid not in holders]
    for cid in holders:
        if cid in state.combatants and novus.may_act(state, cid) and _may_hold(novus, state, cid):
            before = cid not in r.declared
            out.append(Decision(id=f"hold:{state.round}:{cid}", kind="hold", combatant_id=cid, command="NovusHold",
                                body={"combatant_id": cid},
                                summary="Hold your actions (free before declaring)." if before else
                                "Hold your declared actions (1 AP lost; declared again when you act)."))
    if phase == "resolve":
        for cid in r.declared:
            if cid in state.combatants and cid not in r.resolved:
                choices = _instead(novus, state, cid)
                if choices:
                    out.append(Decision(id=f"cancel:{state.round}:{cid}", kind="cancel", combatant_id=cid,
                                        command="NovusCancel", body={"combatant_id": cid}, choice_field="instead",
                                        choices=choices, summary="Cancel your declared actions before they resolve, "
                                        "and do one of these at once instead."))
    return out


def _instead(novus: Novus, state: EncounterState, cid: str) -> tuple[Choice, ...]:
    """What may replace the cancelled actions now: nothing, a Dodge, a Block, a short move, an attack
    on each foe (at half the Attack Bonus in melee)."""
    c = state.combatants[cid]
    weapon = c.sheet.weapons[0].name if c.sheet.weapons else None
    tries: list[tuple[str, list[Action]]] = [("nothing", []), ("dodge", [Action(kind="dodge")]),
                                             ("block", [Action(kind="block")]), ("move", [Action(kind="move")])]
    dead = rules(state).dead
    tries += [(f"attack {o}", [Action(kind="attack", target=o, weapon=weapon)])
              for o, other in state.combatants.items() if other.side != c.side and o not in dead]
    out = []
    for name, instead in tries:
        try:
            cancelled = novus.check_cancel(state, c, instead)
        except RuleViolation:
            continue
        out.append(Choice(name=name, action_points=cancelled.ap,
                          answer={"instead": [msgspec.to_builtins(a) for a in instead]}))
    return tuple(out)


def _may_hold(novus: Novus, state: EncounterState, cid: str) -> bool:
    try:
        novus._hold(state, Hold(combatant_id=cid))
    except RuleViolation:
        return False
    return True
