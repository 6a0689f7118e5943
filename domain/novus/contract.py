"""What the contract suite (tests/contract) walks Novus with: sheets, and the declarations,
cancels and GM commands worth trying (the declare, resolve and Boon decisions are answered from
``pending``)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.contract import Chooser, Walk
from domain.core.encounter import Command, EncounterState
from domain.core.ruleset import Ruleset
from domain.novus.sheet import STATS

KINDS = ("dodge", "block", "move", "run", "draw_weapon", "perception", "get_up", "cast_spell", "counterspell",
         "reload_heavy_crossbow", "set_initiative", "reroll_initiative", "disengage")


def sheet(rng: Chooser, npc: bool) -> dict[str, Any]:
    return {
        "stats": {s: {"value": rng.randint(6, 20), "bonus": rng.randint(-1, 3)} for s in STATS},
        "hit_points": rng.randint(8, 40),
        "skills": [{"name": "Sword", "ranks": rng.randint(0, 12), "bonus": rng.randint(2, 24), "melee": True},
                   {"name": "Bow", "ranks": rng.randint(0, 6), "bonus": rng.randint(0, 8)}],
        "weapons": [{"name": "Sword", "size": rng.choice(["small", "medium", "large"]), "dr": rng.randint(5, 10),
                     "skill": "Sword"},
                    {"name": "Bow", "size": "small", "dr": 6, "kind": "missile", "range": 50, "skill": "Bow",
                     "stat": "dexterity"},
                    {"name": "Lance", "size": "huge", "dr": 11, "skill": "Sword", "pole_arm": True,
                     "one_handed": False}],
        "armour": {"ar": rng.randint(0, 6), "called_shot_ar": {"head": rng.randint(0, 3)}},
        "shield": rng.choice(["none", "small"]),
        "talents": {"ambidextrous": rng.random() < 0.3, "mounted_combat_1": rng.random() < 0.5,
                    "mounted_combat_2": rng.random() < 0.3},
    }


def _action(rng: Chooser, others: list[str]) -> dict[str, Any]:
    if others and rng.random() < 0.6:
        return {"kind": "attack", "target": rng.choice(others), "weapon": rng.choice(["Sword", "Bow", None]),
                "called_shot": rng.choice([None, None, "arm", "leg", "head"]), "off_hand": rng.random() < 0.1,
                "position": rng.choice(["front", "flank", "rear"]), "into_melee": rng.random() < 0.3,
                "near": rng.sample(others, k=min(len(others), 2))}
    if others and rng.random() < 0.1:  # attacks from high skill, split as the walk likes (often refused)
        return {"kind": "attack", "target": rng.choice(others), "weapon": "Sword", "more_targets": [rng.choice(others)],
                "split": [rng.randint(-2, 6), rng.randint(-2, 6)]}
    if others and rng.random() < 0.15:
        return {"kind": "mounted_charge", "target": rng.choice(others), "weapon": rng.choice(["Sword", "Lance"]),
                "pace": rng.randint(2, 4)}
    if others and rng.random() < 0.3:  # a move by foes' Control Zones (an Opportunity Attack's trigger)
        return {"kind": rng.choice(["move", "run"]), "through": rng.sample(others, k=min(len(others), 2)),
                "leaves": rng.sample(others, k=1)}
    return {"kind": rng.choice(KINDS)}


def _clean(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def moves(ruleset: Ruleset, state: EncounterState, rng: Chooser) -> list[Command]:
    # who acts and whom they name: those not hidden (a hidden NPC declares through its pending
    # decision); the hidden-information suite swaps a named id for a hidden one itself
    ids = [c for c in state.combatants if c not in state.concealed]
    if not ids:
        return []
    out: list[dict[str, Any]] = []
    for cid in ids:
        others = [o for o in ids if o != cid]
        acts = [_clean(_action(rng, others)) for _ in range(rng.randint(0, 2))]
        body: dict[str, Any] = {"type": "NovusDeclare", "combatant_id": cid, "actions": acts}
        if rng.random() < 0.2:
            body |= {"defensive": rng.randint(0, 4), "defensive_weapon": "Sword"}
        out.append(body)
        if others and rng.random() < 0.3:  # a charge is declared alone (it takes more than a round's AP)
            out.append({"type": "NovusDeclare", "combatant_id": cid, "actions": [
                {"kind": "mounted_charge", "target": rng.choice(others), "weapon": rng.choice(["Sword", "Lance"]),
                 "pace": rng.randint(2, 4)}]})
    who = rng.choice(ids)
    others = [o for o in ids if o != who]
    out.append({"type": "NovusCancel", "combatant_id": who,
                "instead": [_clean(_action(rng, others))] if rng.random() < 0.7 else []})
    held: dict[str, Any] = {"at": rng.choice(others)} if others and rng.random() < 0.4 else {}
    out += [{"type": "NovusHold", "combatant_id": who},
            {"type": "NovusActHeld", "combatant_id": who, "actions": [_clean(_action(rng, others))], **held},
            {"type": "NovusRollOpposedSave", "combatant_id": rng.choice(ids)},
            {"type": "NovusSpendSnags", "combatant_id": rng.choice(ids),
             "snags": [rng.choice(["Fumble", "Strain a muscle", "Loud noise"])]}]
    if rng.random() < 0.3:
        out += [{"type": "NovusHarm", "combatant_id": rng.choice(ids), "amount": rng.randint(1, 15)},
                {"type": "NovusHeal", "combatant_id": rng.choice(ids), "amount": rng.randint(1, 10)},
                {"type": "NovusSetHaste", "combatant_id": rng.choice(ids), "hasted": rng.random() < 0.5},
                {"type": "NovusSetMounted", "combatant_id": rng.choice(ids), "mounted": rng.random() < 0.7,
                 "trained": rng.random() < 0.5},
                {"type": "NovusRollSave", "combatant_id": rng.choice(ids), "stat": rng.choice(STATS)},
                {"type": "NovusRollSkill", "combatant_id": rng.choice(ids), "skill": rng.choice(["Sword", "Riding"]),
                 "tn": 20}, {"type": "NovusRollGroupPerception", "side": rng.choice(["party", "enemies"])}]
    return [msgspec.convert(b, ruleset.command_type) for b in out]


def secret(sheet: dict[str, Any], marker: str) -> dict[str, Any]:
    """A specialty no rule of the engine reads: a value of the sheet only."""
    return {**sheet, "specialties": [*sheet.get("specialties", []), marker]}


WALK = Walk(sheet=sheet, moves=moves, secret=secret)
