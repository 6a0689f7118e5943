"""Pending decisions through the core alone (issue 18): a ruleset defined here says what its
fight waits for (``Ruleset.pending``), and the core builds from it the prompts each viewer gets
(``projections.prompts``) and the refusal to end a turn while a decision that blocks it waits.

The Standoff ruleset: the combatant whose turn it is must Brace (High, Low, or against one of
the others, by id) before their turn may end; the GM, once, sets the weather (their own
decision, no combatant's).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.dice import Dice, ReportedDice
from domain.core.encounter import (
    AddCombatant,
    Command,
    EncounterState,
    EndTurn,
    Event,
    InitiativeRoll,
    InitiativeRolled,
    RevealCombatant,
    RollInitiative,
    StartEncounter,
)
from domain.core.pending import Choice, Decision, Refusal
from domain.core.ruleset import replace
from projections.prompts import prompts_for
from projections.visibility import GM, Viewer
from tests.contract.pending import check_pending
from tests.rulesets.plain import Plain


class Sheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    initiative: int = 0


class Brace(Command, tag="Brace"):
    actor_field = "combatant_id"
    combatant_id: str
    guard: str


class SetWeather(Command, tag="SetWeather"):
    weather: str


class Braced(Event, tag="Braced"):
    combatant_id: str
    guard: str


class WeatherSet(Event, tag="WeatherSet"):
    weather: str


class Standoff(Plain):
    id = "standoff-test"
    name = "Standoff"
    sheet_type = Sheet
    extra_commands = (Brace, SetWeather)
    extra_events = (Braced, WeatherSet)

    def initial_rules(self) -> Any:
        return {"braced": [], "weather": None}

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        ranked = sorted(state.combatants.values(), key=lambda c: (-c.sheet.initiative, c.seq))
        rolls = [InitiativeRoll(who=c.id, die=dice.roll(1, f"initiative: {c.name}"), modifier=c.sheet.initiative,
                                total=1 + c.sheet.initiative) for c in ranked]
        return InitiativeRolled(rolls=rolls, order=[c.id for c in ranked])

    def pending(self, state: EncounterState) -> list[Decision]:
        out = []
        turn = state.turn
        if state.status == "active" and turn in state.combatants and turn not in state.rules["braced"]:
            guards = ["High", "Low", *(f"against:{c}" for c in state.combatants if c != turn)]
            out.append(Decision(
                id=f"brace:{turn}:{state.round}", kind="brace", combatant_id=turn, command="Brace",
                body={"type": "Brace", "combatant_id": turn}, choice_field="guard",
                choices=tuple(Choice(name=g) for g in guards), blocks_turn_end=True,
                refusal=Refusal(code="combatant_has_turn", message=f"{state.combatants[turn].name} must brace first.",
                                details={"brace": turn}),
            ))
        if state.status == "active" and state.rules["weather"] is None:
            out.append(Decision(id="weather", kind="weather", combatant_id=None, command="SetWeather",
                                body={"type": "SetWeather"}, choice_field="weather",
                                choices=(Choice(name="rain"), Choice(name="fog"))))
        return out

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        if isinstance(command, Brace):
            self.require_turn(state, command.combatant_id)
            return [Braced(combatant_id=command.combatant_id, guard=command.guard)]
        assert isinstance(command, SetWeather)
        return [WeatherSet(weather=command.weather)]

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        r = dict(state.rules)
        if isinstance(event, Braced):
            r["braced"] = [*r["braced"], event.combatant_id]
        elif isinstance(event, WeatherSet):
            r["weather"] = event.weather
        return replace(state, rules=r)

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        return replace(state, rules={**state.rules, "braced": []})


class Table:
    def __init__(self, *cast: tuple[str, str, int, bool]) -> None:
        """``cast``: (id, controller, initiative, hidden), in the order they join."""
        self.ruleset = Standoff()
        self.state = self.ruleset.replay(self.ruleset.open("enc-1", "Standoff", "reported", "00" * 32))
        for cid, controller, initiative, hidden in cast:
            self.send(AddCombatant(combatant_id=cid, name=cid.title(), side=controller, controller=controller,  # type: ignore[arg-type]
                                   sheet={"initiative": initiative}, hidden=hidden))
        self.send(RollInitiative(), faces=[1] * len(cast))  # a one-sided die: the order is the initiatives'
        self.send(StartEncounter())

    def send(self, command: Command, faces: list[int] | None = None) -> list[Event]:
        new = self.ruleset.decide(self.state, command, ReportedDice(faces or []))
        for e in new:
            self.state = self.ruleset.evolve(self.state, e)
        return new

    def prompts(self, viewer: Viewer) -> list[Any]:
        return prompts_for(self.ruleset, self.state, viewer)


def mira(*combatants: str) -> Viewer:
    return Viewer("player", frozenset(combatants))


def test_a_player_is_prompted_for_their_own_combatants_the_gm_for_npcs_and_its_own() -> None:
    """"Pending decisions reach the client that must decide": Mira's turn prompts Mira's player
    only; the weather is the GM's own; a spectator decides nothing."""
    t = Table(("mira", "player", 9, False), ("kess", "player", 5, False), ("bandit", "gm", 1, False))
    (brace,) = t.prompts(mira("mira"))
    assert (brace.id, brace.kind, brace.combatant_id, brace.command, brace.choice_field) == (
        "brace:mira:1", "brace", "mira", "Brace", "guard")
    assert brace.body == {"type": "Brace", "combatant_id": "mira"}
    assert [c.name for c in brace.choices] == ["High", "Low", "against:kess", "against:bandit"]
    assert t.prompts(mira("kess")) == [] and t.prompts(Viewer("spectator")) == []
    assert [p.id for p in t.prompts(GM)] == ["weather"]  # Mira's is her player's: the GM is not prompted
    t.send(Brace(combatant_id="mira", guard="High"))
    t.send(EndTurn(combatant_id="mira"))
    t.send(Brace(combatant_id="kess", guard="Low"))
    t.send(EndTurn(combatant_id="kess"))
    assert [p.id for p in t.prompts(GM)] == ["brace:bandit:1", "weather"]  # an NPC's: the GM's
    check_pending(t.ruleset, t.state)


def test_the_turn_does_not_end_while_a_decision_that_blocks_it_waits() -> None:
    """``Decision.blocks_turn_end``: ending the turn is refused with the decision's own refusal
    (its code, message and details) until it is answered; a decision that does not block (the
    weather) never refuses it."""
    t = Table(("mira", "player", 9, False), ("kess", "player", 5, False))
    with pytest.raises(Exception) as refused:
        t.send(EndTurn(combatant_id="mira"))
    assert (refused.value.code, refused.value.message, refused.value.details) == (  # type: ignore[attr-defined]
        "combatant_has_turn", "Mira must brace first.", {"brace": "mira"})
    t.send(Brace(combatant_id="mira", guard="Low"))
    t.send(EndTurn(combatant_id="mira"))
    assert t.state.turn == "kess" and t.state.rules["weather"] is None


def test_a_blocking_decision_without_a_refusal_of_its_own_is_refused_as_decision_pending() -> None:
    """A decision that blocks the end of the turn and names no refusal still stops it, with the
    lifecycle's ``decision_pending`` naming what is awaited."""

    class Waits(Plain):
        id, name, sheet_type = "waits", "Waits", Sheet

        def pending(self, state: Any) -> list[Decision]:
            return [Decision(id="x:1", kind="x", combatant_id=None, command="Choose", body={},
                             summary="The GM's ruling", blocks_turn_end=True)]

    refused = Waits().turn_end_refusal(None)  # type: ignore[arg-type]
    assert refused is not None and refused.code == "decision_pending"
    assert "The GM's ruling is still awaited (Choose)" in str(refused) and refused.details == {"decision": "x:1"}


def test_prompts_are_read_from_what_the_viewer_may_see() -> None:
    """"A prompt never tells more than the caller's state does": a hidden combatant is no
    choice in another player's prompt, and its own decisions prompt only the GM (an NPC's) or
    its own player, until it is revealed."""
    t = Table(("mira", "player", 9, False), ("assassin", "gm", 5, True), ("shade", "player", 1, True))
    (brace,) = t.prompts(mira("mira"))
    assert [c.name for c in brace.choices] == ["High", "Low"]  # not against the hidden ones
    gm_brace = next(d for d in t.ruleset.pending(t.state) if d.kind == "brace")
    assert [c.name for c in gm_brace.choices] == ["High", "Low", "against:assassin", "against:shade"]
    t.send(Brace(combatant_id="mira", guard="High"))
    t.send(EndTurn(combatant_id="mira"))
    assert t.prompts(mira("mira")) == [] and t.prompts(mira("shade")) == []
    assert [p.id for p in t.prompts(GM)] == ["brace:assassin:1", "weather"]
    check_pending(t.ruleset, t.state)
    t.send(Brace(combatant_id="assassin", guard="High"))
    t.send(EndTurn(combatant_id="assassin"))
    (own,) = t.prompts(mira("shade"))  # the hidden combatant's own player sees it, and themself
    assert [c.name for c in own.choices] == ["High", "Low", "against:mira"]
    t.send(RevealCombatant(combatant_id="assassin"))
    (own,) = t.prompts(mira("shade"))
    assert [c.name for c in own.choices] == ["High", "Low", "against:mira", "against:assassin"]
    check_pending(t.ruleset, t.state)
