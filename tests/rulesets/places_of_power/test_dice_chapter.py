"""The Places of Power dice chapter (places-of-power-dice.txt), through the decider.

Every command goes through ``PlacesOfPower.decide`` and ``evolve`` (``tests.rulesets.places_of_power.fight``)
with reported faces (``ReportedDice``: the faces are forced, so each outcome is known) or
seeded dice (``SeededDice``: the faces are re-derived from the seed and checked against
the rules). Nothing here needs a fight in progress: checks, Hero Points and rests are
commands of an encounter at any stage.

Mira's sheet (``SHEET``) gives every pair of dice the tests need:

- Attributes: Strength D6, Stamina D8, Agility D10, Dexterity D12, Intelligence D4,
  Perception D6, Empathy D8, Charisma D10.
- Skills: Athletics D4, Brawling D6, Deception D8, Knife D10, Medical D12, Lore D20;
  Mere: Rosmere D10, Vermere D8, Blumere D12.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from domain.core.dice import seeded_face
from domain.core.encounter import AddCombatant, Command, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.check_rolls import (
    CallForCheck,
    CheckCalled,
    CheckRolled,
    ConditionRemoved,
    ConditionTaken,
    ReRoll,
    RollCheck,
    SkillMarked,
)
from domain.places_of_power.checks import DIFFICULTIES, OUTCOMES, judge, odds
from domain.places_of_power.conditions import ApplyCondition, RemoveCondition
from domain.places_of_power.contests import Contestant, OpposedRoll, OpposedRolled, WillpowerRoll, WillpowerTested
from domain.places_of_power.hero_points import (
    AwardHeroPoint,
    CheckEased,
    CheckOutcomeChanged,
    HeroPointAwarded,
    HeroPointSpent,
    SessionStarted,
    SpendHeroPoint,
    StartSession,
)
from domain.places_of_power.hits import HitsSet, SetHits
from domain.places_of_power.levelling import LongRest, LongRestTaken, MarkCleared, SkillLevelRolled
from domain.places_of_power.marks import SkillMarked
from domain.places_of_power.ruleset import PlacesOfPower
from domain.places_of_power.sheet import ATTRIBUTES, CONDITION_OF, Sheet
from domain.places_of_power.table import rules
from tests.rulesets.places_of_power.fight import ENCOUNTER_ID, SEED, Fight
from tests.rulesets.scenario import given

ATTRS = {
    "strength": "D6", "stamina": "D8", "agility": "D10", "dexterity": "D12",
    "intelligence": "D4", "perception": "D6", "empathy": "D8", "charisma": "D10",
}
SKILLS = {"Athletics": "D4", "Brawling": "D6", "Deception": "D8", "Knife": "D10", "Medical": "D12", "Lore": "D20"}
MERE = {"Rosmere": "D10", "Vermere": "D8", "Blumere": "D12"}
SHEET: dict[str, Any] = {
    "attributes": ATTRS, "skills": SKILLS, "mere_skills": MERE, "willpower": 12, "occupation": "Smuggler",
    "initiative_modifier": 2,
}

# --------------------------------------------------------------------------- helpers


def fight(*, dice_policy: str = "mixed", **sheet: Any) -> Fight:
    """Mira (a player) with ``SHEET`` (fields overridden by ``sheet``) and a Bandit (an NPC)."""
    f = Fight(dice_policy=dice_policy)
    join(f, "mira", {**SHEET, **sheet})
    join(f, "bandit", {"attributes": {"strength": "D8"}, "skills": {"Brawling": "D8"}, "hero_points": 2}, gm=True)
    return f


def join(f: Fight, cid: str, sheet: dict[str, Any], *, gm: bool = False) -> None:
    f.send(AddCombatant(combatant_id=cid, name=cid.capitalize(), side="enemies" if gm else "party",
                        controller="gm" if gm else "player", sheet=sheet))


def sheet_of(f: Fight, cid: str = "mira") -> Sheet:
    s = f.state.combatants[cid].sheet
    assert isinstance(s, Sheet)
    return s


def call(f: Fight, attribute: str, skill: str, difficulty: str = "Normal", cid: str = "mira", **flags: Any) -> int:
    (called,) = f.send(CallForCheck(combatant_id=cid, attribute=attribute, skill=skill, difficulty=difficulty,
                                    **flags))
    assert isinstance(called, CheckCalled)
    assert called.check == f.state.version  # the check's id is the version of the event that called it
    return called.check


def roll(f: Fight, check: int, faces: list[int] | None, cid: str = "mira") -> list[Event]:
    return f.send(RollCheck(combatant_id=cid, check=check, dice=faces))


def check(f: Fight, attribute: str, skill: str, difficulty: str, faces: list[int] | None,
          cid: str = "mira", **flags: Any) -> CheckRolled:
    """Call a check and roll it; the CheckRolled event."""
    rolled = roll(f, call(f, attribute, skill, difficulty, cid, **flags), faces, cid)[0]
    assert isinstance(rolled, CheckRolled)
    return rolled


def refused(f: Fight, command: Command, code: str) -> RuleViolation:
    """The command is refused with ``code`` and nothing changes."""
    before, count = f.state, len(f.events)
    with pytest.raises(RuleViolation) as info:
        f.send(command)
    assert info.value.code == code, info.value.message
    assert f.state is before and len(f.events) == count
    return info.value


def sizes(rolled: CheckRolled) -> list[int]:
    return [d.sides for d in rolled.dice]


def by_the_text(faces: tuple[int, ...], dice: tuple[int, ...], difficulty: str) -> str:
    """The outcome class as the rules text reads, written out independently of ``judge``."""
    target = {"Easy": 7, "Normal": 9, "Difficult": 13, "Hard": 16, "Very Hard": 20}[difficulty]
    following = {"Easy": 9, "Normal": 13, "Difficult": 16, "Hard": 20}.get(difficulty)
    total = sum(faces)
    same = any(faces[i] == faces[j] for i in range(len(faces)) for j in range(i + 1, len(faces)))
    if total < target:
        return "Critical Failure" if same else "Failure"
    if (same and total > target) or (faces[0] == dice[0] and faces[1] == dice[1]):
        return "Critical Success"
    if following is not None and total >= following:
        return "Full Success"
    return "Partial Success"


# ---------------------------------------------------------------------- the sheet


def test_a_full_sheet_is_kept() -> None:
    """"Every player character has 8 Attributes, 22 Core Skills, 12 Weapon Skills, and 7
    Mere Skills. Each of these has a dice value associated with it, ranging from D4 to D12
    (some Skills may reach D20 later in the game)."

    A sheet of that size, with every die from D4 to D12 (and one D20 skill), is kept as
    sent, with Willpower, occupation and Initiative Modifier.
    """
    ladder = ["D4", "D6", "D8", "D10", "D12"]
    core = {f"Core {i}": ladder[i % 5] for i in range(22)} | {"Core 21": "D20"}
    weapons = {f"Weapon {i}": ladder[i % 5] for i in range(12)}
    mere = {f"Mere {i}": ladder[i % 5] for i in range(7)}
    f = Fight()
    join(f, "mira", {"attributes": ATTRS, "skills": core | weapons, "mere_skills": mere, "willpower": 14,
                     "occupation": "Ferryman", "initiative_modifier": -1, "hero_points": 1})
    s = sheet_of(f)
    assert {a: s.attribute_die(a) for a in ATTRIBUTES} == ATTRS
    assert len(s.skills) == 34 and len(s.mere_skills) == 7
    assert s.skills["Core 21"] == "D20" and s.skills["Weapon 3"] == "D10" and s.mere_skills["Mere 6"] == "D6"
    assert (s.willpower, s.occupation, s.initiative_modifier, s.hero_points) == (14, "Ferryman", -1, 1)
    assert (s.conditions, s.marked_skills, s.mere_activation_points, s.hits) == ([], [], 0, 0)


def test_the_eight_attributes_and_their_conditions() -> None:
    """"For each of the eight core Attributes there is an associated Condition ... Strength
    – Weakened ... Stamina – Exhausted ... Agility – Dizzy ... Dexterity – Numb ...
    Intelligence – Dazed ... Perception – Distracted ... Empathy – Angry ... Charisma –
    Anxious"."""
    assert ATTRIBUTES == (
        "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
    )
    assert CONDITION_OF == {
        "strength": "Weakened", "stamina": "Exhausted", "agility": "Dizzy", "dexterity": "Numb",
        "intelligence": "Dazed", "perception": "Distracted", "empathy": "Angry", "charisma": "Anxious",
    }


@pytest.mark.parametrize("die", ["D4", "D6", "D8", "D10", "D12"])
def test_every_attribute_die_from_d4_to_d12_is_accepted(die: str) -> None:
    """"Each of these has a dice value associated with it, ranging from D4 to D12"."""
    f = Fight()
    join(f, "mira", {"attributes": dict.fromkeys(ATTRIBUTES, die)})
    assert {sheet_of(f).attribute_die(a) for a in ATTRIBUTES} == {die}


@pytest.mark.parametrize("die", ["D4", "D6", "D8", "D10", "D12", "D20"])
def test_every_skill_die_from_d4_to_d20_is_accepted(die: str) -> None:
    """"ranging from D4 to D12 (some Skills may reach D20 later in the game)"."""
    f = Fight()
    join(f, "mira", {"skills": {"Deception": die}, "mere_skills": {"Rosmere": die}})
    assert (sheet_of(f).skills, sheet_of(f).mere_skills) == ({"Deception": die}, {"Rosmere": die})


def test_a_d7_attribute_is_refused_naming_the_field() -> None:
    """"Places of Power makes use of four, six, eight, ten, twelve, and twenty sided dice":
    there is no D7."""
    f = Fight()
    e = refused(f, AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player",
                                sheet={"attributes": {**ATTRS, "strength": "D7"}}), "invalid_sheet")
    assert "D7" in e.message and "attributes.strength" in e.message
    assert "mira" not in f.state.combatants


def test_an_attribute_d20_is_refused() -> None:
    """"ranging from D4 to D12 (some Skills may reach D20 later in the game)": Skills, not
    Attributes."""
    f = Fight()
    e = refused(f, AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player",
                                sheet={"attributes": {"agility": "D20"}}), "invalid_sheet")
    assert "D20" in e.message and "attributes.agility" in e.message


@pytest.mark.parametrize("group", ["skills", "mere_skills"])
def test_a_d7_skill_is_refused_naming_the_skill(group: str) -> None:
    """"Places of Power makes use of four, six, eight, ten, twelve, and twenty sided dice":
    a D7 skill is refused, and the message says which of the sheet's skills is wrong (a
    full sheet has 41 of them)."""
    f = Fight()
    skills = {"Athletics": "D4", "Deception": "D7", "Knife": "D10"}
    e = refused(f, AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player",
                                sheet={group: skills}), "invalid_sheet")
    assert "D7" in e.message
    assert "Deception" in e.message, e.message


def test_an_unknown_attribute_is_refused_naming_it() -> None:
    """"Every player character has 8 Attributes": a ninth (Luck) is refused by name."""
    f = Fight()
    e = refused(f, AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player",
                                sheet={"attributes": {**ATTRS, "luck": "D6"}}), "invalid_sheet")
    assert "luck" in e.message and "attributes" in e.message


# ------------------------------------------------------------------ difficulties


def test_the_difficulty_values() -> None:
    """"Easy - 7 ... Normal - 9 ... Difficult - 13 ... Hard - 16 ... Very Hard - 20"."""
    assert DIFFICULTIES == {"Easy": 7, "Normal": 9, "Difficult": 13, "Hard": 16, "Very Hard": 20}


@pytest.mark.parametrize(("difficulty", "at", "below"), [
    ("Easy", [3, 4], [2, 4]),
    ("Normal", [4, 5], [3, 5]),
    ("Difficult", [6, 7], [5, 7]),
    ("Hard", [7, 9], [6, 9]),
    ("Very Hard", [9, 11], [8, 11]),
])
def test_each_difficulty_needs_its_value_or_higher(difficulty: str, at: list[int], below: list[int]) -> None:
    """"Each difficulty rating represents a value you need to roll equal to or higher than
    in order to successfully complete the task" and "If you roll less than the targe value
    then that counts as a Failure".

    Dexterity D12 + Lore D20: the value itself succeeds, one below fails.
    """
    f = fight()
    hit = check(f, "dexterity", "Lore", difficulty, at)
    miss = check(f, "dexterity", "Lore", difficulty, below)
    assert (hit.total, hit.outcome) == (DIFFICULTIES[difficulty], "Partial Success")
    assert (miss.total, miss.outcome, miss.levels) == (DIFFICULTIES[difficulty] - 1, "Failure", 0)


# ------------------------------------------------------------------ outcome classes

OUTCOME_CASES = [
    # id, attribute, skill (dice), difficulty, faces, outcome, levels, the rule quoted
    ("failure", "strength", "Deception", "Normal", [3, 5], "Failure", 0,
     "If you roll less than the targe value then that counts as a Failure"),
    ("exactly the target", "strength", "Deception", "Normal", [4, 5], "Partial Success", 0,
     "a number between the exact value required and one below the value of the next difficulty level"),
    ("one below the next level", "strength", "Deception", "Normal", [5, 7], "Partial Success", 0,
     "for example with Normal difficulty that would be a number between 9 and 12"),
    ("the next level's value", "strength", "Deception", "Normal", [6, 7], "Full Success", 1,
     "equal to or greater than the target value for the next level of difficulty up"),
    ("Difficult then Hard", "stamina", "Knife", "Difficult", [7, 9], "Full Success", 1,
     "equal to or greater than the target value for the next level of difficulty up"),
    ("Hard then Very Hard", "dexterity", "Lore", "Hard", [9, 11], "Full Success", 1,
     "equal to or greater than the target value for the next level of difficulty up"),
    ("doubles over the target", "strength", "Deception", "Normal", [5, 5], "Critical Success", 0,
     "both dice land on the same number, and the total value of the two dice is over the target value"),
    ("doubles over the target, a level up", "strength", "Deception", "Easy", [5, 5], "Critical Success", 1,
     "both dice land on the same number, and the total value of the two dice is over the target value"),
    ("doubles exactly at the target", "stamina", "Knife", "Hard", [8, 8], "Partial Success", 0,
     "the total value of the two dice is over the target value"),
    ("doubles exactly at Very Hard", "dexterity", "Lore", "Very Hard", [10, 10], "Partial Success", 0,
     "the total value of the two dice is over the target value"),
    ("doubles below the target", "strength", "Deception", "Normal", [4, 4], "Critical Failure", 0,
     "if you roll the same value on both dice, and the total value is below the target value"),
    ("snake eyes at Easy", "strength", "Deception", "Easy", [1, 1], "Critical Failure", 0,
     "if you roll the same value on both dice, and the total value is below the target value"),
    ("both dice at maximum", "strength", "Deception", "Normal", [6, 8], "Critical Success", 1,
     "It also counts as a Critical Success if you roll the maximum value possible on both dice."),
    ("both at maximum, exactly the target", "intelligence", "Medical", "Hard", [4, 12], "Critical Success", 0,
     "It also counts as a Critical Success if you roll the maximum value possible on both dice."),
    ("both at maximum, Very Hard", "dexterity", "Lore", "Very Hard", [12, 20], "Critical Success", 0,
     "It also counts as a Critical Success if you roll the maximum value possible on both dice."),
    ("doubles over Very Hard", "dexterity", "Lore", "Very Hard", [11, 11], "Critical Success", 0,
     "both dice land on the same number, and the total value of the two dice is over the target value"),
    ("Very Hard exactly", "dexterity", "Lore", "Very Hard", [9, 11], "Partial Success", 0,
     "a number between the exact value required and one below the value of the next difficulty level"),
    ("far over Very Hard: no next level", "dexterity", "Lore", "Very Hard", [12, 19], "Partial Success", 0,
     "a number between the exact value required and one below the value of the next difficulty level"),
    ("one below Very Hard", "dexterity", "Lore", "Very Hard", [8, 11], "Failure", 0,
     "If you roll less than the targe value then that counts as a Failure"),
]


@pytest.mark.parametrize(("attribute", "skill", "difficulty", "faces", "outcome", "levels", "rule"),
                         [c[1:] for c in OUTCOME_CASES], ids=[c[0] for c in OUTCOME_CASES])
def test_outcome_classes(attribute: str, skill: str, difficulty: str, faces: list[int], outcome: str,
                         levels: int, rule: str) -> None:
    """Each case quotes its rule (``rule``); together: "If you roll less than the targe value
    then that counts as a Failure", "a number between the exact value required and one
    below the value of the next difficulty level ... counts as a Partial Success", "equal
    to or greater than the target value for the next level of difficulty up, then that
    counts as a Full Success", "If you roll and both dice land on the same number, and the
    total value of the two dice is over the target value of the Difficulty Level required,
    then that counts as a Critical Success. It also counts as a Critical Success if you
    roll the maximum value possible on both dice." and "if you roll the same value on both
    dice, and the total value is below the target value of the Difficulty Level required,
    then that counts as a Critical Failure"."""
    assert rule
    rolled = check(fight(), attribute, skill, difficulty, faces)
    assert [d.face for d in rolled.dice] == faces and rolled.total == sum(faces)
    assert [d.sides for d in rolled.dice] == [int(ATTRS[attribute][1:]), int(SKILLS[skill][1:])]
    assert (rolled.difficulty, rolled.outcome, rolled.levels) == (difficulty, outcome, levels)
    assert all(d.source == "reported" for d in rolled.dice)


def test_both_dice_at_maximum_below_the_target_is_no_success() -> None:
    """"It also counts as a Critical Success if you roll the maximum value possible on both
    dice" against "If you roll less than the targe value then that counts as a Failure"
    and "if you roll the same value on both dice, and the total value is below the target
    value ... Critical Failure".

    Where the two dice cannot reach the target at all the text contradicts itself (a D4 +
    D4 showing 4 and 4 is both "the maximum value possible on both dice" and "the same
    value on both dice ... below the target"); the engine lets the target decide: below
    it, no success of any kind.
    """
    f = fight()
    unmatched = check(f, "intelligence", "Brawling", "Difficult", [4, 6])  # D4 + D6: 10 < 13
    matched = check(f, "intelligence", "Athletics", "Difficult", [4, 4])  # D4 + D4: 8 < 13
    assert (unmatched.outcome, matched.outcome) == ("Failure", "Critical Failure")


@pytest.mark.parametrize(("attribute", "skill"), [("strength", "Deception"), ("agility", "Knife"),
                                                   ("intelligence", "Medical")])
@pytest.mark.parametrize("difficulty", list(DIFFICULTIES))
def test_every_face_of_a_pair_is_classed_as_the_text_reads(attribute: str, skill: str, difficulty: str) -> None:
    """Every way two dice can fall (D6 + D8, D10 + D10, D4 + D12), at every difficulty,
    through the decider: the outcome is the one the text gives ("counts as a Failure",
    "counts as a Partial Success", "counts as a Full Success", "counts as a Critical
    Success", "counts as a Critical Failure"), and the levels count the difficulty values
    above the target that the total reached."""
    f = fight()
    a, s = int(ATTRS[attribute][1:]), int(SKILLS[skill][1:])
    target = DIFFICULTIES[difficulty]
    for faces in product(range(1, a + 1), range(1, s + 1)):
        rolled = check(f, attribute, skill, difficulty, list(faces))
        assert rolled.outcome == by_the_text(faces, (a, s), difficulty), faces
        reached = 0 if sum(faces) < target else sum(1 for v in DIFFICULTIES.values() if target < v <= sum(faces))
        assert rolled.levels == reached, faces


def test_the_knife_example_16_at_normal_gives_two_levels() -> None:
    """places-of-power-combat.txt: "A Knife has a Base Damage of 2 and a Normal (9)
    Difficulty to hit at this Range." ... "You roll 16. This reaches two additional
    Difficulty Levels: Difficult (13) and Hard (16). You therefore gain 2 extra
    Successes."

    Stamina D8 + Knife D10 showing 7 and 9 at Normal.
    """
    rolled = check(fight(), "stamina", "Knife", "Normal", [7, 9])
    assert (rolled.total, rolled.outcome, rolled.levels) == (16, "Full Success", 2)


def test_levels_above_the_target_count_every_level_reached() -> None:
    """"each additional level gives you one extra Success" (places-of-power-combat.txt):
    20 at Easy reaches Normal, Difficult, Hard and Very Hard; 12 at Normal reaches none;
    32 at Very Hard none (there is no level above Very Hard)."""
    f = fight()
    assert check(f, "dexterity", "Lore", "Easy", [9, 11]).levels == 4
    assert check(f, "dexterity", "Lore", "Normal", [5, 7]).levels == 0
    assert check(f, "dexterity", "Lore", "Difficult", [7, 9]).levels == 1
    assert check(f, "dexterity", "Lore", "Very Hard", [12, 20]).levels == 0


# ----------------------------------------------------------- Advantage, Disadvantage


def test_advantage_steps_the_lower_die_up() -> None:
    """"When you roll at Advantage you Step Up the lowest of the two dice you are rolling by
    one level. So a D6 would become a D8, or a D10 becomes a D12."

    Strength D6 + Deception D8: the Attribute die becomes a D8 (an 8 on it is accepted);
    Dexterity D12 + Knife D10: the Skill die becomes a D12.
    """
    f = fight()
    up = check(f, "strength", "Deception", "Normal", [8, 7], advantage=True)
    assert (sizes(up), up.advantage, up.disadvantage) == ([8, 8], True, False)
    skill_up = check(f, "dexterity", "Knife", "Normal", [3, 12], advantage=True)
    assert sizes(skill_up) == [12, 12]
    assert (skill_up.total, skill_up.outcome, skill_up.levels) == (15, "Full Success", 1)


def test_disadvantage_steps_the_higher_die_down() -> None:
    """"When rolling at a Disadvantage, you do the opposite, Stepping Down the highest of
    your two dice by one level. So a D12 becomes a D10, and a D8 becomes a D6."

    Strength D6 + Deception D8: the Skill die becomes a D6 (a 7 on it is refused);
    Dexterity D12 + Brawling D6: the Attribute die becomes a D10.
    """
    f = fight()
    c = call(f, "strength", "Deception", disadvantage=True)
    e = refused(f, RollCheck(combatant_id="mira", check=c, dice=[3, 7]), "die_face_out_of_range")
    assert "7" in e.message
    down = roll(f, c, [3, 6])[0]
    assert isinstance(down, CheckRolled)
    assert (sizes(down), down.advantage, down.disadvantage) == ([6, 6], False, True)
    attr_down = check(f, "dexterity", "Brawling", "Normal", [10, 2], disadvantage=True)
    assert sizes(attr_down) == [10, 6]


def test_advantage_and_disadvantage_together_cancel_out() -> None:
    """"When you roll at Advantage you Step Up the lowest of the two dice" and "When rolling
    at a Disadvantage, you do the opposite": one step up and one down leave the dice as
    they are."""
    both = check(fight(), "strength", "Deception", "Normal", [2, 8], advantage=True, disadvantage=True)
    assert (sizes(both), both.advantage, both.disadvantage) == ([6, 8], False, False)


def test_stepping_stops_at_the_ends_of_the_ladder() -> None:
    """"four, six, eight, ten, twelve, and twenty sided dice": below a D4 there is nothing
    (Intelligence D4 + Athletics D4 at Disadvantage stays D4 + D4) and a D12 steps up to
    the D20 (Dexterity D12 + Medical D12 at Advantage: one of them becomes a D20)."""
    f = fight()
    assert sizes(check(f, "intelligence", "Athletics", "Easy", [1, 2], disadvantage=True)) == [4, 4]
    assert sorted(sizes(check(f, "dexterity", "Medical", "Easy", [1, 2], advantage=True))) == [12, 20]


# --------------------------------------------------------------------- re-rolls

PAIRS = list(CONDITION_OF.items())


@pytest.mark.parametrize(("attribute", "condition"), PAIRS, ids=[a for a, _ in PAIRS])
def test_a_reroll_takes_the_attributes_condition_and_is_at_disadvantage(attribute: str, condition: str) -> None:
    """"if you choose to do this then you immediately take a Condition against the Attribute
    you used in the roll. Taking a Condition means that all rolls using that Attribute,
    until the Condition is removed, are performed at Disadvantage, including this re-roll."

    Every Attribute at D8 with Brawling D8: the re-roll is a D8 + D6.
    """
    f = Fight()
    join(f, "vera", {"attributes": dict.fromkeys(ATTRIBUTES, "D8"), "skills": {"Brawling": "D8"}})
    c = call(f, attribute, "Brawling", cid="vera")
    first = roll(f, c, [2, 3], cid="vera")
    assert [type(e) for e in first] == [CheckRolled] and first[0].outcome == "Failure"  # type: ignore[attr-defined]
    taken, again = f.send(ReRoll(combatant_id="vera", check=c, dice=[5, 4]))
    assert taken == ConditionTaken(combatant_id="vera", condition=condition, reason=f"re-roll of check {c}")
    assert isinstance(again, CheckRolled)
    assert (sizes(again), again.disadvantage, again.reroll) == ([8, 6], True, True)
    assert (again.total, again.outcome) == (9, "Partial Success")
    assert sheet_of(f, "vera").conditions == [condition]
    record = rules(f.state).checks[str(c)]
    assert (record.outcome, record.rerolled) == ("Partial Success", True)


def test_failing_the_reroll_is_a_critical_failure() -> None:
    """"Furthermore, should you fail the re-roll, even if it is just a regular failure, it
    counts as a Critical Failure." (And a Critical Failure marks the skill: "Whenever you
    make a roll that results in either a Critical Success or a Critical Failure, mark the
    box next to the Skill you used".)"""
    f = fight()
    c = call(f, "stamina", "Knife")
    roll(f, c, [2, 3])
    events = f.send(ReRoll(combatant_id="mira", check=c, dice=[2, 3]))
    assert [type(e) for e in events] == [ConditionTaken, CheckRolled, SkillMarked]
    again = events[1]
    assert isinstance(again, CheckRolled)
    assert (again.total, again.outcome, again.levels) == (5, "Critical Failure", 0)
    assert sizes(again) == [8, 8]  # Stamina D8 + Knife D10 at Disadvantage
    assert events[2] == SkillMarked(combatant_id="mira", skill="Knife")
    assert rules(f.state).checks[str(c)].outcome == "Critical Failure"


def test_a_reroll_only_after_a_non_critical_failure_and_only_once() -> None:
    """"As long as you did not fail Critically then you have the option to attempt a single
    re-roll.\""""
    f = fight()
    called = call(f, "strength", "Deception")
    refused(f, ReRoll(combatant_id="mira", check=called, dice=[1, 2]), "check_not_rolled")
    partial = call(f, "strength", "Deception")
    roll(f, partial, [4, 5])
    refused(f, ReRoll(combatant_id="mira", check=partial, dice=[1, 2]), "reroll_not_allowed")
    critical = call(f, "strength", "Deception")
    roll(f, critical, [3, 3])
    e = refused(f, ReRoll(combatant_id="mira", check=critical, dice=[1, 2]), "reroll_not_allowed")
    assert "Critical Failure" in e.message
    success = call(f, "strength", "Deception")
    roll(f, success, [5, 5])
    refused(f, ReRoll(combatant_id="mira", check=success, dice=[1, 2]), "reroll_not_allowed")
    failed = call(f, "strength", "Deception")
    roll(f, failed, [2, 3])
    f.send(ReRoll(combatant_id="mira", check=failed, dice=[4, 5]))  # D6 + D6: 9, a Partial Success
    refused(f, ReRoll(combatant_id="mira", check=failed, dice=[1, 2]), "already_rerolled")
    refused(f, ReRoll(combatant_id="bandit", check=failed, dice=[1, 2]), "not_your_check")


def test_a_reroll_with_the_condition_already_taken_takes_nothing_more() -> None:
    """"Taking a Condition means that all rolls using that Attribute, until the Condition is
    removed, are performed at Disadvantage, including this re-roll." Already Weakened:
    the first roll and the re-roll are at Disadvantage, and no second Weakened is taken."""
    f = fight()
    f.send(ApplyCondition(combatant_id="mira", condition="Weakened"))
    c = call(f, "strength", "Deception")
    first = roll(f, c, [2, 3])[0]
    assert isinstance(first, CheckRolled) and sizes(first) == [6, 6] and first.disadvantage
    (again,) = f.send(ReRoll(combatant_id="mira", check=c, dice=[6, 5]))
    assert isinstance(again, CheckRolled) and sizes(again) == [6, 6] and again.outcome == "Partial Success"
    assert sheet_of(f).conditions == ["Weakened"]


# ------------------------------------------------------------------- Conditions


@pytest.mark.parametrize("removal", ["gm", "hero_point", "long_rest"])
def test_a_condition_puts_every_roll_with_its_attribute_at_disadvantage_until_removed(removal: str) -> None:
    """"Once applied, any rolls made using the associated Attribute are done so at a
    Disadvantage, until the condition can be removed, usually by Resting."

    Weakened: Strength checks (D6 + D8 becomes D6 + D6) are at Disadvantage, an Agility
    check is not; removed by the GM, a Hero Point ("Removing a Condition") or a Long Rest,
    Strength rolls are as before.
    """
    f = fight(hero_points=1)
    (taken,) = f.send(ApplyCondition(combatant_id="mira", condition="Weakened", reason="poison"))
    assert taken == ConditionTaken(combatant_id="mira", condition="Weakened", reason="poison")
    refused(f, ApplyCondition(combatant_id="mira", condition="Weakened"), "condition_present")
    weak = check(f, "strength", "Deception", "Normal", [1, 2])
    assert (sizes(weak), weak.disadvantage) == ([6, 6], True)
    agile = check(f, "agility", "Deception", "Normal", [10, 2])
    assert (sizes(agile), agile.disadvantage) == ([10, 8], False)
    if removal == "gm":
        events = f.send(RemoveCondition(combatant_id="mira", condition="Weakened"))
        assert events == [ConditionRemoved(combatant_id="mira", condition="Weakened", reason="the GM")]
    elif removal == "hero_point":
        events = f.send(SpendHeroPoint(combatant_id="mira", use="RemoveCondition", condition="Weakened"))
        assert events[1] == ConditionRemoved(combatant_id="mira", condition="Weakened", reason="Hero Point")
    else:
        assert f.send(LongRest()) == [LongRestTaken()]
    assert sheet_of(f).conditions == []
    again = check(f, "strength", "Deception", "Normal", [1, 8])
    assert (sizes(again), again.disadvantage) == ([6, 8], False)
    refused(f, RemoveCondition(combatant_id="mira", condition="Weakened"), "no_condition")


def test_a_condition_and_an_advantage_cancel_out() -> None:
    """"all rolls using that Attribute ... are performed at Disadvantage" and "When you roll
    at Advantage you Step Up the lowest of the two dice": Dizzy, an Agility check called
    at Advantage is rolled on the sheet's dice (Agility D10 + Deception D8)."""
    f = fight()
    f.send(ApplyCondition(combatant_id="mira", condition="Dizzy"))
    rolled = check(f, "agility", "Deception", "Normal", [10, 8], advantage=True)
    assert (sizes(rolled), rolled.advantage, rolled.disadvantage) == ([10, 8], False, False)


# -------------------------------------------------------------------- occupation

OCCUPATION_CASES = [
    ("a pair with the occupation die, over the target", [3, 6, 3], 12, "Critical Success", 0),
    ("a pair on the first two, over the target", [5, 5, 2], 12, "Critical Success", 0),
    ("a pair, over a level", [5, 4, 5], 14, "Critical Success", 1),
    ("a pair with the occupation die, below the target", [1, 4, 1], 6, "Critical Failure", 0),
    ("all three the same, below the target", [2, 2, 2], 6, "Critical Failure", 0),
    ("all three the same, over the target", [5, 5, 5], 15, "Critical Success", 1),
    ("a pair exactly at the target", [3, 3, 3], 9, "Partial Success", 0),
    ("no pair, the next level's value", [5, 6, 4], 15, "Full Success", 1),
    ("no pair, at the target", [2, 4, 3], 9, "Partial Success", 0),
    ("no pair, below the target", [1, 2, 3], 6, "Failure", 0),
]


@pytest.mark.parametrize(("faces", "total", "outcome", "levels"), [c[1:] for c in OCCUPATION_CASES],
                         ids=[c[0] for c in OCCUPATION_CASES])
def test_occupation_rolls_add_a_d6_and_any_two_matching_is_critical(faces: list[int], total: int, outcome: str,
                                                                    levels: int) -> None:
    """"you can roll an additional D6 on top of the dice you would usually roll. As well as
    adding to the overall value rolled, this dice is also included when identifying
    Critical Successes and Critical Failures. If you roll the same number on any two of the
    three dice rolled, you have rolled Critically, with the overall value deciding whether
    it is a Critical Success or a Critical Failure. Rolling the same value on all three
    dice does not add anything further to the equation."

    Strength D6 + Deception D8 + the occupation D6 at Normal.
    """
    rolled = check(fight(), "strength", "Deception", "Normal", faces, occupation=True)
    assert sizes(rolled) == [6, 8, 6]
    assert rolled.dice[2].purpose.endswith("occupation")
    assert (rolled.total, rolled.outcome, rolled.levels) == (total, outcome, levels)


def test_an_occupation_roll_needs_its_third_die() -> None:
    """"you can roll an additional D6 on top of the dice you would usually roll": two faces
    are not enough, a 7 is not on a D6."""
    f = fight()
    c = call(f, "strength", "Deception", occupation=True)
    e = refused(f, RollCheck(combatant_id="mira", check=c, dice=[3, 4]), "dice_missing")
    assert "d6" in e.message
    refused(f, RollCheck(combatant_id="mira", check=c, dice=[3, 4, 7]), "die_face_out_of_range")


# -------------------------------------------------------------------- opposed rolls


def opposed(f: Fight, faces: list[int] | None, *, first_bonus: int = 0) -> OpposedRolled:
    (event, *_) = f.send(OpposedRoll(  # (and the Skills a roll at the maximum on both dice marks)
        first=Contestant(combatant_id="mira", attribute="strength", skill="Brawling", bonus=first_bonus),
        second=Contestant(combatant_id="bandit", attribute="strength", skill="Brawling"),
        reason="arm wrestling", dice=faces,
    ))
    assert isinstance(event, OpposedRolled)
    return event


def test_opposed_rolls_the_higher_total_wins() -> None:
    """"In this situation you and the GM would both roll Brawling + Strength, and the person
    who rolls the highest wins the match."

    Mira: Strength D6 + Brawling D6; the Bandit: Strength D8 + Brawling D8; the faces are
    reported Mira's two first.
    """
    f = fight()
    won = opposed(f, [5, 6, 5, 5])
    assert [s.total for s in won.sides] == [11, 10]
    assert [[d.sides for d in s.dice] for s in won.sides] == [[6, 6], [8, 8]]
    assert (won.winner, won.by_a_level, won.reason) == ("mira", False, "arm wrestling")
    lost = opposed(f, [1, 2, 8, 8])
    assert (lost.winner, [s.total for s in lost.sides]) == ("bandit", [3, 16])


def test_an_opposed_roll_at_the_maximum_on_both_dice_marks_the_skill() -> None:
    """Levelling Up Skills: "Whenever you make a roll that results in either a Critical Success or a
    Critical Failure, mark the box next to the Skill you used". An opposed roll has no target to be over
    or below; the dice chapter's one Critical Success without one: "It also counts as a Critical Success
    if you roll the maximum value possible on both dice". The Bandit's 8 + 8 (D8s) marks his Brawling;
    Mira's 1 + 2 marks nothing."""
    seated = given(PlacesOfPower(),
                   AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=SHEET),
                   AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm",
                                sheet={"attributes": {"strength": "D8"}, "skills": {"Brawling": "D8"}}))
    done = seated.when(OpposedRoll(first=Contestant(combatant_id="mira", attribute="strength", skill="Brawling"),
                                   second=Contestant(combatant_id="bandit", attribute="strength", skill="Brawling"),
                                   dice=[1, 2, 8, 8])).then(OpposedRolled, SkillMarked(combatant_id="bandit",
                                                                                        skill="Brawling"))
    assert done.state.combatants["bandit"].sheet.marked_skills == ["Brawling"]
    assert done.state.combatants["mira"].sheet.marked_skills == []
    seated.when(OpposedRoll(first=Contestant(combatant_id="mira", attribute="strength", skill="Sailing"),
                            second=Contestant(combatant_id="bandit", attribute="strength", skill="Brawling"),
                            dice=[1, 2, 8, 8])).refused("unknown_skill")


def test_an_opposed_tie_has_no_winner() -> None:
    """"the person who rolls the highest wins the match": equal totals, nobody rolled the
    highest; the GM decides."""
    tie = opposed(fight(), [3, 4, 4, 3])
    assert ([s.total for s in tie.sides], tie.winner, tie.by_a_level) == ([7, 7], None, False)


def test_beating_the_opposition_by_a_whole_difficulty_level() -> None:
    """"If you beat your opposition by an entire difficulty level then you might even injure
    their arm in the process."

    16 (Hard) against 8 (below Normal) is by more than a level; 11 against 10 (both Normal)
    is not.
    """
    f = fight()
    big = opposed(f, [1, 3, 8, 8])
    assert (big.winner, big.by_a_level) == ("bandit", True)
    small = opposed(f, [5, 6, 5, 5])
    assert (small.winner, small.by_a_level) == ("mira", False)


def test_an_opposed_bonus_is_added_to_the_total() -> None:
    """"the person who rolls the highest wins the match": with a flat +2 (a shield's), Mira's
    9 becomes 11 and beats the Bandit's 10."""
    rolled = opposed(fight(), [4, 5, 5, 5], first_bonus=2)
    assert ([s.total for s in rolled.sides], rolled.sides[0].bonus, rolled.winner) == ([11, 10], 2, "mira")


def test_a_condition_puts_an_opposed_roll_at_disadvantage() -> None:
    """"Taking a Condition means that all rolls using that Attribute, until the Condition is
    removed, are performed at Disadvantage": Weakened, Mira's Strength D6 + Deception D8
    in an opposed roll is a D6 + D6 (the Bandit's D8 + D8 is not touched)."""
    f = fight()
    f.send(ApplyCondition(combatant_id="mira", condition="Weakened"))
    (rolled, *_) = f.send(OpposedRoll(first=Contestant(combatant_id="mira", attribute="strength", skill="Deception"),
                                   second=Contestant(combatant_id="bandit", attribute="strength", skill="Brawling"),
                                   dice=[6, 6, 1, 1]))
    assert isinstance(rolled, OpposedRolled)
    assert [[d.sides for d in s.dice] for s in rolled.sides] == [[6, 6], [8, 8]]
    assert (rolled.winner, rolled.by_a_level) == ("mira", True)  # 12 (Normal) against 2 (below Easy)


def test_an_opposed_roll_needs_two_combatants() -> None:
    """"sometimes you also have to roll better than someone else as well": not better than
    yourself."""
    f = fight()
    side = Contestant(combatant_id="mira", attribute="strength", skill="Brawling")
    refused(f, OpposedRoll(first=side, second=side, dice=[1, 2, 3, 4]), "invalid_opposed_roll")
    refused(f, OpposedRoll(first=side, second=Contestant(combatant_id="bandit", attribute="strength",
                                                         skill="Lore"), dice=[1, 2, 3, 4]), "unknown_skill")


# -------------------------------------------------------------------- Willpower


@pytest.mark.parametrize(("willpower", "face", "held"), [
    (12, 1, True), (12, 11, True), (12, 12, True), (12, 13, False), (12, 20, False), (20, 20, True), (0, 1, False),
])
def test_willpower_holds_at_or_under_and_breaks_over(willpower: int, face: int, held: bool) -> None:
    """"they will need to roll a D20 against their Willpower value. If they roll less than
    or equal to the Willpower value then their willpower/morale held, however if they roll
    over it then their willpower was broken"."""
    f = fight(willpower=willpower)
    (event,) = f.send(WillpowerRoll(combatant_id="mira", reason="the dragon roars", dice=[face]))
    assert isinstance(event, WillpowerTested)
    assert (event.die.sides, event.die.face, event.willpower, event.held) == (20, face, willpower, held)


# ------------------------------------------------------------------- Hero Points


def test_start_session_gives_every_player_one_hero_point_and_leaves_npcs_alone() -> None:
    """"At the start of each session all of the players gain 1 Hero Point." and "at the end
    of each session, any unused Hero Points are lost, and the next session starts with
    everyone back at one."

    Mira starts with 3 (set to 1, not 4); the Bandit (an NPC) keeps its 2. Awarded to 2,
    the next session sets her back to 1.
    """
    f = fight(hero_points=3)
    join(f, "kess", {"hero_points": 0})
    (started,) = f.send(StartSession())
    assert started == SessionStarted(session=1, hero_points={"mira": 1, "kess": 1})
    assert (sheet_of(f).hero_points, sheet_of(f, "kess").hero_points, sheet_of(f, "bandit").hero_points) == (1, 1, 2)
    f.send(AwardHeroPoint(combatant_id="mira", reason="a good joke"))
    assert sheet_of(f).hero_points == 2
    (second,) = f.send(StartSession())
    assert second == SessionStarted(session=2, hero_points={"mira": 1, "kess": 1})
    assert (sheet_of(f).hero_points, sheet_of(f, "bandit").hero_points, rules(f.state).session) == (1, 2, 2)


def test_the_gm_awards_hero_points() -> None:
    """"During the session, the GM can award additional Hero Points for things like creative
    and engaging play, strong character moments, or just because the player told a good
    joke.\""""
    f = fight(hero_points=1)
    assert f.send(AwardHeroPoint(combatant_id="mira", reason="a strong character moment")) == [
        HeroPointAwarded(combatant_id="mira", reason="a strong character moment")
    ]
    f.send(AwardHeroPoint(combatant_id="mira"))
    assert sheet_of(f).hero_points == 3


def spend(f: Fight, use: str, **detail: Any) -> list[Event]:
    """Spend one of Mira's Hero Points: the first event records it, and she has one fewer."""
    before = sheet_of(f).hero_points
    events = f.send(SpendHeroPoint(combatant_id="mira", use=use, **detail))  # type: ignore[arg-type]
    spent = events[0]
    assert isinstance(spent, HeroPointSpent) and spent.use == use
    assert sheet_of(f).hero_points == before - 1
    return events


@pytest.mark.parametrize("use", ["ReduceDifficulty", "RemoveCondition", "RestoreHit", "DowngradeCriticalHit",
                                 "ReduceCriticalFailure", "CheatDeath", "Flashback"])
def test_no_hero_point_no_spending(use: str) -> None:
    """"Hero Points are a limited resource": with none left, none can be spent."""
    f = fight(hero_points=0)
    e = refused(f, SpendHeroPoint(combatant_id="mira", use=use, narration="x"), "no_hero_points")  # type: ignore[arg-type]
    assert "Mira" in e.message


def test_a_hero_point_reduces_the_difficulty_of_a_roll() -> None:
    """"Reducing the Difficulty of a Roll": a called Normal check becomes Easy, and a 7
    then succeeds; Easy cannot go lower, and a rolled check is too late."""
    f = fight(hero_points=3)
    c = call(f, "strength", "Deception")
    events = spend(f, "ReduceDifficulty", check=c)
    assert events[1] == CheckEased(check=c, difficulty="Easy")
    rolled = roll(f, c, [3, 4])[0]
    assert isinstance(rolled, CheckRolled) and (rolled.difficulty, rolled.outcome) == ("Easy", "Partial Success")
    easy = call(f, "strength", "Deception", "Easy")
    refused(f, SpendHeroPoint(combatant_id="mira", use="ReduceDifficulty", check=easy), "cannot_ease")
    refused(f, SpendHeroPoint(combatant_id="mira", use="ReduceDifficulty", check=c), "cannot_ease")
    refused(f, SpendHeroPoint(combatant_id="mira", use="ReduceDifficulty"), "missing_detail")
    assert sheet_of(f).hero_points == 2


def test_a_hero_point_removes_a_condition() -> None:
    """"Removing a Condition\""""
    f = fight(hero_points=2)
    f.send(ApplyCondition(combatant_id="mira", condition="Anxious"))
    events = spend(f, "RemoveCondition", condition="Anxious")
    assert events[1] == ConditionRemoved(combatant_id="mira", condition="Anxious", reason="Hero Point")
    assert sheet_of(f).conditions == []
    refused(f, SpendHeroPoint(combatant_id="mira", use="RemoveCondition", condition="Anxious"), "no_condition")


def test_a_hero_point_restores_a_hit() -> None:
    """"Restoring a Hit Point": two Hits taken become one; with none taken there is nothing
    to restore."""
    f = fight(hero_points=2)
    assert f.send(SetHits(combatant_id="mira", hits=2)) == [HitsSet(combatant_id="mira", hits=2, reason="the GM")]
    events = spend(f, "RestoreHit")
    assert events[1] == HitsSet(combatant_id="mira", hits=1, reason="Hero Point")
    spend(f, "RestoreHit")
    assert sheet_of(f).hits == 0
    f.send(AwardHeroPoint(combatant_id="mira"))
    refused(f, SpendHeroPoint(combatant_id="mira", use="RestoreHit"), "no_hits_to_restore")


def test_turning_an_incoming_critical_hit_needs_an_incoming_critical_hit() -> None:
    """"Turning an incoming Critical Hit into a regular Hit": there is no attack flow yet,
    so there is never an incoming Critical Hit, and the point is kept."""
    f = fight(hero_points=1)
    refused(f, SpendHeroPoint(combatant_id="mira", use="DowngradeCriticalHit"), "no_incoming_critical")
    assert sheet_of(f).hero_points == 1


def test_a_hero_point_reduces_a_critical_failure_to_a_failure() -> None:
    """"Reduce a Critical Failure to a regular Failure\""""
    f = fight(hero_points=2)
    c = call(f, "strength", "Deception")
    roll(f, c, [4, 4])
    events = spend(f, "ReduceCriticalFailure", check=c)
    assert events[1] == CheckOutcomeChanged(check=c, outcome="Failure")
    assert rules(f.state).checks[str(c)].outcome == "Failure"
    partial = call(f, "strength", "Deception")
    roll(f, partial, [4, 5])
    refused(f, SpendHeroPoint(combatant_id="mira", use="ReduceCriticalFailure", check=partial),
            "not_a_critical_failure")
    refused(f, SpendHeroPoint(combatant_id="mira", use="ReduceCriticalFailure", check=999), "unknown_check")


def test_a_hero_point_cheats_death_only_beyond_helpless() -> None:
    """"Cheat Death, restoring your Character to a single Hit rather than having them die":
    Helpless (4 Hits) is not death; beyond it (5), back to 1 Hit."""
    f = fight(hero_points=2)
    f.send(SetHits(combatant_id="mira", hits=4))
    e = refused(f, SpendHeroPoint(combatant_id="mira", use="CheatDeath"), "not_dying")
    assert "Helpless" in e.message
    f.send(SetHits(combatant_id="mira", hits=5))
    events = spend(f, "CheatDeath")
    assert events[1] == HitsSet(combatant_id="mira", hits=1, reason="Hero Point: Cheat Death")
    assert sheet_of(f).hits == 1


def test_a_hero_point_activates_a_flashback_with_its_narration() -> None:
    """"Flashbacks are one of the actions you can perform using Hero Points. They let you act
    as if you had set something up earlier in the time line of the game" and "in most
    cases you can just describe what you did": the description is needed and recorded; the
    GM may then call a check ("the GM may still get you to roll")."""
    f = fight(hero_points=1)
    refused(f, SpendHeroPoint(combatant_id="mira", use="Flashback", narration="   "), "flashback_needs_narration")
    events = spend(f, "Flashback", narration="I bribed the ferryman last night.")
    assert events == [HeroPointSpent(combatant_id="mira", use="Flashback", narration="I bribed the ferryman last night.")]
    assert check(f, "charisma", "Deception", "Normal", [7, 6]).outcome == "Full Success"


# ---------------------------------------------------------------- skill levelling


def test_a_critical_marks_the_skill_used() -> None:
    """"Whenever you make a roll that results in either a Critical Success or a Critical
    Failure, mark the box next to the Skill you used on your Character Sheet."

    A Critical Success marks Deception, a Critical Failure Knife; a second critical marks
    nothing new; a Full Success marks nothing.
    """
    f = fight()
    c = call(f, "strength", "Deception")
    assert roll(f, c, [5, 5])[1:] == [SkillMarked(combatant_id="mira", skill="Deception")]
    c = call(f, "stamina", "Knife")
    assert roll(f, c, [2, 2])[1:] == [SkillMarked(combatant_id="mira", skill="Knife")]
    assert len(roll(f, call(f, "strength", "Deception"), [6, 6])) == 1
    assert len(roll(f, call(f, "agility", "Brawling"), [9, 6])) == 1
    assert sheet_of(f).marked_skills == ["Deception", "Knife"]


LEVELS = [("D4", 6, "D6"), ("D6", 9, "D8"), ("D8", 12, "D10"), ("D10", 15, "D12"), ("D12", 18, "D20")]


@pytest.mark.parametrize(("die", "target", "next_die"), LEVELS, ids=[d for d, _, _ in LEVELS])
def test_a_long_rest_levels_up_a_marked_skill(die: str, target: int, next_die: str) -> None:
    """"To Level Up a given skill you roll a D20 against a target value dictated by the
    current value of the Skill" ("Current Skill D4 - Next Level D6 - Roll 6 or above ...
    D12 - Next Level D20 - Roll 18 or above to Level Up"). "If you successfully roll the
    target value or above, remove the mark from your Character Sheet and then replace your
    current Skill Level for that Skill with the next level up. If you fail the roll, simply
    remove the mark and leave the Skill at its current level."

    Two marked skills at ``die``: Knife rolls the target (up), Brawling one below (stays).
    """
    f = fight(skills={"Knife": die, "Brawling": die}, marked_skills=["Knife", "Brawling"])
    up, stay, rested = f.send(LongRest(dice=[target, target - 1]))
    assert isinstance(up, SkillLevelRolled) and isinstance(stay, SkillLevelRolled)
    assert (up.skill, up.die.sides, up.die.face, up.target, up.success, up.from_die, up.to_die) == (
        "Knife", 20, target, target, True, die, next_die)
    assert (stay.skill, stay.die.face, stay.success, stay.to_die) == ("Brawling", target - 1, False, None)
    assert rested == LongRestTaken()
    s = sheet_of(f)
    assert (s.skills["Knife"], s.skills["Brawling"], s.marked_skills) == (next_die, die, [])


def test_a_marked_skill_levels_up_after_a_critical_in_play() -> None:
    """"Whenever you make a roll that results in either a Critical Success or a Critical
    Failure, mark the box ... The next time your character takes a Long Rest you will have
    the opportunity to Level Up these skills.\""""
    f = fight()
    check(f, "strength", "Deception", "Normal", [6, 6])  # Deception D8, marked
    (levelled, _) = f.send(LongRest(dice=[12]))
    assert isinstance(levelled, SkillLevelRolled) and (levelled.target, levelled.to_die) == (12, "D10")
    assert (sheet_of(f).skills["Deception"], sheet_of(f).marked_skills) == ("D10", [])


@pytest.mark.parametrize("die", ["D10", "D12"])
def test_a_mere_skill_at_d10_or_above_may_take_a_mere_activation_point(die: str) -> None:
    """"When you are Levelling Up one of your Mere Skills that is already at level D10 or
    above, you have an additional choice as to what you can do. If you successfully roll
    the required value you can just Level up as normal, e.g. from D10 to D12, or you can
    choose to gain a Mere Activation Point instead."

    Rosmere (chosen for the point) and Blumere (levelled as normal), both at ``die`` and
    both successful; then a failed roll gives neither.
    """
    target, next_die = {"D10": (15, "D12"), "D12": (18, "D20")}[die]
    f = fight(mere_skills={"Rosmere": die, "Blumere": die}, marked_skills=["Rosmere", "Blumere"])
    point, level, _ = f.send(LongRest(mere_activation={"mira": ["Rosmere"]}, dice=[target, 20]))
    assert isinstance(point, SkillLevelRolled) and isinstance(level, SkillLevelRolled)
    assert (point.success, point.activation_point, point.to_die) == (True, True, None)
    assert (level.success, level.activation_point, level.to_die) == (True, False, next_die)
    s = sheet_of(f)
    assert (s.mere_skills, s.mere_activation_points, s.marked_skills) == (
        {"Rosmere": die, "Blumere": next_die}, 1, [])
    check(f, "strength", "Rosmere", "Easy", [1, 1])  # a Critical Failure marks Rosmere again
    (failed, _) = f.send(LongRest(mere_activation={"mira": ["Rosmere"]}, dice=[target - 1]))
    assert isinstance(failed, SkillLevelRolled) and (failed.success, failed.activation_point) == (False, False)
    assert (sheet_of(f).mere_skills["Rosmere"], sheet_of(f).mere_activation_points) == (die, 1)


@pytest.mark.parametrize("skill", ["Vermere", "Knife"])
def test_only_a_mere_skill_at_d10_or_above_can_take_the_point(skill: str) -> None:
    """"When you are Levelling Up one of your Mere Skills that is already at level D10 or
    above": not Vermere at D8, not Knife (not a Mere skill)."""
    f = fight(marked_skills=["Vermere", "Knife"])
    e = refused(f, LongRest(mere_activation={"mira": [skill]}, dice=[20, 20]), "invalid_mere_choice")
    assert skill in e.message
    refused(f, LongRest(mere_activation={"nobody": ["Rosmere"]}, dice=[20, 20]), "unknown_combatant")


def test_a_d20_skill_just_loses_its_mark() -> None:
    """"Current Skill D12 - Next Level D20" is the last rung: a marked D20 skill has no level
    to roll for, so no die is rolled and the mark is removed."""
    f = fight(marked_skills=["Lore"])
    refused(f, LongRest(dice=[20]), "dice_unused")
    assert f.send(LongRest(dice=[])) == [MarkCleared(combatant_id="mira", skill="Lore"), LongRestTaken()]
    assert (sheet_of(f).skills["Lore"], sheet_of(f).marked_skills) == ("D20", [])


def test_long_rest_dice_go_by_combatant_then_by_mark() -> None:
    """"The next time your character takes a Long Rest you will have the opportunity to
    Level Up these skills": every character's marked skills, the reported D20s taken in
    the order the command documents (combatants as added, skills as marked)."""
    f = fight(marked_skills=["Knife", "Deception"])
    join(f, "kess", {"skills": {"Athletics": "D4"}, "mere_skills": {"Rosmere": "D6"},
                     "marked_skills": ["Rosmere", "Athletics"]})
    events = f.send(LongRest(dice=[15, 11, 9, 5]))
    assert [(e.combatant_id, e.skill, e.die.face, e.success) for e in events if isinstance(e, SkillLevelRolled)] == [
        ("mira", "Knife", 15, True), ("mira", "Deception", 11, False),
        ("kess", "Rosmere", 9, True), ("kess", "Athletics", 5, False),
    ]
    assert (sheet_of(f).skills["Knife"], sheet_of(f, "kess").mere_skills["Rosmere"]) == ("D12", "D8")


# --------------------------------------------------------------------- seeded dice


def seeded_fight() -> Fight:
    f = fight(dice_policy="seeded", hero_points=1, marked_skills=["Knife", "Rosmere"])
    f.send(StartSession())
    return f


def assert_seeded(events: list[Event], first_index: int) -> list[int]:
    """Every die is seeded roll ``first_index``, ``first_index + 1``, ... as the seed gives it."""
    dice = [d for e in events for d in e.dice_rolled()]
    assert [d.index for d in dice] == list(range(first_index, first_index + len(dice)))
    for d in dice:
        assert d.source == "seeded"
        assert d.face == seeded_face(SEED, ENCOUNTER_ID, d.index or 0, d.sides)
    return [d.face for d in dice]


def test_seeded_checks_are_judged_as_the_text_reads() -> None:
    """"Each difficulty rating represents a value you need to roll equal to or higher than"
    ... and the outcome classes: with seeded dice, 40 checks (every difficulty, plain, at
    Advantage, with the occupation die) each come out as the text reads for the faces the
    seed gives."""
    f = seeded_fight()
    reported = call(f, "strength", "Deception")
    refused(f, RollCheck(combatant_id="mira", check=reported, dice=[3, 4]), "reported_dice_not_allowed")
    seen = set()
    for difficulty in DIFFICULTIES:
        for flags in ({}, {"advantage": True}, {"occupation": True}, {"disadvantage": True, "occupation": True}):
            for attribute, skill in (("dexterity", "Knife"), ("intelligence", "Athletics")):
                index = f.state.rolls_used
                events = roll(f, call(f, attribute, skill, difficulty, **flags), None)
                faces = assert_seeded(events, index)
                rolled = events[0]
                assert isinstance(rolled, CheckRolled)
                expected = by_the_text(tuple(faces), tuple(sizes(rolled)), difficulty)
                assert (rolled.total, rolled.outcome) == (sum(faces), expected)
                assert len(faces) == (3 if flags.get("occupation") else 2)
                seen.add(rolled.outcome)
    assert len(seen) >= 3


def test_seeded_reroll_and_long_rest() -> None:
    """"you have the option to attempt a single re-roll", "should you fail the re-roll, even
    if it is just a regular failure, it counts as a Critical Failure", "If you successfully
    roll the target value or above ... replace your current Skill Level for that Skill with
    the next level up": with seeded dice, each as the text reads for the faces the seed
    gives."""
    f = seeded_fight()
    # Intelligence D4 + Athletics D4 never reaches Very Hard: a Failure (or a Critical one)
    for _ in range(40):
        c = call(f, "intelligence", "Athletics", "Very Hard")
        first = roll(f, c, None)[0]
        assert isinstance(first, CheckRolled) and first.outcome in ("Failure", "Critical Failure")
        if first.outcome == "Failure":
            break
    index = f.state.rolls_used
    events = f.send(ReRoll(combatant_id="mira", check=c))
    assert_seeded(events, index)
    assert [type(e) for e in events][:2] == [ConditionTaken, CheckRolled]
    assert events[1].outcome == "Critical Failure"  # type: ignore[attr-defined]

    index = f.state.rolls_used
    marked = list(sheet_of(f).marked_skills)
    assert marked[:2] == ["Knife", "Rosmere"] and "Athletics" in marked
    events = f.send(LongRest())
    faces = assert_seeded(events, index)
    levelled = [e for e in events if isinstance(e, SkillLevelRolled)]
    assert [e.skill for e in levelled] == marked and len(faces) == len(marked)
    for e in levelled:
        assert e.success == (e.die.face >= e.target)
        now = sheet_of(f).skills.get(e.skill) or sheet_of(f).mere_skills[e.skill]
        assert now == (e.to_die if e.success else e.from_die)
    assert sheet_of(f).marked_skills == [] and sheet_of(f).conditions == []


def test_seeded_opposed_and_willpower_rolls() -> None:
    """"the person who rolls the highest wins the match" and "If they roll less than or
    equal to the Willpower value then their willpower/morale held, however if they roll
    over it then their willpower was broken": with seeded dice, as the text reads for the
    faces the seed gives."""
    f = seeded_fight()
    index = f.state.rolls_used
    (contest,) = f.send(OpposedRoll(first=Contestant(combatant_id="mira", attribute="agility", skill="Knife"),
                                    second=Contestant(combatant_id="bandit", attribute="strength", skill="Brawling")))
    faces = assert_seeded([contest], index)
    assert isinstance(contest, OpposedRolled)
    mine, theirs = sum(faces[:2]), sum(faces[2:])
    assert [s.total for s in contest.sides] == [mine, theirs]
    assert contest.winner == (None if mine == theirs else "mira" if mine > theirs else "bandit")

    index = f.state.rolls_used
    (will,) = f.send(WillpowerRoll(combatant_id="mira"))
    (face,) = assert_seeded([will], index)
    assert isinstance(will, WillpowerTested) and will.held == (face <= 12)


# ------------------------------------------------------------------------- odds


def test_odds_of_d4_and_d4_at_easy_counted_by_hand() -> None:
    """"Easy - 7": D4 + D4 falls 16 ways. Below 7 with a pair: 1-1, 2-2, 3-3 (3, Critical
    Failure); below 7 without one: 1-2, 2-1, 1-3, 3-1, 1-4, 4-1, 2-3, 3-2, 2-4, 4-2 (10,
    Failure); 7: 3-4, 4-3 (2, Partial Success: the next level, 9, is out of reach); 8: 4-4
    (1, a pair over the target and both dice at maximum: Critical Success)."""
    assert odds([4, 4], "Easy") == {
        "Critical Failure": Fraction(3, 16), "Failure": Fraction(10, 16), "Partial Success": Fraction(2, 16),
        "Full Success": Fraction(0), "Critical Success": Fraction(1, 16),
    }


def test_odds_of_d6_and_d6_at_normal_and_easy_counted_by_hand() -> None:
    """"Normal - 9", "Easy - 7": D6 + D6 falls 36 ways; totals 2..12 fall 1, 2, 3, 4, 5, 6,
    5, 4, 3, 2, 1 ways, and each even total has exactly one pair.

    Normal: below 9 are 1+2+3+4+5+6+5 = 26 ways, 4 of them pairs (Critical Failure), 22
    not; 9 and over are 4+3+2+1 = 10, 2 of them pairs (5-5, 6-6: Critical Success), 8 not
    (Partial Success: 13 is out of reach).

    Easy: below 7 are 15 ways, 3 pairs; 7 and 8 are 11 ways, one pair (4-4); 9 and over
    (Full Success) 10 ways, two pairs.
    """
    assert odds([6, 6], "Normal") == {
        "Critical Failure": Fraction(4, 36), "Failure": Fraction(22, 36), "Partial Success": Fraction(8, 36),
        "Full Success": Fraction(0), "Critical Success": Fraction(2, 36),
    }
    assert odds([6, 6], "Easy") == {
        "Critical Failure": Fraction(3, 36), "Failure": Fraction(12, 36), "Partial Success": Fraction(10, 36),
        "Full Success": Fraction(8, 36), "Critical Success": Fraction(3, 36),
    }


def test_odds_with_the_occupation_die_counted_by_hand() -> None:
    """"If you roll the same number on any two of the three dice rolled, you have rolled
    Critically": D4 + D4 + D6 cannot reach Very Hard (14 at most), so every way is a
    failure; no two alike is 4 x 3 x 4 = 48 of the 96 ways (Failure), the other 48 have a
    pair (Critical Failure)."""
    assert odds([4, 4, 6], "Very Hard") == {
        "Critical Failure": Fraction(1, 2), "Failure": Fraction(1, 2), "Partial Success": Fraction(0),
        "Full Success": Fraction(0), "Critical Success": Fraction(0),
    }


def test_odds_sum_to_one_and_agree_with_the_decider() -> None:
    """"Each difficulty rating represents a value you need to roll equal to or higher than":
    for every pair of dice (with and without the occupation D6) at every difficulty the
    chances sum to exactly 1, and each is the count of faces the text classes that way."""
    ladder = (4, 6, 8, 10, 12, 20)
    for a, s in product(ladder[:5], ladder):
        for extra in ((), (6,)):
            dice = (a, s, *extra)
            for difficulty in DIFFICULTIES:
                chances = odds(list(dice), difficulty)
                assert list(chances) == list(OUTCOMES)
                assert sum(chances.values()) == 1
                if extra:
                    continue
                counted = dict.fromkeys(OUTCOMES, 0)
                for faces in product(*(range(1, n + 1) for n in dice)):
                    counted[by_the_text(faces, dice, difficulty)] += 1
                assert chances == {k: Fraction(v, a * s) for k, v in counted.items()}
    assert judge([3, 3], [6, 8], "Normal") == ("Critical Failure", 0)
