"""Enemies played from a Stat Block: the reduced skill list, Set Actions, Special Actions,
Speed, Abilities."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.dice import DieRoll, ReportedDice
from domain.core.encounter import AddCombatant, Command, EndTurn, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power import enemies
from domain.places_of_power.actions import GmCostedAction, TakeAction
from domain.places_of_power.attacks import (
    Attack,
    ChooseCriticalEffect,
    Defence,
    Defend,
    ResolveMishap,
    SpendSuccesses,
)
from domain.places_of_power.enemies import UseSpecialAction
from domain.places_of_power.grapples import Grapple
from domain.places_of_power.non_lethal import NonLethalAttack
from domain.places_of_power.pull_your_punch import PullYourPunch
from domain.places_of_power.statuses import ApplyStatus
from projections.visibility import Viewer, state_for
from tests.rulesets.places_of_power.fight import Fight, shown

SWORD = {"name": "Sword", "skill": "Sword", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
CLUB = {"name": "Club", "skill": "Melee", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
BOW = {"name": "Bow", "skill": "Ranged", "kind": "ranged", "ranges": {"Near": {"difficulty": "Normal", "damage": 1}}}
MIRA = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Sword": "D8", "Athletics": "D8",
                                                                      "Brawling": "D6"}, "weapons": [SWORD]}
BLOCK = {
    "speed": "Fast", "morale": 8, "set_actions": ["Light Melee Attack", "Parry"], "abilities": ["Fights dirty"],
    "special_actions": [{"name": "Rally", "action_points": 1},
                        {"name": "War Cry", "action_points": 2, "once_per_combat": True}],
}
GOON = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Melee": "D8", "Athletics": "D8"},
        "weapons": [CLUB], "stat_block": BLOCK}


def add(f: Fight, cid: str, sheet: dict[str, Any], *, gm: bool = True) -> None:
    f.send(AddCombatant(combatant_id=cid, name=cid.capitalize(), side="enemies" if gm else "party",
                        controller="gm" if gm else "player", sheet=sheet))


def fight(goon: dict[str, Any] | None = None) -> Fight:
    """Mira (a player) acts first, then the Goon (an Enemy with a Stat Block)."""
    f = Fight(dice_policy="reported")
    add(f, "mira", MIRA, gm=False)
    add(f, "goon", goon or GOON)
    f.send(RollInitiative(dice=[12, 1]))
    f.send(StartEncounter())
    return f


def refused(f: Fight, command: Command) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.send(command)
    assert f.state == before
    return e.value


def adding_refused(sheet: dict[str, Any], *, gm: bool = True) -> RuleViolation:
    f = Fight(dice_policy="reported")
    with pytest.raises(RuleViolation) as e:
        add(f, "goon", sheet, gm=gm)
    return e.value


# --------------------------------------------------------------------- reduced skill list


def test_an_enemys_skills_are_the_reduced_list() -> None:
    """"Reduced Skill List: Enemies have a greatly reduced list of Skills ... Weapon Skills are
    grouped into Melee and Ranged, with Brawling being separate. Mere use is also grouped into a
    single Skill called Magic." (Athletics stays: the Evade and Dive defences roll it.)"""
    e = adding_refused({**GOON, "skills": {"Melee": "D8", "Sword": "D8"}})
    assert e.code == "invalid_sheet" and "Sword" in e.message
    e = adding_refused({**GOON, "mere_skills": {"Rosmere": "D8"}})
    assert e.code == "invalid_sheet" and "Rosmere" in e.message
    f = Fight(dice_policy="reported")
    add(f, "goon", {**GOON, "skills": {"Melee": "D8", "Ranged": "D6", "Brawling": "D6", "Magic": "D8",
                                       "Athletics": "D6"}, "weapons": [CLUB, BOW]})
    assert f.state.combatants["goon"].sheet.stat_block.morale == 8


def test_an_enemys_weapons_use_melee_or_ranged() -> None:
    """Weapon Skills "grouped into Melee and Ranged, with Brawling being separate": a melee weapon
    rolls Melee (or Brawling), a ranged one Ranged."""
    e = adding_refused({**GOON, "weapons": [SWORD]})
    assert e.code == "invalid_sheet" and "Sword" in e.message
    e = adding_refused({**GOON, "weapons": [{**BOW, "skill": "Melee"}]})
    assert e.code == "invalid_sheet" and "Ranged" in e.message


def test_only_the_gm_has_stat_blocks_and_npcs_without_one_keep_a_full_sheet() -> None:
    """Stat Blocks describe "The Enemies you face"; an NPC without one is played like a player."""
    assert adding_refused({**MIRA, "stat_block": BLOCK}, gm=False).code == "invalid_sheet"
    f = Fight(dice_policy="reported")
    add(f, "thug", MIRA)  # an NPC with a player's sheet: any skill, any weapon skill
    assert f.state.combatants["thug"].sheet.stat_block is None


def test_speed_is_exposed() -> None:
    """"A Speed value: ... Normal means they move like a regular Player Character, Slow reduces
    their movement to half, and Fast allows them to move as if using the Dash ability\""""
    f = fight()
    assert enemies.speed(f.state.combatants["goon"]) == "Fast"
    assert enemies.speed(f.state.combatants["mira"]) == "Normal"


def test_abilities_stay_on_the_block_for_the_gm_and_hidden_from_players() -> None:
    """"Abilities: ... a list of certain things they can do, and ways they behave": the GM reads
    them in the state; players see an NPC's wound level, not its sheet."""
    f = fight()
    assert f.state.combatants["goon"].sheet.stat_block.abilities == ["Fights dirty"]
    seen = state_for(f.state, Viewer("player", frozenset({"mira"})))
    assert "stat_block" not in (seen["combatants"]["goon"]["sheet"] or {})


# --------------------------------------------------------------------------- set actions


def goons_turn(f: Fight) -> None:
    f.end_turn("mira")
    assert f.turn == "goon"


def test_an_enemy_cannot_do_what_its_block_does_not_list() -> None:
    """"each Enemy only has a limited number of Set Actions that they can perform ... they cannot
    have the Enemy do something that is not listed.\""""
    f = fight()
    goons_turn(f)
    e = refused(f, Attack(combatant_id="goon", target="mira", attack="HeavyMelee", band="Melee", weapon="Club",
                          dice=[4, 4]))
    assert e.code == "not_a_set_action" and e.details["set_actions"] == ["Light Melee Attack", "Parry"]
    f.send(Attack(combatant_id="goon", target="mira", attack="LightMelee", band="Melee", weapon="Club", dice=[1, 2]))
    assert f.ap("goon") == 2
    assert refused(f, NonLethalAttack(combatant_id="goon", target="mira", move="Trip", weapon="Club",
                                      dice=[1, 1, 1, 1])).code == "not_a_set_action"
    assert refused(f, Grapple(combatant_id="goon", target="mira", dice=[1, 1, 1, 1])).code == "not_a_set_action"


def test_set_actions_cover_defensive_actions_too_but_not_taking_a_blow() -> None:
    """"This applies to both Offensive and Defensive Actions." Taking the Hit on the armour or
    taking it is no action: always open."""
    f = fight()
    f.send(Attack(combatant_id="mira", target="goon", attack="LightMelee", band="Melee", weapon="Sword",
                  dice=[5, 4]))
    attack = shown(f.state).rules.exchange.id
    # the exchange's choices are what Defend accepts: Parry is listed, Evade and Tank are not
    assert {c.name for c in shown(f.state).rules.exchange.choices} == {"Parry", "TakeIt"}
    assert refused(f, Defend(combatant_id="goon", attack=attack, defence="Evade", dice=[4, 5])).code == \
        "not_a_set_action"
    f.send(Defend(combatant_id="goon", attack=attack, defence="Parry", dice=[1, 2]))  # listed; it fails
    assert {c.name for c in shown(f.state).rules.exchange.choices} == {"TakeIt"}
    f.send(Defend(combatant_id="goon", attack=attack, defence="TakeIt"))
    assert f.state.combatants["goon"].sheet.hits == 2


def test_common_actions_are_not_set_actions() -> None:
    """Set Actions are the "Offensive and Defensive Actions"; moving, cover and standing are
    Common Actions every combatant has."""
    f = fight()
    goons_turn(f)
    f.send(TakeAction(combatant_id="goon", action="TakeCover"))
    assert f.state.combatants["goon"].sheet.in_cover is True


def test_a_block_listing_no_actions_restricts_nothing() -> None:
    """An empty ``set_actions``: the GM has not written the Set Actions down."""
    f = fight({**GOON, "stat_block": {**BLOCK, "set_actions": []}})
    goons_turn(f)
    f.send(Attack(combatant_id="goon", target="mira", attack="HeavyMelee", band="Melee", weapon="Club", dice=[1, 2]))
    assert f.ap("goon") == 1


def test_listed_names_ignore_case_spaces_and_the_word_attack() -> None:
    assert enemies.plain("Light Melee Attack") == enemies.plain("LightMelee") == "lightmelee"
    assert enemies.plain("human shield") == "humanshield"
    assert enemies.plain("Ranged Attack") == "ranged"


# ----------------------------------------------------------------------- special actions


def test_a_special_action_costs_its_action_points_once_a_turn() -> None:
    """"Only a single Special Action can be used per turn\""""
    f = fight()
    goons_turn(f)
    f.send(UseSpecialAction(combatant_id="goon", name="Rally", note="the goons close ranks"))
    assert f.ap("goon") == 2
    e = refused(f, UseSpecialAction(combatant_id="goon", name="War Cry"))
    assert e.code == "special_action_this_turn"
    f.end_round()
    f.end_turn("mira")
    f.send(UseSpecialAction(combatant_id="goon", name="Rally"))  # a new turn
    assert f.ap("goon") == 3


def test_some_special_actions_are_once_per_combat() -> None:
    """"with some being limited to a single use per Combat\""""
    f = fight()
    goons_turn(f)
    f.send(UseSpecialAction(combatant_id="goon", name="War Cry"))
    f.end_round()
    f.end_turn("mira")
    assert refused(f, UseSpecialAction(combatant_id="goon", name="War Cry")).code == "special_action_spent"
    f.send(UseSpecialAction(combatant_id="goon", name="Rally"))


def test_a_special_action_must_be_on_the_block_and_used_on_the_enemys_turn() -> None:
    f = fight()
    assert refused(f, UseSpecialAction(combatant_id="goon", name="Rally")).code == "not_your_turn"
    goons_turn(f)
    e = refused(f, UseSpecialAction(combatant_id="goon", name="Fireball"))
    assert e.code == "unknown_special_action" and e.details["special_actions"] == ["Rally", "War Cry"]
    f.send(TakeAction(combatant_id="goon", action="TakeCover"))
    f.send(TakeAction(combatant_id="goon", action="Dash"))
    assert refused(f, UseSpecialAction(combatant_id="goon", name="War Cry")).code == "not_enough_action_points"


# ------------------------------------------ the exchange offers exactly what it accepts

KNIFE = {"name": "Knife", "skill": "Melee", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
SHIELD = {"name": "Shield", "skill": "Melee", "kind": "melee", "shield": True,
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
PISTOL = {"name": "Pistol", "skill": "Ranged", "kind": "ranged", "gun": True,
          "ranges": {"Close": {"difficulty": "Normal", "damage": 3}, "Near": {"difficulty": "Normal", "damage": 3},
                     "Far": {"difficulty": "Difficult", "damage": 2}}}
ARMOUR = [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2},
          {"name": "Helm", "layer": "Helmet", "value": 1, "durability": 1}]
LISTABLE = ["Evade", "Parry", "Dive", "Tank", "Human Shield", "Light Melee Attack", "Heavy Melee Attack",
            "Ranged Attack", "Grapple", "Pull your Punch"]
# every penalty a Penalty Point may be paid with (plain StepDownDie is one of the two dice)
PENALTIES = ("IncreaseDifficulty", "IncreaseCost", "ReduceDamage", "StepDownDie:0", "StepDownDie:1")


class Drawn(ReportedDice):
    """Faces drawn by hypothesis within each die."""

    def __init__(self, data: Any) -> None:
        super().__init__([])
        self.data = data

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        return DieRoll(sides=sides, face=self.data.draw(st.integers(1, sides), label=purpose), purpose=purpose,
                       source="reported")


class Ones(ReportedDice):
    """A 1 on every die: whether a command is accepted does not depend on its faces."""

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        return DieRoll(sides=sides, face=1, purpose=purpose, source="reported")


def accepted(f: Fight, command: Command) -> bool:
    try:
        f.ruleset.decide(f.state, command, Ones([]), seed=f.seed)
    except RuleViolation:
        return False
    return True


def play(f: Fight, command: Command, data: Any) -> bool:
    """Send ``command`` with drawn dice; False (and nothing changes) if it is refused."""
    try:
        new = f.ruleset.decide(f.state, command, Drawn(data), seed=f.seed)
    except RuleViolation:
        return False
    for event in new:
        f.state = f.ruleset.evolve(f.state, event)
    f.events.extend(new)
    return True


def fighter(draw: Any, *, block: bool) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "attributes": {"strength": "D8", "agility": draw(st.sampled_from(["D4", "D8"])), "dexterity": "D8"},
        "skills": {"Melee": "D8", "Ranged": "D8", "Brawling": "D6",
                   **({"Athletics": draw(st.sampled_from(["D4", "D6"]))} if draw(st.booleans()) else {})},
        "weapons": draw(st.sampled_from([[KNIFE, PISTOL], [PISTOL], [KNIFE, SHIELD, PISTOL]])),
        "armour": draw(st.sampled_from([[], ARMOUR[:1], ARMOUR])),
        "hits": draw(st.sampled_from([0, 0, 0, 2, 3, 4])),
        "prone": draw(st.booleans()),
        "conditions": draw(st.sampled_from([[], ["Dizzy"]])),
    }
    if block:
        sheet["stat_block"] = {"set_actions": draw(st.lists(st.sampled_from(LISTABLE), unique=True, max_size=6))}
    return sheet


def offered_is_accepted(f: Fight) -> None:
    """At a defence, riposte or pull: each choice offered is accepted (with some Penalty Points),
    and each accepted one is offered."""
    ex = shown(f.state).rules.exchange
    offered = {c.name for c in ex.choices}
    if ex.stage == "pull":
        pulls = {"PullYourPunch": True, "LetItLand": False}
        assert offered == {name for name, pull in pulls.items()
                           if accepted(f, PullYourPunch(combatant_id=ex.attacker, attack=ex.id, pull=pull))}
        return
    who = ex.awaiting
    taken = set()
    for defence in get_args(Defence):
        for n in range(4):
            if any(accepted(f, Defend(combatant_id=who, attack=ex.id, defence=defence, penalties=list(p)))
                   for p in combinations_with_replacement(PENALTIES, n)):
                taken.add(defence)
                break
    assert offered == taken, (ex.stage, offered, taken)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_exchange_offers_exactly_what_it_accepts(data: Any) -> None:
    """Stat Blocks: "each Enemy only has a limited number of Set Actions that they can perform.
    This applies to both Offensive and Defensive Actions." The exchange's ``choices`` are the
    legal ones: at every defence, riposte and pull, over Enemies with any Set Actions, players,
    wounds, Prone, Conditions, statuses, grapples, armour, range and aim, a choice is offered
    exactly when the command making it is accepted."""
    draw = data.draw
    enemy_defends = draw(st.booleans(), label="the Enemy defends")
    f = Fight(dice_policy="reported")
    kind, weapon, band = draw(st.sampled_from([("LightMelee", "Knife", "Melee"), ("HeavyMelee", "Knife", "Melee"),
                                               ("Ranged", "Pistol", "Close"), ("Ranged", "Pistol", "Near"),
                                               ("Ranged", "Pistol", "Far")]), label="attack")
    striker = {"attributes": {"strength": "D10", "dexterity": "D10"}, "skills": {"Melee": "D10", "Ranged": "D10"},
               "weapons": [KNIFE, PISTOL]}
    if not enemy_defends:  # the Enemy attacks: its block lists the attack, maybe Pull your Punch
        listed = draw(st.sampled_from([[], ["Pull your Punch"]]), label="the attacker's Set Actions")
        striker["stat_block"] = {"set_actions": [{"LightMelee": "Light Melee Attack", "HeavyMelee": "Heavy Melee",
                                                  "Ranged": "Ranged Attack"}[kind], *listed]}
    add(f, "mira", striker if enemy_defends else fighter(draw, block=False), gm=False)
    add(f, "goon", fighter(draw, block=True) if enemy_defends else striker)
    add(f, "kess", {"attributes": {"strength": "D4"}, "skills": {"Brawling": "D4"}}, gm=False)
    defender, attacker = ("goon", "mira") if enemy_defends else ("mira", "goon")
    for name in draw(st.sampled_from([[], [], [], ["Staggered"], ["Paralysed"], ["Deafened"], ["Exposed"],
                                      ["Deafened", "Staggered"]]), label="statuses"):
        f.send(ApplyStatus(combatant_id=defender, status=name, lasts="until_removed"))
    # the defender acts first: spends some Action Points, maybe grapples Kess
    f.send(RollInitiative(dice=[1, 12, 1] if enemy_defends else [12, 1, 1]))
    f.send(StartEncounter())
    if f.state.turn != defender:
        f.send(EndTurn(combatant_id=f.state.turn))
    if draw(st.booleans(), label="holds Kess"):
        play(f, Grapple(combatant_id=defender, target="kess"), data)
    spent = draw(st.integers(0, 3), label="AP spent")
    if spent:
        play(f, GmCostedAction(combatant_id=defender, action="NonCombatTask", action_points=spent,
                               description="busy"), data)
    while f.state.turn != attacker:
        f.send(EndTurn(combatant_id=f.state.turn))
    head = kind == "Ranged" and draw(st.booleans(), label="head shot")
    attack = Attack(combatant_id=attacker, target=defender, attack=kind, weapon=weapon, band=band,
                    modifiers=["TargetedHit"] if head else [], aim="head" if head else "body",
                    from_behind=draw(st.booleans(), label="from behind"),
                    # a hit, a hit with Successes to spend, a Critical Success, a Critical Miss
                    dice=draw(st.sampled_from([[4, 6], [7, 9], [9, 9], [1, 1]]), label="attack dice"))
    new = f.ruleset.decide(f.state, attack, ReportedDice(list(attack.dice or [])), seed=f.seed)
    for event in new:
        f.state = f.ruleset.evolve(f.state, event)
    f.events.extend(new)
    for _ in range(8):  # walk the exchange to its end, checking every stage that offers a choice
        ex = shown(f.state).rules.exchange
        if ex is None:
            return
        if ex.stage in ("defence", "riposte", "pull"):
            offered_is_accepted(f)
        choice = draw(st.sampled_from([c.name for c in ex.choices]), label=f"{ex.stage} choice")
        if ex.stage == "critical":
            command: Command = ChooseCriticalEffect(combatant_id=ex.attacker, attack=ex.id, effect=choice,
                                                    condition="Dazed" if choice == "InflictCondition" else None)
        elif ex.stage == "spend":
            command = SpendSuccesses(combatant_id=ex.attacker, attack=ex.id, split=["Damage"] * ex.extra)
        elif ex.stage == "mishap":
            command = ResolveMishap(attack=ex.id, result=None if choice == "roll" else int(choice))
        elif ex.stage == "pull":
            command = PullYourPunch(combatant_id=ex.attacker, attack=ex.id, pull=choice == "PullYourPunch")
        else:
            command = next(c for n in range(4) for p in combinations_with_replacement(PENALTIES, n)
                           if accepted(f, c := Defend(combatant_id=ex.awaiting, attack=ex.id, defence=choice,
                                                      penalties=list(p))))
        assert play(f, command, data), command
    assert msgspec.json.encode(f.ruleset.replay(f.events)) == msgspec.json.encode(f.state)


@pytest.mark.parametrize("listed", [["Grapple", "Parry", "Human Shield"], ["Grapple", "Parry"]])
def test_a_human_shield_and_a_riposte_are_offered_as_they_are_accepted(listed: list[str]) -> None:
    """Human Shield: "If you have successfully Grappled an enemy and are currently in control of
    the grapple, then you may use them to defend" - offered to an Enemy only if its block lists
    it ("they cannot have the Enemy do something that is not listed"); a Parry that beats the
    attack by a level is a Riposte, which the attacker takes on the armour or not."""
    goon = {**GOON, "stat_block": {**BLOCK, "set_actions": listed}, "skills": {**GOON["skills"], "Brawling": "D8"}}
    f = Fight(dice_policy="reported")
    add(f, "mira", MIRA, gm=False)
    add(f, "goon", goon)
    add(f, "kess", {"attributes": {"strength": "D4"}, "skills": {"Brawling": "D4"}}, gm=False)
    f.send(RollInitiative(dice=[1, 1, 12]))
    f.send(StartEncounter())
    f.send(Grapple(combatant_id="goon", target="kess", dice=[8, 8, 1, 1]))
    while f.state.round == 1 or f.state.turn != "mira":  # round 2: the Goon has a set 4 Action Points
        f.send(EndTurn(combatant_id=f.state.turn))
    f.send(Attack(combatant_id="mira", target="goon", attack="LightMelee", band="Melee", weapon="Sword", dice=[5, 4]))
    offered_is_accepted(f)
    assert ("HumanShield" in {c.name for c in shown(f.state).rules.exchange.choices}) is ("Human Shield" in listed)
    f.send(Defend(combatant_id="goon", attack=shown(f.state).rules.exchange.id, defence="Parry",
                  penalties=["IncreaseCost"], dice=[8, 8]))  # in control of a grapple: a 1 Point Penalty
    assert shown(f.state).rules.exchange.stage == "riposte"
    offered_is_accepted(f)
