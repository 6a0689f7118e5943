"""Duel: a ruleset defined only in the tests, to show what a ruleset tells through its own
hooks (``Ruleset.sentences``, ``exchange``, ``tally``). Its ``AttackDeclared`` has another
shape than Places of Power's (``by`` and ``at``, no ``attacker``/``defender``), and its
lifecycle sentences are core's, in no game's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.core.action_points import ActionPointBudget, RoundGrantBudget
from domain.core.demo import DemoFight, Script, Seat, Send, Table
from domain.core.dice import Dice
from domain.core.encounter import Combatant, EncounterState, Event, InitiativeRoll, InitiativeRolled
from domain.core.log import Sentence, Story
from domain.core.ruleset import Ruleset
from domain.core.tally import Exchange, Step, Tally


class DuelSheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    speed: int = 0


class AttackDeclared(Event, tag="AttackDeclared"):
    """Another ruleset's attack: one blow at several targets."""

    blow: int
    by: str
    at: list[str]


class Struck(Event, tag="Struck"):
    blow: int
    combatant_id: str
    wounds: int


class Shrugged(Event, tag="Shrugged"):
    """An event type the ruleset gives no sentence (``missing_sentences`` finds it)."""

    combatant_id: str


def _declared(d: Mapping[str, Any], s: Story) -> str:
    return f"{s.Who(d.get('by'))} swings at {s.who((d.get('at') or [None])[0])}."


def _struck(d: Mapping[str, Any], s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} takes {d.get('wounds')} wounds."


class Duel(Ruleset):
    id = "duel"
    name = "Duel"
    sheet_type = DuelSheet
    extra_events = (AttackDeclared, Struck, Shrugged)

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return RoundGrantBudget(maximum=3, first_round=3, per_round=3)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        rolls = [InitiativeRoll(who=c.id, die=dice.roll(6, "initiative"), modifier=0, total=0)
                 for c in state.combatants.values()]
        return InitiativeRolled(rolls=rolls, order=[r.who for r in rolls])

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        return state

    def sentences(self) -> Mapping[str, Sentence]:
        return {"AttackDeclared": _declared, "Struck": _struck}

    def exchange(self, event: Event) -> Step | None:
        if isinstance(event, AttackDeclared):
            return Step(event.blow, Exchange(event.blow, event.by, event.at[0]))
        if isinstance(event, Struck):
            return Step(event.blow)
        return None

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        if isinstance(event, AttackDeclared):
            return [Tally(event.by, "attacks_made", len(event.at), event.at[0])]
        if isinstance(event, Struck) and exchange is not None:
            return [Tally(event.combatant_id, "hits_taken", event.wounds, exchange.attacker),
                    Tally(exchange.attacker, "hits_dealt", event.wounds, event.combatant_id)]
        return []


class Dawn(DemoFight):
    """Duel's demo fight: two duellists, who end their turns until the rounds are played."""

    name = "At dawn (fracas demo)"
    cast = (Seat("Mira", "party", "player", {"speed": 2}), Seat("Bandit", "enemies", "gm", {}))

    def play(self, table: Table) -> Script:
        yield Send({"type": "RollInitiative"})
        yield Send({"type": "StartEncounter"})
        while table.state["round"] <= table.rounds:
            turn = table.state["turn"]
            yield Send({"type": "EndTurn", "combatant_id": turn}, turn)

    def summary(self, table: Table) -> list[str]:
        return [f"Both stand after round {table.rounds}."]


class WithDemo(Duel):
    def demo(self) -> DemoFight:
        return Dawn()


class Untold(Duel):
    """Duel with the core defaults: no sentences of its own, counting nothing."""

    id = "duel-untold"

    def sentences(self) -> Mapping[str, Sentence]:
        return {}

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        return Ruleset.tally(self, event, exchange)
