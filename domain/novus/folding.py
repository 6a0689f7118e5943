"""The fold of ``Novus`` (a mixin): each event's change to the round's books (``NovusRules``)."""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.core import reactions
from domain.core.encounter import EncounterState, Event, InitiativeRolled
from domain.novus import fate, holding, snags
from domain.novus.actions import Action, each_attack
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
from domain.novus.rounds import END_OF_ROUND, RESOLVE
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
        return self.action_step(type(event))(state, event)

    def action_step(self, kind: type[Event]) -> Callable[[EncounterState, Any], EncounterState]:
        """The fold of an event of type ``kind``: its step (``_STEPS``; none: core's), then the phase
        checked for being stuck (in the end of the round only, ``END_OF_ROUND``; never after a step that
        keeps the phases, ``_KEEP_PHASES``), then the Snag Points and the Fate Points it can bring (only
        an attack roll earns Snag Points, only SnagsSpent spends them; only a roll's event can be a Nova
        Roll). Built once per type, without the parts the type cannot need (the bound step itself, when
        it needs nothing more)."""
        fold, snagging, rolling = _step_for(kind)
        own = types.MethodType(fold, self) if fold is not None else super().evolve_action
        unstuck = None if fold in _KEEP_PHASES else self._unstuck
        if not snagging and not rolling:
            if unstuck is None:
                return own

            def checked(state: EncounterState, event: Any) -> EncounterState:
                state = own(state, event)
                return unstuck(state) if state.rules.position.phase == END_OF_ROUND else state

            return checked

        def step(state: EncounterState, event: Any) -> EncounterState:
            state = own(state, event)
            if unstuck is not None and state.rules.position.phase == END_OF_ROUND:
                state = unstuck(state)
            if snagging:
                r = rules(state)
                snagged = snags.evolve_snags(r, event, state)
                if snagged is not r:
                    state = replace(state, rules=snagged)
            if rolling:
                novas = fate.novas(event)
                if novas:
                    return fate.earn(state, novas)  # N1: "the character earns a Fate Point"
            return state

        return step

    # One step per event type (``_STEPS``): the state after it, before the phase is checked for being stuck.

    def _on_resolved(self, state: EncounterState, event: ActionsResolved) -> EncounterState:
        r = rules(state)
        done = self._resolved(r, event.combatant_id, state)
        return state if done is r else replace(state, rules=done)

    def _on_rules_set(self, state: EncounterState, event: RulesSet) -> EncounterState:
        return replace(state, rules=replace(rules(state), data=event.data))

    def _on_haste(self, state: EncounterState, event: HasteSet) -> EncounterState:
        r = rules(state)
        hasted = [c for c in r.hasted if c != event.combatant_id] + ([event.combatant_id] if event.hasted else [])
        return replace(state, rules=replace(r, hasted=hasted))

    def _on_mounted(self, state: EncounterState, event: MountedSet) -> EncounterState:
        r = rules(state)
        mounted = {k: v for k, v in r.mounted.items() if k != event.combatant_id}
        if event.mounted:
            mounted[event.combatant_id] = Mount(trained=event.trained)
        return replace(state, rules=replace(r, mounted=mounted))

    def _on_riding(self, state: EncounterState, event: RidingRolled) -> EncounterState:
        r = rules(state)
        if event.charge and event.passed and event.combatant_id in r.riding:
            return state
        return replace(state, rules=replace(r, riding={**r.riding, event.combatant_id: event.passed}))

    def _on_surprise(self, state: EncounterState, event: SurpriseSet) -> EncounterState:
        return replace(state, rules=replace(rules(state), surprised=list(event.surprised)))

    def _on_declared(self, state: EncounterState, event: ActionsDeclared) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id
        ap = event.total_ap
        declared = Declaration(actions=self._expanded(event.actions), ap=ap, defensive=event.defensive,
                               defensive_weapon=event.defensive_weapon,
                               unseen_ap={**event.ap_on} if event.ap_on else {})
        carried = {**r.carried, cid: event.total_carried} if event.carried or event.carried_on else r.carried
        unseen = {**r.carried_unseen, cid: {**event.carried_on}} if event.carried_on else r.carried_unseen
        return self.spent(state, cid, AP, ap, rules=replace(
            r, declared={**r.declared, cid: declared}, carried=carried, carried_unseen=unseen,
            position=PHASES.moved(r.position, cid, self._ranked(state))))

    def _on_held(self, state: EncounterState, event: ActionHeld) -> EncounterState:
        r = rules(state)
        ranked = self._ranked(state)
        state = self.spent(state, event.combatant_id, AP, event.lost - event.total_refund)
        position = r.position
        if self.phase(state) == "declare" and event.combatant_id not in r.declared:
            position = PHASES.moved(position, event.combatant_id, ranked)
        return replace(state, rules=replace(
            r, declared={k: v for k, v in r.declared.items() if k != event.combatant_id},
            holding=[*r.holding, event.combatant_id], position=position))

    def _on_held_taken(self, state: EncounterState, event: HeldActionsTaken) -> EncounterState:
        r = rules(state)
        state = self.spent(state, event.combatant_id, AP, event.total_ap)
        return replace(state, rules=replace(r, declared={**r.declared, event.combatant_id: Declaration(
            actions=self._expanded(event.actions), ap=event.total_ap, defensive=event.defensive,
            defensive_weapon=event.defensive_weapon, unseen_ap={**event.ap_on} if event.ap_on else {})},
            holding=[c for c in r.holding if c != event.combatant_id],
            contest=HeldContest(holder=event.combatant_id, other=event.at) if event.at else r.contest))

    def _on_nothing(self, state: EncounterState, event: Event) -> EncounterState:
        return state  # the Snag Points spent (``evolve_snags``), a plain roll: nothing more in the round's books

    def _on_contest(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        return replace(state, rules=replace(r, contest=holding.evolve_contest(r.contest, event)))

    def _on_cancelled(self, state: EncounterState, event: ActionsCancelled) -> EncounterState:
        r = rules(state)
        before, cid = state, event.combatant_id
        late_dodge = [*r.late_dodge, cid] if any(a.kind == "dodge" for a in event.instead) \
            and cid not in r.late_dodge else r.late_dodge
        state = self.spent(state, cid, AP, event.total_ap - event.total_refund)
        r = replace(r, late_dodge=late_dodge, declared={**r.declared, cid: Declaration(
            actions=list(event.instead), ap=event.total_ap, done=len(event.instead), cancelled=True,
            unseen_ap={**event.ap_on} if event.ap_on else {})},
            carried={k: v for k, v in r.carried.items() if k != cid},
            carried_unseen={k: v for k, v in r.carried_unseen.items() if k != cid})
        if self.phase(before) == "declare":  # others still declaring: his IP comes (with nothing left) as it would
            return replace(state, rules=r)
        return replace(state, rules=self._resolved(r, cid, before))

    def _on_window(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        return replace(state, rules=replace(r, window=reactions.evolve_window(r.window, event)))

    def _on_attack(self, state: EncounterState, event: AttackRolled) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id
        if event.stray_near:
            r = self._did_one(r, cid, event.instead)
            return replace(state, rules=replace(
                r, stray=StrayShot(attacker=cid, tn=event.total, base_damage=event.base_damage,
                                   near=list(event.stray_near), at=state.version + 1),
                attacked=r.attacked if cid in r.attacked else [*r.attacked, cid]))
        changes: dict[str, object] = {}
        if event.opportunity:  # "it still counts against the character's available actions for the round"
            window = reactions.answered(r.window, cid, OPPORTUNITY) if r.window is not None else None
            r = self._spend_an_attack(r, cid)
            more = {k: v for k, v in r.oa_more.items() if k != cid}
            changes.update(window=window, oa_more={**more, cid: (event.target, event.opportunity_more)}
                           if event.opportunity_more else more)
        elif event.first:  # the longer weapon's attack, made first: out of its owner's order
            r = self._spend_an_attack(r, cid)
        else:
            declared = self._one_done(r, cid, event.instead or event.snag or event.lightning)  # (one copy below)
            if declared is not None:
                changes["declared"] = declared
        if cid not in r.attacked:
            changes["attacked"] = [*r.attacked, cid]
        boons = event.boon_points or event.head_boon_points
        if event.hit and boons:
            c = state.combatants[cid]
            w = c.sheet.weapon(event.weapon)
            skill = c.sheet.skill(w.skill) if w is not None else None
            changes["boons_due"] = BoonsDue(
                attacker=cid, target=event.target, points=event.boon_points,
                head_points=event.head_boon_points, base_damage=event.base_damage, scaled=event.scaled,
                armour=event.armour, skill_ranks=skill.ranks if skill else 0,
                halved=self._improvised(r, event), called_shot=event.called_shot, instead=event.instead,
                charge_damage=event.charge_damage, at=state.version + 1, weapon=w.name if w is not None else None,
                missile=w is not None and w.kind == "missile")
        if event.hit and event.called_shot in ("arm", "leg"):
            hits = r.limb_hits.get(event.target, {})
            changes["limb_hits"] = {**r.limb_hits, event.target: {
                **hits, event.called_shot: hits.get(event.called_shot, 0) + 1}}
            if not boons:
                changes["limb_damage"] = self._limb_damage(r, event.target, event.called_shot, event.damage)
        return replace(state, rules=replace(r, **changes) if changes else r)

    def _on_stray_save(self, state: EncounterState, event: StraySaveRolled) -> EncounterState:
        r = rules(state)
        rest = [n for n in r.stray.near if n != event.combatant_id and n in state.combatants] \
            if r.stray is not None and event.passed else []
        return replace(state, rules=replace(r, stray=replace(r.stray, near=rest) if rest and r.stray is not None
                                            else None))

    def _on_boons(self, state: EncounterState, event: BoonsSpent) -> EncounterState:
        r = rules(state)
        due = r.boons_due
        changes: dict[str, object] = {"boons_due": None}
        if due is not None and due.called_shot in ("arm", "leg"):
            changes["limb_damage"] = self._limb_damage(r, event.target, due.called_shot, event.damage)
        for name in event.boons:
            if name == "Defensive Posture":
                changes["posture"] = {**r.posture, event.combatant_id: state.round + 1}
            elif name == "Initiative Boost":
                boost = changes.get("boost", r.boost)
                changes["boost"] = {**boost, event.combatant_id: boost.get(event.combatant_id, 0) + 2}  # type: ignore[attr-defined]
            elif name == "Daze Foe":
                changes["dazed"] = {**r.dazed, event.target: state.round + 1}
            elif name == "Knock Prone":
                prone = changes.get("prone", r.prone)
                if event.target not in prone:  # type: ignore[operator]
                    changes["prone"] = [*prone, event.target]  # type: ignore[misc]
        per_bp = Counter(event.boons)  # a "2+" Boon is named once a Boon Point (data.BoonRule)
        if per_bp["Attack Boost"]:  # "+1 AB per BP on the primary attack next round"
            changes["attack_boost"] = {**r.attack_boost, event.combatant_id: (state.round + 1, per_bp["Attack Boost"])}
        if per_bp["Inspiring Attack"]:  # "allies get +1 IP per BP next round"
            boost = dict(changes.get("boost", r.boost))  # type: ignore[call-overload]
            side = state.combatants[event.combatant_id].side if event.combatant_id in state.combatants else None
            for cid, c in state.combatants.items():
                if c.side == side and cid != event.combatant_id:
                    boost[cid] = boost.get(cid, 0) + per_bp["Inspiring Attack"]
            changes["boost"] = boost
        return replace(state, rules=replace(r, **changes))

    def _on_damaged(self, state: EncounterState, event: Damaged) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id
        return replace(state, rules=replace(
            r, hits_lost={**r.hits_lost, cid: r.hits_lost.get(cid, 0) + event.damage},
            dead=[*r.dead, cid] if event.dead and cid not in r.dead else r.dead))

    def _on_healed(self, state: EncounterState, event: Healed) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id
        return replace(state, rules=replace(r, hits_lost={**r.hits_lost, cid: r.hits_lost.get(cid, 0) - event.amount}))

    def _on_taken(self, state: EncounterState, event: ActionTaken) -> EncounterState:
        a, cid = event.action, event.combatant_id
        r = self._did_one(rules(state), cid, False)
        changes: dict[str, object] = {}
        if a.kind == "gm_action" and a.weapon in r.disarmed.get(cid, []):  # picked up again
            changes["disarmed"] = {**r.disarmed, cid: [w for w in r.disarmed[cid] if w != a.weapon]}
        if a.kind == "set_initiative" and not event.lapsed:
            changes["set_initiative"] = {**r.set_initiative, cid: state.round}
        elif a.kind == "reroll_initiative":
            changes["reroll"] = [*r.reroll, cid]
        elif a.kind == "get_up":
            changes["prone"] = [c for c in r.prone if c != cid]
        elif a.kind == "disengage" and cid not in r.disengaged:
            changes["disengaged"] = [*r.disengaged, cid]
        return replace(state, rules=replace(r, **changes) if changes else r)

    def _on_late(self, state: EncounterState, event: Event) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id  # type: ignore[attr-defined]
        d = r.declared[cid]
        declared = {**r.declared, cid: replace(d, done=len(d.actions))}
        if self.phase(state) == "end of round":
            return replace(state, rules=replace(r, declared=declared,
                                                position=PHASES.moved(r.position, cid, self._ranked(state))))
        return replace(state, rules=replace(r, declared=declared))

    def _on_rerolled(self, state: EncounterState, event: InitiativeRerolled) -> EncounterState:
        r = rules(state)
        cid = event.roll.who
        return replace(state, rules=replace(r, rolled_ip={**r.rolled_ip, cid: event.roll.total},
                                            reroll=[c for c in r.reroll if c != cid]))

    def _on_skill(self, state: EncounterState, event: SkillRolled) -> EncounterState:
        if event.group is None:
            return state
        r = rules(state)
        return replace(state, rules=replace(r, perception={**r.perception, event.group: event.total}))

    def _on_disarm_save(self, state: EncounterState, event: DisarmSaveRolled) -> EncounterState:
        if event.passed:
            return state
        r = rules(state)
        had = r.disarmed.get(event.combatant_id, [])
        return replace(state, rules=replace(r, disarmed={**r.disarmed, event.combatant_id: [*had, event.weapon]}))

    def _on_block(self, state: EncounterState, event: BlockRolled) -> EncounterState:
        r = rules(state)
        cid = event.combatant_id
        return replace(state, rules=replace(r, blocks_used={**r.blocks_used, cid: r.blocks_used.get(cid, 0) + 1}))

    @staticmethod
    def _limb_damage(r: NovusRules, cid: str, limb: str, damage: int) -> dict[str, dict[str, int]]:
        """The hits on limbs with ``damage`` more to ``cid``'s ``limb``."""
        had = r.limb_damage.get(cid, {})
        return {**r.limb_damage, cid: {**had, limb: had.get(limb, 0) + damage}}

    @staticmethod
    def _improvised(r: NovusRules, event: AttackRolled) -> bool:
        d = r.declared.get(event.combatant_id)
        return bool(d and any(a.improvised and a.target == event.target for a in d.actions))

    @staticmethod
    def _expanded(actions: Sequence[Action]) -> list[Action]:
        return each_attack(actions)  # (events before each attack was recorded on its own carry them whole)

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
        declared = Folding._one_done(r, cid, instead)
        return r if declared is None else replace(r, declared=declared)

    @staticmethod
    def _one_done(r: NovusRules, cid: str, instead: bool) -> dict[str, Declaration] | None:
        """The declarations once ``cid`` did one more of his (None: no change: none declared, or done instead)."""
        d = r.declared.get(cid)
        if d is None or instead:
            return None
        return {**r.declared, cid: replace(d, done=d.done + 1)}

    def _resolved(self, r: NovusRules, cid: str, before: EncounterState) -> NovusRules:
        """``cid``'s actions resolved; in the resolve phase, his move made (its participants: ``before``'s)."""
        if cid in r.resolved:
            return r
        position = r.position
        if position.phase == RESOLVE:
            position = PHASES.moved(position, cid, self._ranked(before))
        return replace(r, resolved=[*r.resolved, cid], position=position)


Step = Callable[[Folding, EncounterState, Event], EncounterState]

# Each event type's step, in the order the rules' cases were written (a subclass takes its first base's).
_CASES: tuple[tuple[type[Event] | tuple[type[Event], ...], Step], ...] = (
    (ActionsResolved, Folding._on_resolved), (RulesSet, Folding._on_rules_set), (HasteSet, Folding._on_haste),
    (MountedSet, Folding._on_mounted), (RidingRolled, Folding._on_riding), (SurpriseSet, Folding._on_surprise),
    (ActionsDeclared, Folding._on_declared), (ActionHeld, Folding._on_held), (HeldActionsTaken, Folding._on_held_taken),
    (snags.SnagsSpent, Folding._on_nothing), ((holding.OpposedSaveRolled, holding.HeldActionsDue), Folding._on_contest),
    (ActionsCancelled, Folding._on_cancelled),
    ((reactions.ReactionsOpened, reactions.ReactionPassed, reactions.ReactionsClosed), Folding._on_window),
    (AttackRolled, Folding._on_attack), (StraySaveRolled, Folding._on_stray_save), (BoonsSpent, Folding._on_boons),
    (Damaged, Folding._on_damaged), (Healed, Folding._on_healed), (ActionTaken, Folding._on_taken),
    ((LateAttacksResolved, LateAttacksCancelled), Folding._on_late), (InitiativeRerolled, Folding._on_rerolled),
    (SkillRolled, Folding._on_skill), (SaveRolled, Folding._on_nothing), (DisarmSaveRolled, Folding._on_disarm_save),
    (BlockRolled, Folding._on_block),
)


# The steps after which no phase can be left with nobody in it to move, so ``_unstuck`` is not asked even
# in the end of the round (``END_OF_ROUND``): each changes nothing of who takes part in a phase (the fight,
# the order, who declares, the declarations, who may act) nor the position, but for the move it records
# itself with ``PHASES.moved``. A declaration is made in the declare phase (``check_move``): the
# declarations it changes are the end of the round's. tests/rulesets/novus/test_fold_phases.py checks it.
_KEEP_PHASES: frozenset[Step] = frozenset({
    Folding._on_resolved, Folding._on_declared, Folding._on_rules_set, Folding._on_haste, Folding._on_mounted,
    Folding._on_riding, Folding._on_nothing, Folding._on_contest, Folding._on_window, Folding._on_stray_save,
    Folding._on_boons, Folding._on_rerolled, Folding._on_skill, Folding._on_disarm_save, Folding._on_block,
})


def _step_for(kind: type) -> tuple[Step | None, bool, bool]:
    """An event type's step (None: core's), whether it can earn or spend Snag Points, whether it can be a
    Nova Roll (a roll's event: a ``nova`` field, or an initiative roll)."""
    fold = next((step for types, step in _CASES if issubclass(kind, types)), None)
    snagging = issubclass(kind, (AttackRolled, snags.SnagsSpent))
    rolling = issubclass(kind, (InitiativeRolled, InitiativeRerolled)) or hasattr(kind, "nova")
    return fold, snagging, rolling
