"""``python -m bench.history``: what time travel, the readable log and a retcon cost, in process.

One long random Places of Power fight (``bench/fights.py``: attacks, defences, checks,
actions, a hidden NPC) is driven through the decider with seeded dice, its events grouped
by command as the store groups them. Then, best of ``--repeat`` runs:

- **time travel**: ``Ruleset.replay`` of the first N events, for N the whole history and
  half of it (what ``GET /encounters/{id}/state?at=N`` does after reading the rows);
- **the readable log**: ``projections.readable_log.render`` of every event, as the GM sees
  them and as a player sees them (filtered with ``projections.visibility`` first);
- **a retcon**: ``decide`` of ``Retcon`` back to the start of the last command (judged
  against the whole history) plus the replay the service does with the new event.

Figures, not assertions; reading the rows from PostgreSQL is not counted.
"""

from __future__ import annotations

import argparse
import random

import msgspec

from bench.fights import Fight, random_fight
from bench.timing import best
from domain.core.encounter import Retcon, Retconned
from projections.readable_log import LogEvent, render
from projections.visibility import REDACTED, Scope, Viewer, event_data_for


def log_events(fight: Fight, viewer: Viewer | None) -> list[LogEvent]:
    out, version = [], 0
    scope = Scope.of(fight.state, viewer) if viewer is not None else None
    for i, group in enumerate(fight.groups):
        for e in group:
            version += 1
            data = msgspec.to_builtins(e)
            if scope is not None:
                data = event_data_for(version, data, scope)
            if data is None:
                out.append(LogEvent(version, REDACTED, {}))
            else:
                out.append(LogEvent(version, type(e).__struct_config__.tag, data, {"request_id": i}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1500, help="decisions in the fight (default 1500)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    fight = random_fight(random.Random(args.seed), steps=args.steps, combatants=4, hidden=True)
    n = len(fight.events)
    ruleset = fight.ruleset
    player = Viewer("player", frozenset({next(iter(fight.state.combatants))}))
    gm_events, player_events = log_events(fight, None), log_events(fight, player)
    last = len(fight.groups[-1])
    target = n - last

    def retcon() -> None:
        (event,) = ruleset.decide(fight.state, Retcon(to_version=target), None,  # type: ignore[arg-type]
                                  history=fight.groups)
        assert isinstance(event, Retconned)
        ruleset.replay([*fight.events, event])

    rows = [
        ("time travel: replay all", n, best(args.repeat, lambda: ruleset.replay(fight.events))),
        ("time travel: replay half", n // 2, best(args.repeat, lambda: ruleset.replay(fight.events[: n // 2]))),
        ("log: render, GM's view", n, best(args.repeat, lambda: render(gm_events, ruleset.id))),
        ("log: render, a player's view", n, best(args.repeat, lambda: render(player_events, ruleset.id))),
        ("log: filter + render, player", n, best(args.repeat, lambda: render(log_events(fight, player), ruleset.id))),
        ("retcon: decide + replay", n, best(args.repeat, retcon)),
    ]
    lines = len(render(gm_events, ruleset.id))
    print(f"one fight: {n} events, {len(fight.groups)} commands, {lines} log lines, round {fight.state.round}")
    print(f"{'what':34} {'events':>7} {'ms':>9} {'µs/event':>9}")
    for what, events, seconds in rows:
        print(f"{what:34} {events:>7} {seconds * 1000:>9.1f} {seconds * 1e6 / max(events, 1):>9.1f}")


if __name__ == "__main__":
    main()
