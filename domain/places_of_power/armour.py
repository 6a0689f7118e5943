"""Places of Power armour: taking a Hit on your armour (places-of-power-combat.txt,
"Armour" and "Helmet Sacrifice").

"The three layers at which Armour can be applied are Outer (something like a thick coat),
Base (generally what you would traditionally think of as Armour, like a leather jerkin),
and Skin (a gambeson undershirt for example). You can also wear a Helmet, which, of course,
only provides protection for your Head, and does not count as part of the Layer system."

Pure functions over a list of ``ArmourPiece``: they return the new state of the pieces and
never change the ones given. Choosing to take a Hit on the armour, the Action Points, the
once-per-combat limit and Prone belong to the attack exchange, not here.

Readings (the text leaves these open):

- A piece with Durability 0 is destroyed: it protects nothing and is never used again.
- Several pieces on the same layer are taken in the order given (outermost first for a
  blow; the reverse for dropping pieces against a gun shot).
- A piece reached by a blow is "utilised" even when its value is 0.
- Head blows: only the Helmet protects the head; the body layers do not. A blow to the
  body ignores the Helmet.
- Gun shots ignore the Helmet ("not including any Helmet"), so a gun shot to the head
  meets no armour at all: Helmet Sacrifice is the escape the rules give for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from domain.core.errors import RuleViolation

Layer = Literal["Outer", "Base", "Skin", "Helmet"]

# "the outer most Layer is affected first ... transferred to the next Layer"
LAYER_ORDER: tuple[str, ...] = ("Outer", "Base", "Skin")


class ArmourPiece(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One piece of armour worn.

    ``value``: how much incoming damage it takes off; ``durability``: how many more Hits
    it can be used for ("If the Durability reaches zero, then that piece of Armour is
    destroyed and cannot be repaired later").
    """

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    layer: Layer
    value: Annotated[int, msgspec.Meta(ge=0, le=10)]
    durability: Annotated[int, msgspec.Meta(ge=0, le=20)]

    @property
    def destroyed(self) -> bool:
        return self.durability <= 0


class ArmourResult(msgspec.Struct, kw_only=True):
    """What taking a Hit on the armour did.

    ``damage_through``: the damage the character takes themselves; ``pieces``: every piece
    afterwards, in the order given; ``used``: the pieces that lost a point of Durability;
    ``destroyed``: those of them that reached 0 with this Hit.
    """

    damage_through: int
    pieces: list[ArmourPiece]
    used: list[str] = msgspec.field(default_factory=list)
    destroyed: list[str] = msgspec.field(default_factory=list)


def _body_order(pieces: Sequence[ArmourPiece]) -> list[int]:
    """Indexes of the intact layer pieces (no Helmet), outermost first, stable."""
    intact = [i for i, p in enumerate(pieces) if p.layer in LAYER_ORDER and not p.destroyed]
    return sorted(intact, key=lambda i: LAYER_ORDER.index(pieces[i].layer))


def _wear(pieces: Sequence[ArmourPiece], indexes: Sequence[int], damage_through: int) -> ArmourResult:
    """Every piece at ``indexes`` loses one Durability: "Every Layer of Armour that is
    utilised in the defence also reduces its Durability by one"."""
    new = list(pieces)
    used: list[str] = []
    destroyed: list[str] = []
    for i in sorted(indexes):
        piece = msgspec.structs.replace(new[i], durability=max(0, new[i].durability - 1))
        new[i] = piece
        used.append(piece.name)
        if piece.destroyed:
            destroyed.append(piece.name)
    return ArmourResult(damage_through=damage_through, pieces=new, used=used, destroyed=destroyed)


def _blow(pieces: Sequence[ArmourPiece], order: Sequence[int], damage: int) -> ArmourResult:
    """Each piece in ``order`` takes its value off what is left; pieces the damage never
    reaches are not used."""
    left = damage
    used: list[int] = []
    for i in order:
        if left <= 0:
            break
        used.append(i)
        left = max(0, left - pieces[i].value)
    return _wear(pieces, used, left)


def _gunshot(pieces: Sequence[ArmourPiece], damage: int) -> ArmourResult:
    """Total value of the intact layers minus one; when it exceeds the damage, drop pieces
    innermost first while what is left still covers the damage."""
    order = _body_order(pieces)
    if not order:
        return ArmourResult(damage_through=damage, pieces=list(pieces))
    total = sum(pieces[i].value for i in order)
    protection = max(0, total - 1)
    kept = list(order)
    if protection > damage:
        for i in reversed(order):  # "starting with your lowest level": Skin, Base, Outer
            if total - pieces[i].value - 1 < damage:
                break  # "that Armour is required to negate the Hit"
            total -= pieces[i].value
            kept.remove(i)
    return _wear(pieces, kept, max(0, damage - protection))


def take_on_armour(
    pieces: Sequence[ArmourPiece], damage: int, *, gunshot: bool = False, head: bool = False
) -> ArmourResult:
    """Take a Hit of ``damage`` on the armour.

    A blow (anything but a gun shot): "the outer most Layer is affected first. This reduces
    the incoming damage by a set amount, depending on the type of Armour. If there is any
    damage left over it is transferred to the next Layer ... the remaining Damage it taken
    by the character themselves. Every Layer of Armour that is utilised in the defence also
    reduces its Durability by one." Order Outer, Base, Skin; destroyed pieces are skipped;
    once the damage is all stopped the layers further in are not used and keep their
    Durability.

    The Helmet "only provides protection for your Head, and does not count as part of the
    Layer system": with ``head`` the first intact Helmet alone takes the blow (its value
    off, one Durability lost) and the body layers do not cover the head; without ``head``
    the Helmet is not touched.

    A gun shot: "you add up how much total damage reduction your Armour provides (not
    including any Helmet you may be wearing), and then you subtract one from that total.
    This tells you how much protection your Armour will provide against a gun shot." The
    character takes what the protection does not cover. "on the off chance that your Total
    Armour Value exceeds the gun shot damage, subtract pieces of Armour, starting with your
    lowest level, until the values match. Only the remaining pieces of Armour suffer a
    Durability Hit. If you can't remove a piece of Armour without the Total Armour Value
    dropping below the gun shot damage, then that Armour is required to negate the Hit,
    and so its Durability is reduced." Read as: the lowest level is the innermost (Skin,
    then Base, then Outer); pieces are dropped in that order while the rest (its total
    minus one) still covers the damage, stopping at the first piece that is required; the
    pieces left lose one Durability each. When the protection does not exceed the damage,
    every intact layer loses one Durability ("more often than not all of your Armour will
    reduce its Durability by one"), even if it stops nothing. The Helmet plays no part, so
    a gun shot to the head meets no armour (see ``helmet_sacrifice``).

    No damage (0 or less): nothing is used and nothing gets through.
    """
    if damage <= 0:
        return ArmourResult(damage_through=0, pieces=list(pieces))
    if gunshot:
        if head:
            return ArmourResult(damage_through=damage, pieces=list(pieces))
        return _gunshot(pieces, damage)
    if head:
        helmets = [i for i, p in enumerate(pieces) if p.layer == "Helmet" and not p.destroyed]
        return _blow(pieces, helmets[:1], damage)
    return _blow(pieces, _body_order(pieces), damage)


def helmet_sacrifice(pieces: Sequence[ArmourPiece]) -> list[ArmourPiece]:
    """Helmet Sacrifice: "If you are Hit with a Ranged Attack and the attack was
    specifically targeted at your head, then you may sacrifice your helmet entirely, and
    render yourself Prone, in order to escape all incoming damage. The helmet is rendered
    unusable when this happens, and you may only do this once per combat."

    Here only the helmet's part: the first intact Helmet's Durability drops to 0 (destroyed).
    Whether the attack allows it (a ranged head shot), the once-per-combat limit, escaping
    the damage and going Prone belong to the attack exchange. Refused without an intact
    Helmet.
    """
    for i, piece in enumerate(pieces):
        if piece.layer == "Helmet" and not piece.destroyed:
            new = list(pieces)
            new[i] = msgspec.structs.replace(piece, durability=0)
            return new
    raise RuleViolation("no_helmet", "There is no intact Helmet to sacrifice.")
