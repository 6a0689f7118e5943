"""What the fight has done to a character: health, Trauma, injuries, dying, death."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.concerns import KEY, SheetValue
from domain.health_trauma.sheet import HealthTraumaSheet

Reeling = Literal["none", "pending", "active"]


class Body(msgspec.Struct, frozen=True, kw_only=True):
    """``health``: current Health (None: at the maximum); ``injuries``: each injury result had;
    ``penalty``: the sum of the sliced muscles' -X; ``reeling``: "pending" while dying ("this
    injury takes effect if they are stabilized or healed"), then "active"; ``maimed`` /
    ``removed``: parts; ``dazed``: a gut wound not yet treated; ``gut_wound``: BSvs on damage;
    ``injuring_damage``: the damage of the hit that put them into the dying state;
    ``reeling_trauma``: their Trauma when the reeling result was rolled (what a Fear save may be against)."""

    health: SheetValue[int | None, KEY] = None  # an NPC's is the GM's: at full it is five plus Physique
    trauma: int = 0
    injuries: list[str] = msgspec.field(default_factory=list)
    dying: bool = False
    injury_due: bool = False
    dead: bool = False
    death: str | None = None
    penalty: int = 0
    reeling: Reeling = "none"
    fear_save_due: bool = False
    stunned: bool = False
    coma: bool = False
    maimed: list[str] = msgspec.field(default_factory=list)
    removed: list[str] = msgspec.field(default_factory=list)
    gut_wound: bool = False
    dazed: bool = False
    injuring_damage: int = 0
    reeling_trauma: int = 0


def fear_save_against(body: Body, against: str) -> int:
    """The N of the reeling result's "Fear MSvs Trauma they received from the attack" (the GM's reading)."""
    return {"trauma_at_injury": body.reeling_trauma, "injuring_damage": body.injuring_damage}.get(against, body.trauma)


def maximum(sheet: HealthTraumaSheet, body: Body) -> int:
    """"five plus their Physique" (with the adjustment), less one for each point of Trauma."""
    return sheet.base_health - body.trauma


def current(sheet: HealthTraumaSheet, body: Body) -> int:
    top = maximum(sheet, body)
    return top if body.health is None else min(body.health, top)


def wounded(sheet: HealthTraumaSheet, body: Body) -> bool:
    """"Whenever you are reduced below half of your character's health your character becomes Wounded"."""
    return current(sheet, body) * 2 < maximum(sheet, body)


def lost_both(body: Body, parts: tuple[str, ...]) -> bool:
    """Every part of a pair (the GM's table says which: ``HealthTraumaData.pair``) maimed or removed."""
    gone = {*body.maimed, *body.removed}
    return bool(parts) and all(p in gone for p in parts)


def blinded(body: Body, eyes: tuple[str, ...]) -> bool:
    """"If both your eyes are maimed, you are Blinded as long as the injuries persist"."""
    return lost_both(body, eyes)


def conditions(sheet: HealthTraumaSheet, body: Body, eyes: tuple[str, ...]) -> list[str]:
    """The conditions shown on the character, in the text's words."""
    out = []
    if body.dead:
        return ["Dead"]
    if body.dying:
        out.append("Dying")
    if wounded(sheet, body):
        out.append("Wounded")
    if body.coma:
        out.append("Coma")
    if body.stunned:
        out.append("Stunned")
    if body.dazed:
        out.append("Dazed")
    if blinded(body, eyes):
        out.append("Blinded")
    return out
