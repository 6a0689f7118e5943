"""A Health/Trauma fight through the decider, the way the server drives it (seeded or reported dice)."""

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
from domain.health_trauma.body import Body, current, maximum
from domain.health_trauma.data import HealthTraumaData
from domain.health_trauma.events import SetHealthTraumaRules
from domain.health_trauma.ruleset import HealthTrauma, body_of
from tests.rulesets.decider import DeciderFight

ENCOUNTER = "0d00d00d-0000-4000-8000-0000000000a1"

MIRA = {"physique": 1, "combat_skill": 5, "guard": 3, "protection": 1,
        "weapons": [{"name": "Sword", "damage_dice": 1, "damage_sides": 6}, {"name": "Bow", "damage_sides": 6, "range": 10}]}
BANDIT = {"physique": 0, "combat_skill": 3, "guard": 2, "protection": 0,
          "weapons": [{"name": "Club", "damage_dice": 1, "damage_sides": 6}]}
# Fixed Guard and no Reactions: each attack rolls its attack die, then its damage dice.
PLAIN = HealthTraumaData(defence_die=0, reactions=[])


class Fight(DeciderFight):
    def __init__(self) -> None:
        super().__init__(HealthTrauma(), ENCOUNTER, "At the mill")

    def body(self, cid: str) -> Body:
        return body_of(self.state, cid)

    def health(self, cid: str) -> int:
        return current(self.state.combatants[cid].sheet, self.body(cid))

    def maximum(self, cid: str) -> int:
        return maximum(self.state.combatants[cid].sheet, self.body(cid))

    def held(self, cid: str) -> dict[str, int]:
        return held(self.state.combatants[cid])

    def end_turn(self, cid: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(EndTurn(combatant_id=cid, dice=dice))


def started(data: HealthTraumaData | None = PLAIN, mira: dict[str, Any] | None = None,
            bandit: dict[str, Any] | None = None) -> Fight:
    """Mira (a player's, first in initiative) against a Bandit (the GM's)."""
    f = Fight()
    if data is not None:
        f.send(SetHealthTraumaRules(data=data))
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=mira or MIRA))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm", sheet=bandit or BANDIT))
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    return f


def types(events: list[Event]) -> list[str]:
    return [msgspec.json.decode(msgspec.json.encode(e))["type"] for e in events]
