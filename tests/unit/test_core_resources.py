"""Named action resources (domain/core/resources.py), checked against the rule texts that need them."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.core.resources import Resource, Resources, held, spend


def test_health_trauma_one_quick_action_each_turn_and_one_reaction_between_turns() -> None:
    """Health/Trauma: "You get one Free Quick Action during each of your turns and one Reaction
    inbetween your turns." """
    turn = Resources((
        Resource("turn", 4, ("turn_start",)),  # Quarter = 1, Half = 2, Full = 4
        Resource("quick", 1, ("turn_start",)),
        Resource("reaction", 1, ("combat_start", "turn_end")),
    ))
    held_ = turn.at("combat_start", {})
    assert held_ == {"turn": 0, "quick": 0, "reaction": 1}
    held_ = turn.at("turn_start", held_)
    assert held_ == {"turn": 4, "quick": 1, "reaction": 1}
    held_ = spend(held_, "reaction", 1, who="Ada", what="a Reaction")
    with pytest.raises(RuleViolation) as refused:
        spend(held_, "reaction", 1, who="Ada", what="a Reaction")
    assert refused.value.code == "not_enough_resource" and "Ada has 0 reaction left" in refused.value.message
    assert turn.at("turn_end", held_)["reaction"] == 1


def test_realms_ap_set_to_4_at_the_end_of_your_turn_with_a_free_interaction_and_ability_roll() -> None:
    """RealmsRPG: "At the start of combat and the end of each of your turns, your Action Points
    (AP) are set to 4." "At the end of your turn you gain one free Interaction and one free
    Ability Roll Action to use during the round." """
    realms = Resources((
        Resource("ap", 4, ("combat_start", "turn_end")),
        Resource("interaction", 1, ("turn_end",)),
        Resource("ability_roll", 1, ("turn_end",)),
    ))
    start = realms.at("combat_start", {})
    assert start == {"ap": 4, "interaction": 0, "ability_roll": 0}
    after = realms.at("turn_end", spend(start, "ap", 3, who="Rook", what="an attack"))
    assert after == {"ap": 4, "interaction": 1, "ability_roll": 1}
    assert not realms.refills_at("round_start")


def test_novus_five_ap_a_round_and_a_carry_over_cap() -> None:
    """Novus: "Normally a character has only 5 Action Points to use in a given round. However,
    some spells and items can Haste the character, giving him a total of 10 AP for the round." """
    normal = Resources((Resource("ap", 5, ("round_start",)),))
    hasted = Resources((Resource("ap", 10, ("round_start",)),))
    assert normal.at("round_start", {"ap": 1}) == {"ap": 5}
    assert hasted.at("round_start", {"ap": 0}) == {"ap": 10}
    carry = Resources((Resource("ap", 3, ("round_start",), maximum=6),))  # gain 3, carry up to 6
    assert carry.at("round_start", {"ap": 5}) == {"ap": 6}


def test_a_ruleset_without_resources_leaves_them_out_of_its_state() -> None:
    """Places of Power counts only its Action Points: its state encodes as before."""
    c = Combatant(id="mira", name="Mira", side="party", controller="player", sheet=None)
    assert held(c) == {}
    state = EncounterState(id="e", ruleset="places-of-power", name="n", dice_policy="seeded", seed_sha256="x",
                           combatants={"mira": c})
    assert "resources" not in msgspec.to_builtins(state)["combatants"]["mira"]
    assert b"resources" not in msgspec.json.encode(state)
