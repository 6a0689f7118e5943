"""RealmsRPG's sheet, initiative, rounds and Action Points, rule by rule
(shared/rules/realms-combat.txt; realms-gaps.md's R-numbers)."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.encounter import AddCombatant, RollInitiative, SetTurnOrder, StartEncounter
from domain.realms.events import Attack, CommandCompanion, ImprovisedAction, SetInitiative, TakeAction
from domain.realms.sheet import RealmsSheet
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of, started
from domain.core.errors import RuleViolation
from domain.realms.events import ActionTaken, AttackDeclared, AttackRolled, Harmed


def sheet(**fields: object) -> RealmsSheet:
    return msgspec.convert(fields, RealmsSheet)


def test_defences_are_ten_plus_the_ability_and_skill_point_increases_and_evasion_ten_plus_agility() -> None:
    """R6: "Defence Bonus = the Ability + Skill Point increases"; "Defence Score = 10 + Defence
    Bonus"; "Evasion = 10 + Agility"."""
    s = sheet(level=3, abilities={"strength": 2, "agility": 3, "intelligence": -1},
              defence_increases={"might": 2})
    assert s.defence_score("might") == 14
    assert s.defence_score("mental_fortitude") == 9
    assert s.evasion == 13


def test_power_bonus_and_potency_and_speed() -> None:
    """"Your Power Bonus is the combination of your Power Proficiency and your Power Ability";
    Potency "is calculated as your Power Bonus + 10"; R13: "Speed = 6 + ½ Agility", rounded up (R14)."""
    s = sheet(power_proficiency=2, power_ability="charisma", abilities={"charisma": 3, "agility": 3})
    assert s.power_bonus == 5 and s.power_potency == 15
    assert s.movement == 8  # 6 + ½ of 3, rounded up


@pytest.mark.parametrize(("bad", "field"), [
    ({"abilities": {"agility": "quick"}}, "abilities.agility"),
    ({"defence_increases": {"might": 2}}, "defence_increases"),
    ({"weapons": [{"name": "Axe", "sides": 1}]}, "weapons[0].sides"),
    ({"initiative": "Perception"}, "initiative"),
    ({"martial_proficiency": 11}, "martial_proficiency"),
])
def test_a_sheet_that_is_not_valid_is_refused_naming_the_field(bad: dict[str, object], field: str) -> None:
    """The sheet's errors name the field: R6 "the total from Skill Points can't exceed the character's level"."""
    f = Fight()
    refused = f.refused(AddCombatant(combatant_id="x", name="X", side="a", controller="gm", sheet=bad))
    assert refused.code == "invalid_sheet" and field in refused.message


def test_the_texts_initiative_example() -> None:
    """"The players roll 13, 4, and 4. Player 3 has 2 Acuity and Player 2 has 3 so they will go
    first... The enemies roll 14, 10, 8, 6, and 4" gives "Enemy 1 (14), Player 1 (13), Enemy 2
    (10), Player 2 (4 - ACU 3), Enemy 3 (8), Player 3 (4 - ACU 2), Enemy 4 (6), Enemy 5 (4)"."""
    f = Fight()
    f.add("p3", {"abilities": {"acuity": 2}})
    f.add("p1", {})
    f.add("p2", {"abilities": {"acuity": 3}})
    for i in range(1, 6):
        f.add(f"e{i}", {}, side="enemies", controller="gm")
    # initiative adds Acuity by default: P3 2 + 2 = 4, P1 13, P2 1 + 3 = 4
    f.send(RollInitiative(dice=[2, 13, 1, 14, 10, 8, 6, 4]))
    assert f.state.order == ["e1", "p1", "e2", "p2", "e3", "p3", "e4", "e5"]


def test_the_rm_picks_another_ability_or_skill_for_a_creatures_initiative() -> None:
    """"adds a bonus based on Acuity, a relevant Ability, or an appropriate Skill"."""
    f = Fight()
    f.add("arwen", {**ARWEN, "skills": {"Stealth": 6}})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(SetInitiative(combatant_id="arwen", roll_with="Stealth"))
    rolled = f.send(RollInitiative(dice=[5, 9]))[0]
    assert [r.total for r in rolled.rolls] == [11, 9] and f.state.order == ["arwen", "brigand"]
    assert f.refused(SetInitiative(combatant_id="arwen", roll_with="Stealth")).code == "realms_initiative_rolled"


def test_ties_go_to_the_higher_acuity_then_the_rm_decides() -> None:
    """"In the case of ties the creature with the higher Acuity goes first, if this is the same the
    Realm Master or players decide who goes first"."""
    f = Fight()
    f.add("a", {})
    f.add("b", {})
    f.add("e", {}, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[9, 9, 3]))
    assert f.state.order == ["a", "e", "b"]
    f.send(SetTurnOrder(order=["b", "e", "a"]))  # the tie is the RM's
    assert f.state.order == ["b", "e", "a"]
    refused = f.refused(SetTurnOrder(order=["e", "a", "b"]))  # the enemy rolled lower
    assert refused.code == "invalid_turn_order"


def test_surprised_parties_act_after_the_opposing_side_in_round_one_only() -> None:
    """"During the first round of Combat, all surprised parties act after the opposing side has
    taken their turns. Subsequent rounds follow the normal initiative order"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("bram", {})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.add("thug", {}, side="enemies", controller="gm")
    for cid in ("arwen", "bram"):
        f.send(SetInitiative(combatant_id=cid, surprised=True))
    f.send(RollInitiative(dice=[18, 12, 10, 5]))
    assert f.state.order == ["brigand", "thug", "arwen", "bram"]
    f.send(StartEncounter())
    for cid in ["brigand", "thug", "arwen", "bram"]:
        f.end_turn(cid)
    assert f.state.round == 2 and f.state.order == ["arwen", "brigand", "bram", "thug"]


def test_companions_act_after_everyone() -> None:
    """"If there are any Companions they act after all other Characters and Creatures have gone in
    any order the Players agree on. If no order can be agreed upon, you can simply use Acuity"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("wolf", {"companion_of": "arwen", "abilities": {"acuity": 1}})
    f.add("hawk", {"companion_of": "arwen", "abilities": {"acuity": 4}})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[20, 20, 20, 2]))
    assert f.state.order == ["arwen", "brigand", "hawk", "wolf"]
    f.send(SetTurnOrder(order=["arwen", "brigand", "wolf", "hawk"]))  # the players agree otherwise
    assert f.refused(SetTurnOrder(order=["wolf", "arwen", "brigand", "hawk"])).code == "invalid_turn_order"


def test_the_defeated_are_replaced_by_their_side_at_the_start_of_the_next_round() -> None:
    """"As creatures get defeated, all creature's initiative on their side move up to replace their
    position in the initiative order (unless it is in the first position). This is done at the
    beginning of the next round."""
    f = Fight()
    f.add("arwen", {**ARWEN, "martial_proficiency": 6, "abilities": {"agility": 6}})
    f.add("bram", {})
    f.add("goblin", {"health": 1}, side="enemies", controller="gm")
    f.add("thug", {}, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[10, 5, 15, 8]))
    assert f.state.order == ["goblin", "arwen", "thug", "bram"]
    f.send(StartEncounter())
    f.end_turn("goblin")
    # the Rapier: 5 + 12 against Evasion 10, 6 + 12 damage; the Goblin, 1 Health, is dead at -1
    f.send(Attack(combatant_id="arwen", target="goblin"))
    f.pass_("goblin", dice=[5, 6])
    f.pass_("thug")  # no Body Shield for the Goblin
    assert f.body("goblin").dead
    assert f.state.order == ["goblin", "arwen", "thug", "bram"]  # not before the next round
    f.end_turn("arwen")
    f.end_turn("thug")
    f.end_turn("bram")
    # the first place is not kept for its side: Arwen, then the thug in the enemies' next place
    assert f.state.order == ["arwen", "thug", "bram"]


def test_action_points_are_set_to_four_at_the_start_and_at_the_end_of_each_of_ones_turns() -> None:
    """"At the start of combat and the end of each of your turns, your Action Points (AP) are set to 4"."""
    f = started()
    assert f.ap("arwen") == 4 and f.ap("brigand") == 4
    f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=3))
    f.send(TakeAction(combatant_id="arwen", action="Basic Action"))
    assert f.ap("arwen") == 1
    f.end_turn("arwen")
    assert f.ap("arwen") == 4


def test_a_movement_covers_at_most_the_speed() -> None:
    """R13: Speed = 6 + ½ Agility: Arwen's Agility 3 gives 8 spaces."""
    f = started()
    assert f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=9)).code == "realms_too_far"
    f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=8))


def test_actions_cost_their_ap_and_are_refused_beyond_them() -> None:
    """R1: "Basic Action 2; Quick Action 1; Free Action 0 (each further Free Action in the same turn
    1) ... Skill Encounter Action 2"."""
    f = started()
    assert f.send(TakeAction(combatant_id="arwen", action="Free Action"))[0].action_points == 0
    assert f.send(TakeAction(combatant_id="arwen", action="Free Action"))[0].action_points == 1
    f.send(TakeAction(combatant_id="arwen", action="Skill Encounter Action"))
    assert f.ap("arwen") == 1
    refused = f.refused(TakeAction(combatant_id="arwen", action="Basic Action"))
    assert refused.code == "not_enough_action_points"


def test_one_free_interaction_and_one_free_ability_roll_each_round() -> None:
    """"At the end of your turn you gain one free Interaction and one free Ability Roll Action to use
    during the round. Taking these Actions additional times in the same round will require Action
    Points as usual."""
    f = started()
    first = f.send(TakeAction(combatant_id="arwen", action="Interaction"))[0]
    second = f.send(TakeAction(combatant_id="arwen", action="Interaction"))[0]
    assert (first.free, first.action_points, second.free, second.action_points) == (True, 0, False, 1)
    f.end_turn("arwen")
    assert f.held("arwen")["free interaction"] == 1


def test_the_multiple_action_penalty() -> None:
    """"If you take the same Action or Reaction more than once in a turn, and it involves a D20 roll,
    you incur a -5 penalty ... increasing from -5 to -10"; "Basic, Quick, and Free Actions or
    Reactions ... are all considered the same Action type"."""
    f = started()
    rolls = [f.send(TakeAction(combatant_id="arwen", action=a, roll_with="agility", dice=[10]))[0]
             for a in ("Free Action", "Quick Action", "Free Action")]
    assert [r.penalty for r in rolls] == [0, -5, -10]
    assert [r.total for r in rolls] == [13, 8, 3]
    other = f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", dice=[10]))[0]
    assert other.penalty == 0  # another Action
    f.end_turn("arwen")
    f.end_turn("brigand")
    again = f.send(TakeAction(combatant_id="arwen", action="Quick Action", roll_with="agility", dice=[10]))[0]
    assert again.penalty == 0  # a new turn


def test_the_initiators_free_action_comes_before_initiative_is_rolled() -> None:
    """"Roll For Initiative! The creature who initiates Combat can take their first Action without
    spending any Action Points. Afterward, all creatures involved roll for Initiative to determine turn
    order and Combat begins": the Action is taken before the roll, then the initiator's turn pays."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(SetInitiative(combatant_id="brigand", initiator=True))
    with pytest.raises(RuleViolation) as refused:  # only the initiator acts before initiative
        f.send(Attack(combatant_id="arwen", target="brigand", dice=[15, 3]))
    assert refused.value.code == "encounter_not_started"
    # before initiative nobody has AP for a Reaction: the attack is rolled at once (Club +3 against 13)
    events = f.send(Attack(combatant_id="brigand", target="arwen", weapon="Club", dice=[12, 4]))
    first = of(events, AttackDeclared)
    assert first.free and first.action_points == 0 and of(events, AttackRolled).hit
    assert f.health("arwen") == 20 - 7
    with pytest.raises(RuleViolation) as again:  # one first Action
        f.send(TakeAction(combatant_id="brigand", action="Evade"))
    assert again.value.code == "encounter_not_started"
    f.send(RollInitiative(dice=[3, 15]))
    f.send(StartEncounter())
    assert f.state.turn == "brigand" and f.ap("brigand") == 4
    second = of(f.send(TakeAction(combatant_id="brigand", action="Quick Action")), ActionTaken)
    assert not second.free and f.ap("brigand") == 3


def test_the_initiator_who_lets_initiative_be_rolled_first_pays_for_its_actions() -> None:
    """"Afterward, all creatures involved roll for Initiative": once initiative is rolled the free
    Action is gone, and the initiator's turn costs AP as anyone's."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(SetInitiative(combatant_id="brigand", initiator=True))
    f.send(RollInitiative(dice=[3, 15]))
    with pytest.raises(RuleViolation):
        f.send(Attack(combatant_id="brigand", target="arwen", weapon="Club", dice=[12, 4]))
    f.send(StartEncounter())
    first = of(f.send(Attack(combatant_id="brigand", target="arwen", weapon="Club")), AttackDeclared)
    assert not first.free and first.action_points == 2 and f.ap("brigand") == 2


def test_improvised_actions_cost_what_the_rm_sets() -> None:
    """"Improvised actions may have variable AP costs based on their complexity, as determined by the RM"."""
    f = started()
    f.send(ImprovisedAction(combatant_id="arwen", description="swing from the chandelier", action_points=3))
    assert f.ap("arwen") == 1


def test_a_companion_acts_once_its_owner_commands_it_with_fewer_ap_for_each_further_use() -> None:
    """Command: "you must use the Command reaction at the start of its turn to control its actions for
    the turn"; "First use. Control all Companions' available AP. Second use. ... minus 1"; "A Companion
    can only be Commanded once each round"."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("wolf", {"companion_of": "arwen", "abilities": {"acuity": 2}})
    f.add("hawk", {"companion_of": "arwen"})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 9, 9, 3]))
    f.send(StartEncounter())
    f.end_turn("arwen")
    f.end_turn("brigand")
    assert f.state.turn == "wolf"
    refused = f.refused(TakeAction(combatant_id="wolf", action="Movement", spaces=2))
    assert refused.code == "realms_not_commanded"
    f.send(CommandCompanion(combatant_id="arwen", companion="wolf"))
    assert (f.ap("arwen"), f.ap("wolf")) == (3, 4)
    f.send(TakeAction(combatant_id="wolf", action="Movement", spaces=2))
    assert f.refused(CommandCompanion(combatant_id="arwen", companion="wolf")).code == "realms_not_your_companion"
    f.end_turn("wolf")
    f.send(CommandCompanion(combatant_id="arwen", companion="hawk"))
    assert (f.ap("arwen"), f.ap("hawk")) == (2, 3)  # the second use: minus 1


def test_a_help_adds_the_help_die_to_an_allys_next_ability_or_skill_roll() -> None:
    """R2: "Help 1 (add your Help Die to an ally's Ability or Skill roll; +1 AP if the task needs an
    Interaction)"; R12: "+3/+4 → d4"."""
    from domain.realms.events import Help
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("bram", {"skills": {"Athletics": 3}})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3, 2]))
    f.send(StartEncounter())
    helped = f.send(Help(combatant_id="bram", ally="arwen", skill="Athletics", interaction=True, dice=[3]))[0]
    assert (helped.die.sides, helped.action_points, f.ap("bram")) == (4, 2, 2)
    roll = f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", dice=[10]))[0]
    assert (roll.help, roll.total) == (3, 10 + 3 + 3)
    assert f.refused(Help(combatant_id="bram", ally="brigand", skill="Athletics")).code == "realms_no_help"


def test_each_movement_of_a_turn_covers_the_speed_then_the_speed_again_then_a_half_then_a_quarter() -> None:
    """R1 and the rules README: "Movement 1 AP per use (first use moves the Speed, second doubles it,
    third adds half, fourth adds a quarter; at most four)"; R14: fractions rounded up. Arwen's Speed is
    8 (6 + ½ of Agility 3): 8, 8, 4 and 2 spaces; a fifth is refused; her next turn starts afresh."""
    f = started()
    for refused, allowed in ((9, 8), (9, 8), (5, 4), (3, 2)):
        assert f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=refused)).code == "realms_too_far"
        offered = [o for o in f.ruleset.moves(f.state, "arwen") if o.command.get("action") == "Movement"]
        assert [o.command["spaces"] for o in offered] == [allowed]
        f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=allowed))
    assert f.ap("arwen") == 0 and f.body("arwen").moves == 4
    violation = f.refused(TakeAction(combatant_id="arwen", action="Movement", spaces=1))
    assert violation.code == "realms_too_far" and "four times" in violation.message
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(TakeAction(combatant_id="arwen", action="Movement", spaces=8))


def test_brace_reduces_the_next_damage_by_vitality_and_only_that() -> None:
    """R1 and the rules README: "Brace 1 (reduce the next damage by Vitality)": Arwen (Vitality 2) takes
    7 - 2 from the next hit, then the whole 7; a second Brace while one waits is refused."""
    f = started({**ARWEN, "abilities": {**ARWEN["abilities"], "vitality": 2}})
    braced = of(f.send(TakeAction(combatant_id="arwen", action="Brace")), ActionTaken)
    assert braced.action_points == 1 and f.body("arwen").braced
    assert f.refused(TakeAction(combatant_id="arwen", action="Brace")).code == "realms_already_ready"
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    first = of(f.pass_("arwen", dice=[12, 4]), Harmed)  # 12 + 3 against Evasion 13; 4 + 3 damage
    assert (first.rolled, first.brace, first.damage) == (7, 2, 5) and not f.body("arwen").braced
    f.send(Attack(combatant_id="brigand", target="arwen"))
    second = of(f.pass_("arwen", dice=[17, 4]), Harmed)  # 17 + 3 - 5 (the second attack) hits
    assert (second.brace, second.damage) == (0, 7)
    assert f.health("arwen") == 20 - 5 - 7


def test_focus_adds_two_to_the_next_d20_roll_and_only_that() -> None:
    """R1 and the rules README: "Focus 1 (+2 to the next d20 roll)": Arwen's next roll (an Ability Roll,
    Agility 3) is 10 + 3 + 2; the roll after it 10 + 3; a second Focus while one waits is refused."""
    f = started()
    f.send(TakeAction(combatant_id="arwen", action="Focus"))
    assert f.refused(TakeAction(combatant_id="arwen", action="Focus")).code == "realms_already_ready"
    focused = of(f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", dice=[10])),
                 ActionTaken)
    after = of(f.send(TakeAction(combatant_id="arwen", action="Search", roll_with="agility", dice=[10])), ActionTaken)
    assert (focused.total, after.total) == (15, 13) and not f.body("arwen").focused
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(TakeAction(combatant_id="arwen", action="Focus"))  # and on an attack roll: 10 + 5 + 2 against 11
    rolled = of(f.send(Attack(combatant_id="arwen", target="brigand")), AttackDeclared)
    assert rolled.action_points == 2
    hit = of(f.pass_("brigand", dice=[10, 1]), AttackRolled)
    assert hit.total == 10 + 5 + 2


def test_a_creature_the_initiators_free_action_leaves_dying_starts_combat_with_one_ap() -> None:
    """"At the start of combat ... your Action Points (AP) are set to 4"; R22: Dying, "its AP drops to
    1 at once, and it gains only 1 AP at the end of each of its turns": the initiator's free attack
    before initiative leaves Arwen Dying, and combat starts her at 1 AP, the Brigand at 4."""
    f = Fight()
    f.add("arwen", {**ARWEN, "health": 5})
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(SetInitiative(combatant_id="brigand", initiator=True))
    f.send(Attack(combatant_id="brigand", target="arwen", weapon="Club", dice=[12, 4]))  # 7 damage: Health -2
    assert f.body("arwen").dying
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    assert (f.ap("arwen"), f.ap("brigand")) == (1, 4)
