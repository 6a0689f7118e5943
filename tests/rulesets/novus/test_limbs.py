"""Called Shots at the limbs (novus-gaps N14): "every successful hit on a limb gives the target -2 to all
actions using that limb. If the total damage dealt to that limb becomes greater than the target's
Constitution Stat Value, the limb is useless." Which actions use which limb is the GM's data."""

from __future__ import annotations

import msgspec

from domain.novus.data import NovusData
from domain.novus.events import ActionTaken, SetNovusRules
from domain.novus.limbs import LimbRules
from tests.rulesets.novus.fight import Fight, attack, started


def declare(f: Fight, cid: str, *actions: dict) -> None:
    f.send(msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions)},
                           f.ruleset.command_type))


def refused(f: Fight, cid: str, *actions: dict) -> str:
    violation = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions)},
                                          f.ruleset.command_type))
    assert violation.message.startswith("kind:")
    return violation.code


def next_round(f: Fight) -> None:
    f.end_turn("kael")
    f.resolve("orc")
    f.end_turn("orc")


def test_a_hit_on_a_leg_takes_2_off_a_dodge_and_not_off_an_attack() -> None:
    """N14: "every successful hit on a limb gives the target -2 to all actions using that limb" (OURS: the
    legs carry moves, runs, Dodges and charges; a Dodge's -2 comes off its DEF)."""
    f = started()
    declare(f, "orc", {"kind": "dodge"})
    declare(f, "kael", attack("orc", "Broadsword", called_shot="leg"))
    assert f.ruleset.defence(f.state, "orc") == 16 + 3
    rolled, _, _ = f.resolve("kael", [9, 8])  # 17 + 7 - 4 = 20 vs 19: 1 over, 9 + 1 = 10 damage (not past Con 10)
    assert rolled.hit and f.rules.limb_hits["orc"] == {"leg": 1} and f.rules.limb_damage["orc"] == {"leg": 10}
    assert f.ruleset.defence(f.state, "orc") == 16 + 3 - 2
    assert f.ruleset.useless_limbs(f.state, "orc") == []
    next_round(f)
    declare(f, "orc", attack("kael", "Axe"))
    assert f.ruleset.attack_bonus(f.state, "orc", f.rules.declared["orc"].actions[0]) == 5  # the legs' hit: no


def test_a_hit_on_an_arm_takes_2_off_attacks_and_blocks() -> None:
    """N14: "-2 to all actions using that limb" (OURS: the arms carry attacks, charges and Blocks)."""
    f = started()
    declare(f, "orc", {"kind": "move"})
    declare(f, "kael", attack("orc", "Broadsword", called_shot="arm"))
    f.resolve("kael", [7, 6])  # 13 + 3 = 16 vs 16: 9 damage, not past Con Value 10
    assert f.rules.limb_hits["orc"] == {"arm": 1}
    next_round(f)
    declare(f, "orc", attack("kael", "Axe"))
    assert f.ruleset.attack_bonus(f.state, "orc", f.rules.declared["orc"].actions[0]) == 5 - 2
    assert f.ruleset.block_bonus(f.state, "orc") == 5 - 2


def test_a_limb_past_the_con_value_is_useless_and_refuses_what_needs_it() -> None:
    """N14: "If the total damage dealt to that limb becomes greater than the target's Constitution Stat
    Value, the limb is useless"."""
    f = started()
    declare(f, "orc", {"kind": "move"})
    declare(f, "kael", attack("orc", "Broadsword", called_shot="leg"))
    f.resolve("kael", [9, 9])  # 18 + 3 = 21 vs 16: 9 + 5 = 14 damage to the leg, past Con Value 10
    assert f.ruleset.useless_limbs(f.state, "orc") == ["leg"]
    assert f.ruleset.shown(f.state).combatants["orc"].sheet.useless_limbs == ["leg"]
    next_round(f)
    assert refused(f, "orc", {"kind": "move"}) == "novus_useless_limb"
    assert refused(f, "orc", {"kind": "dodge"}) == "novus_useless_limb"
    declare(f, "orc", attack("kael", "Axe"))  # the arms still swing
    g = started()
    g.send(SetNovusRules(data=NovusData(limbs=LimbRules(useless_refuses=False))))
    declare(g, "orc", {"kind": "move"})
    declare(g, "kael", attack("orc", "Broadsword", called_shot="leg"))
    g.resolve("kael", [9, 9])
    next_round(g)
    declare(g, "orc", {"kind": "move"})  # the GM's to rule on


def test_an_action_declared_before_its_limb_became_useless_lapses() -> None:
    """N14: "the limb is useless": the attack declared with it is not made."""
    f = started(initiative=(2, 2, 9, 9))  # Kael 4 declares first; the Orc 19 resolves first
    declare(f, "kael", attack("orc", "Broadsword"))
    declare(f, "orc", attack("kael", "Axe", called_shot="arm"))
    f.resolve("orc", [9, 9])  # 18 + 5 - 4 = 19 vs 16: 12 + 3 - 1 (the arms' Called Shot AR) = 14, past 10
    assert f.ruleset.useless_limbs(f.state, "kael") == ["arm"]
    f.end_turn("orc")
    [taken, _] = f.resolve("kael")
    assert isinstance(taken, ActionTaken) and taken.lapsed and f.hp("orc") == 30


def test_the_gm_says_which_actions_use_which_limb() -> None:
    """OURS: the default limbs are the GM's to replace (N14 says only "actions using that limb")."""
    f = started()
    f.send(SetNovusRules(data=NovusData(limbs=LimbRules(arm=["block"], leg=["move"]))))
    declare(f, "orc", {"kind": "move"})
    declare(f, "kael", attack("orc", "Broadsword", called_shot="arm"))
    f.resolve("kael", [7, 6])
    next_round(f)
    declare(f, "orc", attack("kael", "Axe"))
    assert f.ruleset.attack_bonus(f.state, "orc", f.rules.declared["orc"].actions[0]) == 5
    assert f.ruleset.block_bonus(f.state, "orc") == 5 - 2
