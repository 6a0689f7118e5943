"""Each event's change to the state: bodies, AP paid, conditions, the attack under way."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import reactions
from domain.core.durations import Duration
from domain.core.encounter import (
    CombatantRemoved,
    EncounterState,
    Event,
)
from domain.realms import conditions as conds
from domain.realms.body import Body, Ready, Stealth
from domain.realms.conditions import Affliction
from domain.realms.events import (
    ONE_TYPE,
    ActionTaken,
    AttackDeclared,
    AttackRolled,
    CollateralCountered,
    Commanded,
    ConditionApplied,
    ConditionRemoved,
    CounteredInEffect,
    Defended,
    Detected,
    DeterminationSet,
    EnergyChanged,
    GrappleRolled,
    Harmed,
    Healed,
    Helped,
    HidingRolled,
    InitiativeSet,
    Overcame,
    OvercomeDue,
    PowerImprovised,
    Prepared,
    Reacted,
    Recovered,
    RollModified,
    RulesSet,
    Stabilised,
)
from domain.realms.state import (
    BLOCK,
    BODY_SHIELD,
    COMBINATION,
    COUNTER,
    COUNTERING,
    DODGE,
    FREE_ABILITY_ROLL,
    FREE_INTERACTION,
    SHIELD,
    SPLIT_EVADE,
    PendingAttack,
    RealmsState,
    Start,
    body_of,
    leaving_out,
    rules,
)

replace = msgspec.structs.replace

# dice that may be d20s but are no d20 roll of the creature's (Focus waits past them)
NOT_ROLLS = frozenset({"healing", "damage", "dying damage"})


class Folding:
    """A part of ``Realms`` (domain/realms/ruleset.py): folding."""

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """One taken out of the fight leaves nothing behind: its body and start go, its attack and
        an attack on it are void, a grapple it held ends, and nobody's body names it (so one added
        again under the same id starts afresh)."""
        state = super().evolve_removed(state, event)
        r, cid = rules(state), event.combatant_id
        if r.attack is not None and r.attack.attacker == cid:
            r = replace(r, attack=None, window=None)
        bodies = {k: replace(b, conditions={n: a for n, a in b.conditions.items() if not (n == "grappled" and a.source == cid)})
                  if conds.of_source(b.conditions, "grappled", cid) is not None else b for k, b in r.bodies.items()}
        return replace(state, rules=leaving_out(replace(r, bodies=bodies), frozenset((cid,))))

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        if getattr(event, "discarded", None) is not None:  # a Determination Die spent on the roll
            who = state.combatants[event.combatant_id]  # type: ignore[attr-defined]
            state = self._with_body(state, who.id, replace(body_of(state, who.id),
                                                           determination=self.determination(state, who) - 1))
        r = rules(state)
        if any(b.focused or b.modifier for b in r.bodies.values()):
            state = self._focus_spent(state, event)
            r = rules(state)
        match event:
            # the commonest first (each event type matches one case only: the order is for speed)
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
                    obscurity=event.obscurity, collateral=event.collateral)
                return replace(state, rules=replace(rules(state), attack=attack, window=None))
            case AttackRolled():
                if event.counterer is not None and event.counter_die is not None:
                    cb = body_of(state, event.counterer)
                    state = self._with_body(state, event.counterer, replace(
                        cb, repeats={**cb.repeats, COUNTERING: cb.repeats.get(COUNTERING, 0) + 1}))
                    r = rules(state)
                t = r.bodies.get(event.target)
                if t is not None and t.evades and event.targets == "evasion" and event.die is not None:
                    state = self._with_body(state, event.target, replace(t, evades=0))  # spent on this attack
                    r = rules(state)
                a = r.attack
                if a is None or not event.hit or not (event.damage_dice or event.damage > 0):
                    return replace(state, rules=replace(r, attack=None, window=None))
                a = replace(a, stage="rolled", total=event.total, score=event.score, hit=True,
                            critical=event.critical, damage=event.damage)
                return replace(state, rules=replace(r, attack=a, window=None))
            case Harmed():
                return self._harmed(state, event)
            case Defended():
                if not event.hit:  # blocked, or the Body Shield's Evasion held: the attack is over
                    return replace(state, rules=replace(r, attack=None, window=None))
                return state
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
                if event.prepared:
                    changes["prepared"] = None
                elif event.action == "Free Action":
                    changes["free_actions"] = b.free_actions + 1
                if event.action == "Movement":
                    changes["moves"] = b.moves + 1
                elif event.action == "Brace":
                    changes["braced"] = True  # "reduce the next damage by Vitality"
                elif event.action == "Focus":
                    changes["focused"] = True  # "+2 to the next d20 roll"
                if event.action == "Evade":
                    changes["evade"] = Duration.one_round_from(event.combatant_id, state.round)
                    if event.split:  # R1: split, "up to the number of Evades taken"
                        changes.update(split_evades=b.split_evades + 1, evade_split=True, evades=0)
                    else:  # "+2 Evasion against the next attack, +1 per extra use"
                        changes.update(evades=b.evades + 1, evade_split=False, split_evades=0)
                if event.free and event.action in ("Interaction", "Ability Roll") and not self._initiator_free(state, r, event):
                    name = FREE_INTERACTION if event.action == "Interaction" else FREE_ABILITY_ROLL
                    state = self.spent(state, event.combatant_id, name, 1)
                return self._with_body(state, event.combatant_id, replace(b, **changes)) if changes else state
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
                return self._with_body(state, c.id, replace(b, energy_spent=b.energy_spent + event.energy, repeats={
                    **b.repeats, COUNTERING: b.repeats.get(COUNTERING, 0) + 1}))
            case CollateralCountered():
                return state  # the Power in effect is not kept as state: its ending is the RM's to apply
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
                              power=event.attack if event.kind == "power" else None, distance=event.distance,
                              action=event.action, roll_with=event.roll_with, spaces=event.spaces)
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
                kind = "Power Improvisation" if event.reaction else "action"
                state = self._paid(state, event.combatant_id, event.action_points, False)
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, energy_spent=b.energy_spent + (event.energy if event.created else 0),
                    repeats={**b.repeats, kind: b.repeats.get(kind, 0) + 1}))
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
            case RollModified():
                return self._with_body(state, event.combatant_id, replace(body_of(state, event.combatant_id),
                                                                          modifier=event.amount))
            case Stabilised():
                b = body_of(state, event.combatant_id)
                return self._with_body(state, event.combatant_id, replace(
                    b, stabilised=True, exhausted=b.exhausted + (1 if event.exhausted else 0)))
        return super().evolve_action(state, event)

    def _focus_spent(self, state: EncounterState, event: Event) -> EncounterState:
        """Focus: "+2 to the next d20 roll" (and the RM's modifier): spent by the event with a d20 its
        creature rolled."""
        rolled = {d.by for d in event.dice_rolled() if d.sides == 20 and d.purpose not in NOT_ROLLS}
        for cid, b in rules(state).bodies.items():
            if (b.focused or b.modifier) and cid in rolled:
                state = self._with_body(state, cid, replace(b, focused=False, modifier=0))
        return state

    def _unhidden(self, state: EncounterState, cid: str) -> EncounterState:
        b = body_of(state, cid)
        return self._with_body(state, cid, replace(b, stealth=None, conditions={
            k: v for k, v in b.conditions.items() if k != "hidden"}))

    @staticmethod
    def _initiator_free(state: EncounterState, r: RealmsState, event: ActionTaken) -> bool:
        """The initiator's free first Action (before initiative), not a free Interaction or Ability Roll."""
        start = r.starts.get(event.combatant_id)
        return bool(state.status == "setup" and start and start.initiator and not r.initiator_acted)

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
        if e.braced:
            changes["braced"] = False  # the Brace is spent on this damage
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
