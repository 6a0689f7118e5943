"""An Enemy's Stat Block, as data (the rules that read it live in ``enemies`` and ``magic``).

"A Stat Block is a collection of information that describes a character or creature in the
game ... Stat Blocks tell the GM what Actions the Enemy can perform, and what Dice need to
be rolled when they attempt them."
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Text = Annotated[str, msgspec.Meta(max_length=500)]


class SetSpell(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """"These Spells have a Mere type, a Mere Cost, and a Description of what they do."
    ``complexity``: how many modifiers the spell uses (0..3)."""

    name: Name
    mere: Name
    mere_cost: Annotated[int, msgspec.Meta(ge=0, le=99)]
    complexity: Annotated[int, msgspec.Meta(ge=0, le=3)] = 0
    description: Text = ""
    healing: bool = False


class SpecialAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """"Only a single Special Action can be used per turn, with some being limited to a
    single use per Combat." Its cost in Action Points is on the block."""

    name: Name
    action_points: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    once_per_combat: bool = False
    description: Text = ""


class StatBlock(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``speed``: "Normal means they move like a regular Player Character, Slow reduces their
    movement to half, and Fast allows them to move as if using the Dash ability";
    ``morale``: the value a Morale Check rolls a D20 at or under; ``set_actions``: the
    Offensive and Defensive Actions the Enemy may perform (command or action names)."""

    speed: Literal["Slow", "Normal", "Fast"] = "Normal"
    morale: Annotated[int, msgspec.Meta(ge=0, le=20)] = 10
    human: bool = True
    set_actions: Annotated[list[Name], msgspec.Meta(max_length=40)] = msgspec.field(default_factory=list)
    set_spells: Annotated[list[SetSpell], msgspec.Meta(max_length=20)] = msgspec.field(default_factory=list)
    abilities: Annotated[list[Text], msgspec.Meta(max_length=20)] = msgspec.field(default_factory=list)
    special_actions: Annotated[list[SpecialAction], msgspec.Meta(max_length=10)] = msgspec.field(
        default_factory=list
    )
