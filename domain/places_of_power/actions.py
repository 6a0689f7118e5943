"""Places of Power common actions that cost Action Points and need no dice.

"If you do not have enough Action Points to pay the cost of a given action then you
cannot perform it."  Costs from the list of common actions in the combat chapter.
Stand, Take Cover and Dash change the state (domain/places_of_power/ruleset.py); the
reloading actions load a weapon again (domain/places_of_power/loading.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Command, Event

ActionName = Literal[
    "Dash", "ClimbLeap", "TakeCover", "NotchArrow", "ReloadCrossbow", "ReloadGun", "InventoryItem", "EquipArmour", "RemoveArmour",
    "Stand",
]

ACTION_COSTS: dict[str, tuple[int, str]] = {
    "Dash": (1, "Double your normal movement range for this turn; counts as your movement action."),
    "ClimbLeap": (1, "Climb a rope or leap a gap; the GM then calls for an Athletics check at the difficulty "
                     "they set."),
    "TakeCover": (1, "Take cover behind an object within close range."),
    "NotchArrow": (1, "Draw and notch a new arrow to a bow."),
    "ReloadCrossbow": (3, "Reload a crossbow or similar weapon."),
    # "requires all of the Action Points you can accumulate in two turns": 6, saved up over two
    # rounds (players carry Action Points over to 6)
    "ReloadGun": (6, "Reload a pistol, musket, or rifle; all the Action Points of two turns."),
    "InventoryItem": (3, "Remove an item from a bag or other container you are carrying."),
    "EquipArmour": (3, "Equip a piece of armour."),
    "RemoveArmour": (3, "Remove a piece of armour."),
    "Stand": (1, "Get back up after being knocked Prone."),
}


class TakeAction(Command, tag="TakeAction"):
    """A common action on your own turn; costs the Action Points listed for it.
    ``penalties``: how a Wounded or Afflicted combatant pays each Penalty Point (for an
    action without a roll, ``IncreaseCost``). ``weapon``: the one Notch Arrow, Reload Crossbow or
    Reload Gun loads (none: the first at hand it loads that a shot spent)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    action: ActionName
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)
    weapon: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None


class GmCostedAction(Command, tag="GmCostedAction"):
    """A Non-Combat Task or the use of an Ability, at the cost the GM sets ("Non-Combat Task"
    and "Use Ability" in the common actions): the GM's command, on the combatant's turn."""

    combatant_id: CombatantId
    action: Literal["NonCombatTask", "UseAbility"]
    description: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    action_points: Annotated[int, msgspec.Meta(ge=0, le=6)]


class ActionTaken(Event, tag="ActionTaken"):
    """``weapon``: the weapon a Notch Arrow, Reload Crossbow or Reload Gun loaded."""

    combatant_id: CombatantId
    action: str
    action_points: int
    description: str = ""
    weapon: str | None = None
