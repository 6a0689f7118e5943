"""Healing Hits in a fight.

"To resolve a Status Effect or restore a Hit you need to roll a Medical check, combining it
with whichever Attribute is most appropriate (most commonly Dexterity or Intelligence). The
difficulty level at which these checks are rolled depends on the number of Hits the target
has taken": Grazed Easy (7), Wounded Normal (9), Afflicted Difficult (13), Helpless Hard (16).

"Each Medical check costs 3 Action Points to perform, and can only remove either 1 Status
Effect or restore 1 Hit at a time. Remember, if a player has been rendered Helpless then
they cannot Stabilise or Heal themselves."

Status effects (and so Stabilise, and healing statuses before Hits) come with the status
rules; this module restores Hits.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.checks import dice_for, judge
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.sheet import CONDITION_OF, sides
from domain.places_of_power.table import sheet, spend, with_sheet

HEALING_COST = 3
DIFFICULTY_BY_HITS = {1: "Easy", 2: "Normal", 3: "Difficult", 4: "Hard"}
SUCCESSES = ("Partial Success", "Full Success", "Critical Success")


class Heal(Command, tag="Heal"):
    """Healing (3 AP, on your turn): a Medical check to restore one Hit of ``target`` (yourself
    included, unless Helpless). ``attribute``: the one paired with Medical (most commonly
    Dexterity or Intelligence). Reported dice: the Attribute die, then the Medical die."""

    actor_field = "combatant_id"
    combatant_id: str
    target: str
    attribute: Literal[
        "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
    ] = "dexterity"
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class HealingRolled(Event, tag="HealingRolled"):
    healer: str
    target: str
    action_points: int
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str
    healed: bool

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


COMMANDS = (Heal,)
EVENTS = (HealingRolled,)


def heal(ruleset: object, state: EncounterState, cmd: Heal, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    healer = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    hs, ts = sheet(healer), sheet(target)
    if hs.dead or hs.hits >= 4 or hs.helpless_for_fight:
        raise RuleViolation("cannot_act", f"{healer.name} is Helpless and cannot heal anyone, themselves included.")
    if ts.dead:
        raise RuleViolation("invalid_target", f"{target.name} is dead.")
    if ts.statuses:
        # "Status Effects must always be resolved before you can treat any Hits a target has suffered."
        raise RuleViolation("statuses_first", f"{target.name}'s Status Effects must be stabilised before any Hit is "
                            f"healed: {', '.join(st.name for st in ts.statuses)}.")
    if ts.hits == 0:
        raise RuleViolation("no_hits_to_restore", f"{target.name} has taken no Hits.")
    medical = hs.skill_die("Medical")
    if medical is None:
        raise RuleViolation("unknown_skill", f"{healer.name} has no skill “Medical” on their sheet.", skill="Medical")
    difficulty = DIFFICULTY_BY_HITS[min(ts.hits, 4)]
    conditioned = CONDITION_OF[cmd.attribute] in hs.conditions
    a, k = dice_for(sides(hs.attribute_die(cmd.attribute)), sides(medical), False, conditioned)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, healer.id), difficulty=difficulty, dice=(a, k),
                          cost=HEALING_COST, base_damage=0)
    ruleset.spend_action_points(healer, pay.cost, "Healing")
    rolled = [dice.roll(n, f"healing {target.name}: {label}")
              for n, label in zip(pay.dice, (cmd.attribute.title(), "Medical"), strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    return [HealingRolled(healer=healer.id, target=target.id, action_points=pay.cost, dice=rolled,
                          total=sum(d.face for d in rolled), difficulty=pay.difficulty, outcome=outcome,
                          healed=outcome in SUCCESSES)]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if not isinstance(event, HealingRolled):
        return None
    state = spend(state, event.healer, event.action_points)
    if not event.healed:
        return state
    return with_sheet(state, event.target, hits=sheet(state.combatants[event.target]).hits - 1)
