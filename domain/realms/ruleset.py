"""The ``realms`` ruleset: the decider for shared/rules/realms-combat.txt, with the tables of
shared/rules/realms-gaps.md (R-numbers in the docstrings)."""

from __future__ import annotations

import msgspec

from domain.core import reactions, settings
from domain.core.action_points import ActionPointBudget, TurnResetBudget
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    Command,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.log import Sentence, Wording
from domain.core.resources import Resource, Resources
from domain.core.ruleset import Ruleset
from domain.realms.data import RealmsRules
from domain.core.tally import Exchange, Tally, attack_tallies, harm_tallies
from domain.realms import conditions as conds
from domain.realms import recovery, scores
from domain.realms.acting import Acting
from domain.realms.attacking import Attacking
from domain.realms.codes import OWN_CODES
from domain.realms.deciding import Deciding
from domain.realms.events import (
    COMMANDS,
    EVENTS,
    ActionTaken,
    ApplyCondition,
    Attack,
    AttackDeclared,
    AttackRolled,
    ChangeEnergy,
    CommandCompanion,
    ConditionApplied,
    ConditionRemoved,
    CounterInEffect,
    CoupDeGrace,
    DealDamage,
    Detect,
    DeterminationSet,
    Grapple,
    Harmed,
    Heal,
    Help,
    Helped,
    ImprovisedAction,
    ImprovisePower,
    InitiativeSet,
    ModifyRoll,
    Overcame,
    Overcome,
    Prepare,
    Reacted,
    Recover,
    RollModified,
    RemoveCondition,
    RulesSet,
    SetDetermination,
    SetInitiative,
    SetRealmsRules,
    Stabilise,
    Stabilised,
    StealthHide,
    TakeAction,
    UsePrepared,
)
from domain.realms.folding import Folding
from domain.realms.moves import Moving
from domain.realms.odds import AttackOdds, AttackOddsQuery, attack_odds
from domain.realms.sheet import (
    ABILITIES,
    RealmsSheet,
)
from domain.realms.shown import VISIBLE, with_health_shown
from domain.realms.starting import StartingCombat
from domain.realms.state import (
    AP,
    FREE_ABILITY_ROLL,
    FREE_INTERACTION,
    RealmsState,
    body_of,
    leaving_out,
    rules,
)
from domain.realms.turns import Turns

replace = msgspec.structs.replace

# the initiator's free first Action, taken before initiative is rolled: an attack or grapple, an Action
# of the Action table, Stealth or Hide
OPENING = (Attack, TakeAction, Grapple, StealthHide)


class Realms(Folding, Attacking, Acting, Deciding, Moving, Turns, StartingCombat, Ruleset):
    """RealmsRPG: the contract class, its parts from the modules beside it (one per part of the
    chapter)."""

    id = "realms"
    listed = 2
    capabilities = frozenset({"demo", "coverage", "odds", "tally"})
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

    refill_moments = frozenset({"combat_start", "turn_end"})  # those of resources() below
    resource_labels = {"AP": "Action Points", FREE_INTERACTION: "Free Interaction", FREE_ABILITY_ROLL: "Free Ability Roll"}
    # "At the end of your turn you gain one free Interaction and one free Ability Roll Action
    # to use during the round" (and at the start of combat, with the AP: our reading): everyone's
    _FREE = Resources((Resource(FREE_INTERACTION, 1, ("combat_start", "turn_end")),
                       Resource(FREE_ABILITY_ROLL, 1, ("combat_start", "turn_end"))))

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """The free Interaction and Ability Roll Action, the same for every creature (made once)."""
        return self._FREE

    def wording(self) -> Wording:
        return Wording(points="AP")

    # ------------------------------------------------------------ initiative


    # ------------------------------------------------------------ turns


    # ------------------------------------------------------ who must decide


    # ---------------------------------------------------------- decider

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        r = rules(state)
        match command:
            case SetRealmsRules():
                return [RulesSet(data=settings.merged(r.data, command.data, RealmsRules, "The RM's settings"))]
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
            case ModifyRoll():
                c = self.combatant(state, command.combatant_id)
                if body_of(state, c.id).dead:
                    raise RuleViolation("realms_dead", f"{c.name} is dead.")
                return [RollModified(combatant_id=c.id, amount=command.amount, reason=command.reason)]
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
        if not (isinstance(command, OPENING) and self._opening(state, command.combatant_id)):
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
                if ready.action is not None:
                    return self._use_prepared_action(state, c, ready, dice)
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
            case reactions.React() if command.reaction.lower() == reactions.PASSED:
                # the window's "pass" choice as a prompt's client sends it (domain/realms/deciding.py)
                c = self.combatant(state, command.combatant_id)
                passing = reactions.PassReaction(combatant_id=c.id, window=command.window)
                passed = reactions.decide_pass(r.window, passing, c.name)
                return [passed, *self._carry_on(self.evolve(state, passed), dice)]
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


    # ---------------------------------------------------------- attacks


    # ---------------------------------------------------------- evolve


    # ---------------------------------------------------------- who sees what

    _shown: tuple[EncounterState, EncounterState] | None = None  # the last state shown, and as shown

    def shown(self, state: EncounterState) -> EncounterState:
        """Each creature's current Health and Energy, Dying, dead, unconscious and conditions,
        worked out when read (a replay equals the live state). The last one is kept: the next moves
        show one state again for each offer tried (a state is never changed in place)."""
        last = self._shown
        if last is not None and last[0] is state:
            return last[1]
        out = with_health_shown(state)
        self._shown = (state, out)
        return out

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> RealmsState:
        r = rules(state)
        if not hidden:
            return r
        return leaving_out(r, hidden)

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

    def counted_events(self) -> frozenset[type[Event]]:
        return frozenset({AttackRolled, Harmed, Reacted, ActionTaken, AttackDeclared})

    def coverage(self) -> list[Section]:
        from domain.realms.coverage import SECTIONS
        return SECTIONS

    def demo(self) -> DemoFight | None:
        from domain.realms.demo import AmbushAtTheFord
        return AmbushAtTheFord()
