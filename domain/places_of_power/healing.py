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

from typing import Annotated, Any, Literal, NamedTuple

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.checks import dice_for, judge
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.sheet import CONDITION_OF, sides
from domain.places_of_power.table import sheet, spend, with_sheet

HEALING_COST = 3
# Grazed Easy (7) .. Helpless Hard (16); an unhurt target (a status to stabilise) is as easy as Grazed
DIFFICULTY_BY_HITS = {0: "Easy", 1: "Easy", 2: "Normal", 3: "Difficult", 4: "Hard"}
SUCCESSES = ("Partial Success", "Full Success", "Critical Success")


class Heal(Command, tag="Heal"):
    """Healing (3 AP, on your turn): a Medical check to restore one Hit of the ``target`` (yourself
    included, unless Helpless). ``attribute``: the one paired with Medical (most commonly
    Dexterity or Intelligence). Reported dice: the Attribute die, then the Medical die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    attribute: Literal[
        "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
    ] = "dexterity"
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class HealingRolled(Event, tag="HealingRolled"):
    healer: CombatantId
    target: CombatantId
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


class MedicalCheck(NamedTuple):
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str
    action_points: int

    @property
    def succeeded(self) -> bool:
        return self.outcome in SUCCESSES


def medical_check(ruleset: Any, state: EncounterState, healer: Combatant, target: Combatant, attribute: str,
                  penalties: list[str], cost: int, what: str, dice: Dice, *, untrained: bool = False) -> MedicalCheck:
    """The Medical check that both Stabilise and Healing are: "roll a Medical check, combining it
    with whichever Attribute is most appropriate ... The difficulty level at which these checks
    are rolled depends on the number of Hits the target has taken", at ``cost`` Action Points
    with the healer's Penalty Points. "if a player has been rendered Helpless then they cannot
    Stabilise or Heal themselves" (nor anyone else: Helpless, they cannot act). ``untrained``: a
    sheet without Medical rolls it at D4 instead of being refused."""
    hs, ts = sheet(healer), sheet(target)
    if hs.dead or hs.hits >= 4 or hs.helpless_for_fight:
        raise RuleViolation("cannot_act", f"{healer.name} is Helpless and cannot {what} anyone, themselves included.")
    if ts.dead:
        raise RuleViolation("invalid_target", f"{target.name} is dead.")
    medical = hs.skill_die("Medical") or ("D4" if untrained else None)
    if medical is None:
        raise RuleViolation("unknown_skill", f"{healer.name} has no skill “Medical” on their sheet.", skill="Medical")
    difficulty = DIFFICULTY_BY_HITS[min(ts.hits, 4)]
    a, k = dice_for(sides(hs.attribute_die(attribute)), sides(medical), False, CONDITION_OF[attribute] in hs.conditions)
    pay = apply_penalties(penalties, penalty_owed(state, healer.id), difficulty=difficulty, dice=(a, k), cost=cost,
                          base_damage=0)
    ruleset.spend_action_points(healer, pay.cost, what)
    rolled = [dice.roll(n, f"{what}: {label}", healer.id)
              for n, label in zip(pay.dice, (attribute.title(), "Medical"), strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    return MedicalCheck(rolled, sum(d.face for d in rolled), pay.difficulty, outcome, pay.cost)


def heal(ruleset: Any, state: EncounterState, cmd: Heal, dice: Dice) -> list[Event]:
    healer = ruleset.require_turn(state, cmd.combatant_id)
    target = ruleset.combatant(state, cmd.target)
    ts = sheet(target)
    if ts.statuses and not ts.dead:
        # "Status Effects must always be resolved before you can treat any Hits a target has suffered."
        raise RuleViolation("statuses_first", f"{target.name}'s Status Effects must be stabilised before any Hit is "
                            f"healed: {', '.join(st.name for st in ts.statuses)}.")
    if ts.hits == 0:
        raise RuleViolation("no_hits_to_restore", f"{target.name} has taken no Hits.")
    check = medical_check(ruleset, state, healer, target, cmd.attribute, cmd.penalties, HEALING_COST, "healing", dice)
    return [HealingRolled(healer=healer.id, target=target.id, action_points=check.action_points, dice=check.dice,
                          total=check.total, difficulty=check.difficulty, outcome=check.outcome,
                          healed=check.succeeded)]


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if not isinstance(event, HealingRolled):
        return None
    state = spend(state, event.healer, event.action_points)
    if not event.healed:
        return state
    return with_sheet(state, event.target, hits=sheet(state.combatants[event.target]).hits - 1)
