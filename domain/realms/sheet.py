"""A RealmsRPG character sheet: the six Abilities, their Defences and Evasion, the proficiencies,
Health and Energy, Speed, weapons, armour and shield, powers, Critical Range and Multiplier
adjustments, size, and whose Companion a creature is.

Values the rulebook leaves to character creation or the Realms Codex (realms-gaps §2.7: the
proficiencies, the base Health, weapon and armour properties) come from the sheet. A field out
of range is refused naming it (msgspec's "at `$.field`", or the field first in our own checks).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId

Ability = Literal["strength", "vitality", "agility", "acuity", "intelligence", "charisma"]
ABILITIES: tuple[Ability, ...] = ("strength", "vitality", "agility", "acuity", "intelligence", "charisma")
Defence = Literal["might", "fortitude", "reflexes", "discernment", "mental_fortitude", "resolve"]
# R6: "Strength→Might, Vitality→Fortitude, Agility→Reflexes, Acuity→Discernment,
# Intelligence→Mental Fortitude, Charisma→Resolve"
DEFENCE_ABILITY: dict[str, Ability] = {
    "might": "strength", "fortitude": "vitality", "reflexes": "agility", "discernment": "acuity",
    "mental_fortitude": "intelligence", "resolve": "charisma",
}
Target = Literal["evasion", "might", "fortitude", "reflexes", "discernment", "mental_fortitude", "resolve"]
# R15: the damage types; "There is no physical/magic split."
DamageType = Literal["magic", "fire", "ice", "lightning", "spiritual", "sonic", "poison", "necrotic", "acid",
                     "psychic", "light", "bludgeoning", "piercing", "slashing"]
# R15: "Standard armour does not reduce Psychic, Spiritual or Sonic damage."
ARMOUR_IGNORES = frozenset({"psychic", "spiritual", "sonic"})
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
SIZES: tuple[Size, ...] = ("tiny", "small", "medium", "large", "huge", "gargantuan")
# R4: which Ability a weapon's Martial Bonus uses: melee Strength, ranged Acuity, finesse Agility, thrown Strength
WeaponKind = Literal["melee", "ranged", "finesse", "thrown"]
KIND_ABILITY: dict[str, Ability] = {"melee": "strength", "ranged": "acuity", "finesse": "agility", "thrown": "strength"}

Score = Annotated[int, msgspec.Meta(ge=-10, le=20)]
Proficiency = Annotated[int, msgspec.Meta(ge=0, le=10)]
Count = Annotated[int, msgspec.Meta(ge=0, le=20)]
Sides = Annotated[int, msgspec.Meta(ge=2, le=20)]
Spaces = Annotated[int, msgspec.Meta(ge=0, le=1000)]
Adjustment = Annotated[int, msgspec.Meta(ge=-10, le=10)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Abilities(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    strength: Score = 0
    vitality: Score = 0
    agility: Score = 0
    acuity: Score = 0
    intelligence: Score = 0
    charisma: Score = 0

    def of(self, ability: str) -> int:
        return getattr(self, ability)


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A weapon: ``dice``d``sides`` of ``damage_type``; ``kind`` picks its Ability (R4);
    ``range`` in spaces (melee: 1, "within a 1 space radius"); ``properties`` as the Codex names
    them (Block, Interchangeable, Range, Thrown...); ``critical_range``: its adjustment (-1: "a
    weapon that has a -1 reduced Critical Range"); ``critical_multiplier``: +1 per "+1x"."""

    name: Name
    dice: Count = 1
    sides: Sides = 6
    damage_type: DamageType = "slashing"
    kind: WeaponKind = "melee"
    range: Spaces = 1
    properties: list[Name] = []
    critical_range: Adjustment = 0
    critical_multiplier: Adjustment = 0

    def has(self, prop: str) -> bool:
        return any(p.lower() == prop.lower() for p in self.properties)

    @property
    def ranged(self) -> bool:
        """"Ranged and Thrown attacks are attacks that are made with a Power or Weapon that has
        the Range or Thrown property or part"."""
        return self.kind in ("ranged", "thrown") or self.has("range") or self.has("thrown")


class Power(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Power the creature knows: its damage (``dice`` 0: it deals none), the Defence it targets
    (and any further ones), its range, AP and Energy."""

    name: Name
    dice: Count = 0
    sides: Sides = 6
    damage_type: DamageType = "magic"
    targets: Target = "evasion"
    # further Defences the same Power targets: the attacker's roll against each but the last, which the
    # defender rolls against the attacker's Potency ("the untargeted Defense")
    also_targets: list[Defence] = []
    range: Spaces = 6
    action_points: Annotated[int, msgspec.Meta(ge=0, le=8)] = 2
    energy: Annotated[int, msgspec.Meta(ge=0, le=200)] = 0


class Armour(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Armour: its Damage Reduction, the Critical Range it adds to attacks on its wearer (R19), and
    the damage types it is resistant (double reduction) or vulnerable (none) to (R16)."""

    name: Name = "Armour"
    damage_reduction: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    critical_range: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    resistant: list[DamageType] = []
    vulnerable: list[DamageType] = []


class Shield(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A shield and its Shield Die (R18: "1d4, 1d6, 1d8, … from the shield")."""

    name: Name = "Shield"
    sides: Sides = 4


class RealmsSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A creature's sheet.

    ``defence_increases``: the Skill Point increases of each Defence (R6: each at most the level);
    ``health`` / ``energy``: the maxima (R21: from the sheet, the base being 12 or 8 by edition);
    ``speed``: spaces per Movement (default R13's 6 + ½ Agility, rounded up); ``proficiencies``:
    for each damage type, the largest die the creature is proficient with (6: "proficient with
    1d6 slashing"); ``property_proficiencies``: the weapon properties it may use;
    ``unarmed_prowess``: its prowess level (0: untrained); ``initiative``: the Ability or Skill
    its initiative adds (Acuity by default); ``companion_of``: the creature whose Companion it is;
    ``object``: an inanimate object (auto-hit, never critically); ``weight``: in kg (None: the RM's to
    judge whether a grappler can drag it)."""

    level: Annotated[int, msgspec.Meta(ge=1, le=30)] = 1
    abilities: Abilities = Abilities()
    defence_increases: dict[Defence, Count] = {}
    skills: dict[Name, Score] = {}
    martial_proficiency: Proficiency = 0
    power_proficiency: Proficiency = 0
    power_ability: Ability = "acuity"
    health: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 12
    energy: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    speed: Spaces | None = None
    weapons: list[Weapon] = []
    powers: list[Power] = []
    armour: Armour | None = None
    shield: Shield | None = None
    proficiencies: dict[DamageType, Sides] = {}
    property_proficiencies: list[Name] = []
    unarmed_prowess: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    resistances: list[DamageType] = []
    vulnerabilities: list[DamageType] = []
    immunities: list[DamageType] = []
    critical_range: Adjustment = 0
    critical_multiplier: Adjustment = 0
    size: Size = "medium"
    weight: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] | None = None  # kg: for dragging a grappled one
    initiative: Name = "acuity"
    companion_of: CombatantId | None = None
    object: bool = False

    def __post_init__(self) -> None:
        for defence, n in self.defence_increases.items():
            if n > self.level:
                raise ValueError(f"defence_increases: {defence} +{n} from Skill Points is more than the level "
                                 f"({self.level}): the total from Skill Points can't exceed the character's level")
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names) or "Unarmed" in names or "Improvised" in names:
            raise ValueError("weapons: each weapon's name once (“Unarmed” and “Improvised” are always there)")
        if len({p.name for p in self.powers}) != len(self.powers):
            raise ValueError("powers: each power's name once")
        if self.initiative not in ABILITIES and self.initiative not in self.skills:
            raise ValueError(f"initiative: “{self.initiative}” is neither an Ability nor one of the sheet's skills")

    # ------------------------------------------------------------ derived scores

    def defence_bonus(self, defence: str) -> int:
        """R6: "Defence Bonus = the Ability + Skill Point increases"."""
        return self.abilities.of(DEFENCE_ABILITY[defence]) + self.defence_increases.get(defence, 0)  # type: ignore[call-overload]

    def defence_score(self, defence: str) -> int:
        """R6: "Defence Score = 10 + Defence Bonus"; "Evasion = 10 + Agility"."""
        if defence == "evasion":
            return 10 + self.abilities.agility
        return 10 + self.defence_bonus(defence)

    @property
    def evasion(self) -> int:
        return self.defence_score("evasion")

    @property
    def martial_bonus(self) -> int:
        return self.martial_proficiency  # + the weapon's Ability: see domain/realms/attacks.py

    @property
    def power_bonus(self) -> int:
        """"Your Power Bonus is the combination of your Power Proficiency and your Power Ability"."""
        return self.power_proficiency + self.abilities.of(self.power_ability)

    @property
    def power_potency(self) -> int:
        """"This is calculated as your Power Bonus + 10"."""
        return self.power_bonus + 10

    @property
    def movement(self) -> int:
        """R13: "Speed = 6 + ½ Agility spaces per round", rounded up (R14); or the sheet's own."""
        return self.speed if self.speed is not None else 6 + half_up(self.abilities.agility)

    @property
    def initiative_bonus(self) -> int:
        """"a bonus based on Acuity, a relevant Ability, or an appropriate Skill"."""
        return self.bonus_of(self.initiative)

    def bonus_of(self, name: str) -> int:
        return self.abilities.of(name) if name in ABILITIES else self.skills.get(name, 0)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    def power(self, name: str) -> Power | None:
        return next((p for p in self.powers if p.name == name), None)

    def proficient_with_property(self, prop: str) -> bool:
        return any(p.lower() == prop.lower() for p in self.property_proficiencies)


def half_up(n: int) -> int:
    """R14: "Fractions are rounded up" (½ of 3 is 2, ½ of -3 is -1)."""
    return -((-n) // 2)
