"""The readable log's sentences of Novus' events, in the game's words. A total off an NPC's sheet
is not in a player's copy of the event: the sentence tells it without it."""

from __future__ import annotations

from typing import Any

from domain.core.log import Sentence, count, listed

KINDS = {
    "attack": "an attack", "dodge": "a Dodge", "move": "a move", "run": "a run", "draw_weapon": "drawing a weapon",
    "perception": "a Perception roll", "get_up": "getting up", "cast_spell": "casting a spell",
    "counterspell": "a Counterspell", "block": "a Block", "instant_spell": "an Instantaneous spell", "concentration": "Concentration",
    "multiple_weapon_attacks": "attacks with several weapons", "reload_sling_bow": "reloading a sling or bow",
    "reload_light_crossbow": "reloading a light crossbow", "reload_heavy_crossbow": "reloading a heavy crossbow",
    "gm_action": "an action", "disengage": "Disengaging", "set_initiative": "Set Initiative",
    "reroll_initiative": "Reroll Initiative",
}
SHOTS = {"arm": "a Called Shot at an arm", "leg": "a Called Shot at a leg", "head": "a Called Shot at the head"}


def _action(a: Any, s: Any) -> str:
    a = a or {}
    kind = a.get("kind")
    if kind == "mounted_charge":
        return f"a Mounted Charge at {s.who(a.get('target'))} ({a.get('pace', 2)}x pace) with {a.get('weapon') or 'bare hands'}"
    if kind == "attack":
        text = f"an attack on {s.who(a.get('target'))} with {a.get('weapon') or 'bare hands (Brawling)'}"
        if a.get("called_shot"):
            text += f" ({SHOTS.get(a['called_shot'], a['called_shot'])})"
        if a.get("move"):
            text += f", a {a['move']}"
        return text
    if kind == "multiple_weapon_attacks":
        pairs = zip([a.get("target"), *(a.get("more_targets") or [])], [a.get("weapon"), *(a.get("more_weapons") or [])],
                    strict=False)
        return "Multiple Weapon Attacks (" + ", ".join(f"on {s.who(t)} with {w}" for t, w in pairs) + ")"
    if kind == "gm_action":
        return f"“{a.get('name')}”"
    return KINDS.get(kind, str(kind))


def _actions(actions: list[Any], s: Any) -> list[str]:
    """Each action told; the attacks of Multiple Weapon Attacks (recorded one each) told as one."""
    out: list[str] = []
    weapons: list[Any] = []
    for a in [*actions, None]:
        if a is not None and a.get("of_multiple"):
            weapons.append(a)
            continue
        if weapons:
            out.append("Multiple Weapon Attacks (" + ", ".join(f"on {s.who(w.get('target'))} with {w.get('weapon')}"
                                                              for w in weapons) + ")")
            weapons = []
        if a is not None:
            out.append(_action(a, s))
    return out


def _dice(d: Any) -> str:
    faces = [str((x or {}).get("face")) for x in d.get("dice") or []]
    nova = ", a Nova Roll" if d.get("nova") else ""
    return f"{' '.join(faces)} = {d.get('rolled')}{nova}"


def _declared(d: Any, s: Any) -> str:
    acts = _actions(d.get("actions") or [], s)
    if not acts:
        return f"{s.Who(d.get('combatant_id'))} declares nothing this round."
    ap = (d.get("ap") or 0) + sum((d.get("ap_on") or {}).values())  # (those at one hidden: not in a view without him)
    carried = (d.get("carried") or 0) + sum((d.get("carried_on") or {}).values())
    text = f"{s.Who(d.get('combatant_id'))} declares {listed(acts)} ({ap} AP)"
    if carried:
        text += f", running into the next round by {carried} AP"
    if d.get("defensive"):
        text += f", Fighting Defensively: {d['defensive']} AB shifted to DEF"
    return text + "."


def _cancelled(d: Any, s: Any) -> str:
    acts = [_action(a, s) for a in d.get("instead") or []]
    then = f" and performs {listed(acts)} at once" if acts else ""
    return f"{s.Who(d.get('combatant_id'))} cancels the declared actions{then}."


def _attack(d: Any, s: Any) -> str:
    ab = f" + {d['attack_bonus']}" if "attack_bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    defence = f" {d['defence']}" if "defence" in d else ""
    shot = f", {SHOTS[d['called_shot']]}" if d.get("called_shot") in SHOTS else ""
    oa = ("Opportunity Attack" if d.get("opportunity") else "Mounted Charge" if d.get("charge")
          else "Lightning Attack" if d.get("lightning") else "attack")
    head = (f"{s.Whose(d.get('combatant_id'))} {oa} on {s.who(d.get('target'))} with {d.get('weapon')}{shot}: "
            f"{_dice(d)}{ab}{total} against DEF{defence}")
    if d.get("blocked"):
        return (f"{s.Whose(d.get('combatant_id'))} attack on {s.who(d.get('target'))} with {d.get('weapon')} "
                "is blocked.")
    if not d.get("hit"):
        snags = f" It imploded: {count(int(d['snag_points']), 'Snag Point')} for the GM to spend." \
            if d.get("snag_points") else ""
        return f"{head}: a miss.{snags}"
    base = f"Base Damage {d['base_damage']}" if "base_damage" in d else "its Base Damage"
    armour = f" less AR {d['armour']}" if "armour" in d else " less armour"
    charge = f" + {d['charge_damage']} for the charge" if d.get("charge_damage") else ""
    text = f"{head}: a hit. {base} + Scaled Damage {d.get('scaled')}{charge}{armour}: {d.get('damage')}."
    if d.get("boon_points") or d.get("head_boon_points"):
        text += f" {count(int(d.get('boon_points') or 0), 'Boon Point')} to spend at once"
        if d.get("head_boon_points"):
            text += f", and {d['head_boon_points']} more on Boons that impair judgement or consciousness"
        text += "."
    return text


def _block(d: Any, s: Any) -> str:
    ab = f" + {d['attack_bonus']} = {d['total']}" if "total" in d else ""
    tn = f" {d['tn']}" if "tn" in d else ""
    outcome = "stops the attack" if d.get("stopped") else "fails to stop it"
    return (f"{s.Who(d.get('combatant_id'))} blocks {s.whose(d.get('attacker'))} attack: {_dice(d)}{ab} against "
            f"TN 10 + its AB{tn}: {outcome}.")


def _boons(d: Any, s: Any) -> str:
    bought = listed(d.get("boons") or []) or "no Boon"
    extra = f" (+{d['extra_damage']} damage)" if d.get("extra_damage") else ""
    return f"{s.Who(d.get('combatant_id'))} spends the Boon Points on {bought}{extra}: {d.get('damage')} damage."


def _damaged(d: Any, s: Any) -> str:
    left = f": {count(int(d['hit_points']), 'Hit Point')} left" if "hit_points" in d else ""
    why = "" if d.get("cause") == "attack" else f" ({d.get('cause')})"
    text = f"{s.Who(d.get('combatant_id'))} takes {d.get('damage')} damage{why}{left}."
    if d.get("dead"):
        text += " Past the GM's threshold: dead."
    elif d.get("helpless"):
        text += " At 0 to -10: helpless."
    return text


def _save(d: Any, s: Any) -> str:
    bonus = f" + {d['bonus']}" if "bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    outcome = "makes" if d.get("passed") else "fails"
    return (f"{s.Who(d.get('combatant_id'))} {outcome} a Saving Throw vs {d.get('stat')}: "
            f"{_dice(d)}{bonus}{total} against TN {d.get('tn')}.")


def _opposed(d: Any, s: Any) -> str:
    bonus = f" + {d['bonus']}" if "bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    text = (f"{s.Who(d.get('combatant_id'))} rolls an Opposed Saving Throw vs {d.get('stat')} against "
            f"{s.who(d.get('against'))}: {_dice(d)}{bonus}{total}")
    return text + (f"; {s.who(d['winner'])} goes first." if d.get("winner") else ".")


def _snags(d: Any, s: Any) -> str:
    who = s.who(d.get("combatant_id"))
    if not d.get("snags"):
        return f"The GM leaves {s.whose(d.get('combatant_id'))} Snag Points unspent."
    parts = (f"Snag for {who}: {listed(list(d['snags']))}",
             f" (1d10: {(d['dice'][0] or {}).get('face')})" if d.get("dice") else "",
             f", striking {s.who(d['friend'])}" if d.get("friend") else "",
             f"; for the GM: {listed(list(d['recorded']))}" if d.get("recorded") else "")
    return "".join(parts) + "."


def _taken(d: Any, s: Any) -> str:
    """An action performed; a move with the Control Zones it names and how far each reaches."""
    a = d.get("action") or {}
    text = f"{s.Who(d.get('combatant_id'))}: {_action(a, s)}"
    if d.get("lapsed"):
        return text + ", which lapses: its target is gone."
    named = [*(a.get("through") or []), *(a.get("leaves") or [])]
    reach = list(d.get("reach") or [])
    if named and len(reach) == len(named):
        zones = [f"{s.whose(c)} Control Zone ({r}')" for c, r in zip(named, reach, strict=True)]
        through = zones[:len(a.get("through") or [])]
        leaves = zones[len(through):]
        text += "".join([f", through {listed(through)}" if through else "", f", out of {listed(leaves)}" if leaves else ""])
    return text + "."


def _disarm(d: Any, s: Any) -> str:
    bonus = f" + {d['bonus']}" if "bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    head = (f"{s.Who(d.get('combatant_id'))} saves vs Str against {s.whose(d.get('attacker'))} Disarm: "
            f"{_dice(d)}{bonus}{total} against TN {d.get('tn')}")
    if d.get("passed"):
        return f"{head}: keeps the {d.get('weapon')}."
    return f"{head}: the {d.get('weapon')} flies {d.get('feet')} ft away."


def _faces(r: Any) -> str:
    """A roll's 2d10 as rolled: the first die, then the dice an explosion or implosion added."""
    return " ".join(str((x or {}).get("face")) for x in [r.get("die"), *(r.get("more_dice") or [])])


def _initiative(d: Any, s: Any) -> str:
    """Initiative Points, once per combat: "2d10 + Speed Stat Bonus + Wisdom Stat Bonus"."""
    told = []
    for r in d.get("rolls") or []:
        if "total" not in r:
            told.append(f"{s.who(r.get('who'))} in secret")
            continue
        bonus = f" + {r['modifier']}" if "modifier" in r else ""  # an NPC's bonuses are off its sheet
        told.append(f"{s.who(r.get('who'))} {_faces(r)}{bonus}: {r['total']} IP")
    s.order = [c for c in d.get("order") or [] if isinstance(c, str)]
    return (f"Initiative: {listed(told)}. They declare from the lowest IP up and resolve from the highest down: "
            f"{listed(s.who(c) for c in s.order)}.")


def _stray(d: Any, s: Any) -> str:
    bonus = f" + {d['bonus']}" if "bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    tn = f" {d['tn']}" if "tn" in d else ""
    head = (f"{s.Who(d.get('combatant_id'))}, near the path of {s.whose(d.get('attacker'))} missed shot, saves vs Spd: "
            f"{_dice(d)}{bonus}{total} against the attack's total{tn}")
    return f"{head}: missed." if d.get("passed") else f"{head}: hit, {d.get('damage')} damage."


def _skill(d: Any, s: Any) -> str:
    bonus = f" + {d['bonus']}" if "bonus" in d else ""
    total = f" = {d['total']}" if "total" in d else ""
    who = s.Who(d.get("combatant_id"))
    if d.get("group"):
        return f"{who} rolls Perception for the {d['group']} side: {_dice(d)}{bonus}{total}."
    against = f" against TN {d['tn']}: {'made' if d.get('passed') else 'failed'}" if d.get("tn") is not None else ""
    return f"{who} rolls {d.get('skill')}: {_dice(d)}{bonus}{total}{against}."


def _rerolled(d: Any, s: Any) -> str:
    r = d.get("roll") or {}
    return f"{s.Who(r.get('who'))} rerolls initiative: {r.get('total')} IP for the rest of the combat."


SENTENCES: dict[str, Sentence] = {
    "InitiativeRolled": _initiative,
    "NovusRulesSet": lambda d, s: "The GM sets the encounter's Novus settings.",
    "NovusHasteSet": lambda d, s: (f"{s.Who(d.get('combatant_id'))} is Hasted: 10 AP a round." if d.get("hasted")
                                   else f"{s.Who(d.get('combatant_id'))} is no longer Hasted: 5 AP a round."),
    "NovusMountedSet": lambda d, s: (f"{s.Who(d.get('combatant_id'))} is mounted"
                                     + (" (a mount trained for combat)." if d.get("trained") else ".")
                                     if d.get("mounted") else f"{s.Who(d.get('combatant_id'))} is on foot."),
    "NovusRidingRolled": lambda d, s: (f"{s.Who(d.get('combatant_id'))} "
                                       + ("makes" if d.get("passed") else "fails")
                                       + f" a Riding roll{' for the charge' if d.get('charge') else ''}: {_dice(d)}"
                                       + (f" + {d['bonus']} = {d['total']}" if "total" in d else "")
                                       + f" against TN {d.get('tn')}"
                                       + ("." if d.get("passed") else ": -1 to DEF and AB this round.")),
    "NovusSurpriseSet": lambda d, s: (f"Surprised: {listed([s.who(c) for c in d.get('surprised') or []]) or 'nobody'}"
                                      " (-20 to Initiative in the first round)."),
    "NovusActionsDeclared": _declared,
    "NovusActionsCancelled": _cancelled,
    "NovusActionHeld": lambda d, s: (f"{s.Who(d.get('combatant_id'))} holds the actions"
                                     + (f", losing {d['lost']} AP." if d.get("lost") else ".")),
    "NovusHeldActionsTaken": lambda d, s: (f"{s.Who(d.get('combatant_id'))} acts on the held actions: "
                                           + (listed(_actions(d.get("actions") or [], s)) or "nothing")
                                           + f" ({(d.get('ap') or 0) + sum((d.get('ap_on') or {}).values())} AP)"
                                           + (f", at {s.whose(d['at'])} Initiative Point." if d.get("at") else ".")),
    "NovusOpposedSaveRolled": _opposed,
    "NovusSnagsSpent": _snags,
    "NovusHeldActionsDue": lambda d, s: f"{s.Whose(d.get('combatant_id'))} held actions resolve now.",
    "NovusAttackRolled": _attack,
    "NovusBoonsSpent": _boons,
    "NovusBlockRolled": _block,
    "NovusDamaged": _damaged,
    "NovusHealed": lambda d, s: (f"{s.Who(d.get('combatant_id'))} is healed {d.get('amount')}"
                                 + (f": {d['hit_points']} Hit Points." if "hit_points" in d else ".")),
    "NovusActionTaken": _taken,
    "NovusActionsResolved": lambda d, s: f"{s.Whose(d.get('combatant_id'))} declared actions are resolved.",
    "NovusLateAttacksResolved": lambda d, s: f"{s.Whose(d.get('combatant_id'))} remaining attacks are made.",
    "NovusLateAttacksCancelled": lambda d, s: f"{s.Who(d.get('combatant_id'))} cancels the remaining attacks.",
    "NovusInitiativeRerolled": _rerolled,
    "NovusSaveRolled": _save,
    "NovusDisarmSaveRolled": _disarm,
    "NovusStraySaveRolled": _stray,
    "NovusSkillRolled": _skill,
}
