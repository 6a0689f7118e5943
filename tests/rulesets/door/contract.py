"""What the contract suite (tests/contract) walks Hold the Door with: its fights are driven by
what it waits for (``pending``), so it has no moves of its own to add."""

from __future__ import annotations

import random
from typing import Any

from domain.core.encounter import Command, EncounterState
from domain.core.ruleset import Ruleset
from domain.core.contract import Walk


def sheet(rng: random.Random, npc: bool) -> dict[str, Any]:
    return {"might": rng.randint(0, 2), "guard": rng.randint(0, 2), "hits": rng.randint(2, 6)}


def moves(ruleset: Ruleset, state: EncounterState, rng: random.Random) -> list[Command]:
    return []


WALK = Walk(sheet=sheet, moves=moves)
