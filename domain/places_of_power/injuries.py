"""Injuries after the fight: treating them, and the days they take to recover.

(places-of-power-combat.txt, "Injuries"; taking them in a fight is ``harm.take_hits``, the
records on the sheet are ``injury``.)

"Injuries cannot be healed during combat." "Once a fight is over, any newly acquired
Injuries need to be treated to see how long they will take to recover from. Injuries have a
Base Recovery Time and a Recovery Dice Value. Combined these two values give you the Total
Recovery Time for a given type of injury. Injuries are best treated with a Surgery Check,
though they can be treated with a regular Medical Check if no one in your party can perform
Surgery. The GM will set the difficulty of the check, depending on the type of Injury
sustained."

How the engine runs it:

- The GM first sets the terms of an Injury (``SetInjuryTreatment``): the difficulty, the
  Base Recovery Time, the Recovery Dice Value and, if they like, the Permanent Condition it
  would leave. Then the healer's player (or the GM) rolls the check (``TreatInjury``): the
  player rolls their own dice but cannot choose their difficulty.
- Both are refused while the fight is active (``injuries_not_in_combat``); they are taken
  before it starts (an Injury carried in can be treated between fights) and once it ended.
- Any untreated Injury can be treated, new or carried in.
- The check is the Surgery or Medical skill die of the healer's sheet with the Attribute
  paired with it (a Condition on the Attribute is Disadvantage, as for every check). Penalty
  Points are not paid: they are a fight's rule, paid in Action Points and the like, and the
  GM weighs the healer's wounds in the difficulty they set.
- A Medical check is refused while someone on the patient's side who is neither dead nor
  Helpless has the Surgery skill ("if no one in your party can perform Surgery").
- A dead or Helpless healer cannot treat anyone; the dead are not treated.

The outcome classes (``checks.judge``), exactly as the rules list them ("Successful
Surgery", "Failed Surgery", "Critically Successful Medical Check", ...):

- "successful" is every success class: Partial, Full and Critical Success. A Partial
  Success "means that you successfully complete the task, but you did not do so cleanly,
  and the GM may impart a minor negative consequence" (the dice chapter): the Injury is
  treated as for any success; the minor consequence is the GM's to narrate.
- "failed" is Failure; a Critically Failed Surgery, which the list does not name, is a
  failed Surgery. A Critically Successful Surgery is a successful one.

"Every time an in game day passes, the Total Recovery Time of the Injury is reduced by one.
When the Total Recovery Time reaches zero, the Injury is considered to be completely
recovered and is removed from the players character sheet." The GM says when days pass
(``PassDays``): between fights, never during one. Untreated Injuries do not recover; the
dead do not recover.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.core.ruleset import Ruleset
from domain.places_of_power.checks import Difficulty, dice_for, judge
from domain.places_of_power.hits import HELPLESS
from domain.places_of_power.injury import UNDESCRIBED_CONDITION, Days, Injury, InjuryTreatment, RecoveryDie, Text
from domain.places_of_power.sheet import CONDITION_OF, Attribute, sides
from domain.places_of_power.table import sheet, with_sheet

replace = msgspec.structs.replace

Method = Literal["Surgery", "Medical"]
InjuryNumber = Annotated[int, msgspec.Meta(ge=1)]
NOT_IN_COMBAT = "Injuries cannot be healed during combat."

# What each outcome of each check does: the Total Recovery Time it sets ("rolled": Base
# Recovery Time + the rolled Recovery Dice Value; "maximum": + its Maximum; None: "The
# Injury remains untreated and no Recovery Time is set") and whether "A Permanent Condition
# is applied". See the module docstring for which classes are "successful".
RESULTS: dict[tuple[str, str], tuple[str | None, bool]] = {
    # "Successful Surgery - The Total Recovery Time is set to the Base Recovery Time + the
    # rolled Recovery Dice Value."
    ("Surgery", "Critical Success"): ("rolled", False),
    ("Surgery", "Full Success"): ("rolled", False),
    ("Surgery", "Partial Success"): ("rolled", False),
    # "Failed Surgery - ... Base Recovery Time + the Maximum Recovery Dice Value. A Permanent
    # Condition is applied."
    ("Surgery", "Failure"): ("maximum", True),
    ("Surgery", "Critical Failure"): ("maximum", True),
    # "Critically Successful Medical Check - ... Base Recovery Time + the rolled Recovery Dice Value."
    ("Medical", "Critical Success"): ("rolled", False),
    # "Successful Medical Check - ... Base Recovery Time + the Maximum Recovery Dice Value."
    ("Medical", "Full Success"): ("maximum", False),
    ("Medical", "Partial Success"): ("maximum", False),
    # "Failed Medical Check - ... Base Recovery Time + the Maximum Recovery Dice Value. A
    # Permanent Condition is applied."
    ("Medical", "Failure"): ("maximum", True),
    # "Critically Failed Medical Check - The Injury remains untreated and no Recovery Time is
    # set. The Injury now requires a Surgery Check to resolve"
    ("Medical", "Critical Failure"): (None, False),
}

# ---------------------------------------------------------------------------- commands


class SetInjuryTreatment(Command, tag="SetInjuryTreatment"):
    """The GM sets how an Injury (``injury``) of a ``patient`` is treated: the check's
    ``difficulty`` ("depending on the type of Injury sustained"), its ``base_recovery_time``
    in days and ``recovery_die`` (the Recovery Dice Value), and the ``permanent_condition`` it
    leaves if one is applied. Not during the fight; again, to change them, until it is treated."""

    patient: CombatantId
    injury: InjuryNumber
    difficulty: Difficulty
    base_recovery_time: Days
    recovery_die: RecoveryDie
    permanent_condition: Text = ""


class TreatInjury(Command, tag="TreatInjury"):
    """A ``healer`` treats an Injury (``injury``) of a ``patient`` with a Surgery or Medical
    check (``method``) at the difficulty the GM set (``SetInjuryTreatment``), pairing the skill
    with an ``attribute``. Not during the fight. Reported dice: the Attribute die, the skill
    die, then the Recovery Dice when the outcome rolls it (Surgery succeeding, Medical
    succeeding critically)."""

    actor_field = "healer"
    healer: CombatantId
    patient: CombatantId
    injury: InjuryNumber
    method: Method
    attribute: Attribute = "dexterity"


class PassDays(Command, tag="PassDays"):
    """The GM lets in-game ``days`` pass, between fights: every treated Injury's Total
    Recovery Time drops by as many; at zero the Injury is recovered and removed."""

    days: Annotated[int, msgspec.Meta(ge=1, le=3650)]


# ------------------------------------------------------------------------------ events


class InjuryTreatmentSet(Event, tag="InjuryTreatmentSet"):
    patient: CombatantId
    injury: int
    treatment: InjuryTreatment


class InjuryTreated(Event, tag="InjuryTreated"):
    """A treatment check. ``total_recovery_time`` None: the Injury remains untreated
    (``needs_surgery``). ``permanent_condition``: the one applied, if any."""

    healer: CombatantId
    patient: CombatantId
    injury: int
    method: str
    attribute: str
    difficulty: str
    dice: list[DieRoll]
    total: int
    outcome: str
    recovery_roll: DieRoll | None = None
    total_recovery_time: int | None = None
    permanent_condition: str | None = None
    needs_surgery: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return [*self.dice, *([self.recovery_roll] if self.recovery_roll is not None else [])]


class RecoveredInjury(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    combatant_id: CombatantId
    injury: int


class DaysPassed(Event, tag="DaysPassed"):
    """``recovered``: the Injuries these days healed completely (removed from the sheets)."""

    days: int
    recovered: list[RecoveredInjury] = msgspec.field(default_factory=list)


COMMANDS: tuple[type[Command], ...] = (SetInjuryTreatment, TreatInjury, PassDays)
EVENTS: tuple[type[Event], ...] = (InjuryTreatmentSet, InjuryTreated, DaysPassed)
AFTER_FIGHT = COMMANDS

# ---------------------------------------------------------------------------- deciding


def _not_in_combat(state: EncounterState) -> None:
    if state.status == "active":
        raise RuleViolation("injuries_not_in_combat", f"{NOT_IN_COMBAT} Treat the Injury once the fight is over.")


def _injury(c: Combatant, number: int) -> Injury:
    found = next((r for r in sheet(c).injury_records or () if r.number == number), None)
    if found is None:
        held = ", ".join(str(r.number) for r in sheet(c).injury_records or ()) or "none"
        raise RuleViolation("unknown_injury", f"{c.name} has no Injury {number} (Injuries: {held}).", injury=number)
    if found.treated:
        raise RuleViolation("injury_already_treated", f"{c.name}'s Injury {number} has been treated already.",
                            injury=number)
    return found


def _living(ruleset: Ruleset, state: EncounterState, combatant_id: str) -> Combatant:
    c = ruleset.combatant(state, combatant_id)
    if sheet(c).dead:
        raise RuleViolation("invalid_target", f"{c.name} is dead.")
    return c


def set_treatment(ruleset: Ruleset, state: EncounterState, cmd: SetInjuryTreatment) -> list[Event]:
    _not_in_combat(state)
    patient = _living(ruleset, state, cmd.patient)
    _injury(patient, cmd.injury)
    return [InjuryTreatmentSet(patient=patient.id, injury=cmd.injury, treatment=InjuryTreatment(
        difficulty=cmd.difficulty, base_recovery_time=cmd.base_recovery_time, recovery_die=cmd.recovery_die,
        permanent_condition=cmd.permanent_condition))]


def _surgeons(state: EncounterState, side: str) -> list[str]:
    """Who on ``side`` can perform Surgery now: the skill on their sheet, neither dead nor Helpless."""
    return [c.name for c in state.combatants.values()
            if c.side == side and sheet(c).skill_die("Surgery") is not None
            and not sheet(c).dead and sheet(c).hits < HELPLESS]


def treat(ruleset: Ruleset, state: EncounterState, cmd: TreatInjury, dice: Dice) -> list[Event]:
    _not_in_combat(state)
    healer = ruleset.combatant(state, cmd.healer)
    hs = sheet(healer)
    if hs.dead or hs.hits >= HELPLESS:
        raise RuleViolation("cannot_act", f"{healer.name} is Helpless and cannot treat anyone, themselves included.")
    patient = _living(ruleset, state, cmd.patient)
    injury = _injury(patient, cmd.injury)
    terms = injury.treatment
    if terms is None:
        raise RuleViolation("injury_treatment_not_set",
                            f"The GM has not yet set the difficulty and recovery time of {patient.name}'s "
                            f"Injury {injury.number} (SetInjuryTreatment).", injury=injury.number)
    if cmd.method == "Medical":
        if injury.needs_surgery:
            raise RuleViolation("injury_needs_surgery",
                                f"{patient.name}'s Injury {injury.number} now requires a Surgery Check to resolve.",
                                injury=injury.number)
        surgeons = _surgeons(state, patient.side)
        if surgeons:
            raise RuleViolation("surgeon_in_party",
                                f"{', '.join(surgeons)} can perform Surgery: Injuries can be treated with a regular "
                                "Medical Check only if no one in your party can perform Surgery.", surgeons=surgeons)
    skill = hs.skill_die(cmd.method)
    if skill is None:
        raise RuleViolation("unknown_skill", f"{healer.name} has no skill “{cmd.method}” on their sheet.",
                            skill=cmd.method)
    conditioned = CONDITION_OF[cmd.attribute] in hs.conditions
    sizes = dice_for(sides(hs.attribute_die(cmd.attribute)), sides(skill), False, conditioned)
    what = f"treating Injury {injury.number}"
    rolled = [dice.roll(n, f"{what}: {label}", healer.id) for n, label in zip(sizes, (cmd.attribute.title(), cmd.method),
                                                                              strict=True)]
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], terms.difficulty)
    time, condition = RESULTS[(cmd.method, outcome)]
    # "will result in a Permanent Condition regardless of the success of the Surgery Check"
    condition = condition or injury.needs_surgery
    recovery_roll = None
    total_recovery_time = None
    if time == "rolled":
        recovery_roll = dice.roll(sides(terms.recovery_die), f"{what}: Recovery Dice", patient.id)
        total_recovery_time = terms.base_recovery_time + recovery_roll.face
    elif time == "maximum":
        total_recovery_time = terms.base_recovery_time + sides(terms.recovery_die)
    return [InjuryTreated(
        healer=healer.id, patient=patient.id, injury=injury.number, method=cmd.method, attribute=cmd.attribute,
        difficulty=terms.difficulty, dice=rolled, total=sum(d.face for d in rolled), outcome=outcome,
        recovery_roll=recovery_roll, total_recovery_time=total_recovery_time,
        permanent_condition=(terms.permanent_condition or UNDESCRIBED_CONDITION) if condition else None,
        needs_surgery=time is None,
    )]


def after_days(records: list[Injury], days: int) -> tuple[list[Injury], list[int]]:
    """The records once ``days`` have passed, and the numbers of the Injuries that recovered.
    Only treated Injuries count down; an untreated one waits for its treatment."""
    kept: list[Injury] = []
    recovered: list[int] = []
    for r in records:
        if r.total_recovery_time is None:
            kept.append(r)
        elif r.total_recovery_time <= days:
            recovered.append(r.number)
        else:
            kept.append(replace(r, total_recovery_time=r.total_recovery_time - days))
    return kept, recovered


def pass_days(state: EncounterState, cmd: PassDays) -> list[Event]:
    if state.status == "active":
        raise RuleViolation("fight_in_progress", "In-game days pass between fights, not during one.")
    recovered = [RecoveredInjury(combatant_id=c.id, injury=n)
                 for c in state.combatants.values() if not sheet(c).dead
                 for n in after_days(sheet(c).injury_records or [], cmd.days)[1]]
    return [DaysPassed(days=cmd.days, recovered=recovered)]


DECISIONS = {
    SetInjuryTreatment: lambda r, s, c, d: set_treatment(r, s, c),
    TreatInjury: lambda r, s, c, d: treat(r, s, c, d),
    PassDays: lambda r, s, c, d: pass_days(s, c),
}

# ---------------------------------------------------------------------------- evolving


def _with_injury(state: EncounterState, combatant_id: str, number: int, **changes: object) -> EncounterState:
    records = sheet(state.combatants[combatant_id]).injury_records or []
    return with_sheet(state, combatant_id,
                      injury_records=[replace(r, **changes) if r.number == number else r for r in records])


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case InjuryTreatmentSet():
            return _with_injury(state, event.patient, event.injury, treatment=event.treatment)
        case InjuryTreated():
            # "When an Injury is treated, replace the Injury mark on your character sheet with
            # the Total Recovery Time value."
            return _with_injury(state, event.patient, event.injury, treated=event.total_recovery_time is not None,
                                total_recovery_time=event.total_recovery_time,
                                permanent_condition=event.permanent_condition, needs_surgery=event.needs_surgery)
        case DaysPassed():
            for c in list(state.combatants.values()):
                s = sheet(c)
                if s.dead:
                    continue
                kept, recovered = after_days(s.injury_records or [], event.days)
                if kept != s.injury_records:
                    state = with_sheet(state, c.id, injuries=s.injuries - len(recovered), injury_records=kept)
            return state
    return None
