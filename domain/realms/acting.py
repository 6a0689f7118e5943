"""The Actions of a turn and their rolls: AP and the Multiple Action Penalty, the Determination
Die, movement and grappling, Stealth and Detect, Power Improvisation and Counter Power, Command."""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import Any

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.names import called_of
from domain.core.resources import held
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms import scores
from domain.realms.attacks import profile
from domain.realms.body import Body, Ready, afflictions
from domain.realms.codes import OWN_CODES
from domain.realms.events import (
    ACTION_POINTS,
    ONE_TYPE,
    ActionTaken,
    AttackRolled,
    CommandCompanion,
    Commanded,
    ConditionApplied,
    CounteredInEffect,
    CounterInEffect,
    CoupDeGrace,
    Grapple,
    GrappleRolled,
    ImprovisePower,
    Overcame,
    OvercomeRoll,
    PowerImprovised,
    Prepare,
    Prepared,
    TakeAction,
)
from domain.realms.sheet import (
    ABILITIES,
    DEFENCE_ABILITY,
    SIZES,
    RealmsSheet,
    half_up,
)
from domain.realms.state import (
    COUNTERING,
    FREE_ABILITY_ROLL,
    FREE_INTERACTION,
    body_of,
    is_companion,
    rules,
)

replace = msgspec.structs.replace


IMPROVISATION = "Power Improvisation"  # the Reaction's type for the Multiple Action Penalty


class Acting:
    """A part of ``Realms`` (domain/realms/ruleset.py): acting."""

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

    @staticmethod
    def _opening(state: EncounterState, cid: str) -> bool:
        """Whether ``cid`` may take the initiator's free Action now: "The creature who initiates Combat
        can take their first Action without spending any Action Points. Afterward, all creatures
        involved roll for Initiative" (before initiative is rolled, once)."""
        r = rules(state)
        start = r.starts.get(cid)
        return (state.status == "setup" and not state.initiative_rolled and start is not None and start.initiator
                and not r.initiator_acted)

    def _acting(self, state: EncounterState, cid: str) -> Combatant:
        """The creature taking an Action: on its turn, or the initiator before initiative is rolled."""
        if self._opening(state, cid):
            return self.combatant(state, cid)
        return self.require_turn(state, cid)

    def _cost(self, state: EncounterState, c: Combatant, cost: int) -> tuple[int, bool]:
        """"The creature who initiates Combat can take their first Action without spending any
        Action Points": the Action it takes before initiative is rolled."""
        if self._opening(state, c.id):
            return 0, True
        return cost, False

    @staticmethod
    def _focus(state: EncounterState, cid: str) -> int:
        """What waits for the creature's next d20 roll: R1's "Focus 1 (+2 to the next d20 roll)", and the
        RM's bonus or penalty (RealmsModifyRoll); the fold spends both on any event with its d20."""
        b = body_of(state, cid)
        return (scores.FOCUS if b.focused else 0) + b.modifier

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

    def _prepare_action(self, state: EncounterState, c: Combatant, cmd: Prepare) -> Prepared:
        """A prepared Action of the Action table: its AP paid now ("by spending the Action Point cost for
        that Action on your turn"), checked as if taken now; not the Overcome (it is the turn's end's)."""
        if cmd.action == "Overcome":
            raise RuleViolation("realms_not_prepared", "The Overcome is taken on one's own turn, not prepared.")
        taking = TakeAction(combatant_id=c.id, action=cmd.action, roll_with=cmd.roll_with, spaces=cmd.spaces)
        self._check_action(state, c, body_of(state, c.id), taking)
        cost, free = self._cost(state, c, ACTION_POINTS[cmd.action])
        self.spend_action_points(c, cost, f"preparing the {cmd.action}")
        return Prepared(combatant_id=c.id, trigger=cmd.trigger, target=cmd.target, attack="", kind="action",
                        distance=0, action_points=cost, free=free, action=cmd.action, roll_with=cmd.roll_with,
                        spaces=cmd.spaces)

    def _use_prepared_action(self, state: EncounterState, c: Combatant, ready: Ready, dice: Dice) -> list[Event]:
        """The prepared Action, used as a Reaction: paid when prepared ("as opposed to when you react")."""
        taking = TakeAction(combatant_id=c.id, action=ready.action, roll_with=ready.roll_with, spaces=ready.spaces)
        return self._action(state, taking, dice, prepared=True)

    def _check_action(self, state: EncounterState, c: Combatant, b: Body, cmd: TakeAction) -> None:
        """What refuses an Action whatever it costs: too far a Movement (R1: "first use moves the Speed,
        second doubles it, third adds half, fourth adds a quarter; at most four"), moving while Hiding,
        no Overcome due."""
        action = cmd.action
        speed = conds.speed(c.sheet.movement, afflictions(b))
        if action == "Movement":
            speed = self._dragging(state, c, speed)
            use = b.moves + 1
            most = scores.movement(speed, use)
            if use > len(scores.MOVEMENT_SHARES):
                raise RuleViolation("realms_too_far", f"{c.name} has moved four times this turn: Movement is taken "
                                    "at most four times a turn.", speed=speed)
            if not 1 <= cmd.spaces <= most:
                share = ("its Speed", "its Speed again", "half its Speed", "a quarter of its Speed")[use - 1]
                raise RuleViolation("realms_too_far", f"{c.name}'s Speed is {speed} spaces now: its Movement number "
                                    f"{use} this turn covers {share}, 1 to {most} spaces.", speed=speed, most=most)
        if action == "Movement" and b.stealth is not None and b.stealth.mode == "hide":
            raise RuleViolation("realms_hiding_immobile", f"{c.name} is Hiding: “While hiding, you remain immobile”.")
        if action == "Evade" and (b.evades if cmd.split else b.split_evades):
            raise RuleViolation("realms_evade_mixed", f"{c.name}'s Evades are {'whole' if cmd.split else 'split'} "
                                "already: they all go against the next attack (+2, +1 per further Evade) or are "
                                "all split (+2 against each of that many attacks), not both.")
        if action == "Brace" and b.braced or action == "Focus" and b.focused:
            raise RuleViolation("realms_already_ready", f"{c.name} has taken the {action} already: it waits for the "
                                f"next {'damage' if action == 'Brace' else 'd20 roll'}.")
        if action == "Overcome" and (b.overcome_round == state.round or not self._to_overcome(b)):
            raise RuleViolation("realms_no_overcome_due", f"{c.name} has no condition to overcome with a roll now "
                                "(or has taken the Overcome this turn).")

    def _action(self, state: EncounterState, cmd: TakeAction, dice: Dice, *, prepared: bool = False) -> list[Event]:
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id) if prepared else self._acting(state, cmd.combatant_id)
        b = self._able(state, c)
        if cmd.action == "Overcome" and state.status != "active":
            raise RuleViolation("realms_no_overcome_due", "The Overcome is taken on one's turn, once combat is on.")
        if prepared and not self._can_react(state, c.id):
            raise RuleViolation("realms_cannot_react", f"{c.name} cannot take a Reaction now.")
        action = cmd.action
        cost, free = (0, False) if prepared else self._cost(state, c, ACTION_POINTS[action])
        if not free and not prepared:
            if action == "Free Action" and b.free_actions:
                cost = 1  # "each further Free Action in the same turn 1"
            kept = {"Interaction": FREE_INTERACTION, "Ability Roll": FREE_ABILITY_ROLL}.get(action)
            if kept and held(c).get(kept, 0) > 0:
                cost, free = 0, True  # "one free Interaction and one free Ability Roll Action"
        self._check_action(state, c, b, cmd)
        self._check_determination(state, c, cmd.determination and cmd.roll_with is not None)
        self.spend_action_points(c, cost, f"the {action}")
        event = ActionTaken(combatant_id=c.id, action=action, action_points=cost, free=free, prepared=prepared,
                            spaces=cmd.spaces if action == "Movement" else 0, split=cmd.split and action == "Evade")
        if cmd.roll_with is not None:
            kind = "action" if action in ONE_TYPE else action
            penalty = scores.repeat_penalty(b.repeats.get(kind, 0))
            helped = b.helped if b.helped_round == state.round else 0
            die, total, discarded = self._roll(c, cmd.roll_with, dice, penalty + conds.d20(afflictions(b)) + helped
                                               + self._focus(state, c.id), cmd.determination)
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
        c = self.combatant(state, cmd.combatant_id)
        self.require_active(state)
        b = self._able(state, c)
        reaction = state.turn != c.id  # "As a Basic Action or Reaction"
        if reaction and not self._can_react(state, c.id):
            raise RuleViolation("realms_cannot_react", f"{c.name} cannot take a Reaction now.")
        cost = 2 if reaction else self._cost(state, c, 2)[0]
        self._check_determination(state, c, cmd.determination)
        self.spend_action_points(c, cost, "Power Improvisation")
        ds = 10 + sum(half_up(p.cost) if p.proficient else p.cost for p in cmd.parts)
        penalty = scores.repeat_penalty(b.repeats.get(IMPROVISATION if reaction else "action", 0))
        die, discarded = self._d20(c, "power improvisation", dice, cmd.determination)
        total = (die.face + scores.natural(die.face) + c.sheet.power_bonus + penalty + conds.d20(afflictions(b))
                 + self._focus(state, c.id))
        degrees = scores.degrees(total, ds)
        multiplier = Fraction(scores.improvisation_multiplier(degrees)).limit_denominator(2)
        energy = ceil(cmd.energy * multiplier)
        return PowerImprovised(combatant_id=c.id, description=cmd.description, difficulty=ds, die=die, total=total,
                               degrees=degrees, multiplier=str(multiplier), estimate=cmd.energy, energy=energy,
                               created=energy <= bodies.energy(c.sheet, b), action_points=cost, reaction=reaction,
                               discarded=discarded)

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
        # the Multiple Action Penalty: "If you take the same Action or Reaction more than once in a turn"
        penalty = scores.repeat_penalty(b.repeats.get(COUNTERING, 0))
        die, discarded = self._d20(c, "counter power", dice, cmd.determination)
        total = (die.face + scores.natural(die.face) + c.sheet.power_bonus + power.energy // 5
                 + conds.d20(afflictions(b)) + penalty + self._focus(state, c.id))
        return CounteredInEffect(combatant_id=c.id, power=power.name, action_points=power.action_points,
                                 energy=power.energy, die=die, total=total, score=cmd.score, penalty=penalty,
                                 nullified=total > cmd.score + cmd.energy // 5, part=cmd.part, discarded=discarded)

    def _grapple(self, state: EncounterState, cmd: Grapple, dice: Dice) -> list[Event]:
        """Grapple: a Strength Unarmed Prowess attack against Might or Reflexes; "If you attempt to
        grapple a creature smaller than you, you gain +2 to the grapple roll and to your Strength Score
        for maintaining the grapple for each size they are smaller. If the target is larger than you,
        you suffer a -2 penalty for each size they are larger. You cannot grapple creatures more than
        one size larger than you"; escaping: "Might vs. your Strength Score using the Overcome action"."""
        c = self._acting(state, cmd.combatant_id)
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
                 + conds.against(b.conditions, t.id) + self._focus(state, c.id))
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
        focus = self._focus(state, c.id)  # on the first roll only: "the next d20 roll"
        for defence in chosen:
            die, other = self._d20(c, f"overcome: {defence.replace('_', ' ')}", dice, defence == determination)
            discarded = other or discarded
            total = (die.face + scores.natural(die.face) + c.sheet.defence_bonus(defence)
                     + conds.d20(afflictions(b)) + conds.defence(b.conditions, defence) + focus)
            focus = 0
            against = dict(scored[defence])
            rolls.append(OvercomeRoll(by=c.id, defence=defence, die=die, total=total, against=against,
                                      overcome=[n for n, score in against.items() if total >= score]))
        return Overcame(combatant_id=c.id, rolls=rolls, early=early, discarded=discarded)
