"""Hero Points.

"At the start of each session all of the players gain 1 Hero Point. During the session,
the GM can award additional Hero Points ... at the end of each session, any unused Hero
Points are lost, and the next session starts with everyone back at one."
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId, EventRef
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import CriticalDowngraded
from domain.places_of_power.check_rolls import ConditionRemoved
from domain.places_of_power.checks import easier
from domain.places_of_power.hits import HELPLESS, HitsSet
from domain.places_of_power.sheet import Condition
from domain.places_of_power.table import check, replace, rules, sheet, with_check, with_rules, with_sheet

Use = Literal[
    "ReduceDifficulty",
    "RemoveCondition",
    "RestoreHit",
    "DowngradeCriticalHit",
    "ReduceCriticalFailure",
    "CheatDeath",
    "Flashback",
]
Text = Annotated[str, msgspec.Meta(max_length=2000)]


class StartSession(Command, tag="StartSession"):
    """The GM starts a play session: every player character's Hero Points are set to 1."""


class AwardHeroPoint(Command, tag="AwardHeroPoint"):
    """The GM awards a Hero Point (creative play, a strong character moment, a good joke)."""

    combatant_id: CombatantId
    reason: Text = ""


class SpendHeroPoint(Command, tag="SpendHeroPoint"):
    """Spend a Hero Point. ``ReduceDifficulty`` (a called ``check``, before it is rolled),
    ``RemoveCondition`` (``condition``), ``RestoreHit``, ``DowngradeCriticalHit`` (an
    incoming Critical Hit), ``ReduceCriticalFailure`` (a rolled ``check``), ``CheatDeath``
    (back to a single Hit), ``Flashback`` (``narration``; the GM may call for a check)."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    use: Use
    check: EventRef | None = None
    condition: Condition | None = None
    narration: Text = ""


class SessionStarted(Event, tag="SessionStarted"):
    session: int
    hero_points: dict[CombatantId, int]


class HeroPointAwarded(Event, tag="HeroPointAwarded"):
    combatant_id: CombatantId
    reason: str = ""


class HeroPointSpent(Event, tag="HeroPointSpent"):
    combatant_id: CombatantId
    use: str
    check: EventRef | None = None
    condition: str | None = None
    narration: str = ""


class CheckEased(Event, tag="CheckEased"):
    check: EventRef
    difficulty: str


class CheckOutcomeChanged(Event, tag="CheckOutcomeChanged"):
    check: EventRef
    outcome: str


COMMANDS = (StartSession, AwardHeroPoint, SpendHeroPoint)
EVENTS = (SessionStarted, HeroPointAwarded, HeroPointSpent, CheckEased, CheckOutcomeChanged)


def start_session(state: EncounterState, cmd: StartSession) -> list[Event]:
    points = {cid: 1 for cid, c in state.combatants.items() if c.controller == "player"}
    return [SessionStarted(session=rules(state).session + 1, hero_points=points)]


def award(state: EncounterState, cmd: AwardHeroPoint) -> list[Event]:
    return [HeroPointAwarded(combatant_id=cmd.combatant_id, reason=cmd.reason)]


def spend(state: EncounterState, cmd: SpendHeroPoint) -> list[Event]:
    c = state.combatants[cmd.combatant_id]
    s = sheet(c)
    if s.hero_points < 1:
        raise RuleViolation("no_hero_points", f"{c.name} has no Hero Point to spend.")
    spent = HeroPointSpent(combatant_id=c.id, use=cmd.use, check=cmd.check, condition=cmd.condition,
                           narration=cmd.narration)
    match cmd.use:
        case "ReduceDifficulty":
            rec = check(state, _need(cmd.check, "check"))
            if rec.combatant_id != c.id or rec.status != "called":
                raise RuleViolation("cannot_ease", f"Check {rec.id} is not a check {c.name} is about to roll.")
            lower = easier(rec.difficulty)
            if lower is None:
                raise RuleViolation("cannot_ease", "Easy is the lowest difficulty.")
            return [spent, CheckEased(check=rec.id, difficulty=lower)]
        case "RemoveCondition":
            condition = _need(cmd.condition, "condition")
            if condition not in s.conditions:
                raise RuleViolation("no_condition", f"{c.name} is not {condition}.")
            return [spent, ConditionRemoved(combatant_id=c.id, condition=condition, reason="Hero Point")]
        case "RestoreHit":
            if s.hits == 0:
                raise RuleViolation("no_hits_to_restore", f"{c.name} has taken no Hits.")
            return [spent, HitsSet(combatant_id=c.id, hits=s.hits - 1, reason="Hero Point")]
        case "DowngradeCriticalHit":
            ex = rules(state).exchange
            if ex is None or ex.defender != c.id or ex.critical is None or ex.stage != "defence":
                raise RuleViolation(
                    "no_incoming_critical", f"There is no incoming Critical Hit on {c.name} to turn into a regular Hit."
                )
            return [spent, CriticalDowngraded(attack_id=ex.id)]
        case "ReduceCriticalFailure":
            rec = check(state, _need(cmd.check, "check"))
            if rec.combatant_id != c.id or rec.outcome != "Critical Failure":
                raise RuleViolation("not_a_critical_failure", f"Check {rec.id} is not a Critical Failure of {c.name}'s.")
            return [spent, CheckOutcomeChanged(check=rec.id, outcome="Failure")]
        case "CheatDeath":
            if s.hits <= HELPLESS:
                raise RuleViolation("not_dying", f"{c.name} is not beyond Helpless: there is no death to cheat.")
            return [spent, HitsSet(combatant_id=c.id, hits=1, reason="Hero Point: Cheat Death")]
        case "Flashback":
            if not cmd.narration.strip():
                raise RuleViolation("flashback_needs_narration", "Describe what your character set up earlier.")
            return [spent]
    raise AssertionError(cmd.use)  # pragma: no cover - the Literal covers every use


def _need(value: object, what: str) -> object:
    if value is None:
        raise RuleViolation("missing_detail", f"This use of a Hero Point needs `{what}`.")
    return value


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case SessionStarted():
            for cid, points in event.hero_points.items():
                if cid in state.combatants:
                    state = with_sheet(state, cid, hero_points=points)
            return with_rules(state, session=event.session)
        case HeroPointAwarded():
            s = sheet(state.combatants[event.combatant_id])
            return with_sheet(state, event.combatant_id, hero_points=s.hero_points + 1)
        case HeroPointSpent():
            s = sheet(state.combatants[event.combatant_id])
            if event.use == "CheatDeath":
                # "restoring your Character to a single Hit rather than having them die": alive
                # again (the HitsSet that follows sets the single Hit)
                return with_sheet(state, event.combatant_id, hero_points=s.hero_points - 1, dead=False)
            return with_sheet(state, event.combatant_id, hero_points=s.hero_points - 1)
        case CheckEased():
            return with_check(state, replace(check(state, event.check), difficulty=event.difficulty, eased=True))
        case CheckOutcomeChanged():
            return with_check(state, replace(check(state, event.check), outcome=event.outcome))
    return None
