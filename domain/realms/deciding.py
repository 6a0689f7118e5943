"""Who must decide: the Reactions in an attack's windows, with their AP, and the Overcome due at
the end of a turn, each a prompt."""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.dice import Dice
from domain.core.encounter import (
    Combatant,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision
from domain.core.ruleset import CommandInfo
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms import scores
from domain.realms.attacks import profile
from domain.realms.events import (
    COMMANDS,
    Attack,
)
from domain.realms.state import (
    BLOCK,
    BODY_SHIELD,
    COMBINATION,
    COUNTER,
    DODGE,
    OVERCOME_DUE,
    SHIELD,
    SPLIT_EVADE,
    WAITING,
    PendingAttack,
    body_of,
    is_companion,
    rules,
)

replace = msgspec.structs.replace

# declining a window's Reactions: its own command (a prompt's client that puts the choice in
# ``reaction`` sends React "Pass", taken the same way: ``Realms.decide_action``)
PASS = Choice(name="Pass", answer={"type": "PassReaction"})


class Deciding:
    """A part of ``Realms`` (domain/realms/ruleset.py): deciding."""

    def pending(self, state: EncounterState) -> list[Decision]:
        r = rules(state)
        if state.status != "active":
            return []
        out = []
        for cid, b in r.bodies.items():
            if b.overcome_due and cid in state.combatants:
                out.append(Decision(
                    id=f"overcome:{cid}:{state.round}", kind="overcome", combatant_id=cid, command="RealmsOvercome",
                    body={"combatant_id": cid}, choice_field="attempt",
                    choices=(Choice(name="roll"), Choice(name="decline")), blocks_turn_end=True, refusal=OVERCOME_DUE,
                    summary="The end of your turn: roll each Defence your conditions target to overcome them, or "
                    "decline."))
        if r.window is None or r.window.settled:
            return out
        w = r.window
        for cid in w.waiting_on():
            if cid not in state.combatants:
                continue
            options = self._options(state, w, cid)
            if not options:  # nothing left to take (its AP spent, the Body Shield taken): it passes
                out.append(Decision(
                    id=f"reaction:{w.id}:{cid}", kind="reaction", combatant_id=cid, command="PassReaction",
                    body={"combatant_id": cid, "window": w.id}, blocks_turn_end=True, refusal=WAITING,
                    summary=f"Nothing to react to {w.trigger or 'the attack'} with: pass."))
                continue
            out.append(Decision(
                id=f"reaction:{w.id}:{cid}", kind="reaction", combatant_id=cid, command="React",
                body={"combatant_id": cid, "window": w.id}, choice_field="reaction",
                choices=(*(Choice(name=o, action_points=self._reaction_cost(state.combatants[cid], o))
                           for o in options), PASS), blocks_turn_end=True,
                refusal=WAITING, summary=f"React to {w.trigger or 'the attack'} ({', '.join(options)}), "
                "or pass (PassReaction)."))
        return out

    @staticmethod
    def _reaction_cost(c: Combatant, reaction: str) -> int:
        """1 AP (R2), but Counter Power: "the same number of Action Points ... as you would normally spend";
        a split Evade is allotted without AP (the Evade Actions paid for it)."""
        if reaction == SPLIT_EVADE:
            return 0
        power = c.sheet.power(reaction.removeprefix(COUNTER)) if reaction.startswith(COUNTER) else None
        return power.action_points if power is not None else 1

    def _options(self, state: EncounterState, w: reactions.ReactionWindow, cid: str) -> tuple[str, ...]:
        """The Reactions ``cid`` may take in ``w``: a Dodge before the roll; once the attack would
        hit, Defend with a shield, a weapon with the Block property, or one's body (for an ally)."""
        c = state.combatants.get(cid)
        a = rules(state).attack
        if c is None or a is None or not self._can_react(state, cid):
            return ()
        if w.id.endswith(":roll"):
            return self._offered(w, tuple(o for o in self._before_roll(state, a, c)
                                          if self._reaction_cost(c, o) <= c.action_points))
        if c.action_points < 1:
            return ()
        out = []
        arms = not conds.restrained(body_of(state, cid).conditions)  # Restrained: none "that need the arms"
        if c.sheet.shield is not None and arms:
            out.append(SHIELD)
        if arms and a.targets == "evasion" and any(x.has("block") for x in c.sheet.weapons) \
                and c.sheet.proficient_with_property("block"):
            out.append(BLOCK)
        if cid != a.target and a.body_shield is None and a.targets == "evasion":
            out.append(BODY_SHIELD)
        return self._offered(w, tuple(out))

    @staticmethod
    def _offered(w: reactions.ReactionWindow, options: tuple[str, ...]) -> tuple[str, ...]:
        """Of ``options``, those the window was opened with (none a probe's: all)."""
        return tuple(o for o in options if o in w.reactions) if w.reactions else options

    def _before_roll(self, state: EncounterState, a: PendingAttack, c: Combatant) -> tuple[str, ...]:
        """Before the roll: the target's Dodge; an ally's Combination Attack ("When you can
        reasonably assist another Character's attack"); against a Power, Counter Power with a Power
        one can pay for ("spend the same number of Action Points and Energy as you would normally
        spend to use your Power")."""
        out = []
        taken = a.taken.get(c.id, [])
        if c.id == a.target and a.targets == "evasion" and not c.sheet.object and DODGE not in taken:
            out.append(DODGE)
        if c.id == a.target and a.targets == "evasion" and body_of(state, c.id).split_evades \
                and SPLIT_EVADE not in taken:
            out.append(SPLIT_EVADE)  # R1: "allocated before anyone rolls"
        attacker = state.combatants.get(a.attacker)  # None: hidden from the one asking
        if attacker is not None and c.id != a.attacker and c.side == attacker.side and c.id != a.target \
                and self._help_die(c) and COMBINATION not in taken:
            out.append(COMBINATION)
        # a hidden creature counters only a hidden one's Power (the RM reveals it first otherwise: the
        # attack's roll would name it)
        sees = c.id not in state.concealed or a.attacker in state.concealed
        if a.kind == "power" and c.id != a.attacker and c.id not in a.counters and sees:
            left = bodies.energy(c.sheet, body_of(state, c.id))
            out += [COUNTER + p.name for p in c.sheet.powers
                    if p.action_points <= c.action_points and p.energy <= left]
        return tuple(out)

    @staticmethod
    def _help_die(c: Combatant) -> int:
        """R12: "the Skill (or Attack) Bonus rounded up to an even number, as a die" (the creature's
        first weapon's Attack Bonus)."""
        try:
            return scores.help_die(profile(c.sheet, None, None).bonus)
        except RuleViolation:
            return 0

    @staticmethod
    def _reacted_by(state: EncounterState, cid: str) -> str:
        w = rules(state).window
        return w.answers.get(cid, "") if w is not None else ""

    def _can_react(self, state: EncounterState, cid: str) -> bool:
        b = body_of(state, cid)
        c = state.combatants[cid]
        if is_companion(c) and b.commanded_round != state.round:
            return False  # "When a trigger allows your Companion to take a reaction, you can use this reaction"
        return not (b.dead or b.unconscious or c.sheet.object) and conds.may_react(b.conditions)

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """An attack that waited only on the one taken out goes on."""
        return self._carry_on(state, dice)

    def command_info(self) -> list[CommandInfo]:
        return [CommandInfo(type=t.__struct_config__.tag, summary=(t.__doc__ or "").split("\n")[0],
                            action_points=2 if t is Attack else None,
                            who="player" if t.actor_field else "gm") for t in COMMANDS]
