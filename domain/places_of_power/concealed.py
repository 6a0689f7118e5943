"""What the table does not see of Places of Power's own state while combatants are hidden:
their checks, the attack they are part of, their grapples, where they stand, their morale
and the Special Actions they used. The lifecycle's part is ``Ruleset.conceal``'s."""

from __future__ import annotations

from domain.core.encounter import EncounterState
from domain.places_of_power import enemies, morale, movement
from domain.places_of_power.table import Rules, replace, rules


def conceal_rules(state: EncounterState, hidden: frozenset[str]) -> Rules:
    r = rules(state)
    exchange = r.exchange
    if exchange is not None and (exchange.attacker in hidden or exchange.defender in hidden):
        exchange = None
    return replace(
        r,
        checks={k: c for k, c in r.checks.items() if c.combatant_id not in hidden},
        exchange=exchange,
        grapples={held: by for held, by in r.grapples.items() if held not in hidden and by not in hidden},
        positions=None if r.positions is None else movement.concealed(
            movement.positions(state), hidden, their_turn=state.turn in hidden),
        morale=None if r.morale is None else _morale(morale.morale(state), hidden),
        special_actions=None if r.special_actions is None else _special(enemies.used(state), hidden),
    )


def _morale(m: morale.Morale, hidden: frozenset[str]) -> morale.Morale:
    return replace(m, fled=[c for c in m.fled if c not in hidden],
                   surrendered=[c for c in m.surrendered if c not in hidden],
                   suppressed=[c for c in m.suppressed if c not in hidden])


def _special(used: enemies.SpecialActionsUsed, hidden: frozenset[str]) -> enemies.SpecialActionsUsed:
    return replace(used, this_turn={k: v for k, v in used.this_turn.items() if k not in hidden},
                   this_combat={k: v for k, v in used.this_combat.items() if k not in hidden})
