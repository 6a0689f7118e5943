"""Pending decisions as prompts: what the caller must decide now, with the legal choices.

A prompt goes to whoever must decide: a player for the combatants their token is bound to,
the GM for NPCs and for what is the GM's own (a Critical Miss's mishap). The GM may also send
a step for a player who left, but is prompted only for its own. Prompts are read from the
state *as the caller may see it* (``projections.visibility.state_for``), so a prompt never
tells more than the caller's state does: an attack by a hidden combatant, dropped from a
player's view, prompts only the GM.

The decisions (Places of Power):

- the attack exchange, ``state.rules.exchange``: its ``awaiting`` party sends the step of its
  ``stage`` (``Defend``, ``ChooseCriticalEffect``, ``SpendSuccesses``, ``PullYourPunch``,
  ``ResolveMishap``), picking one of its ``choices`` (legal now, with their AP cost);
- a check the GM called for (``state.rules.checks``, status ``called``): the character's
  ``RollCheck``;
- a Bleeding or Burning due at the start of the bearer's turn: ``ResolveStatus``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from projections.visibility import Viewer

GM = "gm"

# stage of the exchange -> (command, the field of the command that takes the choice)
EXCHANGE_STEPS: dict[str, tuple[str, str]] = {
    "defence": ("Defend", "defence"),
    "riposte": ("Defend", "defence"),
    "critical": ("ChooseCriticalEffect", "effect"),
    "spend": ("SpendSuccesses", "split"),
    "pull": ("PullYourPunch", "pull"),
    "mishap": ("ResolveMishap", "result"),
}


class Choice(msgspec.Struct, kw_only=True):
    name: str
    action_points: int = 0


class Prompt(msgspec.Struct, kw_only=True):
    """A decision awaiting the caller. Send ``command``: ``body`` is the command with what is
    known filled in; put the choice in ``choice_field`` (None: nothing to choose)."""

    id: str  # stable while the decision is pending: a client shows each once
    kind: str  # "attack_exchange", "check" or "status_due"
    combatant_id: str | None  # who decides; None: the GM's own decision (a mishap)
    command: str
    body: dict[str, Any]
    choice_field: str | None = None
    choices: list[Choice] = msgspec.field(default_factory=list)
    stage: str | None = None


def prompts_for(view: dict[str, Any], viewer: Viewer) -> list[Prompt]:
    """The pending decisions in ``view`` (the caller's state, as JSON builtins) that await
    ``viewer``."""
    combatants = view.get("combatants") or {}

    def mine(who: str | None) -> bool:
        if who == GM or who is None:
            return viewer.sees_all
        if viewer.sees_all:
            return (combatants.get(who) or {}).get("controller") == "gm"
        return who in viewer.combatant_ids and who in combatants

    rules = view.get("rules") if isinstance(view.get("rules"), dict) else {}
    out = [*_exchange(rules.get("exchange"), mine), *_checks(rules.get("checks") or {}, mine)]
    out += _statuses(view, combatants, mine)
    return out


def _exchange(ex: Any, mine: Any) -> list[Prompt]:
    if not isinstance(ex, dict) or ex.get("stage") not in EXCHANGE_STEPS or not mine(ex.get("awaiting")):
        return []
    stage, awaiting = ex["stage"], ex["awaiting"]
    command, field = EXCHANGE_STEPS[stage]
    who = None if awaiting == GM else awaiting
    body: dict[str, Any] = {"type": command, "attack": ex["id"]}
    if who is not None:
        body["combatant_id"] = who
    return [Prompt(
        id=f"exchange:{ex['id']}:{stage}", kind="attack_exchange", combatant_id=who, command=command, body=body,
        choice_field=field, stage=stage,
        choices=[Choice(name=c["name"], action_points=c.get("action_points", 0)) for c in ex.get("choices") or []],
    )]


def _checks(checks: dict[str, Any], mine: Any) -> list[Prompt]:
    return [
        Prompt(id=f"check:{c['id']}", kind="check", combatant_id=c["combatant_id"], command="RollCheck",
               body={"type": "RollCheck", "combatant_id": c["combatant_id"], "check": c["id"]})
        for c in checks.values()
        if isinstance(c, dict) and c.get("status") == "called" and mine(c.get("combatant_id"))
    ]


def _statuses(view: dict[str, Any], combatants: dict[str, Any], mine: Any) -> list[Prompt]:
    turn = view.get("turn")
    if turn is None or not mine(turn):
        return []
    sheet = (combatants.get(turn) or {}).get("sheet")
    statuses = sheet.get("statuses") if isinstance(sheet, dict) else None
    return [
        Prompt(id=f"status:{turn}:{view.get('round')}:{s['name']}", kind="status_due", combatant_id=turn,
               command="ResolveStatus", body={"type": "ResolveStatus", "combatant_id": turn, "status": s["name"]})
        for s in statuses or []
        if isinstance(s, dict) and s.get("due")
    ]
