"""The readable log's sentences of RealmsRPG's events, in the game's words. A total with a value
off an NPC's sheet is not in a player's copy of the event: the sentence tells it without."""

from __future__ import annotations

from typing import Any

from domain.core.log import Sentence, cap, listed
from domain.realms.conditions import LEVELED, ConditionName

CONDITIONS = frozenset(ConditionName.__args__)  # type: ignore[attr-defined]

DEFENCES = {"evasion": "Evasion", "might": "Might", "fortitude": "Fortitude", "reflexes": "Reflexes",
            "discernment": "Discernment", "mental_fortitude": "Mental Fortitude", "resolve": "Resolve"}


def _face(d: Any) -> Any:
    return (d or {}).get("face")


def _ap(n: Any) -> str:
    return "no AP" if not n else f"{n} AP"


def _degrees(n: Any) -> str:
    if not isinstance(n, int) or n == 0:
        return ""
    word = "Success" if n > 0 else "Failure"
    k = abs(n)
    return f"{k} {word}{'es' if word == 'Success' and k != 1 else 's' if k != 1 else ''}"


def _natural(face: Any) -> str:
    return " (a natural 20: +2)" if face == 20 else " (a natural 1: −2)" if face == 1 else ""


def _action(d: Any, s: Any) -> str:
    who = s.Who(d.get("combatant_id"))
    what = d.get("action")
    if d.get("description"):
        what = f"an improvised action, {d['description']}"
    text = f"{who} takes {'the ' + what if not d.get('description') else what}"
    if d.get("spaces"):
        text += f", {d['spaces']} spaces"
    if d.get("split"):
        text += ", split (allotted to one attack each)"
    free = " (free)" if d.get("free") else ""
    text += " as a Reaction (the prepared Action, paid when prepared)" if d.get("prepared") else \
        f" ({_ap(d.get('action_points'))}{free})"
    if d.get("die"):
        total = f", total {d['total']}" if "total" in d else ""
        pen = f", {d['penalty']} for the repeat" if d.get("penalty") else ""
        pen += f", +{d['help']} Help" if d.get("help") else ""
        text += f": {d.get('roll_with')} roll {_face(d.get('die'))}{_natural(_face(d.get('die')))}{pen}{total}"
        if d.get("against") is not None:
            text += f" against {d['against']}, {_degrees(d.get('degrees'))}"
            text += f" (a {d['partial']})" if d.get("partial") else ""
        text += _determined(d)
    return text + "."


def _determined(d: Any) -> str:
    """R10: the Determination Die's re-roll, the d20 not kept."""
    return f"; a Determination Die re-rolls it, {_face(d['discarded'])} set aside" if d.get("discarded") else ""


def _declared(d: Any, s: Any) -> str:
    how = (" (off-hand)" if d.get("off_hand") else " (a Quick Attack)" if d.get("quick") else
           " (the prepared attack)" if d.get("prepared") else "")
    text = (f"{s.Who(d.get('combatant_id'))} attacks {s.who(d.get('target'))} with the {d.get('attack')}{how}"
            f" against {DEFENCES.get(d.get('targets'), d.get('targets'))} at {d.get('distance')} "
            f"space{'s' if d.get('distance') != 1 else ''} ({_ap(d.get('action_points'))}"
            f"{', free: the initiator’s first Action' if d.get('free') else ''}")
    if d.get("energy"):
        text += f", {d['energy']} Energy"
    text += ")"
    mods = []
    if d.get("penalty"):
        mods.append(f"{d['penalty']} Multiple Action Penalty")
    if d.get("range_penalty"):
        mods.append(f"{d['range_penalty']} for range")
    if d.get("obscurity"):
        mods.append(f"Obscurity {d['obscurity']}")
    if mods:
        text += f", {' and '.join(mods)}"
    if d.get("non_lethal"):
        text += ", non-lethal"
    return text + "."


def _reacted(d: Any, s: Any) -> str:
    text = f"{s.Who(d.get('combatant_id'))} reacts: {d.get('reaction')} ({_ap(d.get('action_points'))})"
    if d.get("die"):
        total = f", {d['total']}" if "total" in d else ""
        pen = f", {d['penalty']} for the repeat" if d.get("penalty") else ""
        text += f", rolling {_face(d.get('die'))}{_natural(_face(d.get('die')))}{pen}{total}"
    if d.get("help_die"):
        text += f"; the Help Die shows {_face(d['help_die'])}"
    if d.get("energy"):
        text += f", {d['energy']} Energy"
    if d.get("reaction") == "Shield Defense":
        text += f"; the Shield Die shows {_face(d.get('shield_die'))}" if d.get("shield_die") else "; it does not meet the attack roll"
    return text + "."


def _rolled(d: Any, s: Any) -> str:
    defence = DEFENCES.get(d.get("targets"), d.get("targets"))
    score = f" {d['score']}" if "score" in d else ""
    if not d.get("die") and d.get("critical"):
        head = f"{s.Whose(d.get('combatant_id'))} Coup de Grâce on {s.who(d.get('target'))} hits without a roll"
    elif not d.get("die"):
        head = f"{s.Whose(d.get('combatant_id'))} attack on {s.who(d.get('target'))}, an object, hits without a roll"
    else:
        total = f", total {d['total']}" if "total" in d else ""
        head = (f"{s.Whose(d.get('combatant_id'))} attack roll {_face(d.get('die'))}{_natural(_face(d.get('die')))}"
                f"{total}{_determined(d)} against {s.whose(d.get('target'))} {defence}{score}")
    if d.get("help"):
        head += f" (Help Dice +{d['help']})"
    if d.get("counter_die"):
        total = f", total {d['counter_total']}" if "counter_total" in d else ""
        head += (f"; {s.who(d.get('counterer'))} counters with {_face(d['counter_die'])}"
                 f"{_natural(_face(d['counter_die']))}{total}")
        if d.get("countered"):
            return f"{head}: the Power is nullified."
    for x in d.get("defences") or []:
        name = DEFENCES.get(x.get("defence"), x.get("defence"))
        if x.get("die"):
            total = f", total {x['total']}" if "total" in x else ""
            head += (f"; {s.who(x.get('roller'))} rolls {name} {_face(x['die'])}{_natural(_face(x['die']))}{total} "
                     f"against Potency {x.get('score')}: {'it takes effect' if x.get('hit') else 'overcome'}")
        else:
            head += f"; against {name} {x.get('score')}: {'it takes effect' if x.get('hit') else 'no effect'}"
    if not d.get("hit"):
        return f"{head}: a miss ({_degrees(d.get('degrees'))})."
    crit = f": a Critical Hit, the damage dice ×{d.get('multiplier')}" if d.get("critical") else ": a hit"
    dice = d.get("damage_dice") or []
    faces = " + ".join(str(_face(x)) for x in dice)
    damage = f" = {d['damage']}" if "damage" in d else ""
    told = f". Damage {faces or 'no dice'}{' + the bonus' if dice or 'damage' in d else ''}{damage}" if dice or d.get("damage") else ""
    return f"{head}{crit} ({_degrees(d.get('degrees'))}){told}."


def _defended(d: Any, s: Any) -> str:
    parts = []
    if d.get("defender") != d.get("target"):
        parts.append(f"{s.Who(d.get('defender'))} steps in front of the attack (Body Shield)")
    if d.get("blocked"):
        parts.append("the Weapon Block turns the hit aside")
    if d.get("shield"):
        parts.append(f"the shield takes {d['shield']} off the damage")
    if not d.get("hit") and not d.get("blocked"):
        parts.append("the attack misses")
    return cap(", and ".join(parts) or "the Defend changes nothing") + "."


def _harmed(d: Any, s: Any) -> str:
    who = s.Who(d.get("combatant_id"))
    if d.get("cause") == "rm" and d.get("by") is None:
        cut = [f"armour {d['armour']}"] if d.get("armour") else []
        cut += [f"Brace {d['brace']}"] if d.get("brace") else []
        how = f" ({d.get('rolled')} less {', '.join(cut)})" if cut else ""
        text = f"{who} takes {d.get('damage')} damage{how}: Health {d.get('health')}."
    elif d.get("cause") == "energy":
        text = f"{who}'s Energy would go below 0: {d.get('damage')} damage, Health {d.get('health')}."
    elif d.get("cause") == "bleed":
        text = f"{who} bleeds: {d.get('damage')} Health lost, Health {d.get('health')}."
    elif d.get("cause") == "dying":
        faces = " + ".join(str(_face(x)) for x in d.get("dice") or [])
        text = f"{who} is Dying and takes {d.get('damage')} irreducible damage ({faces}): Health {d.get('health')}."
    else:
        cut = []
        if d.get("armour"):
            cut.append(f"armour {d['armour']}")
        if d.get("brace"):
            cut.append(f"Brace {d['brace']}")
        if d.get("shield"):
            cut.append(f"shield {d['shield']}")
        if d.get("resisted"):
            cut.append(d["resisted"])
        how = f" ({d.get('rolled')} less {', '.join(cut)})" if cut else ""
        text = f"{who} takes {d.get('damage')} damage{how}: Health {d.get('health')}."
    if d.get("dead"):
        text += f" {who} is dead."
    elif d.get("unconscious"):
        text += f" The attack was non-lethal: {s.who(d.get('combatant_id'))} is unconscious for 1 hour."
    elif d.get("dying"):
        text += " At 0 Health or below: Dying, prone, 1 AP."
    return text


def _healed(d: Any, s: Any) -> str:
    rolled = d.get("dice") or []
    how = f" (rolled {' + '.join(str(_face(x)) for x in rolled)})" if rolled else ""
    text = f"{s.Who(d.get('combatant_id'))} is healed {d.get('amount')}{how}: Health {d.get('health')}."
    if d.get("power_bonus"):
        text += f" (the healer's Power Bonus +{d['power_bonus']} in it)"
    if d.get("overheal"):
        text += f" Overheal: {d['overheal']} above the maximum."
    if d.get("bleed"):
        text += f" The healing stops {d['bleed']} Bleed."
    if d.get("revived"):
        text += " No longer Dying."
    if d.get("exhausted"):
        text += " One level of Exhausted."
    return text


def _energy_changed(d: Any, s: Any) -> str:
    change = d.get("change") or 0
    how = f"loses {-change} Energy" if change < 0 else f"regains {change} Energy"
    energy = f": Energy {d['energy']}" if "energy" in d else ""
    return f"{s.Who(d.get('combatant_id'))} {how}{energy}{' (it cannot go below 0)' if d.get('below') else ''}."


def _countered_in_effect(d: Any, s: Any) -> str:
    what = f"part of a Power in effect ({d['part']})" if d.get("part") else "a Power in effect"
    total = f", total {d['total']}" if "total" in d else ""
    return (f"{s.Who(d.get('combatant_id'))} counters {what} with the {d.get('power')} ({_ap(d.get('action_points'))}, "
            f"{d.get('energy')} Energy): {_face(d.get('die'))}{_natural(_face(d.get('die')))}{total}{_determined(d)} "
            f"against its attack score {d.get('score')}: "
            f"{'nullified' if d.get('nullified') else 'it stays in effect'}.")


def _collateral(d: Any, s: Any) -> str:
    what = f"part of a Power in effect ({d['part']})" if d.get("part") else "a Power in effect"
    total = f" {d['total']}" if "total" in d else ""
    return (f"The same roll of {s.whose(d.get('combatant_id'))} {d.get('power')} counters {what} as well "
            f"(Collateral Countering):{total} against its attack score {d.get('score')}: "
            f"{'nullified' if d.get('nullified') else 'it stays in effect'}.")


def _recovered(d: Any, s: Any) -> str:
    how = "a Full Recovery" if d.get("recovery") == "full" else f"a Partial Recovery of {2 * (d.get('blocks') or 1)} hours"
    told = [f"Health {d['health']}"] if "health" in d else []
    told += [f"Energy {d['energy']}"] if "energy" in d else []
    text = f"{s.Who(d.get('combatant_id'))} rests: {how}{': ' + ', '.join(told) if told else ''}."
    if d.get("recovery") == "full":
        text += f" Exhausted {d.get('exhausted')}." if d.get("exhausted") else ""
    return text


def _initiative_set(d: Any, s: Any) -> str:
    parts = []
    if d.get("roll_with"):
        parts.append(f"rolls initiative with {d['roll_with']}")
    if d.get("surprised"):
        parts.append("is Surprised")
    if d.get("initiator"):
        parts.append("initiates combat (its first Action costs no AP)")
    return f"{s.Who(d.get('combatant_id'))} {', '.join(parts) or 'rolls initiative with Acuity'}."


def _condition_name(name: Any) -> str:
    """A condition's name, in the game's words only (a payload's stray text is not told)."""
    return name if name in CONDITIONS else "a condition"


def _condition(d: Any, s: Any) -> str:
    name = _condition_name(d.get("condition"))
    told = f"{name} {d.get('level')}" if d.get("level", 1) != 1 or name in LEVELED else name
    text = f"{s.Who(d.get('combatant_id'))} is {told}"
    if d.get("defence") and d.get("score") is not None:
        text += f" (overcome with {DEFENCES.get(d['defence'], d['defence'])} against {d['score']})"
    if d.get("replaced"):
        text += f", replacing {d['replaced']} (conditions don't stack)"
    if d.get("action_points") is not None:
        text += f"; AP now {d['action_points']}"
    return text + "."


def _overcame(d: Any, s: Any) -> str:
    who = s.Who(d.get("combatant_id"))
    if d.get("declined"):
        return f"{who} does not attempt to overcome their conditions."
    parts = []
    for r in d.get("rolls") or []:
        total = f", total {r['total']}" if "total" in r else ""
        against = ", ".join(f"{_condition_name(n)} {v}" for n, v in (r.get("against") or {}).items())
        won = ", ".join(_condition_name(n) for n in r.get("overcome") or []) or "nothing"
        parts.append(f"{DEFENCES.get(r.get('defence'), r.get('defence'))} {_face(r.get('die'))}"
                     f"{_natural(_face(r.get('die')))}{total} against {against}: overcomes {won}")
    when = " (the Overcome Action, earlier in the turn)" if d.get("early") else ""
    return f"{who} attempts the Overcome{when}: {'; '.join(parts) or 'nothing to roll'}."


def _prepared(d: Any, s: Any) -> str:
    paid = f"({_ap(d.get('action_points'))}{', ' + str(d['energy']) + ' Energy' if d.get('energy') else ''})"
    if d.get("action"):
        on = f" on {s.who(d['target'])}" if d.get("target") else ""
        what = f"the {d['action']}{on}" + (f", {d['spaces']} spaces" if d.get("spaces") else "")
        what += f" (a {d['roll_with']} roll)" if d.get("roll_with") else ""
    else:
        what = f"an attack on {s.who(d.get('target'))} with the {d.get('attack')}"
    return f"{s.Who(d.get('combatant_id'))} prepares {what} {paid}, to react to {d.get('trigger')}."


def _improvised(d: Any, s: Any) -> str:
    total = f", total {d['total']}" if "total" in d else ""
    how = ", a Reaction" if d.get("reaction") else ""
    head = (f"{s.Who(d.get('combatant_id'))} improvises a Power ({d.get('description')}, {_ap(d.get('action_points'))}"
            f"{how}): {_face(d.get('die'))}{_natural(_face(d.get('die')))}{total} against Difficulty Score {d.get('difficulty')}, "
            f"{_degrees(d.get('degrees'))}{_determined(d)}; Energy {d.get('estimate')} × {d.get('multiplier')} = {d.get('energy')}")
    if not d.get("created"):
        return head + ", more than they have: the Power fails, the Energy kept, the Action lost."
    return head + "."


def _grappled(d: Any, s: Any) -> str:
    total = f", total {d['total']}" if "total" in d else ""
    score = f" {d['score']}" if "score" in d else ""
    size = f", {d['size']:+d} for size" if d.get("size") else ""
    pen = f", {d['penalty']} for the repeat" if d.get("penalty") else ""
    head = (f"{s.Who(d.get('combatant_id'))} tries to grapple {s.who(d.get('target'))} ({_ap(d.get('action_points'))}): "
            f"{_face(d.get('die'))}{_natural(_face(d.get('die')))}{size}{pen}{total} against "
            f"{s.whose(d.get('target'))} {DEFENCES.get(d.get('defence'), d.get('defence'))}{score}")
    return head + (": grappled." if d.get("hit") else ": it slips the grab.")


def _hiding(d: Any, s: Any) -> str:
    who = s.Who(d.get("combatant_id"))
    word = "Hiding" if d.get("mode") == "hide" else "Stealthing"
    if d.get("ended"):
        return f"{who} has no AP left to stay hidden: no longer hidden."
    if d.get("upkeep"):
        return f"{who} stays hidden ({_ap(d.get('action_points'))})."
    if d.get("switched"):
        return f"{who} switches to {word} (1 AP)."
    total = f", total {d['total']}" if "total" in d else ""
    unseen = [s.who(x) for x in d.get("hidden_from") or []]
    told = f"hidden from {listed(unseen)}" if unseen else "hidden from no one"
    return (f"{who} takes the Stealth/Hide Action, {word} ({_ap(d.get('action_points'))}): {_face(d.get('die'))}"
            f"{_natural(_face(d.get('die')))}{total}, Obscurity {d.get('obscurity')}: {told}.")


def _detected(d: Any, s: Any) -> str:
    total = f", total {d['total']}" if "total" in d else ""
    score = f" {d['score']}" if "score" in d else ""
    how = "searches for" if d.get("search") else "tries to detect"
    bonus = " (+3: it attacked)" if d.get("bonus") else ""
    head = (f"{s.Who(d.get('combatant_id'))} {how} {s.who(d.get('target'))} ({_ap(d.get('action_points'))}): "
            f"{_face(d.get('die'))}{_natural(_face(d.get('die')))}{bonus}{total} against its score{score}")
    return head + (": found." if d.get("found") else ": not found.")


SENTENCES: dict[str, Sentence] = {
    "RealmsHelped": lambda d, s: (f"{s.Who(d.get('combatant_id'))} helps {s.who(d.get('ally'))} "
                                  f"({_ap(d.get('action_points'))}): the Help Die shows {_face(d.get('die'))}, "
                                  "for its next Ability or Skill roll this round."),
    "RealmsHidingRolled": _hiding,
    "RealmsDetected": _detected,
    "RealmsPrepared": _prepared,
    "RealmsCommanded": lambda d, s: (f"{s.Who(d.get('combatant_id'))} Commands {s.who(d.get('companion'))} (1 AP, "
                                     f"use {d.get('use')} this round): it acts with {d.get('action_points')} AP."),
    "RealmsPowerImprovised": _improvised,
    "RealmsGrappleRolled": _grappled,
    "RealmsConditionApplied": _condition,
    "RealmsConditionRemoved": lambda d, s: (f"{s.Who(d.get('combatant_id'))} is no longer "
                                            f"{_condition_name(d.get('condition'))}."),
    "RealmsOvercomeDue": lambda d, s: (f"The end of {s.whose(d.get('combatant_id'))} turn: before gaining AP, they "
                                       "may attempt to overcome their conditions."),
    "RealmsOvercame": _overcame,
    "RealmsRulesSet": lambda d, s: (f"The Realm Master sets the encounter's settings (Dying damage: the "
                                    f"{(d.get('data') or {}).get('dying_damage', 'chapter')} text)."),
    "RealmsInitiativeSet": _initiative_set,
    "RealmsActionTaken": _action,
    "RealmsAttackDeclared": _declared,
    "RealmsReacted": _reacted,
    "RealmsAttackRolled": _rolled,
    "RealmsDefended": _defended,
    "RealmsHarmed": _harmed,
    "RealmsHealed": _healed,
    "RealmsEnergyChanged": _energy_changed,
    "RealmsRecovered": _recovered,
    "RealmsCounteredInEffect": _countered_in_effect,
    "RealmsCollateralCountered": _collateral,
    "RealmsDeterminationSet": lambda d, s: f"{s.Who(d.get('combatant_id'))} holds {d.get('count')} Determination "
                                           f"Di{'e' if d.get('count') == 1 else 'ce'}.",
    "RealmsRollModified": lambda d, s: (f"{s.Who(d.get('combatant_id'))}'s next d20 roll takes "
                                        f"{d.get('amount', 0):+d} (the RM's ruling"
                                        f"{': ' + d['reason'] if d.get('reason') else ''})."),
    "RealmsStabilised": lambda d, s: (f"{s.Who(d.get('combatant_id'))} is stabilised: the Dying damage stops"
                                      f"{'; one level of Exhausted' if d.get('exhausted') else ''}."),
}
