"""A Novus fight through the decider, the way the server drives it (reported or seeded dice)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.encounter import (
    AddCombatant,
    EndTurn,
    Event,
    RollInitiative,
    StartEncounter,
)
from domain.core.resources import held
from domain.novus.events import Declare, Resolve
from domain.novus.ruleset import AP, Novus, rules
from domain.novus.sheet import STATS
from tests.rulesets.decider import DeciderFight

ENCOUNTER = "0d00d00d-0000-4000-8000-0000000000c3"


def stats(**bonus: int) -> dict[str, Any]:
    """The eight stats, each Value 10 and Bonus 0 but those given (a bonus)."""
    return {s: {"value": 10, "bonus": bonus.get(s, 0)} for s in STATS}


def sheet(**over: Any) -> dict[str, Any]:
    """Kael: a swordsman, AB 7 with the Broadsword (Medium, DR 8, Str), DEF 15 + 1 (5 ranks), AR 4."""
    base: dict[str, Any] = {
        "stats": stats(strength=1), "hit_points": 40,
        "skills": [{"name": "Broadsword", "ranks": 5, "bonus": 7, "melee": True}],
        "weapons": [{"name": "Broadsword", "size": "medium", "dr": 8, "skill": "Broadsword"}],
        "armour": {"ar": 4, "called_shot_ar": {"head": 3, "arms": 1}},
    }
    return {**base, **over}


KAEL = sheet()
ORC = sheet(stats=stats(strength=2, speed=1), hit_points=30,
            skills=[{"name": "Axe", "ranks": 3, "bonus": 5, "melee": True}],
            weapons=[{"name": "Axe", "size": "large", "dr": 10, "skill": "Axe"},
                     {"name": "Dagger", "size": "tiny", "dr": 4, "skill": "Axe", "hand": "left"}],
            armour={"ar": 2})


class Fight(DeciderFight):
    def __init__(self) -> None:
        super().__init__(Novus(), ENCOUNTER, "At the ford")

    @property
    def rules(self):  # noqa: ANN201
        return rules(self.state)

    def ap(self, cid: str) -> int:
        return held(self.state.combatants[cid]).get(AP, 0)

    def hp(self, cid: str) -> int:
        return self.ruleset.hit_points(self.state, cid)

    def declare(self, cid: str, *actions: dict[str, Any], **extra: Any) -> list[Event]:
        return self.send(msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions),
                                          **extra}, self.ruleset.command_type))

    def resolve(self, cid: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(Resolve(combatant_id=cid, dice=dice))

    def end_turn(self, cid: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(EndTurn(combatant_id=cid, dice=dice))

    def command(self, body: dict[str, Any]) -> list[Event]:
        return self.send(msgspec.convert(body, self.ruleset.command_type))


def started(kael: dict[str, Any] | None = None, orc: dict[str, Any] | None = None,
            initiative: tuple[int, ...] = (9, 5, 4, 3)) -> Fight:
    """Kael (a player's) and an Orc (the GM's); reported initiative: Kael 9 + 5 = 14, the Orc
    4 + 3 + 1 (Speed) = 8: Kael resolves first, the Orc declares first."""
    f = Fight()
    f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player", sheet=kael or KAEL))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=orc or ORC))
    f.send(RollInitiative(dice=list(initiative)))
    f.send(StartEncounter())
    return f


def attack(target: str, weapon: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"kind": "attack", "target": target, "weapon": weapon, **extra}


def types(events: list[Event]) -> list[str]:
    return [msgspec.json.decode(msgspec.json.encode(e))["type"] for e in events]


__all__ = ["Declare", "Fight", "KAEL", "ORC", "attack", "sheet", "started", "stats", "types"]
