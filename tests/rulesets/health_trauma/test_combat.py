"""Health/Trauma's combat text, rule by rule (shared/rules/health-trauma-combat.txt)."""

from __future__ import annotations

import msgspec
import pytest

from domain.core import reactions
from domain.core.dice import SeededDice
from domain.core.encounter import AddCombatant, RollInitiative, SetTurnOrder, StartEncounter
from domain.health_trauma.data import HealthTraumaData
from domain.health_trauma.events import (
    Attack, AttackRolled, Died, Harmed, Heal, InjuryRolled, RollInitiativeTest, RollInjury, SetHealthTraumaRules,
    TakeAction,
)
from domain.health_trauma.body import wounded
from domain.health_trauma.ruleset import HealthTrauma
from tests.rulesets.decider import SEED
from tests.rulesets.health_trauma.fight import BANDIT, ENCOUNTER, MIRA, Fight, started, types


def test_maximum_health_is_five_plus_physique_with_the_sheets_adjustment() -> None:
    """"Each character starts with a maximum health equal to five plus their Physique. Certain
    Abilites may change effect this.\""""
    f = started(mira={**MIRA, "physique": 2, "health_adjustment": 1})
    assert f.maximum("mira") == 8 and f.health("mira") == 8
    assert f.maximum("bandit") == 5


def test_a_sheet_that_is_not_valid_is_refused_naming_the_field() -> None:
    f = Fight()
    for sheet, field in (({"physique": "strong"}, "physique"), ({**MIRA, "readied": "Axe"}, "readied"),
                         ({"weapons": [{"name": "Stick", "damage_sides": 1}]}, "damage_sides")):
        refused = f.refused(AddCombatant(combatant_id="x", name="X", side="a", controller="gm", sheet=sheet))
        assert refused.code == "invalid_sheet" and field in refused.message


def test_initiative_is_in_descending_order() -> None:
    """"These results will be placed in descending order to Track who acts when.\""""
    f = Fight()
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=MIRA))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm",
                        sheet={**BANDIT, "initiative_bonus": 4}))
    f.send(RollInitiative(dice=[9, 6]))  # Mira 9, the Bandit 6 + 4 = 10
    assert f.state.order == ["bandit", "mira"]


def test_the_gm_orders_ties_and_only_ties() -> None:
    """"These results will be placed in descending order to Track who acts when.\""""
    f = Fight()
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=MIRA))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm", sheet=BANDIT))
    f.send(AddCombatant(combatant_id="raider", name="Raider", side="enemies", controller="gm", sheet=BANDIT))
    f.send(RollInitiative(dice=[9, 12, 9]))  # the Bandit 12; Mira and the Raider tied at 9
    assert f.state.order == ["bandit", "mira", "raider"]
    f.send(SetTurnOrder(order=["bandit", "raider", "mira"]))  # a tie: the GM's to order
    assert f.state.order == ["bandit", "raider", "mira"]
    refused = f.refused(SetTurnOrder(order=["raider", "bandit", "mira"]))
    assert refused.code == "ht_initiative_order"
    assert refused.message.startswith("The Raider cannot act before the Bandit: ")
    f.send(StartEncounter())
    assert f.refused(SetTurnOrder(order=["mira", "raider", "bandit"])).code == "ht_initiative_order"
    f.send(AddCombatant(combatant_id="wolf", name="Wolf", side="enemies", controller="gm", sheet=BANDIT))
    assert f.state.order[-1] == "wolf"  # one who joins without a test acts after those with one
    assert f.refused(SetTurnOrder(order=["wolf", "bandit", "mira", "raider"])).code == "ht_initiative_order"
    f.send(SetTurnOrder(order=["bandit", "mira", "raider", "wolf"]))


def test_players_make_their_own_initiative_test_and_the_gm_rolls_the_rest() -> None:
    """"Players will roll for their characters while the Game Master rolls for Non-Player
    Characters. These results will be placed in descending order\""""
    f = Fight()
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player",
                        sheet={**MIRA, "initiative_bonus": 2}))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm", sheet=BANDIT))
    [test] = f.send(RollInitiativeTest(combatant_id="mira", dice=[7]))
    assert (test.roll.who, test.roll.total) == ("mira", 9) and f.state.combatants["mira"].initiative == 9
    assert f.refused(RollInitiativeTest(combatant_id="mira", dice=[20])).code == "ht_initiative_tested"
    [rolled] = f.send(RollInitiative(dice=[8]))  # the GM's one die: the Bandit's
    assert [(r.who, r.total) for r in rolled.rolls] == [("bandit", 8)] and f.state.order == ["mira", "bandit"]
    f.send(RollInitiativeTest(combatant_id="mira", dice=[1]))  # a test for the next roll: the GM re-rolls the rest
    f.send(RollInitiative(dice=[8]))
    assert f.state.order == ["bandit", "mira"] and f.state.combatants["mira"].initiative == 3
    assert f.ruleset.replay(f.events) == f.state


def test_the_initiative_test_is_made_before_combat_begins_and_never_by_the_dead() -> None:
    """"Each participant in Combat will make an Initiative Test before Combat begins." "The
    character is dead.\""""
    f = started()
    refused = f.refused(RollInitiativeTest(combatant_id="mira", dice=[7]))
    assert refused.code == "ht_combat_begun" and "before Combat begins" in refused.message
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # the Bandit at 0: dying
    f.send(RollInjury(combatant_id="bandit", dice=[1]))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # 5 Trauma: dead
    assert f.body("bandit").dead
    assert f.refused(RollInitiativeTest(combatant_id="bandit", dice=[7])).code == "ht_dead"


def test_a_turn_is_quarter_half_and_full_actions_with_one_quick_action() -> None:
    """"Most actions will be listed as Quarter (1/4), Half (1/2), or Full (1) Actions." "You get
    one Free Quick Action during each of your turns\""""
    f = started()
    f.send(TakeAction(combatant_id="mira", action="Move"))  # a Half
    f.send(TakeAction(combatant_id="mira", action="Aim"))  # a Quarter
    assert f.refused(TakeAction(combatant_id="mira", action="Move")).code == "not_enough_resource"
    f.send(TakeAction(combatant_id="mira", action="Aim"))  # the last Quarter
    f.send(TakeAction(combatant_id="mira", action="Draw a weapon", weapon="Bow"))  # the Quick Action
    assert f.refused(TakeAction(combatant_id="mira", action="Draw a weapon", weapon="Sword")).code == \
        "not_enough_resource"
    assert f.refused(TakeAction(combatant_id="mira", action="Juggle")).code == "ht_unknown_action"
    f.end_turn("mira")
    f.send(TakeAction(combatant_id="bandit", action="Brace"))  # a Full
    assert f.held("bandit")["turn quarters"] == 0


def test_an_attack_needs_the_target_in_range() -> None:
    """"you must be in range of your target. This is either in base to base contact with the
    target or within your readied weapons listed Range or Reach.\""""
    f = started()
    assert f.refused(Attack(combatant_id="mira", target="bandit", distance=2)).code == "ht_out_of_range"
    assert f.refused(Attack(combatant_id="mira", target="bandit", weapon="Axe")).code == "ht_unknown_weapon"
    f.send(TakeAction(combatant_id="mira", action="Draw a weapon", weapon="Bow"))
    rolled = f.send(Attack(combatant_id="mira", target="bandit", weapon="Bow", distance=8, dice=[1, 3]))
    assert types(rolled) == ["HTAttackDeclared", "HTAttackRolled", "HTHarmed"] and f.health("bandit") == 2


def test_an_attack_is_made_with_the_readied_weapon_and_drawing_another_readies_it() -> None:
    """"within your readied weapons listed Range or Reach": the sheet's readied weapon (its
    first by default) until the "Draw a weapon" action (a Quick Action, ours) readies another."""
    f = started()
    refused = f.refused(Attack(combatant_id="mira", target="bandit", weapon="Bow", distance=8))
    assert refused.code == "ht_not_readied" and refused.message.startswith("Mira's Bow is not readied (Sword is)")
    assert f.refused(TakeAction(combatant_id="mira", action="Draw a weapon")).code == "ht_unknown_weapon"
    assert f.refused(TakeAction(combatant_id="mira", action="Draw a weapon", weapon="Sword")).code == \
        "ht_already_readied"
    assert f.refused(TakeAction(combatant_id="mira", action="Aim", weapon="Bow")).code == "ht_draws_no_weapon"
    [drawn] = f.send(TakeAction(combatant_id="mira", action="Draw a weapon", weapon="Bow"))
    assert drawn.weapon == "Bow" and f.held("mira")["quick action"] == 0
    assert f.refused(Attack(combatant_id="mira", target="bandit", weapon="Sword")).code == "ht_not_readied"
    rolled = f.send(Attack(combatant_id="mira", target="bandit", distance=8, dice=[10, 3]))  # the Bow, by default
    assert rolled[1].weapon == "Bow"
    assert f.ruleset.shown(f.state).combatants["mira"].sheet.readied == "Bow"


def test_a_hit_deals_the_weapons_damage_less_protection() -> None:
    """"If you pass this Test, you Hit the Target and your roll the weapon's Damage. The resulting
    damage is then reduced by the Target's Protection with remaining damage reducing the health\""""
    f = started(bandit={**BANDIT, "protection": 2, "guard": 9})
    missed = f.send(Attack(combatant_id="mira", target="bandit", dice=[4]))  # 4 + 5 = 9, not above Guard 9
    assert isinstance(missed[-1], AttackRolled) and not missed[-1].hit
    hit = f.send(Attack(combatant_id="mira", target="bandit", dice=[5, 4]))  # 10 > 9; 4 - Protection 2
    assert isinstance(hit[1], AttackRolled) and hit[1].damage == 2
    assert f.health("bandit") == 3


def test_the_targets_reaction_is_offered_while_the_attack_waits() -> None:
    """"one Reaction inbetween your turns": the attack waits while the target may react."""
    f = started(data=HealthTraumaData(defence_die=0))  # the default Reactions: a Dodge, +2 Guard
    opened = f.send(Attack(combatant_id="mira", target="bandit"))
    window = opened[-1].window
    assert window.trigger == "Mira's attack on the Bandit"  # the GM's named with the article
    [decision] = f.ruleset.pending(f.state)
    assert decision.combatant_id == "bandit" and [c.name for c in decision.choices] == ["Dodge", "Pass"]
    # passing keeps the Reaction: a React with "Pass" is a PassReaction
    answer = decision.answer(decision.choices[1])
    assert answer == {"type": "React", "combatant_id": "bandit", "window": window.id, "reaction": "Pass"}
    passed = f.ruleset.decide(f.state, msgspec.convert(answer, f.ruleset.command_type),
                              SeededDice(SEED, ENCOUNTER, f.state.rolls_used))
    assert types(passed)[:2] == ["ReactionPassed", "HTAttackRolled"] and passed[1].reaction is None
    assert f.refused(msgspec.convert({"type": "EndTurn", "combatant_id": "mira"},
                                     f.ruleset.command_type)).code == "ht_attack_waiting"
    assert f.refused(Attack(combatant_id="mira", target="bandit")).code == "ht_attack_waiting"
    dodged = f.send(reactions.React(combatant_id="bandit", window=window.id, reaction="Dodge", dice=[2, 3]))
    rolled = dodged[1]
    assert isinstance(rolled, AttackRolled) and rolled.guard_total == 4 and rolled.attack_total == 7 and rolled.hit
    assert f.held("bandit")["reaction"] == 0
    f.send(Attack(combatant_id="mira", target="bandit", dice=[1, 1]))  # no Reaction left: no window
    assert f.state.rules.window is None


def test_wounded_below_half_of_the_maximum() -> None:
    """"Whenever you are reduced below half of your character's health your character becomes Wounded.\""""
    f = started(bandit={**BANDIT, "physique": 1})  # 6 Health
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 3]))
    assert f.health("bandit") == 3 and not wounded(f.state.combatants["bandit"].sheet, f.body("bandit"))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 1]))
    assert wounded(f.state.combatants["bandit"].sheet, f.body("bandit"))


def test_healing_restores_health_never_over_the_maximum() -> None:
    """"A character cannot be healed over thier maximum health.\""""
    f = started()
    assert f.refused(Heal(combatant_id="bandit", amount=2)).code == "ht_full_health"
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 3]))
    healed = f.send(Heal(combatant_id="bandit", dice_count=1, dice_sides=6, dice=[6]))
    assert healed[0].amount == 3 and f.health("bandit") == 5


def test_at_zero_the_character_is_dying_and_rolls_an_injury() -> None:
    """"When a character's health is at or below 0, that character receives an injury and is dying."
    "Roll 1D10, add five for each injury you already have, then consult the chart.\""""
    f = started()
    harmed = f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))[-1]
    assert isinstance(harmed, Harmed) and harmed.dying and harmed.health == -1
    [decision] = f.ruleset.pending(f.state)
    assert (decision.kind, decision.combatant_id, decision.command) == ("injury", "bandit", "HTRollInjury")
    assert f.refused(RollInjury(combatant_id="mira")).code == "ht_no_injury_due"
    assert f.refused(msgspec.convert({"type": "EndTurn", "combatant_id": "mira"}, f.ruleset.command_type)).code == "ht_injury_due"
    injury = f.send(RollInjury(combatant_id="bandit", dice=[2]))[0]
    assert isinstance(injury, InjuryRolled) and (injury.total, injury.result) == (2, "lucky_escape")
    assert f.body("bandit").dying and f.ruleset.pending(f.state) == []


def test_a_dying_character_takes_one_damage_at_each_rounds_end_as_trauma() -> None:
    """"A dying character takes one point of damage at the end of each round." "The most common way
    to receive Trauma is taking damage while dying. Each point of trauma reduces the maximum health\""""
    f = started()
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # 5 - 5 = 0: dying
    f.send(RollInjury(combatant_id="bandit", dice=[1]))
    f.end_turn("mira")
    ended = f.end_turn("bandit")
    assert types(ended)[:2] == ["TurnEnded", "HTHarmed"] and "RoundStarted" in types(ended)
    assert f.body("bandit").trauma == 1 and f.health("bandit") == -1 and f.maximum("bandit") == 4


def test_death_when_trauma_reaches_the_maximum_health_and_death_is_final() -> None:
    """"The first happens if they have taken Trauma equal or greater than their maximum Health."
    "There are no ways of returning the dead from the here-after\""""
    f = started()
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))
    f.send(RollInjury(combatant_id="bandit", dice=[1]))
    last = f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # 5 damage while dying: 5 Trauma
    assert isinstance(last[-1], Died) and last[-1].cause == "trauma" and f.body("bandit").dead
    for command in (Heal(combatant_id="bandit", amount=3), msgspec.convert(
            {"type": "HTStabilise", "combatant_id": "bandit"}, f.ruleset.command_type),
            msgspec.convert({"type": "HTRecuperate", "combatant_id": "bandit"}, f.ruleset.command_type)):
        assert f.refused(command).code == "ht_dead"
    assert f.refused(Attack(combatant_id="mira", target="bandit", dice=[10, 5])).code == "ht_not_a_target"


def test_the_dead_are_skipped_in_the_order() -> None:
    """"Each participant in combat will get one Turn per round" / "The character is dead": a dead
    character's turn ends as it comes; nobody has to end it for them, round after round."""
    f = Fight()
    f.send(SetHealthTraumaRules(data=HealthTraumaData(defence_die=0, reactions=[])))
    for cid, side, controller, sheet in (("mira", "party", "player", MIRA), ("bandit", "enemies", "gm", BANDIT),
                                         ("raider", "enemies", "gm", BANDIT)):
        f.send(AddCombatant(combatant_id=cid, name=cid.title(), side=side, controller=controller, sheet=sheet))
    f.send(RollInitiative(dice=[15, 10, 5]))
    f.send(StartEncounter())
    f.send(Attack(combatant_id="mira", target="raider", dice=[10, 5]))  # the Raider at 0: dying
    f.send(RollInjury(combatant_id="raider", dice=[1]))
    f.send(Attack(combatant_id="mira", target="raider", dice=[10, 5]))  # 5 Trauma: dead
    assert f.body("raider").dead and f.state.order == ["mira", "bandit", "raider"]
    f.end_turn("mira")
    ended = f.end_turn("bandit")  # the Raider, last, is skipped: the round ends with the Bandit's turn
    assert [(type(e).__name__, getattr(e, "combatant_id", None)) for e in ended] == [
        ("TurnEnded", "bandit"), ("TurnEnded", "raider"), ("RoundStarted", None)]
    assert (f.state.round, f.state.turn) == (2, "mira")
    assert f.refused(msgspec.convert({"type": "EndTurn", "combatant_id": "raider"},
                                     f.ruleset.command_type)).code == "not_your_turn"
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # the Bandit at 0: dying
    f.send(RollInjury(combatant_id="bandit", dice=[1]))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # dead too
    ended = f.end_turn("mira")  # both skipped, round after round: Mira's turn again
    assert types(ended) == ["TurnEnded", "TurnEnded", "TurnEnded", "RoundStarted"]
    assert (f.state.round, f.state.turn) == (3, "mira")


@pytest.mark.parametrize(("reading", "dead"), [("maximum_before_trauma", False), ("lowered_maximum", True)])
def test_which_maximum_trauma_is_measured_against_is_the_gms_reading(reading: str, dead: bool) -> None:
    """"if they have taken Trauma equal or greater than their maximum Health": against five plus
    Physique (ours) or the maximum Trauma has lowered ("Each point of trauma reduces the maximum
    health of the character by one"), as the GM's data says."""
    f = started(data=HealthTraumaData(defence_die=0, reactions=[], trauma_death=reading))  # type: ignore[arg-type]
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 5]))  # the Bandit's 5 Health: 0, dying
    f.send(RollInjury(combatant_id="bandit", dice=[1]))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 3]))  # 3 Trauma: the maximum is 5, lowered to 2
    assert f.body("bandit").trauma == 3 and f.body("bandit").dead is dead


def test_the_mortal_blow_kills() -> None:
    """"The attack that injured the character was fatal. The character is dead.\""""
    f = started()
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))
    f.send(SetHealthTraumaRules(data=msgspec.convert({"defence_die": 0, "reactions": [], "injury_chart": [
        {"least": 1, "result": "lucky_escape"}, {"least": 10, "result": "mortal_blow"}]}, HealthTraumaData)))
    died = f.send(RollInjury(combatant_id="bandit", dice=[10]))
    assert isinstance(died[-1], Died) and died[-1].cause == "mortal_blow"


def test_the_gms_data_is_checked() -> None:
    with pytest.raises(msgspec.ValidationError, match="injury_chart"):
        msgspec.convert({"injury_chart": [{"least": 5, "result": "maimed"}, {"least": 2, "result": "reeling"}]},
                        HealthTraumaData)
    with pytest.raises(msgspec.ValidationError, match="maim_table"):
        msgspec.convert({"maim_table": ["arm"]}, HealthTraumaData)


def test_a_fight_set_before_actions_could_draw_still_draws_with_its_draw_a_weapon() -> None:
    """"within your readied weapons listed Range or Reach": an HTRulesSet stored before actions
    said whether they draw (schema 1) is read with its "Draw a weapon" drawing, as the default's does."""
    ruleset = HealthTrauma()
    old = {"type": "HTRulesSet", "data": {**msgspec.to_builtins(HealthTraumaData()), "actions": [
        {"name": "Draw a weapon", "size": "quick", "needs_arms": True}, {"name": "Aim", "size": "quarter"}]}}
    event = ruleset.decode_event("HTRulesSet", 1, msgspec.json.encode(old))
    assert [a.draws for a in event.data.actions] == [True, False]
    assert ruleset.schema_versions["HTRulesSet"] == 2
