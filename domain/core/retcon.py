"""Corrections (retcons): the GM undoes the end of the story by appending, never by deleting.

``Retcon(to_version=N)`` appends ``Retconned(to_version=N, undone_from=N + 1,
undone_to=V)``; from then on the state is the state at version N, but for its version,
which goes on (V + 1), and the record of what stays hidden, which keeps the undone
events' secrets (a hidden combatant added, a secret roll made in the undone events stays
hidden from players in the history). Seeded dice go back to where they were at N: the
same command sent again rolls the same faces, so a retcon fixes a mistake and is never a
re-roll.

How far back (our reading of "undo the last command, or any later part of a round"): to
any version a command ended at (never into the middle of one command's events)

- from the start of the current round on (the version its ``RoundStarted`` was recorded
  at), or to just before the last command still in effect, whatever the round;
- never back before the fight's start once it has started (undoing ``StartEncounter``
  is refused), and never before its end once it has ended (the dice seed is public);
- never to a version an earlier retcon undid: undoing a retcon is sending the commands
  again (with the same faces, see above).

Before the fight starts, any earlier command may be undone. Which events one command
recorded is the event store's to know (``history`` groups them); the rules here see only
that grouping and the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from domain.core.encounter import (
    EncounterEnded,
    EncounterStarted,
    EncounterState,
    Event,
    Retcon,
    Retconned,
    RoundStarted,
)
from domain.core.errors import RuleViolation, clean_text


@dataclass(frozen=True)
class Span:
    """The events one command recorded: versions ``first`` .. ``last``."""

    first: int
    last: int
    events: Sequence[Event]

    @property
    def is_retcon(self) -> bool:
        return any(isinstance(e, Retconned) for e in self.events)

    def has(self, kind: type[Event]) -> bool:
        return any(isinstance(e, kind) for e in self.events)


def spans(history: Sequence[Sequence[Event]]) -> list[Span]:
    """The recorded commands with their versions; ``history[0]`` is the opening."""
    out, version = [], 0
    for events in history:
        if not events:
            raise ValueError("a command records at least one event")
        out.append(Span(version + 1, version + len(events), events))
        version += len(events)
    return out


def in_effect(recorded: Sequence[Span]) -> list[Span]:
    """The commands whose events still stand: each retcon drops the ones after its target."""
    out: list[Span] = []
    for span in recorded:
        for e in span.events:
            if isinstance(e, Retconned):
                out = [s for s in out if s.last <= e.to_version]
        out.append(span)
    return out


def decide(state: EncounterState, cmd: Retcon, history: Sequence[Sequence[Event]]) -> Retconned:
    """The GM's ``Retcon``, judged against ``history`` (the recorded events, grouped by the
    command that recorded them, up to ``state.version``)."""
    n, now = cmd.to_version, state.version
    recorded = spans(history)
    if not recorded or recorded[-1].last != now:
        raise ValueError(f"the history given ends at version {recorded[-1].last if recorded else 0}, not {now}")
    if n >= now:
        raise RuleViolation("retcon_nothing_to_undo",
                            f"The encounter is at version {now}: a retcon goes back to an earlier one, not {n}.",
                            current_version=now)
    if n < 1:
        raise RuleViolation("retcon_out_of_reach", f"There is no version {n}: the story starts at version 1.")
    if n not in {s.last for s in recorded}:
        first = next(s for s in recorded if s.first <= n <= s.last)
        raise RuleViolation(
            "retcon_mid_command",
            f"Version {n} is in the middle of one command's events ({first.first}-{first.last}): "
            f"go back to {first.first - 1} or {first.last}.", command_versions=[first.first, first.last])
    effective = in_effect(recorded)
    if n not in {s.last for s in effective}:
        raise RuleViolation("retcon_undone",
                            f"Version {n} was undone by an earlier retcon: send the commands again instead.")
    if state.status == "ended":
        end = _last_with(effective, EncounterEnded)
        if n < end:
            raise RuleViolation("encounter_ended",
                                f"The fight has ended and its dice seed is public: a retcon goes back no "
                                f"further than its end (version {end}).", earliest_version=end)
    elif state.status == "active":
        start = _last_with(effective, EncounterStarted)
        if n < start:
            raise RuleViolation("retcon_before_start",
                                f"A retcon cannot undo the start of the fight (version {start}).",
                                earliest_version=start)
        round_start = _last_with(effective, RoundStarted)
        commands = [s for s in effective if not s.is_retcon]
        last_command = commands[-1].first - 1
        if n < round_start and n != last_command:
            raise RuleViolation(
                "retcon_out_of_reach",
                f"A retcon goes back to the start of round {state.round} (version {round_start}) at the "
                f"furthest, or undoes the last command (back to version {last_command}).",
                earliest_version=round_start, last_command_version=last_command)
    reason = clean_text(cmd.reason, "A retcon's reason", max_length=500) if cmd.reason.strip() else ""
    return Retconned(to_version=n, undone_from=n + 1, undone_to=now, reason=reason)


def _last_with(effective: Sequence[Span], kind: type[Event]) -> int:
    """The version at which the latest command in effect that recorded a ``kind`` ended."""
    return next((s.last for s in reversed(effective) if s.has(kind)), 1)


def retconned(at: EncounterState, before: EncounterState, event: Retconned) -> EncounterState:
    """The state after ``event``: the state ``at`` its target version, with the version going
    on from ``before`` (the state it was recorded on) and the undone events' secrets kept."""
    concealed = [*at.concealed, *(c for c in before.concealed if c not in at.concealed)]
    secret = sorted({*at.secret_versions, *(v for v in before.secret_versions if v > event.to_version)})
    unseen = {**at.concealed_events,
              **{v: ids for v, ids in before.concealed_events.items() if v > event.to_version}}
    return msgspec.structs.replace(at, version=before.version + 1, concealed=concealed, secret_versions=secret,
                                   concealed_events=unseen)
