"""The decider of ``Novus`` (a mixin): each command to its rule, the GM's settings and rolls, surprise."""

from __future__ import annotations

import msgspec

from domain.core import reactions, settings
from domain.core.dice import Dice
from domain.core.encounter import (
    AddCombatant,
    Combatant,
    CombatantAdded,
    Command,
    EncounterState,
    Event,
    TurnOrderSet,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import Entry, order_descending
from domain.novus.data import NovusData
from domain.novus import snags
from domain.novus.codes import OWN_CODES
from domain.novus.dice import roll_2d10, save_bonus, succeeds
from domain.novus.events import (
    ActHeld,
    Cancel,
    Damaged,
    Declare,
    Harm,
    HasteSet,
    Heal,
    Healed,
    Hold,
    MountedSet,
    Resolve,
    RollGroupPerception,
    RollSave,
    RollSkill,
    RollStraySave,
    RulesSet,
    SaveRolled,
    SetHaste,
    SetMounted,
    SetNovusRules,
    SetSurprised,
    SkillRolled,
    SpendBoons,
    SurpriseSet,
)
from domain.novus.holding import RollOpposedSave
from domain.novus.moves import check_cap, check_seated
from domain.novus.sheet import NovusSheet
from domain.novus.state import (
    _NO_SKILL,
    PHASES,
    rules,
)

replace = msgspec.structs.replace

# The commands that can bring the round to one who cannot act (a declaration, a resolution, an answer
# to what waited, a character felled or taken out): after them it goes on past him (passing.py).
_MOVES_ON = (Declare, Resolve, Cancel, Hold, ActHeld, SpendBoons, RollStraySave, Harm, snags.SpendSnags,
             RollOpposedSave, reactions.React, reactions.PassReaction, reactions.CloseReactions)


class Deciding:
    """The decider of ``Novus`` (domain/novus/ruleset.py composes it)."""

    def decide_add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        """N18: a sheet with more advanced moves for a Combat Skill than its ranks allow is refused."""
        added = super().decide_add_combatant(state, cmd)
        check_cap(rules(state).data.moves, msgspec.convert(added.sheet, NovusSheet))
        return added

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        """Each command to its rule; then, once a command of the round has moved it on, the round goes
        on past those who cannot act (domain/novus/passing.py)."""
        events = self._decide_novus(state, command, dice)
        if not events or state.status != "active" or not isinstance(command, _MOVES_ON):
            return events
        if all(self.can_act(state, cid) for cid in state.combatants) and not any(
                isinstance(e, Damaged) and e.helpless for e in events):
            return events  # everyone could act and nobody fell: the round comes to no one who cannot
        if isinstance(command, Declare) and self._next_can_act(state, command.combatant_id):
            return events  # (the commonest: asked of each declaration offered, without folding it)
        after = state
        for e in events:
            after = self.evolve(after, e)
        return [*events, *self._pass_on(after, dice)]

    def _next_can_act(self, state: EncounterState, declarer: str) -> bool:
        """Whether the round, once ``declarer`` has declared (a declaration fells no one and changes no one's
        part in a phase), comes to one who can act: the next to declare, or the first to resolve."""
        r = rules(state)
        ranked = self._ranked(state)
        at = PHASES.moved(r.position, declarer, ranked)
        phase = PHASES.current(at)
        if phase is not None and phase.name == "declare":
            nxt = PHASES.mover(at, ranked)
            return nxt is None or self.can_act(state, nxt)
        return state.turn is not None and state.turn in state.combatants and self.can_act(state, state.turn)

    def _decide_novus(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        r = rules(state)
        match command:
            case SetNovusRules():  # N18's cap: a new table may not put a seated sheet over it
                data = settings.merged(r.data, command.data, NovusData, "The Novus settings")
                check_seated(r.data.moves, data.moves, {c.name: c.sheet for c in state.combatants.values()})
                return [RulesSet(data=data)]
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
                if c.id in r.dead:
                    raise RuleViolation("novus_dead", f"{c.name} is dead: Hit Points do not come back to the dead.")
                lost = r.hits_lost.get(c.id, 0)
                if lost <= 0:  # N21: "Hits can never go above their healthy starting value"
                    raise RuleViolation("novus_unhurt", f"{c.name} has lost no Hit Points: there is nothing to heal "
                                        "(hits never go above the sheet's).")
                amount = min(command.amount, lost)  # N21: "Hits can never go above their healthy starting value"
                return [Healed(combatant_id=c.id, amount=amount, hit_points=self.hit_points(state, c.id) + amount)]
            case Harm():
                c = self.combatant(state, command.combatant_id)
                if command.amount < 1:
                    raise RuleViolation("novus_bad_amount", "Deal 1 hit or more.")
                if c.id in r.dead:
                    raise RuleViolation("novus_dead", f"{c.name} is already dead: there is no one left to harm.")
                return self._damage(state, c.id, command.amount, command.cause or "the GM", from_attack=False)
            case RollSkill():
                c = self.combatant(state, command.combatant_id)
                self.require_able(state, c, f"a {command.skill} roll", skill=command.skill)
                return [self._skill_roll(c, command.skill, command.tn, dice)]
            case RollGroupPerception():
                side = [c for c in state.combatants.values() if c.side == command.side]
                if not side:
                    raise RuleViolation("novus_no_such_side", f"No one in the fight is on the side “{command.side}”.")
                side = [c for c in side if c.id not in r.dead and not self.helpless(state, c.id)]  # N22
                if not side:
                    raise RuleViolation("novus_cannot_act", f"Everyone on the side “{command.side}” is helpless or dead.")
                best = max(side, key=lambda c: ((c.sheet.skill("Perception") or _NO_SKILL).bonus, -c.seq))
                rolled = replace(self._skill_roll(best, "Perception", None, dice), group=command.side)
                return [rolled, *self._surprise_by_table(self.evolve(state, rolled))]
            case RollSave():
                c = self.combatant(state, command.combatant_id)
                if c.id in r.dead:  # a helpless one still saves (a save is no action: the GM calls for it)
                    self.require_able(state, c, "a Saving Throw")
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
                self.require_able(state, self.combatant(state, command.combatant_id), "cancelling")
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
                self.require_able(state, self.combatant(state, command.combatant_id), "holding")
                return [self._hold(state, command)]
            case ActHeld():
                return self._act_held(state, command, dice)
        return super().decide_action(state, command, dice)

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
