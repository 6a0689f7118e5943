"""The ``novus`` ruleset: the decider for shared/rules/novus-combat.txt (with novus-gaps.md).

A round has three phases (core's ``Phases``): every combatant declares from the lowest Initiative
Point to the highest, then the declared actions resolve from the highest to the lowest, each on
the combatant's turn (core's turn goes down the order of play, highest IP first), then the attacks
left for the end of the round. The attacks themselves are in ``domain/novus/attacking.py``, the
state in ``domain/novus/state.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import msgspec

from domain.core import reactions
from domain.core.action_points import ActionPointBudget
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.dice import Dice
from domain.core.encounter import (
    AddCombatant, Combatant, CombatantAdded, CombatantRemoved, Command, EncounterState, Event, InitiativeRoll, InitiativeRolled, TurnOrderSet,
)
from domain.core.errors import CODES, RuleViolation
from domain.core.initiative import Entry, order_descending
from domain.core.log import Sentence
from domain.core.pending import Choice, Decision
from domain.core.phases import Phase, PhasePosition
from domain.core.resources import Resource, Resources, held
from domain.core.ruleset import CommandInfo, Ruleset
from domain.core.tally import Exchange, Tally, attack_tallies, harm_tallies
from domain.novus import actions as ap_table
from domain.novus import limbs, performing
from domain.novus.events import DisarmSaveRolled
from domain.novus.upcasting import NOVUS_SCHEMA_VERSIONS, NOVUS_UPCASTERS
from domain.novus.attacking import Attacking
from domain.novus.actions import HASTED_AP, ROUND_AP, SPELLS, Action
from domain.novus.codes import OWN_CODES
from domain.novus import fate, holding, snags, zones
from domain.novus.opportunity import Opportunity
from domain.novus.holding import Holding, RollOpposedSave
from domain.novus.moves import check_cap, check_seated
from domain.novus.dice import roll_2d10, save_bonus, succeeds
from domain.novus.events import (
    COMMANDS, EVENTS, ActHeld, ActionHeld, ActionTaken, ActionsCancelled, ActionsDeclared, ActionsResolved,
    AttackRolled, BlockRolled, BoonsSpent, Cancel, Damaged, Declare, Harm, HasteSet, Heal, Healed, HeldActionsTaken,
    Hold, InitiativeRerolled, LateAttacksCancelled, LateAttacksResolved, MountedSet, Resolve, RidingRolled,
    RollGroupPerception, RollSave, RollSkill, RollStraySave, RulesSet, SaveRolled, SetHaste, SetMounted,
    SetNovusRules, SetSurprised, SkillRolled, SpendBoons, StraySaveRolled, SurpriseSet,
)
from domain.novus.odds import AttackOdds, AttackOddsQuery, attack_odds
from domain.novus.prompts import cancels_and_holds
from domain.novus.sheet import NovusSheet
from domain.novus.shown import VISIBLE, with_hits_shown
from domain.novus.state import (
    AP, _NO_SKILL, PHASES, SURPRISE, RESOLVE_FIRST, LATE_FIRST, BOONS_DUE, OPPORTUNITY, STRAY, WAITS, ATTACKS,
    Declaration, BoonsDue, HeldContest, StrayShot, Mount, NovusRules, leaving_out, rules, taken_out,
)

replace = msgspec.structs.replace


@functools.lru_cache(maxsize=64)
def _round_ap(amount: int) -> Resources:
    """The round's AP, ``amount`` of them (made once for each amount: a fold asks every round)."""
    return Resources((Resource(AP, amount, ("round_start",)),))


class Novus(fate.Fate, Holding, snags.Snags, Opportunity, Attacking, Ruleset):
    id = "novus"
    name = "Novus"
    sheet_type = NovusSheet
    own_codes = OWN_CODES
    extra_commands = (*COMMANDS, *holding.COMMANDS, *snags.COMMANDS, *reactions.COMMANDS)
    extra_events = (*EVENTS, *holding.EVENTS, *snags.EVENTS, *reactions.EVENTS)
    rule_texts = {"combat": "novus-combat.txt"}
    odds_query = AttackOddsQuery
    odds_answer = AttackOdds
    odds_operation_id = "getNovusAttackOdds"
    visible_sheet_fields = VISIBLE  # what players and spectators see of an NPC: its state, not its Hit Points
    schema_versions = NOVUS_SCHEMA_VERSIONS  # old payloads read through domain/novus/upcasting.py
    upcasters = NOVUS_UPCASTERS

    def odds(self, query: AttackOddsQuery) -> AttackOdds:
        """The exact chances of an attack: a hit, each number of Boon Points, a Nova Roll."""
        return attack_odds(query)

    # ------------------------------------------------------------ hooks

    def initial_rules(self) -> NovusRules:
        return NovusRules()

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # the round's AP are a resource: 5, or 10 Hasted

    refill_moments = frozenset({"round_start"})  # those of resources() below

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """"Normally a character has only 5 Action Points to use in a given round ... Haste ...
        giving him a total of 10 AP for the round", less what an action running on from the last
        round still takes."""
        r = rules(state)
        amount = (HASTED_AP if combatant.id in r.hasted else ROUND_AP) - r.carried.get(combatant.id, 0)
        return _round_ap(max(amount, 0))

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """N11: "Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus ... rolled once per combat"."""
        if state.status == "active":
            raise RuleViolation("novus_initiative_once", OWN_CODES["novus_initiative_once"])
        r = rules(state)
        rolls, entries = [], []
        for c in sorted(state.combatants.values(), key=lambda c: c.seq):
            roll = self._initiative_roll(c, dice)
            rolls.append(roll)
            first = roll.total + (SURPRISE if c.id in r.surprised else 0)
            entries.append(Entry(c.id, first, c.seq, tiebreak=c.sheet.initiative_bonus()))
        return InitiativeRolled(rolls=rolls, order=order_descending(entries))

    @staticmethod
    def _initiative_roll(c: Combatant, dice: Dice) -> InitiativeRoll:
        roll = roll_2d10(dice, "initiative", c.id)
        bonus = c.sheet.initiative_bonus()
        return InitiativeRoll(who=c.id, die=roll.dice[0], more_dice=list(roll.dice[1:]), modifier=bonus,
                              total=roll.total + bonus)

    def round_order(self, state: EncounterState) -> list[str] | None:
        """The next round's order: each one's IP for it (a Set or Rerolled Initiative, a Boost)."""
        nxt = state.round + 1
        entries = [Entry(cid, self.ip_for(state, cid, nxt), c.seq, tiebreak=c.sheet.initiative_bonus())
                   for cid, c in state.combatants.items()]
        return order_descending(entries)

    def ip_for(self, state: EncounterState, cid: str, round_number: int) -> int:
        """A combatant's Initiative Points in ``round_number``: the IP rolled once per combat (or
        rerolled); Set Initiative: "treated as if he rolled a 20 on the 2d10" for one round;
        Initiative Boost: "+2 IP next round per BP"; surprised: -20 in the first round."""
        r = rules(state)
        c = state.combatants[cid]
        ip = r.rolled_ip.get(cid, c.initiative if c.initiative is not None else 0)
        if r.set_initiative.get(cid) == round_number - 1:
            ip = 20 + c.sheet.initiative_bonus()
        ip += r.boost.get(cid, 0) if round_number > 1 else 0
        if round_number == 1 and cid in r.surprised:
            ip += SURPRISE
        return ip

    def round_began(self, state: EncounterState) -> EncounterState:
        r = rules(state)
        rolled = dict(r.rolled_ip)
        for cid, c in state.combatants.items():
            if cid not in rolled and c.initiative is not None:
                rolled[cid] = c.initiative
        state = replace(state, rules=replace(r, rolled_ip=rolled))
        ip = {cid: self.ip_for(state, cid, state.round) for cid in state.combatants}
        fresh = replace(rules(state), ip=ip, declared={}, resolved=[], carried={}, boost={}, holding=[], window=None,
                        attacked=[], disengaged=[], riding={}, late_dodge=[], blocks_used={},
                        boons_due=None, position=PhasePosition())
        state = replace(state, rules=fresh)
        declarers = [cid for cid in state.order if self.may_act(state, cid)]
        fresh = replace(fresh, declarers=declarers)
        state = replace(state, rules=fresh)
        return replace(state, rules=replace(fresh, position=PHASES.begin(self._ranked(state))))

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Reroll Initiative: prepared this round, "in order to reroll his initiative in the following round"."""
        return [InitiativeRerolled(roll=self._initiative_roll(state.combatants[cid], dice))
                for cid in rules(state).reroll if cid in state.combatants]

    def before_end_turn(self, state: EncounterState) -> None:
        if state.turn not in rules(state).resolved:
            raise RuleViolation("novus_resolve_first", OWN_CODES["novus_resolve_first"])
        if self.phase(state) == "end of round":
            raise RuleViolation("novus_end_of_round_attacks", OWN_CODES["novus_end_of_round_attacks"])

    def _evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        state = super()._evolve_removed(state, event)
        return self._unstuck(replace(state, rules=taken_out(rules(state), event.combatant_id)))

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """What waited only on the one taken out goes on (the resolution under way)."""
        return self._continue(state, dice)

    def _unstuck(self, state: EncounterState) -> EncounterState:
        """Past a phase nobody left in it still has to move in (one taken out of the fight)."""
        r = rules(state)
        if state.status != "active":
            return state
        ranked = self._ranked(state)
        at = r.position
        while not PHASES.done(at) and not PHASES.waiting(at, ranked):
            at = PHASES._skip_empty(PhasePosition(phase=at.phase + 1), ranked)
        return replace(state, rules=replace(r, position=at)) if at != r.position else state

    def command_info(self) -> list[CommandInfo]:
        return [CommandInfo(type=t.__struct_config__.tag, summary=(t.__doc__ or "").split("\n")[0],
                            who="player" if t.actor_field else "gm") for t in (*COMMANDS, *holding.COMMANDS, *snags.COMMANDS)]

    # ---------------------------------------------------------- the round

    def _ranked(self, state: EncounterState) -> Callable[[Phase], Sequence[str]]:
        """Who takes part in each phase; each list worked out when first asked for (most events
        ask only for the current phase's, and the end of round's is the dearest)."""
        r = rules(state)
        lists: dict[str, list[str]] = {}

        def ranked(phase: Phase) -> list[str]:
            name = phase.name if phase.name in ("declare", "resolve") else "late"
            found = lists.get(name)
            if found is None:
                if name == "declare":
                    found = [c for c in r.declarers if c in state.combatants]
                elif name == "resolve":
                    found = list(state.order)
                else:
                    found = [c for c in state.order
                             if c in r.declared and r.declared[c].late_left > 0 and self.may_act(state, c)]
                lists[name] = found
            return found

        return ranked

    def phase(self, state: EncounterState) -> str | None:
        p = PHASES.current(rules(state).position)
        return p.name if p is not None else None

    def hit_points(self, state: EncounterState, cid: str) -> int:
        return state.combatants[cid].sheet.hit_points - rules(state).hits_lost.get(cid, 0)

    def helpless(self, state: EncounterState, cid: str) -> bool:
        """N22: "At 0 to -10 hit points a character is helpless" (and past it, till the GM says)."""
        return self.hit_points(state, cid) <= 0

    def may_act(self, state: EncounterState, cid: str) -> bool:
        """Not dead nor helpless; surprised: "if this puts an individual character's Initiative at
        or below zero, then that character will not be allowed to take action until the following round"."""
        r = rules(state)
        if cid in r.dead or self.helpless(state, cid):
            return False
        return not (state.round == 1 and cid in r.surprised and r.ip.get(cid, 0) <= 0)

    def surprised_now(self, state: EncounterState, cid: str) -> bool:
        return state.round == 1 and cid in rules(state).surprised

    def defence(self, state: EncounterState, cid: str, against_charge: bool = False) -> int:
        """N6: DEF = 15 + Speed bonus + 1 per 5 ranks of the best melee skill + shield + situational
        modifiers: a declared Dodge and Fighting Defensively (a DEF change from a declared action
        "lasts the whole round"), Defensive Posture; prone or helpless: "DEF 12 + magic bonuses only"."""
        r = rules(state)
        c = state.combatants[cid]
        if cid in r.prone or self.helpless(state, cid):
            return 12
        d = c.sheet.base_def()
        declared = r.declared.get(cid)
        if declared is not None:
            d += declared.defensive // 2
            d += performing.round_def(r.data, c.sheet, declared.actions, r.limb_hits.get(cid, {}))  # a Dodge's ...
        if r.posture.get(cid) == state.round:
            d += 2
        return d + self._mounted_def(state, cid, against_charge)

    def dodge_def(self, state: EncounterState, cid: str) -> int:
        """The Basic Dodge's DEF, less the -2 of each hit on the legs it uses (N14)."""
        r = rules(state)
        return limbs.hindered(r.data.dodge_def, r.data.limbs, r.limb_hits.get(cid, {}), "dodge")

    def _mounted_def(self, state: EncounterState, cid: str, against_charge: bool) -> int:
        """The DEF modifiers of riding this round: a Mounted Charge's (-4 with Mounted Combat I, else
        -9), a mounted attack's (against mounted foes 0, else -5; against foes on foot -3, else -8),
        -1 more after a failed Riding roll; a Dodge at the last moment against a charge, doubled."""
        r = rules(state)
        c = state.combatants[cid]
        d = 0
        declared = r.declared.get(cid)
        mc1 = c.sheet.talents.mounted_combat_1
        if cid in r.mounted and declared is not None:
            mods = [0]
            for a in declared.actions:
                if a.kind == "mounted_charge":
                    mods.append(-4 if mc1 else -9)
                elif a.kind == "attack" and a.target in state.combatants:
                    mods.append((0 if mc1 else -5) if a.target in r.mounted else (-3 if mc1 else -8))
            d += min(mods)
        if r.riding.get(cid) is False:
            d -= 1
        if against_charge and cid in r.late_dodge and cid not in r.mounted:
            d += self.dodge_def(state, cid)  # "the modifier to his DEF will be doubled before being applied"
        return d

    # ------------------------------------------------------ who must decide

    def pending(self, state: EncounterState) -> list[Decision]:
        if state.status != "active":
            return []
        r = rules(state)
        due = r.boons_due
        if due is not None and due.attacker in state.combatants:
            return [self._boon_decision(state, due)]
        if r.snags_due is not None and r.snags_due.roller in state.combatants:
            return [self._snag_decision(state, r.snags_due)]
        left = [n for n in r.stray.near if n in state.combatants] if r.stray is not None else []
        if left:
            who = left[0]
            return [Decision(id=f"stray:{state.version}:{who}", kind="stray_save", combatant_id=who,
                             command="NovusRollStraySave", body={"combatant_id": who}, blocks_turn_end=True,
                             refusal=STRAY, summary="A shot into melee missed its target: make a Saving Throw "
                             "vs Spd against the attack's total, or be hit.")]
        if self.contest_waits(state):
            return self._contest_decisions(state)
        if r.window is not None and not r.window.settled:
            return [replace(d, blocks_turn_end=True, refusal=WAITS) for d in reactions.decisions(
                r.window, "An Opportunity Attack (it counts as your attack for the round), or pass.")]
        phase = PHASES.current(r.position)
        mover = PHASES.mover(r.position, self._ranked(state))
        if phase is None or mover is None or (r.unseen_mover and phase.name != "resolve"):
            return []
        if phase.name == "declare":
            return [Decision(id=f"declare:{state.round}:{mover}", kind="declare", combatant_id=mover,
                             command="NovusDeclare", body={"combatant_id": mover}, choice_field="actions",
                             choices=self._declare_choices(state, mover),
                             summary="Declare this round's actions (from the lowest Initiative Point to the highest)."),
                    *cancels_and_holds(self, state)]
        if phase.name == "end of round":
            return [Decision(id=f"late:{state.round}:{mover}", kind="end_of_round_attacks", combatant_id=mover,
                             command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                             refusal=LATE_FIRST, summary="Make your remaining attacks, at the end of the round.")]
        out: list[Decision] = cancels_and_holds(self, state)
        if phase.name == "resolve":
            for cid in r.holding:  # held actions, at any IP lower than one's own (a choice, never a wait)
                if cid in state.acted and cid in state.combatants:
                    out.append(Decision(id=f"held:{state.round}:{cid}", kind="held_action", combatant_id=cid,
                                        command="NovusActHeld", body={"combatant_id": cid}, choice_field="actions",
                                        choices=self._declare_choices(state, cid),
                                        summary="Perform your held actions now, if you wish."))
        if mover != state.turn:
            return out
        return out + [Decision(id=f"resolve:{state.round}:{mover}", kind="resolve", combatant_id=mover,
                         command="NovusResolve", body={"combatant_id": mover}, blocks_turn_end=True,
                         refusal=RESOLVE_FIRST, summary="Resolve the declared actions at your Initiative Point.")]

    def _declare_choices(self, state: EncounterState, cid: str) -> tuple[Choice, ...]:
        """A few declarations the rules take now: nothing, a Dodge, an attack on each foe (and with each
        advanced attack move learnt)."""
        c = state.combatants[cid]
        out = [Choice(name="nothing", answer={"actions": []})]
        if not self.may_act(state, cid):
            return tuple(out)
        data = rules(state).data
        left = held(c).get(AP, 0)
        tries = [Action(kind="dodge")]
        weapon = c.sheet.weapons[0].name if c.sheet.weapons else None
        for o, other in state.combatants.items():
            if other.side != c.side and o not in rules(state).dead:
                tries.append(Action(kind="attack", target=o, weapon=weapon))
                tries += [Action(kind="attack", target=o, weapon=weapon, move=m)
                          for m in performing.learnt_attacks(data, c.sheet, weapon)]
        for a in tries:
            try:
                self._check_declaration(state, c, [a], 0, None)
            except RuleViolation:
                continue
            cost = ap_table.cost(c.sheet, a, data, c.id in rules(state).mounted)
            if cost <= left:
                name = a.kind if a.target is None else f"attack {a.target}" + (f" ({a.move})" if a.move else "")
                out.append(Choice(name=name, action_points=cost, answer={"actions": [msgspec.to_builtins(a)]}))
        return tuple(out)

    def _boon_decision(self, state: EncounterState, due: BoonsDue) -> Decision:
        data = rules(state).data
        choices = [Choice(name="none", answer={"boons": []})]
        for b in data.boons:
            if b.cost <= due.points or (b.name in data.impairing_boons and b.cost <= due.points + due.head_points):
                choices.append(Choice(name=b.name, answer={"boons": [b.name]}))
        return Decision(id=f"boons:{state.round}:{due.attacker}:{state.version}", kind="boons",
                        combatant_id=due.attacker, command="NovusSpendBoons", body={"combatant_id": due.attacker},
                        choice_field="boons", choices=tuple(choices), blocks_turn_end=True, refusal=BOONS_DUE,
                        summary=f"Spend {due.points} Boon Point(s)"
                                + (f" (+{due.head_points} on Boons that impair judgement or consciousness)"
                                   if due.head_points else "") + " at once.")

    # ---------------------------------------------------------- decider

    def _add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        """N18: a sheet with more advanced moves for a Combat Skill than its ranks allow is refused."""
        added = super()._add_combatant(state, cmd)
        check_cap(rules(state).data.moves, msgspec.convert(added.sheet, NovusSheet))
        return added

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        r = rules(state)
        match command:
            case SetNovusRules():  # N18's cap: a new table may not put a seated sheet over it
                check_seated(r.data.moves, command.data.moves, {c.name: c.sheet for c in state.combatants.values()})
                return [RulesSet(data=command.data)]
            case SetMounted():
                c = self.combatant(state, command.combatant_id)
                return [MountedSet(combatant_id=c.id, mounted=command.mounted, trained=command.trained)]
            case SetHaste():
                c = self.combatant(state, command.combatant_id)
                return [HasteSet(combatant_id=c.id, hasted=command.hasted)]
            case SetSurprised():
                if state.status != "setup":
                    raise RuleViolation("already_started", "Who is surprised is set before the fight starts.")
                return self._surprised(state, [self.combatant(state, cid).id for cid in dict.fromkeys(command.surprised)])
            case Heal():
                c = self.combatant(state, command.combatant_id)
                if command.amount < 1:
                    raise RuleViolation("novus_bad_amount", "Heal by 1 Hit Point or more.")
                lost = r.hits_lost.get(c.id, 0)
                amount = min(command.amount, lost)  # N21: "Hits can never go above their healthy starting value"
                return [Healed(combatant_id=c.id, amount=amount, hit_points=self.hit_points(state, c.id) + amount)]
            case Harm():
                c = self.combatant(state, command.combatant_id)
                if command.amount < 1:
                    raise RuleViolation("novus_bad_amount", "Deal 1 hit or more.")
                return self._damage(state, c.id, command.amount, command.cause or "the GM", from_attack=False)
            case RollSkill():
                c = self.combatant(state, command.combatant_id)
                return [self._skill_roll(c, command.skill, command.tn, dice)]
            case RollGroupPerception():
                side = [c for c in state.combatants.values() if c.side == command.side]
                if not side:
                    raise RuleViolation("novus_no_such_side", f"No one in the fight is on the side “{command.side}”.")
                best = max(side, key=lambda c: ((c.sheet.skill("Perception") or _NO_SKILL).bonus, -c.seq))
                rolled = replace(self._skill_roll(best, "Perception", None, dice), group=command.side)
                return [rolled, *self._surprise_by_table(self.evolve(state, rolled))]
            case RollSave():
                c = self.combatant(state, command.combatant_id)
                roll = roll_2d10(dice, f"save vs {command.stat}", c.id)
                bonus = save_bonus(c.sheet.stats.bonus(command.stat))
                total = roll.total + bonus
                return [SaveRolled(combatant_id=c.id, stat=command.stat, dice=list(roll.dice), rolled=roll.total,
                                   nova=roll.nova, bonus=bonus, total=total, tn=command.tn,
                                   passed=succeeds(total, command.tn))]
        self.require_active(state)
        match command:
            case SpendBoons():
                return self._spend_boons(state, command, dice)
        if r.boons_due is not None or "novus_boons_due" in r.unseen_waits:  # "They must be spent at once"
            raise RuleViolation("novus_boons_due", OWN_CODES["novus_boons_due"])
        if isinstance(command, snags.SpendSnags):
            return self._spend_snags(state, command, dice)
        if self.snags_wait(state):
            raise RuleViolation("novus_snags_due", OWN_CODES["novus_snags_due"])
        if isinstance(command, RollOpposedSave):
            return self._opposed_save(state, command, dice)
        if self.contest_waits(state):
            raise RuleViolation("novus_opposed_saves_due", OWN_CODES["novus_opposed_saves_due"])
        match command:
            case Declare():
                return self._declare(state, command)
            case Resolve():
                return self._resolve(state, command, dice)
            case Cancel():
                return self._cancel(state, command, dice)
            case reactions.React():
                return self._opportunity(state, command, dice)
            case reactions.PassReaction():
                c = self.combatant(state, command.combatant_id)
                passed = reactions.decide_pass(r.window, command, c.name)
                return [passed, *self._continue(self.evolve(state, passed), dice)]
            case reactions.CloseReactions():
                closed = reactions.decide_close(r.window, command)
                return [closed, *self._continue(self.evolve(state, closed), dice)]
        if isinstance(command, RollStraySave):
            return self._stray_save(state, command, dice)
        if r.stray is not None or "novus_stray_save_due" in r.unseen_waits:
            raise RuleViolation("novus_stray_save_due", OWN_CODES["novus_stray_save_due"])
        if (r.window is not None and not r.window.settled) or "novus_waits_for_reactions" in r.unseen_waits:
            raise RuleViolation("novus_waits_for_reactions", OWN_CODES["novus_waits_for_reactions"])
        match command:
            case Hold():
                return [self._hold(state, command)]
            case ActHeld():
                return self._act_held(state, command, dice)
        return super().decide_action(state, command, dice)

    # ----------------------------------------------------- declaring

    def _check_move(self, state: EncounterState, phase: str, c: Combatant) -> None:
        """Core's check of whose move it is in ``phase``; in a view without the hidden, refused as the
        whole fight refuses it while a hidden one moves (the phase's name checked first, as core does)."""
        r = rules(state)
        now = PHASES.current(r.position)
        if r.unseen_mover and now is not None and now.name == phase:
            raise RuleViolation("not_your_move", CODES["not_your_move"])
        PHASES.check_move(r.position, phase, c.id, self._ranked(state), c.name)

    @staticmethod
    def _skill_roll(c: Combatant, skill: str, tn: int | None, dice: Dice) -> SkillRolled:
        """N2: "Skill roll = 2d10 + skill bonus (skill ranks + the associated Stat Bonus) + modifiers"."""
        known = c.sheet.skill(skill)
        bonus = known.bonus if known is not None else 0
        roll = roll_2d10(dice, skill, c.id)
        total = roll.total + bonus
        return SkillRolled(combatant_id=c.id, skill=skill, dice=list(roll.dice), rolled=roll.total, nova=roll.nova,
                           bonus=bonus, total=total, tn=tn, passed=None if tn is None else succeeds(total, tn))

    def _surprised(self, state: EncounterState, ids: list[str]) -> list[Event]:
        """Who is surprised: "a -20 modifier to Initiative for the first round" (the order again, if rolled)."""
        out: list[Event] = [SurpriseSet(surprised=ids)]
        if state.initiative_rolled:
            after = self.evolve(state, out[0])
            entries = [Entry(cid, self.ip_for(after, cid, 1), c.seq, tiebreak=c.sheet.initiative_bonus())
                       for cid, c in after.combatants.items()]
            out.append(TurnOrderSet(order=order_descending(entries)))
        return out

    def _surprise_by_table(self, state: EncounterState) -> list[Event]:
        """The GM's results table (``surprise_beaten_by``), once every side has made "a single perception
        roll": a side whose total another side's beats by that much or more is surprised."""
        r = rules(state)
        sides = {c.side for c in state.combatants.values()}
        if r.data.surprise_beaten_by is None or state.status != "setup" or len(sides) < 2 \
                or not sides <= r.perception.keys():
            return []
        beaten = {s for s in sides if max(r.perception[o] for o in sides if o != s) - r.perception[s]
                  >= r.data.surprise_beaten_by}
        return self._surprised(state, [cid for cid, c in state.combatants.items() if c.side in beaten])

    def _declare(self, state: EncounterState, cmd: Declare) -> list[Event]:
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        self._check_move(state, "declare", c)
        if cmd.actions and not self.may_act(state, c.id):
            raise RuleViolation("novus_cannot_act", f"{c.name} cannot act this round: only an empty declaration.")
        self._check_declaration(state, c, cmd.actions, cmd.defensive, cmd.defensive_weapon)
        total = sum(ap_table.cost(c.sheet, a, r.data, c.id in r.mounted) for a in cmd.actions)
        left = held(c).get(AP, 0)
        carried = 0
        if total > left:
            # N11: "An action may run into the next round only if it also uses all of this round's AP ...
            # Dodge (2 AP) plus a Medium melee attack (4 AP) can't be declared together": one action, alone
            if len(cmd.actions) != 1:
                raise RuleViolation("novus_too_many_ap", f"{c.name} has {left} AP this round; the actions declared "
                                    f"take {total}.", available=left, cost=total)
            carried = total - left
        return [ActionsDeclared(combatant_id=c.id, actions=list(cmd.actions), ap=total - carried, carried=carried,
                                defensive=cmd.defensive, defensive_weapon=cmd.defensive_weapon)]

    def _check_declaration(self, state: EncounterState, c: Combatant, actions: Sequence[Action], defensive: int,
                           defensive_weapon: str | None) -> None:
        state = replace(state, rules=replace(rules(state), pending_shift=(defensive, defensive_weapon)))
        r = rules(state)
        kinds = [a.kind for a in actions]
        for a in actions:
            self._check_action(state, c, a)
        if sum(k in SPELLS for k in kinds) > 1:
            raise RuleViolation("novus_one_spell", "No amount of Haste will allow for casting more than one spell per round.")
        preparing = [k for k in kinds if k in ("set_initiative", "reroll_initiative")]
        if preparing:
            if len(preparing) > 1:
                raise RuleViolation("novus_bad_action", "Set Initiative and Reroll Initiative: one preparation a round.")
            if any(k in ATTACKS for k in kinds):
                raise RuleViolation("novus_bad_action", f"{c.name} may not make an attack of any sort in the round "
                                    "of preparing to Set or Reroll Initiative.")
            if self.surprised_now(state, c.id):
                raise RuleViolation("novus_surprised", "This may not be done in a round in which the character has "
                                    "received a modifier for being surprised.")
            if "set_initiative" in preparing and r.set_initiative.get(c.id) == state.round - 1:
                raise RuleViolation("novus_no_repeat", "Set Initiative cannot be performed on consecutive rounds.")
        performing.check_declaration(r.data, c.sheet, actions, defensive, defensive_weapon, r.disarmed.get(c.id, []))
        if self.surprised_now(state, c.id) and actions:
            self._check_instead(state, c, actions, None, "novus_surprised")
        if defensive:
            weapon = c.sheet.weapon(defensive_weapon)
            skill = c.sheet.skill(weapon.skill) if weapon is not None else None
            if weapon is None or weapon.kind != "melee" or skill is None:
                raise RuleViolation("novus_bad_action", "Fighting Defensively shifts the Melee Combat Skill of a melee "
                                    "weapon in hand: name it (defensive_weapon).")
            if "dodge" in kinds:
                raise RuleViolation("novus_bad_action", "One cannot Fight Defensively and perform any sort of Dodge.")
            most = skill.bonus // 2 if preparing else skill.bonus
            if defensive > most:
                raise RuleViolation("novus_bad_action", f"{c.name} may shift up to {most} of {skill.name} to DEF.")

    def _check_action(self, state: EncounterState, c: Combatant, a: Action) -> None:
        r = rules(state)
        performing.check_move(r.data, c.name, c.sheet, a, r.disarmed.get(c.id, []))
        limbs.check_usable(r.data.limbs, self.useless_limbs(state, c.id), c.name, a.kind)
        if a.kind == "attack":
            if a.target is None or a.target == c.id or a.target not in state.combatants or a.target in r.dead:
                raise RuleViolation("novus_not_a_target", f"{c.name}'s attack needs another combatant in the fight.")
            weapon = c.sheet.weapon(a.weapon)
            if a.weapon is not None and weapon is None:
                raise RuleViolation("novus_unknown_weapon", f"{c.name} has no weapon “{a.weapon}”.")
            missile = weapon is not None and weapon.kind == "missile"
            if a.into_melee and not missile:
                raise RuleViolation("novus_bad_action", "Firing into melee is a ranged attack.")
            if a.two_hands and (weapon is None or not weapon.one_handed or missile or a.off_hand):
                raise RuleViolation("novus_bad_action", "Both hands: a one-handed melee weapon, not in the off-hand.")
            if a.improvised and weapon is None:
                raise RuleViolation("novus_bad_action", "An improvised weapon names the weapon it most resembles.")
            why = snags.unusable(r, c.id, a.weapon, state.round)
            if why:
                raise RuleViolation("novus_weapon_unusable", why)
        for n in a.near:
            if n == c.id or n not in state.combatants:
                raise RuleViolation("novus_not_a_target", "Those near a shot's path are others in the fight.")
        if a.near and not a.into_melee:
            raise RuleViolation("novus_bad_action", "Only a shot into melee names those near its path.")
        if a.through or a.leaves:
            if a.kind not in ("move", "run"):
                raise RuleViolation("novus_bad_action", "Only a move enters, crosses or leaves a Control Zone.")
            for f in (*a.through, *a.leaves):
                if f == c.id or f not in state.combatants:
                    raise RuleViolation("novus_not_a_target", "A Control Zone is another combatant's in the fight.")
        if a.kind in ("attack", "mounted_charge"):
            pass
        elif a.target is not None or a.called_shot or a.two_hands or a.off_hand or a.into_melee or a.improvised:
            raise RuleViolation("novus_bad_action", f"Only an attack has a target, a Called Shot or a hand ({a.kind}).")
        if a.share is not None:
            raise RuleViolation("novus_bad_action", "An attack's share of the AB comes from its split.")
        if a.more_targets or a.split:
            self._check_high_skill(state, c, a)
        if a.kind == "mounted_charge":
            if c.id not in r.mounted:
                raise RuleViolation("novus_not_mounted", f"{c.name} is not mounted: no Mounted Charge.")
            if a.target is None or a.target == c.id or a.target not in state.combatants or a.target in r.dead:
                raise RuleViolation("novus_not_a_target", f"{c.name}'s charge needs another combatant in the fight.")
            if a.weapon is not None and c.sheet.weapon(a.weapon) is None:
                raise RuleViolation("novus_unknown_weapon", f"{c.name} has no weapon “{a.weapon}”.")
            if not 2 <= a.pace <= 4:
                raise RuleViolation("novus_bad_action", "A Mounted Charge moves at 2x, 3x or 4x the mount's pace.")
        if a.kind == "gm_action" and r.data.action(a.name) is None:
            raise RuleViolation("novus_unknown_action", f"“{a.name}” is not one of this encounter's Simple or Complex "
                                f"actions ({', '.join(x.name for x in r.data.actions) or 'none'}).")

    def _check_high_skill(self, state: EncounterState, c: Combatant, a: Action) -> None:
        """"For every 10 points in a given skill's total bonus, the character gains the ability to make an
        additional attack. The character's Attack Bonus receives a modifier of -4 for each attack beyond
        the first, and a modifier of -2 for each foe beyond the first to be attacked ... The remaining
        Attack Bonus is then divided between the individual attacks in whatever split the player desires
        ... The Talent, Advanced Combat Training, supersedes this capability. This capability cannot be
        used with combat styles or skills that grant multiple attacks (i.e. Two Weapon Combo)"."""
        weapon = c.sheet.weapon(a.weapon)
        skill = c.sheet.skill(weapon.skill) if weapon is not None else None
        if a.kind != "attack" or weapon is None or weapon.kind == "missile" or skill is None:
            raise RuleViolation("novus_bad_action", "Attacks from high skill are made with a melee Combat Skill.")
        talents = c.sheet.talents
        if talents.advanced_combat_training or talents.two_weapon_combo:
            raise RuleViolation("novus_bad_action", "Advanced Combat Training supersedes attacks from high skill, "
                                "and they cannot be used with a style that grants multiple attacks.")
        count = 1 + len(a.more_targets)
        if count > 1 + skill.bonus // 10:
            raise RuleViolation("novus_bad_action", f"{skill.name} at {skill.bonus} allows {1 + skill.bonus // 10} "
                                "attack(s): one more for every 10 points of its total bonus.")
        for t in a.more_targets:
            if t == c.id or t not in state.combatants or t in rules(state).dead:
                raise RuleViolation("novus_not_a_target", f"{c.name}'s attacks need others in the fight.")
        if len(a.split) != count or sum(a.split) != self.high_skill_ab(state, c, a):
            raise RuleViolation("novus_bad_action", f"The {count} attacks split {self.high_skill_ab(state, c, a)} "
                                "AB between them, one share each.")

    def high_skill_ab(self, state: EncounterState, c: Combatant, a: Action) -> int:
        """The AB the attacks split: the skill's, -4 an attack beyond the first, -2 a foe beyond the first;
        "Any modifiers for Fighting Defensively are also subtracted from the Attack Bonus before the player
        splits it" (the shift declared with it: see ``Declaration``)."""
        weapon = c.sheet.weapon(a.weapon)
        skill = c.sheet.skill(weapon.skill) if weapon is not None else None
        foes = len({a.target, *a.more_targets})
        count = 1 + len(a.more_targets)
        return (skill.bonus if skill else 0) - 4 * (count - 1) - 2 * (foes - 1) - self._shift(state, c, a)

    def _shift(self, state: EncounterState, c: Combatant, a: Action) -> int:
        declared = rules(state).declared.get(c.id)
        pending = rules(state).pending_shift
        shift, weapon_name = (pending if pending is not None else
                              ((declared.defensive, declared.defensive_weapon) if declared else (0, None)))
        shifted = c.sheet.weapon(weapon_name) if weapon_name else None
        weapon = c.sheet.weapon(a.weapon)
        return shift if shifted is not None and weapon is not None and shifted.skill == weapon.skill else 0

    def _check_instead(self, state: EncounterState, c: Combatant, instead: Sequence[Action],
                       not_at: str | None, code: str) -> None:
        """What may replace a cancelled action (and all a surprised character may do): one of the
        list, a move "using up to 3 Action Points"; never the foe of the cancelled melee attack."""
        data = rules(state).data
        moves = [a for a in instead if a.kind in ("move", "run")]
        if moves and len(moves) == len(instead):
            if sum(ap_table.cost(c.sheet, a, data, c.id in rules(state).mounted) for a in moves) > 3:
                raise RuleViolation(code, "Instead: a move using up to 3 Action Points.")
            return
        if len(instead) != 1:
            raise RuleViolation(code, "Instead: one action (or a move of up to 3 AP).")
        a = instead[0]
        if a.kind in ("set_initiative", "reroll_initiative", "multiple_weapon_attacks", "mounted_charge"):
            raise RuleViolation(code, f"Instead: {a.kind} is not among the actions allowed when cancelling.")
        if a.kind == "attack" and not_at is not None and a.target == not_at:
            raise RuleViolation(code, "The new attack may not be against the foe the cancelled melee attack was against.")

    # ----------------------------------------------------- holding

    def _hold(self, state: EncounterState, cmd: Hold) -> ActionHeld:
        """"Should the player decide to hold his character's actions prior to declaring his
        character's actions for the round, there is no penalty. However, should the player decide to
        hold his character's action after he has already declared his actions, he will lose 1 AP"."""
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        phase = self.phase(state)
        declared = r.declared.get(c.id)
        if phase == "declare" and declared is None and not r.unseen_mover \
                and PHASES.mover(r.position, self._ranked(state)) == c.id:
            return ActionHeld(combatant_id=c.id)
        if phase in ("declare", "resolve") and declared is not None and not declared.done and c.id not in r.resolved:
            return ActionHeld(combatant_id=c.id, refund=declared.ap, lost=min(1, held(c).get(AP, 0) + declared.ap))
        raise RuleViolation("novus_not_now", f"{c.name} may hold when declaring, or after declaring and before the "
                            "actions resolve.")

    def _act_held(self, state: EncounterState, cmd: ActHeld, dice: Dice) -> list[Event]:
        """"The player may then perform have his character perform his actions at any initiative point
        that he desires, so long as it is lower than the initiative point rolled for the round"."""
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        if c.id not in r.holding or self.phase(state) != "resolve" or c.id not in state.acted:
            raise RuleViolation("novus_not_holding", f"{c.name} holds no action to perform now.")
        if cmd.actions and not self.may_act(state, c.id):
            raise RuleViolation("novus_cannot_act", f"{c.name} cannot act now.")
        other = self._held_at(state, c, cmd.ip, cmd.at)
        self._check_declaration(state, c, cmd.actions, cmd.defensive, cmd.defensive_weapon)
        total = sum(ap_table.cost(c.sheet, a, r.data, c.id in r.mounted) for a in cmd.actions)
        left = held(c).get(AP, 0)
        if total > left:
            raise RuleViolation("novus_too_many_ap", f"{c.name} has {left} AP left for the held actions; they take "
                                f"{total}.", available=left, cost=total)
        taken = HeldActionsTaken(combatant_id=c.id, actions=list(cmd.actions), ap=total, defensive=cmd.defensive,
                                 defensive_weapon=cmd.defensive_weapon, at=other if cmd.actions else None)
        after = self.evolve(state, taken)
        out: list[Event] = [taken]
        if taken.at is not None:  # "Opposed Saving Throws to determine which goes first"
            return out + self._contest_opened(after, dice)
        for a in rules(after).declared[c.id].next_actions(False):
            more = self._perform(after, c.id, a, dice)
            out += more
            for e in more:
                after = self.evolve(after, e)
            if rules(after).boons_due is not None or self._waiting(after):
                break
        return out

    # ----------------------------------------------------- cancelling

    def _cancel(self, state: EncounterState, cmd: Cancel, dice: Dice) -> list[Event]:
        c = self.combatant(state, cmd.combatant_id)
        declared = rules(state).declared.get(c.id)
        if declared is not None and declared.done and declared.late_left and not cmd.instead:
            return [LateAttacksCancelled(combatant_id=c.id)]  # "he may still cancel his remaining attacks"
        out: list[Event] = [self.check_cancel(state, c, cmd.instead)]
        after = self.evolve(state, out[0])
        for a in cmd.instead:
            more = self._perform(after, c.id, a, dice, instead=True)
            out += more
            for e in more:
                after = self.evolve(after, e)
        return out + self._held_turn(after, dice)

    def check_cancel(self, state: EncounterState, c: Combatant, instead: Sequence[Action]) -> ActionsCancelled:
        """The cancelling, if the rules take it now with ``instead`` (else the RuleViolation)."""
        r = rules(state)
        declared = r.declared.get(c.id)
        if self.phase(state) != "resolve" or declared is None or c.id in r.resolved:
            raise RuleViolation("novus_nothing_declared", f"{c.name} has no declared action waiting to resolve.")
        if declared.done:
            raise RuleViolation("novus_not_now", "Once the first of the attacks is made, the character may no longer "
                                "cancel his action to perform other actions.")
        if instead and not self.may_act(state, c.id):
            raise RuleViolation("novus_cannot_act", f"{c.name} cannot act now.")
        for a in instead:
            self._check_action(state, c, a)
        melee = next((a.target for a in declared.actions if a.kind in ATTACKS and self._melee(c, a)), None)
        if instead:
            self._check_instead(state, c, instead, melee, "novus_bad_action")
        cost = sum(ap_table.cost(c.sheet, a, r.data, c.id in r.mounted) for a in instead)
        have = held(c).get(AP, 0) + declared.ap
        if cost > have:
            raise RuleViolation("novus_too_many_ap", f"{c.name} has {have} AP for it; that takes {cost}.",
                                available=have, cost=cost)
        return ActionsCancelled(combatant_id=c.id, instead=list(instead), refund=declared.ap, ap=cost)

    @staticmethod
    def _melee(c: Combatant, a: Action) -> bool:
        w = c.sheet.weapon(a.weapon)
        return w is None or w.kind != "missile"

    # ----------------------------------------------------- resolving

    def _resolve(self, state: EncounterState, cmd: Resolve, dice: Dice) -> list[Event]:
        r = rules(state)
        late = self.phase(state) == "end of round"
        if late:
            c = self.combatant(state, cmd.combatant_id)
            self._check_move(state, "end of round", c)
        else:
            c = self.require_turn(state, cmd.combatant_id)
            PHASES.check_move(r.position, "resolve", c.id, self._ranked(state), c.name)
        return self._carry_on(state, c.id, late, dice)

    def _carry_on(self, state: EncounterState, cid: str, late: bool, dice: Dice, finish: bool = True) -> list[Event]:
        """Perform the declared actions due now, in turn, until one waits (Boon Points to spend);
        then the character's resolution (at the IP, or at the end of the round) is over."""
        declared = rules(state).declared.get(cid)
        out: list[Event] = []
        after = state
        if declared is not None and self.may_act(state, cid):
            for a in declared.next_actions(late):
                more = self._perform(after, cid, a, dice)
                out += more
                for e in more:
                    after = self.evolve(after, e)
                if rules(after).boons_due is not None or self._waiting(after):
                    return out  # the rest waits for the Boon Points to be spent, or for Opportunity Attacks
        if not finish:
            return out
        if late:
            return [*out, LateAttacksResolved(combatant_id=cid)]
        done = ActionsResolved(combatant_id=cid)
        return [*out, done, *self._held_turn(self.evolve(after, done), dice)]

    def _perform(self, state: EncounterState, cid: str, a: Action, dice: Dice, instead: bool = False) -> list[Event]:
        if limbs.unusable(rules(state).data.limbs, self.useless_limbs(state, cid), a.kind):
            return [ActionTaken(combatant_id=cid, action=a, lapsed=True)]  # the limb became useless meanwhile
        if a.kind in ("move", "run"):
            zoned = [*a.through, *a.leaves]
            taken = ActionTaken(combatant_id=cid, action=a, reach=zones.reaches(state, zoned) if zoned else [])
            foes = self._opportunities(self.evolve(state, taken), cid, a)
            if foes:
                return [taken, self._oa_window(state, f"oa:{state.version + 1}", cid, foes,
                                               f"{state.combatants[cid].name}'s move")]
            return [taken]
        if a.kind not in ("attack", "mounted_charge"):
            return [ActionTaken(combatant_id=cid, action=a)]
        if a.target not in state.combatants or a.target in rules(state).dead \
                or a.weapon in rules(state).disarmed.get(cid, []) \
                or snags.unusable(rules(state), cid, a.weapon, state.round):  # disarmed, broken, fumbled: it lapses
            return [ActionTaken(combatant_id=cid, action=a, lapsed=True)]
        return self._attack(state, cid, a, dice, instead)

    # ---------------------------------------------------------- evolve

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        state = self._unstuck(self._evolve_novus(state, event))
        r = rules(state)
        snagged = snags.evolve_snags(r, event, state)
        if snagged is not r:  # most events earn and spend no Snag Points: the state as it is
            state = replace(state, rules=snagged)
        novas = fate.novas(event)
        return fate.earn(state, novas) if novas else state  # N1: "the character earns a Fate Point"

    def _evolve_novus(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        ranked = self._ranked(state)
        match event:
            case ActionsResolved():  # the commonest first (no other case's type is one)
                r = self._resolved(r, event.combatant_id, ranked)
            case RulesSet():
                return replace(state, rules=replace(r, data=event.data))
            case HasteSet():
                hasted = [c for c in r.hasted if c != event.combatant_id] + ([event.combatant_id] if event.hasted else [])
                return replace(state, rules=replace(r, hasted=hasted))
            case MountedSet():
                mounted = {k: v for k, v in r.mounted.items() if k != event.combatant_id}
                if event.mounted:
                    mounted[event.combatant_id] = Mount(trained=event.trained)
                return replace(state, rules=replace(r, mounted=mounted))
            case RidingRolled():
                if event.charge and event.passed and event.combatant_id in r.riding:
                    return state
                return replace(state, rules=replace(r, riding={**r.riding, event.combatant_id: event.passed}))
            case SurpriseSet():
                return replace(state, rules=replace(r, surprised=list(event.surprised)))
            case ActionsDeclared():
                state = self.spent(state, event.combatant_id, AP, event.ap)
                declared = Declaration(actions=self._expanded(event.actions), ap=event.ap, defensive=event.defensive,
                                       defensive_weapon=event.defensive_weapon)
                carried = {**r.carried, event.combatant_id: event.carried} if event.carried else r.carried
                r = replace(r, declared={**r.declared, event.combatant_id: declared}, carried=carried,
                            position=PHASES.moved(r.position, event.combatant_id, ranked))
            case ActionHeld():
                state = self.spent(state, event.combatant_id, AP, event.lost - event.refund)
                position = r.position
                if self.phase(state) == "declare" and event.combatant_id not in r.declared:
                    position = PHASES.moved(position, event.combatant_id, ranked)
                r = replace(r, declared={k: v for k, v in r.declared.items() if k != event.combatant_id},
                            holding=[*r.holding, event.combatant_id], position=position)
            case HeldActionsTaken():
                state = self.spent(state, event.combatant_id, AP, event.ap)
                r = replace(r, declared={**r.declared, event.combatant_id: Declaration(
                    actions=self._expanded(event.actions), ap=event.ap, defensive=event.defensive,
                    defensive_weapon=event.defensive_weapon)},
                    holding=[c for c in r.holding if c != event.combatant_id],
                    contest=HeldContest(holder=event.combatant_id, other=event.at) if event.at else r.contest)
            case snags.SnagsSpent():
                return state
            case holding.OpposedSaveRolled() | holding.HeldActionsDue():
                r = replace(r, contest=holding.evolve_contest(r.contest, event))
            case ActionsCancelled():
                if any(a.kind == "dodge" for a in event.instead) and event.combatant_id not in r.late_dodge:
                    r = replace(r, late_dodge=[*r.late_dodge, event.combatant_id])
                state = self.spent(state, event.combatant_id, AP, event.ap - event.refund)
                r = replace(r, declared={**r.declared, event.combatant_id: Declaration(
                    actions=list(event.instead), ap=event.ap, done=len(event.instead))},
                    carried={k: v for k, v in r.carried.items() if k != event.combatant_id})
                r = self._resolved(r, event.combatant_id, ranked)
            case reactions.ReactionsOpened() | reactions.ReactionPassed() | reactions.ReactionsClosed():
                r = replace(r, window=reactions.evolve_window(r.window, event))
            case AttackRolled() if event.stray_near:
                r = self._did_one(r, event.combatant_id, event.instead)
                r = replace(r, stray=StrayShot(attacker=event.combatant_id, tn=event.total, base_damage=event.base_damage,
                                               near=list(event.stray_near)))
                if event.combatant_id not in r.attacked:
                    r = replace(r, attacked=[*r.attacked, event.combatant_id])
            case StraySaveRolled():
                rest = [n for n in r.stray.near if n != event.combatant_id and n in state.combatants] \
                    if r.stray is not None and event.passed else []
                r = replace(r, stray=replace(r.stray, near=rest) if rest and r.stray is not None else None)
            case AttackRolled():
                if event.opportunity:  # "it still counts against the character's available actions for the round"
                    r = replace(r, window=reactions.answered(r.window, event.combatant_id, OPPORTUNITY)
                                if r.window is not None else None)
                    r = self._spend_an_attack(r, event.combatant_id)
                    more = {k: v for k, v in r.oa_more.items() if k != event.combatant_id}
                    r = replace(r, oa_more={**more, event.combatant_id: (event.target, event.opportunity_more)}
                                if event.opportunity_more else more)
                elif event.first:  # the longer weapon's attack, made first: out of its owner's order
                    r = self._spend_an_attack(r, event.combatant_id)
                else:
                    r = self._did_one(r, event.combatant_id, event.instead or event.snag)
                if event.combatant_id not in r.attacked:
                    r = replace(r, attacked=[*r.attacked, event.combatant_id])
                if event.hit and (event.boon_points or event.head_boon_points):
                    c = state.combatants[event.combatant_id]
                    w = c.sheet.weapon(event.weapon)
                    skill = c.sheet.skill(w.skill) if w is not None else None
                    r = replace(r, boons_due=BoonsDue(
                        attacker=event.combatant_id, target=event.target, points=event.boon_points,
                        head_points=event.head_boon_points, base_damage=event.base_damage, scaled=event.scaled,
                        armour=event.armour, skill_ranks=skill.ranks if skill else 0,
                        halved=self._improvised(r, event), called_shot=event.called_shot, instead=event.instead,
                        charge_damage=event.charge_damage))
                if event.hit and event.called_shot in ("arm", "leg"):
                    hits = r.limb_hits.get(event.target, {})
                    r = replace(r, limb_hits={**r.limb_hits, event.target: {
                        **hits, event.called_shot: hits.get(event.called_shot, 0) + 1}})
                    if not (event.boon_points or event.head_boon_points):
                        r = self._limb_damage(r, event.target, event.called_shot, event.damage)
            case BoonsSpent():
                due = r.boons_due
                if due is not None and due.called_shot in ("arm", "leg"):
                    r = self._limb_damage(r, event.target, due.called_shot, event.damage)
                r = replace(r, boons_due=None)
                for name in event.boons:
                    if name == "Defensive Posture":
                        r = replace(r, posture={**r.posture, event.combatant_id: state.round + 1})
                    elif name == "Initiative Boost":
                        r = replace(r, boost={**r.boost, event.combatant_id: r.boost.get(event.combatant_id, 0) + 2})
                    elif name == "Daze Foe":
                        r = replace(r, dazed={**r.dazed, event.target: state.round + 1})
                    elif name == "Knock Prone" and event.target not in r.prone:
                        r = replace(r, prone=[*r.prone, event.target])
            case Damaged():
                r = replace(r, hits_lost={**r.hits_lost, event.combatant_id: r.hits_lost.get(event.combatant_id, 0)
                                          + event.damage})
                if event.dead and event.combatant_id not in r.dead:
                    r = replace(r, dead=[*r.dead, event.combatant_id])
            case Healed():
                r = replace(r, hits_lost={**r.hits_lost, event.combatant_id: r.hits_lost.get(event.combatant_id, 0)
                                          - event.amount})
            case ActionTaken():
                a, cid = event.action, event.combatant_id
                r = self._did_one(r, cid, False)
                if a.kind == "gm_action" and a.weapon in r.disarmed.get(cid, []):  # picked up again
                    r = replace(r, disarmed={**r.disarmed, cid: [w for w in r.disarmed[cid] if w != a.weapon]})
                if a.kind == "set_initiative" and not event.lapsed:
                    r = replace(r, set_initiative={**r.set_initiative, cid: state.round})
                elif a.kind == "reroll_initiative":
                    r = replace(r, reroll=[*r.reroll, cid])
                elif a.kind == "get_up":
                    r = replace(r, prone=[c for c in r.prone if c != cid])
                elif a.kind == "disengage" and cid not in r.disengaged:
                    r = replace(r, disengaged=[*r.disengaged, cid])
            case LateAttacksResolved() | LateAttacksCancelled():
                d = r.declared[event.combatant_id]
                r = replace(r, declared={**r.declared, event.combatant_id: replace(d, done=len(d.actions))})
                if self.phase(state) == "end of round":
                    r = replace(r, position=PHASES.moved(r.position, event.combatant_id, ranked))
            case InitiativeRerolled():
                cid = event.roll.who
                r = replace(r, rolled_ip={**r.rolled_ip, cid: event.roll.total}, reroll=[c for c in r.reroll if c != cid])
            case SkillRolled() if event.group is not None:
                return replace(state, rules=replace(r, perception={**r.perception, event.group: event.total}))
            case SaveRolled() | SkillRolled():
                return state
            case DisarmSaveRolled() if not event.passed:
                had = r.disarmed.get(event.combatant_id, [])
                r = replace(r, disarmed={**r.disarmed, event.combatant_id: [*had, event.weapon]})
            case DisarmSaveRolled():
                return state
            case BlockRolled():
                r = replace(r, blocks_used={**r.blocks_used, event.combatant_id: r.blocks_used.get(event.combatant_id, 0) + 1})
            case _:
                return super().evolve_action(state, event)
        return replace(state, rules=r)

    @staticmethod
    def _limb_damage(r: NovusRules, cid: str, limb: str, damage: int) -> NovusRules:
        had = r.limb_damage.get(cid, {})
        return replace(r, limb_damage={**r.limb_damage, cid: {**had, limb: had.get(limb, 0) + damage}})

    def useless_limbs(self, state: EncounterState, cid: str) -> list[str]:
        """N14: "If the total damage dealt to that limb becomes greater than the target's
        Constitution Stat Value, the limb is useless"."""
        con = state.combatants[cid].sheet.stats.constitution.value
        return [limb for limb, dealt in rules(state).limb_damage.get(cid, {}).items() if dealt > con]

    @staticmethod
    def _improvised(r: NovusRules, event: AttackRolled) -> bool:
        d = r.declared.get(event.combatant_id)
        return bool(d and any(a.improvised and a.target == event.target for a in d.actions))

    @staticmethod
    def _expanded(actions: Sequence[Action]) -> list[Action]:
        """Attacks from high skill, one attack each, with its share of the AB (the first at one's IP)."""
        out: list[Action] = []
        for a in actions:
            if not a.split:
                out.append(a)
                continue
            for target, share in zip([a.target, *a.more_targets], a.split, strict=True):
                out.append(replace(a, target=target, more_targets=[], split=[], share=share))
        return out

    @staticmethod
    def _spend_an_attack(r: NovusRules, cid: str) -> NovusRules:
        """An Opportunity Attack takes one of the attacks the character declared and has not made:
        the first (if none is made yet), else the last of those left for the end of the round."""
        d = r.declared.get(cid)
        if d is None or not Novus._attacks_left(r, cid):
            return r
        left = [i for i in d.schedule[d.done:] if d.actions[i].kind in ATTACKS]
        drop = left[0] if d.done == 0 else left[-1]
        return replace(r, declared={**r.declared, cid: replace(d, actions=[a for i, a in enumerate(d.actions) if i != drop])})

    @staticmethod
    def _did_one(r: NovusRules, cid: str, instead: bool) -> NovusRules:
        d = r.declared.get(cid)
        if d is None or instead:
            return r
        return replace(r, declared={**r.declared, cid: replace(d, done=d.done + 1)})

    @staticmethod
    def _resolved(r: NovusRules, cid: str, ranked: Callable[[Phase], Sequence[str]]) -> NovusRules:
        if cid in r.resolved:
            return r
        position = r.position
        if PHASES.current(position) is not None and PHASES.current(position).name == "resolve":  # type: ignore[union-attr]
            position = PHASES.moved(position, cid, ranked)
        return replace(r, resolved=[*r.resolved, cid], position=position)

    # ---------------------------------------------------------- who sees what

    def shown(self, state: EncounterState) -> EncounterState:
        """Each sheet with its Hit Points now, helpless, dead, prone, useless limbs and Fate Points."""
        if not state.combatants or not isinstance(state.rules, NovusRules):
            return state
        hits = {cid: self.hit_points(state, cid) for cid in state.combatants}
        useless = {cid: self.useless_limbs(state, cid) for cid in state.combatants}
        return with_hits_shown(state, hits, useless)

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> NovusRules:
        r = rules(state)
        if not hidden:
            return r
        declared = {k: replace(v, actions=[a for a in v.actions if a.target not in hidden])
                    for k, v in r.declared.items() if k not in hidden}
        real_mover = PHASES.mover(r.position, self._ranked(state)) if state.status == "active" else None
        due = r.boons_due
        if due is not None and (due.attacker in hidden or due.target in hidden):
            due = None
        stray = r.stray
        if stray is not None and (stray.attacker in hidden or any(c in hidden for c in stray.near)):
            stray = None
        window = r.window
        if window is not None and (window.actor in hidden or any(c in hidden for c in window.may_react)):
            window = None
        contest = r.contest
        if contest is not None and (contest.holder in hidden or contest.other in hidden):
            contest = None
        snags_due = r.snags_due if r.snags_due is None or r.snags_due.roller not in hidden else None
        return replace(
            leaving_out(r, hidden), declared=declared, boons_due=due, unseen_mover=real_mover in hidden,
            unseen_waits=tuple(code for code, kept, real in (
                ("novus_boons_due", due, r.boons_due), ("novus_stray_save_due", stray, r.stray),
                ("novus_waits_for_reactions", window, r.window if r.window is not None and not r.window.settled
                 else None), ("novus_snags_due", snags_due, r.snags_due),
                ("novus_opposed_saves_due", contest, r.contest if r.contest is not None and r.contest.waiting
                 else None)) if real is not None and kept is None),
            window=window, stray=stray, contest=contest, snags_due=snags_due)

    # ---------------------------------------------------------- what it tells

    def sentences(self) -> dict[str, Sentence]:
        from domain.novus.log import SENTENCES
        return SENTENCES

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        match event:
            case AttackRolled():  # with Boon Points to spend, the damage is counted once they are
                boons = event.boon_points or event.head_boon_points
                return attack_tallies(event.combatant_id, event.target, hit=event.hit,
                                      damage=0 if boons else event.damage)
            case BoonsSpent():
                return harm_tallies(event.combatant_id, event.target, event.damage)
            case Damaged():
                return [Tally(event.combatant_id, "hits_taken", event.damage)] if not event.from_attack else []
            case ActionsDeclared():
                return [Tally(event.combatant_id, "action_points_spent", event.ap)] if event.ap else []
            case SaveRolled():
                return [Tally(event.combatant_id, "rolls", 1)]
        return []

    def coverage(self) -> list[Section]:
        from domain.novus.coverage import SECTIONS
        return SECTIONS

    def demo(self) -> DemoFight | None:
        from domain.novus.demo import AmbushAtTheFord
        return AmbushAtTheFord()
