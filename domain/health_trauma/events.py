"""Health/Trauma's commands and events."""

from __future__ import annotations

from domain.core.concerns import CombatantId, SheetValue
from domain.core.dice import DieRoll
from domain.core.encounter import Command, Event, InitiativeRoll
from domain.core.settings import SettingsPatch
from domain.health_trauma.data import HealthTraumaData, Size

# ---------------------------------------------------------------- commands


class SetHealthTraumaRules(Command, tag="SetHealthTraumaRules"):
    """The GM sets the encounter's Health/Trauma data (before or during the fight): the Attack
    Test, the injury chart, X, the maimed-part table, the saves, reactions and actions. Every
    default is OURS, not the game's (the text leaves them open): see ``HealthTraumaData``.
    ``data`` is a JSON Merge Patch of the current document (domain/core/settings.py)."""

    settings_type = HealthTraumaData
    data: SettingsPatch


class Attack(Command, tag="HTAttack"):
    """Attack ``target`` with the readied weapon (default: it; another is refused) at
    ``distance`` spaces (0: base to base): "an Opposed Test that pits your combat skill
    against your Target's Guard"."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    weapon: str | None = None
    distance: int = 0


class RollInitiativeTest(Command, tag="HTRollInitiativeTest"):
    """Make one's Initiative Test before the GM rolls initiative: "Players will roll for their
    characters while the Game Master rolls for Non-Player Characters." The GM's RollInitiative
    then rolls for the rest and orders everyone."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class TakeAction(Command, tag="HTTakeAction"):
    """Take an action of the encounter's action list (a Quarter, Half, Full or Quick one);
    ``weapon``: the sheet's weapon an action that draws one readies ("Draw a weapon")."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    action: str
    weapon: str | None = None


class RollInjury(Command, tag="HTRollInjury"):
    """Roll the injury of one put into the dying state: 1D10, plus five for each injury had."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class RollFearSave(Command, tag="HTRollFearSave"):
    """Take the reeling result's Fear MSvs, due at the start of one's turn."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class Heal(Command, tag="HTHeal"):
    """Restore health (a spell, an item, the Medicine Skill): ``amount`` given, or rolled as
    ``dice_count``D``dice_sides`` + ``bonus`` (the text gives no amounts: the GM's call)."""

    combatant_id: CombatantId
    amount: int | None = None
    dice_count: int = 0
    dice_sides: int = 6
    bonus: int = 0


class Stabilise(Command, tag="HTStabilise"):
    """End a character's dying (the text names stabilising but gives no test: the GM's call)."""

    combatant_id: CombatantId


class TreatWound(Command, tag="HTTreatWound"):
    """Medical treatment of a gut wound: no longer Dazed (the BSvs stays until recovered)."""

    combatant_id: CombatantId


class Recuperate(Command, tag="HTRecuperate"):
    """Recuperate between fights (the text gives no rule; ours): Trauma back to 0, health to
    its maximum; the sliced muscles' penalty, a coma and a gut wound end with it. Never for the dead."""

    combatant_id: CombatantId


COMMANDS = (SetHealthTraumaRules, RollInitiativeTest, Attack, TakeAction, RollInjury, RollFearSave, Heal, Stabilise, TreatWound, Recuperate)

# ------------------------------------------------------------------ events


class RulesSet(Event, tag="HTRulesSet"):
    data: HealthTraumaData


class InitiativeTestRolled(Event, tag="HTInitiativeTestRolled"):
    """A character's own Initiative Test, kept for the GM's next RollInitiative."""

    roll: InitiativeRoll

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.all_dice


class ActionTaken(Event, tag="HTActionTaken"):
    """An action taken; ``weapon``: the weapon it drew, now the readied one."""

    combatant_id: CombatantId
    action: str
    size: Size
    weapon: str | None = None


class AttackDeclared(Event, tag="HTAttackDeclared"):
    """An attack begins (its part of the turn spent); it waits while the target may react."""

    combatant_id: CombatantId
    target: CombatantId
    weapon: str
    distance: int
    size: Size


class Reacted(Event, tag="HTReacted"):
    window: str
    combatant_id: CombatantId
    reaction: str


class AttackRolled(Event, tag="HTAttackRolled"):
    """The opposed test and, on a hit, the weapon's Damage less the target's Protection."""

    combatant_id: CombatantId
    target: CombatantId
    weapon: str
    attack_die: DieRoll
    # totals with a sheet's values in them: a player sees an NPC's only as the hit or miss
    attack_total: SheetValue[int, "combatant_id"]
    guard_total: SheetValue[int, "target"]
    hit: bool
    defence_die: DieRoll | None = None
    damage_dice: list[DieRoll] = []
    rolled_damage: int = 0
    protection: SheetValue[int, "target"] = 0
    damage: int = 0
    reaction: str | None = None  # the target's Reaction, if it took one

    def dice_rolled(self) -> list[DieRoll]:
        return [self.attack_die, *([self.defence_die] if self.defence_die else []), *self.damage_dice]


class Harmed(Event, tag="HTHarmed"):
    """``damage`` reduced health to ``health``; ``trauma``: gained for damage taken while dying;
    ``dying``: now put into the dying state (an injury roll is due). An NPC's Health is the GM's
    (at full it is five plus its Physique): the table sees the damage and the wound level."""

    combatant_id: CombatantId
    damage: int
    health: SheetValue[int, "combatant_id"]
    cause: str
    trauma: int = 0
    dying: bool = False


class SaveRolled(Event):
    """A save "vs" a number: 1D``save_die`` + the sheet's save bonus - penalty, passed above ``vs``
    (ours: the text never says what MSvs and BSvs roll). The total holds an NPC's save bonus."""

    combatant_id: CombatantId
    die: DieRoll
    vs: int
    total: SheetValue[int, "combatant_id"]
    passed: bool

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class GutWoundSave(SaveRolled, tag="HTGutWoundSave"):
    """The gut wound's "BSvs Damage Taken": a Trauma on a failure."""


class InjuryRolled(Event, tag="HTInjuryRolled"):
    """1D10 + 5 for each injury had, read on the chart; a maimed part (1D6) and its removal (3 + 1D3 Trauma)."""

    combatant_id: CombatantId
    die: DieRoll
    injuries_had: int
    total: int
    result: str
    penalty: int = 0
    coma: bool = False
    part_die: DieRoll | None = None
    part: str | None = None
    removed: bool = False
    removal_die: DieRoll | None = None
    trauma: int = 0

    def dice_rolled(self) -> list[DieRoll]:
        return [d for d in (self.die, self.part_die, self.removal_die) if d is not None]


class FearSaveDue(Event, tag="HTFearSaveDue"):
    """A reeling character's turn starts: "they must take a Fear MSvs" before they act."""

    combatant_id: CombatantId


class FearSave(SaveRolled, tag="HTFearSave"):
    """The reeling result's "Fear MSvs Trauma" at the start of a turn: Stunned on a failure, ended on a success."""


class Died(Event, tag="HTDied"):
    """Death: ``cause`` "trauma" (Trauma equal to or above maximum Health) or "mortal_blow"."""

    combatant_id: CombatantId
    cause: str


class Healed(Event, tag="HTHealed"):
    combatant_id: CombatantId
    amount: int
    health: SheetValue[int, "combatant_id"]  # an NPC's is the GM's, as in Harmed
    dice: list[DieRoll] = []
    revived: bool = False  # no longer dying: health above 0

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class Stabilised(Event, tag="HTStabilised"):
    combatant_id: CombatantId


class WoundTreated(Event, tag="HTWoundTreated"):
    combatant_id: CombatantId


class Recuperated(Event, tag="HTRecuperated"):
    combatant_id: CombatantId


EVENTS = (RulesSet, InitiativeTestRolled, ActionTaken, AttackDeclared, Reacted, AttackRolled, Harmed, GutWoundSave, InjuryRolled,
          FearSaveDue, FearSave, Died, Healed, Stabilised, WoundTreated, Recuperated)
