"""Which events still stand after retcons: ``effective_versions`` mirrors ``Ruleset.replay``
("the state is again the state at ``to_version``")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from projections.event_log import LoggedEvent, effective_versions

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def log(*events: tuple[str, dict[str, Any]]) -> list[LoggedEvent]:
    return [LoggedEvent(global_position=v, transaction_id=v, encounter_id="e", version=v, type=t,
                        raw=msgspec.json.encode(d).decode(), recorded_at=NOW) for v, (t, d) in enumerate(events, 1)]


def step() -> tuple[str, dict[str, Any]]:
    return ("TurnEnded", {"combatant_id": "a"})


def retcon(to: int) -> tuple[str, dict[str, Any]]:
    return ("Retconned", {"to_version": to})


def test_without_retcons_everything_stands() -> None:
    assert effective_versions(log(step(), step(), step())) == {1, 2, 3}


def test_a_retcon_undoes_what_came_after_its_target() -> None:
    assert effective_versions(log(step(), step(), step(), retcon(1), step())) == {1, 5}


def test_a_retcon_may_go_back_past_an_earlier_one() -> None:
    # 1 2 3 | back to 2 | 5 6 | back to 5: 1 2 5 stand
    assert effective_versions(log(step(), step(), step(), retcon(2), step(), step(), retcon(5))) == {1, 2, 5}
    # back to before the first retcon: what stood at 1
    assert effective_versions(log(step(), step(), retcon(1), step(), retcon(1))) == {1}


def test_a_retcon_to_a_version_an_earlier_one_undid_restores_what_stood_then() -> None:
    # what stood at version 3 (1 2 3), although the retcon at 4 had undone 3: as Ruleset.replay
    assert effective_versions(log(step(), step(), step(), retcon(2), step(), retcon(3))) == {1, 2, 3}


def test_a_retcon_to_a_retcon_restores_what_stood_after_it() -> None:
    assert effective_versions(log(step(), step(), retcon(1), step(), retcon(3))) == {1}
