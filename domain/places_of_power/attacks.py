"""The attack exchange: declared, rolled, (critical effect,) extra Successes spent, defended,
armour, Hits. Every step is an event; the state says who must decide what next.

The steps of one exchange (``Exchange.stage``):

- ``critical``: the attack is a Critical Success; the attacker picks its addition.
- ``spend``: the attacker spends the extra Successes on Damage or Precision.
- ``defence``: the defender picks a defence (or armour, or takes it).
- ``riposte``: a Parry beat the attack by a level: the attacker takes the Riposte's Hit on
  their armour or not.
- ``mishap``: a Critical Miss; the GM picks or rolls the D6 mishap.

The GM may send any step for any combatant (a player who left): the event records it as
the GM's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from typing import Annotated, Any, Literal, get_args

import msgspec

from domain.core.concerns import CombatantId, EventRef
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power import loading
from domain.places_of_power.armour import ArmourPiece, take_on_armour
from domain.places_of_power.marks import skill_marks
from domain.places_of_power.checks import DIFFICULTIES, dice_for, harder, judge
from domain.places_of_power.harm import PenaltyPayment, apply_penalties, take_hits
from domain.places_of_power.armour import helmet_sacrifice
from domain.places_of_power.grapples import GrappleEnded, cost_only, penalty_owed
from domain.places_of_power.sheet import CONDITION_OF, Condition, sides
from domain.places_of_power.movement import knock_back
from domain.places_of_power.pulling import PULL_COST, PullYourPunch
from domain.places_of_power.statuses import has, status
from domain.places_of_power.table import can_act, replace, rules, sheet, with_rules, with_sheet
from domain.places_of_power.table import spend as pay_action_points
from domain.places_of_power.weapons import UNARMED, Weapon, at_range, extra_successes, spend_successes

AttackKind = Literal["LightMelee", "HeavyMelee", "Ranged"]
Modifier = Literal["TargetedHit", "Steady", "Knockdown"]
Aim = Literal["body", "head", "unarmoured"]
Defence = Literal["Evade", "Parry", "Dive", "Tank", "HumanShield", "HelmetSacrifice", "Armour", "TakeIt"]
CriticalEffect = Literal[
    "UnavoidableHit", "BypassArmour", "Knockdown", "Knockback", "Disarm", "InflictCondition",
    "ForceMoraleCheck", "RefundActionPoint",
]
Penalties = Annotated[list[str], msgspec.Meta(max_length=4)]

# "Light Melee Attack (1 AP)", "Heavy Melee Attack (2 AP)", "Ranged Attack (1 AP)"
ATTACK_COST = {"LightMelee": 1, "HeavyMelee": 2, "Ranged": 1}
# "Targeted Hit Melee (1 AP)", "Targeted Hit Ranged (2 AP)", "Steady (1 AP)", "Knockdown (1 AP)"
MODIFIER_COST = {"Steady": 1, "Knockdown": 1}
# "Evade (1 AP)", "Parry (1 AP)", "Dive (2 AP)", "Tank (2 AP)", "Human Shield (2 AP)";
# "Taking a Hit on your armour does not, however, require you to spend Action Points"
DEFENCE_COST = {
    "Evade": 1, "Parry": 1, "Dive": 2, "Tank": 2, "HumanShield": 2, "HelmetSacrifice": 0, "Armour": 0, "TakeIt": 0,
}
ACTIVE = ("Evade", "Parry", "Dive")
FAR_ENOUGH = ("Near", "Far", "Long")  # "only if the attacker was at Near or greater range"
MISHAP_DIE = 6


class Choice(msgspec.Struct, kw_only=True):
    """A choice legal now, and what it costs in Action Points."""

    name: str
    action_points: int = 0


class Exchange(msgspec.Struct, kw_only=True):
    """An attack in progress. ``awaiting``: the combatant whose decision it is (the GM's for a
    mishap: ``"gm"``); ``choices``: what they may choose now."""

    id: int
    attacker: CombatantId
    defender: CombatantId
    attack: str
    weapon: str
    band: str
    gun: bool
    melee: bool
    modifiers: list[str]
    aim: str
    difficulty: str
    base_damage: int
    total: int
    outcome: str
    extra: int
    stage: str
    awaiting: CombatantId
    damage: int = 0
    defence_difficulty: str = ""
    critical: str | None = None
    blindsided: bool = False  # a Deafened defender attacked from behind: no active defence
    dice_sides: list[int] = msgspec.field(default_factory=list)  # the attack's dice (Pull your Punch re-rolls them)
    tried: list[str] = msgspec.field(default_factory=list)
    choices: list[Choice] = msgspec.field(default_factory=list)


# ------------------------------------------------------------------------- commands


class Attack(Command, tag="Attack"):
    """Attack a ``target`` with a weapon at hand (none: Unarmed, Brawling + Strength) at a range
    ``band``. ``modifiers`` cost extra AP; ``aim``: where a Targeted Hit aims (``unarmoured``:
    no armour save; ``head``: a ranged head shot). ``penalties``: how a Wounded or
    Afflicted attacker pays each Penalty Point. Reported dice: the Attribute die, then the
    weapon skill's die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    attack: AttackKind
    band: Literal["Melee", "Close", "Near", "Far", "Long"]
    weapon: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    modifiers: Annotated[list[Modifier], msgspec.Meta(max_length=3)] = msgspec.field(default_factory=list)
    aim: Aim = "body"
    penalties: Penalties = msgspec.field(default_factory=list)
    # Against an Exposed target: "All attacks made against you are performed at Advantage OR
    # gain an extra Hit of Base damage" - the attacker's pick.
    exposed: Literal["Advantage", "Damage"] = "Advantage"
    # The GM's call: the attacker is behind the target (a Deafened target "cannot mount an
    # active defence until after the first blow").
    from_behind: bool = False


class ChooseCriticalEffect(Command, tag="ChooseCriticalEffect"):
    """After a Critical Success on an attack, the attacker picks one addition
    (``condition``: which one, for InflictCondition)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attack: EventRef
    effect: CriticalEffect
    condition: Condition | None = None


class SpendSuccesses(Command, tag="SpendSuccesses"):
    """Spend each extra Success on ``Damage`` (+1 Hit) or ``Precision`` (+1 defence level)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attack: EventRef
    split: Annotated[list[Literal["Damage", "Precision"]], msgspec.Meta(max_length=5)]


class Defend(Command, tag="Defend"):
    """The defender answers an attack: an active defence (rolled), Tank, Human Shield, taking
    it on the armour, or taking it. Reported dice: the defence's two dice."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attack: EventRef
    defence: Defence
    penalties: Penalties = msgspec.field(default_factory=list)


class ResolveMishap(Command, tag="ResolveMishap"):
    """The GM settles a Critical Miss: a ``result`` of 1-6 from the table, or none to roll the D6."""

    attack: EventRef
    result: Annotated[int, msgspec.Meta(ge=1, le=6)] | None = None


class RegainBalance(Command, tag="RegainBalance"):
    """Spend an Action Point to regain your balance after mishap 2, so Evade, Parry and Dive are yours again.

    "2. You are left unbalanced and struggling to keep your feel. You can spend an Action Point
    to regain your balance, otherwise you cannot use Evade, Parry, or Dive for the rest of this
    round." Any time in that round, on your turn or when attacked. ``penalties``: how a
    Wounded or Afflicted combatant pays each Penalty Point (``IncreaseCost``)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    penalties: Penalties = msgspec.field(default_factory=list)


COMMANDS = (Attack, ChooseCriticalEffect, SpendSuccesses, Defend, ResolveMishap, RegainBalance)

# --------------------------------------------------------------------------- events


class AttackDeclared(Event, tag="AttackDeclared"):
    attack_id: EventRef
    attacker: CombatantId
    defender: CombatantId
    attack: str
    weapon: str
    band: str
    gun: bool
    melee: bool
    modifiers: list[str]
    aim: str
    difficulty: str
    base_damage: int
    action_points: int
    penalties: list[str] = msgspec.field(default_factory=list)
    from_behind: bool = False


class AttackRolled(Event, tag="AttackRolled"):
    attack_id: EventRef
    dice: list[DieRoll]
    total: int
    outcome: str
    extra: int

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class CriticalEffectChosen(Event, tag="CriticalEffectChosen"):
    attack_id: EventRef
    effect: str
    condition: str | None = None


class CriticalDowngraded(Event, tag="CriticalDowngraded"):
    """A Hero Point turned the incoming Critical Hit into a regular Hit."""

    attack_id: EventRef


class HelmetSacrificed(Event, tag="HelmetSacrificed"):
    attack_id: EventRef
    combatant_id: CombatantId
    pieces: list[ArmourPiece]


class SuccessesSpent(Event, tag="SuccessesSpent"):
    attack_id: EventRef
    split: list[str]
    damage: int
    defence_difficulty: str


class DefenceRolled(Event, tag="DefenceRolled"):
    attack_id: EventRef
    defender: CombatantId
    defence: str
    action_points: int
    dice: list[DieRoll] = msgspec.field(default_factory=list)
    total: int = 0
    difficulty: str = ""
    success: bool = False
    riposte: bool = False

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class ArmourTook(Event, tag="ArmourTook"):
    """The armour met the damage: ``pieces`` are the combatant's armour afterwards."""

    attack_id: EventRef
    combatant_id: CombatantId
    damage: int
    damage_through: int
    pieces: list[ArmourPiece]
    used: list[str]
    destroyed: list[str]


class HitsTaken(Event, tag="HitsTaken"):
    attack_id: EventRef
    combatant_id: CombatantId
    damage: int
    hits: int
    dead: bool
    helpless: bool
    injuries: int
    helpless_for_fight: bool


class KnockedProne(Event, tag="KnockedProne"):
    combatant_id: CombatantId
    reason: str


class MishapSuffered(Event, tag="MishapSuffered"):
    attack_id: EventRef
    combatant_id: CombatantId
    result: int
    die: DieRoll | None = None

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die] if self.die else []


class LethalBlow(Event, tag="LethalBlow"):
    """The Hits getting through would kill a target who failed to defend: the attacker may
    Pull their Punch (pull_your_punch.py) before they land."""

    attack_id: EventRef
    combatant_id: CombatantId
    damage: int


class ExchangeEnded(Event, tag="ExchangeEnded"):
    attack_id: EventRef
    result: str


class BalanceRegained(Event, tag="BalanceRegained"):
    """An Action Point spent to regain the balance mishap 2 took: Evade, Parry and Dive again."""

    combatant_id: CombatantId
    action_points: int


EVENTS = (
    AttackDeclared, AttackRolled, CriticalEffectChosen, SuccessesSpent, DefenceRolled, ArmourTook, HitsTaken,
    KnockedProne, MishapSuffered, ExchangeEnded, CriticalDowngraded, HelmetSacrificed, LethalBlow, BalanceRegained,
)


# ---------------------------------------------------------------------------- rules


def exchange(state: EncounterState, attack_id: int, combatant_id: str | None, stage: str) -> Exchange:
    """The exchange ``attack_id`` at ``stage``, awaiting ``combatant_id`` (None: anyone's GM)."""
    ex = rules(state).exchange
    if ex is None or ex.id != attack_id:
        raise RuleViolation("no_such_attack", f"No attack {attack_id} is waiting for a decision.")
    if ex.stage != stage:
        raise RuleViolation("not_this_step", f"Attack {attack_id} is waiting for {ex.stage}, not {stage}.",
                            stage=ex.stage)
    if combatant_id is not None and ex.awaiting != combatant_id:
        raise RuleViolation("not_your_decision", f"Attack {attack_id} waits for another combatant's decision.",
                            awaiting=ex.awaiting)
    return ex


def _weapon(c: Combatant, name: str | None) -> Weapon:
    if name is None:
        return UNARMED
    s = sheet(c)
    for w in s.weapons:
        if w.name == name and name not in s.dropped_weapons:
            return w
    raise RuleViolation("unknown_weapon", f"{c.name} has no {name} at hand.")


def _skill_die(c: Combatant, skill: str) -> int:
    die = sheet(c).skill_die(skill)
    if die is None:
        raise RuleViolation("unknown_skill", f"{c.name} has no skill “{skill}” on their sheet.", skill=skill)
    return sides(die)


def edges(c: Combatant, target: Combatant, exposed: str) -> tuple[bool, bool, int]:
    """What the two combatants' states give an attack by ``c`` on ``target``: Advantage,
    Disadvantage, extra Base Damage.

    Prone: "Prone targets are always attacked at Advantage"; Paralysed: "All attacks against
    you can be performed at Advantage"; Exposed: "All attacks made against you are performed at
    Advantage OR gain an extra Hit of Base damage" (``exposed``: the attacker's pick); Blinded:
    "All attacks are performed at Disadvantage"; Frightened: "Any attacks or checks against the
    source of your fear are performed at Disadvantage"."""
    is_exposed = has(target, "Exposed")
    advantage = sheet(target).prone or has(target, "Paralysed") or (is_exposed and exposed == "Advantage")
    fear = status(c, "Frightened")
    disadvantage = has(c, "Blinded") or (fear is not None and fear.source == target.id)
    return advantage, disadvantage, 1 if is_exposed and exposed == "Damage" else 0



def declare(ruleset: object, state: EncounterState, cmd: Attack, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    if rules(state).exchange is not None:
        raise RuleViolation("exchange_pending", "Another attack is still being resolved.")
    can_act(c)
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id:
        raise RuleViolation("invalid_target", "A combatant cannot attack themselves.")
    if sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} is already dead.")
    if cmd.aim != "body" and "TargetedHit" not in cmd.modifiers:
        raise RuleViolation("aim_needs_targeted_hit", f"Aiming at the {cmd.aim} needs a Targeted Hit.")
    weapon = _weapon(c, cmd.weapon)
    melee = cmd.attack != "Ranged"
    if (weapon.kind == "melee") != melee:
        raise RuleViolation("wrong_weapon", f"A {cmd.attack} attack needs a {'melee' if melee else 'ranged'} weapon.")
    if not melee:
        loading.check_loaded(c, weapon)
    at = at_range(weapon, cmd.band)
    cost = ATTACK_COST[cmd.attack] + sum(
        (1 if melee else 2) if m == "TargetedHit" else MODIFIER_COST[m] for m in dict.fromkeys(cmd.modifiers)
    )
    edge_for, edge_against, exposed_damage = edges(c, target, cmd.exposed)
    base = at.damage + (1 if cmd.attack == "HeavyMelee" else 0) + exposed_damage  # "Add 1 Hit to the base damage"
    s = sheet(c)
    advantage = "Steady" in cmd.modifiers or edge_for
    disadvantage = CONDITION_OF[weapon.attribute] in s.conditions or weapon.name in s.damaged_weapons or edge_against
    a, k = dice_for(sides(s.attribute_die(weapon.attribute)), _skill_die(c, weapon.skill), advantage, disadvantage)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty=at.difficulty, dice=(a, k), cost=cost,
                          base_damage=base)
    ruleset.spend_action_points(c, pay.cost, f"this {cmd.attack} attack")
    attack_id = state.version + 1
    rolled = [dice.roll(n, f"attack {attack_id}: {label}", c.id)
              for n, label in zip(pay.dice, (weapon.attribute.title(), "weapon skill"), strict=True)]
    outcome, levels = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    hit = outcome in ("Partial Success", "Full Success", "Critical Success")
    events: list[Event] = [
        AttackDeclared(
            attack_id=attack_id, attacker=c.id, defender=target.id, attack=cmd.attack, weapon=weapon.name,
            band=cmd.band, gun=weapon.gun, melee=melee, modifiers=list(dict.fromkeys(cmd.modifiers)), aim=cmd.aim,
            difficulty=pay.difficulty, base_damage=pay.base_damage, action_points=pay.cost,
            penalties=list(cmd.penalties), from_behind=cmd.from_behind,
        ),
        AttackRolled(attack_id=attack_id, dice=rolled, total=sum(d.face for d in rolled),
                     outcome="Critical Miss" if outcome == "Critical Failure" else outcome,
                     extra=extra_successes(sum(d.face for d in rolled), pay.difficulty) if hit else 0),
    ]
    events += skill_marks(c, weapon.skill, outcome)  # "mark the box next to the Skill you used"
    if outcome == "Failure":
        events.append(ExchangeEnded(attack_id=attack_id, result="missed"))
    return events


def choose_critical(state: EncounterState, cmd: ChooseCriticalEffect) -> list[Event]:
    exchange(state, cmd.attack, cmd.combatant_id, "critical")
    if (cmd.effect == "InflictCondition") != (cmd.condition is not None):
        raise RuleViolation("missing_detail", "InflictCondition names the `condition`; no other addition does.")
    return [CriticalEffectChosen(attack_id=cmd.attack, effect=cmd.effect, condition=cmd.condition)]


def spend(state: EncounterState, cmd: SpendSuccesses) -> list[Event]:
    ex = exchange(state, cmd.attack, cmd.combatant_id, "spend")
    damage, difficulty = spend_successes(ex.extra, list(cmd.split), ex.base_damage, ex.difficulty)
    return [SuccessesSpent(attack_id=ex.id, split=list(cmd.split), damage=damage, defence_difficulty=difficulty)]


def defend(ruleset: object, state: EncounterState, cmd: Defend, dice: Dice) -> list[Event]:
    ex = rules(state).exchange
    stage = ex.stage if ex is not None and ex.id == cmd.attack else "defence"
    ex = exchange(state, cmd.attack, cmd.combatant_id, "riposte" if stage == "riposte" else "defence")
    d = state.combatants[cmd.combatant_id]
    pay = judge_defence(ruleset, state, ex, d, cmd.defence, cmd.penalties)  # judged now, not when offered
    if stage == "riposte":
        return _land(state, ex, d, 1, cmd.defence == "Armour", "riposte", knockdown=False)
    if cmd.defence == "HelmetSacrifice":
        # "you may sacrifice your helmet entirely, and render yourself Prone, in order to
        # escape all incoming damage ... you may only do this once per combat"
        return [HelmetSacrificed(attack_id=ex.id, combatant_id=d.id, pieces=helmet_sacrifice(sheet(d).armour)),
                KnockedProne(combatant_id=d.id, reason="Helmet Sacrifice"),
                ExchangeEnded(attack_id=ex.id, result="helmet sacrificed")]
    if cmd.defence in ("Armour", "TakeIt"):
        return _land(state, ex, d, ex.damage, cmd.defence == "Armour", "hit")
    assert pay is not None
    if cmd.defence == "HumanShield":
        # "use them to defend against an incoming attack, causing them to take the damage
        # instead ... If the attack kills the grappled enemy then the grapple immediately ends."
        shield = state.combatants[_held_by(state, d.id)[0]]
        landed = _land(state, ex, shield, ex.damage, False, "shielded")
        events: list[Event] = [DefenceRolled(attack_id=ex.id, defender=d.id, defence="HumanShield",
                                             action_points=pay.cost, success=True)]
        if any(isinstance(e, HitsTaken) and e.dead for e in landed):
            events.append(GrappleEnded(controller=d.id, held=shield.id, reason="the held enemy was killed"))
        return events + landed
    if cmd.defence == "Tank":
        # "All incoming damage is reduced down to a single, unavoidable Hit. You cannot use
        # Armour to negate this final Hit."
        return [DefenceRolled(attack_id=ex.id, defender=d.id, defence="Tank", action_points=pay.cost, success=True),
                *_land(state, ex, d, min(ex.damage, 1), False, "tanked")]
    attribute, skill, _ = _defence_dice(ex, d, cmd.defence)
    assert pay.difficulty is not None
    rolled = [dice.roll(n, f"attack {ex.id}: {cmd.defence}, {label}", d.id)
              for n, label in zip(pay.dice, (attribute.title(), "weapon skill" if cmd.defence == "Parry" else skill),
                                  strict=True)]
    total = sum(r.face for r in rolled)
    success = total >= DIFFICULTIES[pay.difficulty]
    # "If you beat the required value by one or more Difficulty levels then that
    # constitutes a Repost"
    nxt = harder(pay.difficulty)
    riposte = cmd.defence == "Parry" and success and nxt is not None and total >= DIFFICULTIES[nxt]
    events = [DefenceRolled(
        attack_id=ex.id, defender=d.id, defence=cmd.defence, action_points=pay.cost, dice=rolled, total=total,
        difficulty=pay.difficulty, success=success, riposte=riposte,
    )]
    critical, _ = judge([r.face for r in rolled], [r.sides for r in rolled], pay.difficulty)
    events += skill_marks(d, skill, critical)  # a defence roll's Critical Success or Failure marks its Skill
    if cmd.defence == "Dive":  # "Whether successful or not, the player is rendered Prone"
        events.append(KnockedProne(combatant_id=d.id, reason="Dive"))
    if success and not riposte:
        events.append(ExchangeEnded(attack_id=ex.id, result="avoided"))
    return events


# The defences paid in Action Points (and so in Penalty Points); the rest are taking the blow.
PAID = ("Evade", "Parry", "Dive", "Tank", "HumanShield")


def judge_defence(ruleset: Any, state: EncounterState, ex: Exchange, d: Combatant, defence: str,
                  penalties: list[str]) -> PenaltyPayment | None:
    """The one check a defence passes, whether offered (``legal_choices``) or sent (``Defend``):
    the situation allows it (``_defences``), its dice can be rolled, and its Penalty Points and
    Action Points can be paid. Raises the refusal; returns what it pays (None: nothing)."""
    if defence not in _defences(state, ex, d):
        legal = [ch.name for ch in legal_choices(ruleset, state, ex)]
        raise RuleViolation(
            "defence_not_allowed",
            f"{defence} is not possible now; the choices are: {', '.join(legal) or 'none'}.",
            choices=legal,
        )
    return _pay_defence(ruleset, state, ex, d, defence, penalties, _penalty_owed(state, d, defence))


def _pay_defence(ruleset: Any, state: EncounterState, ex: Exchange, d: Combatant, defence: str,
                 penalties: Sequence[str], owed: int) -> PenaltyPayment | None:
    """What an allowed defence pays, refused if it cannot be paid (``judge_defence``)."""
    if defence not in PAID:
        return None
    sizes = () if defence in ("Tank", "HumanShield") else _defence_dice(ex, d, defence)[2]
    pay = apply_penalties(penalties, owed, difficulty=ex.defence_difficulty, dice=sizes,
                          cost=DEFENCE_COST[defence], base_damage=0)
    ruleset.spend_action_points(d, pay.cost, {"HumanShield": "Human Shield"}.get(defence, defence))
    return pay


def _penalty_owed(state: EncounterState, d: Combatant, defence: str) -> int:
    """A paid defence's Penalty Points (a Human Shield is the holder's own grapple move)."""
    return penalty_owed(state, d.id, grapple_move=defence == "HumanShield") if defence in PAID else 0


def _defence_dice(ex: Exchange, d: Combatant, defence: str) -> tuple[str, str, tuple[int, int]]:
    """What a rolled defence rolls: its Attribute, its Skill and their dice (Advantage against a
    Heavy attack, Disadvantage from a Condition or from parrying Prone)."""
    s = sheet(d)
    if defence == "Parry":
        weapon = next(w for w in s.weapons if w.kind == "melee" and w.name not in s.dropped_weapons)
        attribute, skill = "strength", weapon.skill
    else:
        attribute, skill = "agility", "Athletics"
    advantage = ex.attack == "HeavyMelee" and defence in ("Evade", "Parry")
    disadvantage = CONDITION_OF[attribute] in s.conditions or (defence == "Parry" and s.prone)
    return attribute, skill, dice_for(sides(s.attribute_die(attribute)), _skill_die(d, skill), advantage, disadvantage)


def _land(state: EncounterState, ex: Exchange, target: Combatant, damage: int, on_armour: bool, result: str,
          *, knockdown: bool = True, pullable: bool = True) -> list[Event]:
    """The Hits land on ``target``: through the armour if chosen, then the Hits."""
    events: list[Event] = []
    s = sheet(target)
    through = damage
    if on_armour:
        riposte = result == "riposte"  # a Riposte is a blade's Hit back: no gun shot, not aimed at the head
        worn = take_on_armour(s.armour, damage, gunshot=ex.gun and not riposte, head=ex.aim == "head" and not riposte)
        events.append(ArmourTook(attack_id=ex.id, combatant_id=target.id, damage=damage,
                                 damage_through=worn.damage_through, pieces=worn.pieces, used=worn.used,
                                 destroyed=worn.destroyed))
        through = worn.damage_through
    if pullable and result == "hit" and through > 0 and _pullable(state, ex, target, through):
        return [*events, LethalBlow(attack_id=ex.id, combatant_id=target.id, damage=through)]
    if through > 0:
        harm = take_hits(s.hits, through, is_player=target.controller == "player", injuries_before=s.injuries,
                         helpless_for_fight=s.helpless_for_fight)
        events.append(HitsTaken(attack_id=ex.id, combatant_id=target.id, damage=through, hits=harm.hits,
                                dead=harm.dead, helpless=harm.helpless, injuries=harm.injuries,
                                helpless_for_fight=harm.helpless_for_fight))
    # "If your attack is successful in landing a Hit, even if it is blocked by armour ...
    # your target is knocked down"
    if knockdown and ("Knockdown" in ex.modifiers or ex.critical == "Knockdown") and not s.prone:
        events.append(KnockedProne(combatant_id=target.id, reason="Knockdown"))
    events.append(ExchangeEnded(attack_id=ex.id, result=result))
    return events


def _pullable(state: EncounterState, ex: Exchange, target: Combatant, damage: int) -> bool:
    """"If you inflict enough damage on a target that the would be killed outright, and they
    fail to defend against it, you can choose to spend an extra Action Point to reduce that
    damage down to the point that they would be rendered Helpless instead." A target already
    Helpless has no Helpless to be left at; an attacker without an Action Point cannot pay."""
    s = sheet(target)
    if s.hits >= 4 or s.helpless_for_fight or ex.attacker not in state.combatants:
        return False
    harm = take_hits(s.hits, damage, is_player=target.controller == "player", injuries_before=s.injuries,
                     helpless_for_fight=s.helpless_for_fight)
    return harm.dead and state.combatants[ex.attacker].action_points >= 1


def mishap(state: EncounterState, cmd: ResolveMishap, dice: Dice) -> list[Event]:
    ex = exchange(state, cmd.attack, None, "mishap")
    die = None
    result = cmd.result
    if result is None:
        die = dice.roll(MISHAP_DIE, f"attack {ex.id}: Critical Miss")  # the GM rolls it
        result = die.face
    events: list[Event] = [MishapSuffered(attack_id=ex.id, combatant_id=ex.attacker, result=result, die=die)]
    if result == 4 and _shielded(state, ex.defender) and not sheet(state.combatants[ex.attacker]).prone:
        # "4. You crash into your opponent suffering the Weakened Condition. If they armed with
        # a shield then you also become Prone."
        events.append(KnockedProne(combatant_id=ex.attacker, reason="crashed into a shield"))
    return [*events, ExchangeEnded(attack_id=ex.id, result="critical miss")]


REGAIN_BALANCE_COST = 1  # "You can spend an Action Point to regain your balance"


def regain_balance(ruleset: object, state: EncounterState, cmd: RegainBalance) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    ruleset.require_active(state)
    c = ruleset.combatant(state, cmd.combatant_id)
    can_act(c)
    if not _off_balance(state, c):
        raise RuleViolation("not_off_balance", f"{c.name} has not lost their balance this round: there is none to "
                            "regain.")
    cost_only(cmd.penalties)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty="Normal", dice=(),
                          cost=REGAIN_BALANCE_COST, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, "regaining your balance")
    return [BalanceRegained(combatant_id=c.id, action_points=pay.cost)]


def _off_balance(state: EncounterState, c: Combatant) -> bool:
    """Mishap 2 this round: "you cannot use Evade, Parry, or Dive for the rest of this round"."""
    return sheet(c).off_balance_round == state.round and state.round > 0


def _balance_regained(state: EncounterState, event: BalanceRegained) -> EncounterState:
    return with_sheet(pay_action_points(state, event.combatant_id, event.action_points), event.combatant_id,
                      off_balance_round=0)


def _shielded(state: EncounterState, combatant_id: str) -> bool:
    """Armed with a shield: one at hand, not dropped."""
    c = state.combatants.get(combatant_id)
    if c is None:
        return False
    s = sheet(c)
    return any(w.shield and w.name not in s.dropped_weapons for w in s.weapons)


# The choices of the stages whose choices never vary, and each defence's (Choice values are
# never changed in place, so states share them).
FIXED_CHOICES: dict[str, tuple[Choice, ...]] = {
    "mishap": (*(Choice(name=str(n)) for n in range(1, 7)), Choice(name="roll")),
    "critical": tuple(Choice(name=e) for e in get_args(CriticalEffect)),
    "spend": (Choice(name="Damage"), Choice(name="Precision")),
    "pull": (Choice(name="PullYourPunch", action_points=1), Choice(name="LetItLand")),
}
DEFENCE_CHOICES: dict[str, Choice] = {n: Choice(name=n, action_points=cost) for n, cost in DEFENCE_COST.items()}


def legal_choices(ruleset: Any, state: EncounterState, ex: Exchange) -> list[Choice]:
    """What the awaited party may choose now, with its cost: a frontend renders these. A choice
    is offered when the command making it would be accepted now, by the same checks: the
    ruleset's gates (an Enemy's Set Actions, a fled or suppressed NPC, Paralysed, Staggered)
    and the stage's own rule (``judge_defence``, with some choice of Penalty Points)."""
    fixed = FIXED_CHOICES.get(ex.stage)
    if ex.stage == "pull":
        return [ch for ch in FIXED_CHOICES["pull"] if ch.name != "PullYourPunch" or _may_pull(ruleset, state, ex)]
    if fixed is not None:
        return list(fixed)
    target = state.combatants.get(ex.awaiting)
    if target is None or ex.stage not in ("defence", "riposte"):  # "rolling": within the Attack itself
        return []
    return [DEFENCE_CHOICES[n] for n in _defences(state, ex, target) if _may_defend(ruleset, state, ex, target, n)]


def with_choices(ruleset: Any, state: EncounterState) -> EncounterState:
    """The state with the exchange's ``choices`` as they are now (what changes a choice - a
    status, a grapple, Action Points - may come from any command): the state as it is shown
    (``Ruleset.shown``), not folded (every fold would pay for it)."""
    ex = rules(state).exchange
    if ex is None:
        return state
    choices = legal_choices(ruleset, state, ex)
    return state if choices == ex.choices else with_rules(state, exchange=replace(ex, choices=choices))


# Penalties one Penalty Point may be paid with on a defence (StepDownDie names each die).
PENALTY_OPTIONS = ("IncreaseDifficulty", "IncreaseCost", "ReduceDamage", "StepDownDie:0", "StepDownDie:1")


def _may_defend(ruleset: Any, state: EncounterState, ex: Exchange, d: Combatant, defence: str) -> bool:
    """Whether ``Defend`` with ``defence`` would be accepted now for some choice of Penalty
    Points (every multiset of penalties is tried: which ones pass does not depend on order)."""
    try:
        ruleset.check_gates(state, Defend(combatant_id=d.id, attack=ex.id, defence=defence))  # type: ignore[arg-type]
    except RuleViolation:
        return False
    owed = _penalty_owed(state, d, defence)
    for penalties in combinations_with_replacement(PENALTY_OPTIONS, owed):
        try:  # ``defence`` comes from _defences: judge_defence's first check is passed
            _pay_defence(ruleset, state, ex, d, defence, penalties, owed)
        except RuleViolation:
            continue
        return True
    return False


def _may_pull(ruleset: Any, state: EncounterState, ex: Exchange) -> bool:
    """Whether ``PullYourPunch`` (pulling it) would be accepted now: the gates, and its Action Point."""
    attacker = state.combatants.get(ex.attacker)
    if attacker is None:
        return False
    try:
        ruleset.check_gates(state, PullYourPunch(combatant_id=attacker.id, attack=ex.id))
        ruleset.spend_action_points(attacker, PULL_COST, "Pull your Punch")
    except RuleViolation:
        return False
    return True


def _defences(state: EncounterState, ex: Exchange, target: Combatant) -> list[str]:
    """The defences the situation allows ``target`` now, before paying for them: the armour
    and taking the blow, and the Defensive Actions the attack, the range and the defender's
    state leave open."""
    s = sheet(target)
    head = ex.aim == "head" and ex.stage != "riposte"
    has_armour = False
    for p in s.armour:
        if p.durability > 0 and (p.layer == "Helmet") == head:
            has_armour = True
            break
    if ex.stage == "riposte":
        return ["Armour", "TakeIt"] if has_armour else ["TakeIt"]
    helpless = s.hits >= 4 or s.helpless_for_fight or s.dead
    failed = bool(ex.tried) and any(t in ACTIVE for t in ex.tried)
    unavoidable = ex.critical == "UnavoidableHit"
    no_armour = ex.critical == "BypassArmour" or ("TargetedHit" in ex.modifiers and ex.aim == "unarmoured")
    off_balance = _off_balance(state, target)
    far = ex.band in FAR_ENOUGH
    if s.statuses:
        # Paralysed: "You cannot move or act"; Unconscious: "You cannot act at all."
        helpless = helpless or has(target, "Paralysed") or has(target, "Unconscious")
        # Staggered: "You can only perform a total of a single action per turn ... This applies to
        # both Offensive and Defensive actions": once it is spent, only the armour or the blow.
        staggered = status(target, "Staggered")
        helpless = helpless or (staggered is not None and bool(staggered.used))
    # Deafened: "If attacked from behind you cannot mount an active defence until after the
    # first blow": no Defensive Action at all (Tank and Human Shield included), nor a Helmet
    # Sacrifice; only the armour, or taking it.
    passive_only = helpless or ex.blindsided
    free_to_dodge = not (passive_only or failed or unavoidable or off_balance)
    holding = _held_by(state, target.id) if rules(state).grapples else []
    possible = []  # in the order of DEFENCE_COST
    if ex.melee and free_to_dodge:
        if not s.prone:
            possible.append("Evade")
        for w in s.weapons:
            if w.kind == "melee" and w.name not in s.dropped_weapons:
                possible.append("Parry")
                break
    if not ex.melee and far and free_to_dodge and not s.prone:
        possible.append("Dive")
    if (ex.melee or far) and not passive_only:
        if "Tank" not in ex.tried:
            possible.append("Tank")
        # "If you have successfully Grappled an enemy and are currently in control of the
        # grapple ... If this is used against a ranged attack then it can only be done if the
        # attacker was at Near or greater range."
        if holding and ex.attacker not in holding:
            possible.append("HumanShield")
    if (not ex.melee and head and not s.helmet_sacrificed and not passive_only
            and any(p.layer == "Helmet" and p.durability > 0 for p in s.armour)):
        possible.append("HelmetSacrifice")
    if has_armour and not no_armour:
        possible.append("Armour")
    possible.append("TakeIt")
    return possible


def _held_by(state: EncounterState, controller: str) -> list[str]:
    return [held for held, holder in rules(state).grapples.items() if holder == controller]


def _declared(state: EncounterState, event: AttackDeclared) -> EncounterState:
    ex = Exchange(
        id=event.attack_id, attacker=event.attacker, defender=event.defender, attack=event.attack,
        weapon=event.weapon, band=event.band, gun=event.gun, melee=event.melee, modifiers=event.modifiers,
        aim=event.aim, difficulty=event.difficulty, base_damage=event.base_damage, total=0, outcome="",
        extra=0, stage="rolling", awaiting=event.attacker,
    )
    deaf = status(state.combatants[event.defender], "Deafened") if event.from_behind else None
    if deaf is not None and not deaf.level:
        # "If attacked from behind you cannot mount an active defence until after the first blow."
        ex = replace(ex, blindsided=True)
        d = state.combatants[event.defender]
        state = with_sheet(state, d.id, statuses=[replace(x, level=1) if x.name == "Deafened" else x
                                                  for x in sheet(d).statuses])
    if not event.melee:  # the shot spends the load
        state = loading.fired(state, event.attacker, event.weapon)
    return _set(pay_action_points(state, event.attacker, event.action_points), ex)


def _rolled(state: EncounterState, event: AttackRolled) -> EncounterState:
    ex = _current(state)
    ex = replace(ex, total=event.total, outcome=event.outcome, extra=event.extra,
                 dice_sides=[d.sides for d in event.dice])
    if event.outcome == "Critical Miss":
        return _set(state, replace(ex, stage="mishap", awaiting="gm"))
    if event.outcome == "Critical Success":
        return _set(state, replace(ex, stage="critical", awaiting=ex.attacker))
    return _set(state, _after_roll(ex))


def _critical_chosen(state: EncounterState, event: CriticalEffectChosen) -> EncounterState:
    ex = replace(_current(state), critical=event.effect)
    d = sheet(state.combatants[ex.defender])
    if event.effect == "InflictCondition" and event.condition and event.condition not in d.conditions:
        state = with_sheet(state, ex.defender, conditions=[*d.conditions, event.condition])
    if event.effect == "Disarm":  # "The weapon your target is using is knocked from their hands"
        held = next((w.name for w in d.weapons if w.name not in d.dropped_weapons), None)
        if held is not None:
            state = with_sheet(state, ex.defender, dropped_weapons=[*d.dropped_weapons, held])
    if event.effect == "Knockback":
        state = knock_back(state, ex.attacker, ex.defender)
    if event.effect == "RefundActionPoint":  # "You gain back 1 Action Point."
        combatants = dict(state.combatants)
        c = combatants[ex.attacker]
        combatants[c.id] = replace(c, action_points=c.action_points + 1)
        state = replace(state, combatants=combatants)
    return _set(state, _after_roll(ex))


def _spent(state: EncounterState, event: SuccessesSpent) -> EncounterState:
    ex = _current(state)
    return _set(state, replace(ex, damage=event.damage, defence_difficulty=event.defence_difficulty,
                               stage="defence", awaiting=ex.defender))


def _defended(state: EncounterState, event: DefenceRolled) -> EncounterState:
    state = pay_action_points(state, event.defender, event.action_points)
    ex = _current(state)
    ex = replace(ex, tried=[*ex.tried, event.defence])
    if event.riposte:
        ex = replace(ex, stage="riposte", awaiting=ex.attacker, damage=1)
    return _set(state, ex)


def _hits_taken(state: EncounterState, event: HitsTaken) -> EncounterState:
    s = sheet(state.combatants[event.combatant_id])
    return with_sheet(state, event.combatant_id, hits=min(event.hits, 20), dead=event.dead,
                      injuries=event.injuries, helpless_for_fight=event.helpless_for_fight or s.helpless_for_fight)


def _lethal_blow(state: EncounterState, event: LethalBlow) -> EncounterState:
    return _set(state, replace(_current(state), stage="pull", awaiting=_current(state).attacker,
                               damage=event.damage))


# How each event of the exchange changes the state.
EVOLVES: dict[type[Event], Callable[[EncounterState, Any], EncounterState]] = {
    AttackDeclared: _declared,
    AttackRolled: _rolled,
    CriticalEffectChosen: _critical_chosen,
    SuccessesSpent: _spent,
    DefenceRolled: _defended,
    ArmourTook: lambda state, event: with_sheet(state, event.combatant_id, armour=list(event.pieces)),
    HelmetSacrificed: lambda state, event: with_sheet(state, event.combatant_id, armour=list(event.pieces),
                                                      helmet_sacrificed=True),
    CriticalDowngraded: lambda state, event: _set(state, replace(_current(state), critical=None)),
    HitsTaken: _hits_taken,
    KnockedProne: lambda state, event: with_sheet(state, event.combatant_id, prone=True),
    LethalBlow: _lethal_blow,
    MishapSuffered: lambda state, event: _mishap_effect(state, event),
    ExchangeEnded: lambda state, event: with_rules(state, exchange=None),
    BalanceRegained: _balance_regained,
}


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    step = EVOLVES.get(type(event))
    return None if step is None else step(state, event)


def _after_roll(ex: Exchange) -> Exchange:
    if ex.extra > 0:
        return replace(ex, stage="spend", awaiting=ex.attacker)
    return replace(ex, stage="defence", awaiting=ex.defender, damage=ex.base_damage, defence_difficulty=ex.difficulty)


def _current(state: EncounterState) -> Exchange:
    ex = rules(state).exchange
    assert ex is not None
    return ex


def _set(state: EncounterState, ex: Exchange) -> EncounterState:
    # its choices are worked out when the state is shown (with_choices)
    return with_rules(state, exchange=ex)


def _mishap_effect(state: EncounterState, event: MishapSuffered) -> EncounterState:
    """The Critical Miss table (melee). 4's extra Prone against a shield is its own event
    (``mishap`` adds a KnockedProne)."""
    ex = _current(state)
    cid = event.combatant_id
    s = sheet(state.combatants[cid])
    match event.result:
        case 1:  # "You lose your balance and end up Prone."
            return with_sheet(state, cid, prone=True)
        case 2:  # "you cannot use Evade, Parry, or Dive for the rest of this round"
            return with_sheet(state, cid, off_balance_round=state.round)
        case 3:  # "Your weapon slips from your fingers and slides across the floor"
            if ex.weapon == UNARMED.name or ex.attack == "Spell":
                return state
            return with_sheet(state, cid, dropped_weapons=[*s.dropped_weapons, ex.weapon])
        case 4:  # "You crash into your opponent suffering the Weakened Condition."
            if "Weakened" in s.conditions:
                return state
            return with_sheet(state, cid, conditions=[*s.conditions, "Weakened"])
        case 5:  # "Lose one Action Point. If you have already used all of your Action Points
            # this turn then gain one fewer Action Points at the start of the next turn."
            combatants = dict(state.combatants)
            c = combatants[cid]
            if c.action_points == 0:
                return with_sheet(state, cid, action_point_debt_round=state.round + 1)
            combatants[cid] = replace(c, action_points=c.action_points - 1)
            return replace(state, combatants=combatants)
        case _:  # 6: "All attacks made with this weapon are performed at a Disadvantage"
            if ex.weapon == UNARMED.name or ex.attack == "Spell":
                return state
            return with_sheet(state, cid, damaged_weapons=[*s.damaged_weapons, ex.weapon])
