"""What the contract suite (tests/contract) walks Health/Trauma with: sheets, and the attacks and
actions worth trying on a turn (the Reactions and injury rolls are answered from ``pending``)."""

from __future__ import annotations

from typing import Any

from domain.core.contract import Chooser, Walk
from domain.core.encounter import Command, EncounterState
from domain.core.ruleset import Ruleset
from domain.health_trauma.events import Attack, Heal, Stabilise, TakeAction, TreatWound


def sheet(rng: Chooser, npc: bool) -> dict[str, Any]:
    return {"physique": rng.randint(-2, 3), "combat_skill": rng.randint(0, 6), "guard": rng.randint(0, 6),
            "protection": rng.randint(0, 2), "initiative_bonus": rng.randint(0, 3),
            "weapons": [{"name": "Blade", "damage_dice": rng.randint(1, 2), "damage_sides": 6},
                        {"name": "Bow", "damage_sides": 6, "range": 12}]}


def moves(ruleset: Ruleset, state: EncounterState, rng: Chooser) -> list[Command]:
    turn = state.turn
    if turn is None or turn not in state.combatants:
        return []
    others = [o for o in state.combatants if o != turn]
    out: list[Command] = [TakeAction(combatant_id=turn, action=rng.choice(["Move", "Crawl", "Aim", "Brace"])),
                          TakeAction(combatant_id=turn, action="Draw a weapon", weapon=rng.choice(["Blade", "Bow"]))]
    if others:
        target = rng.choice(others)
        out += [Attack(combatant_id=turn, target=target, weapon=rng.choice(["Blade", "Bow"]),
                       distance=rng.choice([0, 0, 3, 20]))] * 3
    if rng.random() < 0.2:
        who = rng.choice(list(state.combatants))
        out += [Stabilise(combatant_id=who), Heal(combatant_id=who, amount=rng.randint(1, 4)),
                TreatWound(combatant_id=who)]
    return out


def secret(sheet: dict[str, Any], marker: str) -> dict[str, Any]:
    """A weapon the walk never draws nor attacks with,: a value of the sheet only."""
    return {**sheet, "weapons": [*sheet["weapons"], {"name": marker, "damage_sides": 8}]}


WALK = Walk(sheet=sheet, moves=moves, secret=secret)
