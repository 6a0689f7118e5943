"""The Novus round (novus-combat, novus-gaps N11): initiative once per combat, declarations from
the lowest IP to the highest, resolution from the highest to the lowest, 5 AP (10 Hasted), the
Action Points table."""

from __future__ import annotations

import msgspec

from domain.core.encounter import AddCombatant, RollInitiative
from domain.novus.data import ActionRule, NovusData
from domain.novus.events import (
    ActionsDeclared, AttackRolled, InitiativeRerolled, SetHaste, SetNovusRules,
)
from tests.rulesets.novus.fight import KAEL, ORC, Fight, attack, sheet, started, stats, types


def test_a_sheet_that_does_not_fit_is_refused_naming_the_field() -> None:
    f = Fight()
    bad = (({**KAEL, "hit_points": 0}, "hit_points"), ({**KAEL, "stats": {**stats(), "speed": {"value": 3}}}, "speed"),
           ({**KAEL, "weapons": [{"name": "Spear", "skill": "Spear"}]}, "weapons[0].skill"),
           ({**KAEL, "weapons": [{"name": "Bow", "kind": "missile"}]}, "weapons[0].range"),
           ({**KAEL, "shield": "tower"}, "shield"))
    for body, field in bad:
        refused = f.refused(AddCombatant(combatant_id="x", name="X", side="a", controller="gm", sheet=body))
        assert refused.code == "invalid_sheet" and field in refused.message, refused.message


def test_def_is_15_plus_speed_plus_a_point_per_5_ranks_of_the_best_melee_skill_plus_the_shield() -> None:
    """N6: "DEF (the TN to hit) = 15 + Speed Stat Bonus + 1 for every 5 ranks in the defender's best
    melee Combat Skill + shield DEF"; N9: "Shields give DEF: Full 4, Normal 3, Small 2"."""
    f = started(kael=sheet(stats=stats(speed=2), shield="normal",
                           skills=[{"name": "Broadsword", "ranks": 11, "bonus": 13, "melee": True},
                                   {"name": "Bow", "ranks": 20, "bonus": 22}]))
    assert f.ruleset.defence(f.state, "kael") == 15 + 2 + 2 + 3


def test_initiative_is_2d10_plus_speed_and_wisdom_bonuses_and_rolled_once_per_combat() -> None:
    """N11: "Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus ... It is rolled once per combat"."""
    f = Fight()
    f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player",
                        sheet=sheet(stats=stats(speed=2, wisdom=1))))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    [rolled] = f.send(RollInitiative(dice=[10, 3, 2, 1, 6, 7]))  # Kael 10 explodes (+2): 15 + 3; the Orc 1 implodes
    assert [(r.who, r.total) for r in rolled.rolls] == [("kael", 10 + 3 + 2 + 3), ("orc", 1 + 6 - 7 + 1)]
    assert f.state.order == ["kael", "orc"]
    f.send(__import__("domain.core.encounter", fromlist=["StartEncounter"]).StartEncounter())
    assert f.refused(RollInitiative(dice=[5, 5, 5, 5])).code == "novus_initiative_once"


def test_declarations_go_from_the_lowest_ip_to_the_highest_and_resolve_from_the_highest() -> None:
    """"Actions are declared from the lowest IP to the highest and resolved from the highest to the lowest"."""
    f = started()  # Kael 14, the Orc 8
    assert f.refused(_declare("kael", attack("orc"))).code == "not_your_move"
    [d, _hold] = f.ruleset.pending(f.state)
    assert (d.kind, d.combatant_id) == ("declare", "orc")
    f.declare("orc", attack("kael", "Axe"))
    assert f.ruleset.pending(f.state)[0].combatant_id == "kael"
    f.declare("kael", attack("orc", "Broadsword"))
    assert f.refused(_resolve("orc")).code == "not_your_turn"
    assert f.refused(_end("kael")).code == "novus_resolve_first"
    [d] = [d for d in f.ruleset.pending(f.state) if d.blocks_turn_end]
    assert (d.kind, d.combatant_id, d.blocks_turn_end) == ("resolve", "kael", True)
    assert types(f.resolve("kael", [5, 5])) == ["NovusAttackRolled", "NovusDamaged", "NovusActionsResolved"]
    f.end_turn("kael")
    events = f.resolve("orc", [2, 3])
    assert isinstance(events[0], AttackRolled) and not events[0].hit
    f.end_turn("orc")
    assert f.state.round == 2 and f.ruleset.pending(f.state)[0].combatant_id == "orc"


def test_five_ap_a_round_ten_when_hasted_and_never_two_spells() -> None:
    """"Normally a character has only 5 Action Points to use in a given round. However, some spells
    and items can Haste the character, giving him a total of 10 AP for the round ... no amount of
    Haste will allow for casting more than one spell per round."""
    f = started()
    f.declare("orc", {"kind": "draw_weapon"})
    assert f.refused(_declare("kael", attack("orc", "Broadsword"), attack("orc", "Broadsword"))).code == "novus_too_many_ap"
    f.send(SetHaste(combatant_id="kael"))
    assert f.ap("kael") == 5  # from the next round
    f.declare("kael", attack("orc", "Broadsword"))
    f.resolve("kael", [2, 2])
    f.end_turn("kael")
    f.resolve("orc")
    f.end_turn("orc")
    assert f.ap("kael") == 10 and f.ap("orc") == 5
    f.declare("orc", {"kind": "move"})
    assert f.refused(_declare("kael", {"kind": "cast_spell"}, {"kind": "counterspell"})).code == "novus_one_spell"
    [declared] = f.declare("kael", attack("orc", "Broadsword"), attack("orc", "Broadsword"))
    assert isinstance(declared, ActionsDeclared) and declared.ap == 8 and f.ap("kael") == 2


def test_the_action_points_table() -> None:
    """"Basic Melee Attack (Tiny/Small Weapons) 3*", "(Medium Weapons) 4*", "(Large/Huge Weapons)
    5*", "Basic Missile Attack 2*", "Basic Unarmed/Natural Attacks 3*", "Draw Weapon 1", "Get up
    from Prone position 2", "Perception roll 1", "Move Base Movement 1"."""
    f = started(kael=sheet(weapons=[{"name": "Dagger", "size": "tiny", "dr": 4, "skill": "Broadsword"},
                                    {"name": "Broadsword", "size": "medium", "dr": 8, "skill": "Broadsword"},
                                    {"name": "Greatsword", "size": "large", "dr": 10, "skill": "Broadsword",
                                     "one_handed": False},
                                    {"name": "Bow", "size": "small", "dr": 6, "kind": "missile", "range": 50}]))
    f.declare("orc", {"kind": "perception"})
    cases = [(attack("orc", "Dagger"), 3), (attack("orc", "Broadsword"), 4), (attack("orc", "Greatsword"), 5),
             (attack("orc", "Bow"), 2), (attack("orc"), 3), ({"kind": "draw_weapon"}, 1), ({"kind": "get_up"}, 2),
             ({"kind": "perception"}, 1), ({"kind": "move"}, 1), ({"kind": "run"}, 1), ({"kind": "cast_spell"}, 4),
             ({"kind": "counterspell"}, 2), ({"kind": "instant_spell"}, 3), ({"kind": "concentration"}, 3),
             ({"kind": "reload_sling_bow"}, 3), ({"kind": "reload_light_crossbow"}, 5)]
    for action, ap in cases:
        events = f.ruleset.decide(f.state, _declare("kael", action), None)  # type: ignore[arg-type]
        assert events[0].ap == ap, action


def test_an_action_runs_into_the_next_round_only_if_it_uses_all_of_this_rounds_ap() -> None:
    """N11: "An action may run into the next round only if it also uses all of this round's AP ...
    Dodge (2 AP) plus a Medium melee attack (4 AP) can't be declared together"."""
    f = started()
    f.declare("orc", {"kind": "move"})
    assert f.refused(_declare("kael", {"kind": "dodge"}, attack("orc", "Broadsword"))).code == "novus_too_many_ap"
    assert f.refused(_declare("kael", {"kind": "draw_weapon"}, {"kind": "reload_light_crossbow"})).code == "novus_too_many_ap"
    [declared] = f.declare("kael", {"kind": "reload_heavy_crossbow"})  # "Reloading/Loading Heavy Crossbow 10"
    assert (declared.ap, declared.carried) == (5, 5) and f.ap("kael") == 0
    _round(f)
    assert f.ap("kael") == 0 and f.ap("orc") == 5


def test_a_dodge_declared_raises_def_for_the_whole_round() -> None:
    """N11: "A DEF change from a declared action lasts the whole round"; Basic Dodge "DEF +3, 3 AP" (N19)."""
    f = started()
    f.declare("orc", {"kind": "dodge"})
    assert f.ruleset.defence(f.state, "orc") == 16 + 3 and f.ap("orc") == 2
    f.declare("kael", attack("orc", "Broadsword"))
    [rolled, *_] = f.resolve("kael", [6, 5])  # 11 + 7 = 18: it would hit DEF 16
    assert not rolled.hit and rolled.defence == 19


def test_simple_and_complex_actions_are_the_gms_to_name_and_cost() -> None:
    """"it is up to the GM to determine which category the declared action belongs to, and how many
    AP are required": "Simple Actions will normally take from 1 to 2 AP", Complex "between 2 and 5"."""
    f = started()
    f.declare("orc", {"kind": "gm_action", "name": "Pick up an item"})
    assert f.refused(_declare("kael", {"kind": "gm_action", "name": "Juggle"})).code == "novus_unknown_action"
    try:
        NovusData(actions=[ActionRule(name="Juggle", category="simple", ap=3)])
    except ValueError as e:
        assert "actions[0].ap" in str(e)
    else:
        raise AssertionError("a Simple action of 3 AP was taken")
    f.send(SetNovusRules(data=NovusData(actions=[ActionRule(name="Juggle", category="complex", ap=3)])))
    [declared] = f.declare("kael", {"kind": "gm_action", "name": "juggle"})
    assert declared.ap == 3


def test_set_initiative_counts_as_a_rolled_20_next_round_only_and_not_on_consecutive_rounds() -> None:
    """"the character is treated as if he rolled a 20 on the 2d10 for determining his Initiative ...
    This IP modification lasts only for one round, and it cannot be performed on consecutive rounds.
    Additionally, the character may not make any attacks in the round in which he is preparing"."""
    f = started()
    f.declare("orc", {"kind": "set_initiative"})
    assert f.refused(_declare("kael", {"kind": "set_initiative"}, attack("orc", "Broadsword"))).code == "novus_bad_action"
    f.declare("kael", {"kind": "move"})
    _round(f)
    assert f.rules.ip["orc"] == 20 + 1 and f.state.order == ["orc", "kael"]
    assert f.refused(_declare("orc", {"kind": "move"})).code == "not_your_move"  # Kael (14) now declares first
    f.declare("kael", {"kind": "move"})
    assert f.refused(_declare("orc", {"kind": "set_initiative"})).code == "novus_no_repeat"
    f.declare("orc", {"kind": "move"})
    _round(f)
    assert f.rules.ip["orc"] == 8 and f.state.order == ["kael", "orc"]


def test_reroll_initiative_gives_the_ip_for_the_rest_of_the_combat() -> None:
    """"A character may prepare for one round, using 4 AP of that round, in order to reroll his
    initiative in the following round. This new IP will be the character's IP for the remainder of the combat"."""
    f = started()
    [declared] = f.declare("orc", {"kind": "reroll_initiative"})
    assert declared.ap == 4
    f.declare("kael", {"kind": "move"})
    f.resolve("kael")
    f.end_turn("kael")
    f.resolve("orc")
    events = f.end_turn("orc", dice=[10, 9, 4])  # 10 explodes: 10 + 9 + 4 + 1 (Speed)
    rerolled = next(e for e in events if isinstance(e, InitiativeRerolled))
    assert rerolled.roll.total == 24 and f.rules.ip["orc"] == 24 and f.state.order == ["orc", "kael"]
    f.declare("kael", {"kind": "move"})
    f.declare("orc", {"kind": "move"})
    _round(f)
    assert f.rules.ip["orc"] == 24


def _round(f: Fight) -> None:
    for cid in list(f.state.order):
        f.resolve(cid)
        f.end_turn(cid)


def _declare(cid: str, *actions: dict) -> object:
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions)}, Novus().command_type)


def _resolve(cid: str) -> object:
    from domain.novus.events import Resolve
    return Resolve(combatant_id=cid)


def _end(cid: str) -> object:
    from domain.core.encounter import EndTurn
    return EndTurn(combatant_id=cid)


def test_the_first_of_several_attacks_is_made_at_ones_ip_and_the_rest_at_the_end_of_the_round() -> None:
    """"the primary attack roll is made at the character's initiative point, and any remaining attack
    rolls are made at the end of the round. In making multiple attacks, once the first of the attacks
    is made, the character may no longer cancel his action to perform other actions ... though he may
    still cancel his remaining attacks"."""
    f = started()
    f.send(SetHaste(combatant_id="kael"))
    f.declare("orc", {"kind": "move"})
    f.declare("kael", {"kind": "move"})
    _round(f)  # Kael has 10 AP from round 2
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"), attack("orc", "Broadsword"))
    first = f.resolve("kael", [2, 3])  # a miss, at Kael's IP; the second waits
    assert types(first) == ["NovusAttackRolled", "NovusActionsResolved"]
    f.end_turn("kael")
    from domain.novus.events import Cancel
    from domain.novus.actions import Action
    assert f.refused(Cancel(combatant_id="kael", instead=[Action(kind="dodge")])).code == "novus_nothing_declared"
    f.resolve("orc")
    assert f.refused(_end("orc")).code == "novus_end_of_round_attacks"
    [d] = f.ruleset.pending(f.state)
    assert (d.kind, d.combatant_id, d.blocks_turn_end) == ("end_of_round_attacks", "kael", True)
    late = f.send(_resolve_with("kael", [3, 2]))
    assert types(late) == ["NovusAttackRolled", "NovusLateAttacksResolved"]
    f.end_turn("orc")
    assert f.state.round == 3


def test_the_remaining_attacks_may_still_be_cancelled() -> None:
    """"though he may still cancel his remaining attacks"."""
    f = started()
    f.send(SetHaste(combatant_id="kael"))
    f.declare("orc", {"kind": "move"})
    f.declare("kael", {"kind": "move"})
    _round(f)
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"), attack("orc", "Broadsword"))
    f.resolve("kael", [2, 3])
    f.end_turn("kael")
    from domain.novus.events import Cancel
    assert types(f.send(Cancel(combatant_id="kael"))) == ["NovusLateAttacksCancelled"]
    f.resolve("orc")
    f.end_turn("orc")
    assert f.state.round == 3


def _resolve_with(cid: str, dice: list[int]) -> object:
    from domain.novus.events import Resolve
    return Resolve(combatant_id=cid, dice=dice)


def test_holding_before_declaring_is_free_and_the_actions_come_at_a_lower_ip() -> None:
    """"Should the player decide to hold his character's actions prior to declaring his character's
    actions for the round, there is no penalty ... The player may then ... perform his actions at any
    initiative point that he desires, so long as it is lower than the initiative point rolled"."""
    from domain.novus.events import ActHeld, Hold
    f = started()  # Kael 14, the Orc 8: the Orc declares first
    f.declare("orc", attack("kael", "Axe"))
    [held] = f.send(Hold(combatant_id="kael"))
    assert held.lost == 0 and f.ap("kael") == 5 and f.rules.holding == ["kael"]
    assert f.refused(ActHeld(combatant_id="kael")).code == "novus_not_holding"  # not before Kael's own IP has passed
    f.resolve("kael")
    f.end_turn("kael")
    assert any(d.kind == "held_action" for d in f.ruleset.pending(f.state))
    out = f.send(_act_held("kael", [attack("orc", "Broadsword")], dice=[6, 6]))  # before the Orc's attack
    assert types(out)[:2] == ["NovusHeldActionsTaken", "NovusAttackRolled"] and f.ap("kael") == 1
    f.resolve("orc", [2, 2])
    f.end_turn("orc")
    assert f.state.round == 2 and f.rules.holding == []


def test_holding_after_declaring_loses_1_ap_and_the_actions_are_declared_again() -> None:
    """"should the player decide to hold his character's action after he has already declared his
    actions, he will lose 1 AP from the total that he has available for the round and must re-declare
    his actions to fit within this revised number of AP"."""
    from domain.novus.events import Hold
    f = started()
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    [held] = f.send(Hold(combatant_id="kael"))
    assert (held.refund, held.lost) == (4, 1) and f.ap("kael") == 4
    f.resolve("kael")
    f.end_turn("kael")
    assert f.refused(_act_held("kael", [attack("orc", "Broadsword"), {"kind": "move"}])).code == "novus_too_many_ap"
    f.send(_act_held("kael", [attack("orc", "Broadsword")], dice=[2, 2]))
    assert f.ap("kael") == 0


def _act_held(cid: str, actions: list[dict], dice: list[int] | None = None) -> object:
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusActHeld", "combatant_id": cid, "actions": actions, "dice": dice},
                           Novus().command_type)


def test_cancelling_and_holding_are_offered_to_each_who_may_still_do_them_and_never_waited_for() -> None:
    """"an action declared by a character may be canceled at any time prior to its resolution";
    "Should the player decide to hold his character's actions prior to declaring ... there is no
    penalty. However, should the player decide to hold ... after he has already declared his actions,
    he will lose 1 AP"; a new attack "may not be against that same foe"."""
    f = started()  # Kael 14, the Orc 8: the Orc declares first
    kinds = {(d.kind, d.combatant_id): d for d in f.ruleset.pending(f.state)}
    assert set(kinds) == {("declare", "orc"), ("hold", "orc")} and "free" in kinds["hold", "orc"].summary
    f.declare("orc", attack("kael", "Axe"))
    kinds = {(d.kind, d.combatant_id): d for d in f.ruleset.pending(f.state)}
    # "at any time prior to its resolution": the Orc may cancel while Kael still declares
    assert set(kinds) == {("declare", "kael"), ("hold", "kael"), ("hold", "orc"), ("cancel", "orc")}
    assert "1 AP lost" in kinds["hold", "orc"].summary and not kinds["hold", "orc"].blocks_turn_end
    f.declare("kael", attack("orc", "Broadsword"))
    kinds = {(d.kind, d.combatant_id): d for d in f.ruleset.pending(f.state)}
    assert {("resolve", "kael"), ("cancel", "kael"), ("cancel", "orc"), ("hold", "kael"), ("hold", "orc")} <= set(kinds)
    cancel = kinds["cancel", "kael"]
    assert not cancel.blocks_turn_end
    names = [c.name for c in cancel.choices]
    assert names[:3] == ["Cancel, and do nothing instead", "Cancel, and instead: Dodge", "Cancel, and instead: Block"]
    assert not any("Attack Orc" in n for n in names)  # the same foe: not allowed
    dodge = next(c for c in cancel.choices if c.name == "Cancel, and instead: Dodge")
    [cancelled, *_] = f.send(msgspec.convert(cancel.answer(dodge), f.ruleset.command_type))
    assert cancelled.instead[0].kind == "dodge" and cancelled.ap == dodge.action_points == 3
    assert ("cancel", "kael") not in {(d.kind, d.combatant_id) for d in f.ruleset.pending(f.state)}
