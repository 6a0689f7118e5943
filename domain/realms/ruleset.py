"""The ``realms`` ruleset: the decider for shared/rules/realms-combat.txt, with the tables of
shared/rules/realms-gaps.md (R-numbers in the docstrings)."""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import Any

import msgspec

from domain.core import reactions
from domain.core.action_points import ActionPointBudget, TurnResetBudget
from domain.core.concerns import CombatantId
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.dice import Dice
from domain.core.durations import Boundary, Duration, has_run_out
from domain.core.encounter import (
    Combatant, CombatantRemoved, Command, EncounterState, EndTurn, Event, InitiativeRoll, InitiativeRolled, RoundStarted, TurnEnded,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import Entry, defeated_replaced, order_alternating_sides, surprised_last
from domain.core.log import Sentence, Wording
from domain.core.names import called_of
from domain.core.pending import Choice, Decision, Refusal
from domain.core.resources import Resource, Resources, held
from domain.core.ruleset import CommandInfo, Ruleset
from domain.core.tally import Exchange, Tally, attack_tallies, harm_tallies
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms import scores
from domain.realms.attacks import Profile, profile, range_penalty
from domain.realms.body import Body, Ready, Stealth, afflictions
from domain.realms.conditions import Affliction
from domain.realms.codes import OWN_CODES
from domain.realms.data import DEFAULT_RULES, RealmsRules
from domain.realms.events import (
    ACTION_POINTS, COMMANDS, EVENTS, ONE_TYPE, ActionTaken, ApplyCondition, Attack, AttackDeclared, AttackRolled,
    CommandCompanion, Commanded, CoupDeGrace, DefenceRolled, Detect, Help, Helped, Detected, HidingRolled, Prepare, Prepared, StealthHide, UsePrepared,
    ConditionApplied, ConditionRemoved, DealDamage, Defended, Grapple, GrappleRolled, Harmed, Heal, Healed,
    ImprovisedAction, ImprovisePower, InitiativeSet, Overcame, Overcome, OvercomeDue, OvercomeRoll, PowerImprovised,
    Reacted, RemoveCondition, RulesSet, SetInitiative, SetRealmsRules, Stabilise, Stabilised, TakeAction,
    ChangeEnergy, DeterminationSet, EnergyChanged, Recover, Recovered, SetDetermination, CounterInEffect,
    CounteredInEffect,
)
from domain.realms import recovery
from domain.realms.odds import AttackOdds, AttackOddsQuery, attack_odds
from domain.realms.sheet import ABILITIES, ARMOUR_IGNORES, DEFENCE_ABILITY, SIZES, RealmsSheet, half_up
from domain.realms.shown import VISIBLE, with_health_shown

replace = msgspec.structs.replace

AP = 4  # "your Action Points (AP) are set to 4"
FREE_INTERACTION = "free interaction"
FREE_ABILITY_ROLL = "free ability roll"
DODGE, SHIELD, BLOCK, BODY_SHIELD = "Dodge", "Shield Defense", "Weapon Block", "Body Shield"
SPLIT_EVADE = "Split Evade"  # allotting one split Evade to this attack (no AP: the Evade paid them)
COMBINATION, COUNTER = "Combination Attack", "Counter Power: "
MENTAL = frozenset({"mental_fortitude", "resolve", "discernment"})
WAITING = Refusal(code="realms_attack_waiting", message=OWN_CODES["realms_attack_waiting"])
OVERCOME_DUE = Refusal(code="realms_overcome_due", message=OWN_CODES["realms_overcome_due"])


class Start(msgspec.Struct, frozen=True, kw_only=True):
    """The RM's say on how a creature starts combat (``SetInitiative``)."""

    roll_with: str | None = None
    surprised: bool = False
    initiator: bool = False


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True):
    """An attack under way: declared (waiting on a Dodge), then rolled (waiting on Defend)."""

    window: str
    attacker: CombatantId
    target: CombatantId
    attack: str
    kind: str
    targets: str
    distance: int
    penalty: int = 0
    range_penalty: int = 0
    obscurity: int = 0
    off_hand: bool = False
    thrown: bool = False
    non_lethal: bool = False
    stage: str = "declared"
    dodge: int = 0
    total: int = 0
    score: int = 0
    hit: bool = False
    critical: bool = False
    damage: int = 0
    block: int | None = None
    shield: int = 0
    body_shield: CombatantId | None = None
    defenders: list[CombatantId] = []
    help: int = 0  # Combination Attacks' Help Dice
    counters: list[CombatantId] = []  # who counters the Power, the first rolling
    counter_energy: int = 0  # the Energy the counterers spent
    determination: bool = False  # the attacker spends a Determination Die on the roll
    taken: dict[CombatantId, list[str]] = {}  # the Reactions each creature took before the roll
    evade: int = 0  # a split Evade allotted to this attack


class RealmsState(msgspec.Struct, kw_only=True):
    """The ruleset's part of the state: the RM's settings, each creature's body and start of
    combat, whether the initiator has taken its free first Action, and an attack under way."""

    data: RealmsRules = DEFAULT_RULES
    bodies: dict[CombatantId, Body] = msgspec.field(default_factory=dict)
    starts: dict[CombatantId, Start] = msgspec.field(default_factory=dict)
    initiator_acted: bool = False
    attack: PendingAttack | None = None
    window: reactions.ReactionWindow | None = None


def rules(state: EncounterState) -> RealmsState:
    return state.rules


def body_of(state: EncounterState, cid: str) -> Body:
    return rules(state).bodies.get(cid) or Body()


def _seen_body(b: Body, hidden: frozenset[str]) -> Body:
    """A body as a viewer may see it: without a prepared attack on, or a hiding from, the hidden."""
    if b.prepared is not None and b.prepared.target in hidden:
        b = replace(b, prepared=None)
    if any(a.source in hidden for a in b.conditions.values() if a.source is not None):
        b = replace(b, conditions={k: replace(a, source=None) if a.source in hidden else a
                                   for k, a in b.conditions.items()})
    if b.stealth is not None and any(x in hidden for x in b.stealth.hidden_from):
        b = replace(b, stealth=replace(b.stealth, hidden_from=[x for x in b.stealth.hidden_from if x not in hidden]))
    return b


def _without(r: RealmsState, gone: frozenset[str]) -> RealmsState:
    """The ruleset's state with nothing of the ``gone`` creatures in it (hidden from a viewer, or
    taken out of the fight): an attack on one is dropped, one's attack is a creature unseen's, and
    nobody else's body names them."""
    attack, window = r.attack, r.window
    if attack is not None and attack.target in gone:
        attack, window = None, None
    elif attack is not None and attack.attacker in gone:
        attack, window = _unseen_attacker(attack, window)
    if attack is not None and (attack.body_shield in gone or any(d in gone for d in attack.defenders)
                               or any(d in gone for d in attack.counters)
                               or any(d in gone for d in attack.taken)):
        attack = replace(attack, body_shield=None if attack.body_shield in gone else attack.body_shield,
                         taken={k: v for k, v in attack.taken.items() if k not in gone},
                         defenders=[d for d in attack.defenders if d not in gone],
                         counters=[d for d in attack.counters if d not in gone])
    if window is not None:
        window = replace(window, may_react=tuple(c for c in window.may_react if c not in gone),
                         answers={k: v for k, v in window.answers.items() if k not in gone})
    kept = {k: _seen_body(v, gone) for k, v in r.bodies.items() if k not in gone}
    return replace(r, bodies=kept, starts={k: v for k, v in r.starts.items() if k not in gone},
                   attack=attack, window=window)


UNSEEN = ""  # who attacks, to a viewer the attacker is hidden from
UNSEEN_ATTACK = "an attack by a creature unseen"


def _unseen_attacker(a: PendingAttack, w: reactions.ReactionWindow | None,
                     ) -> tuple[PendingAttack, reactions.ReactionWindow | None]:
    """An attack by a creature hidden from the viewer, as the viewer may know it: that it comes, what
    it targets, whether a Power ("You can React to a Power you see or hear being used") and, once it
    would hit, its damage (Defend "can be done after knowing the damage"); not who makes it, with what,
    from where ("Hidden: ... location unknown"), nor its roll. Its Reactions are prompted from this."""
    a = replace(a, attacker=UNSEEN, attack="", distance=0, penalty=0, range_penalty=0, obscurity=0, total=0, help=0)
    if w is not None:
        w = replace(w, actor=UNSEEN, trigger=UNSEEN_ATTACK)
    return a, w


def is_companion(c: Combatant) -> bool:
    return c.sheet.companion_of is not None


class Realms(Ruleset):
    id = "realms"
    name = "RealmsRPG"
    sheet_type = RealmsSheet
    own_codes = OWN_CODES
    extra_commands = (*COMMANDS, *reactions.COMMANDS)
    extra_events = (*EVENTS, *reactions.EVENTS)
    rule_texts = {"combat": "realms-combat.txt"}
    after_fight_commands = (Heal, Stabilise, CoupDeGrace, ChangeEnergy, Recover, SetDetermination)
    odds_query = AttackOddsQuery
    odds_answer = AttackOdds
    odds_operation_id = "getRealmsAttackOdds"
    # players and spectators see an NPC's conditions, not its sheet (domain/realms/shown.py)
    visible_sheet_fields = VISIBLE

    def odds(self, query: AttackOddsQuery) -> AttackOdds:
        return attack_odds(query)

    # ------------------------------------------------------------ hooks

    def initial_rules(self) -> RealmsState:
        return RealmsState()

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        """"At the start of combat and the end of each of your turns, your Action Points (AP) are set to 4"."""
        return TurnResetBudget(maximum=AP, amount=AP)

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """"At the end of your turn you gain one free Interaction and one free Ability Roll Action
        to use during the round" (and at the start of combat, with the AP: our reading)."""
        return Resources((Resource(FREE_INTERACTION, 1, ("combat_start", "turn_end")),
                          Resource(FREE_ABILITY_ROLL, 1, ("combat_start", "turn_end"))))

    def wording(self) -> Wording:
        return Wording(points="AP")

    # ------------------------------------------------------------ initiative

    def _key(self, state: EncounterState, cid: str) -> tuple[int, int]:
        c = state.combatants[cid]
        return (c.initiative or 0, c.sheet.abilities.acuity)

    def _normal(self, state: EncounterState, order: list[str]) -> list[str]:
        """The order of play from ``order``: each side highest first (ties: higher Acuity, then as
        ``order`` has them: the RM's choice), sides alternating from the one with the highest roll;
        Companions after everyone, in ``order``'s order."""
        cs = state.combatants
        entries = [Entry(cid, self._key(state, cid)[0], i, cs[cid].side, tiebreak=self._key(state, cid)[1])
                   for i, cid in enumerate(order) if cid in cs and not is_companion(cs[cid])]
        return order_alternating_sides(entries) + [c for c in order if c in cs and is_companion(cs[c])]

    def _surprised(self, state: EncounterState) -> list[str]:
        return [cid for cid, s in rules(state).starts.items() if s.surprised and cid in state.combatants]

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """"each creature ... rolls a D20 and adds a bonus based on Acuity, a relevant Ability, or
        an appropriate Skill. Initiative order alternates between allies and enemies, starting with
        the side that has the highest individual roll. In the case of ties the creature with the
        higher Acuity goes first"; "During the first round of Combat, all surprised parties act
        after the opposing side has taken their turns"; Companions "act after all other Characters
        and Creatures" (by Acuity, until the players agree on an order: ``SetTurnOrder``)."""
        r = rules(state)
        rolled, totals = [], {}
        ranked = sorted(state.combatants.values(), key=lambda c: c.seq)
        for c in ranked:
            start = r.starts.get(c.id) or Start()
            bonus = c.sheet.bonus_of(start.roll_with or c.sheet.initiative)
            die = dice.roll(20, "initiative", c.id)
            rolled.append(InitiativeRoll(who=c.id, die=die, modifier=bonus, total=die.face + bonus))
            totals[c.id] = die.face + bonus
        entries = [Entry(c.id, totals[c.id], c.seq, c.side, tiebreak=c.sheet.abilities.acuity)
                   for c in ranked if not is_companion(c)]
        companions = sorted((c for c in ranked if is_companion(c)), key=lambda c: (-c.sheet.abilities.acuity, c.seq))
        order = order_alternating_sides(entries) + [c.id for c in companions]
        return InitiativeRolled(rolls=rolled, order=self._round_one(state, order, self._surprised(state)))

    def _round_one(self, state: EncounterState, order: list[str], surprised: list[str]) -> list[str]:
        """Round 1's order: the surprised after the others, the Companions still after everyone."""
        cs = state.combatants
        companions = [c for c in order if is_companion(cs[c])]
        return surprised_last([c for c in order if not is_companion(cs[c])], surprised, 1) + companions

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        """The RM (or the players) may settle ties ("if this is the same the Realm Master or players
        decide who goes first") and the Companions' order ("in any order the Players agree on"),
        nothing else: the order must be the rules' order with its ties broken some way."""
        surprised = self._surprised(state) if state.round <= 1 else []
        normal = self._normal(state, order)
        if self._round_one(state, normal, surprised) != order:
            raise RuleViolation("invalid_turn_order", "Only ties (equal rolls and equal Acuity) and the Companions' "
                                "order are the RM's to settle: sides alternate from the highest roll, highest "
                                "first, surprised parties after the others in round 1, Companions last.")

    def round_order(self, state: EncounterState) -> list[str] | None:
        """After round 1 "Subsequent rounds follow the normal initiative order"; "As creatures get
        defeated, all creature's initiative on their side move up to replace their position in the
        initiative order (unless it is in the first position). This is done at the beginning of the
        next round.\""""
        order = list(state.order)
        if state.round == 1 and self._surprised(state):
            order = self._normal(state, order)
        defeated = [c for c in order if body_of(state, c).dead]
        sides = {cid: c.side for cid, c in state.combatants.items()}
        return defeated_replaced(order, sides, defeated)

    # ------------------------------------------------------------ turns

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """A new turn: the Multiple Action Penalty counts afresh ("in a turn"), armour's reductions
        are back ("until the start of the next turn"), and one's own Evade, lasting "one round",
        runs out at the start of one's next turn."""
        r = rules(state)
        at = Boundary(kind="turn_start", round=state.round, combatant=combatant_id)
        out = {}
        for cid, b in r.bodies.items():
            changes: dict[str, Any] = {}
            if b.repeats:
                changes["repeats"] = {}
            if b.armour_uses:
                changes["armour_uses"] = 0
            if b.evade is not None and has_run_out(b.evade, at):
                changes.update(evade=None, split_evades=0, evade_split=False)
            if cid == combatant_id and (b.attacks or b.quick_attacked or b.off_hand_attacked or b.free_actions):
                changes.update(attacks=[], quick_attacked=False, off_hand_attacked=False, free_actions=0)
            if cid == combatant_id and b.prepared is not None:
                changes["prepared"] = None  # unused: "you do not regain those spent resources"
            out[cid] = replace(b, **changes) if changes else b
        return replace(state, rules=replace(r, bodies=out))

    def _end_turn(self, state: EncounterState, cmd: EndTurn) -> list[Event]:
        """R22: a Dying creature "gains only 1 AP at the end of each of its turns"; Stunned: "level
        fewer AP at the end of the turn, but never fewer than 1 gained"."""
        events = super()._end_turn(state, cmd)
        b = body_of(state, cmd.combatant_id)
        ap = 1 if b.dying else conds.turn_end_ap(AP, afflictions(b))
        if ap == AP:
            return events
        out: list[Event] = []
        for e in events:
            if isinstance(e, TurnEnded):
                e = replace(e, action_points=ap)
            elif isinstance(e, RoundStarted):
                e = replace(e, action_points={**e.action_points, cmd.combatant_id: ap})
            out.append(e)
        return out

    def at_turn_end(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """"At the end of your turn, before gaining Action Points, you may attempt to overcome each
        condition or effect currently affecting your Character": a decision, once a turn."""
        b = body_of(state, combatant_id)
        out: list[Event] = []
        if b.stealth is not None and b.stealth.free_round != state.round and not b.overcome_due:
            # "At the end of each turn (except the turn in which you first took this action), but before
            # your Action Points are renewed, you must spend 1 Action Point to stay hidden"
            c = state.combatants[combatant_id]
            upkeep = HidingRolled(combatant_id=c.id, mode=b.stealth.mode, action_points=1 if c.action_points else 0,
                                  upkeep=True, hidden_from=list(b.stealth.hidden_from), ended=not c.action_points)
            out.append(upkeep)
            state = self.evolve(state, upkeep)
            b = body_of(state, combatant_id)
        if b.dead or b.overcome_due or b.overcome_round == state.round or not self._to_overcome(b):
            return out
        return [*out, OvercomeDue(combatant_id=combatant_id)]

    @staticmethod
    def _to_overcome(b: Body) -> dict[str, list[tuple[str, int]]]:
        """The Scores on each Defence: (condition, Difficulty Score or Potency)."""
        out: dict[str, list[tuple[str, int]]] = {}
        for name, a in sorted(b.conditions.items()):
            if a.defence is not None and a.score is not None:
                out.setdefault(a.defence, []).append((name, a.score))
        return out

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """R22: "On each of its later turns a dying creature takes escalating damage" (1d4, 2d4,
        4d4 by the chapter; 1d4, 1d8, 2d8, 4d8 by the appendix: ``SetRealmsRules``), stopped once
        stabilised."""
        b = body_of(state, combatant_id)
        c = state.combatants.get(combatant_id)
        if c is None or b.dead:
            return []
        out: list[Event] = []
        bleed = conds.level(b.conditions, "bleed")
        if bleed:  # Bleed: "−1 Health at the start of the turn per level"
            out.append(self._harm(state, combatant_id, bleed, "bleed"))
            state = self.evolve(state, out[-1])
            b = body_of(state, combatant_id)
        if not b.dying or b.stabilised or b.dead:
            return out
        count, sides = rules(state).data.dying_step(b.dying_step)
        rolled = [dice.roll(sides, "dying damage", combatant_id) for _ in range(count)]
        return [*out, self._harm(state, combatant_id, sum(d.face for d in rolled), "dying", dice=rolled)]

    # ------------------------------------------------------ who must decide

    def pending(self, state: EncounterState) -> list[Decision]:
        r = rules(state)
        if state.status != "active":
            return []
        out = []
        for cid, b in r.bodies.items():
            if b.overcome_due and cid in state.combatants:
                out.append(Decision(
                    id=f"overcome:{cid}:{state.round}", kind="overcome", combatant_id=cid, command="RealmsOvercome",
                    body={"combatant_id": cid}, choice_field="attempt",
                    choices=(Choice(name="roll"), Choice(name="decline")), blocks_turn_end=True, refusal=OVERCOME_DUE,
                    summary="The end of your turn: roll each Defence your conditions target to overcome them, or "
                    "decline."))
        if r.window is None or r.window.settled:
            return out
        w = r.window
        for cid in w.waiting_on():
            if cid not in state.combatants:
                continue
            options = self._options(state, w, cid)
            if not options:  # nothing left to take (its AP spent, the Body Shield taken): it passes
                out.append(Decision(
                    id=f"reaction:{w.id}:{cid}", kind="reaction", combatant_id=cid, command="PassReaction",
                    body={"combatant_id": cid, "window": w.id}, blocks_turn_end=True, refusal=WAITING,
                    summary=f"Nothing to react to {w.trigger or 'the attack'} with: pass."))
                continue
            out.append(Decision(
                id=f"reaction:{w.id}:{cid}", kind="reaction", combatant_id=cid, command="React",
                body={"combatant_id": cid, "window": w.id}, choice_field="reaction",
                choices=tuple(Choice(name=o, action_points=self._reaction_cost(state.combatants[cid], o))
                              for o in options), blocks_turn_end=True,
                refusal=WAITING, summary=f"React to {w.trigger or 'the attack'} ({', '.join(options)}), "
                "or pass (PassReaction)."))
        return out

    @staticmethod
    def _reaction_cost(c: Combatant, reaction: str) -> int:
        """1 AP (R2), but Counter Power: "the same number of Action Points ... as you would normally spend";
        a split Evade is allotted without AP (the Evade Actions paid for it)."""
        if reaction == SPLIT_EVADE:
            return 0
        power = c.sheet.power(reaction.removeprefix(COUNTER)) if reaction.startswith(COUNTER) else None
        return power.action_points if power is not None else 1

    def _options(self, state: EncounterState, w: reactions.ReactionWindow, cid: str) -> tuple[str, ...]:
        """The Reactions ``cid`` may take in ``w``: a Dodge before the roll; once the attack would
        hit, Defend with a shield, a weapon with the Block property, or one's body (for an ally)."""
        c = state.combatants.get(cid)
        a = rules(state).attack
        if c is None or a is None or not self._can_react(state, cid):
            return ()
        if w.id.endswith(":roll"):
            return self._offered(w, tuple(o for o in self._before_roll(state, a, c)
                                          if self._reaction_cost(c, o) <= c.action_points))
        if c.action_points < 1:
            return ()
        out = []
        arms = not conds.restrained(body_of(state, cid).conditions)  # Restrained: none "that need the arms"
        if c.sheet.shield is not None and arms:
            out.append(SHIELD)
        if arms and a.targets == "evasion" and any(x.has("block") for x in c.sheet.weapons) \
                and c.sheet.proficient_with_property("block"):
            out.append(BLOCK)
        if cid != a.target and a.body_shield is None and a.targets == "evasion":
            out.append(BODY_SHIELD)
        return self._offered(w, tuple(out))

    @staticmethod
    def _offered(w: reactions.ReactionWindow, options: tuple[str, ...]) -> tuple[str, ...]:
        """Of ``options``, those the window was opened with (none a probe's: all)."""
        return tuple(o for o in options if o in w.reactions) if w.reactions else options

    def _before_roll(self, state: EncounterState, a: PendingAttack, c: Combatant) -> tuple[str, ...]:
        """Before the roll: the target's Dodge; an ally's Combination Attack ("When you can
        reasonably assist another Character's attack"); against a Power, Counter Power with a Power
        one can pay for ("spend the same number of Action Points and Energy as you would normally
        spend to use your Power")."""
        out = []
        taken = a.taken.get(c.id, [])
        if c.id == a.target and a.targets == "evasion" and not c.sheet.object and DODGE not in taken:
            out.append(DODGE)
        if c.id == a.target and a.targets == "evasion" and body_of(state, c.id).split_evades \
                and SPLIT_EVADE not in taken:
            out.append(SPLIT_EVADE)  # R1: "allocated before anyone rolls"
        attacker = state.combatants.get(a.attacker)  # None: hidden from the one asking
        if attacker is not None and c.id != a.attacker and c.side == attacker.side and c.id != a.target \
                and self._help_die(c) and COMBINATION not in taken:
            out.append(COMBINATION)
        # a hidden creature counters only a hidden one's Power (the RM reveals it first otherwise: the
        # attack's roll would name it)
        sees = c.id not in state.concealed or a.attacker in state.concealed
        if a.kind == "power" and c.id != a.attacker and c.id not in a.counters and sees:
            left = bodies.energy(c.sheet, body_of(state, c.id))
            out += [COUNTER + p.name for p in c.sheet.powers
                    if p.action_points <= c.action_points and p.energy <= left]
        return tuple(out)

    @staticmethod
    def _help_die(c: Combatant) -> int:
        """R12: "the Skill (or Attack) Bonus rounded up to an even number, as a die" (the creature's
        first weapon's Attack Bonus)."""
        try:
            return scores.help_die(profile(c.sheet, None, None).bonus)
        except RuleViolation:
            return 0

    @staticmethod
    def _reacted_by(state: EncounterState, cid: str) -> str:
        w = rules(state).window
        return w.answers.get(cid, "") if w is not None else ""

    def _can_react(self, state: EncounterState, cid: str) -> bool:
        b = body_of(state, cid)
        c = state.combatants[cid]
        if is_companion(c) and b.commanded_round != state.round:
            return False  # "When a trigger allows your Companion to take a reaction, you can use this reaction"
        return not (b.dead or b.unconscious or c.sheet.object) and conds.may_react(b.conditions)

    def _evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """One taken out of the fight leaves nothing behind: its body and start go, its attack and
        an attack on it are void, a grapple it held ends, and nobody's body names it (so one added
        again under the same id starts afresh)."""
        state = super()._evolve_removed(state, event)
        r, cid = rules(state), event.combatant_id
        if r.attack is not None and r.attack.attacker == cid:
            r = replace(r, attack=None, window=None)
        bodies = {k: replace(b, conditions={n: a for n, a in b.conditions.items() if not (n == "grappled" and a.source == cid)})
                  if conds.of_source(b.conditions, "grappled", cid) is not None else b for k, b in r.bodies.items()}
        return replace(state, rules=_without(replace(r, bodies=bodies), frozenset((cid,))))

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """An attack that waited only on the one taken out goes on."""
        return self._carry_on(state, dice)

    def command_info(self) -> list[CommandInfo]:
        return [CommandInfo(type=t.__struct_config__.tag, summary=(t.__doc__ or "").split("\n")[0],
                            action_points=2 if t is Attack else None,
                            who="player" if t.actor_field else "gm") for t in COMMANDS]

    # ---------------------------------------------------------- decider

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        r = rules(state)
        match command:
            case SetRealmsRules():
                return [RulesSet(data=command.data)]
            case SetInitiative():
                c = self.combatant(state, command.combatant_id)
                if state.initiative_rolled:
                    raise RuleViolation("realms_initiative_rolled", f"Initiative is already rolled: set how {c.name} "
                                        "starts combat before rolling it (roll again to change it).")
                if command.roll_with is not None and command.roll_with not in ABILITIES \
                        and command.roll_with not in c.sheet.skills:
                    raise RuleViolation("realms_unknown_roll", f"“{command.roll_with}” is neither an Ability nor "
                                        f"one of {c.name}'s Skills.")
                return [InitiativeSet(combatant_id=c.id, roll_with=command.roll_with, surprised=command.surprised,
                                      initiator=command.initiator)]
            case Heal():
                c = self.combatant(state, command.combatant_id)
                healer = self.combatant(state, command.healer) if command.healer is not None else None
                return [recovery.heal(c, body_of(state, c.id), command, dice, healer)]
            case ChangeEnergy():
                c = self.combatant(state, command.combatant_id)
                changed = recovery.change_energy(c, body_of(state, c.id), command)
                if not changed.below:
                    return [changed]
                # "the creature takes 1 damage per point below 0"
                return [changed, self._harm(self.evolve(state, changed), c.id, changed.below, "energy")]
            case Recover():
                c = self.combatant(state, command.combatant_id)
                if state.status == "active":
                    raise RuleViolation("realms_in_combat", f"{c.name} recovers by resting, outside of combat.")
                return [recovery.recover(c, body_of(state, c.id), command)]
            case SetDetermination():
                c = self.combatant(state, command.combatant_id)
                return [DeterminationSet(combatant_id=c.id, count=command.count)]
            case CoupDeGrace():
                return self._coup_de_grace(state, command, dice)
            case ApplyCondition():
                c = self.combatant(state, command.combatant_id)
                b = body_of(state, c.id)
                if b.dead:
                    raise RuleViolation("realms_dead", f"{c.name} is dead.")
                had = b.conditions.get(command.condition)
                level = command.level if command.condition in conds.LEVELED else 1
                source = command.source if command.condition in ("charmed", "frightened") else None
                if source is not None and (self.combatant(state, source).id == c.id):
                    raise RuleViolation("realms_not_a_target", f"{c.name} is not its own charmer or source of fear.")
                event = ConditionApplied(combatant_id=c.id, condition=command.condition, level=level, source=source,
                                         defence=command.defence, score=command.score,
                                         replaced=conds.words(command.condition, had) if had else None)
                if command.condition == "stunned" and state.status == "active":
                    before = conds.level(b.conditions, "stunned")  # "Durations don't stack", nor levels
                    event = replace(event, action_points=conds.stunned_ap(c.action_points, max(level - before, 0)))
                return [event]
            case RemoveCondition():
                c = self.combatant(state, command.combatant_id)
                if command.condition not in body_of(state, c.id).conditions:
                    raise RuleViolation("realms_no_condition", f"{c.name} is not {command.condition}.")
                return [ConditionRemoved(combatant_id=c.id, condition=command.condition)]
            case Stabilise():
                c = self.combatant(state, command.combatant_id)
                b = body_of(state, c.id)
                if b.dead:
                    raise RuleViolation("realms_dead", f"{c.name} is dead.")
                if not b.dying or b.stabilised:
                    raise RuleViolation("realms_not_dying", f"{c.name} is not Dying, or is already stabilised.")
                return [Stabilised(combatant_id=c.id)]
        self.require_active(state)
        match command:
            case Attack():
                return self._attack(state, command, dice)
            case TakeAction():
                return self._action(state, command, dice)
            case ImprovisePower():
                return [self._improvise(state, command, dice)]
            case CommandCompanion():
                return [self._command(state, command)]
            case Prepare():
                return [self._prepare(state, command)]
            case StealthHide():
                return [self._stealth(state, command, dice)]
            case Detect():
                return [self._detect(state, command, dice)]
            case Help():
                c = self.combatant(state, command.combatant_id)
                self._able(state, c)
                ally = self.combatant(state, command.ally)
                try:
                    bonus = self._bonus(c, command.skill)
                except RuleViolation:
                    bonus = 0
                die = scores.help_die(bonus)
                if ally.id == c.id or ally.side != c.side or not die:
                    raise RuleViolation("realms_no_help", f"{c.name} helps an ally, with a bonus of +1 or more in "
                                        f"{command.skill}.")
                cost = 2 if command.interaction else 1
                self.spend_action_points(c, cost, "the Help Reaction")
                return [Helped(combatant_id=c.id, ally=ally.id, action_points=cost,
                               die=dice.roll(die, "help die", c.id))]
            case UsePrepared():
                c = self.combatant(state, command.combatant_id)
                ready = body_of(state, c.id).prepared
                if ready is None:
                    raise RuleViolation("realms_nothing_prepared", f"{c.name} has no prepared Action.")
                attack = Attack(combatant_id=c.id, target=ready.target, weapon=ready.weapon, power=ready.power,
                                distance=ready.distance)
                return self._attack(state, attack, dice, prepared=True)
            case Grapple():
                return self._grapple(state, command, dice)
            case CounterInEffect():
                return [self._counter_in_effect(state, command, dice)]
            case DealDamage():
                c = self.combatant(state, command.combatant_id)
                if body_of(state, c.id).dead:
                    raise RuleViolation("realms_dead", f"{c.name} is dead.")
                if command.by is not None:
                    self.combatant(state, command.by)
                if (command.amount is None) == (command.dice_count == 0):
                    raise RuleViolation("realms_bad_amount", "Deal an amount, or dice to roll: one of them.")
                rolled = [dice.roll(command.dice_sides, "damage", command.by) for _ in range(command.dice_count)]
                amount = command.amount if command.amount is not None else max(sum(d.face for d in rolled) + command.bonus, 0)
                return [self._harm(state, c.id, amount, "rm", by=command.by, damage_type=command.damage_type,
                                   non_lethal=command.non_lethal, dice=rolled)]
            case Overcome():
                c = self.require_turn(state, command.combatant_id)
                b = body_of(state, c.id)
                if not b.overcome_due:
                    raise RuleViolation("realms_no_overcome_due", f"{c.name}'s End-of-Turn Overcome is not due: "
                                        "it comes as the turn ends (or take the Overcome Action for 1 AP).")
                if command.attempt == "decline":
                    return [Overcame(combatant_id=c.id, declined=True)]
                self._check_determination(state, c, command.determination is not None)
                return [self._overcome(state, c, command.order, dice, early=False, determination=command.determination)]
            case ImprovisedAction():
                c = self.require_turn(state, command.combatant_id)
                self._able(state, c)
                cost, free = self._cost(state, c, command.action_points)
                self.spend_action_points(c, cost, command.description)
                return [ActionTaken(combatant_id=c.id, action="Improvised Action", action_points=cost, free=free,
                                    description=command.description)]
            case reactions.React():
                return self._react(state, command, dice)
            case reactions.PassReaction():
                c = self.combatant(state, command.combatant_id)
                passed = reactions.decide_pass(r.window, command, c.name)
                return [passed, *self._carry_on(self.evolve(state, passed), dice)]
            case reactions.CloseReactions():
                closed = reactions.decide_close(r.window, command)
                return [closed, *self._carry_on(self.evolve(state, closed), dice)]
        return super().decide_action(state, command, dice)

    def _able(self, state: EncounterState, c: Combatant) -> Body:
        b = body_of(state, c.id)
        if b.dead:
            raise RuleViolation("realms_dead", f"{c.name} is dead.")
        if b.unconscious:
            raise RuleViolation("realms_unconscious", f"{c.name} is unconscious.")
        if is_companion(c) and b.commanded_round != state.round:
            raise RuleViolation("realms_not_commanded", f"{c.name} is a Companion: “you must use the Command "
                                "reaction at the start of its turn to control its actions for the turn”.")
        if rules(state).window is not None and not rules(state).window.settled:
            raise RuleViolation("realms_attack_waiting", OWN_CODES["realms_attack_waiting"])
        if b.overcome_due:  # the turn is ending: "At the end of your turn, before gaining Action Points"
            raise RuleViolation("realms_overcome_due", OWN_CODES["realms_overcome_due"])
        return b

    def _cost(self, state: EncounterState, c: Combatant, cost: int) -> tuple[int, bool]:
        """"The creature who initiates Combat can take their first Action without spending any
        Action Points"."""
        r = rules(state)
        start = r.starts.get(c.id)
        if start is not None and start.initiator and not r.initiator_acted:
            return 0, True
        return cost, False

    @staticmethod
    def _bonus(c: Combatant, name: str) -> int:
        sheet: RealmsSheet = c.sheet
        if name in ABILITIES:
            return sheet.abilities.of(name)
        if name in DEFENCE_ABILITY:
            return sheet.defence_bonus(name)
        if name in sheet.skills:
            return sheet.skills[name]
        raise RuleViolation("realms_unknown_roll", f"“{name}” is neither an Ability, a Defence nor one of "
                            f"{c.name}'s Skills.")

    def _roll(self, c: Combatant, name: str, dice: Dice, penalty: int, determination: bool = False,
              ) -> tuple[Any, int, Any]:
        bonus = self._bonus(c, name)
        die, discarded = self._d20(c, name, dice, determination)
        return die, die.face + scores.natural(die.face) + bonus + penalty, discarded

    @staticmethod
    def determination(state: EncounterState, c: Combatant) -> int:
        """R10: the Determination Dice ``c`` holds: "each character starts every session with one" (the
        encounter's ``determination_dice`` for a player's creature), as the RM set them since."""
        held_now = body_of(state, c.id).determination
        if held_now is not None:
            return held_now
        return rules(state).data.determination_dice if c.controller == "player" else 0

    def _check_determination(self, state: EncounterState, c: Combatant, spend: bool) -> None:
        if spend and self.determination(state, c) < 1:
            raise RuleViolation("realms_no_determination", f"{c.name} holds no Determination Die to spend.")

    @staticmethod
    def _d20(c: Combatant, purpose: str, dice: Dice, determination: bool) -> tuple[Any, Any]:
        """A d20 roll, and with a Determination Die its re-roll: "Spending it re-rolls any roll, and you
        keep the result you prefer" (the higher: every modifier is the same). The kept die, the other."""
        die = dice.roll(20, purpose, c.id)
        if not determination:
            return die, None
        again = dice.roll(20, f"{purpose} (Determination Die)", c.id)
        return (again, die) if again.face > die.face else (die, again)

    def _action(self, state: EncounterState, cmd: TakeAction, dice: Dice) -> list[Event]:
        r = rules(state)
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        action = cmd.action
        cost, free = self._cost(state, c, ACTION_POINTS[action])
        if not free:
            if action == "Free Action" and b.free_actions:
                cost = 1  # "each further Free Action in the same turn 1"
            kept = {"Interaction": FREE_INTERACTION, "Ability Roll": FREE_ABILITY_ROLL}.get(action)
            if kept and held(c).get(kept, 0) > 0:
                cost, free = 0, True  # "one free Interaction and one free Ability Roll Action"
        speed = conds.speed(c.sheet.movement, afflictions(b))
        if action == "Movement":
            speed = self._dragging(state, c, speed)
        if action == "Movement" and not 1 <= cmd.spaces <= speed:
            raise RuleViolation("realms_too_far", f"{c.name}'s Speed is {speed} spaces now: a Movement covers 1 to "
                                f"{speed}.", speed=speed)
        if action == "Movement" and b.stealth is not None and b.stealth.mode == "hide":
            raise RuleViolation("realms_hiding_immobile", f"{c.name} is Hiding: “While hiding, you remain immobile”.")
        if action == "Overcome" and (b.overcome_round == state.round or not self._to_overcome(b)):
            raise RuleViolation("realms_no_overcome_due", f"{c.name} has no condition to overcome with a roll now "
                                "(or has taken the Overcome this turn).")
        self._check_determination(state, c, cmd.determination and cmd.roll_with is not None)
        self.spend_action_points(c, cost, f"the {action}")
        event = ActionTaken(combatant_id=c.id, action=action, action_points=cost, free=free,
                            spaces=cmd.spaces if action == "Movement" else 0, split=cmd.split and action == "Evade")
        if cmd.roll_with is not None:
            kind = "action" if action in ONE_TYPE else action
            penalty = scores.repeat_penalty(b.repeats.get(kind, 0))
            helped = b.helped if b.helped_round == state.round else 0
            die, total, discarded = self._roll(c, cmd.roll_with, dice, penalty + conds.d20(afflictions(b)) + helped,
                                               cmd.determination)
            event = replace(event, die=die, roll_with=cmd.roll_with, penalty=penalty, total=total, help=helped,
                            against=cmd.against, discarded=discarded,
                            degrees=scores.degrees(total, cmd.against) if cmd.against is not None else None,
                            partial=r.data.partial(total, cmd.against) if cmd.against is not None else None)
        if action == "Overcome":
            # "You may spend 1 Action Point to take this action earlier in your turn instead of at the end"
            return [event, self._overcome(self.evolve(state, event), c, None, dice, early=True)]
        return [event]

    def _dragging(self, state: EncounterState, c: Combatant, speed: int) -> int:
        """Movement with Grapple: "Moving while grappling a target requires you to have enough Strength to
        drag at least half of their weight (+1 Strength per 200 kg), and it reduces your Speed by ½"
        (R14: rounded up). A weight not on the sheet is the RM's to judge."""
        held_ones = [cid for cid, b in rules(state).bodies.items() if cid in state.combatants
                     and conds.of_source(b.conditions, "grappled", c.id) is not None]
        if not held_ones:
            return speed
        for cid in held_ones:
            weight = state.combatants[cid].sheet.weight
            needed = ceil(weight / 2 / 200) if weight is not None else None
            if needed is not None and c.sheet.abilities.strength < needed:
                raise RuleViolation("realms_too_heavy", f"{c.name} needs Strength {needed} to drag "
                                    f"{called_of(state.combatants[cid])} (half of {weight} kg, +1 Strength per "
                                    "200 kg).")
        return half_up(speed)

    def _command(self, state: EncounterState, cmd: CommandCompanion) -> Commanded:
        """Command: "A Companion can only be Commanded once each round, and can not be granted additional
        AP through additional Command Reactions"; "Each time you use Command in a round, the number of
        action points (AP) available to control additional Companions is reduced"."""
        owner = self.combatant(state, cmd.combatant_id)
        pet = self.combatant(state, cmd.companion)
        b, pb = body_of(state, owner.id), body_of(state, pet.id)
        if b.dead or b.unconscious:
            raise RuleViolation("realms_dead" if b.dead else "realms_unconscious", f"{owner.name} cannot Command now.")
        if pet.sheet.companion_of != owner.id or pb.commanded_round == state.round or pb.dead:
            raise RuleViolation("realms_not_your_companion", f"{pet.name} is not {owner.name}'s Companion to Command "
                                "now (once each round).")
        self.spend_action_points(owner, 1, "the Command Reaction")
        use = (b.commands if b.command_round == state.round else 0) + 1
        return Commanded(combatant_id=owner.id, companion=pet.id, use=use,
                         action_points=max(pet.action_points - (use - 1), 0))

    def _coup_de_grace(self, state: EncounterState, cmd: CoupDeGrace, dice: Dice) -> list[Event]:
        """"you automatically hit and achieve a critical hit": the damage dice times the Critical Multiplier."""
        c, t = self.combatant(state, cmd.combatant_id), self.combatant(state, cmd.target)
        tb = body_of(state, t.id)
        if state.status == "active" or tb.dead or not (tb.unconscious or cmd.asleep) or t.id == c.id:
            raise RuleViolation("realms_no_coup_de_grace", f"A Coup de Grâce is outside of Combat, on a creature "
                                f"unconscious or asleep within 1 space ({called_of(t)} is not, or the fight is on).")
        p = profile(c.sheet, cmd.weapon, None, who=c.name)
        multiplier = scores.critical_multiplier(c.sheet.critical_multiplier, p.critical_multiplier)
        rolled = [dice.roll(p.sides, "damage", c.id) for _ in range(p.dice * multiplier)]
        damage = max(sum(d.face for d in rolled) + p.damage_bonus, 0)
        score = t.sheet.defence_score(p.targets)
        event = AttackRolled(combatant_id=c.id, target=t.id, attack=p.name, targets=p.targets,  # type: ignore[arg-type]
                             die=None, total=score, score=score, hit=True, critical=True, degrees=1,
                             damage_dice=rolled, damage=damage, multiplier=multiplier)
        return [event, self._harm(self.evolve(state, event), t.id, damage, "attack", by=c.id,
                                  damage_type=p.damage_type)]

    def _improvise(self, state: EncounterState, cmd: ImprovisePower, dice: Dice) -> PowerImprovised:
        """Power Improvisation: "The Difficulty Score is equal to 10 + the Training Point cost of each
        Power Part added to the Power. If you already have proficiency with any of the Power Parts, use
        half of those Parts' Training Point costs instead"; "roll a Power Attack against it"; the Energy
        Multiplier (R3), "rounded up at the end"; "If this final cost exceeds your Energy reserves, you
        simply fail to create the Power; retaining your Energy, but losing the Action"."""
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        cost, free = self._cost(state, c, 2)
        self.spend_action_points(c, cost, "Power Improvisation")
        ds = 10 + sum(half_up(p.cost) if p.proficient else p.cost for p in cmd.parts)
        penalty = scores.repeat_penalty(b.repeats.get("action", 0))
        die = dice.roll(20, "power improvisation", c.id)
        total = die.face + scores.natural(die.face) + c.sheet.power_bonus + penalty + conds.d20(afflictions(b))
        degrees = scores.degrees(total, ds)
        multiplier = Fraction(scores.improvisation_multiplier(degrees)).limit_denominator(2)
        energy = ceil(cmd.energy * multiplier)
        return PowerImprovised(combatant_id=c.id, description=cmd.description, difficulty=ds, die=die, total=total,
                               degrees=degrees, multiplier=str(multiplier), estimate=cmd.energy, energy=energy,
                               created=energy <= bodies.energy(c.sheet, b), action_points=cost)

    def _counter_in_effect(self, state: EncounterState, cmd: CounterInEffect, dice: Dice) -> CounteredInEffect:
        """"Countering Powers Already in Effect. You can also attempt to end or dispel a Power that is
        already in effect by targeting its original attack score with your own Power"; "Both sides add +1
        to their roll or Score for every 5 energy spent on their respective Powers. If your roll exceeds
        the target roll or Score, you successfully nullify their Power"."""
        c = self.combatant(state, cmd.combatant_id)
        b = self._able(state, c)
        if not self._can_react(state, c.id):
            raise RuleViolation("realms_cannot_react", f"{c.name} cannot take a Reaction now.")
        power = c.sheet.power(cmd.power)
        if power is None:
            raise RuleViolation("realms_unknown_attack", f"{c.name} has no Power “{cmd.power}”.")
        if power.energy > bodies.energy(c.sheet, b):
            raise RuleViolation("realms_not_enough_energy", f"{c.name} has {bodies.energy(c.sheet, b)} Energy; the "
                                f"{power.name} costs {power.energy}.")
        self._check_determination(state, c, cmd.determination)
        self.spend_action_points(c, power.action_points, f"countering with the {power.name}")
        die, discarded = self._d20(c, "counter power", dice, cmd.determination)
        total = (die.face + scores.natural(die.face) + c.sheet.power_bonus + power.energy // 5
                 + conds.d20(afflictions(b)))
        return CounteredInEffect(combatant_id=c.id, power=power.name, action_points=power.action_points,
                                 energy=power.energy, die=die, total=total, score=cmd.score,
                                 nullified=total > cmd.score + cmd.energy // 5, part=cmd.part, discarded=discarded)

    def _grapple(self, state: EncounterState, cmd: Grapple, dice: Dice) -> list[Event]:
        """Grapple: a Strength Unarmed Prowess attack against Might or Reflexes; "If you attempt to
        grapple a creature smaller than you, you gain +2 to the grapple roll and to your Strength Score
        for maintaining the grapple for each size they are smaller. If the target is larger than you,
        you suffer a -2 penalty for each size they are larger. You cannot grapple creatures more than
        one size larger than you"; escaping: "Might vs. your Strength Score using the Overcome action"."""
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        t = state.combatants.get(cmd.target)
        if t is None:
            raise RuleViolation("unknown_combatant", f"There is no combatant {cmd.target} in this encounter.",
                                combatant_id=cmd.target)
        if t.id == c.id or body_of(state, t.id).dead or t.sheet.object:
            raise RuleViolation("realms_not_a_target", f"{c.name} needs another creature, not yet dead, to grapple.")
        smaller = SIZES.index(c.sheet.size) - SIZES.index(t.sheet.size)
        if smaller < -1:
            raise RuleViolation("realms_too_large", f"{called_of(t)} is more than one size larger than {c.name}: "
                                "“You cannot grapple creatures more than one size larger than you”.")
        cost, free = self._cost(state, c, 2)
        self._check_determination(state, c, cmd.determination)
        self.spend_action_points(c, cost, "a Grapple")
        strength = c.sheet.abilities.strength
        bonus = c.sheet.martial_proficiency + strength if c.sheet.unarmed_prowess else half_up(strength)
        penalty = scores.repeat_penalty(b.repeats.get("Grapple", 0))
        die, discarded = self._d20(c, "grapple", dice, cmd.determination)
        total = (die.face + scores.natural(die.face) + bonus + 2 * smaller + penalty + conds.attacking(afflictions(b))
                 + conds.against(b.conditions, t.id))
        tb = body_of(state, t.id)
        score = t.sheet.defence_score(cmd.defence) + conds.defence(tb.conditions, cmd.defence)
        hit = total >= score
        hold = 10 + strength + 2 * max(smaller, 0)
        rolled, damage = [], 0
        if hit and cmd.damage:
            sides = scores.PROWESS_DICE[c.sheet.unarmed_prowess] if c.sheet.unarmed_prowess else 0
            rolled = [dice.roll(sides, "damage", c.id)] if sides else []
            damage = max(sum(d.face for d in rolled) + bonus, 0)
        event = GrappleRolled(combatant_id=c.id, target=t.id, defence=cmd.defence, die=die, total=total, score=score,
                              size=2 * smaller, penalty=penalty, action_points=cost, hit=hit, strength_score=hold,
                              damage_dice=rolled, damage=damage, discarded=discarded)
        out: list[Event] = [event]
        if hit:
            had = tb.conditions.get("grappled")
            out.append(ConditionApplied(combatant_id=t.id, condition="grappled", defence="might", score=hold, source=c.id,
                                        replaced=conds.words("grappled", had) if had else None))
            if damage:
                after = self.evolve(self.evolve(state, event), out[-1])
                out.append(self._harm(after, t.id, damage, "rm", by=c.id, damage_type="bludgeoning"))
        return out

    def _overcome(self, state: EncounterState, c: Combatant, order: list[str] | None, dice: Dice, *,
                  early: bool, determination: str | None = None) -> Overcame:
        """"Roll Might once and compare that single roll against the Difficulty Scores for both Slow
        and Stun"; R7: "a d20 roll that meets or beats a Score overcomes it"."""
        b = body_of(state, c.id)
        scored = self._to_overcome(b)
        chosen = [d for d in (order or []) if d in scored]
        chosen += [d for d in scored if d not in chosen]
        rolls, discarded = [], None
        for defence in chosen:
            die, other = self._d20(c, f"overcome: {defence.replace('_', ' ')}", dice, defence == determination)
            discarded = other or discarded
            total = (die.face + scores.natural(die.face) + c.sheet.defence_bonus(defence)
                     + conds.d20(afflictions(b)) + conds.defence(b.conditions, defence))
            against = dict(scored[defence])
            rolls.append(OvercomeRoll(by=c.id, defence=defence, die=die, total=total, against=against,
                                      overcome=[n for n, score in against.items() if total >= score]))
        return Overcame(combatant_id=c.id, rolls=rolls, early=early, discarded=discarded)

    # ---------------------------------------------------------- attacks

    def _stealth(self, state: EncounterState, cmd: StealthHide, dice: Dice) -> HidingRolled:
        """Stealth/Hide: the roll, +1 per level of Obscurity or -4 unobscured, hidden from each opposing
        creature whose Discernment score it surpasses; 1 AP instead of 2 on a turn one was Detected;
        switching between Hiding and Stealthing for 1 AP (and no upkeep that turn)."""
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        if cmd.switch:
            if b.stealth is None:
                raise RuleViolation("realms_not_hidden", f"{c.name} is neither Hiding nor Stealthing.")
            self.spend_action_points(c, 1, "switching between Hiding and Stealthing")
            mode = "stealth" if b.stealth.mode == "hide" else "hide"
            return HidingRolled(combatant_id=c.id, mode=mode, action_points=1, switched=True,
                                hidden_from=list(b.stealth.hidden_from))
        cost, free = self._cost(state, c, 1 if b.detected_round == state.round else 2)
        self._check_determination(state, c, cmd.determination)
        self.spend_action_points(c, cost, "the Stealth/Hide Action")
        skill = "Hide" if cmd.mode == "hide" else "Stealth"
        bonus = c.sheet.skills.get(skill, c.sheet.skills.get("Stealth", c.sheet.abilities.agility))
        penalty = scores.repeat_penalty(b.repeats.get("Stealth/Hide", 0))
        die, discarded = self._d20(c, skill.lower(), dice, cmd.determination)
        total = (die.face + scores.natural(die.face) + bonus + (cmd.obscurity if cmd.obscurity else -4) + penalty
                 + conds.d20(afflictions(b)))
        hidden_from = [o for o, x in state.combatants.items()
                       if x.side != c.side and total > x.sheet.defence_score("discernment")
                       + conds.defence(body_of(state, o).conditions, "discernment")]
        return HidingRolled(combatant_id=c.id, mode=cmd.mode, action_points=cost, die=die, total=total,
                            obscurity=cmd.obscurity, hidden_from=hidden_from, discarded=discarded)

    def _detect(self, state: EncounterState, cmd: Detect, dice: Dice) -> Detected:
        """"Targets can roll Perceive against your Stealth score or Search against your Hide score"; R2:
        "Detect 0 ... each further Detect in the same round costs 1 AP"; "they gain a +3 bonus to their
        Perceive and Search rolls" once the hidden creature attacked."""
        c = self.require_turn(state, cmd.combatant_id) if cmd.search else self.combatant(state, cmd.combatant_id)
        b = self._able(state, c)
        t = self.combatant(state, cmd.target)
        hiding = body_of(state, t.id).stealth
        if hiding is None or c.id not in hiding.hidden_from:
            raise RuleViolation("realms_not_hidden", f"{t.name} is not hidden from {c.name}.")
        if cmd.search:
            cost = 1
        else:
            cost = 0 if b.detect_round != state.round or not b.detects else 1
        self._check_determination(state, c, cmd.determination)
        self.spend_action_points(c, cost, "the Search Action" if cmd.search else "the Detect Reaction")
        skill = "Search" if cmd.search else "Perception"
        bonus = c.sheet.skills.get(skill, c.sheet.skills.get("Perception", c.sheet.abilities.acuity))
        extra = 3 if hiding.attacked else 0
        penalty = scores.repeat_penalty(b.repeats.get("Search", 0)) if cmd.search else 0
        die, discarded = self._d20(c, skill.lower(), dice, cmd.determination)
        total = die.face + scores.natural(die.face) + bonus + extra + penalty + conds.d20(afflictions(b))
        return Detected(combatant_id=c.id, target=t.id, search=cmd.search, action_points=cost, die=die, total=total,
                        score=hiding.score, bonus=extra, found=total >= hiding.score, discarded=discarded)

    def _prepare(self, state: EncounterState, cmd: Prepare) -> Prepared:
        """"You spend resources such as Energy, Feat uses, or Action Points to use a Prepared Action on
        your turn, as opposed to when you react"."""
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        target = self.combatant(state, cmd.target)
        weapon = cmd.weapon if cmd.power is None else None
        p = profile(c.sheet, weapon, cmd.power, who=c.name)
        range_penalty(p, cmd.distance, target.name)
        cost, free = self._cost(state, c, p.action_points)
        self.spend_action_points(c, cost, f"preparing an attack with the {p.name}")
        if p.energy > bodies.energy(c.sheet, b):
            raise RuleViolation("realms_not_enough_energy", f"{c.name} has {bodies.energy(c.sheet, b)} Energy; the "
                                f"{p.name} costs {p.energy}.")
        return Prepared(combatant_id=c.id, trigger=cmd.trigger, target=target.id, attack=p.name, kind=p.kind,
                        distance=cmd.distance, action_points=cost, energy=p.energy, free=free)

    def _attack(self, state: EncounterState, cmd: Attack, dice: Dice, *, prepared: bool = False) -> list[Event]:
        c = self.combatant(state, cmd.combatant_id) if prepared else self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        target = state.combatants.get(cmd.target)
        if target is None:
            raise RuleViolation("unknown_combatant", f"There is no combatant {cmd.target} in this encounter.",
                                combatant_id=cmd.target)
        if target.id == c.id or body_of(state, target.id).dead:
            raise RuleViolation("realms_not_a_target", f"{c.name} needs another creature, not yet dead, to attack.")
        weapon = cmd.weapon if cmd.power is None else None
        p = profile(c.sheet, weapon, cmd.power, off_hand=cmd.off_hand, thrown=cmd.thrown, who=c.name)
        if target.sheet.object and p.targets in MENTAL:
            raise RuleViolation("realms_no_effect", f"An attack on {called_of(target)}'s {p.targets.replace('_', ' ')} "
                                "automatically fails: an inanimate object has no such Defence.")
        ranged = range_penalty(p, cmd.distance, target.name)
        if conds.charmed_by(b.conditions, target.id):
            raise RuleViolation("realms_charmed", f"{c.name} is Charmed by {called_of(target)}: it “can't harm "
                                "the charmer”.")
        if conds.restrained(b.conditions) and p.kind == "martial" and p.name != "Unarmed":
            raise RuleViolation("realms_restrained", f"{c.name} is Restrained: “no actions or reactions that need "
                                "the arms”, and “all weapons require at least one hand to use”.")
        cost = p.action_points
        if cmd.off_hand:
            self._check_off_hand(c, b, p)
            cost = 1
        elif cmd.quick:
            if p.name != "Unarmed" or "Unarmed" not in b.attacks or b.quick_attacked:
                raise RuleViolation("realms_no_quick_attack", "“After using an Action to make an attack with Unarmed "
                                    "Prowess you may make a second attack with Unarmed Prowess ... as a Quick Action"
                                    "”: once a turn.")
            cost = 1
        cost, free = self._cost(state, c, cost) if not prepared else (0, False)
        self._check_determination(state, c, cmd.determination and not target.sheet.object)
        self.spend_action_points(c, cost, f"an attack with the {p.name}")
        if not prepared and p.energy > bodies.energy(c.sheet, b):
            raise RuleViolation("realms_not_enough_energy", f"{c.name} has {bodies.energy(c.sheet, b)} Energy; the "
                                f"{p.name} costs {p.energy}.")
        # "Basic, Quick, and Free Actions or Reactions ... are all considered the same Action type";
        # the off-hand and Quick attacks come "without incurring a Multiple Action Penalty"
        penalty = 0 if (cmd.off_hand or cmd.quick) else scores.repeat_penalty(b.repeats.get("action", 0))
        declared = AttackDeclared(
            combatant_id=c.id, target=target.id, attack=p.name, kind=p.kind, targets=p.targets,  # type: ignore[arg-type]
            distance=cmd.distance, action_points=cost, energy=0 if prepared else p.energy, free=free, penalty=penalty,
            range_penalty=ranged, off_hand=cmd.off_hand, quick=cmd.quick, thrown=cmd.thrown,
            non_lethal=cmd.non_lethal, prepared=prepared, determination=cmd.determination and not target.sheet.object,
            obscurity=cmd.obscurity)
        after = self.evolve(state, declared)
        window = f"attack:{state.version + 1}:roll"
        probe = reactions.ReactionWindow(id=window, actor=c.id, may_react=(), reactions=())
        options = {cid: self._options(after, probe, cid) for cid in after.combatants if cid != c.id}
        hidden = target.id in state.concealed
        may = [cid for cid, o in options.items() if o and (not hidden or cid in state.concealed)]
        if may:
            choices = tuple(dict.fromkeys(o for cid in may for o in options[cid]))
            on = "a hidden creature" if hidden else called_of(target)
            opened = reactions.open_window(window, c.id, may, choices, f"{called_of(c)}'s attack on {on}")
            return [declared, opened]
        return [declared, *self._roll_attack(after, dice)]

    def _check_off_hand(self, c: Combatant, b: Body, p: Profile) -> None:
        """Dual Wielding: "two one-handed weapons as long as both have the Interchangeable weapon
        property. When you take an Action to make an Attack, you may spend a Quick Action to attack
        with your off-hand weapon without incurring a Multiple Action Penalty"."""
        main = [w for w in b.attacks if w not in ("Unarmed", "Improvised")]
        off = c.sheet.weapon(p.name)
        primary = c.sheet.weapon(main[-1]) if main else None
        if b.off_hand_attacked or off is None or primary is None or primary.name == off.name \
                or not off.has("interchangeable") or not primary.has("interchangeable"):
            raise RuleViolation("realms_no_off_hand", f"{c.name}'s off-hand attack needs an attack Action this turn "
                                "with another Interchangeable weapon, once a turn.")

    def _roll_attack(self, state: EncounterState, dice: Dice) -> list[Event]:
        """"roll a D20 and add your Attack Bonus"; "If your total Attack roll equals or exceeds the
        target's Evasion (EV), or related Defense Score the attack hits"; a Critical Hit at the
        Critical Range over it; on a hit the damage dice (times the Critical Multiplier) + bonus."""
        r = rules(state)
        a = r.attack
        assert a is not None
        atk, tgt = state.combatants[a.attacker], state.combatants[a.target]
        p = self._profile(atk, a)
        score = tgt.sheet.defence_score(a.targets) + a.dodge
        tb, ab = body_of(state, tgt.id), body_of(state, atk.id)
        if a.targets == "evasion":
            whole = tb.evade is not None and not tb.evade_split  # a split Evade counts where allotted only
            score += conds.evasion(afflictions(tb)) + (r.data.evade_bonus if whole else 0) + a.evade
        else:
            score += conds.defence(tb.conditions, a.targets)
        if tgt.sheet.object:
            # "You automatically hit any attack directed at an inanimate object ... No attack roll
            # is required ... attacks against objects cannot be critical hits."
            die, total, hit, critical, discarded = None, score, True, False, None
        else:
            die, discarded = self._d20(atk, "attack", dice, a.determination)
            melee = a.distance <= 1 and not p.ranged
            total = (die.face + scores.natural(die.face) + p.bonus + a.penalty + a.range_penalty
                     + conds.attacking(afflictions(ab)) + conds.attacked(tb.conditions, melee)
                     + conds.against(ab.conditions, tgt.id)
                     + conds.obscured(a.obscurity, afflictions(ab), tb.conditions))
            total += a.help  # "add it to their Attack and Damage Rolls"
            hit = total >= score
            armour = tgt.sheet.armour.critical_range if tgt.sheet.armour else 0
            critical = hit and scores.is_critical(
                total, score, scores.critical_range(atk.sheet.critical_range, p.critical_range, armour))
        counter_die, counter_total, countered = None, None, False
        if a.counters and die is not None:
            # "Make an attack roll with your Power against the attack roll ... Both sides add +1 to their
            # roll or Score for every 5 energy spent"; "the Power Proficiency of all creatures countering
            # is added together ... to the original creature's Power attack roll"; "If your roll exceeds
            # the target roll or Score, you successfully nullify their Power."
            first = state.combatants[a.counters[0]]
            counter_die = dice.roll(20, "counter power", first.id)
            counter_total = (counter_die.face + scores.natural(counter_die.face) + first.sheet.power_bonus
                             + sum(state.combatants[x].sheet.power_proficiency for x in a.counters[1:])
                             + a.counter_energy // 5 + conds.d20(afflictions(body_of(state, first.id))))
            countered = counter_total > total + p.energy // 5
            hit = hit and not countered
            critical = critical and not countered
        further: list[DefenceRolled] = []
        if p.also_targets and die is not None and not countered:
            *rolled_on, untargeted = p.also_targets
            for d in rolled_on:  # the attacker's roll against each
                s_d = tgt.sheet.defence_score(d) + conds.defence(tb.conditions, d)
                further.append(DefenceRolled(defence=d, roller=atk.id, total=total, score=s_d, hit=total >= s_d))
            # "The defending creature then rolls their untargeted Defense ... against the attacker's Attack Score"
            potency = atk.sheet.power_potency + (2 if conds.charmed_by(tb.conditions, atk.id) else 0)
            own = dice.roll(20, f"defence: {untargeted.replace('_', ' ')}", tgt.id)
            resist = (own.face + scores.natural(own.face) + tgt.sheet.defence_bonus(untargeted)
                      + conds.defence(tb.conditions, untargeted) + conds.d20(afflictions(tb)))
            further.append(DefenceRolled(defence=untargeted, roller=tgt.id, total=resist, score=potency,
                                         hit=resist < potency, die=own))
        rolled, damage, multiplier = [], 0, 1
        if hit and p.deals_damage:
            multiplier = scores.critical_multiplier(atk.sheet.critical_multiplier, p.critical_multiplier) if critical else 1
            rolled = [dice.roll(p.sides, "damage", atk.id) for _ in range(p.dice * multiplier)]
            damage = max(sum(d.face for d in rolled) + p.damage_bonus + a.help, 0)
        event = AttackRolled(combatant_id=atk.id, target=tgt.id, attack=a.attack, targets=a.targets,  # type: ignore[arg-type]
                             die=die, total=total, score=score, hit=hit, critical=critical,
                             degrees=scores.degrees(total, score), damage_dice=rolled, damage=damage,
                             discarded=discarded,
                             multiplier=multiplier, help=a.help, counterer=a.counters[0] if a.counters else None,
                             counter_die=counter_die, counter_total=counter_total, countered=countered,
                             defences=further)
        after = self.evolve(state, event)
        if not hit or not (rolled or damage > 0):
            return [event]
        defenders = [cid for cid, x in after.combatants.items()
                     if x.side == tgt.side and self._options(after, reactions.ReactionWindow(
                         id="defend", actor=atk.id, may_react=(), reactions=()), cid)] if not tgt.sheet.object else []
        hidden = tgt.id in state.concealed
        if hidden:  # a hidden creature's Defenders are hidden with it: the window tells nobody else of it
            defenders = [d for d in defenders if d in state.concealed]
        if defenders:
            on = "a hidden ally" if hidden else called_of(tgt)
            opened = reactions.open_window(f"{a.window.removesuffix(':roll')}:defend", atk.id, defenders,
                                           (SHIELD, BLOCK, BODY_SHIELD), f"{called_of(atk)}'s hit on {on}")
            return [event, opened]
        return [event, *self._settle(after, dice)]

    def _profile(self, atk: Combatant, a: PendingAttack) -> Profile:
        weapon = a.attack if a.kind == "martial" else None
        power = a.attack if a.kind == "power" else None
        return profile(atk.sheet, weapon, power, off_hand=a.off_hand, thrown=a.thrown)

    def _react(self, state: EncounterState, cmd: reactions.React, dice: Dice) -> list[Event]:
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        window = reactions.check_answer(r.window, cmd.window, c.id, c.name)
        reactions.check_reaction(window, cmd.reaction)
        if cmd.reaction not in self._options(state, window, c.id):
            raise RuleViolation("realms_cannot_react", f"{c.name} cannot take the {cmd.reaction} Reaction now.")
        a = r.attack
        assert a is not None
        power = c.sheet.power(cmd.reaction.removeprefix(COUNTER)) if cmd.reaction.startswith(COUNTER) else None
        cost = self._reaction_cost(c, cmd.reaction)
        self.spend_action_points(c, cost, f"the {cmd.reaction} Reaction")
        event = Reacted(window=window.id, combatant_id=c.id, reaction=cmd.reaction, action_points=cost,
                        energy=power.energy if power is not None else 0)
        if cmd.reaction == COMBINATION:
            # "Roll a die based on your Attack Bonus ... and add it to their Attack and Damage Rolls"
            event = replace(event, help_die=dice.roll(self._help_die(c), "help die", c.id))
        # "If you take the same Action or Reaction more than once in a turn, and it involves a D20 roll"
        b = body_of(state, c.id)
        penalty = scores.repeat_penalty(b.repeats.get(cmd.reaction, 0)) + conds.d20(afflictions(b))
        if cmd.reaction == BLOCK:
            # "roll an attack with that weapon. The result becomes your or the ally's new Evasion"
            w = next(x for x in c.sheet.weapons if x.has("block"))
            p = profile(c.sheet, w.name, None)
            die = dice.roll(20, "weapon block", c.id)
            event = replace(event, die=die, total=die.face + scores.natural(die.face) + p.bonus + penalty,
                            penalty=scores.repeat_penalty(b.repeats.get(cmd.reaction, 0)))
        elif cmd.reaction == SHIELD:
            # R18: "make a Strength attack roll against the incoming attack roll. If you meet or beat
            # it, roll the Shield Die ... and reduce the damage by that much; this can reach 0"
            die = dice.roll(20, "shield defense", c.id)
            total = (die.face + scores.natural(die.face) + c.sheet.martial_proficiency + c.sheet.abilities.strength
                     + penalty)
            event = replace(event, die=die, total=total, penalty=scores.repeat_penalty(b.repeats.get(cmd.reaction, 0)))
            if total >= a.total:
                event = replace(event, shield_die=dice.roll(c.sheet.shield.sides, "shield die", c.id))
        if window.id.endswith(":roll"):
            # before the roll each Reaction is one's own to take (its AP permitting): Dodge, Combination
            # Attack, Counter Power; Defend is one Reaction, in one of its three ways
            tentative = self.evolve(state, replace(event, again=True))
            if self._options(tentative, rules(tentative).window, c.id):
                event = replace(event, again=True)
        return [event, *self._carry_on(self.evolve(state, event), dice)]

    def _carry_on(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Once nobody is left to answer the window, the attack goes on."""
        r = rules(state)
        if r.window is None or not r.window.settled or r.attack is None or r.attack.attacker not in state.combatants:
            return []  # (an unseen attacker's: a viewer's state does not resolve it)
        if r.attack.stage == "declared":
            return self._roll_attack(state, dice)
        return self._settle(state, dice)

    def _settle(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The Defend reactions, then the damage: "reductions first, then weaknesses and resistances"."""
        a = rules(state).attack
        assert a is not None
        defender = a.body_shield or a.target
        d = state.combatants[defender]
        hit, blocked = a.hit, False
        score = a.score
        if a.body_shield is not None:
            # "You gain -2 to Evasion, and the attack deals double damage if it hits."
            score = d.sheet.defence_score(a.targets) - 2 + conds.evasion(afflictions(body_of(state, d.id)))
            hit = a.total >= score
        if a.block is not None and a.block > score and a.total < a.block:
            hit, blocked = False, True  # "(unless it's lower than their current Evasion)"
        out: list[Event] = []
        if a.defenders:
            out.append(Defended(combatant_id=a.attacker, target=a.target, defender=defender, hit=hit, blocked=blocked,
                                shield=a.shield, doubled=a.body_shield is not None and hit))
            state = self.evolve(state, out[-1])
        if hit:
            p = self._profile(state.combatants[a.attacker], a)
            amount = a.damage * (2 if a.body_shield is not None else 1)
            out.append(self._harm(state, defender, amount, "attack", by=a.attacker, damage_type=p.damage_type,
                                  shield=a.shield, non_lethal=a.non_lethal))
        return out

    def _harm(self, state: EncounterState, cid: str, rolled: int, cause: str, *, by: str | None = None,
              damage_type: str = "", shield: int = 0, non_lethal: bool = False, dice: list[Any] | None = None) -> Harmed:
        """"After damage is dealt, the target takes into account first any base damage reductions,
        then any weaknesses or resistances ... The minimum amount an Attack can be reduced to is 1
        unless otherwise stated or the target has Immunity"; a shield "can reduce the damage to 0,
        unlike other damage reductions"; the Dying damage is "irreducible"."""
        c = state.combatants[cid]
        sheet: RealmsSheet = c.sheet
        b = body_of(state, cid)
        amount, armour, note = rolled, 0, ""
        if cause in ("attack", "rm") and rolled > 0:
            arm = sheet.armour
            if arm is not None and damage_type not in ARMOUR_IGNORES and damage_type not in arm.vulnerable:
                base = arm.damage_reduction * (2 if damage_type in arm.resistant else 1)
                armour = max(base - b.armour_uses, 0)  # R16: "its reduction drops by 1" each time in a turn
                amount = max(amount - armour, 1) if armour else amount
            amount = max(conds.damage_taken(amount, b.conditions), 1)  # Resilient, Susceptible
            zero = False
            if shield:
                amount = max(amount - shield, 0)
                zero = amount == 0
            res, vul = sheet.resistances.count(damage_type), sheet.vulnerabilities.count(damage_type)  # type: ignore[arg-type]
            res += 1 if damage_type == "sonic" and "deafened" in b.conditions else 0  # Deafened: "resistant to Sonic"
            immune = damage_type in sheet.immunities or (res >= 2 and not vul)
            after = scores.resisted(amount, res, vul, immune)
            if after != amount or immune:
                note = "immune" if immune or after == 0 and not zero else "resistant" if after < amount else "vulnerable"
            amount = after if (immune or zero or after >= 1) else 1
            if zero:
                amount = 0
        now = bodies.health(sheet, b)
        health = now - amount
        dead = dying = unconscious = False
        if is_companion(c) and health <= 0:
            dead = True  # "Companions don't enter Dying; they die (or unsummon) at 0 Health"
        elif non_lethal and health <= 0 and not b.dying:
            health, unconscious = 0, True  # "the target is instead rendered unconscious for 1 hour"
        elif health <= 0:
            dead = health <= -sheet.health  # "Death comes at −(maximum Health)"
            dying = not dead and not b.dying  # enters Dying now
        return Harmed(combatant_id=cid, damage=amount, health=health, cause=cause, by=by, rolled=rolled,
                      armour=armour, shield=shield, resisted=note, dying=dying, dead=dead, unconscious=unconscious,
                      dice=list(dice or []))

    # ---------------------------------------------------------- evolve

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        if getattr(event, "discarded", None) is not None:  # a Determination Die spent on the roll
            who = state.combatants[event.combatant_id]  # type: ignore[attr-defined]
            state = self._with_body(state, who.id, replace(body_of(state, who.id),
                                                           determination=self.determination(state, who) - 1))
        r = rules(state)
        match event:
            case RulesSet():
                return replace(state, rules=replace(r, data=event.data))
            case InitiativeSet():
                start = Start(roll_with=event.roll_with, surprised=event.surprised, initiator=event.initiator)
                return replace(state, rules=replace(r, starts={**r.starts, event.combatant_id: start}))
            case ActionTaken():
                state = self._paid(state, event.combatant_id, event.action_points, event.free)
                b = body_of(state, event.combatant_id)
                changes: dict[str, Any] = {}
                if event.die is not None:
                    kind = "action" if event.action in ONE_TYPE else event.action
                    changes["repeats"] = {**b.repeats, kind: b.repeats.get(kind, 0) + 1}
                    if event.help:
                        changes["helped"] = 0
                if event.action == "Free Action":
                    changes["free_actions"] = b.free_actions + 1
                if event.action == "Evade":
                    changes["evade"] = Duration.one_round_from(event.combatant_id, state.round)
                    # R1: split, "up to the number of Evades taken"
                    changes.update(split_evades=b.split_evades + 1 if event.split else 0, evade_split=event.split)
                if event.free and event.action in ("Interaction", "Ability Roll") and not self._initiator_free(r, event):
                    name = FREE_INTERACTION if event.action == "Interaction" else FREE_ABILITY_ROLL
                    state = self.spent(state, event.combatant_id, name, 1)
                return self._with_body(state, event.combatant_id, replace(b, **changes)) if changes else state
            case AttackDeclared():
                state = self._paid(state, event.combatant_id, event.action_points, event.free)
                b = body_of(state, event.combatant_id)
                changes = {"energy_spent": b.energy_spent + event.energy}
                if event.prepared:
                    changes["prepared"] = None
                if b.stealth is not None:
                    changes["stealth"] = replace(b.stealth, attacked=True)  # "Attacking ... +3"
                if event.off_hand:
                    changes["off_hand_attacked"] = True
                elif event.quick:
                    changes["quick_attacked"] = True
                else:
                    changes["attacks"] = [*b.attacks, event.attack]
                    changes["repeats"] = {**b.repeats, "action": b.repeats.get("action", 0) + 1}
                state = self._with_body(state, event.combatant_id, replace(b, **changes))
                attack = PendingAttack(
                    window=f"attack:{state.version + 1}:roll", attacker=event.combatant_id, target=event.target,
                    attack=event.attack, kind=event.kind, targets=event.targets, distance=event.distance,
                    penalty=event.penalty, range_penalty=event.range_penalty, off_hand=event.off_hand,
                    thrown=event.thrown, non_lethal=event.non_lethal, determination=event.determination,
                    obscurity=event.obscurity)
                return replace(state, rules=replace(rules(state), attack=attack, window=None))
            case reactions.ReactionsOpened() | reactions.ReactionPassed() | reactions.ReactionsClosed():
                return replace(state, rules=replace(r, window=reactions.evolve_window(r.window, event)))
            case Reacted():
                c = state.combatants[event.combatant_id]
                state = replace(state, combatants={**state.combatants, c.id: replace(
                    c, action_points=c.action_points - event.action_points)})
                if event.energy:
                    b = body_of(state, c.id)
                    state = self._with_body(state, c.id, replace(b, energy_spent=b.energy_spent + event.energy))
                if event.die is not None:
                    b = body_of(state, c.id)
                    state = self._with_body(state, c.id, replace(
                        b, repeats={**b.repeats, event.reaction: b.repeats.get(event.reaction, 0) + 1}))
                r = rules(state)
                a = r.attack
                assert a is not None and r.window is not None
                if event.reaction.startswith(COUNTER):
                    a = replace(a, counters=[*a.counters, c.id], counter_energy=a.counter_energy + event.energy)
                elif event.reaction == COMBINATION:
                    a = replace(a, help=a.help + (event.help_die.face if event.help_die else 0))
                elif event.reaction == DODGE:
                    a = replace(a, dodge=a.dodge + 1)  # R2: "Dodge 1 (+1 Evasion...)"
                elif event.reaction == SPLIT_EVADE:
                    a = replace(a, evade=r.data.evade_bonus)  # "+2 against each of several attacks"
                    b = body_of(state, c.id)
                    state = self._with_body(state, c.id, replace(b, split_evades=b.split_evades - 1))
                    r = rules(state)
                elif event.reaction == BLOCK:
                    a = replace(a, block=max(a.block or 0, event.total or 0), defenders=[*a.defenders, c.id])
                elif event.reaction == SHIELD:
                    a = replace(a, shield=a.shield + (event.shield_die.face if event.shield_die else 0),
                                defenders=[*a.defenders, c.id])
                elif event.reaction == BODY_SHIELD:
                    a = replace(a, body_shield=c.id, defenders=[*a.defenders, c.id])
                if event.window.endswith(":roll"):
                    a = replace(a, taken={**a.taken, c.id: [*a.taken.get(c.id, []), event.reaction]})
                window = r.window if event.again else reactions.answered(r.window, c.id, event.reaction)
                return replace(state, rules=replace(r, attack=a, window=window))
            case AttackRolled():
                a = r.attack
                if a is None or not event.hit or not (event.damage_dice or event.damage > 0):
                    return replace(state, rules=replace(r, attack=None, window=None))
                a = replace(a, stage="rolled", total=event.total, score=event.score, hit=True,
                            critical=event.critical, damage=event.damage)
                return replace(state, rules=replace(r, attack=a, window=None))
            case Defended():
                if not event.hit:  # blocked, or the Body Shield's Evasion held: the attack is over
                    return replace(state, rules=replace(r, attack=None, window=None))
                return state
            case Harmed():
                return self._harmed(state, event)
            case EnergyChanged():
                b = body_of(state, event.combatant_id)
                sheet = state.combatants[event.combatant_id].sheet
                return self._with_body(state, event.combatant_id, replace(b, energy_spent=sheet.energy - event.energy))
            case Recovered():
                b = body_of(state, event.combatant_id)
                sheet = state.combatants[event.combatant_id].sheet
                changes = {"damage": sheet.health - event.health, "energy_spent": sheet.energy - event.energy}
                if event.health > 0:
                    changes.update(unconscious=False, dying=False, dying_step=0, stabilised=False)
                if event.recovery == "full":
                    had = b.conditions.get("exhausted")
                    kept = {k: v for k, v in b.conditions.items() if k != "exhausted"}
                    if event.exhausted:
                        kept["exhausted"] = Affliction(level=event.exhausted, defence=had.defence if had else None,
                                                       score=had.score if had else None)
                    changes.update(exhausted=0, conditions=kept)
                return self._with_body(state, event.combatant_id, replace(b, **changes))
            case CounteredInEffect():
                c = state.combatants[event.combatant_id]
                state = replace(state, combatants={**state.combatants, c.id: replace(
                    c, action_points=c.action_points - event.action_points)})
                b = body_of(state, c.id)
                return self._with_body(state, c.id, replace(b, energy_spent=b.energy_spent + event.energy))
            case DeterminationSet():
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(b, determination=event.count))
            case Healed():
                b = body_of(state, event.combatant_id)
                sheet = state.combatants[event.combatant_id].sheet
                changes = {"damage": sheet.health - event.health}
                if event.revived:
                    changes.update(dying=False, dying_step=0, stabilised=False)
                elif b.dying:
                    changes["stabilised"] = True  # "any amount of healing" stops the escalation
                if event.health > 0:
                    changes["unconscious"] = False
                if event.exhausted:
                    changes["exhausted"] = b.exhausted + 1
                if event.bleed:
                    left = conds.level(b.conditions, "bleed") - event.bleed
                    changes["conditions"] = {k: v for k, v in b.conditions.items() if k != "bleed"} if left <= 0 else {
                        **b.conditions, "bleed": replace(b.conditions["bleed"], level=left)}
                return self._with_body(state, event.combatant_id, replace(b, **changes))
            case Helped():
                c = state.combatants[event.combatant_id]
                state = replace(state, combatants={**state.combatants, c.id: replace(
                    c, action_points=c.action_points - event.action_points)})
                a = body_of(state, event.ally)
                kept = a.helped if a.helped_round == state.round else 0
                return self._with_body(state, event.ally, replace(a, helped=kept + event.die.face,
                                                                  helped_round=state.round))
            case HidingRolled():
                state = self._paid(state, event.combatant_id, event.action_points, False)
                b = body_of(state, event.combatant_id)
                had = b.stealth
                if event.ended:
                    return self._unhidden(state, event.combatant_id)
                if event.upkeep:  # paid for this turn
                    assert had is not None
                    return self._with_body(state, event.combatant_id, replace(b, stealth=replace(
                        had, free_round=state.round)))
                if event.switched:
                    assert had is not None
                    stealth = replace(had, mode=event.mode, free_round=state.round)
                else:
                    stealth = Stealth(mode=event.mode, score=event.total or 0, hidden_from=list(event.hidden_from),
                                      free_round=state.round)
                    b = replace(b, repeats={**b.repeats, "Stealth/Hide": b.repeats.get("Stealth/Hide", 0) + 1})
                found = bool(stealth.hidden_from)
                marks = {**b.conditions, "hidden": Affliction()} if found else {
                    k: v for k, v in b.conditions.items() if k != "hidden"}
                return self._with_body(state, event.combatant_id, replace(
                    b, stealth=stealth if found else None, conditions=marks))
            case Detected():
                state = self._paid(state, event.combatant_id, event.action_points, False)
                b = body_of(state, event.combatant_id)
                counted = b.detects if b.detect_round == state.round else 0
                b = replace(b, detect_round=state.round, detects=counted + (0 if event.search else 1))
                if event.search:
                    b = replace(b, repeats={**b.repeats, "Search": b.repeats.get("Search", 0) + 1})
                state = self._with_body(state, event.combatant_id, b)
                if not event.found:
                    return state
                t = body_of(state, event.target)
                assert t.stealth is not None
                left = [x for x in t.stealth.hidden_from if x != event.combatant_id]
                state = self._with_body(state, event.target, replace(
                    t, stealth=replace(t.stealth, hidden_from=left), detected_round=state.round))
                return state if left else self._unhidden(state, event.target)
            case Prepared():
                state = self._paid(state, event.combatant_id, event.action_points, event.free)
                b = body_of(state, event.combatant_id)
                ready = Ready(trigger=event.trigger, target=event.target, weapon=event.attack if event.kind == "martial" else None,
                              power=event.attack if event.kind == "power" else None, distance=event.distance)
                return self._with_body(state, event.combatant_id, replace(
                    b, energy_spent=b.energy_spent + event.energy, prepared=ready))
            case Commanded():
                owner, pet = state.combatants[event.combatant_id], state.combatants[event.companion]
                state = replace(state, combatants={**state.combatants, owner.id: replace(
                    owner, action_points=owner.action_points - 1), pet.id: replace(pet, action_points=event.action_points)})
                state = self._with_body(state, owner.id, replace(body_of(state, owner.id), command_round=state.round,
                                                                 commands=event.use))
                return self._with_body(state, pet.id, replace(body_of(state, pet.id), commanded_round=state.round))
            case PowerImprovised():
                state = self._paid(state, event.combatant_id, event.action_points, False)
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, energy_spent=b.energy_spent + (event.energy if event.created else 0),
                    repeats={**b.repeats, "action": b.repeats.get("action", 0) + 1}))
            case GrappleRolled():
                state = self._paid(state, event.combatant_id, event.action_points, False)
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, repeats={**b.repeats, "Grapple": b.repeats.get("Grapple", 0) + 1}))
            case ConditionApplied():
                b = body_of(state, event.combatant_id)
                a = Affliction(level=event.level, defence=event.defence, score=event.score, source=event.source)
                state = self._with_body(state, event.combatant_id, replace(b, conditions={**b.conditions, event.condition: a}))
                if event.action_points is not None:
                    c = state.combatants[event.combatant_id]
                    state = replace(state, combatants={**state.combatants, c.id: replace(c, action_points=event.action_points)})
                return state
            case ConditionRemoved():
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, conditions={k: v for k, v in b.conditions.items() if k != event.condition}))
            case OvercomeDue():
                return self._with_body(state, event.combatant_id, replace(body_of(state, event.combatant_id),
                                                                          overcome_due=True))
            case Overcame():
                b = body_of(state, event.combatant_id)
                gone = {n for roll in event.rolls for n in roll.overcome}
                return self._with_body(state, event.combatant_id, replace(
                    b, overcome_due=False, overcome_round=state.round,
                    conditions={k: v for k, v in b.conditions.items() if k not in gone}))
            case Stabilised():
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, stabilised=True, exhausted=b.exhausted + (1 if event.exhausted else 0)))
        return super().evolve_action(state, event)

    def _unhidden(self, state: EncounterState, cid: str) -> EncounterState:
        b = body_of(state, cid)
        return self._with_body(state, cid, replace(b, stealth=None, conditions={
            k: v for k, v in b.conditions.items() if k != "hidden"}))

    @staticmethod
    def _initiator_free(r: RealmsState, event: ActionTaken) -> bool:
        start = r.starts.get(event.combatant_id)
        return bool(start and start.initiator and not r.initiator_acted)

    def _paid(self, state: EncounterState, cid: str, cost: int, free: bool) -> EncounterState:
        r = rules(state)
        c = state.combatants[cid]
        if cost:
            state = replace(state, combatants={**state.combatants, cid: replace(c, action_points=c.action_points - cost)})
        start = r.starts.get(cid)
        if start is not None and start.initiator and not r.initiator_acted:
            state = replace(state, rules=replace(rules(state), initiator_acted=True))
        return state

    def _harmed(self, state: EncounterState, e: Harmed) -> EncounterState:
        r = rules(state)
        cid = e.combatant_id
        b = body_of(state, cid)
        sheet = state.combatants[cid].sheet
        changes: dict[str, Any] = {"damage": sheet.health - e.health}
        if e.armour:
            changes["armour_uses"] = b.armour_uses + 1
        if e.dead:
            changes.update(dead=True, dying=False)
        elif e.unconscious:
            changes["unconscious"] = True
        elif e.dying:
            # R22: "It falls prone, its AP drops to 1 at once"
            changes.update(dying=True, dying_step=0, stabilised=False)
            c = state.combatants[cid]
            if c.action_points > 1:
                state = replace(state, combatants={**state.combatants, cid: replace(c, action_points=1)})
        elif b.dying and e.cause == "dying":
            changes["dying_step"] = b.dying_step + 1
        elif b.dying and e.damage > 0:
            changes.update(dying_step=0, stabilised=False)  # "restarts it at 1d4"
        state = self._with_body(state, cid, replace(b, **changes))
        if r.attack is not None and e.cause == "attack":
            state = replace(state, rules=replace(rules(state), attack=None, window=None))
        return state

    @staticmethod
    def _with_body(state: EncounterState, cid: str, b: Body) -> EncounterState:
        r = rules(state)
        return replace(state, rules=replace(r, bodies={**r.bodies, cid: b}))

    # ---------------------------------------------------------- who sees what

    def shown(self, state: EncounterState) -> EncounterState:
        """Each creature's current Health and Energy, Dying, dead, unconscious and conditions,
        worked out when read (a replay equals the live state)."""
        return with_health_shown(state)

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> RealmsState:
        r = rules(state)
        if not hidden:
            return r
        return _without(r, hidden)

    # ---------------------------------------------------------- what it tells

    def sentences(self) -> dict[str, Sentence]:
        from domain.realms.log import SENTENCES
        return SENTENCES

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        match event:
            case AttackRolled():
                return attack_tallies(event.combatant_id, event.target, hit=event.hit, rolled=event.die is not None)
            case Harmed():
                return harm_tallies(event.by, event.combatant_id, event.damage)
            case Reacted():
                out = [Tally(event.combatant_id, "defences_tried", 1), Tally(event.combatant_id, "action_points_spent", 1)]
                if event.die is not None:
                    out.append(Tally(event.combatant_id, "rolls", 1))
                return out
            case ActionTaken():
                out = [Tally(event.combatant_id, "action_points_spent", event.action_points)] if event.action_points else []
                if event.die is not None:
                    out.append(Tally(event.combatant_id, "rolls", 1))
                return out
            case AttackDeclared() if event.action_points:
                return [Tally(event.combatant_id, "action_points_spent", event.action_points, event.target)]
        return []

    def coverage(self) -> list[Section]:
        from domain.realms.coverage import SECTIONS
        return SECTIONS

    def demo(self) -> DemoFight | None:
        from domain.realms.demo import AmbushAtTheFord
        return AmbushAtTheFord()
