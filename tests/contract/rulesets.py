"""The rulesets the contract suite runs over: every one the server offers (its registry), and
the one the tests define to prove the door (tests/rulesets/door)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from domain.core.ruleset import Ruleset
from domain.rulesets import default_registry
from tests.rulesets.door.ruleset import Door

OFFERED = default_registry().all()
RULESETS = [*OFFERED, Door()]


def declaring(capability: str) -> list[Ruleset]:
    """The games that declare ``capability`` (``Ruleset.capabilities``): the tests of it ask only them."""
    return [r for r in RULESETS if capability in r.capabilities]


def rule_text(ruleset: Ruleset, chapter: str) -> Path:
    """The file of ``chapter``'s rule text, where the game declares it (``rules_folder``, found beside
    its code or above); the test skips where it is not at hand (the rules live beside the checkout)."""
    name = ruleset.rule_texts[chapter]
    for folder in Path(inspect.getfile(type(ruleset))).resolve().parents:
        if (folder / ruleset.rules_folder / name).is_file():
            return folder / ruleset.rules_folder / name
    pytest.skip(f"{ruleset.rules_folder}/{name} is not beside this checkout")


def each_ruleset(rulesets: list | None = None) -> pytest.MarkDecorator:
    chosen = RULESETS if rulesets is None else rulesets
    return pytest.mark.parametrize("ruleset", chosen, ids=[r.id for r in chosen])
