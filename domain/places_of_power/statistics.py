"""What Places of Power's events count in the statistics (``PlacesOfPower.tally``; the read
model: ``projections/combatant_statistics.py``).

- an attack is made when it is declared (``AttackDeclared``, a spell's attack too), and lands
  when its exchange ends with the blow reaching a target (``ExchangeEnded`` ``hit``,
  ``tanked``, ``shielded`` or ``pulled``); a Riposte is the defender's Hit, not an attack;
- Hits are the damage of ``HitsTaken``, dealt by the other side of the exchange (a Riposte
  deals them to the attacker, a Human Shield takes them for the defender), and the Hits a
  status (Bleeding, Burning) deals, taken from no one;
- a defence is tried with each ``DefenceRolled`` and won when it succeeds;
- Action Points spent: the cost every action event carries (``action_points`` of an attack,
  a defence, an action, a spell, a grapple ...), paid by its actor;
- rolls: every roll judged into an outcome class (an attack, a check, healing, a spell, a
  taunt, disengaging, a status check, treating an injury), counted by class.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.core.encounter import LIFECYCLE_EVENTS, Event
from domain.core.tally import OUTCOME, Exchange, Step, Tally
from domain.places_of_power.attacks import AttackDeclared, AttackRolled, DefenceRolled, ExchangeEnded, HitsTaken
from domain.places_of_power.hero_points import CheckOutcomeChanged
from domain.places_of_power.statuses import StatusRolled

LANDED = frozenset({"hit", "tanked", "shielded", "pulled"})  # ExchangeEnded results where the blow reached a target
NO_ROLL = (AttackRolled, CheckOutcomeChanged)  # counted with their attack / not a roll
ACTOR_FIELDS = ("healer", "caster", "attacker", "combatant_id", "controller")
OPPONENT_FIELDS = ("target", "patient", "defender", "held", "holder", "combatant_id")


COUNTED = (AttackDeclared, AttackRolled, ExchangeEnded, DefenceRolled, HitsTaken, StatusRolled)  # ``tally``'s own


def counted(event_types: Iterable[type[Event]]) -> frozenset[type[Event]]:
    """The types of ``event_types`` that ``tally`` or ``exchange`` may find something in: a
    step of an exchange (an ``attack_id``), one of ``tally``'s own, or one with a cost or an
    outcome class (lifecycle events aside: their ``action_points`` are a balance)."""
    return frozenset(t for t in event_types if hasattr(t, "attack_id") or (
        not issubclass(t, LIFECYCLE_EVENTS)
        and (issubclass(t, COUNTED) or hasattr(t, "action_points") or hasattr(t, "outcome"))))


def exchange(event: Event) -> Step | None:
    """The attack an event is a step of (its ``attack_id``); an ``AttackDeclared`` opens it."""
    attack_id = getattr(event, "attack_id", None)
    if not isinstance(attack_id, int):
        return None
    if isinstance(event, AttackDeclared):
        return Step(attack_id, Exchange(attack_id, event.attacker, event.defender))
    return Step(attack_id)


def actor_of(event: Event) -> str | None:
    """Who acts in an event: the defender of a defence, else its healer, caster, attacker ..."""
    if isinstance(event, DefenceRolled):
        return event.defender
    for f in ACTOR_FIELDS:
        v = getattr(event, f, None)
        if isinstance(v, str) and v:
            return v
    return None


def opponent_of(event: Event, actor: str, attack: Exchange | None) -> str:
    """Who the actor acts on: the other side of the exchange, else the target, patient ..."""
    if attack is not None:
        return attack.defender if actor == attack.attacker else attack.attacker if actor == attack.defender else ""
    for f in OPPONENT_FIELDS:
        v = getattr(event, f, None)
        if isinstance(v, str) and v and v != actor:
            return v
    return ""


def tally(event: Event, attack: Exchange | None) -> list[Tally]:
    """What one event adds; ``attack``: the exchange it belongs to, if it belongs to one."""
    if isinstance(event, LIFECYCLE_EVENTS):  # their action_points are a balance, not a cost
        return []
    out: list[Tally] = []
    match event:
        case AttackDeclared():
            out.append(Tally(event.attacker, "attacks_made", 1, event.defender))
        case AttackRolled() if attack is not None:
            out += [Tally(attack.attacker, "rolls", 1, attack.defender),
                    Tally(attack.attacker, OUTCOME + event.outcome, 1, attack.defender)]
        case ExchangeEnded() if attack is not None and event.result in LANDED:
            out.append(Tally(attack.attacker, "attacks_landed", 1, attack.defender))
        case DefenceRolled():
            them = attack.attacker if attack is not None else ""
            out.append(Tally(event.defender, "defences_tried", 1, them))
            if event.success:
                out.append(Tally(event.defender, "defences_won", 1, them))
        case HitsTaken():
            taker, damage = event.combatant_id, event.damage
            dealer = "" if attack is None else attack.defender if taker == attack.attacker else attack.attacker
            out.append(Tally(taker, "hits_taken", damage, dealer))
            if dealer:
                out.append(Tally(dealer, "hits_dealt", damage, taker))
        case StatusRolled() if event.hits:
            out.append(Tally(event.combatant_id, "hits_taken", event.hits))
    ap: Any = getattr(event, "action_points", None)
    outcome: Any = getattr(event, "outcome", None)
    spent = type(ap) is int and ap > 0
    rolled = isinstance(outcome, str) and outcome and not isinstance(event, NO_ROLL)
    if spent or rolled:
        who = actor_of(event)
        if who is not None:
            them = opponent_of(event, who, attack)
            if spent:
                out.append(Tally(who, "action_points_spent", ap, them))
            if rolled:
                out += [Tally(who, "rolls", 1, them), Tally(who, OUTCOME + str(outcome), 1, them)]
    return [t for t in out if t.amount]
