"""Combat Moves (novus-combat's "Combat Move Name (#) / AB: # DEF: # AP: # Rng: #" template; novus-gaps
N18, N19): the GM's table of moves, each one's AB, DEF for the whole round, AP and effects."""

from __future__ import annotations

import msgspec
import pytest

from domain.novus.data import NovusData
from domain.novus.events import AttackRolled, DisarmSaveRolled, SetNovusRules
from domain.novus.moves import MoveRule, default_moves
from tests.rulesets.novus.fight import ORC, Fight, attack, sheet, started, stats

TEMPLATE = """Combat Move Name (#) ... AB: # DEF: # AP: # Rng: # ... Effects: Description of the Move goes here.
As you can see, first up is the name of the Combat Move and beside it is a number in parenthesis. This
number is how many Character Points it costs to purchase the Move."""

# Kael with a Dagger (tiny: a Basic Melee Attack is 3 AP), edged, and the moves he has learnt for each
# Combat Skill (N18: "1 per rank with Combat Training II")
KAEL = sheet(weapons=[{"name": "Broadsword", "size": "medium", "dr": 8, "skill": "Broadsword", "edged": True},
                      {"name": "Dagger", "size": "tiny", "dr": 4, "skill": "Broadsword"},
                      {"name": "Bow", "kind": "missile", "size": "medium", "dr": 6, "skill": "Bow", "range": 50,
                       "stat": "dexterity"}],
             skills=[{"name": "Broadsword", "ranks": 5, "bonus": 7, "melee": True, "moves": ["All Out Attack", "Cut"]},
                     {"name": "Bow", "ranks": 2, "bonus": 6, "moves": ["Brace"]}],
             talents={"combat_training_2": True})


def fight() -> Fight:
    f = started(kael=KAEL)
    f.declare("orc", {"kind": "move"})
    return f


def test_the_default_moves_are_the_stat_lines_n19_gives() -> None:
    """N18: "AB is a modifier to every roll made with that Combat Skill while using the move. DEF is a
    modifier to the user's DEF for the whole round the move is used. AP is the move's cost, where "BMA"
    means "as a Basic Melee Attack with this weapon size" ... The number after the name is its cost in
    Character Points. Basic moves cost 0"; N19: "All Out Attack (6 CP): AB +2, DEF -2, AP BMA+2, +4 Base
    Damage ... Cut (5 CP): AB +1, DEF +1, AP BMA"; and the excerpt's template: """ + TEMPLATE
    moves = {m.name: m for m in default_moves()}
    lines = {n: (m.cp, m.ab, m.defence, m.ap) for n, m in moves.items()}
    assert lines["Basic Melee Attack"] == (0, 0, 0, "BMA")
    assert lines["Basic Dodge"] == (0, 0, 3, "3") and lines["Basic Block"] == (0, 0, 0, "3")
    assert lines["Basic Disarm"] == (0, 0, 0, "BMA")
    assert lines["All Out Attack"] == (6, 2, -2, "BMA+2") and lines["Cut"] == (5, 1, 1, "BMA")
    assert moves["All Out Attack"].ap_cost(3) == 5 and moves["Cut"].ap_cost(4) == 4
    assert msgspec.json.decode(msgspec.json.encode(moves["Cut"]))["def"] == 1  # the stat line's own word


def test_the_gm_replaces_the_table_and_the_basic_actions_read_it() -> None:
    """N19: "Basic Dodge: DEF +3, 3 AP" ("publisher texts disagree": n1erndseq's example gives 2 AP), the GM's
    to replace; "Basic Block: 3 AP"; the Basic Melee Attack: "3 AP Tiny/Small, 4 Medium, 5 Large/Huge"."""
    f = fight()
    f.declare("kael", {"kind": "dodge"})
    assert f.ap("kael") == 2 and f.ruleset.defence(f.state, "kael") == 16 + 3
    g = started(kael=KAEL)
    moves = [m if m.name != "Basic Dodge" else msgspec.structs.replace(m, ap="2", defence=4) for m in default_moves()]
    g.send(SetNovusRules(data=NovusData(moves=moves)))
    g.declare("orc", attack("kael", "Axe"))
    assert g.ap("orc") == 0  # a Large weapon: 5 AP
    g.declare("kael", {"kind": "dodge"}, {"kind": "attack", "target": "orc", "weapon": "Dagger"})
    assert g.ap("kael") == 0 and g.ruleset.defence(g.state, "kael") == 16 + 4
    with pytest.raises(ValueError, match="Basic Block"):
        NovusData(moves=[m for m in default_moves() if m.name != "Basic Block"])


def test_an_unknown_or_unlearnt_move_is_refused_naming_the_field() -> None:
    """N18: "Basic moves cost 0 and come free with any Combat Skill that has at least 1 rank"; the
    advanced ones are bought ("how many Character Points it costs to purchase the Move")."""
    f = fight()
    refused = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Broadsword", move="Snap Attack")]}, f.ruleset.command_type))
    assert refused.code == "novus_unknown_move" and refused.message.startswith("move:")
    g = started(kael=sheet())  # Kael without the moves learnt
    g.declare("orc", {"kind": "move"})
    refused = g.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Broadsword", move="All Out Attack")]}, g.ruleset.command_type))
    assert refused.code == "novus_move_not_known" and "skills[0].moves" in refused.message
    untrained = sheet(skills=[{"name": "Broadsword", "ranks": 0, "bonus": 1, "melee": True}])
    h = started(kael=untrained)
    h.declare("orc", {"kind": "move"})
    refused = h.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Broadsword", move="Basic Disarm")]}, h.ruleset.command_type))
    assert refused.code == "novus_move_not_known" and "1 rank" in refused.message
    h.declare("kael", attack("orc", "Broadsword"))  # "Any character may make an untrained ... attack"


def test_all_out_attack_plus_2_ab_minus_2_def_for_the_round_bma_plus_2_ap_and_plus_4_base_damage() -> None:
    """N19: "All Out Attack (6 CP): AB +2, DEF -2, AP BMA+2, +4 Base Damage, not allowed while Fighting
    Defensively"."""
    f = fight()
    refused = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "defensive": 2,
                                         "defensive_weapon": "Broadsword", "actions": [
                                             attack("orc", "Dagger", move="All Out Attack")]}, f.ruleset.command_type))
    assert refused.code == "novus_bad_action" and "Fighting Defensively" in refused.message
    f.declare("kael", attack("orc", "Dagger", move="All Out Attack"))
    assert f.ap("kael") == 0  # a Tiny weapon's 3 AP + 2
    assert f.ruleset.defence(f.state, "kael") == 16 - 2  # for the whole round, before it is made
    rolled, *_ = f.resolve("kael", [5, 5])  # 10 + 7 + 2 = 19 vs 16
    assert isinstance(rolled, AttackRolled) and rolled.move == "All Out Attack"
    assert (rolled.attack_bonus, rolled.base_damage, rolled.scaled) == (9, 4 + 1 + 4, 3)
    assert rolled.damage == 9 + 3 - 2


def test_cut_is_for_edged_weapons_base_damage_only_and_ignores_armour() -> None:
    """N19: "Cut (5 CP): AB +1, DEF +1, AP BMA; edged weapons only; Base Damage only (no Scaled), and it
    ignores armour"."""
    f = fight()
    refused = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Dagger", move="Cut")]}, f.ruleset.command_type))
    assert refused.code == "novus_bad_action" and "edged" in refused.message
    f.declare("kael", attack("orc", "Broadsword", move="Cut"))
    assert f.ap("kael") == 1 and f.ruleset.defence(f.state, "kael") == 16 + 1
    rolled, *_ = f.resolve("kael", [9, 8])  # 17 + 7 + 1 = 25 vs 16
    assert (rolled.attack_bonus, rolled.scaled, rolled.armour, rolled.damage) == (8, 0, 0, 8 + 1)


def test_basic_disarm_makes_the_foe_save_vs_str_or_the_weapon_flies() -> None:
    """N19: "Basic Disarm: BMA AP; on a hit the foe saves vs Str at TN 15 + 1 for every 5 points the roll
    beat DEF, or the weapon flies 1-10 ft"; N3: the Save bonus is "the relevant Stat Bonus + 5"."""
    f = started(kael=KAEL, initiative=(9, 5, 2, 2))
    f.declare("orc", attack("kael", "Axe"))
    f.declare("kael", attack("orc", "Broadsword", move="Basic Disarm"))
    rolled, save = f.resolve("kael", [9, 9, 3, 4, 7])[:2]  # 18 + 7 = 25: 9 over DEF 16; the Orc 7 + 2 + 5 = 14
    assert rolled.hit and rolled.damage == 0 and f.hp("orc") == 30
    assert isinstance(save, DisarmSaveRolled) and (save.weapon, save.tn, save.total, save.passed, save.feet) == (
        "Axe", 15 + 1, 14, False, 7)
    assert f.rules.disarmed == {"orc": ["Axe"]}
    shown = f.ruleset.shown(f.state).combatants["orc"].sheet
    assert shown.disarmed == ["Axe"]
    f.end_turn("kael")
    assert f.resolve("orc")[0].lapsed  # the Axe's attack lapses: it lies 7 ft away
    f.end_turn("orc")
    refused = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "orc",
                                         "actions": [attack("kael", "Axe")]}, f.ruleset.command_type))
    assert refused.code == "novus_disarmed" and refused.message.startswith("weapon:")
    refused = f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "orc", "defensive": 2,
                                         "defensive_weapon": "Axe", "actions": []}, f.ruleset.command_type))
    assert refused.code == "novus_disarmed" and refused.message.startswith("defensive_weapon:")
    f.declare("orc", {"kind": "gm_action", "name": "Pick up an item", "weapon": "Axe"})
    f.declare("kael", {"kind": "move"})
    f.resolve("kael")
    f.end_turn("kael")
    f.resolve("orc")
    assert f.rules.disarmed == {"orc": []}
    g = started(kael=KAEL, orc=sheet(stats=stats(strength=4, speed=1), hit_points=30,
                                     skills=ORC["skills"], weapons=ORC["weapons"], armour={"ar": 2}))
    g.declare("orc", {"kind": "move"})
    g.declare("kael", attack("orc", "Broadsword", move="Basic Disarm"))
    _, save = g.resolve("kael", [5, 6, 5, 5])[:2]  # 18 vs 16: TN 15; 10 + 4 + 5 = 19
    assert save.passed and g.rules.disarmed == {}


def test_basic_shot_minus_4_per_full_range_increment_and_brace_offsets_it() -> None:
    """N19: "Basic Shot takes -4 AB per full range increment. Brace (the ranged move) gives +5 that only
    offsets range penalties"."""
    f = fight()
    f.declare("kael", attack("orc", "Bow", distance=120))  # 2 full increments of 50 ft
    assert f.ruleset.attack_bonus(f.state, "kael", f.rules.declared["kael"].actions[0]) == 6 - 8
    g = fight()
    g.declare("kael", attack("orc", "Bow", move="Brace", distance=120))
    assert g.ruleset.attack_bonus(g.state, "kael", g.rules.declared["kael"].actions[0]) == 6 - 8 + 5
    h = fight()
    h.declare("kael", attack("orc", "Bow", move="Brace", distance=60))  # -4, offset: no more than 0
    assert h.ruleset.attack_bonus(h.state, "kael", h.rules.declared["kael"].actions[0]) == 6
    i = fight()
    refused = i.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Broadsword", distance=10)]}, i.ruleset.command_type))
    assert refused.code == "novus_bad_action" and refused.message.startswith("distance:")
    refused = i.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", "Bow", move="Cut")]}, i.ruleset.command_type))
    assert refused.code == "novus_bad_action" and refused.message.startswith("move:")


def test_a_move_row_is_checked_like_the_rest_of_the_gms_data() -> None:
    """The template's "AP: #": "BMA", "BMA+n" or a number of Action Points."""
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"name": "Lunge", "ap": "lots"}, MoveRule)
    with pytest.raises(ValueError, match="each Combat Move"):
        NovusData(moves=[*default_moves(), MoveRule(name="cut")])


def test_the_declaration_prompt_offers_the_moves_learnt() -> None:
    """N18: advanced moves are bought ("how many Character Points it costs to purchase the Move"): the ones
    on the sheet are offered with the attacks (Cut's BMA: 4 AP; All Out Attack's BMA+2 with the Broadsword: 6,
    more than the 5 AP of the round, alone: N11 "An action may run into the next round only if it also uses
    all of this round's AP")."""
    f = started(kael=KAEL)
    f.declare("orc", {"kind": "move"})
    [decision] = [d for d in f.ruleset.pending(f.state) if d.combatant_id == "kael" and d.kind == "declare"]
    names = {c.name for c in decision.choices}
    cut = "Attack Orc with the Broadsword (Cut)"
    assert {"Attack Orc with the Broadsword", cut} <= names
    [all_out] = [c for c in decision.choices if c.name.startswith("Attack Orc with the Broadsword (All Out Attack)")]
    assert all_out.action_points == 6 and all_out.name.endswith(", 1 AP of it in the next round")
    assert not any("All Out Attack" in c.name and "then" in c.name for c in decision.choices)  # never with more


def test_a_fight_stored_with_the_old_dodge_settings_replays_with_its_dodge() -> None:
    """N19: "Basic Dodge: DEF +3, 3 AP" ("publisher texts disagree": 2 AP): a fight whose GM set the Dodge
    before the table of moves (NovusRulesSet version 1) keeps that Dodge."""
    from domain.novus.ruleset import Novus
    ruleset = Novus()
    old = {"type": "NovusRulesSet", "data": {**msgspec.to_builtins(NovusData()), "dodge_ap": 2, "dodge_def": 4}}
    del old["data"]["moves"], old["data"]["limbs"]
    event = ruleset.decode_event("NovusRulesSet", 1, msgspec.json.encode(old))
    assert (event.data.dodge_ap, event.data.dodge_def) == (2, 4)
    assert ruleset.schema_versions["NovusRulesSet"] == 2 and ruleset.schema_versions["EncounterOpened"] == 2


def test_the_plain_moves_keep_their_kind() -> None:
    """N18: "Basic moves cost 0": the plain attack, shot, Dodge and Block stay Basic moves of their action."""
    moves = [m if m.name != "Basic Block" else msgspec.structs.replace(m, use="attack") for m in default_moves()]
    with pytest.raises(ValueError, match="Basic Block is a Basic block"):
        NovusData(moves=moves)
    moves = [m if m.name != "Basic Shot" else msgspec.structs.replace(m, family="melee") for m in default_moves()]
    with pytest.raises(ValueError, match="Basic Shot"):
        NovusData(moves=moves)
