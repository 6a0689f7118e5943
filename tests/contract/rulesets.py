"""The rulesets the contract suite runs over: every one the server offers (its registry), and
the one the tests define to prove the door (tests/rulesets/door)."""

from __future__ import annotations

import pytest

from domain.rulesets import default_registry
from tests.rulesets.door.ruleset import Door

OFFERED = default_registry().all()
RULESETS = [*OFFERED, Door()]


def each_ruleset(rulesets: list | None = None) -> pytest.MarkDecorator:
    chosen = RULESETS if rulesets is None else rulesets
    return pytest.mark.parametrize("ruleset", chosen, ids=[r.id for r in chosen])
