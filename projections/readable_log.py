"""The readable log: the events a caller may see, told one line per step in the game's words.

"Round 2." / "Mira attacks Kess: a heavy attack with the Sabre at Melee range (2 AP). 16
against Normal: a Full Success, two extra Successes." / "Kess parries (1 AP): 8 against
Normal, fails."

A pure function of the events it is given: the caller passes the events *as the viewer
may see them* (``server.encounters.visible_events``), so the log can tell nothing the
viewer's event history does not show. A ``Redacted`` event is "Something happened out of
sight."; a run of them is one line.

- One line per command (the events one append recorded share their metadata's
  ``request_id``): a step reads as one line. A new round is a line of its own.
- Every event has a sentence: the encounter lifecycle's here, each ruleset's in a module
  of its own (``projections/places_of_power_log.py``); an event type no module knows gets
  a plain generic sentence.
- Names, not ids: a player's character by name ("Mira"), the GM's combatants with the
  article ("the Bandit"); an id the log never saw named is "someone".
- A retcon's line says what the GM undid; the lines it undid stay, marked ``undone``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

REDACTED = "Redacted"
OUT_OF_SIGHT = "Something happened out of sight."
HEADINGS = frozenset({"RoundStarted"})  # events that begin a line of their own, whatever the command


@dataclass(frozen=True)
class LogEvent:
    """One event as the viewer may see it: its payload and metadata as plain JSON values."""

    version: int
    type: str
    data: Mapping[str, Any]
    metadata: Mapping[str, Any] = field(default_factory=dict)


class LogEntry(msgspec.Struct, kw_only=True):
    """One line of the log: the events it tells (``versions``, oldest first), the round they
    happened in, the sentence; ``undone``: a later retcon undid them."""

    versions: list[int]
    round: int
    sentence: str
    undone: bool = False


# ------------------------------------------------------------------------ the story so far

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number(n: int) -> str:
    """Small counts in words ("two extra Successes"), larger ones in digits."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``count(3, "Hit")`` is "3 Hits"; ``count(1, "Injury", "Injuries")`` is "1 Injury"."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def listed(items: Iterable[str]) -> str:
    """"Mira, Kess and the Bandit"."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def words(tag: str) -> str:
    """A type or value in CamelCase as words: "SmallChangeOfPosition" → "small change of position"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", tag).lower()


@dataclass
class Story:
    """What the log has learned from the events it told so far: who is who, which attack and
    which check a later event means, the round. Sentences read it and add to it."""

    names: dict[str, str] = field(default_factory=dict)
    npcs: set[str] = field(default_factory=set)
    round: int = 0
    order: list[str] = field(default_factory=list)  # the order of play, as last told
    rounds: list[tuple[int, int]] = field(default_factory=list)  # (version, round) of each round begun
    version: int = 0  # the version of the event being told
    facts: dict[str, dict[Any, Any]] = field(default_factory=dict)  # a ruleset's own memory, by topic

    def who(self, cid: Any) -> str:
        """A combatant as the log names them: "Mira", "the Bandit", or "someone"."""
        if not isinstance(cid, str) or cid not in self.names:
            return "someone"
        name = self.names[cid]
        if cid in self.npcs and not re.match(r"(?i)(the|a|an) ", name):
            return f"the {name}"
        return name

    def Who(self, cid: Any) -> str:  # noqa: N802 - the capitalised form, at a sentence's start
        return cap(self.who(cid))

    def whose(self, cid: Any) -> str:
        return f"{self.who(cid)}'s"

    def Whose(self, cid: Any) -> str:  # noqa: N802
        return cap(self.whose(cid))

    def meet(self, cid: Any, name: Any, controller: Any) -> None:
        if isinstance(cid, str) and isinstance(name, str):
            self.names[cid] = name
            if controller == "gm":
                self.npcs.add(cid)

    def in_order(self, ids: Iterable[str]) -> list[str]:
        """``ids`` in the order of play (the stored payloads keep no order of their own)."""
        place = {cid: i for i, cid in enumerate(self.order)}
        return sorted(ids, key=lambda cid: (place.get(cid, len(place)), self.who(cid)))

    def remember(self, topic: str, key: Any, value: Any) -> None:
        self.facts.setdefault(topic, {})[key] = value

    def recall(self, topic: str, key: Any) -> dict[str, Any]:
        found = self.facts.get(topic, {}).get(key)
        return found if isinstance(found, dict) else {}


Sentence = Callable[[Mapping[str, Any], Story], str]

# ------------------------------------------------------------------ the lifecycle's sentences


def _opened(d: Mapping[str, Any], s: Story) -> str:
    policy = {"seeded": "seeded dice", "reported": "dice reported by the table", "mixed": "reported or seeded dice"}
    module = _modules().get(d.get("ruleset", ""))
    rules = module.NAME if module is not None else d.get("ruleset", "")
    return f"The encounter “{d.get('name', '')}” opens: {rules}, {policy.get(d.get('dice_policy'), 'dice')}."


def _added(d: Mapping[str, Any], s: Story) -> str:
    s.meet(d.get("combatant_id"), d.get("name"), d.get("controller"))
    cid = d.get("combatant_id")
    hidden = ", hidden from the players" if d.get("hidden") else ""
    ap = d.get("action_points") or 0
    joins = f", with {count(ap, 'Action Point')}" if ap else ""
    return f"{s.Who(cid)} joins the fight on the {d.get('side', '')} side{hidden}{joins}."


def _removed(d: Mapping[str, Any], s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} leaves the fight."


def _initiative(d: Mapping[str, Any], s: Story) -> str:
    rolls = []
    for r in d.get("rolls") or []:
        who = s.who(r.get("who")) if r.get("who") in s.names else "the GM for the NPCs"
        if "total" not in r:
            rolls.append(f"{who} in secret")
            continue
        face = (r.get("die") or {}).get("face")
        if "modifier" in r:
            rolls.append(f"{who} {face} + {r['modifier']} = {r['total']}")
        else:  # an NPC's modifier is off its sheet: the viewer sees the die and the total
            rolls.append(f"{who} {face}, {r['total']} in all")
    s.order = [c for c in d.get("order") or [] if isinstance(c, str)]
    order = listed(s.who(c) for c in s.order)
    secret = " (the GM's roll is secret)" if d.get("secret") else ""
    return f"Initiative{secret}: {listed(rolls)}. The order of play: {order}."


def _order(d: Mapping[str, Any], s: Story) -> str:
    s.order = [c for c in d.get("order") or [] if isinstance(c, str)]
    return f"The GM sets the order of play: {listed(s.who(c) for c in s.order)}."


def _started(d: Mapping[str, Any], s: Story) -> str:
    return "The fight begins."


def _round(d: Mapping[str, Any], s: Story) -> str:
    s.round = int(d.get("round") or 0)
    s.rounds.append((s.version, s.round))
    points = d.get("action_points") or {}
    ap = [f"{s.who(cid)} {points[cid]}" for cid in s.in_order(points)]
    return f"Round {s.round}." + (f" Action Points: {listed(ap)}." if ap else "")


def _turn_ended(d: Mapping[str, Any], s: Story) -> str:
    ap = d.get("action_points")
    keeps = f", keeping {count(ap, 'Action Point')}" if isinstance(ap, int) else ""
    return f"{s.Who(d.get('combatant_id'))} ends the turn{keeps}."


def _ended(d: Mapping[str, Any], s: Story) -> str:
    seed = d.get("seed")
    return "The fight ends." + (f" The dice seed is revealed: {seed}." if seed else "")


def _revealed(d: Mapping[str, Any], s: Story) -> str:
    return f"The GM reveals {s.who(d.get('combatant_id'))}."


def _roll_revealed(d: Mapping[str, Any], s: Story) -> str:
    return f"The GM reveals the secret roll of event {d.get('version')}."


def _retconned(d: Mapping[str, Any], s: Story) -> str:
    first, last = d.get("undone_from"), d.get("undone_to")
    span = f"event {first}" if first == last else f"events {first}-{last}"
    back = d.get("to_version")
    s.rounds = [(v, r) for v, r in s.rounds if isinstance(back, int) and v <= back]
    s.round = s.rounds[-1][1] if s.rounds else 0
    reason = d.get("reason") or ""
    return f"The GM undid {span}" + (f": {reason}" if reason else "") + "."


LIFECYCLE: dict[str, Sentence] = {
    "EncounterOpened": _opened,
    "CombatantAdded": _added,
    "CombatantRemoved": _removed,
    "InitiativeRolled": _initiative,
    "TurnOrderSet": _order,
    "EncounterStarted": _started,
    "RoundStarted": _round,
    "TurnEnded": _turn_ended,
    "EncounterEnded": _ended,
    "CombatantRevealed": _revealed,
    "RollRevealed": _roll_revealed,
    "Retconned": _retconned,
}

_ACTOR_FIELDS = ("combatant_id", "attacker", "caster", "healer", "controller")


def generic(type_name: str, d: Mapping[str, Any], s: Story) -> str:
    """An event no sentence module knows: its type in words, and who it was about."""
    actor = next((d[k] for k in _ACTOR_FIELDS if isinstance(d.get(k), str) and d[k] in s.names), None)
    what = words(type_name)
    return f"{s.Who(actor)}: {what}." if actor is not None else f"{cap(what)}."


def _modules() -> dict[str, Any]:
    """Each ruleset's sentence module (``RULESET``, ``NAME``, ``SENTENCES``), by ruleset id."""
    from projections import places_of_power_log  # imported late: it builds on this module

    return {m.RULESET: m for m in (places_of_power_log,)}


def sentences_for(ruleset_id: str) -> dict[str, Sentence]:
    """Every event type's sentence for ``ruleset_id``: the lifecycle's and the ruleset's own."""
    module = _modules().get(ruleset_id)
    return {**LIFECYCLE, **(module.SENTENCES if module is not None else {})}


# ------------------------------------------------------------------------------ the render


def _lines(events: Sequence[LogEvent], undone: Callable[[int], tuple[Any, ...]]) -> list[list[LogEvent]]:
    """The events cut into lines: one per command, a run of redacted events as one (but never
    across the edge of what a retcon undid), and a heading (a new round) on a line of its own."""
    lines: list[list[LogEvent]] = []
    previous: LogEvent | None = None
    for e in events:
        same = (
            previous is not None
            and e.type not in HEADINGS and previous.type not in HEADINGS
            and (e.type == REDACTED) == (previous.type == REDACTED)
            and (e.type == REDACTED or _request(e) == _request(previous))
            and undone(e.version) == undone(previous.version)
        )
        if same:
            lines[-1].append(e)
        else:
            lines.append([e])
        previous = e
    return lines


def _request(e: LogEvent) -> Any:
    return e.metadata.get("request_id") or ("version", e.version)


def render(events: Sequence[LogEvent], ruleset_id: str) -> list[LogEntry]:
    """The log of ``events`` (a whole history as one viewer may see it, oldest first)."""
    sentences = sentences_for(ruleset_id)
    story = Story()
    entries: list[LogEntry] = []
    retcons = _undone_ranges(events)

    def undone(version: int) -> tuple[Any, ...]:
        return tuple(r for r in retcons if r[0] <= version <= r[1])

    for line in _lines(events, undone):
        told: list[str] = []
        round_ = None
        for e in line:
            story.version = e.version
            if e.type == REDACTED:
                said = OUT_OF_SIGHT if not told else ""
            else:
                tell = sentences.get(e.type)
                said = tell(e.data, story) if tell is not None else generic(e.type, e.data, story)
            if round_ is None:
                round_ = story.round
            if said:
                told.append(cap(said))
        sentence = " ".join(told) or generic(line[0].type, line[0].data, story)
        entries.append(LogEntry(versions=[e.version for e in line], round=round_ or 0, sentence=sentence,
                                undone=bool(undone(line[0].version))))
    return entries


def _undone_ranges(events: Sequence[LogEvent]) -> list[tuple[int, int]]:
    """The versions each retcon undid (``undone_from`` .. ``undone_to``)."""
    return [
        (e.data["undone_from"], e.data["undone_to"])
        for e in events
        if e.type == "Retconned" and isinstance(e.data.get("undone_from"), int)
        and isinstance(e.data.get("undone_to"), int)
    ]


def as_text(entries: Sequence[LogEntry]) -> str:
    """The log as plain text: one line each, its versions first."""
    out = []
    for e in entries:
        span = str(e.versions[0]) if len(e.versions) == 1 else f"{e.versions[0]}-{e.versions[-1]}"
        out.append(f"{span:>9}  {'(undone) ' if e.undone else ''}{e.sentence}")
    return "\n".join(out) + ("\n" if out else "")
