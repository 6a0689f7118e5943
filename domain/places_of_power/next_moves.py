"""The next moves of a Places of Power fight (``Ruleset.moves``, ``rulings``, ``examples``,
``out_of_fight``): every move the rules let a combatant try as they act now, and the GM's
rulings, each a complete command body labelled in the game's words.

Core tries each candidate through ``decide`` (domain/core/next_moves.py) and offers only what
the rules take, so the candidates here are the buttons a player would see, not a second copy of
the rules: what is left out is only what cannot be tried at all (a Stand when not Prone, a spell
without Mere to pay it, a move with nobody placed).

"On a players turn, they can Move, perform a number of Free Actions, and carry out as many
Actions as they can afford with the Action Points currently available to them."

Penalty Points: "When your character is Wounded or Afflicted then they must apply Penalty Points
when performing any actions ... the Player is free to select the specific penalty or penalties of
their choice." A move that owes them carries the first choice of penalties the rules accept now
(a die stepped down, then the difficulty raised, then the Action Point cost, then the damage), and
names ``penalties`` among what a client may vary.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from typing import Any, get_args

import msgspec

from domain.core.encounter import Combatant, EncounterState
from domain.core.errors import RuleViolation
from domain.core.next_moves import Offer
from domain.places_of_power import morale as morale_rules
from domain.places_of_power import loading
from domain.places_of_power.actions import ACTION_COSTS
from domain.places_of_power.attacks import (
    ATTACK_COST,
    REGAIN_BALANCE_COST,
    _off_balance,
)
from domain.places_of_power.checks import LADDER
from domain.places_of_power.grapples import GRAPPLE_COST, controlled_by, penalty_owed
from domain.places_of_power.healing import HEALING_COST
from domain.places_of_power.magic import spell_costs
from domain.places_of_power.morale import DEMAND_SURRENDER_COST, SUPPRESSION_COST
from domain.places_of_power.movement import (
    DISENGAGE_COST,
    REACH,
    SHOVE_COST,
    allowance,
    band_between,
    engaged_by,
    positions,
)
from domain.places_of_power.non_lethal import COST as NON_LETHAL_COST
from domain.places_of_power.non_lethal import TAUNT_COST, _held
from domain.places_of_power.sheet import ATTRIBUTES, Condition, sides
from domain.places_of_power.status_effect import StatusName
from domain.places_of_power.statuses import STABILISE_COST, has, status, statuses
from domain.places_of_power.table import rules, sheet
from domain.places_of_power.weapons import RANGE_BANDS, UNARMED, Weapon

# The order a ``reported`` encounter's RollInitiative takes its faces in (``initiative.roll``).
INITIATIVE_DICE = ("one D12 for each player character, in the order they were added; then one D12 for the GM, "
                   "for all the NPCs (when there are any)")

# Penalties a move's Penalty Points are first tried with, in this order (``harm.PENALTIES``).
PENALTY_ORDER = ("StepDownDie", "IncreaseDifficulty", "IncreaseCost", "ReduceDamage")
# Refusals another choice of penalties may get past: any other refusal stops the search.
PENALTY_CODES = frozenset({"penalty_points_owed", "penalty_not_applicable", "unknown_penalty",
                           "not_enough_action_points"})

# the Action Points of the moves whose cost is fixed ("Shove (1 AP)", "Grapple (2 AP)", ...)
FIXED_COST = {"Shove": SHOVE_COST, "Grapple": GRAPPLE_COST, "Squeeze": GRAPPLE_COST, "BreakFree": GRAPPLE_COST,
              "Disengage": DISENGAGE_COST, "Heal": HEALING_COST, "Stabilise": STABILISE_COST, "Taunt": TAUNT_COST,
              "DemandSurrender": DEMAND_SURRENDER_COST, "Suppression": SUPPRESSION_COST,
              "RegainBalance": REGAIN_BALANCE_COST}
ATTACK_WORDS = {"LightMelee": "Light Melee Attack", "HeavyMelee": "Heavy Melee Attack", "Ranged": "Ranged Attack"}
ATTACK_VARY = ("modifiers", "aim", "exposed", "from_behind")
SHOUT = "Hold the line!"
FLASHBACK = "I set this up earlier."


# ------------------------------------------------------------------------ reading


def _able(c: Combatant) -> bool:
    """Whether ``c`` may act at all ("Hit 4: Helpless - ... You are unable to perform ANY
    actions on your own"; Paralysed, Unconscious)."""
    s = sheet(c)
    return not (s.dead or s.hits >= 4 or s.helpless_for_fight or has(c, "Paralysed") or has(c, "Unconscious"))


def out_of_fight(state: EncounterState, c: Combatant) -> bool:
    """Dead, Helpless ("Hit 4: Helpless - You have been rendered Unconscious. You are unable to
    perform ANY actions on your own"), Unconscious ("You cannot act at all ... Until you are
    healed you can do nothing") or fled ("Those that fail this check will flee the battle")."""
    return morale_rules.out_of_the_fight(state, c) or has(c, "Unconscious")


def _at_hand(c: Combatant) -> list[Weapon]:
    s = sheet(c)
    return [w for w in s.weapons if w.name not in s.dropped_weapons]


def _living(state: EncounterState) -> list[Combatant]:
    return sorted((o for o in state.combatants.values() if not sheet(o).dead), key=lambda o: o.seq)


def _best_attribute(c: Combatant, among: Iterable[str] = ATTRIBUTES) -> str:
    """The Attribute with the highest die (the first of the sheet's order on a tie)."""
    s = sheet(c)
    return max(among, key=lambda a: (sides(s.attribute_die(a)), -ATTRIBUTES.index(a)))


# ------------------------------------------------------------------ penalty points


class _Rolled(Exception):
    """A die was asked for: the command got past every check."""


class _Probe:
    def roll(self, sides: int, purpose: str, by: str | None = None) -> Any:
        raise _Rolled


def _refusal(ruleset: Any, state: EncounterState, body: dict[str, Any]) -> str | None:
    """The code of the refusal ``body`` gets now (None: it passes, judged without rolling)."""
    try:  # decoded as the server decodes a body (a convert to the union of commands is slow)
        command = ruleset.command_decoder.decode(msgspec.json.encode(body))
    except (msgspec.DecodeError, msgspec.ValidationError):
        return "invalid"
    try:
        ruleset.decide(state, command, _Probe())
    except RuleViolation as refused:
        return refused.code
    except _Rolled:
        return None
    return None


def _paid(ruleset: Any, state: EncounterState, body: dict[str, Any], owed: int) -> dict[str, Any] | None:
    """``body`` with the first ``penalties`` that pay its ``owed`` Penalty Points and that the
    rules accept now; None when no choice of them is accepted (the move is refused anyway)."""
    if owed <= 0:
        return body
    for combo in combinations_with_replacement(PENALTY_ORDER, owed):
        candidate = {**body, "penalties": list(combo)}
        code = _refusal(ruleset, state, candidate)
        if code is None:
            return candidate
        if code not in PENALTY_CODES:
            return None  # refused whatever the penalties
    return None


# ------------------------------------------------------------------------- moves


def moves(ruleset: Any, state: EncounterState, combatant_id: str) -> list[Offer]:
    """What ``combatant_id`` may try as they act now (see the module docstring)."""
    c = state.combatants.get(combatant_id)
    if c is None or state.status != "active":
        return []
    off_turn = combatant_id not in ruleset.acting(state)
    heroic = [] if off_turn else list(_hero_points(state, c))
    if not _able(c) or any(st.due for st in statuses(c)):
        return heroic  # nothing else may be tried: a due Bleeding or Burning is settled first (a decision)
    out: list[Offer] = []
    owed = penalty_owed(state, c.id)
    candidates: list[Offer] = []
    if off_turn:  # out of turn (``may_act``): only the balance a mishap took
        candidates += _regain(state, c)
    elif rules(state).exchange is None:
        candidates += _attacks(state, c)
        candidates += _spells(state, c)
    if not off_turn:
        candidates += _non_lethal(state, c)
        candidates += _grapple_moves(state, c)
        candidates += _movement(state, c)
        candidates += _common_actions(state, c)
        candidates += _care(state, c)
        candidates += _others(state, c)
        if c.controller == "gm":
            candidates += _npc_only(c)
    for offer in candidates:
        if _base_cost(state, c, offer.command) > c.action_points:
            continue  # "If you do not have enough Action Points to pay the cost of a given action then you
            # cannot perform it" (Penalty Points only add to it)
        if "penalties" not in _fields(ruleset, offer.command["type"]):
            out.append(offer)
            continue
        who = offer.command["combatant_id"]
        due = owed if who == c.id else penalty_owed(state, who)
        due = _owed_for(state, c, offer.command, due)
        body = _paid(ruleset, state, offer.command, due)
        if body is not None:
            vary = (*offer.vary, "penalties") if due else offer.vary
            out.append(msgspec.structs.replace(offer, command=body, vary=vary))
    return out + heroic


def _base_cost(state: EncounterState, c: Combatant, body: dict[str, Any]) -> int:
    """The Action Points a move costs at the least (before its Penalty Points)."""
    kind = body["type"]
    if kind == "TakeAction":
        return ACTION_COSTS[body["action"]][0]
    if kind == "Attack":
        return ATTACK_COST[body["attack"]]
    if kind == "NonLethalAttack":
        return NON_LETHAL_COST[body["move"]]
    if kind == "CastSpell":
        block = sheet(c).stat_block
        spell = next((x for x in block.set_spells if x.name == body["spell"]), None) if block is not None else None
        complexity = spell.complexity if spell is not None else body.get("complexity", 0)
        return spell_costs(state)[complexity].action_points
    if kind == "UseSpecialAction":
        block = sheet(c).stat_block
        listed = block.special_actions if block is not None else []
        return next((a.action_points for a in listed if a.name == body["name"]), 0)
    return FIXED_COST.get(kind, 0)


def _owed_for(state: EncounterState, c: Combatant, body: dict[str, Any], owed: int) -> int:
    """The Penalty Points of one move: breaking free owes the grapple's 1 instead of the held's
    2 ("with a 1 Point Penalty"); a squeeze is the holder's own grapple move."""
    kind = body["type"]
    if kind == "BreakFree":
        return penalty_owed(state, c.id, breaking_free=True)
    if kind == "Squeeze":
        return penalty_owed(state, c.id, grapple_move=True)
    return owed


def _fields(ruleset: Any, kind: str) -> frozenset[str]:
    cached = getattr(ruleset, "_pop_fields", None)
    if cached is None:
        cached = {t.__struct_config__.tag: frozenset(t.__struct_fields__) for t in ruleset.command_types}
        ruleset._pop_fields = cached
    return cached.get(kind, frozenset())


def _move(label: str, c: Combatant, command: dict[str, Any], vary: tuple[str, ...] = ()) -> Offer:
    return Offer(label=label, command=command, kind="move", combatant_id=c.id, vary=vary)


def _foes(state: EncounterState, c: Combatant, helpless: bool = False) -> list[Combatant]:
    """The living foes still in the fight (``helpless``: the Helpless too, whom an attack may
    finish: "if a target is already Helpless and they take another Hit, then they die")."""
    fled = morale_rules.morale(state).fled
    return [o for o in _living(state) if o.side != c.side and o.id not in fled
            and (helpless or not morale_rules.out_of_the_fight(state, o))]


def _band_for(state: EncounterState, c: Combatant, target: Combatant, weapon: Weapon) -> tuple[str, bool] | None:
    """The band an attack with ``weapon`` on ``target`` is made at, and whether it is a guess
    (nobody placed them: the client may vary it); None when the weapon cannot reach."""
    known = band_between(state, c.id, target.id)
    if known is not None:
        return (known, False) if known in weapon.ranges else None
    reach = [b for b in RANGE_BANDS if b in weapon.ranges]
    if not reach:
        return None
    return ("Near", True) if weapon.kind == "ranged" and "Near" in reach else (reach[0], True)


def _attacks(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """"There are only three main types of attack": a Light or Heavy Melee Attack with each
    melee weapon at hand (and Unarmed, "Brawling skill plus Strength"), a Ranged Attack with each
    ranged one, at each foe."""
    s = sheet(c)
    weapons: list[tuple[Weapon, str | None]] = [(w, w.name) for w in _at_hand(c)]
    if s.skill_die(UNARMED.skill) is not None:
        weapons.append((UNARMED, None))
    for foe in _foes(state, c, helpless=True):
        for weapon, name in weapons:
            found = _band_for(state, c, foe, weapon)
            if found is None:
                continue
            band, guessed = found
            kinds = ("Ranged",) if weapon.kind == "ranged" else ("LightMelee", "HeavyMelee")
            with_what = f"with the {name}" if name is not None else "unarmed"
            for kind in kinds:
                body: dict[str, Any] = {"type": "Attack", "combatant_id": c.id, "target": foe.id, "attack": kind,
                                        "band": band}
                if name is not None:
                    body["weapon"] = name
                vary = ("band", *ATTACK_VARY) if guessed else ATTACK_VARY
                yield _move(f"{ATTACK_WORDS[kind]} on {foe.name} {with_what} at {band} range", c, body, vary)


def _spells(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """"Cast one of the spells you know and for which you have the require Mere to use": an
    Enemy's Set Spells from its Stat Block; a player's spell of each Mere colour on the sheet
    (its name, complexity and Attribute the player's to vary), at each foe or healing an ally."""
    s = sheet(c)
    allies_hurt = [o for o in _living(state) if o.side == c.side and o.sheet.hits > 0 and not statuses(o)]
    foes = _foes(state, c)
    if s.stat_block is not None:
        for spell in s.stat_block.set_spells:
            if s.mere < spell.mere_cost:
                continue
            attribute = _best_attribute(c)
            base = {"type": "CastSpell", "combatant_id": c.id, "spell": spell.name, "attribute": attribute}
            if spell.healing:
                for ally in allies_hurt:
                    yield _move(f"Cast {spell.name} to heal {_whom(c, ally)}", c, {**base, "target": ally.id},
                                ("attribute",))
                continue
            for foe in foes:
                band = band_between(state, c.id, foe.id)
                yield _move(f"Cast {spell.name} at {foe.name}", c,
                            {**base, "target": foe.id, "band": band or "Near"},
                            ("attribute", "exposed") if band else ("attribute", "band", "exposed"))
        return
    cheapest = spell_costs(state)[0].mere
    if not s.mere_skills or s.mere < cheapest:
        return
    attribute = _best_attribute(c)
    for colour in s.mere_skills:
        base = {"type": "CastSpell", "combatant_id": c.id, "spell": f"{colour} spell", "attribute": attribute,
                "mere": colour, "complexity": 0}
        for foe in foes:
            band = band_between(state, c.id, foe.id)
            yield _move(f"Cast a {colour} spell at {foe.name}", c, {**base, "target": foe.id, "band": band or "Near"},
                        ("spell", "complexity", "attribute", "exposed", *(() if band else ("band",))))
        for ally in allies_hurt:
            yield _move(f"Cast a {colour} healing spell on {_whom(c, ally)}", c,
                        {**base, "spell": f"{colour} healing", "healing": True, "target": ally.id},
                        ("spell", "complexity", "attribute"))


def _whom(c: Combatant, o: Combatant) -> str:
    return "yourself" if o.id == c.id else o.name


def _non_lethal(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """"Rather than trying to kill your opponent you can instead attempt to perform a non-lethal
    attack": Disarm, Trip (with the melee weapon in hand, else bare hands), Shove, Grapple; and
    Demand Surrender (a human target), Taunt (an NPC) and Suppression (targets behind cover).
    Each opposed roll needs the skills it rolls on both sheets (Athletics may be left off: it is
    rolled at D4)."""
    s = sheet(c)
    in_hand = next((w for w in _at_hand(c) if w.kind == "melee"), None)
    weapon = in_hand or UNARMED
    skilled = s.skill_die(weapon.skill) is not None
    with_what = f" with the {in_hand.name}" if in_hand is not None else ""
    grappling = controlled_by(state, c.id) is not None or c.id in rules(state).grapples
    brawler = s.skill_die("Brawling") is not None
    persuasive = s.skill_die("Persuasion") is not None
    foes = _foes(state, c)
    for foe in foes:
        band = band_between(state, c.id, foe.id)
        fs = sheet(foe)
        if band is None or band in REACH:
            base: dict[str, Any] = {"type": "NonLethalAttack", "combatant_id": c.id, "target": foe.id}
            if in_hand is not None:
                base["weapon"] = in_hand.name
            theirs = _held(foe)
            if skilled and fs.skill_die("Athletics") is not None:
                yield _move(f"Trip {foe.name}{with_what}", c, {**base, "move": "Trip"}, ("weapon",))
            if skilled and theirs is not None and not theirs.shield and fs.skill_die(theirs.skill) is not None:
                yield _move(f"Disarm {foe.name}{with_what}", c, {**base, "move": "Disarm"}, ("weapon",))
            yield _move(f"Shove {foe.name}", c, {"type": "Shove", "combatant_id": c.id, "target": foe.id}, ("edge",))
            if brawler and not grappling and foe.id not in rules(state).grapples \
                    and fs.skill_die("Brawling") is not None:
                yield _move(f"Grapple {foe.name}", c, {"type": "Grapple", "combatant_id": c.id, "target": foe.id})
        if persuasive and morale_rules.is_human(foe):
            yield _move(f"Demand that {foe.name} surrender", c,
                        {"type": "DemandSurrender", "combatant_id": c.id, "target": foe.id})
        if persuasive and foe.controller == "gm":
            engaged = state.round > 1 or foe.id in state.acted
            yield _move(f"Taunt {foe.name}", c,
                        {"type": "Taunt", "combatant_id": c.id, "target": foe.id, "engaged": engaged}, ("engaged",))
    covered = [foe.id for foe in foes if sheet(foe).in_cover]
    ranged = next((w for w in _at_hand(c) if w.kind == "ranged"), None)
    if covered and ranged is not None:
        names = ", ".join(state.combatants[f].name for f in covered)
        yield _move(f"Suppression: fire the {ranged.name} at the cover of {names}", c,
                    {"type": "Suppression", "combatant_id": c.id, "targets": covered, "weapon": ranged.name},
                    ("targets", "weapon"))


def _grapple_moves(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """The holder's squeeze ("spent 2 Action Points to inflict 1 Hit of unavoidable damage") and
    release ("at any time as a free action"); the held's attempt to "break free or turn the
    tables"."""
    held = controlled_by(state, c.id)
    if held is not None and held in state.combatants:
        name = state.combatants[held].name
        yield _move(f"Squeeze {name}", c, {"type": "Squeeze", "combatant_id": c.id})
        yield _move(f"Release {name}", c, {"type": "ReleaseGrapple", "combatant_id": c.id})
    holder = rules(state).grapples.get(c.id)
    if holder is not None and holder in state.combatants:
        name = state.combatants[holder].name
        yield _move(f"Break free of {name}", c, {"type": "BreakFree", "combatant_id": c.id, "reverse": False})
        yield _move(f"Turn the tables on {name}", c, {"type": "BreakFree", "combatant_id": c.id, "reverse": True})


def _movement(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """Moving one band nearer to or farther from each combatant placed (a foe or an ally), the
    free Small Change of Position between Melee and Close, and Disengaging from melee."""
    p = positions(state)
    if not p.ranges:
        return
    if engaged_by(state, c) and positions(state).disengaged.get(c.id) != state.round:
        yield _move("Disengage from melee", c, {"type": "Disengage", "combatant_id": c.id})
    left = allowance(c, p.dashed) - p.used
    free = "SmallChangeOfPosition" not in p.free_actions
    if left <= 0 and not free or not _may_move(state, c):
        return
    # "if you are stuck in melee combat": only nearer to those engaging you, else Disengage first
    engaged = {o.id for o in engaged_by(state, c)}
    fear = status(c, "Frightened")
    for o in _living(state):
        band = band_between(state, c.id, o.id) if o.id != c.id else None
        if band is None or (engaged and o.id not in engaged):
            continue
        i = RANGE_BANDS.index(band)
        nearer = i > 0 and not (fear is not None and fear.source == o.id)
        if nearer and left > 0:
            yield _move(f"Move to {RANGE_BANDS[i - 1]} range of {o.name}", c,
                        {"type": "Move", "combatant_id": c.id, "toward": o.id, "band": RANGE_BANDS[i - 1]}, ("band",))
        if i + 1 < len(RANGE_BANDS) and o.side != c.side and left > 0 and not engaged:
            yield _move(f"Move back to {RANGE_BANDS[i + 1]} range of {o.name}", c,
                        {"type": "Move", "combatant_id": c.id, "toward": o.id, "band": RANGE_BANDS[i + 1]}, ("band",))
        if band in REACH and free and (band == "Close" and nearer or band == "Melee" and not engaged):
            other = "Close" if band == "Melee" else "Melee"
            yield _move(f"Small change of position: to {other} range of {o.name}", c,
                        {"type": "FreeAction", "combatant_id": c.id, "kind": "SmallChangeOfPosition",
                         "toward": o.id, "band": other})


def _may_move(state: EncounterState, c: Combatant) -> bool:
    """Not held, Entangled, Paralysed or Prone ("You will need to spend 1 Action Point to regain
    your feet"): ``movement._can_move``'s checks, read."""
    return not (c.id in rules(state).grapples or has(c, "Entangled") or has(c, "Paralysed") or sheet(c).prone)


def _common_actions(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """The Common Actions with a set cost (``ACTION_COSTS``) that make sense for the sheet, and
    the Free Actions ("only one of each type"): draw a weapon, pick up a dropped one, shout a
    command; taking a carried weapon in hand."""
    s = sheet(c)
    at_hand = _at_hand(c)
    untracked = [w for w in at_hand if w.kind == "ranged" and w.reload is None]  # reloading only its cost
    guns = any(w.gun for w in untracked)
    bows = any(not w.gun for w in untracked)
    for action in ACTION_COSTS:
        if action == "Stand" and not s.prone:
            continue
        if action in loading.WORDS:  # each spent weapon it loads, by name; else as the untracked ones need
            for w in at_hand:
                if w.reload == action and w.reloadable and w.name in s.unloaded:
                    yield _move(f"{_words(action)}: {w.name}", c, {"type": "TakeAction", "combatant_id": c.id,
                                                                   "action": action, "weapon": w.name})
            if not (guns if action == "ReloadGun" else bows):
                continue
        if action == "RemoveArmour" and not s.armour:
            continue
        if action == "TakeCover" and s.in_cover:
            continue
        if action == "Dash" and positions(state).dashed:
            continue  # it has doubled this turn's movement already
        yield _move(_words(action), c, {"type": "TakeAction", "combatant_id": c.id, "action": action})
    used = positions(state).free_actions  # "only one of each type"
    if at_hand and "DrawWeapon" not in used:
        yield _move(f"Draw the {at_hand[0].name}", c, {"type": "FreeAction", "combatant_id": c.id,
                                                      "kind": "DrawWeapon", "item": at_hand[0].name}, ("item",))
    # "Drop an Item" is not offered: here it only loses a weapon at hand (it lands Near, and
    # getting it back takes the movement action and the Pick Up), which no rule rewards
    if "PickUp" not in used and positions(state).moved:  # "use their movement action to reach it"
        for name in dict.fromkeys(s.dropped_weapons):
            yield _move(f"Pick up the {name}", c, {"type": "FreeAction", "combatant_id": c.id, "kind": "PickUp",
                                                  "item": name})
    if "ShoutCommand" not in used:
        yield _move("Shout a command", c, {"type": "FreeAction", "combatant_id": c.id, "kind": "ShoutCommand",
                                           "words": SHOUT}, ("words",))
    for carried in s.carried:
        body: dict[str, Any] = {"type": "SwapWeapons", "combatant_id": c.id, "take": [carried.name], "put_away": []}
        if len(s.weapons) >= 3:
            body["put_away"] = [s.weapons[-1].name]
            label = f"Swap the {s.weapons[-1].name} for the {carried.name}"
        else:
            label = f"Take the {carried.name} in hand"
        yield _move(label, c, body, ("put_away", "take"))


def _words(action: str) -> str:
    return {"ClimbLeap": "Climb/Leap", "TakeCover": "Take Cover", "NotchArrow": "Notch Arrow",
            "ReloadCrossbow": "Reload Crossbow", "ReloadGun": "Reload Gun", "InventoryItem": "Inventory Item",
            "EquipArmour": "Equip Armour", "RemoveArmour": "Remove Armour"}.get(action, action)


def _care(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """Stabilise ("Remove a Status Effect manually using a Medical Check") each Status Effect of
    an ally or yourself; Healing ("attempts to restore a Hit using a Medical Check") an ally or
    yourself with Hits and no Status Effect ("Status Effects must always be resolved before you
    can treat any Hits")."""
    attribute = "dexterity"
    for o in _living(state):
        if o.side != c.side:
            continue
        for st in statuses(o):
            yield _move(f"Stabilise {_whom(c, o)}: remove {st.name}", c,
                        {"type": "Stabilise", "combatant_id": c.id, "target": o.id, "status": st.name,
                         "attribute": attribute}, ("attribute",))
        if sheet(o).hits > 0 and not statuses(o) and sheet(c).skill_die("Medical") is not None:
            yield _move(f"Heal {_whom(c, o)}", c,
                        {"type": "Heal", "combatant_id": c.id, "target": o.id, "attribute": attribute},
                        ("attribute",))


def _others(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """Breaking loose of an Entangled, regaining the balance a mishap took, re-rolling a failed
    check."""
    if has(c, "Entangled"):
        attribute = _best_attribute(c, ("strength", "agility"))
        yield _move("Break loose", c, {"type": "BreakLoose", "combatant_id": c.id, "attribute": attribute},
                    ("attribute",))
    yield from _regain(state, c)
    for rec in rules(state).checks.values():
        if rec.combatant_id == c.id and rec.status == "rolled" and rec.outcome == "Failure" and not rec.rerolled:
            yield _move(f"Re-roll check {rec.id}: {rec.attribute.title()} + {rec.skill}", c,
                        {"type": "ReRoll", "combatant_id": c.id, "check": rec.id})


def may_act(state: EncounterState) -> list[str]:
    """Who may move out of turn: one a mishap 2 left off balance this round ("You can spend an
    Action Point to regain your balance, otherwise you cannot use Evade, Parry, or Dive for the
    rest of this round"), any time in it, when attacked above all."""
    return [c.id for c in sorted(state.combatants.values(), key=lambda c: c.seq) if _off_balance(state, c)]


def _regain(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    if _off_balance(state, c):
        yield _move("Regain your balance", c, {"type": "RegainBalance", "combatant_id": c.id})


def _npc_only(c: Combatant) -> Iterator[Offer]:
    """The GM's command that is an NPC's own action on its turn: a Special Action from its Stat
    Block ("Only a single Special Action can be used per turn")."""
    block = sheet(c).stat_block
    for action in block.special_actions if block is not None else ():
        yield _move(f"Special Action: {action.name}", c,
                    {"type": "UseSpecialAction", "combatant_id": c.id, "name": action.name}, ("note",))


def _costed(c: Combatant, kind: str = "move") -> Iterator[Offer]:
    for action, words, what in (("UseAbility", "Use an Ability", "uses an ability"),
                                ("NonCombatTask", "A Non-Combat Task", "performs a task")):
        yield Offer(label=f"{words} ({c.name})", kind=kind, combatant_id=c.id,  # type: ignore[arg-type]
                    command={"type": "GmCostedAction", "combatant_id": c.id, "action": action,
                             "description": f"{c.name} {what}", "action_points": min(1, c.action_points)},
                    vary=("description", "action_points"))


def _hero_points(state: EncounterState, c: Combatant) -> Iterator[Offer]:
    """A player's Hero Points (``SpendHeroPoint``) on what they can change now."""
    s = sheet(c)
    if c.controller != "player" or s.hero_points < 1:
        return
    base = {"type": "SpendHeroPoint", "combatant_id": c.id}
    if s.hits > 4:
        yield _move("Hero Point: Cheat Death", c, {**base, "use": "CheatDeath"})
        return
    if s.dead:
        return
    if s.hits > 0:
        yield _move("Hero Point: restore a Hit", c, {**base, "use": "RestoreHit"})
    for condition in s.conditions:
        yield _move(f"Hero Point: remove {condition}", c, {**base, "use": "RemoveCondition", "condition": condition})
    for rec in rules(state).checks.values():
        if rec.combatant_id != c.id:
            continue
        if rec.status == "called" and rec.difficulty != LADDER[0]:
            yield _move(f"Hero Point: ease check {rec.id}", c, {**base, "use": "ReduceDifficulty", "check": rec.id})
        if rec.outcome == "Critical Failure":
            yield _move(f"Hero Point: check {rec.id} is a Failure, not a Critical Failure", c,
                        {**base, "use": "ReduceCriticalFailure", "check": rec.id})
    yield _move("Hero Point: a Flashback", c, {**base, "use": "Flashback", "narration": FLASHBACK}, ("narration",))


# ------------------------------------------------------------------------ rulings


def rulings(state: EncounterState) -> list[Offer]:
    """The GM's rulings that take free values, each a default body accepted now: one of each
    kind (on the combatant whose turn it is, else the first added: ``combatant_id`` is among what
    may vary), and the removal of each Condition and Status Effect someone bears."""
    everyone = sorted(state.combatants.values(), key=lambda o: o.seq)
    out = _on_someone(state, everyone) if everyone else []
    out.append(_gm("Start a play session (Hero Points to 1)", {"type": "StartSession"}))
    costs = [msgspec.to_builtins(c) for c in spell_costs(state)]
    out.append(_gm("Set what spells cost", {"type": "SetSpellCosts", "costs": costs}, ("costs",)))
    out.append(_gm("Grant a Long Rest", {"type": "LongRest"}, ("mere_activation",)))
    if state.status != "active":  # "Once a fight is over, any newly acquired Injuries need to be treated"
        out += _treatments(everyone)
        out.append(_gm("Let a day pass", {"type": "PassDays", "days": 1}, ("days",)))
    return out


def _on_someone(state: EncounterState, everyone: list[Combatant]) -> list[Offer]:
    """The rulings on a combatant (or two)."""
    active = state.status == "active"
    first = state.combatants.get(state.turn or "") or everyone[0]
    s = sheet(first)
    who = ("combatant_id",)
    out = [_gm(f"Set the Hits {first.name} has taken",
               {"type": "SetHits", "combatant_id": first.id, "hits": min(s.hits + 1, 20)}, (*who, "hits"))]
    free = [x for x in get_args(Condition) if x not in s.conditions]
    if free:
        out.append(_gm(f"Give {first.name} a Condition", {"type": "ApplyCondition", "combatant_id": first.id,
                                                          "condition": free[0]}, (*who, "condition", "reason")))
    borne = {st.name for st in statuses(first)}
    free_status = [x for x in get_args(StatusName) if x not in borne and x != "Frightened"]
    if free_status:
        out.append(_gm(f"Put a Status Effect on {first.name}",
                       {"type": "ApplyStatus", "combatant_id": first.id, "status": free_status[0],
                        "lasts": "until_removed"},
                       (*who, "status", "lasts", "turns", "source", "difficulty", "reason")))
    for c in everyone:
        out += _removals(c)
    out += _checks_called(first, everyone)  # the GM may call for a check before the fight as during it
    if active:
        # "Non-Combat Tasks (Varied): ... the cost of doing so will be specified by the DM";
        # "Use Ability (Varied)": the GM's command, on the combatant's turn
        if state.turn in state.combatants:
            out += _costed(state.combatants[state.turn], "gm")
        out.append(_gm(f"A Willpower Roll for {first.name}", {"type": "WillpowerRoll", "combatant_id": first.id},
                       (*who, "reason")))
        for side in dict.fromkeys(o.side for o in everyone if o.controller == "gm"):
            out.append(_gm(f"A Morale Check for the NPCs of {side}",
                           {"type": "MoraleCheck", "side": side, "one_roll": True}, ("one_roll", "reason")))
        out += _opposed(everyone)
    player = next((o for o in everyone if o.controller == "player"), None)
    if player is not None:
        out.append(_gm(f"Award {player.name} a Hero Point", {"type": "AwardHeroPoint", "combatant_id": player.id},
                       (*who, "reason")))
    caster = next((o for o in everyone if sheet(o).mere_skills
                   or (sheet(o).stat_block is not None and sheet(o).stat_block.set_spells)), None)
    if caster is not None:
        mere = min(sheet(caster).mere + 1, 999)
        out.append(_gm(f"Set the Mere {caster.name} has left", {"type": "SetMere", "combatant_id": caster.id,
                                                               "mere": mere}, (*who, "mere")))
    foe = next((o for o in everyone if o.side != first.side), None)
    if foe is not None:
        band = band_between(state, first.id, foe.id) or "Near"
        out.append(_gm(f"Place {first.name} and {foe.name} at a range",
                       {"type": "SetRange", "a": first.id, "b": foe.id, "band": band}, ("a", "b", "band")))
    return out


def _gm(label: str, command: dict[str, Any], vary: tuple[str, ...] = ()) -> Offer:
    return Offer(label=label, command=command, kind="gm", vary=vary)


def _removals(c: Combatant) -> Iterator[Offer]:
    for condition in sheet(c).conditions:
        yield _gm(f"Remove {c.name}'s {condition}", {"type": "RemoveCondition", "combatant_id": c.id,
                                                     "condition": condition}, ("reason",))
    for name in sorted({st.name for st in statuses(c)}):
        yield _gm(f"Remove {c.name}'s {name}", {"type": "RemoveStatus", "combatant_id": c.id, "status": name},
                  ("reason",))


def _skill(c: Combatant) -> str | None:
    s = sheet(c)
    return "Athletics" if s.skill_die("Athletics") else next(iter({**s.skills, **s.mere_skills}), None)


def _checks_called(first: Combatant, everyone: list[Combatant]) -> Iterator[Offer]:
    """A check called for (Athletics + Agility by default: the skill must be on the sheet)."""
    c = first if _skill(first) is not None else next((o for o in everyone if _skill(o) is not None), None)
    if c is None:
        return
    skill = _skill(c)
    attribute = "agility" if skill == "Athletics" else _best_attribute(c)
    yield _gm(f"Call for a check from {c.name}", {"type": "CallForCheck", "combatant_id": c.id,
                                                  "attribute": attribute, "skill": skill, "difficulty": "Normal"},
              ("combatant_id", "attribute", "skill", "difficulty", "advantage", "disadvantage", "occupation",
               "reason"))


def _treatments(everyone: list[Combatant]) -> Iterator[Offer]:
    for c in everyone:
        for record in sheet(c).injury_records or ():
            if not record.treated:
                yield _gm(f"Set how {c.name}'s Injury {record.number} is treated",
                          {"type": "SetInjuryTreatment", "patient": c.id, "injury": record.number,
                           "difficulty": "Normal", "base_recovery_time": 7, "recovery_die": "D6"},
                          ("difficulty", "base_recovery_time", "recovery_die", "permanent_condition"))


def _opposed(everyone: list[Combatant]) -> Iterator[Offer]:
    """An Opposed Roll between the first two combatants of different sides (their Athletics +
    Strength, as a Shove rolls, when on the sheet), the sides and skills the GM's to vary."""
    for a in everyone:
        b = next((o for o in everyone if o.side != a.side and _skill(o) is not None), None)
        skill_a = _skill(a)
        if b is None or skill_a is None:
            continue
        yield _gm(f"An Opposed Roll between {a.name} and {b.name}",
                  {"type": "OpposedRoll", "first": {"combatant_id": a.id, "attribute": "strength", "skill": skill_a},
                   "second": {"combatant_id": b.id, "attribute": "strength", "skill": _skill(b)}},
                  ("first", "second", "reason"))
        return


# ----------------------------------------------------------------------- examples

_SWORD = {"name": "Sword", "skill": "Sword", "kind": "melee",
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}, "Close": {"difficulty": "Normal", "damage": 2}}}
_BOW = {"name": "Bow", "skill": "Bow", "kind": "ranged", "reload": "NotchArrow",
        "ranges": {"Close": {"difficulty": "Normal", "damage": 2}, "Near": {"difficulty": "Normal", "damage": 2},
                   "Far": {"difficulty": "Difficult", "damage": 1}}}
_KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}


def examples() -> list[tuple[str, dict[str, Any]]]:
    """A player character, a weak NPC (a plain sheet) and a strong NPC (an Enemy's Stat Block)."""
    hero = {
        "attributes": {"strength": "D8", "stamina": "D8", "agility": "D8", "dexterity": "D10",
                       "intelligence": "D6", "perception": "D8", "empathy": "D6", "charisma": "D6"},
        "skills": {"Sword": "D8", "Bow": "D8", "Athletics": "D8", "Brawling": "D6", "Medical": "D6",
                   "Persuasion": "D6"},
        "mere_skills": {"Rosmere": "D6"}, "mere": 4, "affinities": {"Rosmere": 2},
        "willpower": 12, "initiative_modifier": 2, "hero_points": 1, "occupation": "Hunter",
        "weapons": [_SWORD, _BOW],
        "armour": [{"name": "Leather Jerkin", "layer": "Base", "value": 1, "durability": 3},
                   {"name": "Gambeson", "layer": "Skin", "value": 1, "durability": 2}],
    }
    bandit = {
        "attributes": {"strength": "D6", "agility": "D6", "dexterity": "D6"},
        "skills": {"Knife": "D6", "Athletics": "D4", "Brawling": "D4"},
        "willpower": 8, "weapons": [_KNIFE],
        "armour": [{"name": "Ragged Coat", "layer": "Outer", "value": 1, "durability": 1}],
    }
    melee = {"name": "Halberd", "skill": "Melee", "kind": "melee",
             "ranges": {"Melee": {"difficulty": "Normal", "damage": 3}, "Close": {"difficulty": "Normal", "damage": 3}}}
    captain = {
        "attributes": {"strength": "D10", "stamina": "D10", "agility": "D8", "dexterity": "D8",
                       "intelligence": "D8", "perception": "D8", "empathy": "D6", "charisma": "D8"},
        "skills": {"Melee": "D10", "Brawling": "D8", "Athletics": "D8", "Magic": "D8"},
        "initiative_modifier": 3, "mere": 6, "weapons": [melee],
        "armour": [{"name": "Breastplate", "layer": "Base", "value": 2, "durability": 3},
                   {"name": "Helm", "layer": "Helmet", "value": 1, "durability": 2}],
        "stat_block": {
            "speed": "Normal", "morale": 15, "human": True,
            "set_actions": ["Light Melee Attack", "Heavy Melee Attack", "Parry", "Evade", "Tank", "Grapple"],
            "set_spells": [{"name": "Cinder Lash", "mere": "Rosmere", "mere_cost": 2, "complexity": 1,
                            "description": "A whip of flame."}],
            "abilities": ["Finishes off a wounded foe before turning to another."],
            "special_actions": [{"name": "Rally", "action_points": 2, "once_per_combat": True,
                                 "description": "Every ally regains its nerve."}],
        },
    }
    return [
        ("a player character (Ada, a hunter)", {"name": "Ada", "side": "party", "controller": "player",
                                                "sheet": hero}),
        ("a weak NPC (a bandit)", {"name": "Bandit", "side": "enemies", "controller": "gm", "sheet": bandit}),
        ("a strong NPC (a sellsword captain, with a Stat Block)",
         {"name": "Sellsword Captain", "side": "enemies", "controller": "gm", "sheet": captain}),
    ]
