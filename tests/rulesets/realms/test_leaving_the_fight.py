"""A creature the RM takes out of the fight (RemoveCombatant) leaves nothing of itself behind: an
attack it made or that targets it is void, an attack that waited only on it goes on, a grapple it
held ends, nobody's body names it, and one added again under the same id starts afresh."""

from __future__ import annotations

from domain.core.encounter import RemoveCombatant, RollInitiative, StartEncounter
from domain.realms.events import (
    Attack,
    AttackRolled,
    Grapple,
    Harmed,
    Prepare,
    TakeAction,
)
from domain.realms.ruleset import rules
from tests.rulesets.realms.fight import ARWEN, BRIGAND, Fight, of
from tests.rulesets.realms.test_attacks import BRAM


def three() -> Fight:
    """Arwen (first), the Brigand, then Bram."""
    f = Fight()
    f.add("arwen", ARWEN)
    f.add("bram", BRAM)
    f.add("brigand", BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 2, 3]))
    f.send(StartEncounter())
    assert f.state.order == ["arwen", "brigand", "bram"]
    return f


def test_an_attack_on_one_taken_out_is_void_and_its_window_closed() -> None:
    f = three()
    f.send(Attack(combatant_id="arwen", target="brigand"))
    assert set(rules(f.state).window.may_react) == {"bram", "brigand"}
    assert f.send(RemoveCombatant(combatant_id="brigand")) == [f.events[-1]]
    assert rules(f.state).attack is None and rules(f.state).window is None
    # Bram's Combination Attack has nothing left to help: a refusal, not a crash
    from domain.core.reactions import React
    refused = f.refused(React(combatant_id="bram", window="attack:8:roll", reaction="Combination Attack"))
    assert refused.code == "no_reaction_window"
    # Arwen's turn goes on (the AP she spent stay spent)
    assert f.ap("arwen") == 2
    f.send(TakeAction(combatant_id="arwen", action="Ability Roll", roll_with="agility", dice=[10]))


def test_an_attack_by_one_taken_out_is_void() -> None:
    """A prepared attack is "used as a Reaction later in the round": Bram's, on the Brigand's turn,
    waits on the Brigand's Dodge when the RM takes Bram out."""
    from domain.realms.events import UsePrepared
    f = three()
    f.end_turn("arwen")
    f.end_turn("brigand")
    f.send(Prepare(combatant_id="bram", trigger="the Brigand moving", target="brigand"))
    f.end_turn("bram")
    f.end_turn("arwen")
    f.send(UsePrepared(combatant_id="bram"))
    assert set(rules(f.state).window.may_react) == {"arwen", "brigand"}  # a Combination Attack, a Dodge
    f.send(RemoveCombatant(combatant_id="bram"))
    assert rules(f.state).attack is None and rules(f.state).window is None
    assert f.ruleset.pending(f.state) == []
    f.send(Attack(combatant_id="brigand", target="arwen"))  # the Brigand's turn goes on


def test_an_attack_waiting_only_on_one_taken_out_goes_on() -> None:
    """Defend "can be done after knowing the damage": the hit waits on Bram's Defend; Bram leaves, and
    the damage lands on Arwen at once."""
    f = three()
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="arwen"))
    # Arwen passes her Dodge; the Club 16 hits Evasion 13, 5 + 3 = 8 damage; Bram may Defend
    f.pass_("arwen", dice=[13, 5])
    assert rules(f.state).window.may_react == ("bram",)
    events = f.send(RemoveCombatant(combatant_id="bram"))
    assert of(events, Harmed).combatant_id == "arwen"
    assert f.health("arwen") == 20 - 8
    assert rules(f.state).attack is None


def test_a_roll_waiting_only_on_one_taken_out_is_rolled_with_the_removals_dice() -> None:
    f = three()
    f.send(Attack(combatant_id="arwen", target="brigand"))
    f.pass_("brigand")
    events = f.send(RemoveCombatant(combatant_id="bram", dice=[15, 4]))  # Bram's Combination Attack no more
    rolled = of(events, AttackRolled)
    assert (rolled.total, rolled.hit) == (20, True)
    assert f.health("brigand") == 12 - (4 + 5)


def test_a_grapple_ends_with_the_grappler_taken_out() -> None:
    """Grapple: the target is Grappled by its grappler (the condition names its source)."""
    f = three()
    f.send(Grapple(combatant_id="arwen", target="brigand", dice=[18]))
    assert "grappled" in f.body("brigand").conditions
    f.end_turn("arwen")
    f.send(RemoveCombatant(combatant_id="arwen"))
    assert "grappled" not in f.body("brigand").conditions


def test_nothing_of_one_taken_out_stays_and_one_added_again_starts_afresh() -> None:
    """A prepared attack names its target; Health lost stays with the body."""
    f = three()
    f.end_turn("arwen")
    f.send(Attack(combatant_id="brigand", target="bram"))
    f.pass_("bram", dice=[14, 6])
    f.pass_("arwen")
    f.pass_("bram")  # neither Defends: 6 + 3 damage
    assert f.health("bram") == 18 - 9
    f.end_turn("brigand")
    f.send(Prepare(combatant_id="bram", trigger="the Brigand moving", target="brigand"))
    f.end_turn("bram")
    f.send(RemoveCombatant(combatant_id="brigand"))
    assert f.body("bram").prepared is None  # its target is gone
    f.send(RemoveCombatant(combatant_id="bram"))
    r = rules(f.state)
    assert set(r.bodies) <= {"arwen"} and "bram" not in r.starts
    f.add("bram", BRAM)
    assert f.health("bram") == 18
