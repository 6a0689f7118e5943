"""Novus' commands and events."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.core.concerns import CombatantId, SheetValue
from domain.core.dice import DieRoll
from domain.core.encounter import Command, Event, InitiativeRoll
from domain.core.settings import SettingsPatch
from domain.novus.actions import Action, CalledShot
from domain.novus.data import NovusData
from domain.novus.sheet import Stat

Points = Annotated[int, msgspec.Meta(ge=0, le=100)]

# ---------------------------------------------------------------- commands


class SetNovusRules(Command, tag="SetNovusRules"):
    """The GM sets the encounter's Novus settings (before or during the fight): the Combat Boons
    allowed, the Combat Moves (the Basic Dodge among them), which actions use which limb, the Simple
    and Complex actions and their AP, dying past helpless.
    See ``NovusData`` for which default is the publisher's and which is ours. ``data`` is a JSON
    Merge Patch of the current settings (domain/core/settings.py)."""

    settings_type = NovusData
    data: SettingsPatch


class SetHaste(Command, tag="NovusSetHaste"):
    """The GM Hastes a character (a spell, an item) or ends it: "a total of 10 AP for the round",
    from the next round on."""

    combatant_id: CombatantId
    hasted: bool = True


class SetMounted(Command, tag="NovusSetMounted"):
    """The GM says a character is mounted (or no longer): ``trained``, the mount is trained for combat
    (Mounted Combat's Riding roll: TN 18, not 23)."""

    combatant_id: CombatantId
    mounted: bool = True
    trained: bool = False


class SetSurprised(Command, tag="NovusSetSurprised"):
    """The GM names who is surprised, before the fight starts (the Surprise results table is the
    GM's: it was not found, novus-gaps U-N1): "-20 modifier to Initiative for the first round"."""

    surprised: list[CombatantId]


class Declare(Command, tag="NovusDeclare"):
    """Declare this round's actions, in turn from the lowest Initiative Point to the highest.
    ``defensive``: Fighting Defensively, the points shifted from the Attack Bonus of the melee
    weapon ``defensive_weapon`` (in hand) to DEF, +1 DEF for every 2, for the whole round."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    actions: list[Action] = []
    defensive: Points = 0
    defensive_weapon: str | None = None


class Resolve(Command, tag="NovusResolve"):
    """Resolve one's declared actions at one's Initiative Point (from the highest to the lowest)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class Cancel(Command, tag="NovusCancel"):
    """Cancel one's declared actions before they resolve, and perform ``instead`` at once (none:
    nothing): a melee attack at half AB, a move of up to 3 AP, another action at -5, an
    Instantaneous defensive spell, Counterspell, or a Dodge."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    instead: list[Action] = []


class Hold(Command, tag="NovusHold"):
    """Hold one's actions: before declaring, free; after declaring, 1 AP lost and the actions
    re-declared (NovusActHeld) within what is left, at any IP lower than one's own."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class ActHeld(Command, tag="NovusActHeld"):
    """Perform the held actions at an IP lower than one's own (after one's turn), declared anew
    (nothing: the hold lapses). ``ip`` (or ``at``, the combatant whose IP it is): the IP acted at;
    none: now. At the IP of the one due to resolve next, Opposed Saving Throws say who goes first
    (NovusRollOpposedSave); otherwise the actions resolve at once."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    actions: list[Action] = []
    defensive: Points = 0
    defensive_weapon: str | None = None
    ip: Annotated[int, msgspec.Meta(ge=-100, le=200)] | None = None
    at: CombatantId | None = None


class SpendBoons(Command, tag="NovusSpendBoons"):
    """Spend the Boon Points an attack earned, at once, on Boons the GM allows (none: forfeit them); a
    "2+" Boon (Attack Boost, Inspiring Attack) is named once for each Boon Point spent on it.
    ``lightning_target``: Lightning Attack's "another foe within range and sight" (range and sight are
    the table's: the engine keeps no positions); none: the same foe."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    boons: list[str] = []
    lightning_target: CombatantId | None = None


class RollStraySave(Command, tag="NovusRollStraySave"):
    """Firing into melee, missed: the next one near the path makes a Saving Throw vs Spd against the
    attack's total; a failure takes the Base Damage and a Scaled hit for each point it failed by."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class RollSave(Command, tag="NovusRollSave"):
    """A Saving Throw: 2d10 + the stat's bonus + 5 against ``tn`` (base 15)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    stat: Stat
    tn: Annotated[int, msgspec.Meta(ge=-100, le=200)] = 15


class RollSkill(Command, tag="NovusRollSkill"):
    """A skill roll (N2): 2d10 + the skill's total bonus (the sheet's; none: 0) against ``tn``: First
    Aid to stabilise oneself when helpless (TN 25, N22), a Riding roll, a Perception roll."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    skill: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    tn: Annotated[int, msgspec.Meta(ge=-100, le=200)] = 15


class RollGroupPerception(Command, tag="NovusRollGroupPerception"):
    """Surprise: "both groups are required to make a single perception roll, using the character with
    the highest skill bonus": one roll for ``side``, by its best at Perception (the GM then names who is
    surprised: the results table is missing, U-N1)."""

    side: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Heal(Command, tag="NovusHeal"):
    """The GM restores ``amount`` Hit Points (first aid, rest, a spell): never above the sheet's."""

    combatant_id: CombatantId
    amount: Annotated[int, msgspec.Meta(ge=-1000, le=1000)]


class Harm(Command, tag="NovusHarm"):
    """The GM deals ``amount`` hits outside an attack (a Bleeder, a fall), ``cause`` saying why."""

    combatant_id: CombatantId
    amount: Annotated[int, msgspec.Meta(ge=-1000, le=1000)]
    cause: Annotated[str, msgspec.Meta(max_length=100)] = "the GM"


COMMANDS = (SetNovusRules, SetHaste, SetMounted, SetSurprised, Declare, Resolve, Cancel, Hold, ActHeld, SpendBoons, RollStraySave,
            RollSave, RollSkill, RollGroupPerception, Heal, Harm)

# ------------------------------------------------------------------ events


class RulesSet(Event, tag="NovusRulesSet"):
    data: NovusData


class HasteSet(Event, tag="NovusHasteSet"):
    combatant_id: CombatantId
    hasted: bool


class MountedSet(Event, tag="NovusMountedSet"):
    combatant_id: CombatantId
    mounted: bool
    trained: bool = False


class RollMade(Event):
    """A roll of 2d10 (exploding, imploding: ``nova`` a Nova Roll) + a bonus off the roller's
    sheet: a skill, a save, a Riding roll. The fields every such event has."""

    combatant_id: CombatantId
    dice: list[DieRoll]
    rolled: int
    nova: bool
    bonus: SheetValue[int, "combatant_id"]
    total: SheetValue[int, "combatant_id"]

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class RidingRolled(RollMade, tag="NovusRidingRolled"):
    """A Riding skill roll, which costs no AP: each round a mounted character attacks (TN 23, 18 on a
    mount trained for combat), or a Mounted Charge's pace (TN 20, 25, 30 at 2x, 3x, 4x); a failure
    is "an additional -1 modifier to both his DEF and AB" this round."""

    tn: int
    passed: bool
    charge: bool = False


class SurpriseSet(Event, tag="NovusSurpriseSet"):
    surprised: list[CombatantId]


class ActionsDeclared(Event, tag="NovusActionsDeclared"):
    """``ap``: the AP the actions take this round; ``carried``: the AP of the last one that run into
    the next round (it "uses all of this round's AP"). Those of an action aimed at one hidden from the
    table when declared are apart, by its target (``ap_on``, ``carried_on``): a player or a spectator
    who does not see the target sees neither the action nor its AP (``total_ap``: all of them)."""

    combatant_id: CombatantId
    actions: list[Action]
    ap: int
    carried: int = 0
    defensive: int = 0
    defensive_weapon: str | None = None
    ap_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)
    carried_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)

    @property
    def total_ap(self) -> int:
        return self.ap + sum(self.ap_on.values())

    @property
    def total_carried(self) -> int:
        return self.carried + sum(self.carried_on.values())


class ActionHeld(Event, tag="NovusActionHeld"):
    """The character holds: ``refund`` AP of the actions declared come back, ``lost`` AP are lost
    (``refund_on``: those of actions aimed at one hidden from the table, by him, as ``ActionsDeclared``)."""

    combatant_id: CombatantId
    refund: int = 0
    lost: int = 0
    refund_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)

    @property
    def total_refund(self) -> int:
        return self.refund + sum(self.refund_on.values())


class HeldActionsTaken(Event, tag="NovusHeldActionsTaken"):
    """The held actions, declared anew now (``ap``), resolve at once; ``at``: taken at this one's IP,
    they wait for the Opposed Saving Throws that say who goes first."""

    combatant_id: CombatantId
    actions: list[Action]
    ap: int
    defensive: int = 0
    defensive_weapon: str | None = None
    at: CombatantId | None = None
    ap_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # those aimed at one hidden, by him

    @property
    def total_ap(self) -> int:
        return self.ap + sum(self.ap_on.values())


class ActionsCancelled(Event, tag="NovusActionsCancelled"):
    """The declared actions are cancelled (their ``refund`` AP back), ``instead`` performed now (``ap``);
    the AP of actions aimed at one hidden from the table apart, by him (``refund_on``, ``ap_on``)."""

    combatant_id: CombatantId
    instead: list[Action]
    refund: int
    ap: int
    refund_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)
    ap_on: dict[CombatantId, int] = msgspec.field(default_factory=dict)

    @property
    def total_refund(self) -> int:
        return self.refund + sum(self.refund_on.values())

    @property
    def total_ap(self) -> int:
        return self.ap + sum(self.ap_on.values())


class AttackRolled(Event, tag="NovusAttackRolled"):
    """2d10 + Attack Bonus against DEF; on a hit Base Damage + Scaled Damage (1 a point over DEF)
    less AR, and a Boon Point for every full 10 over. Totals off a sheet are that sheet's owner's:
    a player sees an NPC's only as the hit, the Scaled Damage and the damage."""

    combatant_id: CombatantId
    target: CombatantId
    weapon: str
    dice: list[DieRoll]
    rolled: int
    nova: bool
    attack_bonus: SheetValue[int, "combatant_id"]
    total: SheetValue[int, "combatant_id"]
    defence: SheetValue[int, "target"]
    hit: bool
    called_shot: CalledShot | None = None
    base_damage: SheetValue[int, "combatant_id"] = 0
    scaled: int = 0
    armour: SheetValue[int, "target"] = 0
    damage: int = 0
    boon_points: int = 0
    head_boon_points: int = 0  # only for Boons that impair judgement or consciousness
    instead: bool = False  # a cancelling action: "performed at the time that the old action was canceled"
    opportunity: bool = False  # an Opportunity Attack: "outside the normal initiative cycle"
    opportunity_more: int = 0  # the attacks still to come of the same Opportunity Attack ("any number of his attacks")
    stray_near: list[CombatantId] = []  # a missed shot into melee: who must save vs Spd, closest first
    charge: bool = False  # a Mounted Charge
    first: bool = False  # a longer weapon's attack in a Mounted Charge, "first, regardless of initiative order"
    blocked: bool = False  # stopped by the target's Block: no roll against DEF
    charge_damage: int = 0  # "an extra amount of damage equal to 15 times the pace of his mount"
    snag_points: int = 0  # an imploded roll that missed: Snag Points for the GM to spend at once
    snag: bool = False  # a Snag's "strike the nearest friend in range (new attack roll)"
    lightning: bool = False  # a Lightning Attack: "a second attack", bought with Boon Points
    move: str | None = None  # the Combat Move named (none: the Basic Melee Attack or Basic Shot)

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class BlockRolled(Event, tag="NovusBlockRolled"):
    """A Basic Block (N19): "roll your AB against TN 10 + the foe's AB. Both sides count only the AB
    not shifted to DEF"; ``stopped``: the attack is stopped."""

    combatant_id: CombatantId
    attacker: CombatantId
    dice: list[DieRoll]
    rolled: int
    nova: bool
    attack_bonus: SheetValue[int, "combatant_id"]
    total: SheetValue[int, "combatant_id"]
    tn: SheetValue[int, "attacker"]
    stopped: bool

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class BoonsSpent(Event, tag="NovusBoonsSpent"):
    """The Boons bought with an attack's Boon Points; ``damage``: the attack's damage with them."""

    combatant_id: CombatantId
    target: CombatantId
    boons: list[str]
    extra_damage: int
    damage: int


class Damaged(Event, tag="NovusDamaged"):
    """``damage`` hits taken; ``hit_points`` left (an NPC's are the GM's); ``helpless`` at 0 to -10."""

    combatant_id: CombatantId
    damage: int
    hit_points: SheetValue[int, "combatant_id"]
    cause: str
    helpless: bool = False
    dead: bool = False
    from_attack: bool = False  # the attack's own event counts it in the statistics


class Healed(Event, tag="NovusHealed"):
    combatant_id: CombatantId
    amount: int
    hit_points: SheetValue[int, "combatant_id"]


class ActionTaken(Event, tag="NovusActionTaken"):
    """A declared action other than an attack, performed (``lapsed``: its target is gone); a move's
    ``reach``: how far (feet) each Control Zone it names reaches, those it goes through, then those it leaves."""

    combatant_id: CombatantId
    action: Action
    lapsed: bool = False
    reach: list[int] = []


class ActionsResolved(Event, tag="NovusActionsResolved"):
    """Every declared action of the character is resolved for this round."""

    combatant_id: CombatantId


class LateAttacksResolved(Event, tag="NovusLateAttacksResolved"):
    """The character's remaining attacks, made at the end of the round, are resolved."""

    combatant_id: CombatantId


class LateAttacksCancelled(Event, tag="NovusLateAttacksCancelled"):
    """"he may still cancel his remaining attacks"."""

    combatant_id: CombatantId


class InitiativeRerolled(Event, tag="NovusInitiativeRerolled"):
    """Reroll Initiative: "This new IP will be the character's IP for the remainder of the combat"."""

    roll: InitiativeRoll

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.all_dice


class StraySaveRolled(RollMade, tag="NovusStraySaveRolled"):
    """A Saving Throw vs Spd of one near the path of a missed shot into melee: the TN is the
    attacker's total; on a failure ``damage``: Base Damage + 1 a point failed by, less AR."""

    attacker: CombatantId
    tn: SheetValue[int, "attacker"]
    passed: bool
    damage: int = 0


class SkillRolled(RollMade, tag="NovusSkillRolled"):
    """A skill roll; ``group``: the side a group Perception roll was made for."""

    skill: str
    tn: int | None = None
    passed: bool | None = None
    group: str | None = None


class DisarmSaveRolled(RollMade, tag="NovusDisarmSaveRolled"):
    """Basic Disarm (N19): "on a hit the foe saves vs Str at TN 15 + 1 for every 5 points the roll beat
    DEF, or the weapon flies 1-10 ft" (``feet``, a d10, on a failure: the weapon is then disarmed)."""

    attacker: CombatantId
    weapon: str
    tn: int
    passed: bool
    feet: int = 0
    feet_dice: list[DieRoll] = []

    def dice_rolled(self) -> list[DieRoll]:
        return [*self.dice, *self.feet_dice]


class SaveRolled(RollMade, tag="NovusSaveRolled"):
    stat: Stat
    tn: int
    passed: bool


EVENTS = (RulesSet, HasteSet, MountedSet, RidingRolled, SurpriseSet, ActionsDeclared, ActionHeld, HeldActionsTaken, ActionsCancelled, AttackRolled, BlockRolled, BoonsSpent, Damaged,
          Healed, ActionTaken, ActionsResolved, LateAttacksResolved, LateAttacksCancelled, InitiativeRerolled, StraySaveRolled, SkillRolled, SaveRolled,
          DisarmSaveRolled)