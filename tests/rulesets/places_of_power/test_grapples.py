"""Grapples and the Human Shield they allow."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice, SeededDice
from domain.core.encounter import AddCombatant, EndTurn, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import Attack, Defend
from domain.places_of_power.grapples import Grapple, ReleaseGrapple
from domain.rulesets import default_registry
from tests.rulesets.places_of_power.fight import shown

RULESET = default_registry().get("places-of-power")
PISTOL = {"name": "Pistol", "skill": "Firearms", "kind": "ranged", "gun": True,
          "ranges": {"Near": {"difficulty": "Normal", "damage": 3}}}
SHEET = {"attributes": {"strength": "D8", "dexterity": "D8"}, "skills": {"Brawling": "D8", "Firearms": "D8"},
         "weapons": [PISTOL]}


class Table:
    def __init__(self) -> None:
        self.state = RULESET.replay(RULESET.open("e", "Grapple", "reported", "x"))

    def play(self, command, faces=()):
        for event in RULESET.decide(self.state, command, ReportedDice(list(faces))):
            self.state = RULESET.evolve(self.state, event)


def table() -> Table:
    t = Table()
    for cid, controller in (("mira", "player"), ("goon", "gm"), ("archer", "gm")):
        t.play(AddCombatant(name=cid.title(), side="x", controller=controller, combatant_id=cid, sheet=SHEET))
    t.play(RollInitiative(), [12, 1])  # Mira first, then the NPCs
    t.play(StartEncounter())
    return t


def test_a_won_grapple_holds_and_a_lost_one_leaves_you_prone() -> None:
    """"This is handled as an Opposed Roll between your Brawling skill and the target's Brawling
    skill. This action costs Action Points for you, but not for your target. If you fail then
    you are knocked down and are considered Prone ... If you succeed then your opponent is in
    your grip"."""
    t = table()
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    assert t.state.rules.grapples == {"goon": "mira"}
    assert t.state.combatants["mira"].action_points == 1  # "Grapple (2 AP)"
    assert t.state.combatants["goon"].action_points == 3  # "not for your target"
    t.play(ReleaseGrapple(combatant_id="mira"))  # "release your opponent at any time as a free action"
    assert t.state.rules.grapples == {}
    t2 = table()
    t2.play(Grapple(combatant_id="mira", target="goon"), [1, 2, 5, 5])
    assert t2.state.rules.grapples == {} and t2.state.combatants["mira"].sheet.prone is True


def test_the_held_enemy_takes_the_hit_as_a_human_shield() -> None:
    """"Human Shield (2 AP): If you have successfully Grappled an enemy and are currently in
    control of the grapple, then you may use them to defend against an incoming attack, causing
    them to take the damage instead. If this is used against a ranged attack then it can only be
    done if the attacker was at Near or greater range. If the attack kills the grappled enemy
    then the grapple immediately ends.\""""
    t = table()
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    t.play(EndTurn(combatant_id="mira"))
    # the Goon is held; the archer shoots Mira from Near: 8 + 8 would be critical; use 5 + 6
    t.play(EndTurn(combatant_id="goon"))
    t.state = _with_ap(t.state, "mira", 3)  # as if she had kept them for defence
    t.play(Attack(combatant_id="archer", target="mira", attack="Ranged", weapon="Pistol", band="Near"), [5, 6])
    ex = shown(t.state).rules.exchange
    assert "HumanShield" in {c.name for c in ex.choices}
    t.play(Defend(combatant_id="mira", attack=ex.id, defence="HumanShield"))
    assert t.state.combatants["goon"].sheet.hits == 3 and t.state.combatants["mira"].sheet.hits == 0
    assert t.state.rules.grapples == {"goon": "mira"}


def test_a_shield_killed_ends_the_grapple() -> None:
    t = table()
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    from domain.places_of_power.hits import SetHits

    t.play(SetHits(combatant_id="goon", hits=2))
    t.play(EndTurn(combatant_id="mira"))
    t.play(EndTurn(combatant_id="goon"))
    t.state = _with_ap(t.state, "mira", 3)
    t.play(Attack(combatant_id="archer", target="mira", attack="Ranged", weapon="Pistol", band="Near"), [5, 6])
    t.play(Defend(combatant_id="mira", attack=t.state.rules.exchange.id, defence="HumanShield"))
    assert t.state.combatants["goon"].sheet.dead is True
    assert t.state.rules.grapples == {}


def test_no_grapple_no_shield_and_no_double_grapple() -> None:
    t = table()
    with pytest.raises(RuleViolation) as e:
        t.play(ReleaseGrapple(combatant_id="mira"))
    assert e.value.code == "not_grappling"
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    with pytest.raises(RuleViolation) as e:
        t.play(Grapple(combatant_id="mira", target="archer"), [6, 6, 2, 2])
    assert e.value.code == "already_grappling"


def test_seeded_grapples_count_their_dice() -> None:
    t = table()
    before = t.state.rolls_used
    events = RULESET.decide(t.state, Grapple(combatant_id="mira", target="goon"), SeededDice(b"s" * 32, "e", before))
    for event in events:
        t.state = RULESET.evolve(t.state, event)
    assert t.state.rolls_used == before + 4


def _with_ap(state, cid, ap):
    import msgspec

    combatants = dict(state.combatants)
    combatants[cid] = msgspec.structs.replace(combatants[cid], action_points=ap)
    return msgspec.structs.replace(state, combatants=combatants)


def test_breaking_free_and_the_grapples_penalties() -> None:
    """Quotes: "You can attempt to perform other actions, but you do so with a 1 Point Penalty.
    On their turn, your opponent can attempt to break free or turn the tables by way of an
    Opposed Brawling Roll, with a 1 Point Penalty. This action costs them 2 Actions Points but
    is free for you. If they win then they can choose to either end the grapple and break
    free, or turn the grapple on you instead. They can also attempt to perform other actions
    when grappled, but do so at a 2 Point Penalty."
    """
    from domain.places_of_power.actions import TakeAction
    from domain.places_of_power.grapples import BreakFree

    t = table()
    t.state = _with_ap(t.state, "mira", 4)
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    with pytest.raises(RuleViolation) as e:  # the holder's other actions: 1 point
        t.play(TakeAction(combatant_id="mira", action="Dash"))
    assert e.value.code == "penalty_points_owed"
    t.play(TakeAction(combatant_id="mira", action="Dash", penalties=["IncreaseCost"]))
    assert t.state.combatants["mira"].action_points == 0  # 4 - 2 (grapple) - 2 (Dash + 1)
    t.play(EndTurn(combatant_id="mira"))
    with pytest.raises(RuleViolation) as e:  # the held one's other actions: 2 points
        t.play(TakeAction(combatant_id="goon", action="Dash", penalties=["IncreaseCost"]))
    assert e.value.code == "penalty_points_owed"
    with pytest.raises(RuleViolation) as e:  # breaking free: 1 point, paid in AP
        t.play(BreakFree(combatant_id="goon", penalties=["IncreaseDifficulty"]), [8, 8, 1, 1])
    assert e.value.code == "penalty_not_applicable"
    t.play(BreakFree(combatant_id="goon", reverse=True, penalties=["IncreaseCost"]), [8, 7, 1, 2])
    assert t.state.rules.grapples == {"mira": "goon"}  # the tables are turned
    assert t.state.combatants["goon"].action_points == 0  # 3 - (2 + 1)


def test_the_holder_squeezes_for_an_unavoidable_hit() -> None:
    """Quotes: "Whilst they are in this condition you may spent 2 Action Points to inflict 1 Hit
    of unavoidable damage upon them."
    """
    from domain.places_of_power.grapples import Squeeze

    t = table()
    t.state = _with_ap(t.state, "mira", 4)
    t.play(Grapple(combatant_id="mira", target="goon"), [6, 6, 2, 2])
    t.play(Squeeze(combatant_id="mira"))
    assert t.state.combatants["goon"].sheet.hits == 1
    assert t.state.combatants["mira"].action_points == 0
