"""Levelling Up Skills, the marking: a roll's Critical Success or Critical Failure marks the Skill used
(the Long Rest that levels them up: domain/places_of_power/levelling.py)."""

from __future__ import annotations

from domain.core.concerns import CombatantId, SheetValue
from domain.core.encounter import Combatant, Event
from domain.places_of_power.table import sheet


class SkillMarked(Event, tag="SkillMarked"):
    """A Critical Success or Critical Failure marks the skill used, for levelling up. The skill is a
    value of the sheet: who may not see an NPC's sheet does not see which."""

    combatant_id: CombatantId
    skill: SheetValue[str, "combatant_id"]


def skill_marks(c: Combatant, skill: str, outcome: str) -> list[Event]:
    """"Whenever you make a roll that results in either a Critical Success or a Critical Failure, mark the
    box next to the Skill you used": a check's, an attack's ("Critical Miss" its failure), a defence's, an
    opposed roll's. Once a Skill, and only one the sheet has."""
    s = sheet(c)
    if not outcome.startswith("Critical") or skill in s.marked_skills or s.skill_die(skill) is None:
        return []
    return [SkillMarked(combatant_id=c.id, skill=skill)]
