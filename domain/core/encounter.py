"""The encounter lifecycle shared by every ruleset: its commands, events and state.

Open, add and remove combatants, roll initiative, set the turn order, start, end turn
(new rounds follow), end the encounter. Ruleset-specific rules plug in through the
hooks of ``domain.core.ruleset.Ruleset``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from domain.core.concerns import CombatantId, EventRef, SheetValue, WholeSheet
from domain.core.dice import DieRoll

Controller = Literal["gm", "player"]
Status = Literal["setup", "active", "ended"]

# --------------------------------------------------------------------------- commands


ReportedFaces = Annotated[
    list[Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]],
    msgspec.Meta(
        max_length=100,
        examples=[[7, 4]],
        description=(
            "Faces of physical dice, where the encounter's dice policy is `reported` or `mixed`; "
            "used in the order the command documents. Omit to let the server roll (`seeded`, `mixed`)."
        ),
    ),
]


class Command(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of every command. ``dice``: reported faces, where the dice policy allows them."""

    # The field naming the combatant who acts: a player may send the command for their own
    # combatants. None: the command is the GM's alone.
    actor_field: ClassVar[str | None] = None
    # a settings command (domain/core/settings.py): the type of the document its ``data`` patches
    settings_type: ClassVar[type | None] = None

    dice: ReportedFaces | None = None

    def acting_combatant(self) -> str | None:
        return getattr(self, self.actor_field) if self.actor_field else None


class AddCombatant(Command, tag="AddCombatant"):
    """Add a combatant. ``sheet`` follows the ruleset's sheet schema. A ``hidden`` combatant
    (an ambush) is seen by the GM only, until the GM reveals it."""

    name: str
    side: str
    controller: Controller
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    hidden: bool = False
    combatant_id: CombatantId | None = None


class RemoveCombatant(Command, tag="RemoveCombatant"):
    """The GM takes a combatant out of the fight (not on their own turn)."""

    combatant_id: CombatantId


class RollInitiative(Command, tag="RollInitiative"):
    """Roll (or, during the fight, re-roll) initiative for everyone. GM's command.

    Reported dice are used in the ruleset's own order: the `dice` of this command in
    `GET /rulesets/{ruleset_id}` (each ruleset's ``initiative_dice``). ``secret``: the GM's own
    roll is shown to players and spectators only once the GM reveals it (``RevealRoll``).
    """

    secret: bool = False


class RevealCombatant(Command, tag="RevealCombatant"):
    """The GM reveals a hidden combatant: from now on everyone sees it, and its history."""

    combatant_id: CombatantId


class RevealRoll(Command, tag="RevealRoll"):
    """The GM reveals the secret rolls of an earlier event (the one at ``version``)."""

    version: int


class SetTurnOrder(Command, tag="SetTurnOrder"):
    """The GM sets the order of play, within what the ruleset allows."""

    order: list[CombatantId]


class StartEncounter(Command, tag="StartEncounter"):
    """Start the fight: round 1 begins with the first combatant in the order."""


class EndTurn(Command, tag="EndTurn"):
    """The combatant whose turn it is ends it; the next one's turn begins."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class EndEncounter(Command, tag="EndEncounter"):
    """End the fight. The dice seed is revealed so every roll can be verified."""


class Retcon(Command, tag="Retcon"):
    """The GM corrects a mistake: the story goes back to how it stood at an earlier version
    (``to_version``).

    Nothing is deleted: a ``Retconned`` event is appended and the state is again the state
    at ``to_version`` (its version goes on). The GM may go back to any version a command
    ended at, from the start of the current round on, or undo the last command whatever the
    round; never back before the fight's start (once it has started) nor before its end
    (once it has ended: the dice seed is public). Seeded dice go back too: the same command
    sent again rolls the same faces (a retcon is not a re-roll).
    """

    to_version: int
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


LIFECYCLE_COMMANDS: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    RollInitiative,
    SetTurnOrder,
    StartEncounter,
    EndTurn,
    EndEncounter,
    RevealCombatant,
    RevealRoll,
    Retcon,
)

# ----------------------------------------------------------------------------- events


class Event(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of every event. Past tense. ``schema_version`` of the payload lives in the store."""

    def dice_rolled(self) -> list[DieRoll]:
        return []


class EncounterOpened(Event, tag="EncounterOpened"):
    """Schema version 2: ``seed_commitment`` is ``sha256:<hex>``, the SHA-256 of the dice seed
    (version 1 had the bare hex as ``seed_sha256``; see ``domain/core/upcasting.py``)."""

    encounter_id: str
    ruleset: str
    name: str
    dice_policy: str
    seed_commitment: str


class CombatantAdded(Event, tag="CombatantAdded"):
    combatant_id: CombatantId
    name: str
    side: str
    controller: Controller
    sheet: WholeSheet[dict[str, Any], "combatant_id"]
    action_points: int = 0
    seq: int = 0
    hidden: bool = False


class CombatantRemoved(Event, tag="CombatantRemoved"):
    combatant_id: CombatantId


class InitiativeRoll(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One initiative roll: ``who`` is a combatant id, or a group name such as ``npcs``.
    A ``secret`` roll is the GM's, hidden from players until revealed."""

    who: CombatantId
    die: DieRoll
    modifier: SheetValue[int, "who"]
    total: int
    secret: bool = False
    # a roll of several dice (Novus: 2d10 that explode and implode): the dice after the
    # first, in the order rolled. Left out of a one-die roll, so such a roll is written and
    # read exactly as before this field was added (no new schema version).
    more_dice: list[DieRoll] | msgspec.UnsetType = msgspec.UNSET

    @property
    def all_dice(self) -> list[DieRoll]:
        return [self.die] if self.more_dice is msgspec.UNSET else [self.die, *self.more_dice]


class InitiativeRolled(Event, tag="InitiativeRolled"):
    rolls: list[InitiativeRoll]
    order: list[CombatantId]
    secret: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return [d for r in self.rolls for d in r.all_dice]


class TurnOrderSet(Event, tag="TurnOrderSet"):
    order: list[CombatantId]


class EncounterStarted(Event, tag="EncounterStarted"):
    pass


class RoundStarted(Event, tag="RoundStarted"):
    """A new round: ``action_points`` is every combatant's AP after the round's grant."""

    round: int
    action_points: dict[CombatantId, int]


class TurnEnded(Event, tag="TurnEnded"):
    """``action_points``: the combatant's AP after the end of their turn, where the ruleset changes it."""

    combatant_id: CombatantId
    action_points: int | None = None


class EncounterEnded(Event, tag="EncounterEnded"):
    seed: str | None = None


class CombatantRevealed(Event, tag="CombatantRevealed"):
    combatant_id: CombatantId


class RollRevealed(Event, tag="RollRevealed"):
    version: EventRef


class Retconned(Event, tag="Retconned"):
    """The GM undid events ``undone_from`` .. ``undone_to``: the state is again the state at
    ``to_version`` (``undone_from - 1``), but for its version, which goes on, and the record
    of what stays hidden (``concealed``, ``secret_versions``), which keeps the undone events'
    secrets. ``evolve`` cannot fold it alone: ``Ruleset.replay`` does, with the history."""

    to_version: int
    undone_from: int
    undone_to: int
    reason: str = ""


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (
    EncounterOpened,
    CombatantAdded,
    CombatantRemoved,
    InitiativeRolled,
    TurnOrderSet,
    EncounterStarted,
    RoundStarted,
    TurnEnded,
    EncounterEnded,
    CombatantRevealed,
    RollRevealed,
    Retconned,
)

# ------------------------------------------------------------------------------ state


class Combatant(msgspec.Struct, kw_only=True):
    id: str
    name: str
    side: str
    controller: Controller
    sheet: Any
    action_points: int = 0
    initiative: int | None = None
    seq: int = 0
    hidden: bool = False
    # the ruleset's other action resources, by name (domain/core/resources.py); left out
    # of a ruleset that declares none, so its state reads as before
    resources: dict[str, int] | msgspec.UnsetType = msgspec.UNSET


class EncounterState(msgspec.Struct, kw_only=True):
    id: str
    ruleset: str
    name: str
    dice_policy: str
    seed_sha256: str
    status: Status = "setup"
    version: int = 0
    round: int = 0
    combatants: dict[str, Combatant] = msgspec.field(default_factory=dict)
    order: list[str] = msgspec.field(default_factory=list)
    turn: str | None = None
    acted: list[str] = msgspec.field(default_factory=list)  # who has had their turn this round
    group_initiative: dict[str, int] = msgspec.field(default_factory=dict)
    initiative_rolled: bool = False
    initiative_version: int = 0
    secret_versions: list[int] = msgspec.field(default_factory=list)
    # combatants added hidden and not revealed, kept after they are removed: their history stays hidden
    concealed: list[str] = msgspec.field(default_factory=list)
    # the events about combatants hidden when they happened: version -> those combatants
    # (domain/core/concerns.py says what an event is about); kept through reveals and retcons
    concealed_events: dict[int, list[str]] = msgspec.field(default_factory=dict)
    # what the ruleset itself tracks for the whole encounter (pending checks, sessions, ...)
    rules: Any = None
    rolls_used: int = 0
    combatants_added: int = 0
    seed: str | None = None
