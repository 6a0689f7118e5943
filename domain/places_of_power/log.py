"""The readable log's sentences for Places of Power: one per event type of the ruleset
(``PlacesOfPower.sentences()``; the log itself: ``projections/readable_log.py``).

Each sentence reads the event's payload as the viewer may see it (plain JSON values, maybe
with secret faces removed) and the ``Story`` so far (names, the attack or check a later
event means). Counts and words are the rulebook's: Hits, Action Points (AP), extra
Successes, Difficulty, Conditions, Status Effects, Mere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.log import Sentence, Story, Wording, cap, count, listed, number, words

# The lifecycle's sentences in the game's words: its Action Points, and the GM's one roll
# for all NPCs ("the GM rolls one D12 + the best NPC modifier for all NPCs").
WORDING = Wording(points="Action Point", group_roller="the GM for the NPCs")

D = Mapping[str, Any]

# ------------------------------------------------------------------------------- helpers


def because(d: D) -> str:
    """" (the reason)" when the event gives one."""
    return f" ({d['reason']})" if d.get("reason") else ""


def ap(d: D) -> str:
    """" (2 AP)" when the step cost Action Points."""
    n = d.get("action_points") or 0
    return f" ({n} AP)" if n else ""


def against(d: D) -> str:
    """"14 against Normal"."""
    return f"{d.get('total', '?')} against {d.get('difficulty') or 'the Difficulty'}"


def a(word: str) -> str:
    """"a Full Success", "an Easy"."""
    word = word or "result"
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def outcome(d: D) -> str:
    """"a Full Success"."""
    return a(str(d.get("outcome") or "result"))


def versus(roll: Any, s: Story) -> str:
    """An opposed roll: "14 against the Bandit's 9"."""
    sides = roll.get("sides") if isinstance(roll, dict) else None
    if not sides or len(sides) < 2:
        return "an opposed roll"
    first, second = sides[0], sides[1]
    return f"{first.get('total', '?')} against {s.whose(second.get('combatant_id'))} {second.get('total', '?')}"


def hits_level(hits: int) -> str:
    return ("Unhurt", "Grazed", "Wounded", "Afflicted", "Helpless")[hits] if 0 <= hits <= 4 else "beyond Helpless"


def harm(d: D, s: Story, who: Any) -> str:
    """What Hits did: dead, Helpless or the wound level, and a new Injury."""
    before = s.recall("injuries", who).get("n", 0)
    injuries = d.get("injuries") or 0
    s.remember("injuries", who, {"n": injuries})
    if d.get("dead"):
        state = "dies"
    elif d.get("helpless"):
        state = "is Helpless" + (" for the rest of the fight" if d.get("helpless_for_fight") else "")
    else:
        state = f"is {hits_level(int(d.get('hits') or 0))}"
    return f"suffers an Injury and {state}" if injuries > before else state


def attack_of(d: D, s: Story) -> dict[str, Any]:
    return s.recall("attacks", d.get("attack_id"))


def the(item: Any) -> str:
    return f"the {item}" if item else "it"


# -------------------------------------------------------------------------------- actions

ACTIONS = {
    "Dash": "dashes, doubling the move",
    "ClimbLeap": "climbs or leaps",
    "TakeCover": "takes cover",
    "NotchArrow": "notches an arrow",
    "ReloadCrossbow": "reloads the crossbow",
    "ReloadGun": "reloads the gun",
    "InventoryItem": "takes an item out of a bag",
    "EquipArmour": "puts on a piece of armour",
    "RemoveArmour": "takes off a piece of armour",
    "Stand": "stands up",
    "NonCombatTask": "does a Non-Combat Task",
    "UseAbility": "uses an Ability",
}


def action_taken(d: D, s: Story) -> str:
    what = ACTIONS.get(d.get("action", ""), words(d.get("action", "acts")))
    note = f": {d['description']}" if d.get("description") else ""
    return f"{s.Who(d.get('combatant_id'))} {what}{ap(d)}{note}."


# --------------------------------------------------------------------------------- checks


def check_called(d: D, s: Story) -> str:
    s.remember("checks", d.get("check"), dict(d))
    edges = [x for x, on in (("at Advantage", d.get("advantage")), ("at Disadvantage", d.get("disadvantage")),
                             ("with the occupation die", d.get("occupation"))) if on]
    return (f"The GM calls for {a(d.get('difficulty', 'Normal'))} {d.get('attribute', '').title()} + "
            f"{d.get('skill', '')} check from {s.who(d.get('combatant_id'))}"
            f"{' ' + listed(edges) if edges else ''}{because(d)}.")


def check_name(check: Any, s: Story) -> str:
    c = s.recall("checks", check)
    if not c:
        return "the check"
    return f"the {c.get('attribute', '').title()} + {c.get('skill', '')} check"


def check_rolled(d: D, s: Story) -> str:
    verb = "re-rolls" if d.get("reroll") else "rolls"
    return (f"{s.Who(d.get('combatant_id'))} {verb} {check_name(d.get('check'), s)}: {against(d)}, "
            f"{outcome(d)}.")


def condition_taken(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} is {d.get('condition')}{because(d)}."


def condition_removed(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} is no longer {d.get('condition')}{because(d)}."


def skill_marked(d: D, s: Story) -> str:
    if d.get("skill") is None:  # an NPC's, to one who does not see its sheet
        return f"{s.Whose(d.get('combatant_id'))} skill is marked for levelling."
    return f"{s.Whose(d.get('combatant_id'))} {d.get('skill')} is marked for levelling."


def hits_set(d: D, s: Story) -> str:
    hits = int(d.get("hits") or 0)
    return f"{s.Who(d.get('combatant_id'))} now has {count(hits, 'Hit')}: {hits_level(hits)}{because(d)}."


# ---------------------------------------------------------------------------- Hero Points


def session_started(d: D, s: Story) -> str:
    given = d.get("hero_points") or {}
    points = [f"{s.who(cid)} {given[cid]}" for cid in s.in_order(given)]
    return f"Session {d.get('session')} begins" + (f": Hero Points {listed(points)}." if points else ".")


def hero_point_awarded(d: D, s: Story) -> str:
    return f"The GM awards {s.who(d.get('combatant_id'))} a Hero Point{because(d)}."


HERO_USES = {
    "ReduceDifficulty": "to make the check easier",
    "RemoveCondition": "to shake off a Condition",
    "RestoreHit": "to restore a Hit",
    "DowngradeCriticalHit": "to turn a Critical Hit into a regular Hit",
    "ReduceCriticalFailure": "to soften a Critical Failure",
    "CheatDeath": "to cheat death",
    "Flashback": "for a flashback",
}


def hero_point_spent(d: D, s: Story) -> str:
    use = HERO_USES.get(d.get("use", ""), words(d.get("use", "")))
    if d.get("use") == "RemoveCondition" and d.get("condition"):
        use = f"to shake off being {d['condition']}"
    narration = f": “{d['narration']}”" if d.get("narration") else ""
    return f"{s.Who(d.get('combatant_id'))} spends a Hero Point {use}{narration}."


def check_eased(d: D, s: Story) -> str:
    return f"{cap(check_name(d.get('check'), s))} is now {d.get('difficulty')}."


def check_outcome_changed(d: D, s: Story) -> str:
    return f"{cap(check_name(d.get('check'), s))} is now {outcome(d)}."


# -------------------------------------------------------------------- contests, levelling


def opposed_rolled(d: D, s: Story) -> str:
    sides = [f"{s.who(x.get('combatant_id'))} {x.get('total', '?')}" for x in d.get("sides") or []]
    if d.get("winner") is None:
        result = "a tie: the GM decides"
    else:
        result = f"{s.who(d.get('winner'))} wins" + (" by a level" if d.get("by_a_level") else "")
    return f"Opposed roll{because(d)}: {listed(sides)}; {result}."


def willpower_tested(d: D, s: Story) -> str:
    face = (d.get("die") or {}).get("face", "?")
    result = "holds firm" if d.get("held") else "gives way"
    against = f" against {d['willpower']}" if "willpower" in d else ""  # an NPC's Willpower is the GM's
    return f"{s.Who(d.get('combatant_id'))} tests Willpower{because(d)}: {face}{against}, {result}."


def skill_level_rolled(d: D, s: Story) -> str:
    who, skill = s.Whose(d.get("combatant_id")), d.get("skill")
    face = (d.get("die") or {}).get("face", "?")
    if not d.get("success"):
        return f"{who} {skill} stays at {d.get('from_die')} ({face}, needing {d.get('target')})."
    if d.get("activation_point"):
        return f"{who} {skill} earns a Mere Activation Point ({face})."
    return f"{who} {skill} rises from {d.get('from_die')} to {d.get('to_die')} ({face})."


def mark_cleared(d: D, s: Story) -> str:
    return f"{s.Whose(d.get('combatant_id'))} {d.get('skill')} loses its mark: it cannot rise past D20."


def long_rest_taken(d: D, s: Story) -> str:
    return "Everyone takes a Long Rest: the Conditions are gone."


# ---------------------------------------------------------------------- the attack exchange

ATTACKS = {"LightMelee": "a light attack", "HeavyMelee": "a heavy attack", "Ranged": "a ranged attack",
           "Spell": "a spell"}
MODIFIERS = {"TargetedHit": "a Targeted Hit", "Steady": "Steady", "Knockdown": "Knockdown"}


def attack_declared(d: D, s: Story) -> str:
    s.remember("attacks", d.get("attack_id"), dict(d))
    weapon = "bare-handed" if d.get("weapon") == "Unarmed" else f"with the {d.get('weapon')}"
    mods = [MODIFIERS.get(m, words(m)) for m in d.get("modifiers") or []]
    if d.get("aim") and d.get("aim") != "body":
        mods.append(f"aimed at the {d['aim'] if d['aim'] == 'head' else 'unarmoured parts'}")
    if d.get("from_behind"):
        mods.append("from behind")
    extra = f", {listed(mods)}" if mods else ""
    return (f"{s.Who(d.get('attacker'))} attacks {s.who(d.get('defender'))}: "
            f"{ATTACKS.get(d.get('attack', ''), 'an attack')} {weapon} at {d.get('band')} range{extra}{ap(d)}.")


def attack_rolled(d: D, s: Story) -> str:
    extra = int(d.get("extra") or 0)
    more = f", {number(extra)} extra Success{'es' if extra != 1 else ''}" if extra else ""
    difficulty = attack_of(d, s).get("difficulty")  # the attack's, as declared
    return f"{cap(against({**d, 'difficulty': difficulty}))}: {outcome(d)}{more}."


EFFECTS = {
    "UnavoidableHit": "an Unavoidable Hit",
    "BypassArmour": "to bypass the armour",
    "Knockdown": "a Knockdown",
    "Knockback": "a Knockback",
    "Disarm": "to disarm",
    "ForceMoraleCheck": "to force a Morale Check",
    "RefundActionPoint": "an Action Point back",
}


def critical_effect_chosen(d: D, s: Story) -> str:
    attacker = attack_of(d, s).get("attacker")
    effect = EFFECTS.get(d.get("effect", ""), words(d.get("effect", "")))
    if d.get("effect") == "InflictCondition":
        effect = f"to leave {s.who(attack_of(d, s).get('defender'))} {d.get('condition')}"
    return f"A Critical Success: {s.who(attacker)} chooses {effect}."


def successes_spent(d: D, s: Story) -> str:
    split = [k for k in d.get("split") or [] if isinstance(k, str)]
    kinds = list(dict.fromkeys(split))
    if len(kinds) == 1:
        n = len(split)
        spent = f"{'the extra Success' if n == 1 else f'the {number(n)} extra Successes'} on {kinds[0]}"
    else:
        parts = [f"{number(split.count(k))} on {k}" for k in kinds]
        first = split.count(kinds[0]) if kinds else 0
        spent = (f"{number(first)} extra Success{'' if first == 1 else 'es'} on {kinds[0]} and "
                 f"{listed(parts[1:])}") if kinds else "no extra Success"
    return (f"{s.Who(attack_of(d, s).get('attacker'))} puts {spent}: "
            f"{count(int(d.get('damage') or 0), 'Hit')} of damage, defended at {d.get('defence_difficulty')}.")


DEFENCES = {"Evade": "evades", "Parry": "parries", "Dive": "dives", "Tank": "tanks the blow",
            "HumanShield": "holds up a human shield"}


def defence_rolled(d: D, s: Story) -> str:
    verb = DEFENCES.get(d.get("defence", ""), words(d.get("defence", "defends")))
    who = s.Who(d.get("defender"))
    if not d.get("dice"):
        return f"{who} {verb}{ap(d)}."
    result = ("succeeds, and ripostes" if d.get("riposte") else "succeeds") if d.get("success") else "fails"
    return f"{who} {verb}{ap(d)}: {against(d)}, {result}."


def armour_took(d: D, s: Story) -> str:
    damage, through = int(d.get("damage") or 0), int(d.get("damage_through") or 0)
    used = listed(d.get("used") or []) or "the armour"
    stops = "stop" if len(d.get("used") or []) > 1 else "stops"
    gone = f"; {listed(d['destroyed'])} {'are' if len(d['destroyed']) > 1 else 'is'} destroyed" \
        if d.get("destroyed") else ""
    through_text = (f"{count(through, 'Hit')} get{'s' if through == 1 else ''} through" if through
                    else "nothing gets through")
    return f"{s.Whose(d.get('combatant_id'))} armour takes it: {used} {stops} {damage - through}, {through_text}{gone}."


def hits_taken(d: D, s: Story) -> str:
    who = d.get("combatant_id")
    said = harm(d, s, who)
    joint = ", " if said.startswith("suffers") else " and "
    return f"{s.Who(who)} takes {count(int(d.get('damage') or 0), 'Hit')}{joint}{said}."


def knocked_prone(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} is Prone{because(d)}."


MISHAPS = {
    1: "loses balance and ends up Prone",
    2: "is off balance: no Evade, Parry or Dive for the rest of the round, unless an Action Point regains it",
    3: "loses the weapon, which slides across the floor",
    4: "crashes into the opponent and is Weakened",
    5: "loses an Action Point",
    6: "damages the weapon: attacks with it are at Disadvantage",
}


def mishap_suffered(d: D, s: Story) -> str:
    face = (d.get("die") or {}).get("face")
    rolled = f" (the GM rolls {face})" if face is not None else ""
    return f"A Critical Miss{rolled}: {s.who(d.get('combatant_id'))} {MISHAPS.get(d.get('result'), 'stumbles')}."


def balance_regained(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} regains their balance{ap(d)}: Evade, Parry and Dive again this round."


EXCHANGE_ENDS = {
    "missed": "The attack misses.",
    "avoided": "The attack is avoided.",
    "helmet sacrificed": "",  # told by the helmet's sentence
    "critical miss": "",  # told by the mishap's
    "hit": "",  # told by the Hits
    "riposte": "",
    "shielded": "",
    "tanked": "",
}


def exchange_ended(d: D, s: Story) -> str:
    result = d.get("result", "")
    return EXCHANGE_ENDS.get(result, f"The attack ends: {result}.")


def critical_downgraded(d: D, s: Story) -> str:
    return f"A Hero Point turns {s.whose(attack_of(d, s).get('attacker'))} Critical Hit into a regular Hit."


def helmet_sacrificed(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} sacrifices the helmet to escape the blow."


def lethal_blow(d: D, s: Story) -> str:
    attacker = attack_of(d, s).get("attacker")
    return (f"{count(int(d.get('damage') or 0), 'Hit')} would kill {s.who(d.get('combatant_id'))}: "
            f"{s.who(attacker)} may pull the punch.")


def punch_pulled(d: D, s: Story) -> str:
    result = "the target is left Helpless instead" if d.get("success") else "the blow lands anyway"
    return f"{s.Who(d.get('combatant_id'))} pulls the punch{ap(d)}: {against(d)}, {result}."


# ------------------------------------------------------------------- grapples, non-lethal


def grapple_attempted(d: D, s: Story) -> str:
    result = "holds them" if d.get("held") else "fails"
    return (f"{s.Who(d.get('combatant_id'))} tries to grapple {s.who(d.get('target'))}{ap(d)}: "
            f"{versus(d.get('roll'), s)}, {result}.")


def grapple_ended(d: D, s: Story) -> str:
    return f"{s.Who(d.get('controller'))} no longer holds {s.who(d.get('held'))}{because(d)}."


def break_free_rolled(d: D, s: Story) -> str:
    result = "turns the grapple around" if d.get("reversed") else "breaks free" if d.get("freed") else "is still held"
    return (f"{s.Who(d.get('combatant_id'))} struggles against {s.whose(d.get('holder'))} grip{ap(d)}: "
            f"{versus(d.get('roll'), s)}, {result}.")


def squeezed(d: D, s: Story) -> str:
    return f"{s.Who(d.get('controller'))} squeezes {s.who(d.get('held'))}{ap(d)}."


def non_lethal_rolled(d: D, s: Story) -> str:
    move = d.get("move", "")
    target = s.who(d.get("target"))
    if not d.get("success"):
        result = "fails"
    elif move == "Disarm":
        result = f"knocks {the(d.get('weapon_lost'))} away"
    else:
        result = "down they go"
    verb = {"Trip": "tries to trip", "Disarm": "tries to disarm"}.get(move, f"tries a {words(move)} on")
    return f"{s.Who(d.get('combatant_id'))} {verb} {target}{ap(d)}: {versus(d.get('roll'), s)}, {result}."


def taunt_rolled(d: D, s: Story) -> str:
    return (f"{s.Who(d.get('combatant_id'))} taunts {s.who(d.get('target'))}{ap(d)}: {against(d)}, "
            f"{outcome(d)}.")


def weapons_swapped(d: D, s: Story) -> str:
    parts = []
    if d.get("put_away"):
        parts.append(f"puts away {listed(the(w) for w in d['put_away'])}")
    if d.get("take"):
        parts.append(f"takes up {listed(the(w) for w in d['take'])}")
    return f"{s.Who(d.get('combatant_id'))} {listed(parts) or 'changes weapons'}{ap(d)}."


def healing_rolled(d: D, s: Story) -> str:
    healed = ": a Hit is healed" if d.get("healed") else ""
    return (f"{s.Who(d.get('healer'))} tends to {s.who(d.get('target'))}{ap(d)}: {against(d)}, "
            f"{outcome(d)}{healed}.")


# -------------------------------------------------------------------------- Status Effects


def status_applied(d: D, s: Story) -> str:
    st = d.get("status") if isinstance(d.get("status"), dict) else {}
    name = st.get("name", "affected")
    lasts = {"end_of_round": " until the end of the round",
             "turns": f" for {count(int(st.get('turns') or 0), 'turn')}"}.get(st.get("lasts", ""), "")
    source = f" of {s.who(st['source'])}" if name == "Frightened" and st.get("source") else ""
    return f"{s.Who(d.get('combatant_id'))} is {name}{source}{lasts}."


def status_removed(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} is no longer {d.get('status')}{because(d)}."


def status_rolled(d: D, s: Story) -> str:
    who, check = d.get("combatant_id"), d.get("check", "")
    hits = int(d.get("hits") or 0)
    if check == "Stabilise":
        head = f"{s.Who(d.get('healer'))} stabilises {s.who(who)}{ap(d)}"
        tail = f"{'the ' + d.get('status', 'status') + ' is gone' if d.get('removed') else 'no better'}"
    elif check == "BreakLoose":
        head = f"{s.Who(who)} tries to break loose{ap(d)}"
        tail = "free" if d.get("removed") else f"still {d.get('status')}"
    else:
        head = f"{s.Who(who)} {'bleeds' if check == 'Bleeding' else 'burns'}"
        tail = (f"the {check} stops" if d.get("removed") else f"still {check}")
    after = {**d, "hits": d.get("hits_after", 0)}  # the harm fields tell the Hits after the roll
    dealt = f"; {count(hits, 'Hit')}: {s.who(who)} {harm(after, s, who)}" if hits else ""
    rolled = f": {against(d)}, {tail}" if d.get("dice") else f": {tail}"
    return f"{head}{rolled}{dealt}."


# ------------------------------------------------------------------------------------ magic


def spell_cast(d: D, s: Story) -> str:
    if d.get("attack_id") is not None:
        s.remember("attacks", d.get("attack_id"), {"attacker": d.get("caster"), "defender": d.get("target"),
                                                   "weapon": d.get("spell"), "attack": "Spell"})
    target = f" on {s.who(d.get('target'))}" if d.get("target") else ""
    kind = "a healing spell" if d.get("healing") else "a spell"
    return (f"{s.Who(d.get('caster'))} casts {d.get('spell')}{target}: {kind} of {d.get('mere')}, complexity "
            f"{d.get('complexity')}, spending {d.get('mere_spent')} Mere.")


def spell_rolled(d: D, s: Story) -> str:
    healed = int(d.get("hits_healed") or 0)
    heal = f": {s.who(d.get('target'))} is healed of {count(healed, 'Hit')}" if healed else ""
    return f"{d.get('spell')}{ap(d)}: {against(d)}, {outcome(d)}{heal}."


def spell_costs_set(d: D, s: Story) -> str:
    costs = [f"complexity {i}: {c.get('action_points')} AP and {c.get('mere')} Mere at {c.get('difficulty', 'Normal')}"
             for i, c in enumerate(d.get("costs") or [])]
    return f"The GM sets the spell costs: {'; '.join(costs)}."


def mere_set(d: D, s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} now has {d.get('mere')} Mere{because(d)}."


# --------------------------------------------------------------------------------- injuries


def injury_treatment_set(d: D, s: Story) -> str:
    t = d.get("treatment") if isinstance(d.get("treatment"), dict) else {}
    leaves = f"; it may leave {t['permanent_condition']}" if t.get("permanent_condition") else ""
    return (f"The GM sets the treatment of {s.whose(d.get('patient'))} Injury {d.get('injury')}: "
            f"{t.get('difficulty')}, {t.get('base_recovery_time')} days plus {t.get('recovery_die')}{leaves}.")


def injury_treated(d: D, s: Story) -> str:
    result = []
    if d.get("total_recovery_time") is not None:
        result.append(f"it heals in {count(int(d['total_recovery_time']), 'day')}")
    if d.get("needs_surgery"):
        result.append("it now needs Surgery")
    if d.get("permanent_condition"):
        result.append(f"it leaves {d['permanent_condition']}")
    return (f"{s.Who(d.get('healer'))} treats {s.whose(d.get('patient'))} Injury {d.get('injury')} "
            f"({words(d.get('method', 'treatment'))}): {against(d)}, {outcome(d)}"
            + (f"; {'; '.join(result)}" if result else "") + ".")


def days_passed(d: D, s: Story) -> str:
    healed = [f"{s.whose(r.get('combatant_id'))} Injury {r.get('injury')}" for r in d.get("recovered") or []]
    return f"{count(int(d.get('days') or 0), 'day')} pass" + (f": {listed(healed)} healed." if healed else ".")


# --------------------------------------------------------------------------------- movement


def range_set(d: D, s: Story) -> str:
    return f"{s.Who(d.get('a'))} and {s.who(d.get('b'))} are at {d.get('band')} range."


def moved(d: D, s: Story) -> str:
    free = " (a free step)" if d.get("free") else ""
    who, toward = s.Who(d.get("combatant_id")), s.who(d.get("toward"))
    if d.get("partway"):
        return f"{who} moves toward {toward}, on the way from {d.get('from_band')} to {d.get('band')}{free}."
    return f"{who} moves from {d.get('from_band')} to {d.get('band')} range of {toward}{free}."


def free_action_taken(d: D, s: Story) -> str:
    kind = d.get("kind", "")
    item = the(d.get("item"))
    what = {
        "SmallChangeOfPosition": "shifts position",
        "PickUp": f"picks up {item}",
        "Drop": f"drops {item}",
        "ShoutCommand": f"shouts: “{d.get('words') or ''}”",
        "DrawWeapon": f"draws {item}",
    }.get(kind, words(kind))
    return f"{s.Who(d.get('combatant_id'))} {what}."


def disengage_rolled(d: D, s: Story) -> str:
    result = "gets away" if d.get("success") else "stays engaged"
    return f"{s.Who(d.get('combatant_id'))} tries to disengage{ap(d)}: {against(d)}, {result}."


def shove_rolled(d: D, s: Story) -> str:
    result = ("pushes them back" + (", and they fall" if d.get("fell") else "")) if d.get("success") else "fails"
    return (f"{s.Who(d.get('combatant_id'))} shoves {s.who(d.get('target'))}{ap(d)}: "
            f"{versus(d.get('roll'), s)}, {result}.")


# ----------------------------------------------------------------------- morale, enemies


def morale_tests(d: D, s: Story) -> str:
    dice = d.get("dice") or []
    out = []
    for t in d.get("tests") or []:
        i = t.get("die")
        face = dice[i].get("face", "?") if isinstance(i, int) and 0 <= i < len(dice) else "?"
        against = f" against {t['morale']}" if "morale" in t else ""  # an NPC's Morale is the GM's
        out.append(f"{s.who(t.get('combatant_id'))} {face}{against}, "
                   f"{'holds' if t.get('held') else 'breaks'}")
    return "; ".join(out)


def morale_checked(d: D, s: Story) -> str:
    fled = f" {cap(listed(s.who(c) for c in d['fled']))} flee{'s' if len(d['fled']) == 1 else ''} the battle." \
        if d.get("fled") else ""
    tests = morale_tests(d, s)
    return f"Morale Check{because(d)}" + (f": {tests}." if tests else ".") + fled


def surrender_demanded(d: D, s: Story) -> str:
    dropped = f" and drop {listed(the(w) for w in d['weapons_dropped'])}" if d.get("weapons_dropped") else ""
    result = f"they surrender{dropped}" if d.get("success") else "they refuse"
    return (f"{s.Who(d.get('combatant_id'))} demands that {s.who(d.get('target'))} surrender{ap(d)}: "
            f"{versus(d.get('roll'), s)}, {result}.")


def suppression_fired(d: D, s: Story) -> str:
    pinned = d.get("suppressed") or []
    result = (f"{listed(s.who(c) for c in pinned)} {'is' if len(pinned) == 1 else 'are'} pinned down this round"
              if pinned else "nobody is pinned down")
    tests = morale_tests(d, s)
    return (f"{s.Who(d.get('combatant_id'))} lays down suppressing fire with the {d.get('weapon')}{ap(d)}"
            + (f" ({tests})" if tests else "") + f": {result}.")


def special_action_used(d: D, s: Story) -> str:
    once = ", once a fight" if d.get("once_per_combat") else ""
    note = f": {d['note']}" if d.get("note") else ""
    return f"{s.Who(d.get('combatant_id'))} uses {d.get('name')}{ap(d)}{once}{note}."


SENTENCES: dict[str, Sentence] = {
    "ActionTaken": action_taken,
    "CheckCalled": check_called,
    "CheckRolled": check_rolled,
    "ConditionTaken": condition_taken,
    "ConditionRemoved": condition_removed,
    "SkillMarked": skill_marked,
    "HitsSet": hits_set,
    "SessionStarted": session_started,
    "HeroPointAwarded": hero_point_awarded,
    "HeroPointSpent": hero_point_spent,
    "CheckEased": check_eased,
    "CheckOutcomeChanged": check_outcome_changed,
    "OpposedRolled": opposed_rolled,
    "WillpowerTested": willpower_tested,
    "SkillLevelRolled": skill_level_rolled,
    "MarkCleared": mark_cleared,
    "LongRestTaken": long_rest_taken,
    "AttackDeclared": attack_declared,
    "AttackRolled": attack_rolled,
    "CriticalEffectChosen": critical_effect_chosen,
    "SuccessesSpent": successes_spent,
    "DefenceRolled": defence_rolled,
    "ArmourTook": armour_took,
    "HitsTaken": hits_taken,
    "KnockedProne": knocked_prone,
    "MishapSuffered": mishap_suffered,
    "BalanceRegained": balance_regained,
    "ExchangeEnded": exchange_ended,
    "CriticalDowngraded": critical_downgraded,
    "HelmetSacrificed": helmet_sacrificed,
    "LethalBlow": lethal_blow,
    "PunchPulled": punch_pulled,
    "GrappleAttempted": grapple_attempted,
    "GrappleEnded": grapple_ended,
    "BreakFreeRolled": break_free_rolled,
    "Squeezed": squeezed,
    "NonLethalAttackRolled": non_lethal_rolled,
    "TauntRolled": taunt_rolled,
    "WeaponsSwapped": weapons_swapped,
    "HealingRolled": healing_rolled,
    "StatusApplied": status_applied,
    "StatusRemoved": status_removed,
    "StatusRolled": status_rolled,
    "SpellCast": spell_cast,
    "SpellRolled": spell_rolled,
    "SpellCostsSet": spell_costs_set,
    "MereSet": mere_set,
    "InjuryTreatmentSet": injury_treatment_set,
    "InjuryTreated": injury_treated,
    "DaysPassed": days_passed,
    "RangeSet": range_set,
    "Moved": moved,
    "FreeActionTaken": free_action_taken,
    "DisengageRolled": disengage_rolled,
    "ShoveRolled": shove_rolled,
    "MoraleChecked": morale_checked,
    "SurrenderDemanded": surrender_demanded,
    "SuppressionFired": suppression_fired,
    "SpecialActionUsed": special_action_used,
}
