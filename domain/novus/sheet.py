"""A Novus character sheet: what the combat text and the gap file read off it.

Stat Bonuses come from the sheet: the Value-to-Bonus table was not found (novus-gaps U-N6).
Hit Points are the sheet's (N20 gives the starting formula, 20 + Str Value + Con Value +
special, which the sheet has already worked out). A sheet that does not fit is refused with
an error naming the field.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Stat = Literal["charisma", "constitution", "dexterity", "intelligence", "speed", "strength", "willpower", "wisdom"]
STATS: tuple[Stat, ...] = ("charisma", "constitution", "dexterity", "intelligence", "speed", "strength",
                           "willpower", "wisdom")
Size = Literal["tiny", "small", "medium", "large", "huge"]
Kind = Literal["melee", "missile", "unarmed"]
Hand = Literal["right", "left"]
Location = Literal["head", "arms", "legs"]
Shield = Literal["none", "small", "normal", "full"]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Bonus = Annotated[int, msgspec.Meta(ge=-20, le=60)]
Count = Annotated[int, msgspec.Meta(ge=0, le=100)]

# N9: "Shields give DEF: Full 4, Normal 3, Small 2."
SHIELD_DEF: dict[str, int] = {"none": 0, "small": 2, "normal": 3, "full": 4}


class StatLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A stat's Stat Value and its Stat Bonus (N5: "a Stat Value ... and a Stat Bonus read off a table")."""

    value: Annotated[int, msgspec.Meta(ge=0, le=60)]
    bonus: Bonus


class Stats(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The eight stats (N5)."""

    charisma: StatLine
    constitution: StatLine
    dexterity: StatLine
    intelligence: StatLine
    speed: StatLine
    strength: StatLine
    willpower: StatLine
    wisdom: StatLine

    def bonus(self, stat: Stat) -> int:
        return getattr(self, stat).bonus

    def value(self, stat: Stat) -> int:
        return getattr(self, stat).value


class Skill(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A skill with its ranks and its total bonus (N2: "skill ranks + the associated Stat
    Bonus"); ``melee``: a melee Combat Skill (DEF counts the best one's ranks, N6); ``moves``: the
    Combat Moves learnt for it (N18: "Moves are bought separately for each Combat Skill")."""

    name: Name
    ranks: Count = 0
    bonus: Bonus = 0
    melee: bool = False
    moves: list[Name] = []


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A weapon (N10): its size and Damage Rating, the Combat Skill it is used with (None:
    Brawling), the stat whose bonus adds to its Base Damage (N7), its reach or range increment
    in feet, the hand it was learnt in, whether it is one-handed, whether it is of the
    Pole Arm family (a lance, a long spear: Mounted Charge), and whether it is edged (Cut)."""

    name: Name
    size: Size = "medium"
    dr: Annotated[int, msgspec.Meta(ge=0, le=60)] = 0
    kind: Kind = "melee"
    skill: str | None = None
    stat: Stat = "strength"
    reach: Annotated[int, msgspec.Meta(ge=0, le=100)] = 5
    range: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    hand: Hand = "right"
    one_handed: bool = True
    pole_arm: bool = False
    edged: bool = False


class Armour(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """N8/N9: ``ar``, taken off the total damage of an ordinary attack (torso armour, with the 1
    of each helm, bracers and greaves worn); ``called_shot_ar``: the Called Shot AR of the armour
    worn on each location ("With no armour on the location, the Called Shot AR is 0")."""

    ar: Annotated[int, msgspec.Meta(ge=0, le=60)] = 0
    called_shot_ar: dict[Location, Annotated[int, msgspec.Meta(ge=0, le=60)]] = {}


class Talents(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The talents the combat text names, as flags (novus-gaps 1.8, item 11)."""

    mounted_combat_1: bool = False
    mounted_combat_2: bool = False
    advanced_combat_training: bool = False
    ambidextrous: bool = False
    two_weapon_combo: bool = False
    combat_training_1: bool = False  # N18: advanced moves "1 per 3 ranks with Combat Training I"
    combat_training_2: bool = False  # "1 per rank with Combat Training II"


class NovusSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Novus character: stats, skills (with ranks, total bonus and the Combat Moves learnt for each),
    specialties, talents, weapons, armour, shield, Hit Points and Base Movement (feet a 1 AP move covers).
    ``combat_moves``: the older flat list of moves, kept so stored fights load: read as learnt for every
    Combat Skill on the sheet (a new sheet names them per skill, ``skills[i].moves``)."""

    stats: Stats
    hit_points: Annotated[int, msgspec.Meta(ge=1, le=1000)]
    skills: list[Skill] = []
    specialties: list[Name] = []
    combat_moves: list[Name] = []
    talents: Talents = Talents()
    weapons: list[Weapon] = []
    armour: Armour = Armour()
    shield: Shield = "none"
    base_movement: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 20
    # the creature's size and shape, for its Control Zone (domain/novus/zones.py): a humanoid's follows its
    # size; ``control_zone``: a non-humanoid's reach in feet, the GM's
    creature_size: Size = "medium"
    humanoid: bool = True
    control_zone: Annotated[int, msgspec.Meta(ge=0, le=200)] | None = None

    def __post_init__(self) -> None:
        names = [s.name for s in self.skills]
        if len(set(names)) != len(names):
            raise ValueError("skills: each skill's name once")
        weapons = [w.name for w in self.weapons]
        if len(set(weapons)) != len(weapons):
            raise ValueError("weapons: each weapon's name once")
        for i, skill in enumerate(self.skills):
            if len({m.lower() for m in skill.moves}) != len(skill.moves):
                raise ValueError(f"skills[{i}].moves: each Combat Move's name once")
        for i, w in enumerate(self.weapons):
            if w.skill is not None and w.skill not in names:
                raise ValueError(f"weapons[{i}].skill: “{w.skill}” is not one of the sheet's skills")
            if w.kind == "missile" and w.range < 1:
                raise ValueError(f"weapons[{i}].range: a missile weapon needs its range increment (feet)")
        if self.humanoid and self.control_zone is not None:
            raise ValueError("control_zone: a humanoid's Control Zone follows its size (5', Large 10', Huge 15'); "
                             "set it for a non-humanoid")

    def skill(self, name: str | None) -> Skill | None:
        if name:
            for s in self.skills:  # a loop, not next() of a generator: asked on every attack's fold
                if s.name == name:
                    return s
        return None

    def weapon(self, name: str | None) -> Weapon | None:
        for w in self.weapons:
            if w.name == name:
                return w
        return None

    def combat_skill(self, skill: Skill) -> bool:
        """A Combat Skill: a weapon's skill, a melee one, or one with moves learnt for it."""
        return skill.melee or bool(skill.moves) or any(w.skill == skill.name for w in self.weapons)

    def learnt(self, skill: str | None) -> set[str]:
        """The Combat Moves learnt for ``skill`` (lower case), the flat ``combat_moves`` with them. None (a
        Brawling attack, "untrained/unskilled"): none, it "may use any of the Basic Unarmed Combat Moves"."""
        known = self.skill(skill)
        if known is None:
            return set()
        return {m.lower() for m in (*known.moves, *self.combat_moves)}

    def advanced_cap(self, skill: Skill) -> int:
        """N18: "Advanced moves are capped: 1 per 5 ranks without Combat Training, 1 per 3 ranks with
        Combat Training I, 1 per rank with Combat Training II"."""
        per = 1 if self.talents.combat_training_2 else 3 if self.talents.combat_training_1 else 5
        return skill.ranks // per

    @property
    def brawling(self) -> int:
        """Brawling: "the sum of the character's Str & Dex bonuses"."""
        return self.stats.strength.bonus + self.stats.dexterity.bonus

    def attack_bonus(self, weapon: Weapon | None) -> int:
        """The weapon's Combat Skill total bonus; Brawling without one (or without the weapon)."""
        skill = self.skill(weapon.skill) if weapon is not None else None
        return skill.bonus if skill is not None else self.brawling

    def base_def(self) -> int:
        """N6: "DEF = 15 + Speed Stat Bonus + 1 for every 5 ranks in the defender's best melee
        Combat Skill + shield DEF" (the situational modifiers come on top)."""
        best = max((s.ranks for s in self.skills if s.melee), default=0)
        return 15 + self.stats.speed.bonus + best // 5 + SHIELD_DEF[self.shield]

    def initiative_bonus(self) -> int:
        """N11: "Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus"."""
        return self.stats.speed.bonus + self.stats.wisdom.bonus
