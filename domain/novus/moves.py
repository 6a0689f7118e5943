"""Combat Moves as ruleset data the GM can replace (``SetNovusRules`` ``moves``): each move's stat line
as the excerpt's template gives it, "Combat Move Name (#) / AB: # DEF: # AP: # Rng: # / Effects", and
what it does, read the way novus-gaps N18 does:

"AB is a modifier to every roll made with that Combat Skill while using the move. DEF is a modifier to
the user's DEF for the whole round the move is used. AP is the move's cost, where "BMA" means "as a
Basic Melee Attack with this weapon size". Rng is range. The number after the name is its cost in
Character Points. Basic moves cost 0 and come free with any Combat Skill that has at least 1 rank."

The default table is the moves N19 gives; what it leaves open is marked OURS in the field's comment.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

import msgspec

Family = Literal["melee", "ranged", "unarmed"]  # "Melee Combat Moves / Ranged Melee Moves / Unarmed Combat Moves"
Use = Literal["attack", "dodge", "block"]  # the declared action the move is performed as
Damage = Literal["base_and_scaled", "base_only", "none"]
APText = Annotated[str, msgspec.Meta(pattern=r"^(BMA(\+[1-9])?|[0-9]{1,2})$")]

BASIC_MELEE = "Basic Melee Attack"
BASIC_SHOT = "Basic Shot"
BASIC_DODGE = "Basic Dodge"
BASIC_BLOCK = "Basic Block"


class MoveRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One Combat Move: its name and Character Point cost (``cp``: 0 a Basic move, None an advanced one whose
    cost was not found), its family, the action it is performed as, its stat line (``ab``, ``def``,
    ``ap``: "BMA", "BMA+n" or a number; ``rng`` in feet, None: the weapon's) and its effects."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    cp: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = 0
    family: Family = "melee"
    use: Use = "attack"
    ab: Annotated[int, msgspec.Meta(ge=-20, le=20)] = 0
    defence: Annotated[int, msgspec.Meta(ge=-20, le=20)] = msgspec.field(default=0, name="def")
    ap: APText = "BMA"
    rng: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    base_damage: Annotated[int, msgspec.Meta(ge=-20, le=20)] = 0  # All Out Attack: "+4 Base Damage"
    damage: Damage = "base_and_scaled"
    ignores_armour: bool = False
    edged_only: bool = False
    not_defensive: bool = False  # "not allowed while Fighting Defensively"
    disarm: bool = False  # Basic Disarm's save vs Str on a hit
    range_penalty: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0  # AB lost per full range increment
    range_offset: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0  # Brace: "+5 that only offsets range penalties"
    effect: str = ""

    @property
    def basic(self) -> bool:
        return self.cp == 0

    def ap_cost(self, bma: int) -> int:
        """The move's AP, ``bma`` being a Basic Melee Attack's with this weapon size."""
        m = re.fullmatch(r"BMA(?:\+(\d))?", self.ap)
        return bma + int(m.group(1) or 0) if m else int(self.ap)

    def range_modifier(self, distance: int | None, increment: int) -> int:
        """N19: "Basic Shot takes -4 AB per full range increment"; Brace's +5 "only offsets range penalties"."""
        if not distance or increment < 1 or not self.range_penalty:
            return 0
        penalty = self.range_penalty * (distance // increment)
        return -max(penalty - self.range_offset, 0)


def default_moves() -> list[MoveRule]:
    """N19's moves. Basic Melee Attack, Basic Dodge and Basic Block are the actions the engine had; Basic
    Disarm deals no damage (OURS: N19 names only the save); Brace is advanced, its CP not found (OURS)."""
    return [
        MoveRule(name=BASIC_MELEE, effect="deals Base + Scaled Damage; 3 AP Tiny/Small, 4 Medium, 5 Large/Huge"),
        MoveRule(name=BASIC_DODGE, use="dodge", defence=3, ap="3",
                 effect="DEF +3 for the round; may be cancelled into; needs no weapon (publisher texts disagree: 2 or 3 AP)"),
        MoveRule(name=BASIC_BLOCK, use="block", ap="3",
                 effect="may be cancelled into; roll your AB against TN 10 + the foe's AB"),
        MoveRule(name="Basic Disarm", disarm=True, damage="none",
                 effect="on a hit the foe saves vs Str at TN 15 + 1 per 5 points the roll beat DEF, "
                        "or the weapon flies 1-10 ft"),
        MoveRule(name="All Out Attack", cp=6, ab=2, defence=-2, ap="BMA+2", base_damage=4, not_defensive=True,
                 effect="+4 Base Damage; not allowed while Fighting Defensively"),
        MoveRule(name="Cut", cp=5, ab=1, defence=1, damage="base_only", ignores_armour=True, edged_only=True,
                 effect="edged weapons only; Base Damage only, and it ignores armour"),
        MoveRule(name=BASIC_SHOT, family="ranged", range_penalty=4, effect="-4 AB per full range increment"),
        MoveRule(name="Brace", cp=None, family="ranged", range_penalty=4, range_offset=5,
                 effect="+5 that only offsets range penalties"),
    ]


def check_moves(moves: list[MoveRule]) -> None:
    """Each name once, and the three actions the round needs (Basic Melee Attack, Dodge, Block) present."""
    names = [m.name.lower() for m in moves]
    if len(set(names)) != len(names):
        raise ValueError("moves: each Combat Move's name once")
    for need, use, family in ((BASIC_MELEE, "attack", "melee"), (BASIC_SHOT, "attack", "ranged"),
                              (BASIC_DODGE, "dodge", None), (BASIC_BLOCK, "block", None)):
        move = find(moves, need)
        if move is None:
            raise ValueError(f"moves: {need} is needed (it is the plain action of its kind)")
        if move.use != use or family not in (None, move.family) or not move.basic:
            raise ValueError(f"moves: {need} is a Basic {family or ''} {use} (cp 0, use {use})".replace("  ", " "))
    for i, m in enumerate(moves):
        if m.use != "attack" and m.ap.startswith("BMA"):
            raise ValueError(f"moves[{i}].ap: a {m.use} is not an attack: give its AP as a number")


def find(moves: list[MoveRule], name: str | None) -> MoveRule | None:
    return next((m for m in moves if name and m.name.lower() == name.lower()), None)
