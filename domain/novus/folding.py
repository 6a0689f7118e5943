"""The fold of ``Novus`` (a mixin): each event's change to the round's books (``NovusRules``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.core import reactions
from domain.core.encounter import (
    EncounterState,
    Event,
)
from domain.core.phases import Phase
from domain.novus import fate, holding, snags
from domain.novus.actions import Action
from domain.novus.attacking import Attacking
from domain.novus.events import (
    ActionHeld,
    ActionsCancelled,
    ActionsDeclared,
    ActionsResolved,
    ActionTaken,
    AttackRolled,
    BlockRolled,
    BoonsSpent,
    Damaged,
    DisarmSaveRolled,
    HasteSet,
    Healed,
    HeldActionsTaken,
    InitiativeRerolled,
    LateAttacksCancelled,
    LateAttacksResolved,
    MountedSet,
    RidingRolled,
    RulesSet,
    SaveRolled,
    SkillRolled,
    StraySaveRolled,
    SurpriseSet,
)
from domain.novus.state import (
    AP,
    ATTACKS,
    OPPORTUNITY,
    PHASES,
    BoonsDue,
    Declaration,
    HeldContest,
    Mount,
    NovusRules,
    StrayShot,
    rules,
)

replace = msgspec.structs.replace


class Folding:
    """The fold of ``Novus`` (domain/novus/ruleset.py composes it)."""

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
        if d is None or not Attacking._attacks_left(r, cid):
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
