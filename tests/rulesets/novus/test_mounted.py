"""Mounted Charge and Mounted Combat (novus-combat): the AP, the AB and DEF modifiers with and
without the talents, the Riding rolls that cost no AP, the charge's extra damage, the longer weapon
first, and a Dodge against a charge doubled at the last moment."""

from __future__ import annotations

from domain.novus.actions import Action
from domain.novus.events import Cancel, SetMounted
from tests.rulesets.novus.fight import ORC, attack, sheet, started, stats, types

RIDER = sheet(stats=stats(strength=1), skills=[{"name": "Broadsword", "ranks": 5, "bonus": 7, "melee": True},
                                              {"name": "Riding", "ranks": 4, "bonus": 6}],
              weapons=[{"name": "Broadsword", "size": "medium", "dr": 8, "skill": "Broadsword"},
                       {"name": "Lance", "size": "huge", "dr": 11, "skill": "Broadsword", "pole_arm": True,
                        "one_handed": False, "reach": 10}])


def charge(target: str, weapon: str, pace: int = 2) -> dict:
    return {"kind": "mounted_charge", "target": target, "weapon": weapon, "pace": pace}


def test_a_mounted_charge_takes_8_ap_6_with_mounted_combat_ii_and_needs_a_mount() -> None:
    """"Performing a Mounted Charge requires a total of 8 Action Points (AP), 4 more than is required for a
    normal attack. If the character has the Talent, Mounted Combat II, then the charge will only require 6 AP"."""
    f = started(kael=RIDER)
    f.declare("orc", {"kind": "move"})
    assert f.refused(_declare("kael", [charge("orc", "Broadsword")])).code == "novus_not_mounted"
    f.send(SetMounted(combatant_id="kael"))
    [declared] = f.declare("kael", charge("orc", "Broadsword"))
    assert (declared.ap, declared.carried) == (5, 3)  # it runs into the next round: it uses all of this one's
    g = started(kael={**RIDER, "talents": {"mounted_combat_2": True}})
    g.declare("orc", {"kind": "move"})
    g.send(SetMounted(combatant_id="kael"))
    [declared] = g.declare("kael", charge("orc", "Broadsword"))
    assert (declared.ap, declared.carried) == (5, 1)


def test_a_charge_rolls_riding_for_its_pace_and_deals_15_per_multiple_of_the_pace() -> None:
    """"If the character has the Talent, Mounted Combat I, then he has a +4 modifier to his Attack Bonus (AB)
    and a -4 modifier to his DEF. Without that Talent, the character has a -1 to his AB and a -9 to his DEF";
    "If his mount is moving at 2x its normal pace, the attack will deal an extra 30 hit points of damage. If
    the mount is moving at 3x its normal pace ... 45"; "Moving at 3x the mount's base movement rate will
    require a Riding skill roll (TN 25) ... If the player fails the Riding skill roll, he will receive an
    additional -1 modifier to both his DEF and AB"."""
    f = started(kael=RIDER)
    f.send(SetMounted(combatant_id="kael"))
    f.declare("orc", {"kind": "move"})
    f.declare("kael", charge("orc", "Broadsword", pace=3))
    assert f.ruleset.defence(f.state, "kael") == 16 - 9
    riding, rolled, damaged, _ = f.resolve("kael", [5, 5, 8, 7])  # Riding 10 + 6 = 16 < 25: failed
    assert types([riding]) == ["NovusRidingRolled"] and (riding.tn, riding.passed, riding.charge) == (25, False, True)
    assert rolled.attack_bonus == 7 - 1 - 1 and rolled.total == 15 + 5 and rolled.charge
    assert rolled.charge_damage == 45 and rolled.damage == 9 + 4 + 45 - 2 and damaged.damage == 56
    assert f.ruleset.defence(f.state, "kael") == 16 - 9 - 1
    g = started(kael={**RIDER, "talents": {"mounted_combat_1": True}})
    g.send(SetMounted(combatant_id="kael"))
    g.declare("orc", {"kind": "move"})
    g.declare("kael", charge("orc", "Broadsword"))
    assert g.ruleset.defence(g.state, "kael") == 16 - 4
    riding, rolled, *_ = g.resolve("kael", [9, 8, 5, 4])  # Riding 17 + 6 = 23 against TN 20: made
    assert riding.passed and rolled.attack_bonus == 7 + 4 and rolled.charge_damage == 30


def test_the_longer_weapon_resolves_first_whatever_the_initiative() -> None:
    """"When making a Mounted Charge, if one of the combatants has a lance, a long spear, or other weapon
    from the Pole Arm family of weapons and the other does not, then the combatant with the longer weapon
    will resolve his attack first, regardless of initiative order"."""
    pikeman = {**ORC, "weapons": [{"name": "Pike", "size": "huge", "dr": 11, "skill": "Axe", "pole_arm": True,
                                   "one_handed": False}]}
    f = started(kael=RIDER, orc=pikeman)  # Kael 14 resolves before the Orc (8)
    f.send(SetMounted(combatant_id="kael", trained=True))
    f.declare("orc", attack("kael", "Pike"))
    f.declare("kael", charge("orc", "Broadsword"))
    [pike] = f.resolve("kael", [6, 6])  # the Orc's Pike first: 12 + 5 = 17 against Kael's DEF 16 - 9 = 7
    assert (pike.combatant_id, pike.first, pike.hit, pike.boon_points) == ("orc", True, True, 1)
    from domain.novus.events import SpendBoons
    f.send(SpendBoons(combatant_id="orc", boons=[]))
    assert f.rules.declared["orc"].actions == []  # the Orc's attack is made
    riding, rolled, *_ = f.resolve("kael", [9, 9, 6, 6])  # then Kael's charge
    assert riding.passed and rolled.combatant_id == "kael" and rolled.charge


def test_a_dodge_at_the_last_moment_against_a_charge_is_doubled() -> None:
    """"If a Mounted Charge is being made against an unmounted foe, that foe may decide to use Dodge in an
    attempt to avoid the charge. If the dodging character waits until the last moment to perform the Dodge
    (i.e. such as with Canceling an Action), the modifier to his DEF will be doubled before being applied"."""
    f = started(kael=RIDER)
    f.send(SetMounted(combatant_id="kael"))
    f.declare("orc", attack("kael", "Axe"))
    f.declare("kael", charge("orc", "Broadsword"))
    f.send(Cancel(combatant_id="orc", instead=[Action(kind="dodge")]))
    assert f.ruleset.defence(f.state, "orc") == 16 + 3
    assert f.ruleset.defence(f.state, "orc", against_charge=True) == 16 + 3 + 3


def test_mounted_combat_a_riding_roll_each_round_2_more_ap_and_the_modifiers_against_foes_on_foot() -> None:
    """"the player must make a Riding skill roll for his character each round. This roll will cost the
    character no Action Points, and it has a TN of 23 if the mount is untrained for combat and a TN of 18 if
    the mount has been trained"; "Attacks against foes that are not mounted have a -3 DEF modifier and a -2 AB
    modifier. If the character does not have the Mounted Combat I Talent, these modifiers are -8 and -7";
    "All mounted attacks ... require an extra 2 Action Points (AP) to perform"."""
    f = started(kael={**RIDER, "talents": {"mounted_combat_1": True}})
    f.send(SetMounted(combatant_id="kael", trained=True))
    f.declare("orc", {"kind": "move"})
    [declared] = f.declare("kael", attack("orc", "Broadsword"))  # 4 + 2 = 6: into the next round
    assert (declared.ap, declared.carried) == (5, 1)
    g = started(kael={**RIDER, "talents": {"mounted_combat_1": True, "mounted_combat_2": True},
                      "weapons": [{"name": "Dagger", "size": "tiny", "dr": 4, "skill": "Broadsword"}]})
    g.send(SetMounted(combatant_id="kael", trained=True))
    g.declare("orc", {"kind": "move"})
    [declared] = g.declare("kael", attack("orc", "Dagger"))
    assert declared.ap == 3 + 1 and g.ruleset.defence(g.state, "kael") == 16 - 3
    riding, rolled, *_ = g.resolve("kael", [6, 6, 5, 5])  # Riding 12 + 6 = 18 against TN 18: made
    assert (riding.tn, riding.passed, riding.charge) == (18, True, False) and rolled.attack_bonus == 7 - 2


def _declare(cid: str, actions: list[dict]):  # noqa: ANN202
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": actions}, Novus().command_type)
