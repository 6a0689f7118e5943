"""Combat Boons that do what the table says (novus-gaps N15), and those the engine cannot apply left off
the table on offer. Kael (AB 7, Broadsword, 5 ranks) against the Orc (DEF 16, AR 2, Str +2)."""

from __future__ import annotations

from domain.core.encounter import AddCombatant, EndTurn, RollInitiative, StartEncounter
from domain.novus import boons
from domain.novus.actions import Action
from domain.novus.data import DEFAULT_DATA, LEFT_TO_THE_TABLE
from domain.novus.events import AttackRolled, DisarmSaveRolled, SpendBoons
from domain.novus.state import BoonsDue
from tests.rulesets.novus.fight import KAEL, ORC, Fight, attack, started, types

TWO_BP = [10, 8, 10, 2]  # 10 explodes: 10 + 8 + 10 + 2 = 30 + AB 7 = 37, 21 over DEF 16: 2 Boon Points
ONE_BP = [10, 9, 8]  # 27 + 7 = 34, 18 over: 1 Boon Point


def _kael_hits(f: Fight, dice: list[int]) -> None:
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    [rolled] = f.resolve("kael", dice)
    assert rolled.boon_points == (2 if dice == TWO_BP else 1)


def test_disarm_foe_the_foe_saves_vs_str_at_tn_15_plus_the_attackers_ranks_or_the_weapon_flies() -> None:
    """Disarm Foe: "the foe saves vs Str at TN 15 + the attacker's ranks in the Combat Skill, or the weapon
    flies 1–10 ft"."""
    f = started()
    _kael_hits(f, ONE_BP)
    # the Orc's save: 5 + 5 + Str 2 + 5 = 17 against TN 15 + 5 ranks = 20: failed; the Axe flies 4 ft
    out = f.send(SpendBoons(combatant_id="kael", boons=["Disarm Foe"], dice=[5, 5, 4]))
    assert types(out) == ["NovusBoonsSpent", "NovusDamaged", "NovusDisarmSaveRolled", "NovusActionsResolved"]
    save = out[2]
    assert isinstance(save, DisarmSaveRolled)
    assert (save.combatant_id, save.tn, save.total, save.passed, save.weapon, save.feet) == ("orc", 20, 17, False,
                                                                                            "Axe", 4)
    assert f.rules.disarmed == {"orc": ["Axe"]}


def test_attack_boost_adds_an_ab_per_bp_to_the_primary_attack_next_round_and_takes_two_bp_or_more() -> None:
    """Attack Boost (2+): "+1 AB per BP on the primary attack next round"."""
    f = started()
    _kael_hits(f, TWO_BP)
    assert f.refused(SpendBoons(combatant_id="kael", boons=["Attack Boost"])).code == "novus_boons_over"
    names = {c.name for c in f.ruleset.pending(f.state)[0].choices}
    assert "Attack Boost ×2" in names and "Attack Boost" not in names
    f.send(SpendBoons(combatant_id="kael", boons=["Attack Boost", "Attack Boost"]))
    f.end_turn("kael")
    f.resolve("orc")
    f.end_turn("orc")
    assert f.state.round == 2
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    [rolled, *_] = f.resolve("kael", [2, 3])
    assert isinstance(rolled, AttackRolled) and rolled.attack_bonus == 7 + 2  # the primary attack: +2
    assert f.ruleset.attack_bonus(f.state, "kael", Action(kind="attack", target="orc", weapon="Broadsword")) == 7


def test_inspiring_attack_gives_allies_an_ip_per_bp_next_round() -> None:
    """Inspiring Attack (2+): "allies get +1 IP per BP next round" (not the attacker, not the foes)."""
    f = Fight()
    for cid, side, who, body in (("kael", "party", "player", KAEL), ("orc", "enemies", "gm", ORC),
                                 ("vess", "party", "player", KAEL)):
        f.send(AddCombatant(combatant_id=cid, name=cid.title(), side=side, controller=who, sheet=body))
    f.send(RollInitiative(dice=[9, 5, 4, 3, 2, 2]))  # Kael 14, the Orc 8, Vess 4
    f.send(StartEncounter())
    f.declare("vess")
    _kael_hits(f, TWO_BP)
    f.send(SpendBoons(combatant_id="kael", boons=["Inspiring Attack"] * 2))
    f.end_turn("kael")
    for cid in ("orc", "vess"):
        f.resolve(cid)
        f.send(EndTurn(combatant_id=cid))
    assert f.state.round == 2 and f.rules.ip == {"kael": 14, "orc": 8, "vess": 4 + 2}
    assert f.ruleset.ip_for(f.state, "vess", 3) == 4  # "next round" only


def test_lightning_attack_is_a_second_attack_on_the_same_foe_at_once_not_one_of_the_declared() -> None:
    """Lightning Attack (2 BP): "a second attack on the same or another foe within range and sight" (the
    same foe: the engine keeps no positions; after a melee attack: the text for ranged weapons is cut off)."""
    f = started()
    _kael_hits(f, TWO_BP)  # 9 + 21 - 2 = 28 damage: the Orc has 2 Hit Points left
    out = f.send(SpendBoons(combatant_id="kael", boons=["Lightning Attack"], dice=[5, 5]))  # 17 against 16
    assert types(out) == ["NovusBoonsSpent", "NovusDamaged", "NovusAttackRolled", "NovusDamaged",
                          "NovusActionsResolved"]
    second = out[2]
    assert isinstance(second, AttackRolled) and second.lightning and second.hit and second.target == "orc"
    assert f.rules.declared["kael"].done == 1 and f.hp("orc") == 2 - (9 + 1 - 2)
    shot = BoonsDue(attacker="kael", target="orc", points=2, head_points=0, base_damage=6, scaled=20, armour=0,
                    skill_ranks=3, weapon="Short Bow", missile=True)
    assert "Lightning Attack" not in {c.name for c in boons.choices(DEFAULT_DATA, shot)}


def test_boons_the_engine_cannot_apply_are_not_on_offer() -> None:
    """Bleeder ("slashing or piercing weapons only"), Combat Shuffle ("move yourself and the foe 5 ft per
    BP"), Rapid Reload ("reload a bow for 0 AP"): a weapon's piercing, positions and a bow's load are not
    kept, so the engine cannot do what they say: off the table on offer (the GM may add them, recorded)."""
    assert set(LEFT_TO_THE_TABLE) == {"Bleeder", "Combat Shuffle", "Rapid Reload"}
    assert not set(LEFT_TO_THE_TABLE) & {b.name for b in DEFAULT_DATA.boons}
    f = started()
    _kael_hits(f, ONE_BP)
    assert not set(LEFT_TO_THE_TABLE) & {c.name for c in f.ruleset.pending(f.state)[0].choices}
    assert f.refused(SpendBoons(combatant_id="kael", boons=["Bleeder"])).code == "novus_unknown_boon"
