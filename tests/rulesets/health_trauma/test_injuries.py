"""Each injury result of the chart (shared/rules/health-trauma-combat.txt, "Dying"), with our
default bands (1-3 lucky escape, 4-6 sliced muscle, 7-9 reeling, 10-12 maimed, 13-15 gut wound,
16+ Mortal Blow: the GM's data) and the Recuperate GM command."""

from __future__ import annotations

import msgspec
import pytest

from domain.health_trauma.body import blinded, conditions
from domain.health_trauma.data import HealthTraumaData
from domain.health_trauma.events import (
    Attack, FearSave, GutWoundSave, Heal, Recuperate, RollFearSave, RollInjury, Stabilise, TakeAction, TreatWound,
)
from tests.rulesets.health_trauma.fight import BANDIT, Fight, started, types

TOUGH = {**BANDIT, "physique": 5}  # 10 Health: room for several injuries before Trauma kills


def dying(f: Fight, injury_face: int, *extra: int) -> None:
    """Mira cuts the Bandit down to 0 (or further) and the Bandit rolls the injury."""
    while not f.body("bandit").injury_due:
        if f.state.turn != "mira" or f.held("mira")["turn quarters"] < 2:
            round_over(f)
        f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))
    f.send(RollInjury(combatant_id="bandit", dice=[injury_face, *extra]))


def round_over(f: Fight) -> None:
    """The turns left in the round end (nobody here is reeling or dying)."""
    while f.state.turn is not None and (f.state.turn != "mira" or f.state.acted == []):
        f.end_turn(f.state.turn)
        if f.state.turn == "mira":
            return


def test_sliced_muscle_gives_minus_x_until_trauma_is_zero() -> None:
    """"You receive an -X modifier to any Skill Tests, Saves, or Damage Rolls until your trauma is
    reduced to 0." (X: ours, 1)"""
    f = started(bandit=TOUGH)
    dying(f, 5)
    assert f.body("bandit").penalty == 1
    f.send(Stabilise(combatant_id="bandit"))
    f.end_turn("mira")
    rolled = f.send(Attack(combatant_id="bandit", target="mira", dice=[10, 4]))[1]
    assert rolled.attack_total == 10 + 3 - 1 and rolled.rolled_damage == 3  # 4 - 1
    f.send(Heal(combatant_id="bandit", amount=20))
    f.end_turn("bandit")
    f.end_turn("mira")
    f.send(Recuperate(combatant_id="bandit"))
    assert f.body("bandit").penalty == 0 and f.body("bandit").trauma == 0 and f.health("bandit") == 10


def test_reeling_takes_effect_once_stabilised_a_fear_save_each_turn_start() -> None:
    """"The Character is dying as normal, but this injury takes effect if they are stabilized or
    healed. At the start of the character's turn they must take a Fear MSvs Trauma they received
    from the attack. If the test is failed they are Stunned and can't act on their turn. This effect
    ends once the character succeeds on this save.\""""
    f = started(bandit=TOUGH)
    dying(f, 8)
    assert f.body("bandit").reeling == "pending"
    f.end_turn("mira")  # still dying: no save
    assert "HTFearSaveDue" not in types(f.events[-3:]) and not f.body("bandit").fear_save_due
    f.send(Stabilise(combatant_id="bandit"))
    assert f.body("bandit").reeling == "active"
    f.end_turn("bandit")  # round 2: Mira first
    ended = f.end_turn("mira")  # the Bandit's turn starts: the Fear save is due, and prompted
    assert types(ended)[-1] == "HTFearSaveDue"
    [decision] = f.ruleset.pending(f.state)
    assert (decision.kind, decision.combatant_id, decision.command) == ("fear_save", "bandit", "HTRollFearSave")
    assert f.refused(TakeAction(combatant_id="bandit", action="Aim")).code == "ht_fear_save_due"
    assert f.refused(msgspec.convert({"type": "EndTurn", "combatant_id": "bandit"},
                                     f.ruleset.command_type)).code == "ht_fear_save_due"
    save = f.send(RollFearSave(combatant_id="bandit", dice=[1]))[0]  # 1 against Trauma 0: passed
    assert isinstance(save, FearSave) and save.passed and f.body("bandit").reeling == "none"


def test_a_failed_fear_save_stuns_and_a_second_reeling_is_a_coma() -> None:
    """"If the test is failed they are Stunned and can't act on their turn." "If this result is
    rolled again from a separate injury, the character falls into a coma and won't wake from it
    until their Trauma is reduced to 0.\""""
    f = started(bandit=TOUGH)
    dying(f, 8)
    f.end_turn("mira")
    f.end_turn("bandit")  # round's end: 1 damage while dying, 1 Trauma
    f.send(Stabilise(combatant_id="bandit"))
    f.end_turn("mira")
    failed = f.send(RollFearSave(combatant_id="bandit", dice=[1]))  # 1 against Trauma 1: failed
    assert isinstance(failed[0], FearSave) and not failed[0].passed and f.body("bandit").stunned
    assert f.refused(Attack(combatant_id="bandit", target="mira", dice=[10, 1])).code == "ht_stunned"
    f.end_turn("bandit")
    # A second injury: reeling again (total 4 + 5 = 9): a coma.
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))
    f.send(RollInjury(combatant_id="bandit", dice=[4]))
    assert f.body("bandit").coma and f.body("bandit").injuries == ["reeling", "reeling"]
    f.send(Stabilise(combatant_id="bandit"))
    f.end_turn("mira")  # a coma: no Fear save, no acting
    assert f.refused(TakeAction(combatant_id="bandit", action="Aim")).code == "ht_in_coma"
    f.send(Recuperate(combatant_id="bandit"))
    assert not f.body("bandit").coma


@pytest.mark.parametrize(("against", "vs", "passed"), [("trauma", 1, False), ("trauma_at_injury", 0, True),
                                                      ("injuring_damage", 6, False)])
def test_what_the_fear_save_is_against_is_the_gms_reading(against: str, vs: int, passed: bool) -> None:
    """"At the start of the character's turn they must take a Fear MSvs Trauma they received from
    the attack.": the Trauma they have when they save (ours), the Trauma they had when the result
    was rolled, or the damage of the hit that put them into the dying state, as the GM's data says."""
    f = started(data=HealthTraumaData(defence_die=0, reactions=[], fear_save_against=against),  # type: ignore[arg-type]
                bandit=TOUGH)
    dying(f, 8)  # two hits of 6: 10 Health to -2, dying from a hit of 6; reeling, with no Trauma yet
    f.end_turn("mira")
    f.end_turn("bandit")  # round's end: 1 damage while dying, 1 Trauma
    f.send(Stabilise(combatant_id="bandit"))
    f.end_turn("mira")
    save = f.send(RollFearSave(combatant_id="bandit", dice=[1]))[0]
    assert isinstance(save, FearSave) and (save.vs, save.passed) == (vs, passed)


def test_maimed_parts_and_the_same_part_again_removed_with_more_trauma() -> None:
    """"Roll 1D6 and consult the table." "If you receive this injury again and roll the same result,
    that part is removed and you take an additional 3 + 1D3 Trauma." "If both your arms are maimed
    you cannot use Actions that would require them.\""""
    f = started(bandit={**BANDIT, "physique": 10})
    dying(f, 10, 1)  # maimed: the left arm
    assert f.body("bandit").maimed == ["left arm"]
    f.send(Stabilise(combatant_id="bandit"))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 1]))  # dying again: a second injury
    f.send(RollInjury(combatant_id="bandit", dice=[5, 2]))  # 5 + 5 = 10: maimed, the right arm
    assert f.body("bandit").maimed == ["left arm", "right arm"]
    f.send(Stabilise(combatant_id="bandit"))
    f.end_turn("mira")
    assert f.refused(Attack(combatant_id="bandit", target="mira", dice=[10, 1])).code == "ht_needs_arms"
    assert f.refused(TakeAction(combatant_id="bandit", action="Draw a weapon")).code == "ht_needs_arms"
    f.end_turn("bandit")
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 1]))
    f.send(RollInjury(combatant_id="bandit", dice=[1, 1, 2]))  # 1 + 10 = 11: maimed, the left arm again
    b = f.body("bandit")
    assert b.removed == ["left arm"] and b.maimed == ["right arm"] and b.trauma == 5  # 3 + 2


def test_both_legs_maimed_only_crawl_and_both_eyes_blinded() -> None:
    """"if both your legs are maimed you may only use the Crawl Move Actions. If both your eyes
    are maimed, you are Blinded as long as the injuries persist.\""""
    f = started(data=msgspec.convert({"defence_die": 0, "reactions": [], "injury_chart": [
        {"least": 1, "result": "maimed"}]}, HealthTraumaData), bandit={**BANDIT, "physique": 15})
    for part in (3, 4, 5, 6):  # left leg, right leg, left eye, right eye
        dying(f, 1, part)
        f.send(Stabilise(combatant_id="bandit"))
    b = f.body("bandit")
    eyes = f.state.rules.data.pair("eye")
    assert b.maimed == ["left leg", "right leg", "left eye", "right eye"] and blinded(b, eyes)
    assert "Blinded" in conditions(f.state.combatants["bandit"].sheet, b, eyes)
    if f.state.turn == "mira":
        f.end_turn("mira")
    assert f.refused(TakeAction(combatant_id="bandit", action="Move")).code == "ht_crawl_only"
    f.send(TakeAction(combatant_id="bandit", action="Crawl"))


def test_the_gms_maim_table_says_which_parts_are_arms_legs_and_eyes() -> None:
    """"A part of you has been mangled to the point of uselessness. Roll 1D6 and consult the table."
    "If both your arms are maimed you cannot use Actions that would require them. Likewise, if both
    your legs are maimed you may only use the Crawl Move Actions. If both your eyes are maimed, you
    are Blinded": the GM's table (its names in any words) says which parts are arms, legs and eyes."""
    table = [{"name": "Linker Arm", "pair": "arm"}, {"name": "Rechter Arm", "pair": "arm"},
             {"name": "Linkes Bein", "pair": "leg"}, {"name": "Rechtes Bein", "pair": "leg"},
             {"name": "Linkes Auge", "pair": "eye"}, {"name": "Schwanz"}]
    f = started(data=msgspec.convert({"defence_die": 0, "reactions": [], "maim_table": table, "injury_chart": [
        {"least": 1, "result": "maimed"}]}, HealthTraumaData), bandit={**BANDIT, "physique": 25})
    for part in (1, 2, 3, 4, 5, 6):
        dying(f, 1, part)
        f.send(Stabilise(combatant_id="bandit"))
    b = f.body("bandit")
    assert b.maimed == ["Linker Arm", "Rechter Arm", "Linkes Bein", "Rechtes Bein", "Linkes Auge", "Schwanz"]
    # the one eye of this table maimed: both eyes, as the table counts them
    shown = f.ruleset.shown(f.state).combatants["bandit"].sheet
    assert "Blinded" in shown.conditions
    if f.state.turn == "mira":
        f.end_turn("mira")
    assert f.refused(Attack(combatant_id="bandit", target="mira", dice=[10, 1])).code == "ht_needs_arms"
    assert f.refused(TakeAction(combatant_id="bandit", action="Move")).code == "ht_crawl_only"
    f.send(TakeAction(combatant_id="bandit", action="Crawl"))
    # a table of plain names: a part is one of a pair only by the default's names ("left arm", ...)
    data = msgspec.convert({"maim_table": ["Linker Arm", "Rechter Arm", "left leg", "right leg", "x", "y"]},
                           HealthTraumaData)
    assert (data.pair("arm"), data.pair("leg"), data.pair("eye")) == ((), ("left leg", "right leg"), ())


def test_a_gut_wound_dazes_and_asks_a_bsvs_each_time_damage_is_taken() -> None:
    """"they must make a BSvs Damage Taken each time they take damage. If this save is failed the
    character's would reopens, causing them to take one point of Trauma. The Character is considered
    Dazed and may only take the move action until they receive medical treatment.\""""
    f = started(data=msgspec.convert({"defence_die": 0, "reactions": [], "injury_chart": [
        {"least": 1, "result": "gut_wound"}]}, HealthTraumaData), bandit={**BANDIT, "physique": 10})
    dying(f, 1)
    assert f.body("bandit").gut_wound and f.body("bandit").dazed
    f.send(Stabilise(combatant_id="bandit"))
    f.send(Heal(combatant_id="bandit", amount=5))
    f.end_turn("mira")
    assert f.refused(Attack(combatant_id="bandit", target="mira", dice=[10, 1])).code == "ht_dazed_move_only"
    f.send(TakeAction(combatant_id="bandit", action="Move"))
    f.end_turn("bandit")
    hit = f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 3, 2]))  # 3 damage; BSvs 2 against 3
    assert isinstance(hit[-1], GutWoundSave) and not hit[-1].passed and f.body("bandit").trauma == 1
    f.send(TreatWound(combatant_id="bandit"))
    assert not f.body("bandit").dazed and f.body("bandit").gut_wound


def test_recuperating_is_the_gms_and_never_for_the_dying() -> None:
    """"Each point of trauma reduces the maximum health of the character by one until they are
    able to recuperate." (The text gives no rule: a GM command, ours.)"""
    f = started()
    dying(f, 1)
    assert f.refused(Recuperate(combatant_id="bandit")).code == "ht_still_dying"
    assert f.ruleset.command_info()[0].who == "gm"
