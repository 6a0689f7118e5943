"""Weapons, range bands and extra Successes (the attack exchange builds on these)."""

import pytest

from domain.core.errors import RuleViolation
from domain.places_of_power.weapons import UNARMED, AtRange, Weapon, at_range, extra_successes, spend_successes

KNIFE = Weapon(name="Knife", skill="Knife", kind="melee", ranges={"Melee": AtRange(difficulty="Normal", damage=2)})
PISTOL = Weapon(name="Pistol", skill="Firearms", kind="ranged", gun=True, ranges={
    "Close": AtRange(difficulty="Normal", damage=3), "Near": AtRange(difficulty="Normal", damage=3),
    "Far": AtRange(difficulty="Difficult", damage=2)})


def test_the_knife_example() -> None:
    """"You attack an opponent with a Knife at Melee Range. A Knife has a Base Damage of 2 and a
    Normal (9) Difficulty to hit at this Range." "You roll 16. This reaches two additional
    Difficulty Levels: Difficult (13) and Hard (16). You therefore gain 2 extra Successes.\""""
    melee = at_range(KNIFE, "Melee")
    assert (melee.difficulty, melee.damage) == ("Normal", 2)
    extra = extra_successes(16, "Normal")
    assert extra == 2
    # "spend both Successes on Damage, increasing the attack from 2 Hits to 4 Hits. The target
    # would still only need to roll Normal (9)"
    assert spend_successes(extra, ["Damage", "Damage"], 2, "Normal") == (4, "Normal")
    # "spend both Successes on Precision ... Base Damage of 2 Hits, but the target would need to
    # roll Hard (16)"
    assert spend_successes(extra, ["Precision", "Precision"], 2, "Normal") == (2, "Hard")
    # "spend one Success on Damage and one on Precision. The attack would then inflict 3 Hits,
    # and the target would need to roll Difficult (13)"
    assert spend_successes(extra, ["Damage", "Precision"], 2, "Normal") == (3, "Difficult")


def test_every_success_is_spent_and_precision_stops_at_very_hard() -> None:
    with pytest.raises(RuleViolation) as e:
        spend_successes(2, ["Damage"], 2, "Normal")
    assert e.value.code == "successes_unspent"
    with pytest.raises(RuleViolation) as e:
        spend_successes(2, ["Precision", "Precision"], 2, "Hard")
    assert e.value.code == "precision_past_very_hard"


def test_a_weapon_that_cannot_reach_the_band_is_refused() -> None:
    """"The difficulty level you are rolling against is dictated by the type of weapon and the
    range you are attempting to use it at."""
    assert at_range(PISTOL, "Far").difficulty == "Difficult"
    with pytest.raises(RuleViolation) as e:
        at_range(PISTOL, "Long")
    assert e.value.code == "out_of_range" and "Close, Near, Far" in e.value.message
    with pytest.raises(RuleViolation):
        at_range(KNIFE, "Close")


def test_unarmed_is_brawling_and_strength_with_no_base_damage() -> None:
    """"Roll against your Brawling skill plus Strength. All Unarmed attacks have a base damage of
    zero. This means that you need to roll 1 difficulty level higher than the required value to
    hit in order to cause any damage." Brawling is "not useable" at Close."""
    assert (UNARMED.skill, UNARMED.attribute) == ("Brawling", "strength")
    assert at_range(UNARMED, "Melee").damage == 0
    assert spend_successes(extra_successes(9, "Normal"), [], 0, "Normal") == (0, "Normal")
    assert spend_successes(extra_successes(13, "Normal"), ["Damage"], 0, "Normal") == (1, "Normal")
    with pytest.raises(RuleViolation):
        at_range(UNARMED, "Close")


def test_melee_rolls_strength_and_ranged_dexterity() -> None:
    """"roll your Skill with the weapon you are using, plus Strength for melee weapons, and
    Dexterity for ranged weapons"."""
    assert KNIFE.attribute == "strength" and PISTOL.attribute == "dexterity"
