"""Injuries after the fight (places-of-power-combat.txt, "Injuries"), through the decider with
reported dice. Each test quotes the rule it checks.

Mira (player: Dexterity D8, Medical D8) comes in with one Injury and takes a second from the
Bandit's Club (2 Hits in one attack). Doc (player, same party: Dexterity D8, Surgery D10,
Medical D8) can perform Surgery; a test may leave him out, or seat him on another side (a
village surgeon, not in Mira's party). The GM's terms for the Injury:
Normal (9), Base Recovery Time 10 days, Recovery Dice Value D6, "a limp".

Dice at Normal (9), Dexterity D8 + Surgery D10 or Medical D8: 4 + 6 = 10 Partial Success,
6 + 7 = 13 Full Success, 5 + 5 Critical Success, 2 + 3 Failure, 2 + 2 Critical Failure.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.encounter import AddCombatant, EndEncounter, Event, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import Attack, Defend
from domain.places_of_power.injuries import (
    AFTER_FIGHT,
    DaysPassed,
    InjuryTreated,
    PassDays,
    RecoveredInjury,
    SetInjuryTreatment,
    TreatInjury,
)
from domain.places_of_power.injury import Injury, reconcile
from domain.places_of_power.sheet import Sheet
from domain.places_of_power.table import with_sheet
from tests.rulesets.places_of_power.fight import Fight

CLUB = {"name": "Club", "skill": "Club", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
MIRA: dict[str, Any] = {"attributes": {"dexterity": "D8"}, "skills": {"Medical": "D8"}, "injuries": 1}
DOC: dict[str, Any] = {"attributes": {"dexterity": "D8"}, "skills": {"Surgery": "D10", "Medical": "D8"}}
BANDIT: dict[str, Any] = {"attributes": {"strength": "D8"}, "skills": {"Club": "D8"}, "weapons": [CLUB]}
BASE, DIE, CONDITION = 10, 6, "a limp"
PARTIAL, FULL, CRITICAL, FAILURE, CRITICAL_FAILURE = [4, 6], [6, 7], [5, 5], [2, 3], [2, 2]


def fight(*, doc: str | None = "party") -> Fight:
    """The Bandit's Club hits Mira for 2 Hits: her second Injury. The fight is still on.
    ``doc``: Doc's side (None: no Doc)."""
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=MIRA))
    if doc:
        f.send(AddCombatant(combatant_id="doc", name="Doc", side=doc, controller="player", sheet=DOC))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm", sheet=BANDIT))
    f.roll([1, 1, 12] if doc else [1, 12])
    f.start()
    f.send(Attack(combatant_id="bandit", target="mira", attack="LightMelee", weapon="Club", band="Melee",
                  dice=[5, 4]))
    f.send(Defend(combatant_id="mira", attack=f.state.rules.exchange.id, defence="TakeIt"))
    return f


def after_fight(*, doc: str | None = "party", terms: bool = True) -> Fight:
    f = fight(doc=doc)
    f.send(EndEncounter())
    if terms:
        f.send(SetInjuryTreatment(patient="mira", injury=2, difficulty="Normal", base_recovery_time=BASE,
                                  recovery_die=f"D{DIE}", permanent_condition=CONDITION))
    return f


def injury(f: Fight, number: int = 2, who: str = "mira") -> Injury:
    records = f.state.combatants[who].sheet.injury_records
    return next(r for r in records if r.number == number)


def treat(f: Fight, method: str, faces: list[int], healer: str = "doc", number: int = 2) -> InjuryTreated:
    (event,) = f.send(TreatInjury(healer=healer, patient="mira", injury=number, method=method, dice=faces))
    assert isinstance(event, InjuryTreated)
    return event


def refused(f: Fight, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        f.send(command)
    return caught.value


def replays(f: Fight) -> None:
    assert f.ruleset.replay(f.events) == f.state


# ------------------------------------------------------------------ records on the sheet


def test_each_injury_has_a_record_new_or_carried_in() -> None:
    """ "If you suffer two or more Hits in a single attack, or you are rendered Helpless, then
    you suffer an Injury. Injuries are ongoing effects that last beyond the combat encounter"."""
    f = fight()
    s = f.state.combatants["mira"].sheet
    assert s.injuries == 2
    assert [(r.number, r.new, r.treated, r.total_recovery_time) for r in s.injury_records] == [
        (1, False, False, None), (2, True, False, None)]
    assert f.state.combatants["doc"].sheet.injury_records == []
    replays(f)


def test_records_follow_the_count_and_refuse_to_outnumber_it() -> None:
    carried = reconcile(None, 2)
    assert [(r.number, r.new) for r in carried] == [(1, False), (2, False)]
    assert [(r.number, r.new) for r in reconcile(carried[1:], 3)] == [(2, False), (3, True), (4, True)]
    with pytest.raises(ValueError):
        reconcile(carried, 1)
    with pytest.raises(ValueError):
        reconcile([Injury(number=1), Injury(number=1)], 2)
    f = Fight()
    with pytest.raises(RuleViolation) as caught:
        f.send(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player",
                            sheet={"injury_records": [{"number": 1, "treated": True, "total_recovery_time": 3}]}))
    assert caught.value.code == "invalid_sheet"
    # A sheet brought in with its records keeps them.
    f.send(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player", sheet={
        "injuries": 1, "injury_records": [{"number": 4, "treated": True, "total_recovery_time": 3}]}))
    assert f.state.combatants["kess"].sheet.injury_records == [Injury(number=4, treated=True, total_recovery_time=3)]
    assert msgspec.convert(msgspec.to_builtins(Sheet(injuries=1)), Sheet).injury_records == [Injury(number=1)]


# --------------------------------------------------------------------- not during combat


def test_injuries_cannot_be_healed_during_combat() -> None:
    """ "Injuries cannot be healed during combat." """
    f = fight()
    for command in (
        TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery", dice=PARTIAL),
        SetInjuryTreatment(patient="mira", injury=2, difficulty="Normal", base_recovery_time=BASE, recovery_die="D6"),
    ):
        violation = refused(f, command)
        assert violation.code == "injuries_not_in_combat"
        assert "Injuries cannot be healed during combat." in violation.message
    assert refused(f, PassDays(days=1)).code == "fight_in_progress"
    assert {TreatInjury, SetInjuryTreatment, PassDays} <= set(AFTER_FIGHT) <= set(f.ruleset.after_fight_commands)


def test_once_the_fight_is_over_the_gm_sets_the_terms_first() -> None:
    """ "Once a fight is over, any newly acquired Injuries need to be treated ... The GM will set
    the difficulty of the check, depending on the type of Injury sustained." """
    f = after_fight(terms=False)
    violation = refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery", dice=PARTIAL))
    assert violation.code == "injury_treatment_not_set"
    f.send(SetInjuryTreatment(patient="mira", injury=2, difficulty="Hard", base_recovery_time=3, recovery_die="D4"))
    f.send(SetInjuryTreatment(patient="mira", injury=2, difficulty="Normal", base_recovery_time=BASE,
                              recovery_die="D6", permanent_condition=CONDITION))  # the GM changes their mind
    terms = injury(f).treatment
    assert terms is not None and (terms.difficulty, terms.base_recovery_time, terms.recovery_die) == (
        "Normal", BASE, "D6")
    assert refused(f, SetInjuryTreatment(patient="mira", injury=7, difficulty="Normal", base_recovery_time=1,
                                         recovery_die="D4")).code == "unknown_injury"
    replays(f)


# ------------------------------------------------------------------------------ Surgery


@pytest.mark.parametrize("faces, outcome", [(PARTIAL, "Partial Success"), (FULL, "Full Success"),
                                            (CRITICAL, "Critical Success")])
def test_successful_surgery(faces: list[int], outcome: str) -> None:
    """ "Successful Surgery - The Total Recovery Time is set to the Base Recovery Time + the
    rolled Recovery Dice Value." Every success class is a success; a Partial Success "means
    that you successfully complete the task, but you did not do so cleanly" (dice chapter)."""
    f = after_fight()
    event = treat(f, "Surgery", [*faces, 4])
    assert (event.outcome, event.total_recovery_time, event.permanent_condition) == (outcome, BASE + 4, None)
    assert event.recovery_roll is not None and (event.recovery_roll.sides, event.recovery_roll.face) == (DIE, 4)
    # "When an Injury is treated, replace the Injury mark on your character sheet with the
    # Total Recovery Time value."
    r = injury(f)
    assert (r.treated, r.total_recovery_time, r.permanent_condition, r.needs_surgery) == (True, 14, None, False)
    assert refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery",
                                  dice=PARTIAL)).code == "injury_already_treated"
    replays(f)


@pytest.mark.parametrize("faces, outcome", [(FAILURE, "Failure"), (CRITICAL_FAILURE, "Critical Failure")])
def test_failed_surgery(faces: list[int], outcome: str) -> None:
    """ "Failed Surgery - The Total Recovery Time is set to the Base Recovery Time + the Maximum
    Recovery Dice Value. A Permanent Condition is applied." (A critically failed Surgery is a
    failed one: the list names no other.) The Recovery Dice are not rolled."""
    f = after_fight()
    event = treat(f, "Surgery", faces)
    assert (event.outcome, event.recovery_roll, event.total_recovery_time) == (outcome, None, BASE + DIE)
    r = injury(f)
    assert (r.treated, r.total_recovery_time, r.permanent_condition) == (True, 16, CONDITION)


def test_the_recovery_dice_are_rolled_only_when_needed() -> None:
    f = after_fight()
    assert refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery",
                                  dice=[*FAILURE, 4])).code == "dice_unused"
    assert refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery",
                                  dice=PARTIAL)).code == "dice_missing"


# ------------------------------------------------------------------------------ Medical


def test_a_medical_check_only_if_no_one_in_your_party_can_perform_surgery() -> None:
    """ "Injuries are best treated with a Surgery Check, though they can be treated with a
    regular Medical Check if no one in your party can perform Surgery." """
    f = after_fight()
    violation = refused(f, TreatInjury(healer="mira", patient="mira", injury=2, method="Medical", dice=PARTIAL))
    assert violation.code == "surgeon_in_party" and "Doc" in violation.message
    # Without a Surgery skill there is no Surgery check.
    assert refused(f, TreatInjury(healer="mira", patient="mira", injury=2, method="Surgery",
                                  dice=PARTIAL)).code == "unknown_skill"


def test_critically_successful_medical_check() -> None:
    """ "Critically Successful Medical Check - The Total Recovery Time is set to the Base
    Recovery Time + the rolled Recovery Dice Value." """
    f = after_fight(doc=None)
    event = treat(f, "Medical", [*CRITICAL, 2], healer="mira")  # Mira treats herself
    assert (event.outcome, event.total_recovery_time, event.permanent_condition) == ("Critical Success", 12, None)
    replays(f)


@pytest.mark.parametrize("faces, outcome", [(FULL, "Full Success"), (PARTIAL, "Partial Success")])
def test_successful_medical_check(faces: list[int], outcome: str) -> None:
    """ "Successful Medical Check - The Total Recovery Time is set to the Base Recovery Time +
    the Maximum Recovery Dice Value." """
    f = after_fight(doc=None)
    event = treat(f, "Medical", faces, healer="mira")
    assert (event.outcome, event.recovery_roll, event.total_recovery_time, event.permanent_condition) == (
        outcome, None, BASE + DIE, None)
    assert (injury(f).treated, injury(f).total_recovery_time) == (True, 16)


def test_failed_medical_check() -> None:
    """ "Failed Medical Check - The Total Recovery Time is set to the Base Recovery Time + the
    Maximum Recovery Dice Value. A Permanent Condition is applied." """
    f = after_fight(doc=None)
    event = treat(f, "Medical", FAILURE, healer="mira")
    assert (event.outcome, event.total_recovery_time, event.permanent_condition) == ("Failure", 16, CONDITION)
    assert injury(f).permanent_condition == CONDITION


def test_critically_failed_medical_check_needs_surgery_and_a_permanent_condition() -> None:
    """ "Critically Failed Medical Check - The Injury remains untreated and no Recovery Time is
    set. The Injury now requires a Surgery Check to resolve, and will result in a Permanent
    Condition regardless of the success of the Surgery Check." """
    f = after_fight(doc=None)
    event = treat(f, "Medical", CRITICAL_FAILURE, healer="mira")
    assert (event.outcome, event.total_recovery_time, event.needs_surgery) == ("Critical Failure", None, True)
    r = injury(f)
    assert (r.treated, r.total_recovery_time, r.needs_surgery, r.permanent_condition) == (False, None, True, None)
    violation = refused(f, TreatInjury(healer="mira", patient="mira", injury=2, method="Medical", dice=CRITICAL))
    assert violation.code == "injury_needs_surgery"
    replays(f)


def test_a_surgery_after_a_critically_failed_medical_check_applies_a_permanent_condition() -> None:
    """ "... and will result in a Permanent Condition regardless of the success of the Surgery
    Check." Doc, the village surgeon, is not in Mira's party: her own Medical check was allowed."""
    f = after_fight(doc="village")
    treat(f, "Medical", CRITICAL_FAILURE, healer="mira")
    event = treat(f, "Surgery", [*FULL, 5])
    assert (event.outcome, event.total_recovery_time, event.permanent_condition, event.needs_surgery) == (
        "Full Success", BASE + 5, CONDITION, False)
    r = injury(f)
    assert (r.treated, r.total_recovery_time, r.needs_surgery, r.permanent_condition) == (True, 15, False, CONDITION)
    replays(f)


def test_a_permanent_condition_the_gm_has_not_described() -> None:
    f = after_fight(doc="village", terms=False)
    f.send(SetInjuryTreatment(patient="mira", injury=2, difficulty="Normal", base_recovery_time=1, recovery_die="D4"))
    assert treat(f, "Surgery", FAILURE).permanent_condition == "Permanent Condition"


# --------------------------------------------------------------------------- who treats


def test_the_helpless_and_the_dead() -> None:
    """A Helpless healer cannot treat anyone ("You are unable to perform ANY actions on your
    own"); the dead are not treated."""
    f = after_fight()
    f.state = with_sheet(f.state, "doc", hits=4)
    assert refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery",
                                  dice=PARTIAL)).code == "cannot_act"
    f.state = with_sheet(f.state, "doc", hits=0)
    f.state = with_sheet(f.state, "mira", dead=True)
    assert refused(f, TreatInjury(healer="doc", patient="mira", injury=2, method="Surgery",
                                  dice=PARTIAL)).code == "invalid_target"


# ----------------------------------------------------------------------------- recovery


def test_every_day_reduces_the_total_recovery_time_until_the_injury_is_removed() -> None:
    """ "Every time an in game day passes, the Total Recovery Time of the Injury is reduced by
    one. When the Total Recovery Time reaches zero, the Injury is considered to be completely
    recovered and is removed from the players character sheet." Untreated Injuries wait."""
    f = after_fight()
    treat(f, "Surgery", [*PARTIAL, 3])  # 13 days
    (passed,) = f.send(PassDays(days=1))
    assert isinstance(passed, DaysPassed) and passed.recovered == []
    assert injury(f).total_recovery_time == 12
    f.send(PassDays(days=11))
    assert injury(f).total_recovery_time == 1
    assert injury(f, 1).total_recovery_time is None  # carried in, untreated: no recovery
    (passed,) = f.send(PassDays(days=5))
    assert [(r.combatant_id, r.injury) for r in passed.recovered] == [("mira", 2)]
    s = f.state.combatants["mira"].sheet
    assert (s.injuries, [r.number for r in s.injury_records]) == (1, [1])
    replays(f)


def test_days_pass_before_a_fight_too() -> None:
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player", sheet={
        "injuries": 2, "injury_records": [{"number": 1, "treated": True, "total_recovery_time": 2},
                                          {"number": 2}]}))
    events: list[Event] = f.send(PassDays(days=2))
    assert events == [DaysPassed(days=2, recovered=[RecoveredInjury(combatant_id="kess", injury=1)])]
    s = f.state.combatants["kess"].sheet
    assert (s.injuries, [r.number for r in s.injury_records]) == (1, [2])
    # The time before a fight is not combat either: an Injury carried in can be seen to.
    f.send(SetInjuryTreatment(patient="kess", injury=2, difficulty="Easy", base_recovery_time=1, recovery_die="D4"))
    assert f.state.combatants["kess"].sheet.injury_records[0].treatment is not None
    f.roll([5])
    f.send(StartEncounter())
    assert refused(f, PassDays(days=1)).code == "fight_in_progress"
