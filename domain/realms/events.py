"""RealmsRPG's commands and events. Every field holding a combatant's id is a ``CombatantId``;
a total with a sheet's value in it is a ``SheetValue`` of that sheet's owner (a player sees an
NPC's only as the hit or miss)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId, SheetValue
from domain.core.dice import DieRoll
from domain.core.encounter import Command, Event
from domain.core.settings import SettingsPatch
from domain.realms.conditions import ConditionName
from domain.realms.data import RealmsRules
from domain.realms.sheet import Defence, Name, Target

# R1: the Action table's Actions and their AP (Basic, Quick and Free are one type for the
# Multiple Action Penalty)
ActionName = Literal["Basic Action", "Quick Action", "Free Action", "Movement", "Interaction", "Ability Roll",
                     "Skill Encounter Action", "Evade", "Brace", "Focus", "Search", "Overcome"]
ACTION_POINTS: dict[str, int] = {
    "Basic Action": 2, "Quick Action": 1, "Free Action": 0, "Movement": 1, "Interaction": 1, "Ability Roll": 1,
    "Skill Encounter Action": 2, "Evade": 1, "Brace": 1, "Focus": 1, "Search": 1, "Overcome": 1,
}
ONE_TYPE = frozenset({"Basic Action", "Quick Action", "Free Action"})
Bonus = Annotated[int, msgspec.Meta(ge=-50, le=50)]
Spaces = Annotated[int, msgspec.Meta(ge=0, le=1000)]

# ---------------------------------------------------------------- commands


class SetRealmsRules(Command, tag="SetRealmsRules"):
    """The RM sets the encounter's settings where the publisher's texts disagree (the Dying
    damage sequence), before or during the fight: see ``RealmsRules``. ``data`` is a JSON Merge
    Patch of the current settings (domain/core/settings.py)."""

    settings_type = RealmsRules
    data: SettingsPatch


class SetInitiative(Command, tag="SetInitiative"):
    """The RM's say on one creature's start of combat, before initiative is rolled: ``roll_with``
    the Ability or Skill its initiative adds (None: the sheet's, Acuity by default);
    ``surprised``: unaware of the impending attack; ``initiator``: it started the fight ("can
    take their first Action without spending any Action Points")."""

    combatant_id: CombatantId
    roll_with: Name | None = None
    surprised: bool = False
    initiator: bool = False


class Collateral(msgspec.Struct, frozen=True, kw_only=True):
    """Collateral Countering: a Power in effect the attack's roll may counter as well, with its original
    attack ``score`` and the ``energy`` spent on it (the RM's to give), and the ``part`` to end ("": all)."""

    score: Annotated[int, msgspec.Meta(ge=0, le=200)]
    energy: Annotated[int, msgspec.Meta(ge=0, le=500)] = 0
    part: Annotated[str, msgspec.Meta(max_length=100)] = ""


class Attack(Command, tag="RealmsAttack"):
    """Attack ``target`` at ``distance`` spaces with ``weapon`` (a weapon on the sheet, ``Unarmed``
    or ``Improvised``; default the first weapon) or ``power`` (a Power on the sheet, with its AP
    and Energy): a Basic Action (2 AP). ``off_hand``: the dual wielder's Quick Action attack;
    ``quick``: Unarmed Prowess's Quick Attack; ``thrown``: an improvised weapon thrown;
    ``non_lethal``: declared before dealing damage. Dice: the d20, then the damage dice."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    weapon: Name | None = None
    power: Name | None = None
    distance: Spaces = 1
    off_hand: bool = False
    quick: bool = False
    thrown: bool = False
    non_lethal: bool = False
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept
    # R11: "Attacks take −1 per level" of Obscurity: the level between attacker and target, the
    # attacker's claim (no map); Blinded and Invisible already make it Complete (4)
    obscurity: Annotated[int, msgspec.Meta(ge=0, le=4)] = 0
    # "If you use a Power without specifically intending to counter, but it may still affect the opposing
    # Power, you can use your roll to attempt to counter as well"
    collateral: Collateral | None = None


class TakeAction(Command, tag="RealmsTakeAction"):
    """Take an Action of the Action table. ``roll_with``: for one with a D20 roll (an Ability
    Roll, a Skill Encounter Action, a Search...), the Ability, Skill or Defence rolled, against
    ``against`` if the RM names a Score; ``spaces``: a Movement's spaces (at most the Speed);
    ``determination``: spend a Determination Die on the roll (R10: "Spending it re-rolls any roll,
    and you keep the result you prefer": the two d20s are rolled, the better kept)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    action: ActionName
    roll_with: Name | None = None
    against: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    spaces: Spaces = 0
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept
    split: bool = False  # an Evade split: R1 "+2 against each of several attacks in the next round"


class ImprovisedAction(Command, tag="RealmsImprovisedAction"):
    """The RM records an improvised Action at the cost the RM sets: "Improvised actions may have variable
    AP costs based on their complexity, as determined by the RM"."""

    combatant_id: CombatantId
    description: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    action_points: Annotated[int, msgspec.Meta(ge=0, le=8)]


class Heal(Command, tag="RealmsHeal"):
    """Healing (a Power, a potion, Medicine): ``amount``, or ``dice_count``d``dice_sides`` + ``bonus``.
    R20: "Healing restores Health up to the maximum; healing from a Power adds the healer's Power
    Bonus" (``healer``: the creature whose Power heals, its Power Bonus added); ``overheal``: the
    effect Overheals ("can go over the maximum, stacks, and lasts until damage would take you below
    the maximum or until a recovery"), the RM's to say of it."""

    combatant_id: CombatantId
    amount: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    dice_count: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    dice_sides: Annotated[int, msgspec.Meta(ge=2, le=20)] = 4
    bonus: Bonus = 0
    healer: CombatantId | None = None
    overheal: bool = False


class ChangeEnergy(Command, tag="RealmsChangeEnergy"):
    """An effect drains (``amount`` below 0) or restores (above 0) a creature's Energy, as the RM
    rules. R20: "If Energy drops below 0, the creature takes 1 damage per point below 0. Energy
    can't go below 0"; restoring stops at the maximum. (One's own Powers are refused beyond one's
    Energy: "you can't push your own Energy below 0".)"""

    combatant_id: CombatantId
    amount: Annotated[int, msgspec.Meta(ge=-1000, le=1000)]


class Recover(Command, tag="RealmsRecover"):
    """Rest, outside combat (R25): a ``partial`` recovery of ``blocks`` 2-hour blocks ("up to 6
    hours"), each giving back "¼ of maximum Health and ¼ of maximum Energy, or ½ of one of them"
    (``restore``); a ``full`` recovery (8-10 hours) "restores everything", and one level of
    Exhausted goes with it. A recovery ends Overheal."""

    combatant_id: CombatantId
    recovery: Literal["partial", "full"]
    blocks: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    restore: Literal["both", "health", "energy"] = "both"


class CounterInEffect(Command, tag="RealmsCounterInEffect"):
    """Countering a Power already in effect: "You can also attempt to end or dispel a Power that is
    already in effect by targeting its original attack score with your own Power" (``power``, one's own,
    at its AP and Energy, on one's turn or as a Reaction); ``score``: that original attack score and
    ``energy`` the Energy spent on it (the RM's, from the log: "Both sides add +1 to their roll or
    Score for every 5 energy spent"); ``part``: "only ... a specific part of an opponent's Power", as
    the RM rules. What ending it undoes is the RM's (RealmsRemoveCondition...). Dice: the d20."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    power: Name
    score: Annotated[int, msgspec.Meta(ge=0, le=100)]
    energy: Annotated[int, msgspec.Meta(ge=0, le=200)] = 0
    part: Annotated[str, msgspec.Meta(max_length=200)] = ""
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept


class SetDetermination(Command, tag="RealmsSetDetermination"):
    """The RM sets how many Determination Dice a creature holds (R10: "each character starts every
    session with one and can hold up to 3"; the encounter starts each player's creature with the
    ``determination_dice`` setting: a later fight of the session gives what is left): ``count``."""

    combatant_id: CombatantId
    count: Annotated[int, msgspec.Meta(ge=0, le=3)]


class Stabilise(Command, tag="RealmsStabilise"):
    """R22: "Medicine, bandages, potions, feats or any Healing Power (any amount of healing) stops
    the escalation"; the RM records it."""

    combatant_id: CombatantId


class ModifyRoll(Command, tag="RealmsModifyRoll"):
    """The RM's bonus or penalty to a creature's next d20 roll, for what the engine does not see (sight,
    a map, the situation): a Charmed creature's charmer "+2 on Charisma rolls ... against it", a Frightened
    creature's "−½ level while seeing it". R7: "A Bonus or Penalty applies to the roller only". ``amount``
    replaces one not yet spent (0: none); ``reason``: what it is for, told in the log."""

    combatant_id: CombatantId
    amount: Bonus
    reason: Annotated[str, msgspec.Meta(max_length=200)] = ""


class ApplyCondition(Command, tag="RealmsApplyCondition"):
    """The RM puts a condition on a creature (R24), ``level`` for a leveled one, and the Defence and
    Difficulty Score or Potency its End-of-Turn Overcome rolls against (none: not overcome by a
    roll), and for Charmed or Frightened its ``source``. "Conditions don't stack": a creature has each
    once; the RM's new one replaces the old."""

    combatant_id: CombatantId
    condition: ConditionName
    level: Annotated[int, msgspec.Meta(ge=1, le=20)] = 1
    defence: Defence | None = None
    score: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    source: CombatantId | None = None  # Charmed: the charmer; Frightened: the source of fear


class RemoveCondition(Command, tag="RealmsRemoveCondition"):
    """The RM ends a condition on a creature."""

    combatant_id: CombatantId
    condition: ConditionName


class Overcome(Command, tag="RealmsOvercome"):
    """The End-of-Turn Overcome: "roll each Defense that is being targeted by those conditions or
    effects. Each roll is compared against every relevant Difficulty Score or Potency affecting that
    Defense"; ``attempt`` "decline" lets them be; ``order``: the Defences in the order the player
    rolls them ("You may attempt to Overcome the effects in any order"). Dice: one d20 per Defence."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attempt: Literal["roll", "decline"] = "roll"
    order: list[Defence] | None = None
    determination: Defence | None = None  # R10: the Defence whose roll a Determination Die re-rolls


class PowerPart(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Power Part of an improvised Power: its Training Point cost (from the Codex), and whether the
    creature is proficient with it ("use half of those Parts' Training Point costs instead")."""

    name: Name
    cost: Annotated[int, msgspec.Meta(ge=0, le=100)]
    proficient: bool = False


class ImprovisePower(Command, tag="RealmsImprovisePower"):
    """Power Improvisation (2 AP): the creature describes a Power; "the RM ... will ultimately
    determine both the Difficulty Score of creating that Power and its Energy cost": the RM sends
    the Parts (the Difficulty Score is 10 + their costs) and the estimated ``energy``. Dice: the d20."""

    combatant_id: CombatantId
    description: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    parts: list[PowerPart]
    energy: Annotated[int, msgspec.Meta(ge=0, le=500)]
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept


class Grapple(Command, tag="RealmsGrapple"):
    """Grapple (2 AP): "make a Strength Unarmed Prowess attack to grab an opponent within your melee
    range, targeting their Might or Reflex"; ``damage``: "whether or not to deal unarmed damage, using
    Strength". Dice: the d20, then any damage dice."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    defence: Literal["might", "reflexes"] = "might"
    damage: bool = False
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept


class DealDamage(Command, tag="RealmsDealDamage"):
    """The RM deals damage the rules leave to them (an improvised Power's, a hazard's): ``amount`` or
    ``dice_count``d``dice_sides`` + ``bonus`` of ``damage_type``, reduced as an attack's would be."""

    combatant_id: CombatantId
    damage_type: Literal["magic", "fire", "ice", "lightning", "spiritual", "sonic", "poison", "necrotic", "acid",
                         "psychic", "light", "bludgeoning", "piercing", "slashing"] = "bludgeoning"
    amount: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    dice_count: Annotated[int, msgspec.Meta(ge=0, le=40)] = 0
    dice_sides: Annotated[int, msgspec.Meta(ge=2, le=20)] = 6
    bonus: Bonus = 0
    by: CombatantId | None = None
    non_lethal: bool = False


class CommandCompanion(Command, tag="RealmsCommand"):
    """Command (1 AP), the owner's Reaction: "command, control, or grant a turn to, a Companion" (at
    the start of its turn, or for its Reaction, which also gives its upcoming turn). Each further use
    in a round controls one AP less: "Second use. Control all Companions' available AP minus 1"."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    companion: CombatantId


class Prepare(Command, tag="RealmsPrepare"):
    """Prepared Actions: "prepare an Action to use as a Reaction later in the round by spending the
    Action Point cost for that Action on your turn. Specify what you will be reacting to and what the
    Action will be": an attack (its ``target``, weapon or Power, distance), paid now (AP and Energy), or
    another ``action`` of the Action table (with the ``roll_with`` and ``spaces`` it will take), paid
    its AP now."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    trigger: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    target: CombatantId | None = None
    weapon: Name | None = None
    power: Name | None = None
    distance: Spaces = 1
    action: ActionName | None = None
    roll_with: Name | None = None
    spaces: Spaces = 0


class UsePrepared(Command, tag="RealmsUsePrepared"):
    """Use the prepared attack or Action, as a Reaction ("even if the specified conditions aren't met, as
    long as it's a reasonable response"). Dice: as the attack's or the Action's roll."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class StealthHide(Command, tag="RealmsStealthHide"):
    """Stealth/Hide Action (2 AP; 1 AP on a turn one was Detected): "Make a Stealth or Hide Skill Roll,
    gaining +1 to the roll for each level of Obscurity you have from target creatures. If you're
    unobscured, the roll suffers a -4 penalty"; ``switch``: "spend 1 Action Point on your turn to switch
    from Hiding to Stealthing" (or back). Dice: the d20 (none for a switch)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    mode: Literal["stealth", "hide"] = "stealth"
    obscurity: Annotated[int, msgspec.Meta(ge=0, le=4)] = 1
    switch: bool = False
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept


class Detect(Command, tag="RealmsDetect"):
    """Detect (a Reaction: 0 AP, each further one in the round 1): "a Perceive roll against the revealed
    creature's Stealth or Hide Score"; ``search``: the Search Action on one's turn (1 AP). +3 once the
    hidden creature has attacked. Dice: the d20."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    search: bool = False
    determination: bool = False  # R10: spend a Determination Die: the d20 re-rolled, the better kept


class CoupDeGrace(Command, tag="RealmsCoupDeGrace"):
    """Coup de Grâce: "Whenever you attempt to attack a creature outside of Combat that is unconscious or
    asleep and within 1 space, you automatically hit and achieve a critical hit" (``asleep``: the RM
    says the target sleeps). Dice: the damage dice."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    weapon: Name | None = None
    asleep: bool = False


class Help(Command, tag="RealmsHelp"):
    """Help (1 AP, a Reaction): "add your Help Die to an ally's Ability or Skill roll; +1 AP if the task
    needs an Interaction"; the die from the helper's bonus in ``skill`` (an Ability or one of its Skills),
    added to the ally's next Ability or Skill roll this round. Dice: the Help Die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    ally: CombatantId
    skill: Name
    interaction: bool = False


COMMANDS = (SetRealmsRules, SetInitiative, Attack, TakeAction, ImprovisedAction, Heal, Stabilise, ApplyCondition,
            RemoveCondition, Overcome, ImprovisePower, Grapple, DealDamage, CommandCompanion, Prepare, UsePrepared,
            StealthHide, Detect, CoupDeGrace, Help, ChangeEnergy, Recover, SetDetermination, CounterInEffect,
            ModifyRoll)

# ------------------------------------------------------------------ events


class RulesSet(Event, tag="RealmsRulesSet"):
    data: RealmsRules


class InitiativeSet(Event, tag="RealmsInitiativeSet"):
    combatant_id: CombatantId
    roll_with: str | None = None
    surprised: bool = False
    initiator: bool = False


class ActionTaken(Event, tag="RealmsActionTaken"):
    """An Action and its AP (``free``: the initiator's first Action, or a free Interaction or
    Ability Roll); its D20 roll, if any, with the Multiple Action Penalty (``penalty``)."""

    combatant_id: CombatantId
    action: str
    action_points: int
    free: bool = False
    die: DieRoll | None = None
    roll_with: str | None = None
    penalty: int = 0
    total: SheetValue[int, "combatant_id"] | None = None
    against: int | None = None
    degrees: int | None = None  # Successes (positive) or Failures (negative) against ``against``
    partial: str | None = None  # U-R5: "partial success" or "partial failure" (the RM's setting)
    help: int = 0  # the Help Dice added
    spaces: int = 0
    description: str = ""
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept
    split: bool = False  # a split Evade: allotted to one attack each (the "Split Evade" Reaction)
    prepared: bool = False  # a prepared Action used as a Reaction (paid when it was prepared)

    def dice_rolled(self) -> list[DieRoll]:
        return [d for d in (self.die, self.discarded) if d is not None]


class AttackDeclared(Event, tag="RealmsAttackDeclared"):
    """An attack begins: its AP (and a Power's Energy) spent; it waits while its target may Dodge."""

    combatant_id: CombatantId
    target: CombatantId
    attack: str
    kind: str
    targets: Target
    distance: int
    action_points: int
    energy: int = 0
    free: bool = False
    penalty: int = 0  # the Multiple Action Penalty
    range_penalty: int = 0
    off_hand: bool = False
    quick: bool = False
    thrown: bool = False
    non_lethal: bool = False
    prepared: bool = False  # a Prepared Action's attack, paid for on one's turn
    determination: bool = False  # a Determination Die spent on the attack roll
    obscurity: int = 0  # the Obscurity level claimed between attacker and target (R11)
    collateral: Collateral | None = None  # a Power in effect the roll may counter as well


class Reacted(Event, tag="RealmsReacted"):
    """A Reaction to the attack waiting in ``window``, its AP and its roll (Weapon Block: an
    attack roll, the new Evasion; Shield Defense: a Strength attack roll against the attack's,
    then the Shield Die; Combination Attack: the Help Die; Counter Power: its AP and Energy)."""

    window: str
    combatant_id: CombatantId
    reaction: str
    action_points: int
    die: DieRoll | None = None
    total: SheetValue[int, "combatant_id"] | None = None
    shield_die: DieRoll | None = None
    energy: int = 0  # Counter Power: the Power's Energy
    help_die: DieRoll | None = None  # Combination Attack
    penalty: int = 0  # the Multiple Action Penalty of a Reaction's repeated D20 roll in the turn
    again: bool = False  # it may take another Reaction before the roll (the window still waits on it)

    def dice_rolled(self) -> list[DieRoll]:
        return [d for d in (self.die, self.shield_die, self.help_die) if d is not None]


class DefenceRolled(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One further Defence an attack targets: "the attacker will always roll to hit Evasion (if
    applicable), as well as roll against all (but one) of the targeted Defenses. The defending creature
    then rolls their untargeted Defense, typically against the attacker's Attack Score" (``roller``:
    who rolled; ``hit``: the attack's effect on it goes through)."""

    defence: str
    roller: CombatantId
    total: SheetValue[int, "roller"]
    score: int
    hit: bool
    die: DieRoll | None = None


class AttackRolled(Event, tag="RealmsAttackRolled"):
    """The Attack Roll against the Defence (``score``), and on a hit the damage dice (multiplied
    by the Critical Multiplier on a Critical Hit) plus the Attack Bonus (``damage``)."""

    combatant_id: CombatantId
    target: CombatantId
    attack: str
    targets: Target
    die: DieRoll | None  # None: an object, hit without a roll
    total: SheetValue[int, "combatant_id"]
    score: SheetValue[int, "target"]
    hit: bool
    critical: bool = False
    degrees: int = 0
    damage_dice: list[DieRoll] = []
    damage: SheetValue[int, "combatant_id"] = 0
    multiplier: int = 1
    help: int = 0  # the Combination Attacks' Help Dice, in the total and the damage
    counterer: CombatantId | None = None  # Counter Power: who rolled against the attack roll
    counter_die: DieRoll | None = None
    counter_total: SheetValue[int, "counterer"] | None = None
    countered: bool = False
    counter_penalty: int = 0  # the counterer's Multiple Action Penalty (a Counter Power rolled before this turn)
    defences: list[DefenceRolled] = []
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [*([self.die] if self.die else []), *([self.discarded] if self.discarded else []),
                *([self.counter_die] if self.counter_die else []),
                *[d.die for d in self.defences if d.die is not None], *self.damage_dice]


class Defended(Event, tag="RealmsDefended"):
    """The Defend reactions settle the attack: ``blocked`` (a Weapon Block's Evasion turned the
    hit into a miss), ``defender`` (a Body Shield stepped in: the attack is on them, double
    damage), ``shield``: a Shield Defense's reduction."""

    combatant_id: CombatantId
    target: CombatantId
    defender: CombatantId
    hit: bool
    blocked: bool = False
    shield: int = 0
    doubled: bool = False


class Harmed(Event, tag="RealmsHarmed"):
    """Damage taken: ``rolled`` before reductions, less the armour's (``armour``) and a shield's,
    then resistances; ``health`` after; ``dying``: enters Dying now (at 0 or below), ``dead`` at
    minus the maximum Health;
    ``unconscious``: a non-lethal attack's target instead; ``dice``: the Dying damage's."""

    combatant_id: CombatantId
    damage: int
    health: int
    cause: str
    by: CombatantId | None = None
    rolled: int = 0
    armour: SheetValue[int, "combatant_id"] = 0
    shield: int = 0
    resisted: str = ""
    dying: bool = False
    dead: bool = False
    unconscious: bool = False
    dice: list[DieRoll] = []
    brace: int = 0  # Brace: "reduce the next damage by Vitality" (its reduction)
    braced: bool = False  # the Brace spent on this damage

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class Healed(Event, tag="RealmsHealed"):
    """``bleed``: the Bleed levels the healing took away ("healing reduces Bleed by the amount healed
    but restores that much less Health"); ``overheal``: the Health it left above the maximum;
    ``power_bonus``: the healer's Power Bonus added."""

    combatant_id: CombatantId
    amount: int
    health: int
    bleed: int = 0
    overheal: int = 0
    power_bonus: int = 0
    dice: list[DieRoll] = []
    revived: bool = False  # above 0: no longer Dying
    exhausted: bool = False  # "When a dying character is stabilised or revived it gains 1 level of Exhausted"

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class Stabilised(Event, tag="RealmsStabilised"):
    combatant_id: CombatantId
    exhausted: bool = True


class ConditionApplied(Event, tag="RealmsConditionApplied"):
    """``replaced``: the condition it replaces (conditions don't stack); ``action_points``: a
    Stunned creature's AP after "lose level AP at once"."""

    combatant_id: CombatantId
    condition: str
    level: int = 1
    defence: str | None = None
    score: int | None = None
    replaced: str | None = None
    action_points: int | None = None
    source: CombatantId | None = None


class RollModified(Event, tag="RealmsRollModified"):
    """The RM's bonus or penalty waiting for the creature's next d20 roll (``ModifyRoll``)."""

    combatant_id: CombatantId
    amount: int
    reason: str = ""


class ConditionRemoved(Event, tag="RealmsConditionRemoved"):
    combatant_id: CombatantId
    condition: str


class OvercomeDue(Event, tag="RealmsOvercomeDue"):
    """The end of a turn: the creature may attempt to overcome its conditions, before gaining AP."""

    combatant_id: CombatantId


class OvercomeRoll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One Defence rolled: its total against each Score on it, and the conditions it overcame."""

    by: CombatantId
    defence: str
    die: DieRoll
    total: SheetValue[int, "by"]
    against: dict[str, int]
    overcome: list[str]


class Overcame(Event, tag="RealmsOvercame"):
    """The Overcome's rolls (``declined``: none taken); ``early``: the 1 AP Action earlier in the turn."""

    combatant_id: CombatantId
    rolls: list[OvercomeRoll] = []
    declined: bool = False
    early: bool = False
    discarded: DieRoll | None = None  # a Determination Die's re-roll of one Defence's roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [*[r.die for r in self.rolls], *([self.discarded] if self.discarded else [])]


class PowerImprovised(Event, tag="RealmsPowerImprovised"):
    """The Power Improvisation Roll against the Difficulty Score, its Successes or Failures, the
    Energy Multiplier (R3) and the final cost, rounded up; ``created``: False when the cost exceeds
    the Energy ("you simply fail to create the Power; retaining your Energy, but losing the Action")."""

    combatant_id: CombatantId
    description: str
    difficulty: int
    die: DieRoll
    total: SheetValue[int, "combatant_id"]
    degrees: int
    multiplier: str
    estimate: int
    energy: int
    created: bool
    action_points: int = 2
    reaction: bool = False  # "As a Basic Action or Reaction": outside one's turn, a Reaction
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class GrappleRolled(Event, tag="RealmsGrappleRolled"):
    """The grapple's Strength Unarmed Prowess attack against Might or Reflexes (with the size
    modifier): on a success the target is Grappled (escaping by Overcome, Might against the
    grappler's Strength Score)."""

    combatant_id: CombatantId
    target: CombatantId
    defence: str
    die: DieRoll
    total: SheetValue[int, "combatant_id"]
    score: SheetValue[int, "target"]
    size: int = 0
    penalty: int = 0
    action_points: int = 2
    hit: bool = False
    strength_score: SheetValue[int, "combatant_id"] = 0
    damage_dice: list[DieRoll] = []
    damage: SheetValue[int, "combatant_id"] = 0
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die, *([self.discarded] if self.discarded else []), *self.damage_dice]


class Commanded(Event, tag="RealmsCommanded"):
    """The owner's ``use``-th Command this round: the Companion acts this round with ``action_points``."""

    combatant_id: CombatantId
    companion: CombatantId
    use: int
    action_points: int


class Prepared(Event, tag="RealmsPrepared"):
    """An attack prepared, its AP and Energy spent now: "If you fail to utilize the prepared action you
    do not regain those spent resources"."""

    combatant_id: CombatantId
    trigger: str
    target: CombatantId | None
    attack: str  # the attack's weapon or Power ("": an Action)
    kind: str  # "martial", "power", or "action"
    distance: int
    action_points: int
    energy: int = 0
    free: bool = False
    action: str | None = None  # a prepared Action of the Action table, with its roll and spaces
    roll_with: str | None = None
    spaces: int = 0


class HidingRolled(Event, tag="RealmsHidingRolled"):
    """The Stealth or Hide roll: "You are Hidden from creatures whose Discernment score you surpass";
    ``switched``: a switch between Hiding and Stealthing (no roll); ``upkeep``: the 1 AP "to stay hidden"
    at the end of a later turn."""

    combatant_id: CombatantId
    mode: str
    action_points: int
    die: DieRoll | None = None
    total: SheetValue[int, "combatant_id"] | None = None
    obscurity: int = 0
    hidden_from: list[CombatantId] = []
    switched: bool = False
    upkeep: bool = False
    ended: bool = False  # no AP left to stay hidden: revealed
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [d for d in (self.die, self.discarded) if d is not None]


class Detected(Event, tag="RealmsDetected"):
    """A Detect or Search roll against the hidden creature's score (``bonus``: +3 after its attack)."""

    combatant_id: CombatantId
    target: CombatantId
    search: bool
    action_points: int
    die: DieRoll
    total: SheetValue[int, "combatant_id"]
    score: SheetValue[int, "target"]
    bonus: int = 0
    found: bool = False
    discarded: DieRoll | None = None  # a Determination Die's re-roll: the d20 not kept

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die, *([self.discarded] if self.discarded else [])]


class Helped(Event, tag="RealmsHelped"):
    combatant_id: CombatantId
    ally: CombatantId
    action_points: int
    die: DieRoll

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class EnergyChanged(Event, tag="RealmsEnergyChanged"):
    """Energy drained or restored: ``change`` as the effect had it, ``energy`` after (never below 0),
    ``below``: the points it would have gone below 0, each 1 damage (the ``Harmed`` that follows)."""

    combatant_id: CombatantId
    change: int
    energy: SheetValue[int, "combatant_id"]
    below: int = 0


class Recovered(Event, tag="RealmsRecovered"):
    """A recovery: Health and Energy after (Overheal ended), ``exhausted``: the Exhausted level left
    (a full recovery takes one away)."""

    combatant_id: CombatantId
    recovery: str
    health: SheetValue[int, "combatant_id"]
    energy: SheetValue[int, "combatant_id"]
    blocks: int = 0
    exhausted: int = 0


class CollateralCountered(Event, tag="RealmsCollateralCountered"):
    """Collateral Countering: the Power attack's own roll (+1 per 5 Energy of the Power) against a Power
    in effect's original attack score (+1 per 5 Energy spent on it); ``nullified`` if it exceeds it."""

    combatant_id: CombatantId
    power: str
    total: SheetValue[int, "combatant_id"]
    score: int
    nullified: bool
    part: str = ""


class CounteredInEffect(Event, tag="RealmsCounteredInEffect"):
    """A Power in effect countered: the counterer's Power attack roll (+1 per 5 Energy it spent)
    against the original attack score (+1 per 5 Energy spent on it); ``nullified`` if it exceeds it."""

    combatant_id: CombatantId
    power: str
    action_points: int
    energy: int
    die: DieRoll
    total: SheetValue[int, "combatant_id"]
    score: int
    nullified: bool
    part: str = ""
    discarded: DieRoll | None = None
    penalty: int = 0  # the Multiple Action Penalty (a Counter Power rolled before this turn)

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die, *([self.discarded] if self.discarded else [])]


class DeterminationSet(Event, tag="RealmsDeterminationSet"):
    combatant_id: CombatantId
    count: int


EVENTS = (RulesSet, InitiativeSet, ActionTaken, AttackDeclared, Reacted, AttackRolled, Defended, Harmed, Healed,
          Stabilised, ConditionApplied, ConditionRemoved, OvercomeDue, Overcame, PowerImprovised, GrappleRolled, Commanded, Prepared,
          HidingRolled, Detected, Helped, EnergyChanged, Recovered, DeterminationSet, CounteredInEffect,
          CollateralCountered, RollModified)
