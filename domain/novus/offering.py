"""The next moves of ``Novus`` (a mixin; DESIGN.md, "The next moves"): the declarations a character may
make, in the game's words; who acts in each phase of the round; the GM's rulings; ready sheets.

A Novus round is declared and resolved through decisions (domain/novus/pending.py: each choice a whole
``NovusDeclare`` body, its AP worked out by trying it); what a client may vary (Fighting Defensively's
points, a list of actions of one's own) is a move of the one who declares now (``acting``, ``moves``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.core.next_moves import Offer
from domain.core.resources import held
from domain.novus import actions as ap_table
from domain.novus import performing
from domain.novus.actions import Action
from domain.novus.data import DEFAULT_DATA, NovusData
from domain.novus.moves import BASIC_MELEE, BASIC_SHOT
from domain.novus.sheet import STATS, Weapon
from domain.novus.state import AP, PHASES, rules

# The Action Points table's rows (and the rules' own actions) in the game's words, as a button says them.
WORDS = {
    "dodge": "Dodge", "block": "Block", "move": "Move", "run": "Run", "disengage": "Disengage",
    "draw_weapon": "Draw a weapon", "perception": "Make a Perception roll", "get_up": "Get up from prone",
    "cast_spell": "Use an item, read a scroll or cast a spell", "counterspell": "Cast Counterspell or Fast Cast a spell",
    "instant_spell": "Perform an Instantaneous spell action", "concentration": "Concentrate",
    "set_initiative": "Set Initiative", "reroll_initiative": "Reroll Initiative",
    "reload_sling_bow": "Reload the sling or bow", "reload_light_crossbow": "Reload the light crossbow",
    "reload_heavy_crossbow": "Reload the heavy crossbow", "multiple_weapon_attacks": "Attack with several weapons",
}
SHOTS = {"arm": "an arm", "leg": "a leg", "head": "the head"}
# the actions of the table a character may declare on his own (an attack, a reload, a GM's action: below)
# (the spells but "Cast a Spell, Use Item or Rune/Read Scroll" are left out: the sheet names no spells)
PLAIN = ("dodge", "block", "move", "run", "disengage", "draw_weapon", "perception", "get_up", "set_initiative",
         "reroll_initiative", "cast_spell")
MOST = 60  # a declaration's choices: what a player would see as buttons
_KEY = msgspec.json.Encoder()
_DEFAULTS = msgspec.to_builtins(DEFAULT_DATA)


def words(state: EncounterState, c: Combatant, actions: Sequence[Action]) -> str:
    """Actions as a button says them: "Attack the Orc with the Broadsword", "Move, then attack ..."."""
    if not actions:
        return "Nothing"
    parts = [_one(state, c, a) for a in actions]
    if len(parts) == 2 and parts[0] == parts[1]:
        return f"{parts[0]}, twice"
    return ", then ".join([parts[0], *[p[0].lower() + p[1:] for p in parts[1:]]])


def _one(state: EncounterState, c: Combatant, a: Action) -> str:
    def who(cid: str | None) -> str:
        other = state.combatants.get(cid or "")
        return other.name if other is not None else "no one"

    if a.kind in ("attack", "mounted_charge"):
        weapon = f"the {a.weapon}" if a.weapon else "bare hands (Brawling)"
        if a.kind == "mounted_charge":
            return f"Mounted Charge at {who(a.target)} with {weapon} ({a.pace}x pace)"
        foes = [a.target, *a.more_targets]
        if a.more_targets:
            target = who(a.target) if len(set(foes)) == 1 else ", ".join(who(t) for t in dict.fromkeys(foes))
            times = {2: "twice", 3: "three times"}.get(len(foes), f"{len(foes)} times")
            text = f"Attack {target} {times} with {weapon} (AB {' + '.join(str(s) for s in a.split)})"
        else:
            text = f"Attack {who(a.target)} with {weapon}"
        if a.move:
            text += f" ({a.move})"
        if a.called_shot:
            text += f", a Called Shot at {SHOTS[a.called_shot]}"
        return text
    if a.kind == "multiple_weapon_attacks":
        pairs = list(zip([a.target, *a.more_targets], [a.weapon, *a.more_weapons], strict=False))
        if len({t for t, _ in pairs}) == 1:
            return f"Attack {who(a.target)} with {' and '.join(f'the {w}' for _, w in pairs)} (Multiple Weapon Attacks)"
        return f"Multiple Weapon Attacks: {', '.join(f'{who(t)} with the {w}' for t, w in pairs)}"
    if a.kind == "gm_action":
        return f"Pick up the {a.weapon}" if a.weapon else (a.name or "An action")
    return WORDS.get(a.kind, a.kind)


def _reload(w: Weapon) -> str:
    """The reloading row of a missile weapon (by its name: the sheet says no more)."""
    name = w.name.lower()
    if "crossbow" in name:
        return "reload_heavy_crossbow" if "heavy" in name else "reload_light_crossbow"
    return "reload_sling_bow"


class Offering:
    """The next moves of ``Novus`` (domain/novus/ruleset.py composes it)."""

    # core's roll_exploding, for each combatant in turn (domain/novus/rounds.py, roll_initiative)
    initiative_dice: ClassVar[str] = (
        "two d10 for each combatant, in the order they were added (N11: 2d10 + Speed and Wisdom bonuses), each "
        "pair an open roll: after a combatant's two dice, each die showing 1 or 10 is rolled again, in order, and "
        "again while the new die shows that same face, those dice next; a 1 with a 10 is a Nova Roll: no more dice")

    # -------------------------------------------------------------- who acts

    def acting(self, state: EncounterState) -> list[str]:
        """The declare phase: the one who declares now (his declaration's choices are a decision; what
        he may vary, a move). The resolve phase: the one whose turn it is once he has resolved (ending
        his turn); before that, the decision to resolve waits. The end of the round: its attacks wait."""
        if state.status != "active":
            return []
        r = rules(state)
        phase = self.phase(state)  # type: ignore[attr-defined]
        if phase == "declare":
            mover = PHASES.mover(r.position, self._ranked(state))  # type: ignore[attr-defined]
            if r.unseen_mover or mover is None or mover not in state.combatants or r.unseen_waits:
                return []
            return [mover] if self.can_act(state, mover) else []  # type: ignore[attr-defined]
        t = state.turn
        if t is None or t not in state.combatants or phase == "end of round" or t not in r.resolved:
            return []
        return [t]

    def moves(self, state: EncounterState, combatant_id: str) -> Iterable[Offer]:
        """As he declares: Fighting Defensively with each melee weapon he has the skill of ("+1 DEF for
        every 2" points shifted from its Attack Bonus), an attack on the first foe with it, the points a
        client may vary; and a declaration of several actions of his own (the actions a client may vary).
        (Each is a ``NovusDeclare`` body; the single actions and the usual pairs are the decision's choices.)"""
        if self.phase(state) != "declare" or combatant_id not in state.combatants:  # type: ignore[attr-defined]
            return []
        c = state.combatants[combatant_id]
        foes = self.foes(state, c)
        out: list[Offer] = []
        for w in c.sheet.weapons:
            skill = c.sheet.skill(w.skill)
            if w.kind != "melee" or skill is None or skill.bonus < 2:
                continue
            shift = max(2, skill.bonus // 4 * 2)  # half the bonus, in whole points of DEF
            acts = [Action(kind="attack", target=foes[0], weapon=w.name)] if foes else []
            body = {"type": "NovusDeclare", "combatant_id": c.id, "actions": [msgspec.to_builtins(a) for a in acts],
                    "defensive": shift, "defensive_weapon": w.name}
            label = (f"{words(state, c, acts)}, fighting defensively" if acts else f"Fight defensively with the {w.name}")
            out.append(Offer(label=f"{label} (AB -{shift}, DEF +{shift // 2})", command=body, combatant_id=c.id,
                             vary=("actions", "defensive", "defensive_weapon")))
        # a default that fits any round (a move and a Dodge: 4 AP) and is none of the declaration's choices
        first = [Action(kind="move"), Action(kind="dodge")]
        out.append(Offer(label=f"Declare several actions: {words(state, c, first)}",
                         command={"type": "NovusDeclare", "combatant_id": c.id,
                                  "actions": [msgspec.to_builtins(a) for a in first]},
                         combatant_id=c.id, vary=("actions",)))
        return out

    def foes(self, state: EncounterState, c: Combatant) -> list[str]:
        """The foes an attack is offered on: those of another side still in the fight. A helpless foe too
        when the GM has set a death threshold (U-N4: ``death_below``): then a blow can kill him; without it
        one adds nothing but hits below 0 (attacking him stays a declaration of one's own, ``moves``)."""
        r = rules(state)
        mortal = r.data.death_below is not None
        return [o for o, other in state.combatants.items() if other.side != c.side and o not in r.dead
                and (mortal or not self.helpless(state, o))]  # type: ignore[attr-defined]

    # --------------------------------------------------------- declarations

    def declarations(self, state: EncounterState, cid: str, carry: bool = True) -> list[tuple[str, list[Action], int]]:
        """What ``cid`` may declare now, each as (its words, the actions, their AP): nothing; an attack on
        each foe with each weapon (and each Combat Move it may be made with); the Dodge, the Block, a move,
        a run and the table's other actions; a move then an attack, Called Shots, attacks from high skill,
        two attacks when Hasted; a reload, picking a knocked-away weapon up, a Mounted Charge. Only what
        the rules take (``carry``: one action alone may run into the next round, N11)."""
        # asked again of the same state, and of it as shown (its sheets with their toll: the same rules)
        key = (state.rules, state.version, cid, carry, tuple(state.combatants))
        memo = getattr(self, "_declarations_memo", None)
        if memo is not None and memo[0][0] is key[0] and memo[0][1:] == key[1:]:
            return memo[1]
        out = self._declarations(state, cid, carry)
        self._declarations_memo = (key, out)
        return out

    def _declarations(self, state: EncounterState, cid: str, carry: bool) -> list[tuple[str, list[Action], int]]:
        c = state.combatants[cid]
        out: list[tuple[str, list[Action], int]] = [("Nothing", [], 0)]
        if not self.can_act(state, cid):  # type: ignore[attr-defined]
            return out
        r = rules(state)
        checked = msgspec.structs.replace(state, rules=msgspec.structs.replace(r, pending_shift=(0, None)))
        data, sheet = r.data, c.sheet
        mounted = cid in r.mounted
        left = held(c).get(AP, 0)
        foes = self.foes(state, c)
        weapons = [w.name for w in sheet.weapons]
        primary = next((w.name for w in sheet.weapons if w.kind == "melee"), weapons[0] if weapons else None)
        tries: list[list[Action]] = []
        for f in foes:
            tries += [[Action(kind="attack", target=f, weapon=w)] for w in weapons]
        tries += [[Action(kind=k)] for k in ("dodge", "block", "move", "run")]
        for f in foes:
            for w in weapons:
                tries += [[Action(kind="attack", target=f, weapon=w, move=m)] for m in self._attack_moves(data, sheet, w)]
        if primary is not None or not weapons:
            for f in foes:
                tries.append([Action(kind="move"), Action(kind="attack", target=f, weapon=primary)])
                tries += [[Action(kind="attack", target=f, weapon=primary, called_shot=s)] for s in ("arm", "leg", "head")]
                tries.append(self._high_skill(state, c, f, primary))
                tries.append([Action(kind="attack", target=f, weapon=primary)] * 2)
        tries += [[Action(kind=k)] for k in PLAIN if k not in ("dodge", "block", "move", "run")
                  and (k != "get_up" or cid in r.prone)]  # getting up, from prone
        tries += [[Action(kind=_reload(w))] for w in sheet.weapons if w.kind == "missile"]
        tries += [[Action(kind="gm_action", name=a.name)] for a in data.actions]
        simple = next((a.name for a in data.actions if a.category == "simple"), None)
        if simple is not None:
            tries += [[Action(kind="gm_action", name=simple, weapon=w)] for w in r.disarmed.get(cid, [])]
        if mounted:
            for f in foes:
                tries += [[Action(kind="mounted_charge", target=f, weapon=w.name)]
                          for w in sheet.weapons if w.kind == "melee"]
        if sheet.talents.two_weapon_combo:  # "Multiple Weapon Attacks in 1 round": a weapon in each hand
            pair = [w.name for w in sheet.weapons if w.one_handed][:2]
            if len(pair) == 2:
                tries += [[Action(kind="multiple_weapon_attacks", target=f, weapon=pair[0], more_targets=[f],
                                  more_weapons=[pair[1]])] for f in foes]
        if weapons:
            tries += [[Action(kind="attack", target=f, weapon=None)] for f in foes]
        seen: set[bytes] = set()
        for acts in tries:
            if len(out) >= MOST:
                break
            key = _KEY.encode(acts)
            if not acts or key in seen:
                continue
            seen.add(key)
            cost = sum(ap_table.cost(sheet, a, data, mounted) for a in acts)
            over = cost > left
            if over and not (carry and len(acts) == 1):  # N11: "An action may run into the next round only if
                continue  # it also uses all of this round's AP"
            try:
                self._check_declaration(checked, c, acts, 0, None)  # type: ignore[attr-defined]
            except RuleViolation:
                continue
            said = words(state, c, acts)
            out.append((f"{said}, {cost - left} AP of it in the next round" if over else said, acts, cost))
        return out

    @staticmethod
    def _attack_moves(data: NovusData, sheet: Any, weapon: str) -> list[str]:
        """The Combat Moves an attack with ``weapon`` may name: the advanced ones learnt for its skill and the
        Basic ones other than its plain attack (those "free with any Combat Skill that has at least 1 rank")."""
        w = sheet.weapon(weapon)
        skill = sheet.skill(w.skill) if w is not None else None
        basic = [m.name for m in data.moves if m.basic and m.use == "attack" and m.name not in (BASIC_MELEE, BASIC_SHOT)
                 and skill is not None and skill.ranks >= 1]
        return [*performing.learnt_attacks(data, sheet, weapon), *basic]

    def _high_skill(self, state: EncounterState, c: Combatant, foe: str, weapon: str | None) -> list[Action]:
        """Attacks from high skill: as many as the skill allows on one foe ("one more for every 10 points of
        its total bonus"), the AB split evenly, the first's share the larger."""
        w = c.sheet.weapon(weapon)
        skill = c.sheet.skill(w.skill) if w is not None else None
        if skill is None or skill.bonus < 10:
            return []
        count = 1 + skill.bonus // 10
        a = Action(kind="attack", target=foe, weapon=weapon, more_targets=[foe] * (count - 1))
        ab = self.high_skill_ab(state, c, a)  # type: ignore[attr-defined]
        share, extra = divmod(ab, count)
        split = [share + (1 if i < extra else 0) for i in range(count)]
        return [msgspec.structs.replace(a, split=split)]

    # -------------------------------------------------------------- rulings

    def rulings(self, state: EncounterState) -> Iterable[Offer]:
        """The GM's rulings with free values (the GM's own: no combatant acts, but a helpless one's roll): the encounter's settings (NovusSetRules), Haste, a mount,
        who is surprised and each side's group Perception roll (before the fight), harm and healing, a
        helpless character's First Aid (N22, TN 25), closing a window of Opportunity Attacks."""
        r = rules(state)
        # the encounter's settings as they stand: what differs from the defaults (the rest is theirs)
        now = msgspec.to_builtins(r.data) if r.data is not DEFAULT_DATA else {}
        data = {k: v for k, v in now.items() if v != _DEFAULTS[k]}
        out = [Offer(label="Set the encounter's rules (Boons, Combat Moves, actions, Snags, death)",
                     command={"type": "SetNovusRules", "data": data}, vary=("data",))]
        sides = list(dict.fromkeys(c.side for c in state.combatants.values()))
        if state.status == "setup":
            for side in sides:
                members = [cid for cid, c in state.combatants.items() if c.side == side]
                out.append(Offer(label=f"Surprise the {side} (-20 Initiative in the first round)",
                                 command={"type": "NovusSetSurprised", "surprised": members}, vary=("surprised",)))
                out.append(Offer(label=f"Group Perception roll for the {side}",
                                 command={"type": "NovusRollGroupPerception", "side": side}, vary=("side",)))
        # Haste and a mount: one offer each for whoever has neither (the combatant a client may vary), one
        # to end it for each who has it
        unhasted = next((cid for cid in state.combatants if cid not in r.hasted), None)
        if unhasted is not None:
            out.append(Offer(label=f"Haste {state.combatants[unhasted].name} (10 AP a round, from the next round)",
                             command={"type": "NovusSetHaste", "combatant_id": unhasted, "hasted": True},
                             vary=("combatant_id",)))
        unmounted = next((cid for cid in state.combatants if cid not in r.mounted), None)
        if unmounted is not None:
            out.append(Offer(label=f"{state.combatants[unmounted].name} is mounted (Mounted Combat)",
                             command={"type": "NovusSetMounted", "combatant_id": unmounted, "mounted": True,
                                      "trained": False}, vary=("combatant_id", "trained")))
        for cid, c in state.combatants.items():
            if cid in r.hasted:
                out.append(Offer(label=f"End {c.name}'s Haste",
                                 command={"type": "NovusSetHaste", "combatant_id": cid, "hasted": False}))
            if cid in r.mounted:
                out.append(Offer(label=f"{c.name} dismounts",
                                 command={"type": "NovusSetMounted", "combatant_id": cid, "mounted": False}))
            if state.status != "active" or cid in r.dead:
                continue
            lost = r.hits_lost.get(cid, 0)
            if lost > 0:
                out.append(Offer(label=f"Heal {c.name}", command={"type": "NovusHeal", "combatant_id": cid,
                                                                  "amount": lost}, vary=("amount",)))
            out.append(Offer(label=f"Harm {c.name}", command={"type": "NovusHarm", "combatant_id": cid, "amount": 5,
                                                              "cause": "the GM"}, vary=("amount", "cause")))
            if self.helpless(state, cid):  # type: ignore[attr-defined]
                out.append(Offer(label=f"{c.name} tries to stabilise (First Aid, TN 25)",
                                 command={"type": "NovusRollSkill", "combatant_id": cid, "skill": "First Aid", "tn": 25},
                                 combatant_id=cid, vary=("tn",)))  # First Aid only (N22)
        window = r.window
        if window is not None and not window.settled:
            out.append(Offer(label="Close the Opportunity Attacks (whoever has not answered passes)",
                             command={"type": "CloseReactions", "window": window.id}))
        return out

    # ------------------------------------------------------------- examples

    def examples(self) -> list[tuple[str, dict[str, Any]]]:
        """A player character (a swordsman), a weak NPC (a goblin with a spear) and a strong one (an ogre)."""
        def stats(**bonus: int) -> dict[str, Any]:
            return {s: {"value": 10 + 2 * bonus.get(s, 0), "bonus": bonus.get(s, 0)} for s in STATS}

        hero = {"stats": stats(strength=2, speed=1, wisdom=1, constitution=1), "hit_points": 44,
                "skills": [{"name": "Broadsword", "ranks": 6, "bonus": 9, "melee": True},
                           {"name": "Short Bow", "ranks": 3, "bonus": 5}, {"name": "First Aid", "ranks": 2, "bonus": 3}],
                "weapons": [{"name": "Broadsword", "size": "medium", "dr": 8, "skill": "Broadsword", "edged": True},
                            {"name": "Short Bow", "size": "small", "dr": 6, "kind": "missile", "range": 50,
                             "skill": "Short Bow", "stat": "dexterity"}],
                "armour": {"ar": 5, "called_shot_ar": {"head": 2, "arms": 1}}, "shield": "small"}
        goblin = {"stats": stats(speed=1), "hit_points": 18,
                  "skills": [{"name": "Spear", "ranks": 2, "bonus": 3, "melee": True}],
                  "weapons": [{"name": "Spear", "size": "medium", "dr": 6, "skill": "Spear"}], "armour": {"ar": 1},
                  "creature_size": "small"}
        ogre = {"stats": stats(strength=4, constitution=3, speed=-1), "hit_points": 70,
                "skills": [{"name": "Great Club", "ranks": 10, "bonus": 14, "melee": True, "moves": ["All Out Attack"]}],
                "weapons": [{"name": "Great Club", "size": "large", "dr": 12, "skill": "Great Club"}],
                "armour": {"ar": 3}, "creature_size": "large"}
        return [
            ("a player character (Aren, a swordsman with a short bow)",
             {"name": "Aren", "side": "party", "controller": "player", "sheet": hero}),
            ("a weak NPC (a goblin with a spear)", {"name": "Goblin", "side": "enemies", "controller": "gm",
                                                   "sheet": goblin}),
            ("a strong NPC (an ogre with a great club)", {"name": "Ogre", "side": "enemies", "controller": "gm",
                                                         "sheet": ogre}),
        ]
