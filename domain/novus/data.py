"""What the Novus text leaves to the GM, as one JSON document per encounter (``SetNovusRules``,
before or during the fight). Where a default comes from the publisher's material (the gap
file), it says so; where it is OURS, it says that.

- ``boons``: the Combat Boons the GM allows ("the GM decides which Boons fit", N4). Default:
  the official 1 BP and 2+ BP Boons of N15; the 2011 drafts of N16 only if the GM adds them.
- ``moves``: the Combat Moves (domain/novus/moves.py): each one's AB, DEF, AP, Rng and effects.
  Default: N19's moves; the Basic Dodge is DEF +3 for 3 AP ("publisher texts disagree":
  n1erndseq's example gives 2 AP).
- ``actions``: the Simple (1-2 AP) and Complex (2-5 AP) actions of this encounter, the GM's to
  name and cost ("it is up to the GM to determine which category the declared action belongs
  to, and how many AP are required"). Default (OURS): the text's own examples.
- ``impairing_boons``: the Boons a head Called Shot's extra Boon Points may buy ("Boons that
  impair the target's judgement or consciousness": the list is cut off, U-N3). Default: Daze Foe.
- ``stray_modifiers``: the DEF modifiers applied to the Saving Throw vs Spd of one near the path of a
  shot into melee that missed ("GM's discretion"); default: the shield and a declared Dodge, the text's examples.
- ``held_save``: the stat of the Opposed Saving Throws when a held action is taken at someone else's IP
  ("the GM should Opposed Saving Throws to determine which goes first": the procedure is not given,
  U-N7). Default (OURS): Speed, the higher total goes first (the gap file's proposed reading);
  ``held_save_tie``: on equal totals, roll again (OURS), or the holder or the other goes first.
- ``snags``: the Snag table (N17, cost in Snag Points; the spell Snags are left out), the GM's to
  replace; ``does`` names the effect the engine applies (the rest is recorded for the GM).
- ``snag_step``: how Snag Points are earned is not published (U-N7). Default (OURS): on an attack roll
  that imploded and missed, 1 Snag Point for every full 10 points its total falls short of DEF (the
  mirror of the Boon Points); None: no Snag Points. The GM spends them (OURS), at once.
- ``limbs``: which actions each limb is used for, for a Called Shot's -2 a hit and a useless limb (N14;
  domain/novus/limbs.py). Default (OURS): arms for attacks, charges and Blocks; legs for moves, runs,
  Dodges and charges.
- ``surprise_beaten_by``: the Surprise results table is missing (U-N1: "The results are determined as
  follows:" and nothing follows). None (the default) leaves who is surprised to the GM
  (NovusSetSurprised); a number is the GM's table: once every side in the fight has made its group
  Perception roll, a side whose total another side's beats by that much or more is surprised.
- ``death_below``: dying past helpless is not in the retrieved text (U-N4): None (OURS) leaves
  death to the GM; a number makes a character dead once their Hit Points fall below it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.novus.sheet import Stat
from domain.novus.limbs import LimbRules
from domain.novus.moves import BASIC_DODGE, MoveRule, check_moves, default_moves, find

Category = Literal["simple", "complex"]
HeldTie = Literal["reroll", "holder", "other"]
BoonDamage = Literal["none", "strength_bonus", "willpower_bonus", "half_skill_ranks"]
AP = Annotated[int, msgspec.Meta(ge=0, le=20)]


class BoonRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Combat Boon: its cost in Boon Points, whether it may be bought again (``repeatable``,
    "+" in the table), what it adds to the damage of the attack that earned it, the Boons it
    may not go with, and whether it is from the 2011 drafts (N16). A repeatable Boon ("2+": two
    Boon Points or more) is named once for each Boon Point spent on it, at least ``cost`` times:
    Attack Boost named 3 times is 3 BP, "+1 AB per BP"."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    cost: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    repeatable: bool = False
    damage: BoonDamage = "none"
    excludes: list[str] = []
    effect: str = ""
    draft: bool = False


class ActionRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Simple or Complex action the GM has costed: "Simple Actions will normally take from 1 to
    2 AP"; "Complex Actions ... usually require somewhere between 2 and 5 AP"."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    category: Category
    ap: Annotated[int, msgspec.Meta(ge=1, le=5)]


SnagEffect = Literal["fumble", "strain", "hurt", "break_item", "strike_friend", "break_weapon", "none"]


class SnagRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Snag: its cost in Snag Points, what it does (``does``: the effect the engine applies; "none":
    recorded for the GM), and whether it is only in combat."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    cost: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    does: SnagEffect = "none"
    effect: str = ""
    combat: bool = False


def _snags() -> list[SnagRule]:
    """N17, the Snag table (the spell Snags are left out)."""
    return [
        SnagRule(name="Fumble", does="fumble", effect="fumble the object in hand (1 round to recover it)"),
        SnagRule(name="Strain a muscle", does="strain", effect="-1 to all actions for 10 minutes"),
        SnagRule(name="Extra round", effect="the task takes an extra round"),
        SnagRule(name="Loud noise", effect="a loud noise alerts foes within 100 ft"),
        SnagRule(name="Hurt yourself", cost=2, does="hurt", effect="hurt yourself for 1d10 hits (armour applies)"),
        SnagRule(name="Break the item in hand", cost=2, does="break_item", effect="break the item in hand"),
        SnagRule(name="Botch", cost=2, effect="botch the task and start over"),
        SnagRule(name="Strike a friend", cost=2, does="strike_friend", combat=True,
                 effect="strike the nearest friend in range (new attack roll)"),
        SnagRule(name="Break your weapon", cost=3, does="break_weapon", combat=True,
                 effect="break your weapon and take double its normal damage, ignoring armour"),
    ]


def _boons() -> list[BoonRule]:
    """N15, the official table (1 BP each, then 2 or more), but those the engine cannot apply
    (``LEFT_TO_THE_TABLE``). Lightning Attack: a melee weapon's (``LIGHTNING``)."""
    return [
        BoonRule(name="Adrenal Surge", damage="willpower_bonus", excludes=["Strong Attack"],
                 effect="+Willpower Stat Bonus to Base Damage"),
        BoonRule(name="Daze Foe", effect="-4 to all the foe's actions for 1 round"),
        BoonRule(name="Defensive Posture", effect="+2 DEF next round"),
        BoonRule(name="Disarm Foe", effect="the foe saves vs Str at TN 15 + the attacker's ranks, or the weapon flies 1-10 ft"),
        BoonRule(name="Initiative Boost", repeatable=True, effect="+2 IP next round per BP"),
        BoonRule(name="Knock Prone", effect="the foe's DEF becomes 12 + magic bonuses"),
        BoonRule(name="Skilled Attack", damage="half_skill_ranks",
                 effect="+ half the Combat Skill ranks (rounded down) as damage that is not Base Damage"),
        BoonRule(name="Strong Attack", damage="strength_bonus", excludes=["Adrenal Surge"],
                 effect="+Strength Stat Bonus to Base Damage"),
        BoonRule(name="Attack Boost", cost=2, repeatable=True, effect="+1 AB per BP on the primary attack next round"),
        BoonRule(name="Inspiring Attack", cost=2, repeatable=True, effect="allies get +1 IP per BP next round"),
        BoonRule(name="Lightning Attack", cost=2, effect="a second attack on the same or another foe, at once (a melee weapon)"),
    ]


# N15's Boons the engine does not apply, so not offered (the GM may add them to ``boons``: then only
# recorded): Bleeder ("slashing or piercing weapons only": a weapon's piercing is not on the sheet, and
# stopping Bleeding with others' First Aid is cut off, U-N4); Combat Shuffle (positions are the
# table's: the engine keeps none); Rapid Reload (a bow's load is not kept: reloading is only its AP).
LEFT_TO_THE_TABLE = ("Bleeder", "Combat Shuffle", "Rapid Reload")
LIGHTNING = "Lightning Attack"  # "a second attack on the same or another foe within range and sight"


def _actions() -> list[ActionRule]:
    """OURS: the text's examples ("drawing a weapon, picking something up off the floor";
    "changing weapons, applying first aid, starting a fire")."""
    return [ActionRule(name="Pick up an item", category="simple", ap=1),
            ActionRule(name="Change weapons", category="complex", ap=2),
            ActionRule(name="Apply first aid", category="complex", ap=5),
            ActionRule(name="Start a fire", category="complex", ap=5)]


class NovusData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The encounter's Novus settings (see the module's docstring for where each default is from)."""

    boons: list[BoonRule] = msgspec.field(default_factory=_boons)
    moves: list[MoveRule] = msgspec.field(default_factory=default_moves)
    limbs: LimbRules = msgspec.field(default_factory=LimbRules)
    actions: list[ActionRule] = msgspec.field(default_factory=_actions)
    death_below: int | None = None
    impairing_boons: list[str] = msgspec.field(default_factory=lambda: ["Daze Foe"])
    stray_modifiers: list[Literal["shield", "dodge"]] = msgspec.field(default_factory=lambda: ["shield", "dodge"])
    held_save: Stat = "speed"
    snags: list[SnagRule] = msgspec.field(default_factory=_snags)
    snag_step: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = 10
    held_save_tie: HeldTie = "reroll"
    surprise_beaten_by: Annotated[int, msgspec.Meta(ge=0, le=200)] | None = None

    def __post_init__(self) -> None:
        names = [b.name for b in self.boons]
        if len(set(names)) != len(names):
            raise ValueError("boons: each Boon's name once")
        for i, a in enumerate(self.actions):
            low, high = (1, 2) if a.category == "simple" else (2, 5)
            if not low <= a.ap <= high:
                raise ValueError(f"actions[{i}].ap: a {a.category} action takes {low} to {high} AP")
        if len({a.name.lower() for a in self.actions}) != len(self.actions):
            raise ValueError("actions: each action's name once")
        if len({n.name for n in self.snags}) != len(self.snags):
            raise ValueError("snags: each Snag's name once")
        check_moves(self.moves)
        if self.death_below is not None and self.death_below > -10:
            raise ValueError("death_below: 0 to -10 is helpless (N22), so death lies below -10")

    def move(self, name: str | None) -> MoveRule | None:
        return find(self.moves, name)

    @property
    def dodge_ap(self) -> int:
        return self.move(BASIC_DODGE).ap_cost(0)  # type: ignore[union-attr]

    @property
    def dodge_def(self) -> int:
        return self.move(BASIC_DODGE).defence  # type: ignore[union-attr]

    def boon(self, name: str) -> BoonRule | None:
        return next((b for b in self.boons if b.name == name), None)

    def snag(self, name: str) -> SnagRule | None:
        return next((n for n in self.snags if n.name == name), None)

    def action(self, name: str | None) -> ActionRule | None:
        return next((a for a in self.actions if name and a.name.lower() == name.lower()), None)


DEFAULT_DATA = NovusData()
