"""Declaring a round's actions in ``Novus`` (a mixin): whose move, what may be declared together,
AP, attacks from high skill, Fighting Defensively, what may replace a cancelled action."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.core.encounter import (
    Combatant,
    EncounterState,
    Event,
)
from domain.core.errors import CODES, RuleViolation
from domain.core.resources import held
from domain.novus import actions as ap_table
from domain.novus import limbs, performing, snags
from domain.novus.actions import SPELLS, Action
from domain.novus.events import (
    ActionsDeclared,
    Declare,
)
from domain.novus.state import (
    AP,
    ATTACKS,
    PHASES,
    rules,
)

replace = msgspec.structs.replace


def unseen_ap(state: EncounterState, actions: Sequence[Action], costs: Sequence[int],
              carried: int) -> tuple[dict[str, int], dict[str, int]]:
    """The AP of the actions aimed at one hidden from the table now, by their target (this round's, and
    those carried into the next): apart, so that who does not see the target learns nothing of them."""
    ap_on: dict[str, int] = {}
    carried_on: dict[str, int] = {}
    if not state.concealed:
        return ap_on, carried_on
    for a, cost in zip(actions, costs, strict=True):
        # an action at several foes (attacks from high skill) is seen while one of them is
        if a.target is not None and {a.target, *a.more_targets} <= set(state.concealed):
            ap_on[a.target] = ap_on.get(a.target, 0) + cost - carried  # (carried: one action alone)
            if carried:
                carried_on[a.target] = carried
    return ap_on, carried_on


class Declaring:
    """Declaring a round's actions in ``Novus`` (domain/novus/ruleset.py composes it)."""

    def _check_move(self, state: EncounterState, phase: str, c: Combatant) -> None:
        """Core's check of whose move it is in ``phase``; in a view without the hidden, refused as the
        whole fight refuses it while a hidden one moves (the phase's name checked first, as core does)."""
        r = rules(state)
        now = PHASES.current(r.position)
        if r.unseen_mover and now is not None and now.name == phase:
            raise RuleViolation("not_your_move", CODES["not_your_move"])
        PHASES.check_move(r.position, phase, c.id, self._ranked(state), c.name)

    def _declare(self, state: EncounterState, cmd: Declare) -> list[Event]:
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        self._check_move(state, "declare", c)
        if cmd.actions and not self.can_act(state, c.id):
            raise RuleViolation("novus_cannot_act", f"{c.name} cannot act this round: only an empty declaration.")
        self._check_declaration(state, c, cmd.actions, cmd.defensive, cmd.defensive_weapon)
        costs = [ap_table.cost(c.sheet, a, r.data, c.id in r.mounted) for a in cmd.actions]
        total = sum(costs)
        left = held(c).get(AP, 0)
        carried = 0
        if total > left:
            # N11: "An action may run into the next round only if it also uses all of this round's AP ...
            # Dodge (2 AP) plus a Medium melee attack (4 AP) can't be declared together": one action, alone
            if len(cmd.actions) != 1:
                raise RuleViolation("novus_too_many_ap", f"{c.name} has {left} AP this round; the actions declared "
                                    f"take {total}.", available=left, cost=total)
            carried = total - left
        ap_on, carried_on = unseen_ap(state, cmd.actions, costs, carried)
        return [ActionsDeclared(combatant_id=c.id, actions=ap_table.each_attack(cmd.actions), ap=total - carried - sum(ap_on.values()),
                                carried=carried - sum(carried_on.values()), defensive=cmd.defensive,
                                defensive_weapon=cmd.defensive_weapon, ap_on=ap_on, carried_on=carried_on)]

    def _check_declaration(self, state: EncounterState, c: Combatant, actions: Sequence[Action], defensive: int,
                           defensive_weapon: str | None) -> None:
        if rules(state).pending_shift != (defensive, defensive_weapon):  # a state for many checks has it already
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
        if a.kind == "multiple_weapon_attacks":
            return self._check_weapon_attacks(state, c, a)
        if a.more_weapons:
            raise RuleViolation("novus_bad_action", "Only Multiple Weapon Attacks name more weapons (more_weapons).")
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

    def _check_weapon_attacks(self, state: EncounterState, c: Combatant, a: Action) -> None:
        """"There are some combat skills, talents, capabilities or situations that will allow characters to
        declare and make multiple attack rolls in a single round" ("Multiple Weapon Attacks in 1 round 5"):
        a style that grants them (the sheet's talents.two_weapon_combo, Two Weapon Combo, N-gaps 1.8 item 11),
        one attack with each of two one-handed weapons (OURS: its name's two weapons, one a hand), each an
        attack the rules take on its own."""
        if not c.sheet.talents.two_weapon_combo:
            raise RuleViolation("novus_bad_action", f"Multiple Weapon Attacks need a style that grants them: {c.name}'s "
                                "sheet has no Two Weapon Combo (talents.two_weapon_combo).")
        weapons = [a.weapon, *a.more_weapons]
        if len(a.more_targets) != 1 or len(a.more_weapons) != 1 or len(set(weapons)) != 2:
            raise RuleViolation("novus_bad_action", "Multiple Weapon Attacks: one attack with each of two weapons (weapon "
                                "and target, then more_weapons and more_targets, one each).")
        for w in weapons:
            weapon = c.sheet.weapon(w)
            if weapon is None:
                raise RuleViolation("novus_unknown_weapon", f"{c.name} has no weapon “{w}”.")
            if not weapon.one_handed:
                raise RuleViolation("novus_bad_action", f"Multiple Weapon Attacks: a weapon in each hand; the {w} takes "
                                    "both.")
        if a.split or a.share is not None or a.called_shot or a.two_hands or a.into_melee or a.near or a.move \
                or a.distance is not None or a.through or a.leaves:
            raise RuleViolation("novus_bad_action", "Multiple Weapon Attacks name their targets and weapons only.")
        for t, w in zip([a.target, *a.more_targets], weapons, strict=True):
            self._check_action(state, c, msgspec.structs.replace(a, kind="attack", target=t, weapon=w, more_targets=[],
                                                                 more_weapons=[]))

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
