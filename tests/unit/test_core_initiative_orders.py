"""Initiative of several dice and the orders of play the rule texts need (domain/core/initiative.py)."""

from __future__ import annotations

import msgspec

from domain.core.dice import DieRoll, ReportedDice
from domain.core.encounter import InitiativeRoll, InitiativeRolled
from domain.core.initiative import (
    Entry, companions_last, defeated_replaced, order_alternating_sides, roll_exploding, surprised_last,
)
from domain.places_of_power.ruleset import PlacesOfPower


def faces(roll) -> list[int]:
    return [d.face for d in roll.dice]


def test_novus_2d10_explode_and_implode() -> None:
    """Novus (novus-gaps N1): "A 10 on either die is added and that die is rolled again, and again
    on every further 10 (it explodes). A 1 on either die works the other way: that die is rolled
    again and the new roll is subtracted, and again on every further 1 (it implodes). Once a die
    has exploded or imploded it can't switch direction." """
    plain = roll_exploding(ReportedDice([4, 6]), "initiative")
    assert faces(plain) == [4, 6] and plain.total == 10
    exploded = roll_exploding(ReportedDice([10, 5, 10, 3]), "initiative")
    assert exploded.total == 10 + 5 + 10 + 3
    imploded = roll_exploding(ReportedDice([1, 7, 1, 4]), "initiative")
    assert imploded.total == 1 + 7 - 1 - 4
    no_switch = roll_exploding(ReportedDice([10, 6, 1]), "initiative")  # a 1 after a 10 just adds
    assert no_switch.total == 17 and len(no_switch.dice) == 3


def test_novus_nova_roll_neither_explodes_nor_implodes() -> None:
    """"A 1 on one die and a 10 on the other is a Nova Roll: neither die explodes or implodes"."""
    nova = roll_exploding(ReportedDice([1, 10]), "initiative")
    assert nova.nova and nova.total == 11 and faces(nova) == [1, 10]


def test_a_one_die_initiative_roll_is_written_and_read_as_before() -> None:
    """Places of Power's stored InitiativeRolled (one die per roll) keeps its bytes and reads
    back; a roll of several dice adds ``more_dice`` and counts every die as rolled."""
    die = DieRoll(sides=12, face=7, purpose="initiative", source="seeded", index=0, by="mira")
    one = InitiativeRolled(rolls=[InitiativeRoll(who="mira", die=die, modifier=2, total=9)], order=["mira"])
    stored = msgspec.json.encode(one)
    assert b"more_dice" not in stored
    assert stored == (b'{"type":"InitiativeRolled","rolls":[{"who":"mira","die":{"sides":12,"face":7,'
                      b'"purpose":"initiative","source":"seeded","index":0,"by":"mira"},"modifier":2,'
                      b'"total":9,"secret":false}],"order":["mira"],"secret":false}')
    read = PlacesOfPower().decode_event("InitiativeRolled", 1, stored)
    assert read == one and read.dice_rolled() == [die]
    more = [msgspec.structs.replace(die, face=10, index=1), msgspec.structs.replace(die, face=3, index=2)]
    several = msgspec.structs.replace(one, rolls=[msgspec.structs.replace(one.rolls[0], more_dice=more)])
    assert [d.index for d in several.dice_rolled()] == [0, 1, 2]


def test_realms_ties_go_to_the_higher_acuity() -> None:
    """RealmsRPG: "Initiative order alternates between allies and enemies, starting with the side
    that has the highest individual roll. In the case of ties the creature with the higher Acuity
    goes first" (its example: P1 13, P2 4 ACU 3, P3 4 ACU 2; E1 14 ... E5 4)."""
    entries = [Entry("p1", 13, 0, "party"), Entry("p2", 4, 1, "party", tiebreak=3),
               Entry("p3", 4, 2, "party", tiebreak=2)] + [
        Entry(f"e{i}", t, 3 + i, "enemies") for i, t in enumerate((14, 10, 8, 6, 4), start=1)]
    assert order_alternating_sides(entries) == ["e1", "p1", "e2", "p2", "e3", "p3", "e4", "e5"]


def test_realms_surprised_parties_act_after_the_other_side_in_the_first_round() -> None:
    """RealmsRPG: "During the first round of Combat, all surprised parties act after the opposing
    side has taken their turns. Subsequent rounds follow the normal initiative order." """
    order = ["e1", "p1", "e2", "p2"]
    assert surprised_last(order, {"p1", "p2"}, 1) == ["e1", "e2", "p1", "p2"]
    assert surprised_last(order, {"p1", "p2"}, 2) == order


def test_realms_companions_act_after_everyone() -> None:
    """RealmsRPG: "If there are any Companions they act after all other Characters and Creatures
    have gone in any order the Players agree on." """
    assert companions_last(["wolf", "e1", "p1", "hawk"], ["hawk", "wolf"]) == ["e1", "p1", "hawk", "wolf"]


def test_realms_defeated_creatures_places_are_taken_by_their_side() -> None:
    """RealmsRPG: "As creatures get defeated, all creature's initiative on their side move up to
    replace their position in the initiative order (unless it is in the first position). This is
    done at the beginning of the next round." """
    sides = {"e1": "enemies", "e2": "enemies", "e3": "enemies", "p1": "party", "p2": "party"}
    order = ["e1", "p1", "e2", "p2", "e3"]
    assert defeated_replaced(order, sides, {"e2"}) == ["e1", "p1", "e3", "p2"]
    assert defeated_replaced(order, sides, {"e1"}) == ["p1", "e2", "p2", "e3"]
    assert defeated_replaced(order, sides, set()) == order
