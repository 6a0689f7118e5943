"""Magical Combat: spells by complexity, their Action Point and Mere costs, Set Spells, healing.

Rules quoted are from ../shared/rules/places-of-power-combat.txt ("Magical Combat", "Cast
Spell" in Common Actions, the Note in "Stabilising & Healing Hits", "Set Spells" in Enemies).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import AddCombatant, EndTurn, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import AttackDeclared, AttackRolled, Defend, ExchangeEnded, HitsTaken
from domain.places_of_power.hits import SetHits
from domain.places_of_power.magic import (
    DEFAULT_SPELL_COSTS,
    CastSpell,
    MereSet,
    SetMere,
    SetSpellCosts,
    SpellCast,
    SpellCost,
    SpellRolled,
    base_damage,
)
from domain.places_of_power.status_effect import Status
from domain.rulesets import default_registry
from tests.rulesets.places_of_power.fight import shown

RULESET = default_registry().get("places-of-power")

MIRA = {"attributes": {"intelligence": "D8", "empathy": "D6"}, "mere_skills": {"Rosmere": "D8", "Vitamere": "D6"},
        "mere": 10}
KESS = {"attributes": {"agility": "D8"}, "skills": {"Athletics": "D6"}}
WITCH = {
    "attributes": {"empathy": "D8"}, "skills": {"Magic": "D8"}, "mere": 6,
    "armour": [{"name": "Robe", "layer": "Outer", "value": 1, "durability": 2}],
    "stat_block": {"set_actions": ["Light Melee Attack", "Dive"], "set_spells": [
        {"name": "Hex", "mere": "Morimere", "mere_cost": 2, "complexity": 1, "description": "A withering curse."},
        {"name": "Mend", "mere": "Vitamere", "mere_cost": 3, "complexity": 2, "healing": True},
    ]},
}
# An NPC played like a player: no Stat Block, so no Set Spells.
HEDGE_MAGE = {"attributes": {"intelligence": "D6"}, "mere_skills": {"Rosmere": "D6"}, "mere": 4}


class Table:
    """A reported-dice fight: Mira (player, caster), Kess (player), then the GM's Witch (Stat
    Block) and Hedge mage (no Stat Block). Mira's turn, round 1, 3 Action Points."""

    def __init__(self, **sheets: dict[str, Any]) -> None:
        self.state = RULESET.replay(RULESET.open("e", "The burning chapel", "reported", "x"))
        for cid, controller, sheet in (("mira", "player", MIRA), ("kess", "player", KESS), ("witch", "gm", WITCH),
                                       ("mage", "gm", HEDGE_MAGE)):
            self.play(AddCombatant(name=cid.title(), side="party" if controller == "player" else "enemies",
                                   controller=controller, combatant_id=cid, sheet=sheets.get(cid, sheet)))
        self.play(RollInitiative(), [12, 6, 1])
        self.play(StartEncounter())
        assert self.state.turn == "mira"

    def play(self, command, faces=()) -> list[Any]:
        events = RULESET.decide(self.state, command, ReportedDice(list(faces)))
        for event in events:
            self.state = RULESET.evolve(self.state, event)
        return events

    def refused(self, command, faces=()) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as e:
            self.play(command, faces)
        assert self.state == before
        return e.value

    def sheet(self, cid: str) -> Any:
        return self.state.combatants[cid].sheet

    def ap(self, cid: str) -> int:
        return self.state.combatants[cid].action_points

    def turn_of(self, cid: str) -> None:
        while self.state.turn != cid:
            self.play(EndTurn(combatant_id=self.state.turn))


def bolt(complexity: int = 0, **fields: Any) -> CastSpell:
    return CastSpell(**{"combatant_id": "mira", "spell": "Firebolt", "attribute": "intelligence", "mere": "Rosmere",
                        "complexity": complexity, "target": "witch", "band": "Near", **fields})


def of(events: list[Any], kind: type) -> Any:
    return next(e for e in events if isinstance(e, kind))


# ------------------------------------------------------------------ damage and cost


@pytest.mark.parametrize("complexity", [0, 1, 2, 3])
def test_a_spell_does_one_hit_of_base_damage_per_level_of_complexity(complexity: int) -> None:
    """"your spells do 1 Hit of Base damage for each level of complexity involved in the spell. A
    spell that has no modifiers will do 1 Hit of Base Damage, while a spell using the maximum 3
    modifiers will do 4 Hits of Base damage." The spell is an attack the exchange resolves."""
    assert base_damage(complexity) == complexity + 1
    t = Table()
    if complexity == 3:  # 4 Action Points: Mira saves up to round 2 (3 carried over + 3)
        t.turn_of("kess")
        t.turn_of("mira")
    events = t.play(bolt(complexity), [4, 6])  # 10 at Normal: a Partial Success, no extra Success
    declared = of(events, AttackDeclared)
    assert [type(e) for e in events] == [SpellCast, AttackDeclared, AttackRolled]
    assert (declared.attack, declared.weapon, declared.melee, declared.gun, declared.band) == (
        "Spell", "Firebolt", False, False, "Near")
    assert declared.base_damage == complexity + 1
    assert declared.attack_id == t.state.version - 1  # the version of its AttackDeclared
    ex = shown(t.state).rules.exchange
    assert (ex.stage, ex.awaiting, ex.damage) == ("defence", "witch", complexity + 1)


@pytest.mark.parametrize("complexity", [0, 1, 2, 3])
def test_the_cost_in_action_points_and_mere_rises_with_complexity(complexity: int) -> None:
    """"The cost to perform spells, in both Action Points and Mere, also increases with the
    complexity of the spell. The more complex the spell, the more Action Points it costs to
    perform, and the more Mere it uses to do so." Default (our reading): 1-4 AP, 1-4 Mere."""
    costs = DEFAULT_SPELL_COSTS
    assert all(b.action_points > a.action_points and b.mere > a.mere for a, b in zip(costs, costs[1:]))
    t = Table()
    t.turn_of("kess")
    t.turn_of("mira")  # round 2: 6 Action Points
    assert t.ap("mira") == 6
    t.play(bolt(complexity), [1, 2])  # a miss: Action Points and Mere are spent all the same
    assert t.ap("mira") == 6 - (complexity + 1)
    assert t.sheet("mira").mere == 10 - (complexity + 1)
    assert shown(t.state).rules.exchange is None


def test_a_spell_costing_more_action_points_than_are_left_is_refused() -> None:
    """Casting is an action: "all Actions taken ... require Action Points"."""
    t = Table()
    assert t.refused(bolt(3), [4, 6]).code == "not_enough_action_points"  # 4 AP, Mira has 3


def test_the_gm_sets_the_cost_table_and_it_must_rise() -> None:
    """The text gives no numbers ("increases with the complexity"): the GM sets them, rising."""
    t = Table()
    table = [SpellCost(action_points=1, mere=0, difficulty="Easy"), SpellCost(action_points=2, mere=2),
             SpellCost(action_points=3, mere=5, difficulty="Difficult"), SpellCost(action_points=5, mere=8,
                                                                                   difficulty="Hard")]
    t.play(SetSpellCosts(costs=table))
    assert t.state.rules.spell_costs == table
    events = t.play(bolt(2), [6, 7])  # 13: a Partial Success at Difficult
    assert of(events, AttackDeclared).difficulty == "Difficult"
    assert of(events, AttackRolled).outcome == "Partial Success"
    assert (t.ap("mira"), t.sheet("mira").mere) == (0, 5)
    flat = [SpellCost(action_points=2, mere=2)] * 4
    assert t.refused(SetSpellCosts(costs=flat)).code == "spell_costs_must_rise"
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"type": "SetSpellCosts", "costs": [{"action_points": 1, "mere": 1}]}, RULESET.command_type)


# ------------------------------------------------------------------------------ Mere


def test_mere_is_spent_and_a_spell_without_enough_mere_is_refused() -> None:
    """"Cast one of the spells you know and for which you have the require Mere to use.\""""
    t = Table(mira={**MIRA, "mere": 3})
    events = t.play(bolt(1), [4, 6])
    assert of(events, SpellCast).mere_spent == 2
    assert t.sheet("mira").mere == 1
    t.play(Defend(combatant_id="witch", attack=of(events, AttackDeclared).attack_id, defence="TakeIt"))
    e = t.refused(bolt(1), [4, 6])
    assert (e.code, e.details["available"], e.details["cost"]) == ("not_enough_mere", 1, 2)
    assert t.play(SetMere(combatant_id="mira", mere=7)) == [MereSet(combatant_id="mira", mere=7, reason="the GM")]
    t.play(bolt(0), [4, 6])
    assert t.sheet("mira").mere == 6


def test_a_player_needs_the_mere_skill_and_names_colour_and_complexity() -> None:
    """A player's spells are their own: the Mere colour (a Mere skill on the sheet) and the
    number of modifiers come with the command."""
    t = Table()
    e = t.refused(bolt(0, mere="Morimere"), [4, 6])
    assert (e.code, e.details["skill"]) == ("unknown_skill", "Morimere")
    assert t.refused(bolt(None), [4, 6]).code == "missing_detail"
    assert t.refused(bolt(0, band=None), [4, 6]).code == "missing_detail"
    assert t.refused(bolt(0, target="mira"), [4, 6]).code == "invalid_target"


# ------------------------------------------------------------------------ Set Spells


def test_an_enemy_casts_only_its_set_spells_as_listed() -> None:
    """"Unlike Player Characters, Enemies, if they use magic at all, have a list of Set Spells
    they can use. These Spells have a Mere type, a Mere Cost, and a Description of what they do.
    ... it is just assumed that if a Spell is listed they have the required connection to the
    Mere to pull it off." "Mere use is also grouped into a single Skill called Magic.\""""
    t = Table()
    t.turn_of("witch")
    hex_ = CastSpell(combatant_id="witch", spell="Hex", attribute="empathy", target="mira", band="Close")
    assert t.refused(msgspec.structs.replace(hex_, spell="Firebolt"), [4, 6]).code == "unknown_spell"
    assert t.refused(msgspec.structs.replace(hex_, complexity=3), [4, 6]).code == "spell_mismatch"
    events = t.play(hex_, [4, 6])
    cast = of(events, SpellCast)
    assert (cast.mere, cast.complexity, cast.mere_spent) == ("Morimere", 1, 2)  # from the block
    assert t.sheet("witch").mere == 4
    assert t.ap("witch") == 3 - 2  # the cost table's complexity 1
    declared = of(events, AttackDeclared)
    assert declared.base_damage == 2
    assert [d.purpose for d in of(events, AttackRolled).dice] == [
        f"attack {declared.attack_id}: Empathy", f"attack {declared.attack_id}: Magic"]


def test_set_spells_belong_to_enemies_with_a_stat_block_only() -> None:
    """An NPC without a Stat Block casts as a player does: its Mere skill, colour and complexity."""
    t = Table()
    t.turn_of("mage")
    hex_ = CastSpell(combatant_id="mage", spell="Hex", attribute="intelligence", target="kess", band="Near")
    assert t.refused(hex_, [4, 6]).code == "missing_detail"
    t.play(msgspec.structs.replace(hex_, mere="Rosmere", complexity=0), [1, 2])
    assert t.sheet("mage").mere == 3


def test_an_enemy_needs_the_mere_its_set_spell_costs() -> None:
    """"These Spells have a Mere type, a Mere Cost": the Enemy pays it from its Mere."""
    t = Table(witch={**WITCH, "mere": 1})
    t.turn_of("witch")
    hex_ = CastSpell(combatant_id="witch", spell="Hex", attribute="empathy", target="mira", band="Close")
    assert t.refused(hex_, [4, 6]).code == "not_enough_mere"


# --------------------------------------------------------------------------- the hit


def test_the_target_defends_and_armour_applies() -> None:
    """A damaging spell is resolved as an attack: the target picks a defence, armour takes Hits."""
    t = Table()
    events = t.play(bolt(2), [4, 6])  # 3 Hits of Base Damage
    attack_id = of(events, AttackDeclared).attack_id
    choices = {c.name for c in shown(t.state).rules.exchange.choices}
    # not a melee attack: no Evade; her Set Actions list Dive but not Tank, and Dive rolls
    # Athletics, which her Stat Block lacks: only what Defend would accept is offered
    assert choices == {"Armour", "TakeIt"}
    landed = t.play(Defend(combatant_id="witch", attack=attack_id, defence="Armour"))
    assert of(landed, HitsTaken).damage == 2  # the Robe took one
    assert t.sheet("witch").hits == 2
    assert isinstance(landed[-1], ExchangeEnded) and shown(t.state).rules.exchange is None


def test_extra_successes_are_spent_as_on_any_attack() -> None:
    t = Table()
    events = t.play(bolt(0), [7, 6])  # 13 at Normal: one extra Success
    assert of(events, AttackRolled).extra == 1
    assert shown(t.state).rules.exchange.stage == "spend"


def test_penalty_points_are_paid_on_a_spell() -> None:
    """"When your character is Wounded or Afflicted then they must apply Penalty Points when
    performing any actions": Reduce Base Damage lowers the spell's damage."""
    t = Table()
    t.play(SetHits(combatant_id="mira", hits=2))
    assert t.refused(bolt(1), [4, 6]).code == "penalty_points_owed"
    events = t.play(bolt(1, penalties=["ReduceDamage"]), [4, 6])
    assert of(events, AttackDeclared).base_damage == 1


def test_a_prone_target_is_attacked_at_advantage() -> None:
    """"Prone targets are always attacked at Advantage.\""""
    t = Table(witch={**WITCH, "prone": True})
    events = t.play(bolt(0), [4, 6])
    assert [d.sides for d in of(events, AttackRolled).dice] == [8, 10]  # the Skill die stepped up: D8 -> D10


def test_a_spell_attack_meets_status_effects_as_any_attack_does() -> None:
    """Exposed: "All attacks made against you are performed at Advantage OR gain an extra Hit of
    Base damage"; Blinded: "All attacks are performed at Disadvantage"."""
    exposed = msgspec.to_builtins(Status(name="Exposed"))
    t = Table(witch={**WITCH, "statuses": [exposed]})
    assert of(t.play(bolt(0, exposed="Damage"), [4, 6]), AttackDeclared).base_damage == 2
    blinded = msgspec.to_builtins(Status(name="Blinded"))
    t = Table(mira={**MIRA, "statuses": [blinded]})
    assert [d.sides for d in of(t.play(bolt(0), [4, 5]), AttackRolled).dice] == [8, 6]


def test_a_spell_without_a_target_is_rolled_and_paid() -> None:
    """A spell that is neither an attack nor healing (a ward, a light): rolled and paid; the GM
    applies what it does."""
    t = Table()
    events = t.play(CastSpell(combatant_id="mira", spell="Ward", attribute="intelligence", mere="Rosmere",
                              complexity=1), [4, 6])
    assert [type(e) for e in events] == [SpellCast, SpellRolled]
    assert of(events, SpellRolled).outcome == "Partial Success"
    assert (t.ap("mira"), t.sheet("mira").mere) == (1, 8)


# --------------------------------------------------------------------------- healing


def mend(complexity: int, **fields: Any) -> CastSpell:
    return CastSpell(**{"combatant_id": "mira", "spell": "Mend", "attribute": "empathy", "mere": "Vitamere",
                        "complexity": complexity, "healing": True, "target": "kess", **fields})


@pytest.mark.parametrize("complexity", [0, 1, 2])
def test_a_healing_spell_heals_its_base_damage_in_hits(complexity: int) -> None:
    """"If a spell is used for healing purposes, then the number of Hits healed is equal to the
    Base Damage associated with the spell's complexity.\""""
    t = Table()
    t.play(SetHits(combatant_id="kess", hits=4))
    events = t.play(mend(complexity), [4, 5])  # 9 at Normal
    assert of(events, SpellRolled).hits_healed == complexity + 1
    assert t.sheet("kess").hits == 4 - (complexity + 1)
    assert t.sheet("mira").mere == 10 - (complexity + 1)


def test_healing_never_goes_below_no_hits_and_a_failure_heals_nothing() -> None:
    t = Table()
    t.play(SetHits(combatant_id="kess", hits=1))
    t.play(mend(1), [1, 2])  # a failure: paid, nothing healed
    assert (t.sheet("kess").hits, t.ap("mira"), t.sheet("mira").mere) == (1, 1, 8)
    events = t.play(mend(0), [4, 5])
    assert of(events, SpellRolled).hits_healed == 1
    assert t.sheet("kess").hits == 0
    assert t.refused(mend(0), [4, 5]).code == "no_hits_to_restore"


def test_status_effects_are_resolved_before_a_spell_heals_hits() -> None:
    """"Status Effects must always be resolved before you can treat any Hits a target has suffered.\""""
    t = Table(kess={**KESS, "hits": 2, "statuses": [msgspec.to_builtins(Status(name="Bleeding"))]})
    assert t.refused(mend(1), [4, 5]).code == "statuses_first"


def test_a_healing_spell_heals_the_caster_by_default_and_an_enemy_heals_by_its_set_spell() -> None:
    t = Table(mira={**MIRA, "hits": 1}, witch={**WITCH, "hits": 3})
    t.play(mend(0, target=None), [4, 5])
    assert t.sheet("mira").hits == 0
    t.turn_of("witch")
    # Afflicted: 2 Penalty Points, paid on the dice (D8 + D8 down to D6 + D6)
    t.play(CastSpell(combatant_id="witch", spell="Mend", attribute="empathy",
                     penalties=["StepDownDie", "StepDownDie"]), [4, 5])
    assert t.sheet("witch").hits == 0  # complexity 2: up to 3 Hits
    assert t.sheet("witch").mere == 3
