"""What the contract suite (tests/contract) walks RealmsRPG with: sheets, and the attacks and
Actions worth trying on a turn (the Reactions are answered from ``pending``)."""

from __future__ import annotations

from typing import Any

from domain.core.contract import Chooser, Walk
from domain.core.encounter import Command, EncounterState
from domain.core.ruleset import Ruleset
from domain.realms.events import (
    ApplyCondition,
    Attack,
    ChangeEnergy,
    Collateral,
    CommandCompanion,
    CounterInEffect,
    DealDamage,
    Detect,
    Grapple,
    Heal,
    Help,
    ImprovisedAction,
    ImprovisePower,
    Overcome,
    PowerPart,
    Prepare,
    RemoveCondition,
    SetInitiative,
    Stabilise,
    StealthHide,
    TakeAction,
    UsePrepared,
)


def sheet(rng: Chooser, npc: bool) -> dict[str, Any]:
    weapons = [{"name": "Blade", "dice": 1, "sides": rng.choice([6, 8]), "properties": ["Block", "Interchangeable"]},
               {"name": "Bow", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "ranged", "range": 12}]
    out: dict[str, Any] = {
        "health": rng.randint(4, 14), "martial_proficiency": rng.randint(0, 3), "power_proficiency": rng.randint(0, 2),
        "abilities": {"strength": rng.randint(-1, 3), "agility": rng.randint(-1, 3), "acuity": rng.randint(-1, 3)},
        "weapons": weapons, "proficiencies": {"slashing": rng.choice([4, 8]), "piercing": 6},
        "property_proficiencies": ["Block"] if rng.random() < 0.5 else [],
        "powers": [{"name": "Flame", "dice": 1, "sides": 6, "damage_type": "fire", "energy": 2},
                   {"name": "Terror", "dice": 1, "sides": 4, "damage_type": "psychic", "targets": "resolve"}],
        "energy": rng.randint(0, 6), "unarmed_prowess": rng.randint(0, 3),
    }
    if rng.random() < 0.4:
        out["armour"] = {"damage_reduction": rng.randint(0, 2), "critical_range": rng.randint(0, 1)}
    if rng.random() < 0.4:
        out["shield"] = {"sides": 6}
    return out


def moves(ruleset: Ruleset, state: EncounterState, rng: Chooser) -> list[Command]:
    turn = state.turn
    if turn is None or turn not in state.combatants:
        return []
    others = [o for o in state.combatants if o != turn]
    out: list[Command] = [
        TakeAction(combatant_id=turn, action=rng.choice(["Movement", "Evade", "Brace", "Interaction"]),
                   spaces=rng.randint(1, 6)),
        TakeAction(combatant_id=turn, action=rng.choice(["Quick Action", "Ability Roll", "Search"]),
                   roll_with=rng.choice(["agility", "acuity", "might"]), against=rng.choice([None, 12])),
    ]
    if others:
        target = rng.choice(others)
        choice = rng.random()
        if choice < 0.6:
            attack = Attack(combatant_id=turn, target=target, weapon=rng.choice(["Blade", "Bow", "Unarmed", "Improvised"]),
                            distance=rng.choice([1, 1, 5, 30, 60]), non_lethal=rng.random() < 0.1)
        elif choice < 0.8:
            attack = Attack(combatant_id=turn, target=target, power=rng.choice(["Flame", "Terror"]),
                            distance=rng.choice([2, 4]),
                            collateral=Collateral(score=rng.randint(5, 20)) if rng.random() < 0.3 else None)
        else:
            attack = Attack(combatant_id=turn, target=target, weapon=rng.choice(["Bow", "Unarmed"]),
                            off_hand=rng.random() < 0.5, quick=True)
        out += [attack] * 3
        out += [Grapple(combatant_id=turn, target=target, defence=rng.choice(["might", "reflexes"]),
                        damage=rng.random() < 0.5),
                ImprovisePower(combatant_id=turn, description="a gust", parts=[PowerPart(name="Wind", cost=rng.randint(0, 9))],
                               energy=rng.randint(0, 4)),
                DealDamage(combatant_id=target, amount=rng.randint(0, 5), by=rng.choice([None, turn])),
                Prepare(combatant_id=turn, trigger="a move", target=target, weapon=rng.choice(["Blade", "Bow"]),
                        distance=rng.choice([1, 5])),
                Prepare(combatant_id=turn, trigger="an opening", action=rng.choice(["Movement", "Ability Roll", "Evade"]),
                        roll_with=rng.choice([None, "agility"]), spaces=rng.randint(1, 3)),
                ImprovisePower(combatant_id=rng.choice(others), description="a ward", parts=[], energy=1),
                UsePrepared(combatant_id=rng.choice(others)),
                CommandCompanion(combatant_id=turn, companion=target),
                StealthHide(combatant_id=turn, mode=rng.choice(["stealth", "hide"]), obscurity=rng.randint(0, 4),
                            switch=rng.random() < 0.2),
                Detect(combatant_id=target, target=turn), Detect(combatant_id=turn, target=target, search=True),
                Help(combatant_id=rng.choice(others), ally=turn, skill=rng.choice(["agility", "acuity"])),
                TakeAction(combatant_id=turn, action="Evade", split=rng.random() < 0.5),
                CounterInEffect(combatant_id=rng.choice(others), power="Flame", score=rng.randint(8, 20))]
    if rng.random() < 0.3:
        who = rng.choice(list(state.combatants))
        condition = rng.choice(["stunned", "dazed", "prone", "bleed", "exposed", "slowed", "grappled", "weakened"])
        out += [ApplyCondition(combatant_id=who, condition=condition, level=rng.randint(1, 3),  # type: ignore[arg-type]
                               defence=rng.choice(["might", "fortitude", None]), score=rng.choice([8, 12, 16])),
                RemoveCondition(combatant_id=who, condition=condition),  # type: ignore[arg-type]
                Overcome(combatant_id=turn), TakeAction(combatant_id=turn, action="Overcome")]
    if rng.random() < 0.2:
        who = rng.choice(list(state.combatants))
        out += [Stabilise(combatant_id=who), Heal(combatant_id=who, amount=rng.randint(1, 6)),
                Heal(combatant_id=who, amount=rng.randint(1, 6), overheal=True, healer=rng.choice([None, turn])),
                ChangeEnergy(combatant_id=who, amount=rng.randint(-8, 4)),
                ApplyCondition(combatant_id=who, condition=rng.choice(["charmed", "frightened"]), source=turn),
                ApplyCondition(combatant_id=who, condition="restrained"),
                ImprovisedAction(combatant_id=turn, description="an improvised stunt", action_points=rng.randint(0, 3)),
                SetInitiative(combatant_id=who, surprised=True)]
    return out


def secret(sheet: dict[str, Any], marker: str) -> dict[str, Any]:
    """A property proficiency no rule of the engine reads: a value of the sheet only."""
    return {**sheet, "property_proficiencies": [*sheet.get("property_proficiencies", []), marker]}


WALK = Walk(sheet=sheet, moves=moves, secret=secret)
