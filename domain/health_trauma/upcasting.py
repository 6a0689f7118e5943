"""Health/Trauma's old event payloads, read in today's shape (domain/core/upcasting.py)."""

from __future__ import annotations

from typing import Any

from domain.core.upcasting import SCHEMA_VERSIONS, UPCASTERS


def rules_set_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """``HTRulesSet`` 1 → 2: actions gained ``draws`` (an action that readies a weapon); the GM's
    "Draw a weapon" of a fight set before then is the one that draws, as the default list's is."""
    data = dict(payload.get("data") or {})
    if "actions" in data:
        data["actions"] = [{**a, "draws": True} if str(a.get("name", "")).lower() == "draw a weapon" else a
                           for a in data["actions"]]
    return {**payload, "data": data}


HT_SCHEMA_VERSIONS: dict[str, int] = {**SCHEMA_VERSIONS, "HTRulesSet": 2}
HT_UPCASTERS = {**UPCASTERS, ("HTRulesSet", 1): rules_set_v1_to_v2}
