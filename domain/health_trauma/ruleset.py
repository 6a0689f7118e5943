"""The ``health-trauma`` ruleset: the decider for shared/rules/health-trauma-combat.txt."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import msgspec

from domain.core import reactions
from domain.core.action_points import ActionPointBudget
from domain.core.concerns import CombatantId
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant, CombatantRemoved, Command, EncounterState, Event, InitiativeRoll, InitiativeRolled, RoundStarted, TurnEnded,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import Entry, order_descending
from domain.core.log import Sentence
from domain.core.names import called_of
from domain.core.next_moves import Offer
from domain.core.pending import Choice, Decision, Refusal
from domain.core import settings
from domain.core.resources import Resource, Resources, held
from domain.core.ruleset import CommandInfo, Ruleset
from domain.core.tally import Exchange, Tally, attack_tallies
from domain.health_trauma import body as bodies
from domain.health_trauma.body import Body
from domain.health_trauma import moves as next_moves
from domain.health_trauma.codes import OWN_CODES
from domain.health_trauma.data import DEFAULT_DATA, ActionRule, HealthTraumaData, Size
from domain.health_trauma.events import (
    COMMANDS, EVENTS, ActionTaken, Attack, AttackDeclared, AttackRolled, Died, FearSave, FearSaveDue, GutWoundSave, Harmed,
    Heal, Healed, InitiativeTestRolled, InjuryRolled, Reacted, Recuperate, Recuperated, RollFearSave, RollInitiativeTest,
    RollInjury, RulesSet, SetHealthTraumaRules, Stabilise, Stabilised, TakeAction, TreatWound, WoundTreated,
)
from domain.health_trauma.odds import AttackOdds, AttackOddsQuery, attack_odds
from domain.health_trauma.sheet import HealthTraumaSheet
from domain.health_trauma.shown import VISIBLE, with_health_shown
from domain.health_trauma.upcasting import HT_SCHEMA_VERSIONS, HT_UPCASTERS

replace = msgspec.structs.replace

# "Quarter (1/4), Half (1/2), or Full (1) Actions": a turn is four quarters.
TURN = "turn quarters"
QUICK = "quick action"
REACTION = "reaction"
QUARTERS = {"quarter": 1, "half": 2, "full": 4}
SIZE_WORDS = {"quarter": "a Quarter action", "half": "a Half action", "full": "a Full action", "quick": "a Quick Action"}
ATTACK_WAITING = Refusal(code="ht_attack_waiting", message=OWN_CODES["ht_attack_waiting"])
INJURY_DUE = Refusal(code="ht_injury_due", message=OWN_CODES["ht_injury_due"])
# keeping one's Reaction for later: a React with "Pass" (as a PassReaction), so that a client
# answering a prompt with a choice's name (the choice field set to it) passes too
PASS = Choice(name="Pass")
FEAR_DUE = Refusal(code="ht_fear_save_due", message=OWN_CODES["ht_fear_save_due"])


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True):
    attacker: CombatantId
    target: CombatantId
    weapon: str


class HealthTraumaRules(msgspec.Struct, kw_only=True):
    """The ruleset's part of the state: the GM's data, each character's body, an attack waiting."""

    data: HealthTraumaData = DEFAULT_DATA
    bodies: dict[CombatantId, Body] = msgspec.field(default_factory=dict)
    # the Initiative Tests players made for the GM's next RollInitiative (at ``tested_at``: the versions)
    initiative_tests: dict[CombatantId, InitiativeRoll] = msgspec.field(default_factory=dict)
    tested_at: dict[CombatantId, int] = msgspec.field(default_factory=dict)
    # the weapon each has drawn during the fight ("Draw a weapon"): their readied one now
    readied: dict[CombatantId, str] = msgspec.field(default_factory=dict)
    attack: PendingAttack | None = None
    window: reactions.ReactionWindow | None = None


# the ruleset's part of a state: a C call (asked several times on every event of a fold)
rules: Callable[[EncounterState], HealthTraumaRules] = operator.attrgetter("rules")


def body_of(state: EncounterState, cid: str) -> Body:
    return rules(state).bodies.get(cid) or Body()


def readied_of(state: EncounterState, cid: str) -> str:
    """The name of ``cid``'s readied weapon: the one last drawn, else the sheet's readied one (or its first)."""
    drawn = rules(state).readied.get(cid)
    if drawn is not None:
        return drawn
    sheet = state.combatants[cid].sheet
    return sheet.readied or sheet.weapons[0].name


class HealthTrauma(Ruleset):
    id = "health-trauma"
    listed = 1
    capabilities = frozenset({"demo", "coverage", "odds", "tally"})
    name = "Health/Trauma"
    sheet_type = HealthTraumaSheet
    own_codes = OWN_CODES
    extra_commands = (*COMMANDS, *reactions.COMMANDS)
    extra_events = (*EVENTS, *reactions.EVENTS)
    rule_texts = {"combat": "health-trauma-combat.txt"}
    after_fight_commands = (Heal, Stabilise, TreatWound, Recuperate)
    odds_query = AttackOddsQuery
    odds_answer = AttackOdds
    odds_operation_id = "getAttackOdds"
    # players and spectators see an NPC's wound level and conditions, not its sheet (domain/health_trauma/shown.py)
    visible_sheet_fields = VISIBLE
    schema_versions = HT_SCHEMA_VERSIONS  # old payloads read through domain/health_trauma/upcasting.py
    upcasters = HT_UPCASTERS

    def odds(self, query: AttackOddsQuery) -> AttackOdds:
        """The chance an attack hits, for the numbers asked (our default Attack Test)."""
        return attack_odds(query)

    # ------------------------------------------------------------ hooks

    def initial_rules(self) -> HealthTraumaRules:
        return HealthTraumaRules()

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # a turn of quarters, a Quick Action, a Reaction: resources

    refill_moments = frozenset({"combat_start", "turn_start", "turn_end"})  # those of resources() below

    # "one Free Quick Action during each of your turns and one Reaction inbetween your turns": everyone's
    _TURN = Resources((
        Resource(TURN, 4, ("turn_start",)),
        Resource(QUICK, 1, ("turn_start",)),
        Resource(REACTION, 1, ("combat_start", "turn_end")),
    ))

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """A turn of quarters, the Quick Action and the Reaction, the same for everyone (made once)."""
        return self._TURN

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """"Each participant in Combat will make an Initiative Test ... placed in descending order":
        the tests players made since the last roll stand (told in their own events); the GM rolls the rest."""
        made = self.tests_made(state)
        rolled, entries = [], []
        for c in sorted(state.combatants.values(), key=lambda c: c.seq):
            roll = made.get(c.id)
            if roll is None:
                roll = self._initiative_test(state, c, dice)
                rolled.append(roll)
            entries.append(Entry(c.id, roll.total, c.seq, tiebreak=c.sheet.initiative_bonus))
        return InitiativeRolled(rolls=rolled, order=order_descending(entries))

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        """"These results will be placed in descending order": the GM orders only equal results
        (one who joined without a test acts after those with one, as they were placed)."""
        def result(cid: str) -> float:
            total = state.combatants[cid].initiative
            return float("-inf") if total is None else total
        for before, after in zip(order, order[1:]):
            if result(before) < result(after):
                a, b = state.combatants[before], state.combatants[after]
                raise RuleViolation("ht_initiative_order", f"{called_of(a)[:1].upper()}{called_of(a)[1:]} cannot act "
                                    f"before {called_of(b)}: Initiative Tests are placed in descending order, and "
                                    "only equal results are the GM's to order.")

    @staticmethod
    def tests_made(state: EncounterState) -> dict[str, InitiativeRoll]:
        """The Initiative Tests made since the last initiative roll, by combatant still here."""
        r = rules(state)
        return {cid: roll for cid, roll in r.initiative_tests.items()
                if cid in state.combatants and r.tested_at.get(cid, 0) > state.initiative_version}

    @staticmethod
    def _initiative_test(state: EncounterState, c: Combatant, dice: Dice) -> InitiativeRoll:
        """Ours: 1D``initiative_die`` + the sheet's initiative bonus (the text gives no formula)."""
        die = dice.roll(rules(state).data.initiative_die, "initiative", c.id)
        bonus = c.sheet.initiative_bonus
        return InitiativeRoll(who=c.id, die=die, modifier=bonus, total=die.face + bonus)

    def turn_finished(self, state: EncounterState, combatant_id: str) -> EncounterState:
        b = body_of(state, combatant_id)
        if b.stunned:  # "can't act on their turn": that turn
            return self._with_body(state, combatant_id, replace(b, stunned=False))
        return state

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """"At the start of the character's turn they must take a Fear MSvs Trauma"; the dead's turn
        is skipped."""
        b = body_of(state, combatant_id)
        if b.dead:
            return self._skip_dead(state, combatant_id, dice)
        if b.reeling != "active" or b.dead or b.coma or combatant_id not in state.combatants:
            return []
        return [FearSaveDue(combatant_id=combatant_id)]  # the character rolls it (HTRollFearSave)

    def _skip_dead(self, state: EncounterState, cid: str, dice: Dice) -> list[Event]:
        """"The character is dead": their turn ends as it comes (and the round with it when it was
        the last), so nobody ends it for them; unless nobody in the order is alive."""
        if cid not in state.combatants or all(body_of(state, x).dead for x in state.order if x != cid):
            return []
        c = state.combatants[cid]
        after = self.budget(c).at_turn_end(c.action_points)
        ended = TurnEnded(combatant_id=cid, action_points=after if after != c.action_points else None)
        events: list[Event] = [ended]
        if all(x in {*state.acted, cid} for x in state.order):
            nxt = state.round + 1
            grants = {x: self.budget(o).at_round_start(after if x == cid else o.action_points, nxt)
                      for x, o in state.combatants.items()}
            events.append(RoundStarted(round=nxt, action_points=grants))
        return self.with_steps(state, events, dice)

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        """"A dying character takes one point of damage at the end of each round"."""
        out: list[Event] = []
        for cid in state.order:
            b = body_of(state, cid)
            if b.dying and not b.dead:
                out += self.harm(state, cid, 1, "dying", dice)
        return out

    def command_info(self) -> list[CommandInfo]:
        return [CommandInfo(type=t.__struct_config__.tag, summary=(t.__doc__ or "").split("\n")[0],
                            who="player" if t.actor_field else "gm") for t in COMMANDS]

    # ------------------------------------------------------ who must decide

    def pending(self, state: EncounterState) -> list[Decision]:
        if state.status != "active":
            return []
        r = rules(state)
        out: list[Decision] = []
        if r.window is not None and not r.window.settled:
            # each Reaction, or keeping the Reaction for later: passing
            passing = () if PASS.name in r.window.reactions else (PASS,)
            out += [replace(d, blocks_turn_end=True, refusal=ATTACK_WAITING, choices=(*d.choices, *passing))
                    for d in reactions.decisions(r.window)]
        for cid in state.order:
            b = r.bodies.get(cid)
            if b is not None and b.injury_due and not b.dead:
                out.append(Decision(
                    id=f"injury:{cid}:{len(b.injuries)}", kind="injury", combatant_id=cid, command="HTRollInjury",
                    body={"combatant_id": cid}, blocks_turn_end=True, refusal=INJURY_DUE,
                    summary="Dying: roll 1D10, add five for each injury you already have, then consult the chart."))
            if b is not None and b.fear_save_due and not b.dead:
                out.append(Decision(
                    id=f"fear:{cid}:{state.round}", kind="fear_save", combatant_id=cid, command="HTRollFearSave",
                    body={"combatant_id": cid}, blocks_turn_end=True, refusal=FEAR_DUE,
                    summary="Reeling: take a Fear MSvs against your Trauma; on a failure you are Stunned this turn."))
        return out

    # ------------------------------------------------------ the next moves

    resource_labels = {TURN: "Turn (quarters)", QUICK: "Quick Action", REACTION: "Reaction"}
    initiative_dice = ("one die of the encounter's initiative_die (a d20 unless the GM's data says otherwise) for "
                       "each combatant, in the order they were added, but none for one who made their own "
                       "Initiative Test (HTRollInitiativeTest) since the last roll")

    def acting(self, state: EncounterState) -> list[str]:
        """Whose turn it is; before initiative is rolled, the players' characters: "Players will
        roll for their characters while the Game Master rolls for Non-Player Characters"."""
        if state.status == "setup" and not state.initiative_rolled:
            made = self.tests_made(state)
            return [c.id for c in sorted(state.combatants.values(), key=lambda c: c.seq)
                    if c.controller == "player" and c.id not in made]
        return super().acting(state)

    def moves(self, state: EncounterState, combatant_id: str) -> list[Offer]:
        r = rules(state)
        if combatant_id not in state.combatants:
            return []
        return next_moves.moves(state, r.data, r.bodies, combatant_id, readied_of(state, combatant_id))

    def rulings(self, state: EncounterState) -> list[Offer]:
        r = rules(state)
        return next_moves.rulings(state, r.data, r.bodies, r.window)

    def examples(self) -> list[tuple[str, dict[str, Any]]]:
        return [(label, dict(body)) for label, body in next_moves.EXAMPLES]

    def out_of_fight(self, state: EncounterState, combatant: Combatant) -> bool:
        return next_moves.out_of_fight(body_of(state, combatant.id))

    # ---------------------------------------------------------- decider

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        r = rules(state)
        match command:
            case SetHealthTraumaRules():
                return [RulesSet(data=settings.merged(r.data, command.data, HealthTraumaData,
                                                      "The Health/Trauma data"))]
            case RollInitiativeTest():
                c, _ = self._living(state, command.combatant_id)
                if state.status != "setup":  # "make an Initiative Test before Combat begins"
                    raise RuleViolation("ht_combat_begun", f"The fight has begun: {c.name}'s Initiative Test is made "
                                        "before Combat begins, not during it.")
                if c.id in self.tests_made(state):
                    raise RuleViolation("ht_initiative_tested", f"{c.name} has made their Initiative Test: the GM's "
                                        "RollInitiative orders everyone next.")
                return [InitiativeTestRolled(roll=self._initiative_test(state, c, dice))]
            case Heal():
                return self._heal(state, command, dice)
            case Stabilise():
                c, b = self._living(state, command.combatant_id)
                if b.injury_due:
                    raise RuleViolation("ht_injury_due", f"{c.name}'s injury roll is still due: roll it first.")
                if not b.dying:
                    raise RuleViolation("ht_not_dying", f"{c.name} is not dying.")
                return [Stabilised(combatant_id=c.id)]
            case TreatWound():
                c, b = self._living(state, command.combatant_id)
                if not b.dazed:
                    raise RuleViolation("ht_not_dazed", f"{c.name} has no untreated gut wound.")
                return [WoundTreated(combatant_id=c.id)]
            case Recuperate():
                c, b = self._living(state, command.combatant_id)
                if b.dying or b.injury_due:
                    raise RuleViolation("ht_still_dying", f"{c.name} is dying: stabilise them before they recuperate.")
                return [Recuperated(combatant_id=c.id)]
            case RollFearSave():
                self.require_active(state)
                c, b = self._living(state, command.combatant_id)
                if not b.fear_save_due:
                    raise RuleViolation("ht_no_fear_save_due", f"{c.name} has no Fear save due.")
                die = dice.roll(r.data.save_die, "Fear MSvs", c.id)
                total = die.face + c.sheet.mental_save - b.penalty
                vs = bodies.fear_save_against(b, r.data.fear_save_against)
                return [FearSave(combatant_id=c.id, die=die, vs=vs, total=total, passed=total > vs)]
            case RollInjury():
                self.require_active(state)
                c, b = self._living(state, command.combatant_id)
                if not b.injury_due:
                    raise RuleViolation("ht_no_injury_due", f"{c.name} has no injury roll due.")
                return self._injury(state, c, b, dice)
        self.require_active(state)
        match command:
            case Attack():
                return self._attack(state, command, dice)
            case TakeAction():
                c = self.require_turn(state, command.combatant_id)
                action = r.data.action(command.action)
                if action is None:
                    raise RuleViolation("ht_unknown_action", f"“{command.action}” is not on this encounter's action "
                                        f"list ({', '.join(a.name for a in r.data.actions)}).")
                b = body_of(state, c.id)
                self._able(c, b, move=action.move)
                if action.needs_arms and bodies.lost_both(b, r.data.pair("arm")):
                    raise RuleViolation("ht_needs_arms", f"Both of {c.name}'s arms are maimed: no {action.name}.")
                legs = bodies.lost_both(b, r.data.pair("leg"))
                if legs and (action.move and not action.crawl or action.needs_legs):
                    raise RuleViolation("ht_crawl_only", f"Both of {c.name}'s legs are maimed: only the Crawl Move Actions.")
                drawn = self._drawn(state, c, action, command.weapon)
                self._afford(c, action.size, action.name)
                return [ActionTaken(combatant_id=c.id, action=action.name, size=action.size, weapon=drawn)]
            case reactions.React():
                c = self.combatant(state, command.combatant_id)
                window = reactions.check_answer(r.window, command.window, c.id, c.name)
                if command.reaction == PASS.name and PASS.name not in window.reactions:
                    return [reactions.ReactionPassed(window=window.id, combatant_id=c.id),
                            *self._resolve(state, 0, None, dice)]
                reactions.check_reaction(window, command.reaction)
                self._able(c, body_of(state, c.id))  # Dazed: "may only take the move action"
                self.check_resource(c, REACTION, 1, "a Reaction")
                rule = r.data.reaction(command.reaction)
                bonus = rule.guard_bonus if rule else 0
                return [Reacted(window=window.id, combatant_id=c.id, reaction=command.reaction),
                        *self._resolve(state, bonus, command.reaction, dice)]
            case reactions.PassReaction():
                c = self.combatant(state, command.combatant_id)
                passed = reactions.decide_pass(r.window, command, c.name)
                return [passed, *self._resolve(state, 0, None, dice)]
            case reactions.CloseReactions():
                closed = reactions.decide_close(r.window, command)
                return [closed, *self._resolve(state, 0, None, dice)]
        return super().decide_action(state, command, dice)

    def _living(self, state: EncounterState, cid: str) -> tuple[Combatant, Body]:
        c = self.combatant(state, cid)
        b = body_of(state, cid)
        if b.dead:
            raise RuleViolation("ht_dead", f"{c.name} is dead. Death is final: there are no ways of returning the dead.")
        return c, b

    def _able(self, c: Combatant, b: Body, *, move: bool = False) -> None:
        """Refuse an action of one who cannot act (dead, in a coma, Stunned, or Dazed and not moving)."""
        if b.dead:
            raise RuleViolation("ht_dead", f"{c.name} is dead.")
        if b.fear_save_due:
            raise RuleViolation("ht_fear_save_due", f"{c.name} is reeling: they take the Fear MSvs before acting.")
        if b.coma:
            raise RuleViolation("ht_in_coma", f"{c.name} is in a coma until their Trauma is reduced to 0.")
        if b.stunned:
            raise RuleViolation("ht_stunned", f"{c.name} is Stunned and can't act on this turn.")
        if b.dazed and not move:
            raise RuleViolation("ht_dazed_move_only", f"{c.name} is Dazed and may only take the move action until treated.")

    @staticmethod
    def _drawn(state: EncounterState, c: Combatant, action: ActionRule, weapon: str | None) -> str | None:
        """The weapon an action that draws one readies ("Draw a weapon"): one of the sheet's, not
        the one already readied; an action that draws none names none."""
        if not action.draws:
            if weapon is not None:
                raise RuleViolation("ht_draws_no_weapon", f"{action.name} draws no weapon: send it without one.")
            return None
        names = [w.name for w in c.sheet.weapons]
        if weapon is None or weapon not in names:
            raise RuleViolation("ht_unknown_weapon", f"{action.name}: name one of {c.name}'s weapons "
                                f"({', '.join(names)}).")
        if weapon == readied_of(state, c.id):
            raise RuleViolation("ht_already_readied", f"{c.name}'s {weapon} is already readied.")
        return weapon

    def _afford(self, c: Combatant, size: Size, what: str) -> None:
        if size == "quick":
            self.check_resource(c, QUICK, 1, f"{what} ({SIZE_WORDS[size]})")
        else:
            self.check_resource(c, TURN, QUARTERS[size], f"{what} ({SIZE_WORDS[size]})")

    def _attack(self, state: EncounterState, cmd: Attack, dice: Dice) -> list[Event]:
        r = rules(state)
        c = self.require_turn(state, cmd.combatant_id)
        if r.window is not None and not r.window.settled:
            raise RuleViolation("ht_attack_waiting", "An attack waits for its target's Reaction: answer it (or the GM closes it) first.")
        b = body_of(state, c.id)
        self._able(c, b)
        if r.data.attack_needs_arms and bodies.lost_both(b, r.data.pair("arm")):
            raise RuleViolation("ht_needs_arms", f"Both of {c.name}'s arms are maimed: they cannot attack.")
        target = state.combatants.get(cmd.target)
        if target is None:
            raise RuleViolation("unknown_combatant", f"There is no combatant {cmd.target} in this encounter.",
                                combatant_id=cmd.target)
        if target.id == c.id or body_of(state, target.id).dead:
            raise RuleViolation("ht_not_a_target", f"{c.name} needs another combatant, not yet dead, to attack.")
        readied = readied_of(state, c.id)
        weapon = c.sheet.weapon(cmd.weapon or readied)
        if weapon is None:
            raise RuleViolation("ht_unknown_weapon", f"{c.name} has no weapon “{cmd.weapon}”.")
        if weapon.name != readied:  # "within your readied weapons listed Range or Reach"
            raise RuleViolation("ht_not_readied", f"{c.name}'s {weapon.name} is not readied ({readied} is): "
                                "draw it first (an action that draws a weapon, such as Draw a weapon).")
        if cmd.distance < 0 or cmd.distance > weapon.range:
            reach = "base to base contact" if weapon.range == 0 else f"{weapon.range} spaces"
            raise RuleViolation("ht_out_of_range", f"{target.name} is {cmd.distance} spaces away; {weapon.name} "
                                f"reaches {reach}.", distance=cmd.distance, range=weapon.range)
        size = r.data.attack_size
        self._afford(c, size, "an attack")
        declared = AttackDeclared(combatant_id=c.id, target=target.id, weapon=weapon.name, distance=cmd.distance,
                                  size=size)
        tb = body_of(state, target.id)
        if r.data.reactions and held(target).get(REACTION, 0) >= 1 and not (tb.coma or tb.stunned or tb.dazed):
            return [declared, reactions.open_window(
                f"attack:{state.version + 1}", c.id, [target.id], tuple(x.name for x in r.data.reactions),
                f"{called_of(c)}'s attack on {called_of(target)}")]
        after = self.evolve(state, declared)
        return [declared, *self._resolve(after, 0, None, dice)]

    def _resolve(self, state: EncounterState, guard_bonus: int, reaction: str | None, dice: Dice) -> list[Event]:
        """The Attack Test (the GM's data: the text's formula is missing), then the damage."""
        r = rules(state)
        pending = r.attack
        assert pending is not None
        data = r.data
        a, t = state.combatants[pending.attacker], state.combatants[pending.target]
        penalty = body_of(state, a.id).penalty
        die = dice.roll(data.attack_die, "attack test", a.id)
        total = die.face + a.sheet.combat_skill - penalty
        defence = dice.roll(data.defence_die, "guard", t.id) if data.defence_die else None
        guard = (defence.face if defence else 0) + t.sheet.guard + guard_bonus
        hit = total > guard or (data.attacker_wins_ties and total == guard)
        weapon = a.sheet.weapon(pending.weapon) or a.sheet.weapons[0]
        rolls, rolled, damage = [], 0, 0
        if hit:
            rolls = [dice.roll(weapon.damage_sides, "damage", a.id) for _ in range(weapon.damage_dice)]
            rolled = max(sum(d.face for d in rolls) + weapon.damage_bonus - penalty, 0)
            damage = max(rolled - t.sheet.protection, 0)
        rolled_event = AttackRolled(
            combatant_id=a.id, target=t.id, weapon=weapon.name, attack_die=die, attack_total=total,
            defence_die=defence, guard_total=guard, hit=hit, damage_dice=rolls, rolled_damage=rolled,
            protection=t.sheet.protection if hit else 0, damage=damage, reaction=reaction)
        return [rolled_event, *self.harm(state, t.id, damage, "attack", dice)]

    def harm(self, state: EncounterState, cid: str, damage: int, cause: str, dice: Dice) -> list[Event]:
        """``damage`` taken: health down, Trauma for damage taken while dying, the dying state at
        0 or below, a gut wound's BSvs, and death once Trauma reaches the maximum Health."""
        b = body_of(state, cid)
        if damage <= 0 or b.dead:
            return []
        sheet = state.combatants[cid].sheet
        health = bodies.current(sheet, b) - damage
        trauma = damage if b.dying else 0  # "The most common way to receive Trauma is taking damage while dying"
        out: list[Event] = [Harmed(combatant_id=cid, damage=damage, health=health, cause=cause, trauma=trauma,
                                   dying=not b.dying and health <= 0)]
        if b.gut_wound:  # "they must make a BSvs Damage Taken each time they take damage"
            die = dice.roll(rules(state).data.save_die, "gut wound BSvs", cid)
            total = die.face + sheet.body_save - b.penalty
            passed = total > damage
            out.append(GutWoundSave(combatant_id=cid, die=die, vs=damage, total=total, passed=passed))
            trauma += 0 if passed else 1
        if trauma and rules(state).data.dead_of_trauma(sheet.base_health, b.trauma + trauma):
            out.append(Died(combatant_id=cid, cause="trauma"))
        return out

    def _injury(self, state: EncounterState, c: Combatant, b: Body, dice: Dice) -> list[Event]:
        """"Roll 1D10, add five for each injury you already have, then consult the chart"."""
        data = rules(state).data
        die = dice.roll(10, "injury", c.id)
        had = len(b.injuries)
        total = die.face + 5 * had
        result = data.injury(total)
        event = InjuryRolled(combatant_id=c.id, die=die, injuries_had=had, total=total, result=result)
        if result == "sliced_muscle":
            event = replace(event, penalty=data.penalty_x)
        elif result == "reeling" and "reeling" in b.injuries:
            event = replace(event, coma=True)  # "If this result is rolled again ... falls into a coma"
        elif result == "maimed":
            part_die = dice.roll(6, "maimed part", c.id)
            part = data.part(part_die.face)
            event = replace(event, part_die=part_die, part=part)
            if part in b.maimed or part in b.removed:  # "roll the same result, that part is removed"
                extra = dice.roll(3, "removed part Trauma", c.id)
                event = replace(event, removed=True, removal_die=extra, trauma=3 + extra.face)
        out: list[Event] = [event]
        if result == "mortal_blow":
            out.append(Died(combatant_id=c.id, cause="mortal_blow"))
        elif event.trauma and data.dead_of_trauma(c.sheet.base_health, b.trauma + event.trauma):
            out.append(Died(combatant_id=c.id, cause="trauma"))
        return out

    def _heal(self, state: EncounterState, cmd: Heal, dice: Dice) -> list[Event]:
        c, b = self._living(state, cmd.combatant_id)
        if b.injury_due:
            raise RuleViolation("ht_injury_due", f"{c.name}'s injury roll is still due: roll it first.")
        top, now = bodies.maximum(c.sheet, b), bodies.current(c.sheet, b)
        if now >= top:
            raise RuleViolation("ht_full_health", f"{c.name} is at their maximum health ({top}): "
                                "a character cannot be healed over their maximum health.")
        rolled = []
        if cmd.amount is not None:
            if cmd.amount < 1 or cmd.dice_count:
                raise RuleViolation("ht_bad_amount", "Heal by an amount of 1 or more, or by dice: not both.")
            amount = cmd.amount
        else:
            if not 1 <= cmd.dice_count <= 10 or not 2 <= cmd.dice_sides <= 100:
                raise RuleViolation("ht_bad_amount", "Heal by an amount of 1 or more, or by 1 to 10 dice to roll.")
            rolled = [dice.roll(cmd.dice_sides, "healing", c.id) for _ in range(cmd.dice_count)]
            amount = max(sum(d.face for d in rolled) + cmd.bonus, 0)
        health = min(now + amount, top)
        return [Healed(combatant_id=c.id, amount=health - now, health=health, dice=rolled,
                       revived=b.dying and health > 0)]

    # ---------------------------------------------------------- evolve

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        match event:
            case RulesSet():
                return replace(state, rules=replace(r, data=event.data))
            case InitiativeTestRolled():
                cid = event.roll.who
                tests = replace(r, initiative_tests={**r.initiative_tests, cid: event.roll},
                                tested_at={**r.tested_at, cid: state.version + 1})
                combatants = {**state.combatants, cid: replace(state.combatants[cid], initiative=event.roll.total)}
                return replace(state, combatants=combatants, rules=tests)
            case ActionTaken():
                state = self._spend(state, event.combatant_id, event.size)
                if event.weapon is None:
                    return state
                r = rules(state)
                return replace(state, rules=replace(r, readied={**r.readied, event.combatant_id: event.weapon}))
            case AttackDeclared():
                state = self._spend(state, event.combatant_id, event.size)
                return replace(state, rules=replace(rules(state), attack=PendingAttack(
                    attacker=event.combatant_id, target=event.target, weapon=event.weapon)))
            case reactions.ReactionsOpened() | reactions.ReactionPassed() | reactions.ReactionsClosed():
                return replace(state, rules=replace(r, window=reactions.evolve_window(r.window, event)))
            case Reacted():
                state = self.spent(state, event.combatant_id, REACTION, 1)
                return replace(state, rules=replace(rules(state), window=reactions.answered(
                    r.window, event.combatant_id, event.reaction)))
            case AttackRolled():
                return replace(state, rules=replace(r, window=None, attack=None))
        cid = event.combatant_id
        b = body_of(state, cid)
        match event:
            case Harmed():
                b = replace(b, health=event.health, trauma=b.trauma + event.trauma)
                if event.dying:
                    b = replace(b, dying=True, injury_due=True, injuring_damage=event.damage)
            case GutWoundSave():
                b = b if event.passed else replace(b, trauma=b.trauma + 1)
            case Died():
                b = replace(b, dead=True, death=event.cause, dying=False, injury_due=False, fear_save_due=False,
                            stunned=False)
            case InjuryRolled():
                b = replace(b, injury_due=False, injuries=[*b.injuries, event.result], penalty=b.penalty + event.penalty,
                            trauma=b.trauma + event.trauma)
                if event.coma:
                    b = replace(b, coma=True)
                elif event.result == "reeling":
                    b = replace(b, reeling="pending" if b.dying else "active", reeling_trauma=b.trauma)
                elif event.result == "gut_wound":
                    b = replace(b, gut_wound=True, dazed=True)
                elif event.part is not None:
                    if event.removed:
                        b = replace(b, maimed=[p for p in b.maimed if p != event.part], removed=[*b.removed, event.part])
                    else:
                        b = replace(b, maimed=[*b.maimed, event.part])
            case FearSaveDue():
                b = replace(b, fear_save_due=True)
            case FearSave():
                b = replace(b, fear_save_due=False)
                b = replace(b, reeling="none", stunned=False) if event.passed else replace(b, stunned=True)
            case Healed():
                b = replace(b, health=event.health)
                if event.revived:
                    b = self._out_of_dying(b)
            case Stabilised():
                b = self._out_of_dying(b)
            case WoundTreated():
                b = replace(b, dazed=False)
            case Recuperated():
                # "until they are able to recuperate": Trauma back to 0; what lasts "until your
                # trauma is reduced to 0" ends with it (the -X, a coma); "fully recovered": the gut wound
                b = replace(b, trauma=0, health=None, penalty=0, coma=False, gut_wound=False, dazed=False, stunned=False)
            case _:
                return super().evolve_action(state, event)
        return self._with_body(state, cid, b)

    @staticmethod
    def _out_of_dying(b: Body) -> Body:
        """No longer dying; a reeling result "takes effect if they are stabilized or healed"."""
        return replace(b, dying=False, reeling="active" if b.reeling == "pending" else b.reeling)

    def _spend(self, state: EncounterState, cid: str, size: Size) -> EncounterState:
        if size == "quick":
            return self.spent(state, cid, QUICK, 1)
        return self.spent(state, cid, TURN, QUARTERS[size])

    @staticmethod
    def _with_body(state: EncounterState, cid: str, b: Body) -> EncounterState:
        r = rules(state)
        return replace(state, rules=replace(r, bodies={**r.bodies, cid: b}))

    # ---------------------------------------------------------- who sees what

    def shown(self, state: EncounterState) -> EncounterState:
        """Each combatant's current and maximum Health, Trauma, Wounded, dying, dead, injuries
        and conditions, worked out when read (a replay equals the live state)."""
        return with_health_shown(state)

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """One taken out of the fight leaves nothing behind: its body and Initiative Test go, an
        attack it made or that targets it is void (so one added again under the same id starts afresh)."""
        state = super().evolve_removed(state, event)
        r, cid = rules(state), event.combatant_id
        attack, window = r.attack, r.window
        if attack is not None and cid in (attack.attacker, attack.target):
            attack, window = None, None
        return replace(state, rules=replace(
            r, attack=attack, window=window, bodies={k: v for k, v in r.bodies.items() if k != cid},
            initiative_tests={k: v for k, v in r.initiative_tests.items() if k != cid},
            tested_at={k: v for k, v in r.tested_at.items() if k != cid},
            readied={k: v for k, v in r.readied.items() if k != cid}))

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> HealthTraumaRules:
        r = rules(state)
        if not hidden:
            return r
        window, attack = r.window, r.attack
        if attack is not None and (attack.attacker in hidden or attack.target in hidden):
            window, attack = None, None
        if window is not None and (window.actor in hidden or any(c in hidden for c in window.may_react)):
            window = None
        return replace(r, bodies={k: v for k, v in r.bodies.items() if k not in hidden}, window=window, attack=attack,
                       initiative_tests={k: v for k, v in r.initiative_tests.items() if k not in hidden},
                       tested_at={k: v for k, v in r.tested_at.items() if k not in hidden},
                       readied={k: v for k, v in r.readied.items() if k not in hidden})

    # ---------------------------------------------------------- what it tells

    def sentences(self) -> dict[str, Sentence]:
        from domain.health_trauma.log import SENTENCES
        return SENTENCES

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        match event:
            case AttackRolled():
                return attack_tallies(event.combatant_id, event.target, hit=event.hit, damage=event.damage,
                                      defended=event.reaction is not None)
            case InjuryRolled() | FearSave() | GutWoundSave():
                return [Tally(event.combatant_id, "rolls", 1)]
        return []

    def counted_events(self) -> frozenset[type[Event]]:
        return frozenset({AttackRolled, InjuryRolled, FearSave, GutWoundSave})

    def coverage(self) -> list[Section]:
        from domain.health_trauma.coverage import SECTIONS
        return SECTIONS

    def demo(self) -> DemoFight | None:
        from domain.health_trauma.demo import RaidOnTheMill
        return RaidOnTheMill()

