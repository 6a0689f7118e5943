"""The next moves (DESIGN.md, "The next moves"): who may act now, what each creature may try as it
acts (its attacks on each foe with each weapon and Power on its sheet, the Action table, Grapple,
Stealth/Hide, Search, Help, Prepare, Command...), the RM's rulings with their free values, ready
combatants for the RM to add, and who is out of the fight.

Only candidates: core tries each through ``decide`` (domain/core/next_moves.py), so what the rules
refuse now (too few AP, a Power without the Energy, an off-hand attack with no attack before it) is
not offered, and each offer's dice and AP come from the rules themselves. What is cheap to know is
left out here already, to keep the trials few."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.core.encounter import Combatant, EncounterState
from domain.core.names import called_of
from domain.core.next_moves import Offer
from domain.core.resources import held
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms import scores
from domain.realms.attacks import IMPROVISED, UNARMED
from domain.realms.body import afflictions
from domain.realms.data import RealmsRules
from domain.realms.events import ACTION_POINTS
from domain.realms.sheet import ABILITIES, RealmsSheet, half_up
from domain.realms.state import (
    FREE_ABILITY_ROLL,
    FREE_INTERACTION,
    body_of,
    is_companion,
    rules,
)

# the Action table's Actions offered as they are (R1), with what a client may vary
_PLAIN_ACTIONS = ("Evade", "Brace", "Focus", "Interaction")
_ROLLED_ACTIONS = ("Quick Action", "Basic Action", "Free Action")
_ROLL_VARY = ("roll_with", "against", "determination")
_ATTACK_VARY = ("distance", "non_lethal", "determination", "obscurity")
TRIGGER = "a foe moves within reach"


class Moving:
    """A part of ``Realms`` (domain/realms/ruleset.py): the next moves."""

    # "each creature ... rolls a D20 and adds a bonus" (``roll_initiative``: by the order added)
    initiative_dice = ("one d20 for each combatant, Companions too, in the order they were added to the "
                       "encounter")

    # ------------------------------------------------------------------ who acts

    def acting(self, state: EncounterState) -> list[str]:
        """The creature whose turn it is; while an uncommanded Companion has the turn, its owner too
        ("you must use the Command reaction at the start of its turn to control its actions for the
        turn"); and each creature holding a Prepared Action, which it may use "as a Reaction later in
        the round"; and each creature a hidden attacker revealed itself to, who may Detect it. While
        an attack waits on Reactions, only the turn (the window's answers are decisions)."""
        if state.status != "active" or state.turn is None or state.turn not in state.combatants:
            return []
        out = [state.turn]
        r = rules(state)
        if (r.window is not None and not r.window.settled) or body_of(state, state.turn).overcome_due:
            return out
        turn = state.combatants[state.turn]
        if is_companion(turn) and body_of(state, turn.id).commanded_round != state.round:
            owner = state.combatants.get(turn.sheet.companion_of or "")
            if owner is not None and owner.action_points >= 1 and self._may_act(state, owner):
                out.append(owner.id)
        for cid, b in r.bodies.items():
            c = state.combatants.get(cid)
            if b.prepared is not None and c is not None and cid not in out and self._can_react(state, cid):
                out.append(cid)
        for cid in self._detecting(state):
            if cid not in out and self._can_react(state, cid):
                out.append(cid)
        return out

    def may_act(self, state: EncounterState) -> list[str]:
        """Before initiative is rolled, the initiator: "The creature who initiates Combat can take their
        first Action without spending any Action Points. Afterward, all creatures involved roll for
        Initiative" (offered, not waited on: the RM may roll initiative without it)."""
        if state.status != "setup" or state.initiative_rolled:
            return []
        return [cid for cid in rules(state).starts if cid in state.combatants and self._opening(state, cid)]

    @staticmethod
    def _detecting(state: EncounterState) -> dict[str, list[str]]:
        """Who may Detect whom: "If you attack in a way that would reveal your location ... any target
        who saw, heard, or was affected by your attack can use the Detect Reaction" (each creature the
        attacker is still hidden from)."""
        out: dict[str, list[str]] = {}
        for cid, b in rules(state).bodies.items():
            if b.stealth is not None and b.stealth.attacked and cid in state.combatants:
                for o in b.stealth.hidden_from:
                    if o in state.combatants and o != state.turn:
                        out.setdefault(o, []).append(cid)
        return out

    @staticmethod
    def _may_act(state: EncounterState, c: Combatant) -> bool:
        b = body_of(state, c.id)
        return not (b.dead or b.unconscious)

    # ------------------------------------------------------------------ moves

    def moves(self, state: EncounterState, combatant_id: str) -> Iterable[Offer]:
        """What ``combatant_id`` may try now: on its turn the attacks, the Action table and the rest;
        out of its turn its Reactions (a Prepared Action, Detect, a Companion's Command)."""
        c = state.combatants.get(combatant_id)
        r = rules(state)
        if c is not None and self._opening(state, c.id) and self._may_act(state, c):
            return self._opening_moves(state, c)
        if c is None or state.status != "active" or (r.window is not None and not r.window.settled):
            return []
        b = body_of(state, c.id)
        if b.dead or b.unconscious or b.overcome_due:
            return []
        if state.turn != c.id:
            return self._reactions(state, c)
        if is_companion(c) and b.commanded_round != state.round:
            return []  # its owner Commands it first (``acting``), or its turn ends
        return [*self._attacks(state, c), *self._actions(state, c), *self._others(state, c)]

    def _opening_moves(self, state: EncounterState, c: Combatant) -> list[Offer]:
        """The initiator's free first Action, before initiative: its attacks and grapples, the Action
        table (not the Overcome, a turn's), Stealth or Hide."""
        actions = [o for o in self._actions(state, c) if o.command.get("action") != "Overcome"]
        hiding = [o for o in self._others(state, c) if o.command["type"] == "RealmsStealthHide"]
        return [*self._attacks(state, c), *actions, *hiding]

    def _reactions(self, state: EncounterState, c: Combatant) -> list[Offer]:
        out = []
        b = body_of(state, c.id)
        if b.prepared is not None:
            ready = b.prepared
            what = ready.action or ready.power or ready.weapon or "attack"
            on = state.combatants.get(ready.target or "")
            label = f"Use the prepared {what}" + (f" on {called_of(on)}" if on is not None else "")
            out.append(self._offer(c, label, {"type": "RealmsUsePrepared"}))
        for cid in self._detecting(state).get(c.id, []):
            out.append(self._offer(c, f"Detect {called_of(state.combatants[cid])} (a Reaction)", {
                "type": "RealmsDetect", "target": cid}, ("determination",)))
        out += self._commands(state, c)
        return out

    def _commands(self, state: EncounterState, c: Combatant) -> list[Offer]:
        """Command (1 AP): a Companion of ``c`` not yet Commanded this round."""
        out = []
        for pet in state.combatants.values():
            if pet.sheet.companion_of == c.id and body_of(state, pet.id).commanded_round != state.round \
                    and not body_of(state, pet.id).dead:
                out.append(self._offer(c, f"Command {called_of(pet)}", {"type": "RealmsCommand", "companion": pet.id}))
        return out

    @staticmethod
    def _offer(c: Combatant, label: str, command: dict[str, Any], vary: tuple[str, ...] = ()) -> Offer:
        return Offer(label=label, command={"type": command["type"], "combatant_id": c.id,
                                           **{k: v for k, v in command.items() if k != "type"}},
                     combatant_id=c.id, vary=vary)

    @staticmethod
    def _foes(state: EncounterState, c: Combatant) -> list[Combatant]:
        """The creatures of other sides still to fight (not dead), in the order of play."""
        seq = {cid: i for i, cid in enumerate(state.order)}
        foes = [o for o in state.combatants.values() if o.side != c.side and not body_of(state, o.id).dead]
        return sorted(foes, key=lambda o: (seq.get(o.id, len(seq)), o.seq))

    def _attacks(self, state: EncounterState, c: Combatant) -> list[Offer]:
        """An attack on each foe with each weapon on the sheet, unarmed and improvised, and each Power
        it has the AP and Energy for; the off-hand and Quick attacks once an attack Action allows them."""
        sheet: RealmsSheet = c.sheet
        b = body_of(state, c.id)
        out: list[Offer] = []
        energy = bodies.energy(sheet, b)
        free = self._cost(state, c, 2)[0] == 0  # the initiator's first Action
        powers = [p for p in sheet.powers if p.energy <= energy and (p.action_points <= c.action_points or free)]
        main = [w for w in b.attacks if w not in (UNARMED, IMPROVISED)]
        off_hand = [w for w in sheet.weapons if main and w.name != main[-1] and w.has("interchangeable")
                    and not b.off_hand_attacked]
        quick = UNARMED in b.attacks and not b.quick_attacked
        basic = c.action_points >= 2 or free
        for foe in self._foes(state, c):
            who = called_of(foe)
            if basic:
                for w in sheet.weapons:
                    distance = w.range if w.ranged else 1
                    out.append(self._offer(c, f"Attack {who} with the {w.name}", {
                        "type": "RealmsAttack", "target": foe.id, "weapon": w.name, "distance": distance},
                        _ATTACK_VARY))
                out.append(self._offer(c, f"Attack {who} unarmed", {
                    "type": "RealmsAttack", "target": foe.id, "weapon": UNARMED, "distance": 1}, _ATTACK_VARY))
                out.append(self._offer(c, f"Attack {who} with an improvised weapon", {
                    "type": "RealmsAttack", "target": foe.id, "weapon": IMPROVISED, "distance": 1},
                    (*_ATTACK_VARY, "thrown")))
            for p in powers:
                out.append(self._offer(c, f"Use the {p.name} Power on {who}", {
                    "type": "RealmsAttack", "target": foe.id, "power": p.name, "distance": p.range},
                    (*_ATTACK_VARY, "collateral")))
            for w in off_hand:
                out.append(self._offer(c, f"Attack {who} with the off-hand {w.name}", {
                    "type": "RealmsAttack", "target": foe.id, "weapon": w.name, "distance": w.range if w.ranged
                    else 1, "off_hand": True}, _ATTACK_VARY))
            if quick:
                out.append(self._offer(c, f"Quick Attack {who} unarmed", {
                    "type": "RealmsAttack", "target": foe.id, "weapon": UNARMED, "distance": 1, "quick": True},
                    _ATTACK_VARY))
            if basic and not foe.sheet.object:
                out.append(self._offer(c, f"Grapple {who}", {"type": "RealmsGrapple", "target": foe.id},
                                       ("defence", "damage", "determination")))
        return out

    def _actions(self, state: EncounterState, c: Combatant) -> list[Offer]:
        """The Action table (R1): Movement at the creature's Speed now, Evade (whole or split), Brace,
        Focus, Interaction, the Ability Roll and Skill Encounter Action with the creature's best
        bonus, Search, the generic Basic, Quick and Free Actions, and the Overcome taken early; each
        the creature can pay for (its AP, a free Interaction or Ability Roll, the initiator's first)."""
        sheet: RealmsSheet = c.sheet
        b = body_of(state, c.id)
        out: list[Offer] = []
        free = self._cost(state, c, 2)[0] == 0
        kept = held(c)

        def affords(action: str) -> bool:
            cost = ACTION_POINTS[action] + (1 if action == "Free Action" and b.free_actions else 0)
            keep = {"Interaction": FREE_INTERACTION, "Ability Roll": FREE_ABILITY_ROLL}.get(action)
            return free or cost <= c.action_points or (keep is not None and kept.get(keep, 0) > 0)

        def add(label: str, action: str, vary: tuple[str, ...] = (), **fields: Any) -> None:
            if affords(action):
                out.append(self._offer(c, label, {"type": "RealmsTakeAction", "action": action, **fields}, vary))

        speed = conds.speed(sheet.movement, afflictions(b))
        if any(conds.of_source(x.conditions, "grappled", c.id) for x in rules(state).bodies.values()):
            speed = half_up(speed)  # "it reduces your Speed by ½"
        most = scores.movement(speed, b.moves + 1)  # the Speed, the Speed again, +½, +¼
        if most >= 1:
            add(f"Movement ({most} spaces)", "Movement", ("spaces",), spaces=most)
        for action in _PLAIN_ACTIONS:
            add(action, action)
        add("Evade (split)", "Evade", split=True)
        best = self._best_roll(sheet)
        add(f"Ability Roll ({_words(best)})", "Ability Roll", _ROLL_VARY, roll_with=best)
        skill = max(sheet.skills, key=lambda s: sheet.skills[s], default=best)
        add(f"Skill Encounter Action ({_words(skill)})", "Skill Encounter Action", _ROLL_VARY, roll_with=skill)
        add("Search (Acuity)", "Search", _ROLL_VARY, roll_with="acuity")
        for action in _ROLLED_ACTIONS:
            add(action, action, _ROLL_VARY)
        if self._to_overcome(b) and b.overcome_round != state.round:
            add("Overcome your conditions now", "Overcome")
        return out

    @staticmethod
    def _best_roll(sheet: RealmsSheet) -> str:
        return max(ABILITIES, key=lambda a: (sheet.abilities.of(a), a == "acuity"))

    def _others(self, state: EncounterState, c: Combatant) -> list[Offer]:
        """Stealth/Hide, Search for each creature hidden from it, Help each ally, Prepare an attack
        or an Action, Command its Companions, counter a Power in effect with each of its Powers;
        each it has the AP for."""
        sheet: RealmsSheet = c.sheet
        b = body_of(state, c.id)
        out: list[Offer] = []
        ap = c.action_points
        free = self._cost(state, c, 2)[0] == 0
        if b.stealth is None:
            if free or ap >= (1 if b.detected_round == state.round else 2):
                out.append(self._offer(c, "Stealth", {"type": "RealmsStealthHide", "mode": "stealth"},
                                       ("obscurity", "determination")))
                out.append(self._offer(c, "Hide", {"type": "RealmsStealthHide", "mode": "hide"},
                                       ("obscurity", "determination")))
        elif ap >= 1:
            other = "Stealthing" if b.stealth.mode == "hide" else "Hiding"
            out.append(self._offer(c, f"Switch to {other}", {"type": "RealmsStealthHide", "switch": True}))
        if ap >= 1:
            for cid, x in rules(state).bodies.items():
                o = state.combatants.get(cid)
                if o is not None and x.stealth is not None and c.id in x.stealth.hidden_from:
                    out.append(self._offer(c, f"Search for {called_of(o)}", {
                        "type": "RealmsDetect", "target": cid, "search": True}, ("determination",)))
            skills = {**{a: sheet.abilities.of(a) for a in ABILITIES}, **sheet.skills}
            help_with = max(skills, key=lambda k: skills[k])
            if scores.help_die(skills[help_with]):
                for ally in state.combatants.values():
                    if ally.side == c.side and ally.id != c.id and self._may_act(state, ally):
                        out.append(self._offer(c, f"Help {called_of(ally)} ({_words(help_with)})", {
                            "type": "RealmsHelp", "ally": ally.id, "skill": help_with}, ("skill", "interaction")))
        if free or ap >= 2:
            for foe in self._foes(state, c)[:1]:
                out.append(self._offer(c, f"Prepare an attack on {called_of(foe)}", {
                    "type": "RealmsPrepare", "trigger": TRIGGER, "target": foe.id},
                    ("trigger", "target", "weapon", "power", "distance")))
        if free or ap >= 1:
            out.append(self._offer(c, "Prepare an Evade", {
                "type": "RealmsPrepare", "trigger": "an attack comes", "action": "Evade"},
                ("trigger", "action", "roll_with", "spaces")))
        if ap >= 1:
            out += self._commands(state, c)
        energy = bodies.energy(sheet, b)
        for p in sheet.powers:
            if p.energy <= energy and p.action_points <= ap:
                out.append(self._offer(c, f"Counter a Power in effect with the {p.name}", {
                    "type": "RealmsCounterInEffect", "power": p.name, "score": 10},
                    ("score", "energy", "part", "determination")))
        return out

    # ------------------------------------------------------------------ the RM's rulings

    def rulings(self, state: EncounterState) -> Iterable[Offer]:
        """The RM's commands with free values, each once with a default accepted now and the
        creature it is about among what a client may vary: the encounter's settings, how each
        creature starts combat, an improvised Action or Power, healing, stabilising, conditions on
        and off, damage, Energy drained, rest, Determination Dice, closing a window, a Coup de Grâce
        outside of combat."""
        r = rules(state)
        out: list[Offer] = [Offer(label="Set the encounter's rules (Dying damage, Evade bonus, Determination Dice, "
                                  "Partial Success)", command={"type": "SetRealmsRules", "data": _data(r.data)},
                                  kind="gm", vary=("data",))]
        if state.status == "ended":
            return out
        if state.status == "setup" and not state.initiative_rolled:
            for c in state.combatants.values():
                start = r.starts.get(c.id)
                roll_with = start.roll_with if start else None
                out.append(_ruling(c, f"{c.name} started the fight (a free first Action)", {
                    "type": "SetInitiative", "initiator": True, "surprised": False, "roll_with": roll_with},
                    ("roll_with", "surprised", "initiator")))
                out.append(_ruling(c, f"{c.name} is surprised", {
                    "type": "SetInitiative", "surprised": True, "initiator": False, "roll_with": roll_with},
                    ("roll_with", "surprised", "initiator")))
        if r.window is not None and not r.window.settled:
            out.append(Offer(label="Close the Reactions: whoever has not answered passes", kind="gm",
                             command={"type": "CloseReactions", "window": r.window.id}))
        living = [c for c in state.combatants.values() if not body_of(state, c.id).dead]
        if not living:
            return out
        turn = state.combatants.get(state.turn or "")
        who = turn if turn is not None and turn in living else living[0]
        waits = (r.window is not None and not r.window.settled) or (turn is not None
                                                                     and body_of(state, turn.id).overcome_due)
        if state.status == "active" and turn is not None and not waits:
            out.append(_ruling(turn, f"An improvised Action by {turn.name} (its AP as the RM rules)", {
                "type": "RealmsImprovisedAction", "description": "an improvised action",
                "action_points": min(turn.action_points, 1)},
                ("description", "action_points"), acts=True))
            out.append(_ruling(turn, f"{turn.name} improvises a Power", {
                "type": "RealmsImprovisePower", "description": "an improvised Power", "parts": [], "energy": 0},
                ("combatant_id", "description", "parts", "energy", "determination"), acts=True))
        hurt = min(living, key=lambda c: (bodies.health(c.sheet, body_of(state, c.id)) / c.sheet.health, c.seq))
        full = bodies.health(hurt.sheet, body_of(state, hurt.id)) >= hurt.sheet.health
        out.append(_ruling(hurt, f"Heal {hurt.name}" + (" (Overheal)" if full else ""), {
            "type": "RealmsHeal", "amount": 1, "overheal": full},
            ("combatant_id", "amount", "dice_count", "dice_sides", "bonus", "healer", "overheal")))
        for c in living:
            b = body_of(state, c.id)
            if b.dying and not b.stabilised:
                out.append(_ruling(c, f"Stabilise {c.name}", {"type": "RealmsStabilise"}))
            for condition in sorted(b.conditions):
                out.append(_ruling(c, f"End {c.name}'s {condition.replace('_', ' ')}", {
                    "type": "RealmsRemoveCondition", "condition": condition}))
        out.append(_ruling(who, f"A bonus or penalty on {who.name}'s next d20 roll", {
            "type": "RealmsModifyRoll", "amount": 2, "reason": "the RM's ruling"}, ("combatant_id", "amount", "reason")))
        out.append(_ruling(who, f"Put a condition on {who.name}", {"type": "RealmsApplyCondition", "condition": "prone"},
                           ("combatant_id", "condition", "level", "defence", "score", "source")))
        energy = bodies.energy(who.sheet, body_of(state, who.id))
        out.append(_ruling(who, f"{'Drain' if energy > 0 else 'Restore'} {who.name}'s Energy", {
            "type": "RealmsChangeEnergy", "amount": -1 if energy > 0 else 1}, ("combatant_id", "amount")))
        out.append(_ruling(who, f"Set {who.name}'s Determination Dice", {
            "type": "RealmsSetDetermination", "count": min(self.determination(state, who) + 1, 3)},
            ("combatant_id", "count")))
        if state.status == "active":
            out.append(_ruling(who, f"Deal damage to {who.name}", {"type": "RealmsDealDamage", "amount": 1},
                               ("combatant_id", "amount", "dice_count", "dice_sides", "bonus", "damage_type", "by",
                                "non_lethal")))
            return out
        out.append(_ruling(who, f"{who.name} rests (a full recovery)", {"type": "RealmsRecover", "recovery": "full"},
                           ("combatant_id", "recovery", "blocks", "restore")))
        foe = next((o for o in living if o.side != who.side), None)
        if foe is not None:
            # "Whenever you attempt to attack a creature outside of Combat that is unconscious or asleep"
            out.append(_ruling(foe, f"Coup de Grâce: {foe.name} on the sleeping {who.name}", {
                "type": "RealmsCoupDeGrace", "target": who.id, "asleep": True},
                ("combatant_id", "target", "weapon", "asleep"), acts=True))
        return out

    # ------------------------------------------------------------------ the table

    def examples(self) -> list[tuple[str, dict[str, Any]]]:
        """A player's character, a weak NPC and a strong NPC, each a valid sheet."""
        return [(label, {"name": name, "side": side, "controller": controller, "sheet": sheet})
                for label, name, side, controller, sheet in _EXAMPLES]

    def out_of_fight(self, state: EncounterState, combatant: Combatant) -> bool:
        """Dead ("Death comes at −(maximum Health)"), Dying (R22: "It falls prone, its AP drops to 1
        at once", "It can't leave Dying until healed above 0"), unconscious (Non-Lethal Damage: "the
        target is instead rendered unconscious for 1 hour"), and a Companion whose creature is out of
        it ("you must use the Command reaction at the start of its turn to control its actions for the
        turn": nobody is left to)."""
        b = body_of(state, combatant.id)
        if b.dead or b.dying or b.unconscious:
            return True
        if is_companion(combatant):
            owner = state.combatants.get(combatant.sheet.companion_of or "")
            return owner is None or self.out_of_fight(state, owner)
        return False


def _ruling(c: Combatant, label: str, command: dict[str, Any], vary: tuple[str, ...] = (), *,
            acts: bool = False) -> Offer:
    """The RM's ruling about ``c`` (the command's ``combatant_id``); ``acts``: ``c`` is who acts (an
    improvised Action or Power, a Coup de Grâce), else the RM's own."""
    body = {"type": command["type"], "combatant_id": c.id, **{k: v for k, v in command.items() if k != "type"}}
    return Offer(label=label, command=body, kind="gm", combatant_id=c.id if acts else None, vary=vary)


def _words(name: str) -> str:
    return name.replace("_", " ").capitalize() if name in ABILITIES else name


def _data(data: RealmsRules) -> dict[str, Any]:
    return msgspec.to_builtins(data)


_PC = {
    "level": 2, "health": 20, "energy": 8, "martial_proficiency": 2, "power_proficiency": 1,
    "abilities": {"strength": 1, "vitality": 1, "agility": 3, "acuity": 2, "intelligence": 0, "charisma": 1},
    "skills": {"Stealth": 3, "Perception": 2},
    "weapons": [{"name": "Rapier", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "finesse",
                 "properties": ["Interchangeable"]},
                {"name": "Shortbow", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "ranged", "range": 12}],
    "powers": [{"name": "Firebolt", "dice": 1, "sides": 8, "damage_type": "fire", "range": 8, "energy": 2}],
    "proficiencies": {"piercing": 8, "fire": 8}, "armour": {"name": "Leather", "damage_reduction": 1},
}
_WEAK = {
    "health": 8, "martial_proficiency": 1, "abilities": {"strength": 1, "agility": 1},
    "weapons": [{"name": "Club", "dice": 1, "sides": 4, "damage_type": "bludgeoning"}],
    "proficiencies": {"bludgeoning": 4},
}
_STRONG = {
    "level": 4, "health": 30, "martial_proficiency": 3, "abilities": {"strength": 3, "vitality": 2, "agility": 1,
                                                                      "acuity": 1},
    "defence_increases": {"might": 2}, "size": "large",
    "weapons": [{"name": "Greataxe", "dice": 1, "sides": 12, "damage_type": "slashing"}],
    "proficiencies": {"slashing": 12}, "armour": {"name": "Chain", "damage_reduction": 2},
    "shield": {"name": "Tower Shield", "sides": 6}, "unarmed_prowess": 1,
}
_EXAMPLES: tuple[tuple[str, str, str, str, dict[str, Any]], ...] = (
    ("a player's character (a finesse duellist with a bow and a Power)", "Arwen", "party", "player", _PC),
    ("a weak NPC (a brigand with a club)", "Brigand", "enemies", "gm", _WEAK),
    ("a strong NPC (an ogre warlord with armour and a shield)", "Ogre Warlord", "enemies", "gm", _STRONG),
)
