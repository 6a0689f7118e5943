"""Several attacks for one Opportunity Attack: "If the character has multiple attacks (high skill, multiple
weapons, etc.) each round, he may use any number of his attacks for the OA. If the character doesn't use
all of his attacks for the OA, then he makes the rest of his attacks normally according to normal
initiative procedures"."""

from __future__ import annotations

from domain.core import reactions
from domain.novus.events import SpendBoons
from tests.rulesets.novus.fight import Fight, attack, sheet, started, types

MASTER = sheet(skills=[{"name": "Broadsword", "ranks": 14, "bonus": 20, "melee": True}])  # 3 attacks a round
THREE = attack("orc", "Broadsword", more_targets=["orc", "orc"], split=[4, 4, 4])  # 20 - 4 - 4 = 12, split


def _moving() -> tuple[Fight, str]:
    """Kael (IP 4) declares three attacks from high skill; the Orc (IP 19) runs through his Control Zone."""
    f = started(kael=MASTER, initiative=(2, 2, 9, 9))
    f.declare("kael", THREE)
    f.declare("orc", {"kind": "run", "through": ["kael"]})
    assert types(f.resolve("orc")) == ["NovusActionTaken", "ReactionsOpened"]
    return f, f.rules.window.id


def test_any_number_of_the_attacks_for_the_oa_and_the_rest_at_ones_own_ip() -> None:
    f, window = _moving()
    assert f.rules.window.reactions == ("opportunity attack", "2 opportunity attacks", "3 opportunity attacks")
    out = f.send(reactions.React(combatant_id="kael", window=window, reaction="2 opportunity attacks",
                                 dice=[6, 6, 6, 6]))  # 12 + 4 = 16 against DEF 16, twice
    assert types(out) == ["NovusAttackRolled", "NovusDamaged", "NovusAttackRolled", "NovusDamaged",
                          "NovusActionsResolved"]
    assert all(e.opportunity and e.attack_bonus == 4 for e in out[::2][:2])
    assert len(f.rules.declared["kael"].actions) == 1  # one attack left for his own IP
    f.end_turn("orc")
    assert types(f.resolve("kael", [6, 6])) == ["NovusAttackRolled", "NovusDamaged", "NovusActionsResolved"]


def test_no_more_attacks_than_are_left_and_boon_points_come_between() -> None:
    """"he may use any number of his attacks": up to those left; the Boon Points of one are spent at once,
    then the next attack of the OA is made."""
    f, window = _moving()
    refused = f.refused(reactions.React(combatant_id="kael", window=window, reaction="4 opportunity attacks"))
    assert refused.code == "reaction_not_allowed"
    out = f.send(reactions.React(combatant_id="kael", window=window, reaction="3 opportunity attacks",
                                 dice=[10, 9, 5]))  # 24 + 4 = 28: 1 Boon Point
    assert types(out) == ["NovusAttackRolled"] and out[0].boon_points == 1 and out[0].opportunity_more == 2
    out = f.send(SpendBoons(combatant_id="kael", boons=["Strong Attack"], dice=[2, 2, 2, 2]))
    assert types(out) == ["NovusBoonsSpent", "NovusDamaged", "NovusAttackRolled", "NovusAttackRolled",
                          "NovusActionsResolved"]  # two misses, then the Orc's run is over
    assert f.rules.declared["kael"].actions == [] and f.rules.oa_more == {}


def test_a_single_attack_character_names_one() -> None:
    """"If the character is only able to make a single attack each round, making an Opportunity Attack
    will count as his attack for the round"."""
    f = started(initiative=(2, 2, 9, 9))
    f.declare("kael", attack("orc", "Broadsword"))
    f.declare("orc", {"kind": "run", "through": ["kael"]})
    f.resolve("orc")
    assert f.rules.window.reactions == ("opportunity attack",)
