"""The Places of Power character sheet.

"Every player character has 8 Attributes, 22 Core Skills, 12 Weapon Skills, and 7 Mere
Skills. Each of these has a dice value associated with it, ranging from D4 to D12 (some
Skills may reach D20 later in the game)."

Skills are named on the sheet (any name the sheet declares); Mere skills are kept apart
because levelling them can earn a Mere Activation Point. Conditions, marked skills,
Hero Points and Mere Activation Points change during play: events update the sheet.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import msgspec

from domain.places_of_power.armour import ArmourPiece
from domain.places_of_power.injury import Injury, reconcile
from domain.places_of_power.stat_block import StatBlock
from domain.places_of_power.status_effect import Status
from domain.places_of_power.weapons import Weapon

AttributeDie = Literal["D4", "D6", "D8", "D10", "D12"]
SkillDie = Literal["D4", "D6", "D8", "D10", "D12", "D20"]
Attribute = Literal[
    "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
]
Condition = Literal["Weakened", "Exhausted", "Dizzy", "Numb", "Dazed", "Distracted", "Angry", "Anxious"]
SkillName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]

ATTRIBUTES: tuple[str, ...] = (
    "strength", "stamina", "agility", "dexterity", "intelligence", "perception", "empathy", "charisma"
)

# "The Conditions, and their associated Attributes, are: Strength – Weakened, Stamina –
# Exhausted, Agility – Dizzy, Dexterity – Numb, Intelligence – Dazed, Perception –
# Distracted, Empathy – Angry, Charisma – Anxious"
CONDITION_OF: dict[str, str] = {
    "strength": "Weakened",
    "stamina": "Exhausted",
    "agility": "Dizzy",
    "dexterity": "Numb",
    "intelligence": "Dazed",
    "perception": "Distracted",
    "empathy": "Angry",
    "charisma": "Anxious",
}
ATTRIBUTE_OF: dict[str, str] = {c: a for a, c in CONDITION_OF.items()}


def sides(die: str) -> int:
    """``"D8"`` → 8."""
    return int(die[1:])


class Attributes(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The 8 Attributes, each a die from D4 to D12."""

    strength: AttributeDie = "D4"
    stamina: AttributeDie = "D4"
    agility: AttributeDie = "D4"
    dexterity: AttributeDie = "D4"
    intelligence: AttributeDie = "D4"
    perception: AttributeDie = "D4"
    empathy: AttributeDie = "D4"
    charisma: AttributeDie = "D4"


class Sheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Places of Power character.

    ``skills``: core and weapon skills by name; ``mere_skills``: the Mere colours (a check
    names either). ``willpower``: a D20 at or under it holds. ``initiative_modifier`` is
    added to the D12 initiative roll. ``conditions``, ``marked_skills``, ``hero_points``
    ``mere_activation_points`` and ``hits`` (taken; 4 is Helpless) change in play.
    """

    attributes: Attributes = msgspec.field(default_factory=Attributes)
    skills: Annotated[dict[SkillName, SkillDie], msgspec.Meta(max_length=100)] = msgspec.field(default_factory=dict)
    mere_skills: Annotated[dict[SkillName, SkillDie], msgspec.Meta(max_length=20)] = msgspec.field(
        default_factory=dict
    )
    willpower: Annotated[int, msgspec.Meta(ge=0, le=20)] = 10
    occupation: Annotated[str, msgspec.Meta(max_length=100)] = ""
    initiative_modifier: Annotated[int, msgspec.Meta(ge=-100, le=100)] = 0
    hero_points: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    conditions: list[Condition] = msgspec.field(default_factory=list)
    marked_skills: list[SkillName] = msgspec.field(default_factory=list)
    mere_activation_points: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    hits: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    weapons: Annotated[list[Weapon], msgspec.Meta(max_length=3)] = msgspec.field(default_factory=list)
    carried: Annotated[list[Weapon], msgspec.Meta(max_length=20)] = msgspec.field(default_factory=list)
    armour: Annotated[list[ArmourPiece], msgspec.Meta(max_length=8)] = msgspec.field(default_factory=list)
    injuries: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0  # not yet recovered; one record each below
    # omitted: one untreated record per Injury carried in (injury.reconcile keeps them in step)
    injury_records: Annotated[list[Injury], msgspec.Meta(max_length=20)] | None = None
    prone: bool = False
    dead: bool = False
    helmet_sacrificed: bool = False
    action_point_debt_round: int = 0
    helpless_for_fight: bool = False
    off_balance_round: int = 0
    dropped_weapons: list[str] = msgspec.field(default_factory=list)
    damaged_weapons: list[str] = msgspec.field(default_factory=list)
    unloaded: list[str] = msgspec.field(default_factory=list)  # fired and not loaded again (loading.py)
    statuses: Annotated[list[Status], msgspec.Meta(max_length=20)] = msgspec.field(default_factory=list)
    # Mere points left to cast with ("Cast one of the spells you know and for which you have
    # the require Mere to use")
    mere: Annotated[int, msgspec.Meta(ge=0, le=999)] = 0
    in_cover: bool = False
    # Affinity level by Mere colour (Burning spares "Characters with an Affinity for Rosmere of Level 5")
    affinities: Annotated[dict[SkillName, Annotated[int, msgspec.Meta(ge=0, le=20)]], msgspec.Meta(max_length=20)] = (
        msgspec.field(default_factory=dict)
    )
    # an Enemy's Stat Block; None for a player character or an NPC played like one
    stat_block: StatBlock | None = None

    def __post_init__(self) -> None:
        records = self.injury_records
        # Every sheet built runs this (each replace during a replay too): records that already
        # match a count of 0 or 1 have nothing to add and no two numbers to clash.
        if records is None or len(records) != self.injuries or self.injuries > 1:
            self.injury_records = reconcile(records, self.injuries)

    def attribute_die(self, attribute: str) -> str:
        return str(getattr(self.attributes, attribute))

    def skill_die(self, skill: str) -> str | None:
        return self.skills.get(skill) or self.mere_skills.get(skill)


SKILL_DICE: tuple[str, ...] = get_args(SkillDie)


def bad_skill_die(raw: dict[str, Any]) -> str | None:
    """Which skill of a raw sheet has a die that is not on the ladder, by name (msgspec only
    says `$.skills[...]`); None when every skill die is one of D4..D20."""
    for group in ("skills", "mere_skills"):
        entries = raw.get(group)
        if isinstance(entries, dict):
            for skill, die in entries.items():
                if die not in SKILL_DICE:
                    return f"{group} “{skill}” is {die!r}, not one of {', '.join(SKILL_DICE)} - at `$.{group}.{skill}`"
    return None
