"""The readable log: the events a caller may see, told one line per step in the game's words.

"Round 2." / "Mira attacks Kess: a heavy attack with the Sabre at Melee range (2 AP). 16
against Normal: a Full Success, two extra Successes." / "Kess parries (1 AP): 8 against
Normal, fails."

A pure function of the events it is given: the caller passes the events *as the viewer
may see them* (``server.store.encounters.visible_events``), so the log can tell nothing the
viewer's event history does not show. A ``Redacted`` event is "Something happened out of
sight."; a run of them is one line.

- One line per command (the events one append recorded share their metadata's
  ``request_id``): a step reads as one line. A new round is a line of its own.
- Every event has a sentence: the encounter lifecycle's (``domain/core/log.py``, in no
  game's words but those the ruleset lends it: ``Ruleset.wording()``) and each ruleset's
  own (``Ruleset.sentences()``); an event type none knows gets a plain generic sentence.
- Names, not ids: a player's character by name ("Mira"), the GM's combatants with the
  article ("the Bandit"); an id the log never saw named is "someone".
- A retcon's line says what the GM undid; the lines it undid stay, marked ``undone``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.log import Sentence, cap, generic, sentences_of, story_for
from domain.core.ruleset import Registry, Ruleset

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


def ruleset_named(ruleset: Ruleset | str | None) -> Ruleset | None:
    """A ruleset, or the one of the default registry with that id (None: unknown)."""
    if ruleset is None or isinstance(ruleset, Ruleset):
        return ruleset
    registry = _default_registry()
    return registry.get(ruleset) if ruleset in registry else None


@functools.cache
def _default_registry() -> Registry:
    from domain.rulesets import default_registry  # the registry names the games: read it only when asked

    return default_registry()


def sentences_for(ruleset: Ruleset | str | None) -> dict[str, Sentence]:
    """Every event type's sentence for ``ruleset`` (or its id): the lifecycle's and the ruleset's own."""
    return sentences_of(ruleset_named(ruleset))


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


def render(events: Sequence[LogEvent], ruleset: Ruleset | str | None) -> list[LogEntry]:
    """The log of ``events`` (a whole history as one viewer may see it, oldest first), told in
    the words of ``ruleset`` (or the default registry's ruleset of that id)."""
    retcons = _undone_ranges(events)

    def undone(version: int) -> tuple[Any, ...]:
        return tuple(r for r in retcons if r[0] <= version <= r[1])

    return Teller(ruleset).tell(events, undone)


class Teller:
    """Tells a history in order, a part at a time (a webhook's deliveries): each part's lines,
    told with what the parts before it taught the story (who is who, which attack is meant)."""

    def __init__(self, ruleset: Ruleset | str | None) -> None:
        rules = ruleset_named(ruleset)
        self.sentences = sentences_of(rules)
        self.story = story_for(rules)

    def tell(self, events: Sequence[LogEvent], undone: Callable[[int], tuple[Any, ...]] = lambda _v: ()
             ) -> list[LogEntry]:
        """The lines of ``events``, the next part of the history; ``undone``: the retcons
        undoing each version, where the whole history is known."""
        story, sentences = self.story, self.sentences
        entries: list[LogEntry] = []
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
