"""Novus attacks, as a part of the ``Novus`` decider (a mixin: ``Novus`` is the only class that uses it):
Opportunity Attacks, the saves near a missed shot into melee, the Attack Bonus and its modifiers, Base and
Scaled Damage, Riding rolls and Mounted Charges, Blocks, and Boon Points."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import EncounterState, Event
from domain.core.errors import RuleViolation
from domain.core.resources import held
from domain.novus import boons, limbs, performing
from domain.novus.actions import Action, move_of
from domain.novus.dice import boon_points, roll_2d10, save_bonus, succeeds
from domain.novus.events import (
    AttackRolled, BlockRolled, BoonsSpent, RollStraySave, StraySaveRolled, Damaged, RidingRolled, SpendBoons,
)
from domain.novus.sheet import SHIELD_DEF, Skill
from domain.novus.snags import snag_points, strain
from domain.novus.state import (
    AP, PHASES, SURPRISED_AB, CALLED_SHOT, LOCATION, POSITION, ATTACKS, NovusRules, rules,
)

replace = msgspec.structs.replace


class Attacking:
    """The attack rules of ``Novus`` (domain/novus/ruleset.py)."""

    # ----------------------------------------------------- opportunity attacks

    def _opportunities(self, state: EncounterState, cid: str, a: Action) -> list[str]:
        """"Opportunity Attacks are triggered by a potential foe entering or crossing a character's
        Control Zone without the intention of attacking the character"; leaving it too, unless one
        Disengaged ("spend 1 AP for Disengaging and then move out of the foe's Control Zone"). The foe
        makes it if he still has an attack this round: "making an Opportunity Attack will count as
        his attack for the round"."""
        r = rules(state)
        mover = state.combatants[cid]
        declared = r.declared.get(cid)
        meant = {x.target for x in declared.actions if x.kind in ATTACKS} if declared else set()
        foes = list(dict.fromkeys([*a.through, *([] if cid in r.disengaged else a.leaves)]))
        out = []
        for f in foes:
            other = state.combatants.get(f)
            if other is None or other.side == mover.side or f in meant or not self.can_act(state, f):
                continue
            if f in r.attacked and not self._attacks_left(r, f):
                continue
            out.append(f)
        return out

    @staticmethod
    def _attacks_left(r: NovusRules, cid: str) -> int:
        d = r.declared.get(cid)
        if d is None:
            return 0
        left = [d.actions[i] for i in d.schedule[d.done:]]
        return sum(a.kind in ATTACKS for a in left)

    def _waiting(self, state: EncounterState) -> bool:
        r = rules(state)
        return r.stray is not None or self.snags_wait(state) or (r.window is not None and not r.window.settled)  # type: ignore[attr-defined]

    def _stray_save(self, state: EncounterState, cmd: RollStraySave, dice: Dice) -> list[Event]:
        """"all other potential targets within 5' of the path of the attack must make a Saving Throw
        vs. Spd, starting with those closest to the attacker ... The TN of this Save is the attacker's
        total attack roll ... If he failed his Save, he receives the Base Damage of the attack plus 1
        additional hit of Scaled Damage for each point that he failed his Save by. This damage may be
        reduced by the character's AR. Modifiers to the potential target's DEF, from a Shield, various
        Combat Moves (Dodges ...) ... should also be applied to the Saving Throw"."""
        r = rules(state)
        stray = r.stray
        c = self.combatant(state, cmd.combatant_id)
        if stray is None or [n for n in stray.near if n in state.combatants][:1] != [c.id]:
            raise RuleViolation("novus_no_stray_save", f"No shot into melee waits for {c.name}'s Saving Throw.")
        roll = roll_2d10(dice, "save vs spd (firing into melee)", c.id)
        bonus = save_bonus(c.sheet.stats.speed.bonus)
        if "shield" in r.data.stray_modifiers:
            bonus += SHIELD_DEF[c.sheet.shield]
        declared = r.declared.get(c.id)
        if "dodge" in r.data.stray_modifiers and declared is not None and any(a.kind == "dodge" for a in declared.actions):
            bonus += self.dodge_def(state, c.id)
        total = roll.total + bonus
        passed = succeeds(total, stray.tn)
        damage = 0 if passed else max(stray.base_damage + (stray.tn - total) - c.sheet.armour.ar, 0)
        event = StraySaveRolled(combatant_id=c.id, attacker=stray.attacker, dice=list(roll.dice), rolled=roll.total,
                                nova=roll.nova, bonus=bonus, total=total, tn=stray.tn, passed=passed, damage=damage)
        after = self.evolve(state, event)
        out: list[Event] = [event]
        more = self._damage(after, c.id, damage, "a shot into melee") if damage else []
        for e in more:
            after = self.evolve(after, e)
        return out + more + self._continue(after, dice)

    def _continue(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Once nothing waits (no Boon Points to spend, no Opportunity Attack to answer), the
        resolution that was under way goes on: the turn's, a held action's, an end-of-round attack's."""
        r = rules(state)
        if r.boons_due is not None or self._waiting(state) or state.status != "active":
            return []
        more = self._oa_more(state, dice)  # type: ignore[attr-defined]
        if more:  # the rest of an Opportunity Attack's attacks, first
            after = state
            for e in more:
                after = self.evolve(after, e)
            return more + self._continue(after, dice)
        phase = self.phase(state)
        if phase == "resolve":
            held = self._held_turn(state, dice)  # type: ignore[attr-defined]
            if held:
                return held
            t = state.turn
            d = r.declared.get(t) if t is not None else None
            if t is not None and t not in r.resolved and d is not None and d.done:
                return self._carry_on(state, t, False, dice)
            for cid in r.resolved:  # a held action under way
                d = r.declared.get(cid)
                if d is not None and 0 < d.done < d.at_ip:
                    return self._carry_on(state, cid, False, dice, finish=False)
        elif phase == "end of round":
            m = PHASES.mover(r.position, self._ranked(state))
            d = r.declared.get(m) if m is not None else None
            if d is not None and d.done > d.at_ip:
                return self._carry_on(state, m, True, dice)
        return []

    def attack_bonus(self, state: EncounterState, cid: str, a: Action, instead: bool = False) -> int:
        """2d10 + AB: the weapon's Combat Skill (Brawling: "the sum of the character's Str & Dex
        bonuses"), with the situational modifiers of the combat text."""
        r = rules(state)
        c = state.combatants[cid]
        sheet = c.sheet
        weapon = sheet.weapon(a.weapon)
        ab = sheet.attack_bonus(weapon) if a.share is None else a.share
        if a.improvised:  # "either use his skill for that weapon or his Brawling attack bonus, whichever is higher"
            ab = max(ab, sheet.brawling) - 4
        declared = r.declared.get(cid)
        if declared is not None and declared.defensive and weapon is not None and a.share is None:
            shifted = sheet.weapon(declared.defensive_weapon)
            if shifted is not None and shifted.skill == weapon.skill:
                ab -= declared.defensive  # "For every 2 points subtracted from the character's Attack Bonus"
        if instead or self.surprised_now(state, cid):
            if self._melee(c, a):
                ab //= 2  # "Melee with half his normal Attack Bonus"
            else:
                ab -= 5  # "Perform some other action modified by -5"
        ab += performing.attack_modifier(r.data, sheet, a)  # the Combat Move's AB, a shot's range
        ab += CALLED_SHOT.get(a.called_shot or "", 0)
        if a.off_hand and not sheet.talents.ambidextrous:
            ab -= 4  # "a -4 modifier being applied to the attack unless the character is ambidextrous"
        if a.into_melee:
            ab -= 2  # "Any ranged attack made into a melee situation receives a -2 modifier"
        ab += POSITION[a.position]  # "attacks from the flanks gain a +2 modifier ... the rear ... +4"
        if a.target is not None and self.surprised_now(state, a.target):
            ab += SURPRISED_AB
        if r.dazed.get(cid) == state.round:
            ab -= 4  # Daze Foe: "-4 to all the foe's actions for 1 round"
        boosted = r.attack_boost.get(cid)
        if boosted is not None and boosted[0] == state.round and cid not in r.attacked:
            ab += boosted[1]  # Attack Boost: "+1 AB per BP on the primary attack next round" (his first of it)
        ab -= limbs.penalty(r.data.limbs, r.limb_hits.get(cid, {}), a.kind)  # N14: "-2 to all actions using that limb"
        ab -= strain(r, cid, state.round)  # a Snag: "strain a muscle (-1 to all actions for 10 minutes)"
        if cid in r.mounted:
            mc1 = sheet.talents.mounted_combat_1
            if a.kind == "mounted_charge":
                ab += 4 if mc1 else -1  # "a +4 modifier to his Attack Bonus ... Without that Talent ... a -1"
            elif a.target in r.mounted:
                ab += 0 if mc1 else -5  # "Attacks against other mounted foes ... -0 ... these modifiers are -5"
            else:
                ab += -2 if mc1 else -7  # "Attacks against foes that are not mounted have ... a -2 AB modifier ... -7"
            if r.riding.get(cid) is False:
                ab -= 1  # "an additional -1 modifier to both his DEF and Attack Bonus"
        return ab

    def base_damage(self, state: EncounterState, cid: str, a: Action) -> int:
        """N7: "the weapon's Damage Rating (DR) + the Stat Bonus of the stat used in the attack";
        Brawling: "only the character's Str bonus" (DR 0 without unarmed training); two hands: "2
        additional points of Base Damage"."""
        sheet = state.combatants[cid].sheet
        weapon = sheet.weapon(a.weapon)
        if weapon is None:
            return sheet.stats.strength.bonus
        dr = weapon.dr if not (weapon.kind == "unarmed" and weapon.skill is None) else 0
        return dr + sheet.stats.bonus(weapon.stat) + (2 if a.two_hands else 0)

    def _attack(self, state: EncounterState, cid: str, a: Action, dice: Dice, instead: bool,
                opportunity: bool = False) -> list[Event]:
        assert a.target is not None
        first: list[Event] = []
        if not opportunity and not instead:
            first = self._longer_weapon_first(state, cid, a, dice)
            for e in first:
                state = self.evolve(state, e)
            if rules(state).boons_due is not None or self._waiting(state) or cid in rules(state).dead \
                    or self.helpless(state, cid):
                return first  # the longer weapon's attack waits for its Boons, or felled the charger
        riding = self._riding(state, cid, a, dice)
        for e in riding:
            state = self.evolve(state, e)
        return [*first, *riding, *self._roll_attack(state, cid, a, dice, instead, opportunity)]

    def _riding(self, state: EncounterState, cid: str, a: Action, dice: Dice) -> list[Event]:
        """Mounted: "the player must make a Riding skill roll for his character each round ... TN of 23
        if the mount is untrained for combat and a TN of 18 if the mount has been trained"; a charge at
        "2x ... (TN 20) ... 3x ... (TN 25) ... 4x ... (TN 30)"."""
        r = rules(state)
        c = state.combatants[cid]
        if cid not in r.mounted:
            return []
        charge = a.kind == "mounted_charge"
        if not charge and cid in r.riding:
            return []  # once a round
        tn = {2: 20, 3: 25, 4: 30}[a.pace] if charge else (18 if r.mounted[cid].trained else 23)
        skill = c.sheet.skill("Riding")
        bonus = skill.bonus if skill is not None else 0
        roll = roll_2d10(dice, "riding", cid)
        total = roll.total + bonus
        return [RidingRolled(combatant_id=cid, dice=list(roll.dice), rolled=roll.total, nova=roll.nova, bonus=bonus,
                             total=total, tn=tn, passed=succeeds(total, tn), charge=charge)]

    def _longer_weapon_first(self, state: EncounterState, cid: str, a: Action, dice: Dice) -> list[Event]:
        """"When making a Mounted Charge, if one of the combatants has a lance, a long spear, or other
        weapon from the Pole Arm family of weapons and the other does not, then the combatant with the
        longer weapon will resolve his attack first, regardless of initiative order"."""
        r = rules(state)
        c, foe = state.combatants[cid], state.combatants.get(a.target or "")
        theirs = r.declared.get(a.target or "")
        if foe is None or theirs is None or a.target in r.resolved and not theirs.late_left:
            return []
        pending = [x for i, x in enumerate(theirs.actions) if i in theirs.schedule[theirs.done:]
                   and x.kind in ("attack", "mounted_charge") and x.target == cid]
        if not pending:
            return []
        counter = pending[0]
        if a.kind != "mounted_charge" and counter.kind != "mounted_charge":
            return []
        mine, other = c.sheet.weapon(a.weapon), foe.sheet.weapon(counter.weapon)
        if not (other is not None and other.pole_arm and not (mine is not None and mine.pole_arm)):
            return []
        if not self.can_act(state, foe.id):
            return []
        return self._roll_attack(state, foe.id, counter, dice, False, False, first=True)

    def _blocks_left(self, state: EncounterState, cid: str) -> int:
        """A Block declared (or performed on cancelling) this round stops one attack, tried at once."""
        r = rules(state)
        d = r.declared.get(cid)
        have = sum(a.kind == "block" for a in d.actions) if d is not None else 0
        if limbs.unusable(r.data.limbs, self.useless_limbs(state, cid), "block"):
            return 0
        return have - r.blocks_used.get(cid, 0) if self.can_act(state, cid) else 0

    def block_bonus(self, state: EncounterState, cid: str) -> int:
        """The blocker's AB: its melee weapon's skill (Brawling without one), less what it shifted to
        DEF ("any amount shifted to DEF when performing a Block or Parry comes off the character's AB")."""
        c = state.combatants[cid]
        d = rules(state).declared.get(cid)
        weapon = c.sheet.weapon(d.defensive_weapon) if d is not None and d.defensive_weapon else None
        weapon = weapon or next((w for w in c.sheet.weapons if w.kind == "melee"), None)
        r = rules(state)
        block = performing.attack_modifier(r.data, c.sheet, Action(kind="block"))
        block -= limbs.penalty(r.data.limbs, r.limb_hits.get(cid, {}), "block")  # N14: the arms' -2 a hit
        return c.sheet.attack_bonus(weapon) - (d.defensive if d is not None else 0) + block

    def _roll_attack(self, state: EncounterState, cid: str, a: Action, dice: Dice, instead: bool,
                     opportunity: bool, first: bool = False) -> list[Event]:
        assert a.target is not None
        c, t = state.combatants[cid], state.combatants[a.target]
        ab = self.attack_bonus(state, cid, a, instead)
        weapon = c.sheet.weapon(a.weapon)
        if self._blocks_left(state, t.id) > 0 and (weapon is None or weapon.kind != "missile"):
            # N19: "roll your AB against TN 10 + the foe's AB"
            blocking = roll_2d10(dice, "block", t.id)
            bab = self.block_bonus(state, t.id)
            tn = 10 + ab
            block = BlockRolled(combatant_id=t.id, attacker=cid, dice=list(blocking.dice), rolled=blocking.total,
                                nova=blocking.nova, attack_bonus=bab, total=blocking.total + bab, tn=tn,
                                stopped=succeeds(blocking.total + bab, tn))
            if block.stopped:
                return [block, AttackRolled(
                    combatant_id=cid, target=t.id, weapon=weapon.name if weapon else "Brawling", dice=[], rolled=0,
                    nova=False, attack_bonus=ab, total=ab, defence=self.defence(state, t.id), hit=False,
                    called_shot=a.called_shot, instead=instead, opportunity=opportunity,
                    charge=a.kind == "mounted_charge", first=first, blocked=True)]
            return [block, *self._roll_attack(self.evolve(state, block), cid, a, dice, instead, opportunity, first)]
        roll = roll_2d10(dice, "attack", cid)
        total = roll.total + ab
        defence = self.defence(state, t.id, against_charge=a.kind == "mounted_charge")
        hit = succeeds(total, defence)
        weapon = c.sheet.weapon(a.weapon)
        name = weapon.name if weapon is not None else "Brawling"
        event = AttackRolled(combatant_id=cid, target=t.id, weapon=name, dice=list(roll.dice), rolled=roll.total,
                             nova=roll.nova, attack_bonus=ab, total=total, defence=defence, hit=hit,
                             called_shot=a.called_shot, instead=instead, opportunity=opportunity,
                             charge=a.kind == "mounted_charge", first=first, move=a.move)
        if not hit:
            event = replace(event, snag_points=snag_points(rules(state).data.snag_step, roll.dice, total, defence))
            near = [n for n in a.near if n in state.combatants and n not in (cid, t.id) and n not in rules(state).dead]
            if a.into_melee and near:  # "If it misses, then all other potential targets within 5' of the path"
                return [replace(event, stray_near=near, base_damage=self.base_damage(state, cid, a))]
            return [event]
        base = self.base_damage(state, cid, a)
        scaled = total - defence  # "+1 hit for every point by which the attack roll beats DEF"
        # "the character will deal an extra amount of damage equal to 15 times the pace of his mount"
        charge = 15 * a.pace if a.kind == "mounted_charge" else 0
        armour = (t.sheet.armour.called_shot_ar.get(LOCATION[a.called_shot], 0) if a.called_shot
                  else t.sheet.armour.ar)
        move = move_of(rules(state).data, c.sheet, a)
        base, scaled, armour = performing.damage_parts(move, base, scaled, armour)
        damage = self._dealt(base, scaled + charge, armour, a.improvised)
        points = boon_points(total, defence)
        head = 0
        if a.called_shot == "head" and damage > 0:
            step = t.sheet.stats.constitution.bonus + 5  # N14: "each increment of (Con Stat Bonus + 5)"
            head = (damage - 1) // step if step > 0 else 0
        event = replace(event, base_damage=base, scaled=scaled, armour=armour, damage=damage, boon_points=points,
                        head_boon_points=head, charge_damage=charge)
        out: list[Event] = [event]
        if move is not None and move.disarm:
            r = rules(state)
            theirs = r.declared.get(t.id)
            save = performing.disarm_save(dice, cid, t.id, t.sheet, theirs.actions if theirs else [],
                                          r.disarmed.get(t.id, []), total - defence)
            out += [save] if save is not None else []
        if points or head:
            return out  # the Boon Points are spent first (SpendBoons), then the damage is dealt
        after = state
        for e in out:
            after = self.evolve(after, e)
        return [*out, *self._damage(after, t.id, damage, "attack")]

    @staticmethod
    def _dealt(base: int, scaled: int, armour: int, halved: bool) -> int:
        """Base + Scaled Damage, halved for an improvised weapon ("half of the damage of the weapon
        that they most resemble"), less AR ("taken off the total damage of the attack")."""
        raw = base + scaled
        if halved:
            raw //= 2
        return max(raw - armour, 0)

    def _spend_boons(self, state: EncounterState, cmd: SpendBoons, dice: Dice) -> list[Event]:
        r = rules(state)
        due = r.boons_due
        c = self.combatant(state, cmd.combatant_id)
        if due is None or due.attacker != c.id:
            raise RuleViolation("novus_no_boons_due", f"{c.name} has no Boon Points to spend now.")
        seen = boons.bought(r.data, due, cmd.boons)
        foe = boons.lightning_foe(self, state, due, seen, cmd.lightning_target)
        attacker = state.combatants[c.id].sheet
        extra = 0
        for name in seen:
            kind = r.data.boon(name).damage  # type: ignore[union-attr]
            extra += {"strength_bonus": attacker.stats.strength.bonus, "willpower_bonus": attacker.stats.willpower.bonus,
                      "half_skill_ranks": due.skill_ranks // 2, "none": 0}[kind]
        damage = self._dealt(due.base_damage + extra, due.scaled + due.charge_damage, due.armour, due.halved)
        spent = BoonsSpent(combatant_id=c.id, target=due.target, boons=seen, extra_damage=extra, damage=damage)
        out: list[Event] = [spent]
        after = self.evolve(state, spent)
        if due.target in after.combatants:
            for step in (lambda st: self._damage(st, due.target, damage, "attack"),
                         lambda st: boons.disarm(st, due, seen, dice),  # Disarm Foe: the foe's save
                         lambda st: boons.lightning(self, st, due, seen, dice, foe)):  # Lightning Attack: a second attack
                more = step(after)
                out += more
                for e in more:
                    after = self.evolve(after, e)
        return out + self._continue(after, dice)  # what was under way goes on once the Boons are spent

    def _damage(self, state: EncounterState, cid: str, damage: int, cause: str, from_attack: bool = True) -> list[Event]:
        if damage <= 0 or cid in rules(state).dead:
            return []
        left = self.hit_points(state, cid) - damage
        below = rules(state).data.death_below
        return [Damaged(combatant_id=cid, damage=damage, hit_points=left, cause=cause, helpless=left <= 0,
                        dead=below is not None and left < below, from_attack=from_attack)]
