"""Attacks: declared, rolled against a Defence, the windows for Dodge and Defend, critical hits,
damage with armour, weaknesses and resistances, and harm to Health."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import reactions
from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.names import called_of
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms import scores
from domain.realms.attacks import Profile, profile, range_penalty
from domain.realms.body import Body, afflictions
from domain.realms.codes import OWN_CODES
from domain.realms.events import (
    Attack,
    AttackDeclared,
    AttackRolled,
    CollateralCountered,
    DefenceRolled,
    Defended,
    Detect,
    Detected,
    Harmed,
    HidingRolled,
    Prepare,
    Prepared,
    Reacted,
    StealthHide,
)
from domain.realms.sheet import (
    ARMOUR_IGNORES,
    RealmsSheet,
)
from domain.realms.state import (
    BLOCK,
    BODY_SHIELD,
    COMBINATION,
    COUNTER,
    COUNTERING,
    MENTAL,
    SHIELD,
    PendingAttack,
    body_of,
    is_companion,
    rules,
)

replace = msgspec.structs.replace


class Attacking:
    """A part of ``Realms`` (domain/realms/ruleset.py): attacking."""

    def _stealth(self, state: EncounterState, cmd: StealthHide, dice: Dice) -> HidingRolled:
        """Stealth/Hide: the roll, +1 per level of Obscurity or -4 unobscured, hidden from each opposing
        creature whose Discernment score it surpasses; 1 AP instead of 2 on a turn one was Detected;
        switching between Hiding and Stealthing for 1 AP (and no upkeep that turn)."""
        c = self._acting(state, cmd.combatant_id)
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
                 + conds.d20(afflictions(b)) + self._focus(state, c.id))
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
        total = (die.face + scores.natural(die.face) + bonus + extra + penalty + conds.d20(afflictions(b))
                 + self._focus(state, c.id))
        return Detected(combatant_id=c.id, target=t.id, search=cmd.search, action_points=cost, die=die, total=total,
                        score=hiding.score, bonus=extra, found=total >= hiding.score, discarded=discarded)

    def _prepare(self, state: EncounterState, cmd: Prepare) -> Prepared:
        """"You spend resources such as Energy, Feat uses, or Action Points to use a Prepared Action on
        your turn, as opposed to when you react"."""
        c = self.require_turn(state, cmd.combatant_id)
        b = self._able(state, c)
        if cmd.action is not None:
            return self._prepare_action(state, c, cmd)
        if cmd.target is None:
            raise RuleViolation("realms_prepare_what", f"{c.name} prepares an attack on a target, or an Action "
                                "(“Specify what you will be reacting to and what the Action will be”).")
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
        c = self.combatant(state, cmd.combatant_id) if prepared else self._acting(state, cmd.combatant_id)
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
        if cmd.collateral is not None and p.kind != "power":
            raise RuleViolation("realms_collateral_power", OWN_CODES["realms_collateral_power"])
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
            obscurity=cmd.obscurity, collateral=cmd.collateral)
        after = self.evolve(state, declared)
        window = f"attack:{state.version + 1}:roll"
        probe = reactions.ReactionWindow(id=window, actor=c.id, may_react=(), reactions=())
        options = {cid: self._options(after, probe, cid) for cid in after.combatants if cid != c.id}
        hidden = target.id in state.concealed
        may = [cid for cid, o in options.items() if o and (not hidden or cid in state.concealed)]
        if state.status != "active":
            may = []  # the initiator's free Action, before anyone has AP ("At the start of combat ...")
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
            # Evade: "+2 Evasion against the next attack, +1 per extra use" (a split Evade: where allotted)
            whole = r.data.evade_bonus + tb.evades - 1 if tb.evades and not tgt.sheet.object else 0
            score += conds.evasion(afflictions(tb)) + whole + a.evade
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
                     + conds.obscured(a.obscurity, afflictions(ab), tb.conditions) + self._focus(state, atk.id))
            total += a.help  # "add it to their Attack and Damage Rolls"
            hit = total >= score
            armour = tgt.sheet.armour.critical_range if tgt.sheet.armour else 0
            critical = hit and scores.is_critical(
                total, score, scores.critical_range(atk.sheet.critical_range, p.critical_range, armour))
        counter_die, counter_total, countered, counter_penalty = None, None, False, 0
        if a.counters and die is not None:
            # "Make an attack roll with your Power against the attack roll ... Both sides add +1 to their
            # roll or Score for every 5 energy spent"; "the Power Proficiency of all creatures countering
            # is added together ... to the original creature's Power attack roll"; "If your roll exceeds
            # the target roll or Score, you successfully nullify their Power."
            # "If you take the same Action or Reaction more than once in a turn, and it involves a D20 roll,
            # you incur a -5 penalty"
            first = state.combatants[a.counters[0]]
            fb = body_of(state, first.id)
            counter_penalty = scores.repeat_penalty(fb.repeats.get(COUNTERING, 0))
            counter_die = dice.roll(20, "counter power", first.id)
            counter_total = (counter_die.face + scores.natural(counter_die.face) + first.sheet.power_bonus
                             + sum(state.combatants[x].sheet.power_proficiency for x in a.counters[1:])
                             + a.counter_energy // 5 + conds.d20(afflictions(fb)) + counter_penalty
                             + self._focus(state, first.id))
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
                      + conds.defence(tb.conditions, untargeted) + conds.d20(afflictions(tb))
                      + self._focus(state, tgt.id))
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
                             counter_penalty=counter_penalty, defences=further)
        after = self.evolve(state, event)
        out: list[Event] = [event]
        if a.collateral is not None and not countered:
            # Collateral Countering: "your roll could help both knock the creature back and potentially
            # dispel a portion of the poison Power"; "Both sides add +1 ... for every 5 energy spent"
            c = a.collateral
            out.append(CollateralCountered(combatant_id=atk.id, power=p.name, total=total + p.energy // 5,
                                           score=c.score, nullified=total + p.energy // 5 > c.score + c.energy // 5,
                                           part=c.part))
        if not hit or not (rolled or damage > 0):
            return out
        defenders = [cid for cid, x in after.combatants.items()
                     if x.side == tgt.side and self._options(after, reactions.ReactionWindow(
                         id="defend", actor=atk.id, may_react=(), reactions=()), cid)] \
            if not tgt.sheet.object and state.status == "active" else []
        hidden = tgt.id in state.concealed
        if hidden:  # a hidden creature's Defenders are hidden with it: the window tells nobody else of it
            defenders = [d for d in defenders if d in state.concealed]
        if defenders:
            on = "a hidden ally" if hidden else called_of(tgt)
            opened = reactions.open_window(f"{a.window.removesuffix(':roll')}:defend", atk.id, defenders,
                                           (SHIELD, BLOCK, BODY_SHIELD), f"{called_of(atk)}'s hit on {on}")
            return [*out, opened]
        return [*out, *self._settle(after, dice)]

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
        penalty = (scores.repeat_penalty(b.repeats.get(cmd.reaction, 0)) + conds.d20(afflictions(b))
                   + self._focus(state, c.id))
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
        amount, armour, note, brace, braced = rolled, 0, "", 0, False
        if cause in ("attack", "rm") and rolled > 0:
            arm = sheet.armour
            if arm is not None and damage_type not in ARMOUR_IGNORES and damage_type not in arm.vulnerable:
                base = arm.damage_reduction * (2 if damage_type in arm.resistant else 1)
                armour = max(base - b.armour_uses, 0)  # R16: "its reduction drops by 1" each time in a turn
                amount = max(amount - armour, 1) if armour else amount
            if b.braced:  # R1: Brace "reduce the next damage by Vitality" (a reduction: never below 1)
                braced = True
                brace = min(max(sheet.abilities.vitality, 0), max(amount - 1, 0))
                amount -= brace
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
                      dice=list(dice or []), brace=brace, braced=braced)
