"""Harm in Places of Power (domain.places_of_power.harm): Hits, Helpless vs. Dead, Injuries
and paying Penalty Points, quoting places-of-power-combat.txt."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.errors import CODES, RuleViolation
from domain.places_of_power.harm import (
    HIT_LEVELS,
    PENALTIES,
    HarmResult,
    PenaltyPayment,
    apply_penalties,
    penalty_points,
    take_hits,
    wound_level,
)
from domain.places_of_power.hits import HELPLESS

NEW_CODES = {
    "penalty_points_owed": "Pay exactly the Penalty Points the action owes, one penalty each.",
    "penalty_not_applicable": "That penalty cannot apply to this action.",
    "unknown_penalty": "No such penalty.",
}


@pytest.fixture
def codes(monkeypatch: pytest.MonkeyPatch) -> None:
    for code, text in NEW_CODES.items():
        monkeypatch.setitem(CODES, code, text)


def npc(hits_before: int, damage: int, **kw: int | bool) -> HarmResult:
    return take_hits(hits_before, damage, is_player=False, **kw)  # type: ignore[arg-type]


def player(hits_before: int, damage: int, **kw: int | bool) -> HarmResult:
    return take_hits(hits_before, damage, is_player=True, **kw)  # type: ignore[arg-type]


# --- Hits --------------------------------------------------------------------------


def test_the_four_hits_are_levels() -> None:
    """"Hit 1: Grazed ... Hit 2: Wounded ... Hit 3: Afflicted ... Hit 4: Helpless"."""
    assert HIT_LEVELS == ("Unhurt", "Grazed", "Wounded", "Afflicted", "Helpless")
    assert [wound_level(h) for h in range(5)] == list(HIT_LEVELS)
    assert HELPLESS == 4
    # "Dead" is not a level: the level tops out at Helpless
    assert wound_level(7) == "Helpless"
    with pytest.raises(ValueError):
        wound_level(-1)


def test_penalty_points_by_level() -> None:
    """"Wounded - ... You must apply 1 Penalty Point to all actions"; "Afflicted - ... You
    now apply 2 Penalty Points to all actions"; Grazed "will not hinder you in any way";
    Helpless: "You are unable to perform ANY actions"."""
    assert [penalty_points(h) for h in range(6)] == [0, 0, 1, 2, 0, 0]


def test_hits_below_helpless_leave_everyone_alive() -> None:
    """"Hit 1: Grazed - You have taken a hit, but it is not too bad": Hits add up."""
    for taker in (npc, player):
        r = taker(1, 2)
        assert (r.hits, r.dead, r.helpless) == (3, False, False)


def test_reaching_helpless_exactly_is_helpless_not_dead() -> None:
    """"Hit 4: Helpless - You have been rendered Unconscious." (not yet beyond it)."""
    for taker in (npc, player):
        r = taker(3, 1)
        assert (r.hits, r.dead, r.helpless) == (HELPLESS, False, True)


def test_an_npc_taken_beyond_helpless_is_killed_outright() -> None:
    """"it is possible to inflict enough Hits on a target that they are taken beyond the
    Helpless stage. If this happens to an NPC, either friend or foe, then that NPC has been
    killed outright"."""
    r = npc(3, 2)
    assert (r.dead, r.helpless) == (True, False)
    assert r.hits == 5
    assert npc(0, 5).dead
    assert not npc(0, 4).dead


def test_a_player_two_past_helpless_is_only_helpless() -> None:
    """"As long as the number of Hits they have taken does not exceed the point at which
    they would become Helpless by more than two, then that player is simply Helpless, and
    the usual rules apply": 5 and 6 Hits leave them Helpless, alive, stored at Hit 4."""
    for raw in (5, 6):
        r = player(0, raw)
        assert (r.dead, r.helpless, r.hits) == (False, True, HELPLESS)
        r = player(2, raw - 2)
        assert (r.dead, r.helpless, r.hits) == (False, True, HELPLESS)


def test_a_player_more_than_two_past_helpless_is_killed() -> None:
    """"If the number of Hits does however exceed the number needed to render the target
    Helpless by more than two, then that player is also killed"."""
    for before, damage in ((0, 7), (3, 4), (1, 9)):
        r = player(before, damage)
        assert (r.dead, r.helpless) == (True, False)
        assert r.hits == before + damage
    # the stored count never passes the sheet's bound
    assert player(0, 30).hits == 20


@pytest.mark.parametrize("taker", [npc, player])
def test_already_helpless_and_another_hit_dies(taker) -> None:  # type: ignore[no-untyped-def]
    """"if a target is already Helpless and they take another Hit, then they die,
    regardless of whether they are an NPC or a player character"."""
    r = taker(HELPLESS, 1)
    assert (r.dead, r.helpless, r.hits) == (True, False, 5)


def test_no_damage_changes_nothing() -> None:
    """A Helpless target only dies if "they take another Hit": 0 Hits is no Hit."""
    r = player(HELPLESS, 0, injuries_before=1)
    assert r == HarmResult(hits=4, dead=False, helpless=True, injuries_gained=0, injuries=1, helpless_for_fight=False)
    assert not npc(2, 0).dead


# --- Injuries -------------------------------------------------------------------------


def test_two_hits_in_one_attack_is_an_injury() -> None:
    """"If you suffer two or more Hits in a single attack ... then you suffer an Injury"."""
    r = player(0, 2)
    assert (r.injuries_gained, r.injuries) == (1, 1)
    assert player(0, 3, injuries_before=1).injuries == 2


def test_single_hits_are_no_injury() -> None:
    """Two Hits from two attacks are not "two or more Hits in a single attack"."""
    first = player(0, 1)
    second = player(first.hits, 1, injuries_before=first.injuries)
    assert (second.hits, second.injuries) == (2, 0)


def test_being_rendered_helpless_is_an_injury() -> None:
    """"or you are rendered Helpless, then you suffer an Injury"."""
    r = player(3, 1)
    assert (r.helpless, r.injuries_gained) == (True, 1)


def test_one_attack_gives_one_injury_at_most() -> None:
    """"then you suffer an Injury": two Hits that also render you Helpless are one Injury."""
    r = player(2, 2)
    assert (r.helpless, r.injuries_gained, r.injuries) == (True, 1, 1)


def test_the_injury_rule_holds_when_the_hits_kill() -> None:
    """"If you suffer two or more Hits in a single attack": the Injury is recorded even on
    a kill (Cheat Death would bring the character back with it)."""
    r = player(0, 7)
    assert (r.dead, r.injuries_gained) == (True, 1)
    # already Helpless: one more Hit kills but is neither two Hits nor "rendered Helpless"
    assert player(HELPLESS, 1).injuries_gained == 0


def test_a_third_injury_renders_helpless_for_the_fight() -> None:
    """"As soon as you take a third Injury you are immediately rendered Helpless and cannot
    recover during the combat itself"."""
    r = player(0, 2, injuries_before=2)
    assert (r.injuries, r.hits, r.helpless, r.helpless_for_fight, r.dead) == (3, HELPLESS, True, True, False)
    # the Helplessness the third Injury brings is no further Injury
    assert r.injuries_gained == 1


def test_helpless_for_the_fight_dies_to_the_next_hit() -> None:
    """"if a target is already Helpless and they take another Hit, then they die": even
    with their Hits healed, a third-Injury Helpless "cannot recover during the combat"."""
    r = player(1, 1, injuries_before=3, helpless_for_fight=True)
    assert r.dead


def test_entering_with_three_injuries_wounded_is_helpless() -> None:
    """"If you enter a fight with three Injuries and suffer any damage beyond the Grazed
    level, you are immediately rendered Helpless"."""
    r = player(0, 2, injuries_before=3)
    assert (r.hits, r.helpless, r.dead) == (HELPLESS, True, False)
    r = player(1, 1, injuries_before=3)  # Grazed, then Wounded: beyond the Grazed level
    assert (r.hits, r.helpless) == (HELPLESS, True)
    # rendered Helpless: "or you are rendered Helpless, then you suffer an Injury"
    assert r.injuries == 4
    # the text does not add "cannot recover" here
    assert not r.helpless_for_fight


def test_entering_with_three_injuries_a_graze_is_only_a_graze() -> None:
    """"suffer any damage beyond the Grazed level": a first Hit only Grazes."""
    r = player(0, 1, injuries_before=3)
    assert (r.hits, r.helpless, r.injuries_gained) == (1, False, 0)


# --- Penalty Points -------------------------------------------------------------------

ACTION = {"difficulty": "Normal", "dice": (8, 10), "cost": 1, "base_damage": 2}


def test_the_penalties_are_the_texts_list() -> None:
    """"Increase Roll Difficulty", "Reduce Dice Value", "Increase Action Point Cost",
    "Reduce Base Damage"."""
    assert PENALTIES == ("IncreaseDifficulty", "StepDownDie", "IncreaseCost", "ReduceDamage")


def test_increase_roll_difficulty() -> None:
    """"Increase the Difficulty Level of the Action ... by 1 level. For example, turning a
    Normal roll into a Difficult roll"."""
    paid = apply_penalties(["IncreaseDifficulty"], 1, **ACTION)
    assert paid == PenaltyPayment(difficulty="Difficult", dice=(8, 10), cost=1, base_damage=2)


def test_reduce_dice_value() -> None:
    """"Reduce the value of one of the dice you are rolling by one level": the player names
    the die; unnamed, the higher one."""
    assert apply_penalties(["StepDownDie:0"], 1, **ACTION).dice == (6, 10)
    assert apply_penalties(["StepDownDie:1"], 1, **ACTION).dice == (8, 8)
    assert apply_penalties(["StepDownDie"], 1, **ACTION).dice == (8, 8)
    assert apply_penalties(["StepDownDie"], 1, **{**ACTION, "dice": (12, 6)}).dice == (10, 6)
    # equal dice: the Skill die (the second), as Disadvantage steps it
    assert apply_penalties(["StepDownDie"], 1, **{**ACTION, "dice": (8, 8)}).dice == (8, 6)
    assert apply_penalties(["StepDownDie"], 1, **{**ACTION, "dice": (8, 20)}).dice == (8, 12)


def test_increase_action_point_cost() -> None:
    """"Increase the cost of the Action you are attempting to perform by 1 Action Point"."""
    assert apply_penalties(["IncreaseCost"], 1, **ACTION).cost == 2


def test_reduce_base_damage() -> None:
    """"Reduce the Base Damage of the attack you are performing by 1 Hit"."""
    assert apply_penalties(["ReduceDamage"], 1, **ACTION).base_damage == 1


def test_the_same_penalty_twice() -> None:
    """"You may apply the same Penalty twice if you wish, i.e. increasing the cost of an
    action by 2 Action Points"."""
    assert apply_penalties(["IncreaseCost", "IncreaseCost"], 2, **ACTION).cost == 3
    assert apply_penalties(["IncreaseDifficulty"] * 2, 2, **ACTION).difficulty == "Hard"
    assert apply_penalties(["StepDownDie:1"] * 2, 2, **ACTION).dice == (8, 6)
    assert apply_penalties(["ReduceDamage"] * 2, 2, **ACTION).base_damage == 0


def test_mixed_penalties() -> None:
    """"the Player is free to select the specific penalty or penalties of their choice"."""
    paid = apply_penalties(["ReduceDamage", "StepDownDie:0"], 2, **ACTION)
    assert paid == PenaltyPayment(difficulty="Normal", dice=(6, 10), cost=1, base_damage=1)
    assert apply_penalties([], 0, **ACTION) == PenaltyPayment(**ACTION)


def test_the_number_of_choices_must_match_the_points(codes: None) -> None:
    """"Each penalty in the list equates to 1 Penalty Point": one choice per point owed."""
    for choices, points in ((["IncreaseCost"], 2), (["IncreaseCost"] * 2, 1), ([], 1)):
        with pytest.raises(RuleViolation) as refused:
            apply_penalties(choices, points, **ACTION)
        assert refused.value.code == "penalty_points_owed"
        assert refused.value.details == {"owed": points, "chosen": len(choices)}


def test_unknown_penalties_are_refused(codes: None) -> None:
    """Only "The possible penalties ... listed below" can be chosen."""
    for choice in ("Bleed", "IncreaseCost:1", "StepDownDie:2", "StepDownDie:x"):
        with pytest.raises(RuleViolation) as refused:
            apply_penalties([choice], 1, **ACTION)
        assert refused.value.code == "unknown_penalty"


def test_a_penalty_that_changes_nothing_is_refused(codes: None) -> None:
    """"by 1 level" past Very Hard, "by one level" below a D4, "by 1 Hit" below 0: none
    exists, so that penalty cannot pay the point."""
    cases = [
        (["IncreaseDifficulty"], {"difficulty": "Very Hard"}),
        (["IncreaseDifficulty"] * 2, {"difficulty": "Hard"}),
        (["StepDownDie:0"], {"dice": (4, 10)}),
        (["StepDownDie"], {"dice": (4, 4)}),
        (["ReduceDamage"], {"base_damage": 0}),
        (["ReduceDamage"] * 3, {}),
    ]
    for choices, change in cases:
        with pytest.raises(RuleViolation) as refused:
            apply_penalties(choices, len(choices), **{**ACTION, **change})  # type: ignore[arg-type]
        assert refused.value.code == "penalty_not_applicable"


def test_the_result_is_a_fresh_value() -> None:
    dice = (8, 10)
    apply_penalties(["StepDownDie"], 1, difficulty="Normal", dice=dice, cost=1, base_damage=2)
    assert dice == (8, 10)


# --- Properties -----------------------------------------------------------------------


@given(
    hits_before=st.integers(0, 20),
    damage=st.integers(0, 12),
    is_player=st.booleans(),
    injuries_before=st.integers(0, 5),
    helpless_for_fight=st.booleans(),
)
def test_take_hits_properties(
    hits_before: int, damage: int, is_player: bool, injuries_before: int, helpless_for_fight: bool
) -> None:
    """Hits never fall; the dead are not Helpless; living Hits stay within the four;
    "beyond Helpless" is dead; an attack gives at most one Injury; Injuries only grow."""
    r = take_hits(
        hits_before, damage, is_player=is_player, injuries_before=injuries_before, helpless_for_fight=helpless_for_fight
    )
    assert r.hits >= hits_before
    assert 0 <= r.hits <= 20
    assert not (r.dead and r.helpless)
    assert r.dead == (r.hits > HELPLESS)
    if not r.dead:
        assert r.helpless == (r.hits == HELPLESS or r.helpless_for_fight)
    assert r.injuries_gained in (0, 1)
    assert r.injuries == injuries_before + r.injuries_gained
    assert r.helpless_for_fight >= helpless_for_fight
    if damage == 0:
        assert (r.hits, r.injuries_gained) == (hits_before, 0)
    if damage >= 1 and (hits_before >= HELPLESS or helpless_for_fight):
        assert r.dead
    if hits_before + damage <= HELPLESS and not helpless_for_fight:
        assert not r.dead


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    choices=st.lists(
        st.sampled_from([*PENALTIES, "StepDownDie:0", "StepDownDie:1"]),
        max_size=4,
    ),
    difficulty=st.sampled_from(["Easy", "Normal", "Difficult", "Hard", "Very Hard"]),
    dice=st.tuples(st.sampled_from([4, 6, 8, 10, 12, 20]), st.sampled_from([4, 6, 8, 10, 12, 20])),
    cost=st.integers(0, 6),
    base_damage=st.integers(0, 4),
)
def test_penalty_properties(
    codes: None, choices: list[str], difficulty: str, dice: tuple[int, int], cost: int, base_damage: int
) -> None:
    """Paying never makes a cost or Base Damage negative, never makes the action cheaper or
    easier, and each point paid changes the action."""
    try:
        paid = apply_penalties(
            choices, len(choices), difficulty=difficulty, dice=dice, cost=cost, base_damage=base_damage
        )
    except RuleViolation as refused:
        assert refused.code == "penalty_not_applicable"
        return
    assert paid.cost >= cost >= 0
    assert 0 <= paid.base_damage <= base_damage
    ladder = ["Easy", "Normal", "Difficult", "Hard", "Very Hard"]
    steps = ladder.index(paid.difficulty) - ladder.index(difficulty)
    rungs = sum(_rung(a) - _rung(b) for a, b in zip(dice, paid.dice, strict=True))
    assert steps + rungs + (paid.cost - cost) + (base_damage - paid.base_damage) == len(choices)


def _rung(sides: int) -> int:
    return [4, 6, 8, 10, 12, 20].index(sides)
