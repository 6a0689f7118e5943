"""Health/Trauma's next moves (DESIGN.md, "The next moves"): what a combatant may try as they
act, the GM's rulings, the example combatants, and who is out of the fight.

Only candidates: core tries each through ``decide`` (domain/core/next_moves.py) and offers what
the rules take, with its dice and what it costs of the turn (its quarters, the Quick Action).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.encounter import Combatant, EncounterState
from domain.core.names import called_of
from domain.core.next_moves import Offer
from domain.health_trauma import body as health
from domain.health_trauma.body import Body
from domain.health_trauma.data import HealthTraumaData

# "Most actions will be listed as Quarter (1/4), Half (1/2), or Full (1) Actions" / "one Free Quick Action"
SIZE_LABEL = {"quarter": "a Quarter action", "half": "a Half action", "full": "a Full action",
              "quick": "a Quick Action"}

# at most this many attack buttons (each foe with the readied weapon): those standing first, in the turn order
MOST_ATTACKS = 48


def moves(state: EncounterState, data: HealthTraumaData, bodies: dict[str, Body], cid: str,
          readied: str) -> list[Offer]:
    """What ``cid`` may try now: before the fight (initiative not yet rolled) a player's own
    Initiative Test; on their turn an attack on each foe not yet dead with the ``readied``
    weapon ("within your readied weapons listed Range or Reach": ``distance`` varies, 0 is base
    to base), then each action of the encounter's list (one that draws a weapon: each other
    weapon of the sheet)."""
    c = state.combatants.get(cid)
    if c is None:
        return []
    if state.status == "setup":
        if c.controller == "player" and not state.initiative_rolled:
            return [Offer(label=f"Make {called_of(c)}'s Initiative Test", command={
                "type": "HTRollInitiativeTest", "combatant_id": cid}, combatant_id=cid)]
        return []
    if state.turn != cid:
        return []
    out: list[Offer] = []
    for foe in _foes(state, bodies, c):
        out.append(Offer(
            label=f"Attack {called_of(foe)} with the {readied}",
            command={"type": "HTAttack", "combatant_id": cid, "target": foe.id, "weapon": readied, "distance": 0},
            combatant_id=cid, vary=("distance",)))
    out = out[:MOST_ATTACKS]
    for action in data.actions:
        body = {"type": "HTTakeAction", "combatant_id": cid, "action": action.name}
        if not action.draws:
            out.append(Offer(label=f"{action.name}, {SIZE_LABEL[action.size]}", command=body, combatant_id=cid))
            continue
        for weapon in c.sheet.weapons:
            if weapon.name != readied:
                out.append(Offer(label=f"{action.name}: the {weapon.name}, {SIZE_LABEL[action.size]}",
                                 command={**body, "weapon": weapon.name}, combatant_id=cid))
    return out


def _foes(state: EncounterState, bodies: dict[str, Body], c: Combatant) -> list[Combatant]:
    """The others on another side, not yet dead: those standing first (in the turn order), then
    the dying (damage taken while dying is Trauma: an attack on them is still an attack)."""
    others = [o for o in state.combatants.values() if o.side != c.side and not _body(bodies, o.id).dead]
    place = {x: i for i, x in enumerate(state.order)}
    return sorted(others, key=lambda o: (out_of_fight(_body(bodies, o.id)), place.get(o.id, len(place)), o.seq))


def _body(bodies: dict[str, Body], cid: str) -> Body:
    return bodies.get(cid) or Body()


def rulings(state: EncounterState, data: HealthTraumaData, bodies: dict[str, Body],
            window: Any | None) -> list[Offer]:
    """The GM's own commands: the encounter's data (the text leaves it open), closing a
    Reaction window for whoever has not answered, and for each character not yet dead: healing
    (an amount, or dice), stabilising the dying, treating a gut wound and recuperating."""
    out = [Offer(label="Set the Health/Trauma rules (the Attack Test, the injury chart, X, saves, actions)",
                 command={"type": "SetHealthTraumaRules", "data": msgspec.to_builtins(data)}, kind="gm",
                 vary=("data",))]
    if window is not None and not window.settled:
        out.append(Offer(label=f"Close the Reactions to {window.trigger or 'the attack'}",
                         command={"type": "CloseReactions", "window": window.id}, kind="gm"))
    for c in sorted(state.combatants.values(), key=lambda c: c.seq):
        b = _body(bodies, c.id)
        if b.dead:
            continue
        who = called_of(c)
        out.append(Offer(label=f"Heal {who}", command={"type": "HTHeal", "combatant_id": c.id, "amount": 1},
                         kind="gm", combatant_id=c.id, vary=("amount", "dice_count", "dice_sides", "bonus")))
        if b.dying:
            out.append(Offer(label=f"Stabilise {who}", command={"type": "HTStabilise", "combatant_id": c.id},
                             kind="gm", combatant_id=c.id))
        if b.dazed:
            out.append(Offer(label=f"Treat {who}'s gut wound", command={"type": "HTTreatWound", "combatant_id": c.id},
                             kind="gm", combatant_id=c.id))
        if b.trauma or b.penalty or b.coma or b.gut_wound or health.current(c.sheet, b) < health.maximum(c.sheet, b):
            out.append(Offer(label=f"{who[:1].upper()}{who[1:]} recuperates", command={"type": "HTRecuperate", "combatant_id": c.id},
                             kind="gm", combatant_id=c.id))
    return out


def out_of_fight(b: Body) -> bool:
    """Dead ("The character is dead"), dying ("When a character's health is at or below 0, that
    character receives an injury and is dying") or in a coma ("won't wake from it until their
    Trauma is reduced to 0")."""
    return b.dead or b.dying or b.coma


def _sheet(physique: int, skill: int, guard: int, protection: int, weapons: list[dict[str, Any]],
           **extra: Any) -> dict[str, Any]:
    return {"physique": physique, "combat_skill": skill, "guard": guard, "protection": protection,
            "weapons": weapons, **extra}


EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("a player character", {"name": "Mira", "side": "party", "controller": "player", "sheet": _sheet(
        3, 6, 4, 1, [{"name": "Sabre", "damage_dice": 1, "damage_sides": 8},
                     {"name": "Shortbow", "damage_dice": 1, "damage_sides": 6, "range": 12}],
        initiative_bonus=2, mental_save=2, body_save=2)}),
    ("a weak NPC", {"name": "Raider", "side": "raiders", "controller": "gm", "sheet": _sheet(
        0, 3, 2, 0, [{"name": "Club", "damage_dice": 1, "damage_sides": 6}])}),
    ("a strong NPC", {"name": "Raider Chief", "side": "raiders", "controller": "gm", "sheet": _sheet(
        4, 7, 5, 2, [{"name": "Axe", "damage_dice": 2, "damage_sides": 6, "damage_bonus": 1},
                     {"name": "Throwing knife", "damage_dice": 1, "damage_sides": 4, "range": 6}],
        initiative_bonus=1, mental_save=3, body_save=3)}),
]
