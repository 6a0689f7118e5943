"""Novus events whose shape changed (see domain/core/upcasting.py): stored payloads are read through these.

``NovusRulesSet`` 1 -> 2: the GM's ``dodge_ap`` and ``dodge_def`` became the Basic Dodge's row in the
table of Combat Moves (``moves``, novus-gaps N19); a version-1 fight keeps the Dodge it was played with.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.upcasting import SCHEMA_VERSIONS, UPCASTERS
from domain.novus.moves import BASIC_DODGE, default_moves


def rules_set_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    data = {k: v for k, v in payload["data"].items() if k not in ("dodge_ap", "dodge_def")}
    moves = msgspec.to_builtins(default_moves())
    for m in moves:
        if m["name"] == BASIC_DODGE:
            m["ap"] = str(payload["data"].get("dodge_ap", 3))
            m["def"] = payload["data"].get("dodge_def", 3)
    return {**payload, "data": {**data, "moves": moves}}


NOVUS_SCHEMA_VERSIONS: dict[str, int] = {**SCHEMA_VERSIONS, "NovusRulesSet": 2}
NOVUS_UPCASTERS = {**UPCASTERS, ("NovusRulesSet", 1): rules_set_v1_to_v2}
