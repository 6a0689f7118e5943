"""Trip and Disarm."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.non_lethal import NonLethalAttack
from domain.rulesets import default_registry

RULESET = default_registry().get("places-of-power")
SWORD = {"name": "Sword", "skill": "Sword", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
GREATAXE = {"name": "Greataxe", "skill": "Axe", "kind": "melee", "two_handed": True,
            "ranges": {"Melee": {"difficulty": "Normal", "damage": 3}}}
SHIELD = {"name": "Shield", "skill": "Shield", "kind": "melee", "shield": True,
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
SHEET = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Sword": "D8", "Axe": "D8", "Shield": "D8",
                                                                       "Athletics": "D8"}}


def table(their_weapon: dict) -> list:
    state = [RULESET.replay(RULESET.open("e", "Brawl", "reported", "x"))]

    def play(command, faces=()):
        for event in RULESET.decide(state[0], command, ReportedDice(list(faces))):
            state[0] = RULESET.evolve(state[0], event)
        return state[0]

    play(AddCombatant(name="Mira", side="a", controller="player", combatant_id="mira", sheet={**SHEET, "weapons": [SWORD]}))
    play(AddCombatant(name="Goon", side="b", controller="gm", combatant_id="goon",
                      sheet={**SHEET, "weapons": [their_weapon]}))
    play(RollInitiative(), [12, 1])
    play(StartEncounter())
    return [state, play]


def test_a_trip_won_leaves_the_target_prone() -> None:
    """"Trip (2 AP): ... an Opposed Roll between your skill level with the weapon you are using
    and the target's Evade skill. If you are successful then your target is knocked down and is
    considered Prone ... This Actions costs Action Points for you, but not for your target.\""""
    state, play = table(SWORD)
    s = play(NonLethalAttack(combatant_id="mira", target="goon", move="Trip", weapon="Sword"), [7, 7, 2, 2])
    assert s.combatants["goon"].sheet.prone is True
    assert s.combatants["mira"].action_points == 1 and s.combatants["goon"].action_points == 3


def test_a_disarm_won_knocks_the_weapon_away() -> None:
    """"Disarm (2 AP): The weapon your target is using is knocked from their hands\""""
    state, play = table(SWORD)
    s = play(NonLethalAttack(combatant_id="mira", target="goon", move="Disarm", weapon="Sword"), [7, 7, 2, 2])
    assert s.combatants["goon"].sheet.dropped_weapons == ["Sword"]


def test_disarming_a_two_handed_weapon_is_at_disadvantage() -> None:
    """"If your target is using a two handed weapon then you roll at a Disadvantage": the
    attacker's Strength D8 + Sword D8 becomes D8 + D6."""
    _, play = table(GREATAXE)
    with pytest.raises(RuleViolation) as e:
        play(NonLethalAttack(combatant_id="mira", target="goon", move="Disarm", weapon="Sword"), [7, 7, 2, 2])
    assert e.value.code == "die_face_out_of_range"  # a 7 on the stepped-down D6
    s = play(NonLethalAttack(combatant_id="mira", target="goon", move="Disarm", weapon="Sword"), [6, 5, 2, 2])
    assert s.combatants["goon"].sheet.dropped_weapons == ["Greataxe"]


def test_a_shield_cannot_be_disarmed() -> None:
    """"You cannot Disarm a shield.\""""
    state, play = table(SHIELD)
    with pytest.raises(RuleViolation) as e:
        play(NonLethalAttack(combatant_id="mira", target="goon", move="Disarm", weapon="Sword"), [7, 7, 2, 2])
    assert e.value.code == "nothing_to_disarm"


def test_a_taunt_is_persuasion_and_strength_harder_once_engaged() -> None:
    """Quotes: "Taunt (1 AP): ... Roll Persuasion + Strength with a Difficulty Level of Normal if
    the target has not yet engaged in the combat, and Difficult if they have. The GM will decide
    the exact effect this has"."""
    from domain.places_of_power.non_lethal import Taunt

    state = RULESET.replay(RULESET.open("e", "Taunts", "reported", "x"))
    for command, faces in (
        (AddCombatant(name="Mira", side="a", controller="player", combatant_id="mira",
                      sheet={**SHEET, "skills": {"Persuasion": "D8"}}), []),
        (AddCombatant(name="Goon", side="b", controller="gm", combatant_id="goon"), []),
        (RollInitiative(), [12, 1]),
        (StartEncounter(), []),
    ):
        for event in RULESET.decide(state, command, ReportedDice(faces)):
            state = RULESET.evolve(state, event)
    (fresh,) = RULESET.decide(state, Taunt(combatant_id="mira", target="goon", engaged=False), ReportedDice([5, 4]))
    assert (fresh.difficulty, fresh.total, fresh.outcome, fresh.action_points) == ("Normal", 9, "Partial Success", 1)
    (late,) = RULESET.decide(state, Taunt(combatant_id="mira", target="goon", engaged=True), ReportedDice([5, 4]))
    assert (late.difficulty, late.outcome) == ("Difficult", "Failure")
    with pytest.raises(RuleViolation) as e:
        RULESET.decide(state, Taunt(combatant_id="mira", target="mira", engaged=False), ReportedDice([5, 4]))
    assert e.value.code == "invalid_target"
    assert RULESET.evolve(state, fresh).combatants["mira"].action_points == 2


# ----------------------------------------------- the Penalty Points of an opposed roll

BRAWLER = {"attributes": {"strength": "D8", "agility": "D8"},
           "skills": {"Sword": "D8", "Athletics": "D8", "Brawling": "D8", "Persuasion": "D8"}, "weapons": [SWORD]}


def opposed_move(move: str, hits: int, penalties: list[str]):  # type: ignore[no-untyped-def]
    """Mira (``hits`` Hits) makes ``move`` on the Goon, paying ``penalties``; for BreakFree the
    Goon has grappled her first. Her dice: 6 and 5, the Goon's 1 and 1."""
    from domain.core.encounter import EndTurn
    from domain.places_of_power.grapples import BreakFree, Grapple
    from domain.places_of_power.morale import DemandSurrender
    from domain.places_of_power.movement import Shove
    from tests.rulesets.places_of_power.fight import Fight

    f = Fight(dice_policy="reported")
    f.send(AddCombatant(name="Mira", side="a", controller="player", combatant_id="mira",
                        sheet={**BRAWLER, "hits": hits}))
    f.send(AddCombatant(name="Goon", side="b", controller="gm", combatant_id="goon", sheet=BRAWLER))
    f.roll([1, 12] if move == "BreakFree" else [12, 1])
    f.start()
    if move == "BreakFree":
        f.send(Grapple(combatant_id="goon", target="mira", dice=[8, 8, 1, 1]))
        f.send(EndTurn(combatant_id="goon"))
    mira = {"combatant_id": "mira", "penalties": penalties}
    command = {
        "Grapple": lambda: Grapple(target="goon", dice=[6, 5, 1, 1], **mira),
        "BreakFree": lambda: BreakFree(dice=[6, 5, 1, 1], **mira),
        "Trip": lambda: NonLethalAttack(target="goon", move="Trip", weapon="Sword", dice=[6, 5, 1, 1], **mira),
        "Disarm": lambda: NonLethalAttack(target="goon", move="Disarm", weapon="Sword", dice=[6, 5, 1, 1], **mira),
        "Shove": lambda: Shove(target="goon", dice=[6, 5, 1, 1], **mira),
        "DemandSurrender": lambda: DemandSurrender(target="goon", dice=[6, 5], **mira),
    }[move]()
    return f, command


OPPOSED_MOVES = [("Grapple", 2), ("BreakFree", 0), ("Trip", 2), ("Disarm", 2), ("Shove", 2), ("DemandSurrender", 2)]


@pytest.mark.parametrize(("move", "hits"), OPPOSED_MOVES)
def test_an_opposed_rolls_penalty_point_may_reduce_a_die(move: str, hits: int) -> None:
    """Penalty Points: "the Player is free to select the specific penalty or penalties of their
    choice" - "Reduce Dice Value - Reduce the value of one of the dice you are rolling by one
    level." Breaking free is "an Opposed Brawling Roll, with a 1 Point Penalty"; Wounded ("You
    must apply 1 Penalty Point to all actions you perform") Mira grapples, trips, disarms,
    shoves and demands a surrender with one. She picks her Skill die: D8 to D6, no more AP."""
    f, command = opposed_move(move, hits, ["StepDownDie:1"])
    before = f.ap("mira")
    (event,) = f.send(command)
    assert [d.sides for d in event.roll.sides[0].dice] == [8, 6]
    assert event.action_points == before - f.ap("mira") == {"Shove": 1}.get(move, 2)
    assert f.ruleset.replay(f.events) == f.state


@pytest.mark.parametrize(("move", "hits"), OPPOSED_MOVES)
@pytest.mark.parametrize("penalty", ["IncreaseDifficulty", "ReduceDamage"])
def test_an_opposed_roll_has_no_difficulty_to_raise_nor_damage_to_reduce(move: str, hits: int, penalty: str) -> None:
    """An Opposed Roll: "the person who rolls the highest wins the match" - no Difficulty Level
    to increase, and no Base Damage to reduce; the point is paid another way."""
    f, command = opposed_move(move, hits, [penalty])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.send(command)
    assert e.value.code == "penalty_not_applicable" and f.state == before
