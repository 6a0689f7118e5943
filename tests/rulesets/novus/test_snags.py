"""Snag Points (novus-gaps N4, N17, U-N7): "**Snag Points** come from very low (imploding) rolls and are
spent on the Snag table"; the threshold is not published (U-N7): the GM's ``snag_step`` (ours: 1 per
full 10 points an imploded attack roll falls short of DEF)."""

from __future__ import annotations

from typing import Any

from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.novus.data import NovusData
from domain.novus.events import SetNovusRules
from domain.novus.snags import SpendSnags
from tests.rulesets.novus.fight import KAEL, ORC, Fight, attack, types
from tests.rulesets.novus.test_telling import told

BAD_ROLL = [1, 2, 9]  # 1 implodes: 1 + 2 - 9 = -6, + 5 = -1 against Kael's DEF 16: 17 short


def _snagged(step: int | None = 10, goblin: bool = False) -> Fight:
    """Kael (IP 14) moves; the Orc (IP 8) attacks him with the Axe and the roll implodes."""
    f = Fight()
    f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player", sheet=KAEL))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    if goblin:
        f.send(AddCombatant(combatant_id="gob", name="Goblin", side="enemies", controller="gm", sheet=ORC))
    f.send(RollInitiative(dice=[9, 5, 4, 3, 2, 2][: 6 if goblin else 4]))
    f.send(SetNovusRules(data=NovusData(snag_step=step)))
    f.send(StartEncounter())
    if goblin:
        f.declare("gob", {"kind": "move"})
    f.declare("orc", attack("kael", "Axe"))
    f.declare("kael", {"kind": "move"})
    f.resolve("kael")
    f.end_turn("kael")
    return f


def _spend(f: Fight, *snags: str, dice: list[int] | None = None, **extra: Any) -> list[Any]:
    return f.send(SpendSnags(combatant_id="orc", snags=list(snags), dice=dice, **extra))


def test_an_imploded_miss_earns_snag_points_the_gm_spends_at_once() -> None:
    """"Snag Points come from very low (imploding) rolls": 17 short of DEF, 1 Snag Point (ours, per 10);
    they wait, like the Boon Points, and the GM spends them."""
    f = _snagged()
    out = f.resolve("orc", BAD_ROLL)
    assert types(out) == ["NovusAttackRolled"] and (out[0].total, out[0].snag_points) == (-1, 1)
    [decision] = f.ruleset.pending(f.state)
    assert (decision.kind, decision.combatant_id) == ("snags", None)  # the GM's
    assert "Fumble" in [c.name for c in decision.choices] and "Hurt yourself" not in [c.name for c in decision.choices]
    assert f.refused(_end("orc")).code == "novus_snags_due"
    assert f.refused(_spend_cmd("Hurt yourself")).code == "novus_snags_over"  # 2 points: more than earned
    assert f.refused(_spend_cmd("Juggle")).code == "novus_unknown_snag"
    out = _spend(f, "Loud noise")
    assert types(out) == ["NovusSnagsSpent", "NovusActionsResolved"]  # the Orc's resolution goes on
    assert out[0].recorded == ["a loud noise alerts foes within 100 ft"] and f.rules.snags_due is None
    assert told([out[0]])[-1] == "Snag for the Orc: Loud noise; for the GM: a loud noise alerts foes within 100 ft."


def test_the_threshold_is_the_gms_and_only_an_imploded_roll_earns_them() -> None:
    """U-N7: "how Snag Points are earned exactly (the threshold below the TN): not found": snag_step (or off)."""
    f = _snagged(step=5)
    assert f.resolve("orc", BAD_ROLL)[0].snag_points == 3  # 17 short: 3 per 5
    g = _snagged(step=5)
    assert g.resolve("orc", [2, 2])[0].snag_points == 0  # 9 short, but it did not implode
    h = _snagged(step=None)
    assert h.resolve("orc", BAD_ROLL)[0].snag_points == 0


def test_hurt_yourself_for_1d10_hits_armour_applies_and_strain_a_muscle_gives_minus_1() -> None:
    """N17: "2: hurt yourself for 1d10 hits (armour applies)"; "1: ... strain a muscle (−1 to all actions
    for 10 minutes)"."""
    f = _snagged(step=5)
    f.resolve("orc", BAD_ROLL)  # 3 Snag Points
    out = _spend(f, "Hurt yourself", "Strain a muscle", dice=[8])
    assert types(out)[:2] == ["NovusSnagsSpent", "NovusDamaged"] and out[1].damage == 8 - 2  # the Orc's AR 2
    f.end_turn("orc")
    f.declare("orc", attack("kael", "Axe"))
    f.declare("kael", {"kind": "move"})
    f.resolve("kael")
    f.end_turn("kael")
    assert f.resolve("orc", [5, 5])[0].attack_bonus == 5 - 1


def test_break_the_item_in_hand_and_a_fumble_keep_the_weapon_out_of_use() -> None:
    """N17: "2: ... break the item in hand"; "1: fumble the object in hand (1 round to recover it)"."""
    f = _snagged(step=5)
    f.resolve("orc", BAD_ROLL)
    _spend(f, "Break the item in hand")
    f.end_turn("orc")
    assert f.refused(_declare("orc", attack("kael", "Axe"))).code == "novus_weapon_unusable"
    g = _snagged()
    g.resolve("orc", BAD_ROLL)
    _spend(g, "Fumble")
    g.end_turn("orc")
    assert g.refused(_declare("orc", attack("kael", "Axe"))).code == "novus_weapon_unusable"  # recovering it
    g.declare("orc", attack("kael", "Dagger"))
    g.declare("kael", {"kind": "move"})
    for cid, dice in (("kael", None), ("orc", [5, 5])):
        g.resolve(cid, dice)
        g.end_turn(cid)
    g.declare("orc", attack("kael", "Axe"))  # round 3: back in hand


def test_strike_a_friend_is_a_new_attack_roll_and_breaking_the_weapon_deals_double_ignoring_armour() -> None:
    """N17: "2: ... in combat, strike the nearest friend in range (new attack roll)"; "3: in combat, break
    your weapon and take double its normal damage, ignoring armour"."""
    f = _snagged(step=5, goblin=True)
    f.resolve("orc", BAD_ROLL)
    assert f.refused(_spend_cmd("Strike a friend", friend="kael")).code == "novus_bad_snag"  # a foe, not a friend
    out = _spend(f, "Strike a friend", dice=[6, 6], friend="gob")  # 12 + 5 = 17 against the Goblin's DEF 16
    assert types(out) == ["NovusSnagsSpent", "NovusAttackRolled", "NovusDamaged", "NovusActionsResolved"]
    assert out[1].snag and out[1].target == "gob" and out[2].combatant_id == "gob"
    g = _snagged(step=5)
    g.resolve("orc", BAD_ROLL)
    out = _spend(g, "Break your weapon")
    assert out[1].damage == 2 * (10 + 2)  # the Axe's DR 10 + Str 2, doubled, the AR not taken off
    assert "Axe" in g.rules.broken["orc"]


def _spend_cmd(*snags: str, **extra: Any) -> SpendSnags:
    return SpendSnags(combatant_id="orc", snags=list(snags), dice=[], **extra)


def _end(cid: str) -> object:
    from domain.core.encounter import EndTurn
    return EndTurn(combatant_id=cid)


def _declare(cid: str, *actions: dict) -> object:
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions)},
                           Novus().command_type)
