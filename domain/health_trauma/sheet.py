"""A Health/Trauma character sheet: Physique and the values the combat text uses."""

from __future__ import annotations

from typing import Annotated

import msgspec

Small = Annotated[int, msgspec.Meta(ge=-20, le=50)]


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A weapon: its Damage (``damage_dice``D``damage_sides`` + ``damage_bonus``) and its Range or
    Reach in spaces (0: base to base contact only)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    damage_dice: Annotated[int, msgspec.Meta(ge=0, le=10)] = 1
    damage_sides: Annotated[int, msgspec.Meta(ge=2, le=100)] = 6
    damage_bonus: Small = 0
    range: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0


def _fists() -> list[Weapon]:
    return [Weapon(name="Unarmed", damage_dice=1, damage_sides=3)]


class HealthTraumaSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``physique``: maximum health is five plus it; ``health_adjustment``: "Certain Abilites may
    change effect this"; ``combat_skill`` against the target's ``guard``; ``protection``
    reduces damage taken; ``mental_save`` / ``body_save``: the bonuses of a Fear MSvs and a BSvs;
    ``readied``: the readied weapon's name (default: the first)."""

    physique: Small = 0
    health_adjustment: Small = 0
    combat_skill: Small = 0
    guard: Small = 0
    protection: Annotated[int, msgspec.Meta(ge=0, le=50)] = 0
    initiative_bonus: Small = 0
    mental_save: Small = 0
    body_save: Small = 0
    weapons: list[Weapon] = msgspec.field(default_factory=_fists)
    readied: str | None = None

    def __post_init__(self) -> None:
        if not self.weapons:
            raise ValueError("weapons: at least one (a fist is a weapon)")
        if self.readied is not None and self.readied not in {w.name for w in self.weapons}:
            raise ValueError(f"readied: “{self.readied}” is not one of the sheet's weapons")
        if 5 + self.physique + self.health_adjustment < 1:
            raise ValueError("physique: five plus Physique (and the adjustment) must leave at least 1 Health")

    @property
    def base_health(self) -> int:
        """"a maximum health equal to five plus their Physique", with the sheet's adjustment."""
        return 5 + self.physique + self.health_adjustment

    def weapon(self, name: str | None = None) -> Weapon | None:
        wanted = name or self.readied
        if wanted is None:
            return self.weapons[0]
        return next((w for w in self.weapons if w.name == wanted), None)
