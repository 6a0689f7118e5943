"""What a Places of Power fight waits for (``Ruleset.pending``): who must decide what now.

- the attack exchange (``attacks.Exchange``): its awaited party sends the step of its stage
  (``Defend``, ``ChooseCriticalEffect``, ``SpendSuccesses``, ``PullYourPunch``, ``ResolveMishap``),
  picking one of the choices legal now; the turn does not end while an attack is resolved;
- a check the GM called for: the character's ``RollCheck``;
- a Bleeding or Burning due at the start of the bearer's turn: ``ResolveStatus`` ("At the start
  of each turn you roll ..."); the bearer's turn does not end before it is settled, unless
  they are dead (the dead have nothing left to settle).

Each choice carries the answer the rules accept now (a Wounded or grappled combatant's Penalty
Points, found by trying them the way ``legal_choices`` does); a called check no answer of which
is accepted now (its character Paralysed, or a status to settle first) waits unprompted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from typing import Any, get_args

import msgspec

from domain.core.encounter import EncounterState
from domain.core.pending import Choice, Decision, Refusal
from domain.places_of_power.attacks import PAID, PENALTY_OPTIONS, Exchange, legal_choices
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.sheet import Condition
from domain.places_of_power.statuses import statuses
from domain.places_of_power.table import rules, sheet

GM = "gm"  # whom a mishap awaits: the GM's own decision

# stage of the exchange -> (command, the field of the command that takes the choice)
EXCHANGE_STEPS: dict[str, tuple[str, str]] = {
    "defence": ("Defend", "defence"),
    "riposte": ("Defend", "defence"),
    "critical": ("ChooseCriticalEffect", "effect"),
    "spend": ("SpendSuccesses", "split"),
    "pull": ("PullYourPunch", "pull"),
    "mishap": ("ResolveMishap", "result"),
}
# what each stage asks, in the game's words (a prompt's question and a refusal's reason: no ids)
EXCHANGE_WORDS: dict[str, str] = {
    "defence": "defend against an attack",
    "riposte": "defend against a riposte",
    "critical": "choose what the Critical Success adds",
    "spend": "spend the extra Successes on Damage or Precision",
    "pull": "pull the punch or let the lethal blow land",
    "mishap": "settle the Critical Miss (a mishap)",
}
# how a check's Penalty Points may be paid: "a check is paid in difficulty or dice"
CHECK_PENALTIES = ("IncreaseDifficulty", "StepDownDie:0", "StepDownDie:1")


def pending(ruleset: Any, state: EncounterState) -> list[Decision]:
    """Every decision the fight waits for now, the exchange's first (it refuses ending the turn first)."""
    return [*_exchange(ruleset, state), *_checks(ruleset, state), *_statuses_due(state)]


# ------------------------------------------------------------------------ the exchange


def _exchange(ruleset: Any, state: EncounterState) -> list[Decision]:
    ex = rules(state).exchange
    if not isinstance(ex, Exchange) or ex.stage not in EXCHANGE_STEPS:
        return []  # "rolling" lasts only within the Attack that rolls
    command, field = EXCHANGE_STEPS[ex.stage]
    who = None if ex.awaiting == GM else ex.awaiting
    body: dict[str, Any] = {"type": command, "attack": ex.id}
    if who is not None:
        body["combatant_id"] = who
    offered = ex.choices or legal_choices(ruleset, state, ex)  # worked out already when the state is shown
    choices = []
    for offer in offered:
        for name, answers in _variants(state, ex, offer.name):
            answer = _first_accepted(ruleset, state, body, answers)
            if answer is not None:
                plain = answer == {field: name}
                choices.append(Choice(name=name, action_points=offer.action_points,
                                      answer=None if plain else answer))
    return [Decision(
        id=f"exchange:{ex.id}:{ex.stage}", kind="attack_exchange", combatant_id=who, command=command, body=body,
        choice_field=field, choices=tuple(choices), stage=ex.stage, blocks_turn_end=True,
        refusal=Refusal(code="exchange_pending",
                        message=f"An attack is still waiting for a decision: {EXCHANGE_WORDS[ex.stage]}."),
        summary=EXCHANGE_WORDS[ex.stage][0].upper() + EXCHANGE_WORDS[ex.stage][1:],
    )]


def _variants(state: EncounterState, ex: Exchange, name: str) -> Iterator[tuple[str, Iterable[dict[str, Any]]]]:
    """The choices one legal choice of the exchange (``name``) makes, each with the fields that may
    answer it, the plainest first: one choice per real answer, so that each is one action.

    - a critical's InflictCondition names its Condition: one choice per Condition the defender
      has not got yet ("the target is also inflicted with an appropriate condition");
    - the extra Successes: "You can divide your Successes between Damage and Precision however
      you choose": all on Damage, as much Precision as the ladder takes, and each split between.
    """
    if ex.stage == "critical" and name == "InflictCondition":
        has = set(sheet(state.combatants[ex.defender]).conditions) if ex.defender in state.combatants else set()
        for condition in get_args(Condition):
            if condition not in has:
                yield f"{name}:{condition}", [{"effect": name, "condition": condition}]
    elif ex.stage == "spend" and name == "Precision":
        # "Precision cannot raise the defence past Very Hard": the most it may take first
        yield name, ({"split": ["Precision"] * k + ["Damage"] * (ex.extra - k)} for k in range(ex.extra, 0, -1))
        for k in range(ex.extra - 1, 0, -1):
            yield f"{k} Precision, {ex.extra - k} Damage", [{"split": ["Precision"] * k + ["Damage"] * (ex.extra - k)}]
    else:
        yield name, _answers(state, ex, name)


def _answers(state: EncounterState, ex: Exchange, name: str) -> Iterator[dict[str, Any]]:
    """The fields that may answer the exchange's stage with the choice ``name``, the plainest first."""
    if ex.stage == "mishap":
        yield {"result": None if name == "roll" else int(name)}
    elif ex.stage == "pull":
        yield {"pull": name == "PullYourPunch"}
    elif ex.stage == "spend":
        yield {"split": [name] * ex.extra}
    elif ex.stage == "critical":
        yield {"effect": name}
    else:  # defence, riposte: a paid defence pays its Penalty Points, one choice for each
        owed = (penalty_owed(state, ex.awaiting, grapple_move=name == "HumanShield")
                if name in PAID and ex.awaiting in state.combatants else 0)
        if not owed:
            yield {"defence": name}
        for penalties in combinations_with_replacement(PENALTY_OPTIONS, owed) if owed else ():
            yield {"defence": name, "penalties": list(penalties)}


# ------------------------------------------------------------------- checks and statuses


def _checks(ruleset: Any, state: EncounterState) -> list[Decision]:
    out = []
    for rec in rules(state).checks.values():
        if rec.status != "called" or rec.combatant_id not in state.combatants:
            continue
        body = {"type": "RollCheck", "combatant_id": rec.combatant_id, "check": rec.id}
        owed = penalty_owed(state, rec.combatant_id)
        answers = ({"penalties": list(p)} for p in combinations_with_replacement(CHECK_PENALTIES, owed))
        answer = _first_accepted(ruleset, state, body, answers if owed else [{}])
        if answer is None:
            continue  # not answerable now: it waits (the check stays called)
        out.append(Decision(id=f"check:{rec.id}", kind="check", combatant_id=rec.combatant_id, command="RollCheck",
                            body={**body, **answer}, summary=f"Roll check {rec.id}: {rec.attribute} + {rec.skill}"))
    return out


def _statuses_due(state: EncounterState) -> list[Decision]:
    turn = state.turn
    if turn is None or turn not in state.combatants:
        return []
    c = state.combatants[turn]
    due = [s.name for s in statuses(c) if s.due]
    if not due:
        return []
    blocks = not sheet(c).dead  # the dead have nothing left to settle: their turn may end
    refusal = Refusal(code="status_due", message=f"{c.name} must first settle {' and '.join(due)} (ResolveStatus).",
                      details={"due": due})
    return [Decision(id=f"status:{turn}:{state.round}:{name}", kind="status_due", combatant_id=turn,
                     command="ResolveStatus", body={"type": "ResolveStatus", "combatant_id": turn, "status": name},
                     blocks_turn_end=blocks, refusal=refusal, summary=f"Settle {name}")
            for name in due]


# ----------------------------------------------------------------------------- helpers


def _first_accepted(ruleset: Any, state: EncounterState, body: dict[str, Any],
                    answers: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The first of ``answers`` that, added to ``body``, makes a command the rules take now."""
    for answer in answers:
        try:  # decoded as the server decodes a body: strictly (an int is no string), and fast
            command = ruleset.command_decoder.decode(msgspec.json.encode({**body, **answer}))
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if ruleset.accepts(state, command):
            return answer
    return None
