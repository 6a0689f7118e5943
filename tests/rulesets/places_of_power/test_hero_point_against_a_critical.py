"""A Hero Point against an incoming Critical Hit (the dice chapter's use, met in the attack exchange)."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import Attack, ChooseCriticalEffect, SpendSuccesses
from domain.places_of_power.hero_points import SpendHeroPoint
from domain.rulesets import default_registry
from tests.rulesets.places_of_power.fight import shown

RULESET = default_registry().get("places-of-power")
KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
SHEET = {"attributes": {"strength": "D8", "agility": "D8"}, "skills": {"Knife": "D8", "Athletics": "D6"},
         "weapons": [KNIFE], "hero_points": 1}


def play(state, command, faces=()):
    for event in RULESET.decide(state, command, ReportedDice(list(faces))):
        state = RULESET.evolve(state, event)
    return state


def critical_on_kess():
    state = RULESET.replay(RULESET.open("e", "Duel", "reported", "x"))
    state = play(state, AddCombatant(name="Mira", side="party", controller="player", combatant_id="mira", sheet=SHEET))
    state = play(state, AddCombatant(name="Kess", side="party", controller="player", combatant_id="kess", sheet=SHEET))
    state = play(state, RollInitiative(), [12, 1])
    state = play(state, StartEncounter())
    # 8 + 8 at Normal: doubles over the target, a Critical Success with 2 extra Successes
    return play(state, Attack(combatant_id="mira", target="kess", attack="LightMelee", weapon="Knife", band="Melee"),
                [8, 8])


def test_only_an_incoming_critical_can_be_turned() -> None:
    """Hero Points: "Turning an incoming Critical Hit into a regular Hit": only once it is
    incoming (the defence step), and only for its target."""
    state = critical_on_kess()
    state = play(state, ChooseCriticalEffect(combatant_id="mira", attack=7, effect="UnavoidableHit"))
    assert state.rules.exchange.stage == "spend"  # the attacker still spends the Successes
    with pytest.raises(RuleViolation) as e:
        play(state, SpendHeroPoint(combatant_id="kess", use="DowngradeCriticalHit"))
    assert e.value.code == "no_incoming_critical"


def test_a_critical_hit_is_downgraded_at_the_defence() -> None:
    """"Turning an incoming Critical Hit into a regular Hit": the addition is gone, the
    defender may Evade or Parry again."""
    state = critical_on_kess()
    state = play(state, ChooseCriticalEffect(combatant_id="mira", attack=7, effect="UnavoidableHit"))
    state = play(state, SpendSuccesses(combatant_id="mira", attack=7, split=["Damage", "Damage"]))
    ex = shown(state).rules.exchange
    assert ex.stage == "defence" and ex.critical == "UnavoidableHit"
    assert {c.name for c in ex.choices} == {"Tank", "TakeIt"}  # an Unavoidable Hit: no Evade or Parry
    state = play(state, SpendHeroPoint(combatant_id="kess", use="DowngradeCriticalHit"))
    ex = shown(state).rules.exchange
    assert ex.critical is None
    assert {"Evade", "Parry"} <= {c.name for c in ex.choices}
    assert state.combatants["kess"].sheet.hero_points == 0
    with pytest.raises(RuleViolation) as e:
        play(state, SpendHeroPoint(combatant_id="mira", use="DowngradeCriticalHit"))
    assert e.value.code in ("no_incoming_critical", "no_hero_points")
