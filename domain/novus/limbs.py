"""Called Shots at the limbs (novus-gaps N14): "every successful hit on a limb gives the target -2 to all
actions using that limb. If the total damage dealt to that limb becomes greater than the target's
Constitution Stat Value, the limb is useless."

Which actions use which limb is the GM's data (``SetNovusRules`` ``limbs``); the default is OURS: the
arms for attacks, charges and Blocks, the legs for moves, runs, Dodges and charges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain.core.errors import RuleViolation
from domain.novus.kinds import Kind

PER_HIT = 2  # N14: "-2 to all actions using that limb"
NAMES = {"arm": "an arm", "leg": "a leg"}


class LimbRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The actions each limb is used for, and whether a useless limb refuses them (``useless_refuses``;
    False: the GM rules on it)."""

    arm: list[Kind] = msgspec.field(default_factory=lambda: ["attack", "mounted_charge", "block"])
    leg: list[Kind] = msgspec.field(default_factory=lambda: ["move", "run", "dodge", "mounted_charge"])
    useless_refuses: bool = True

    def used_by(self, kind: str) -> list[str]:
        return [limb for limb in ("arm", "leg") if kind in getattr(self, limb)]


def penalty(rules: LimbRules, hits: Mapping[str, int], kind: str) -> int:
    """What the hits on the limbs an action of ``kind`` uses take off its roll (a Dodge: off its DEF)."""
    return PER_HIT * sum(hits.get(limb, 0) for limb in rules.used_by(kind))


def hindered(value: int, rules: LimbRules, hits: Mapping[str, int], kind: str) -> int:
    """A DEF bonus of an action (a Dodge's) less its limbs' penalty, never below nothing (OURS)."""
    return max(value - penalty(rules, hits, kind), 0) if value > 0 else value


def unusable(rules: LimbRules, useless: Sequence[str], kind: str) -> str | None:
    """The useless limb an action of ``kind`` needs, if the GM's data lets it refuse the action."""
    if not rules.useless_refuses:
        return None
    return next((limb for limb in rules.used_by(kind) if limb in useless), None)


def check_usable(rules: LimbRules, useless: Sequence[str], name: str, kind: str) -> None:
    limb = unusable(rules, useless, kind)
    if limb is not None:
        raise RuleViolation("novus_useless_limb", f"kind: {name} cannot perform {kind} with {NAMES[limb]} that is "
                            "useless (its damage is past the Constitution Stat Value).")
