"""Pull your Punch: leaving a beaten enemy Helpless instead of dead.

"Pull your Punch (1 AP): If you inflict enough damage on a target that the would be killed
outright, and they fail to defend against it, you can choose to spend an extra Action Point
to reduce that damage down to the point that they would be rendered Helpless instead.
However, you do need to re-roll your attack, and succeed, in order to pull this off
successfully. If you fail then the target takes the full damage."

The attack exchange stops at stage ``pull`` when the Hits getting through would kill
(attacks.LethalBlow); the attacker answers with ``PullYourPunch`` (``pull`` false lets the
blow land). The re-roll rolls the attack's own dice against its own difficulty.
"""

from __future__ import annotations

from typing import Any

from domain.core.dice import Dice
from domain.core.encounter import EncounterState, Event
from domain.places_of_power.attacks import _land, exchange
from domain.places_of_power.checks import judge
from domain.places_of_power.pulling import PULL_COST, SUCCESSES, PullYourPunch, PunchPulled
from domain.places_of_power.table import sheet, spend

COMMANDS = (PullYourPunch,)
EVENTS = (PunchPulled,)


def pull_your_punch(ruleset: Any, state: EncounterState, cmd: PullYourPunch, dice: Dice) -> list[Event]:
    ex = exchange(state, cmd.attack, cmd.combatant_id, "pull")
    attacker = state.combatants[ex.attacker]
    target = state.combatants[ex.defender]
    if not cmd.pull:
        return _land(state, ex, target, ex.damage, False, "hit", pullable=False)
    ruleset.spend_action_points(attacker, PULL_COST, "Pull your Punch")
    rolled = [dice.roll(n, f"attack {ex.id}: pulling the punch", attacker.id) for n in ex.dice_sides]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], ex.difficulty)
    success = outcome in SUCCESSES
    pulled = PunchPulled(attack_id=ex.id, combatant_id=attacker.id, action_points=PULL_COST, dice=rolled,
                         total=sum(d.face for d in rolled), difficulty=ex.difficulty, success=success)
    # "reduce that damage down to the point that they would be rendered Helpless instead"
    damage = max(0, 4 - sheet(target).hits) if success else ex.damage
    return [pulled, *_land(state, ex, target, damage, False, "pulled" if success else "hit", pullable=False)]


DECISIONS = {PullYourPunch: pull_your_punch}


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if isinstance(event, PunchPulled):
        return spend(state, event.combatant_id, event.action_points)
    return None
