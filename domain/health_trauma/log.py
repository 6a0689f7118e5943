"""The readable log's sentences of Health/Trauma's events, in the game's words."""

from __future__ import annotations

from typing import Any

from domain.core.log import Sentence

RESULT_WORDS = {
    "lucky_escape": "by luck or miracle, no bad injury (still dying)",
    "sliced_muscle": "sliced muscle, cracked bones",
    "reeling": "reeling from the attack",
    "maimed": "a part mangled to the point of uselessness",
    "gut_wound": "a wound to the gut",
    "mortal_blow": "the Mortal Blow",
}
SIZES = {"quarter": "a Quarter action", "half": "a Half action", "full": "a Full action", "quick": "a Quick Action"}


def _face(d: Any) -> Any:
    return (d or {}).get("face")


def _attack(d: Any, s: Any) -> str:
    """Totals off an NPC's sheet are not in a player's copy of the event: told without them."""
    dice = d.get("damage_dice") or []
    guard = f"{s.whose(d.get('target'))} Guard" + (f" {d['guard_total']}" if "guard_total" in d else "")
    if d.get("defence_die"):
        guard += f" (rolled {_face(d.get('defence_die'))})"
    total = f", {d['attack_total']}" if "attack_total" in d else ""
    head = (f"{s.Whose(d.get('combatant_id'))} Attack Test with the {d.get('weapon')}: "
            f"{_face(d.get('attack_die'))}{total} against {guard}")
    if not d.get("hit"):
        return f"{head}: a miss."
    faces = " + ".join(str(_face(x)) for x in dice) or "0"
    protection = f", less Protection {d['protection']}" if "protection" in d else ", less Protection"
    return f"{head}: a hit. Damage {faces} = {d.get('rolled_damage')}{protection}: {d.get('damage')}."


def _health(d: Any) -> str:
    """": health 3", unless the health is an NPC's and the reader not the GM (not in their copy)."""
    return f": health {d['health']}" if "health" in d else ""


def _test(d: Any, s: Any) -> str:
    r = d.get("roll") or {}
    bonus = f" + {r['modifier']}" if "modifier" in r else ""  # an NPC's bonus is off its sheet
    return f"{s.Who(r.get('who'))} makes their Initiative Test: {_face(r.get('die'))}{bonus} = {r.get('total')}."


def _harmed(d: Any, s: Any) -> str:
    why = " (dying)" if d.get("cause") == "dying" else ""
    text = f"{s.Who(d.get('combatant_id'))} takes {d.get('damage')} damage{why}{_health(d)}."
    if d.get("trauma"):
        text += f" Damage taken while dying: {d.get('trauma')} Trauma."
    if d.get("dying"):
        text += " At or below 0: dying, and an injury is due."
    return text


def _injury(d: Any, s: Any) -> str:
    who = s.Who(d.get("combatant_id"))
    text = (f"{who} rolls for the injury: {_face(d.get('die'))} + 5 × {d.get('injuries_had')} = {d.get('total')}, "
            f"{RESULT_WORDS.get(d.get('result'), d.get('result'))}.")
    if d.get("penalty"):
        text += f" -{d.get('penalty')} to Skill Tests, Saves and Damage Rolls until Trauma is 0."
    if d.get("coma"):
        text += " Reeling again: a coma, until Trauma is reduced to 0."
    if d.get("part"):
        text += f" 1D6: {_face(d.get('part_die'))}, the {d.get('part')}"
        if d.get("removed"):
            text += f", maimed again: removed, 3 + {_face(d.get('removal_die'))} = {d.get('trauma')} Trauma"
        text += "."
    return text


def _save(name: str) -> Sentence:
    def told(d: Any, s: Any) -> str:
        outcome = "passes" if d.get("passed") else "fails"
        tail = {"Fear": "" if d.get("passed") else ": Stunned, can't act this turn",
                "BSvs": "" if d.get("passed") else ": the wound reopens, 1 Trauma"}[name]
        total = f", {d['total']}" if "total" in d else ""  # an NPC's save bonus is the GM's
        return (f"{s.Who(d.get('combatant_id'))} {outcome} the {name} save: {_face(d.get('die'))}{total} "
                f"against {d.get('vs')}{tail}.")
    return told


def _died(d: Any, s: Any) -> str:
    if d.get("cause") == "mortal_blow":
        return f"The attack that injured {s.who(d.get('combatant_id'))} was fatal: {s.who(d.get('combatant_id'))} is dead."
    return f"{s.Who(d.get('combatant_id'))} has taken Trauma equal to their maximum Health, and is dead."


def _healed(d: Any, s: Any) -> str:
    rolled = d.get("dice") or []
    how = f" (rolled {' + '.join(str(_face(x)) for x in rolled)})" if rolled else ""
    tail = " No longer dying." if d.get("revived") else ""
    return f"{s.Who(d.get('combatant_id'))} is healed {d.get('amount')}{how}{_health(d)}.{tail}"


SENTENCES: dict[str, Sentence] = {
    "HTRulesSet": lambda d, s: "The GM sets the encounter's Health/Trauma data.",
    "HTInitiativeTestRolled": _test,
    "HTActionTaken": lambda d, s: (f"{s.Who(d.get('combatant_id'))} takes the {d.get('action')} action "
                                   f"({SIZES.get(d.get('size'), d.get('size'))})"
                                   + (f": the {d['weapon']} is readied." if d.get("weapon") else ".")),
    "HTAttackDeclared": lambda d, s: (f"{s.Who(d.get('combatant_id'))} attacks {s.who(d.get('target'))} with the "
                                      f"{d.get('weapon')} ({SIZES.get(d.get('size'), d.get('size'))})."),
    "HTReacted": lambda d, s: f"{s.Who(d.get('combatant_id'))} reacts: {d.get('reaction')}.",
    "HTAttackRolled": _attack,
    "HTHarmed": _harmed,
    "HTGutWoundSave": _save("BSvs"),
    "HTInjuryRolled": _injury,
    "HTFearSaveDue": lambda d, s: f"{s.Who(d.get('combatant_id'))} is reeling: a Fear save is due.",
    "HTFearSave": _save("Fear"),
    "HTDied": _died,
    "HTHealed": _healed,
    "HTStabilised": lambda d, s: f"{s.Who(d.get('combatant_id'))} is stabilised: no longer dying.",
    "HTWoundTreated": lambda d, s: f"{s.Whose(d.get('combatant_id'))} gut wound is treated: no longer Dazed.",
    "HTRecuperated": lambda d, s: f"{s.Who(d.get('combatant_id'))} recuperates: Trauma back to 0.",
}
