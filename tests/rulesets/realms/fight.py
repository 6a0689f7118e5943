"""A RealmsRPG fight through the decider, the way the server drives it (seeded or reported dice)."""

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
from domain.core.reactions import PassReaction, React
from domain.core.resources import held
from domain.realms.body import Body, health
from domain.realms.ruleset import Realms, body_of, rules
from tests.rulesets.decider import DeciderFight

ENCOUNTER = "0d00d00d-0000-4000-8000-0000000000b2"

# Arwen: Martial Proficiency 2, Agility 3 (Evasion 13), a finesse Rapier 1d6 piercing she is proficient with
ARWEN = {"health": 20, "martial_proficiency": 2, "abilities": {"agility": 3, "acuity": 1, "strength": 1},
         "weapons": [{"name": "Rapier", "dice": 1, "sides": 6, "damage_type": "piercing", "kind": "finesse"}],
         "proficiencies": {"piercing": 8}}
# the Brigand: Evasion 11, Strength 2, a Club 1d6 bludgeoning (proficient), 12 Health
BRIGAND = {"health": 12, "martial_proficiency": 1, "abilities": {"agility": 1, "strength": 2},
           "weapons": [{"name": "Club", "dice": 1, "sides": 6, "damage_type": "bludgeoning"}],
           "proficiencies": {"bludgeoning": 6}}


class Fight(DeciderFight):
    def __init__(self) -> None:
        super().__init__(Realms(), ENCOUNTER, "At the ford")

    def add(self, cid: str, sheet: dict[str, Any], side: str = "party", controller: str = "player") -> None:
        self.send(AddCombatant(combatant_id=cid, name=cid.title(), side=side, controller=controller, sheet=sheet))  # type: ignore[arg-type]

    def body(self, cid: str) -> Body:
        return body_of(self.state, cid)

    def health(self, cid: str) -> int:
        return health(self.state.combatants[cid].sheet, self.body(cid))

    def ap(self, cid: str) -> int:
        return self.state.combatants[cid].action_points

    def held(self, cid: str) -> dict[str, int]:
        return held(self.state.combatants[cid])

    def window(self) -> str:
        w = rules(self.state).window
        assert w is not None and not w.settled, "no reaction window waits"
        return w.id

    def react(self, cid: str, reaction: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(React(combatant_id=cid, window=self.window(), reaction=reaction, dice=dice))

    def pass_(self, cid: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(PassReaction(combatant_id=cid, window=self.window(), dice=dice))

    def end_turn(self, cid: str, dice: list[int] | None = None) -> list[Event]:
        return self.send(EndTurn(combatant_id=cid, dice=dice))


def started(arwen: dict[str, Any] | None = None, brigand: dict[str, Any] | None = None) -> Fight:
    """Arwen (a player's, first in initiative) against the Brigand (the RM's)."""
    f = Fight()
    f.add("arwen", arwen or ARWEN)
    f.add("brigand", brigand or BRIGAND, side="enemies", controller="gm")
    f.send(RollInitiative(dice=[15, 3]))
    f.send(StartEncounter())
    return f


def of(events: list[Event], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert found, f"no {kind.__name__} in {types(events)}"
    return found[-1]


def types(events: list[Event]) -> list[str]:
    return [msgspec.json.decode(msgspec.json.encode(e))["type"] for e in events]
