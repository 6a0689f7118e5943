"""Steps at the start and end of a turn and of a round that roll dice, append events and can wait
for a decision (``Ruleset.at_turn_start`` / ``at_turn_end`` / ``at_round_start`` /
``at_round_end``, put in place by ``Ruleset.with_steps``), through a small ruleset built here."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll, ReportedDice
from domain.core.encounter import (
    AddCombatant, Combatant, Command, EncounterState, EndTurn, Event, InitiativeRolled,
    RoundStarted, StartEncounter, TurnEnded,
)
from domain.core.errors import RuleViolation, ruleset_codes
from domain.core.pending import Choice, Decision
from domain.core.initiative import surprised_last
from domain.core.resources import Resource, Resources, held
from domain.core.ruleset import Ruleset, replace
from tests.rulesets.plain import Plain



class Sheet(msgspec.Struct, kw_only=True):
    frightened: bool = False
    stunned: bool = False
    dying: bool = False


class FearSaved(Event, tag="StepsFearSaved"):
    combatant_id: CombatantId
    die: DieRoll
    passed: bool

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class OvercomeOffered(Event, tag="StepsOvercomeOffered"):
    combatant_id: CombatantId


class OvercomeRolled(Event, tag="StepsOvercomeRolled"):
    combatant_id: CombatantId
    die: DieRoll | None = None

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die] if self.die else []


class DyingDamage(Event, tag="StepsDyingDamage"):
    combatant_id: CombatantId


class RoundOmen(Event, tag="StepsRoundOmen"):
    die: DieRoll

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class Overcome(Command, tag="StepsOvercome"):
    actor_field = "combatant_id"
    combatant_id: CombatantId
    attempt: bool


class Rules(msgspec.Struct, kw_only=True):
    offered: str | None = None  # who is asked whether to overcome, now
    overcome_done: list[str] = msgspec.field(default_factory=list)  # this turn's end is past the step
    damage: dict[str, int] = msgspec.field(default_factory=dict)
    log: list[str] = msgspec.field(default_factory=list)
    hasted: list[str] = msgspec.field(default_factory=list)
    asked: str | None = None  # who is asked for a death save, between rounds
    saved: list[str] = msgspec.field(default_factory=list)  # this round's end is past their save


class Steps(Plain):
    id = "steps"
    name = "Steps"
    sheet_type = Sheet
    own_codes = ruleset_codes({"steps_overcome_first": "Decide whether to overcome first."})
    extra_commands = (Overcome,)
    extra_events = (FearSaved, OvercomeOffered, OvercomeRolled, DyingDamage, RoundOmen)

    def initial_rules(self) -> Rules:
        return Rules()


    def at_round_start(self, state: EncounterState, dice: Dice) -> list[Event]:
        return [RoundOmen(die=dice.roll(6, "omen"))]

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """Health/Trauma: "At the start of the character's turn they must take a Fear MSvs Trauma
        they received from the attack. If the test is failed they are Stunned and can't act on
        their turn." """
        if not state.combatants[combatant_id].sheet.frightened:
            return []
        die = dice.roll(10, "fear save", combatant_id)
        return [FearSaved(combatant_id=combatant_id, die=die, passed=die.face >= 6)]

    def at_turn_end(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """RealmsRPG: "At the end of your turn, before gaining Action Points, you may attempt to
        overcome each condition or effect currently affecting your Character." """
        r: Rules = state.rules
        if not state.combatants[combatant_id].sheet.stunned or combatant_id in r.overcome_done:
            return []
        return [OvercomeOffered(combatant_id=combatant_id)]

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Health/Trauma: "A dying character takes one point of damage at the end of each round." """
        return [DyingDamage(combatant_id=c) for c in state.order if state.combatants[c].sheet.dying]

    def pending(self, state: EncounterState) -> list[Decision]:
        r: Rules = state.rules
        if r.offered is None:
            return []
        return [Decision(id=f"overcome:{state.round}:{r.offered}", kind="overcome", combatant_id=r.offered,
                         command="StepsOvercome", body={"combatant_id": r.offered}, choice_field="attempt",
                         choices=(Choice(name="true"), Choice(name="false")), blocks_turn_end=True)]

    def before_end_turn(self, state: EncounterState) -> None:
        if state.rules.offered is not None:
            raise RuleViolation("steps_overcome_first", "Decide whether to overcome first.")

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        if isinstance(command, Overcome) and state.rules.offered == command.combatant_id:
            die = dice.roll(20, "overcome", command.combatant_id) if command.attempt else None
            return [OvercomeRolled(combatant_id=command.combatant_id, die=die)]
        return super().decide_action(state, command, dice)

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        r: Rules = state.rules
        match event:
            case FearSaved() | RoundOmen():
                r = replace(r, log=[*r.log, type(event).__name__])
            case OvercomeOffered():
                r = replace(r, offered=event.combatant_id)
            case OvercomeRolled():
                r = replace(r, offered=None, overcome_done=[*r.overcome_done, event.combatant_id])
            case DyingDamage():
                r = replace(r, damage={**r.damage, event.combatant_id: r.damage.get(event.combatant_id, 0) + 1})
            case _:
                return super().evolve_action(state, event)
        return replace(state, rules=r)

    def turn_finished(self, state: EncounterState, combatant_id: str) -> EncounterState:
        return replace(state, rules=replace(state.rules, overcome_done=[]))


def _refusal_for(rs: Ruleset, state: EncounterState, command: Command) -> str | None:
    try:
        rs.decide(state, command, ReportedDice([]))
    except RuleViolation as refused:
        return refused.code
    return None


def fight(**sheets: dict) -> tuple[Steps, EncounterState, list[Event]]:
    rs = Steps()
    events = rs.open("e", "steps", "reported", "0" * 64)
    state = rs.replay(events)
    for cid, sheet in sheets.items():
        new = rs.decide(state, AddCombatant(combatant_id=cid, name=cid, side="s", controller="player", sheet=sheet),
                        ReportedDice([]))
        for e in new:
            state = rs.evolve(state, e)
        events += new
    return rs, state, events


def send(rs: Steps, state: EncounterState, events: list[Event], command: Command, faces: list[int]) -> tuple[EncounterState, list[Event]]:
    dice = ReportedDice(faces)
    new = rs.decide(state, command, dice)
    dice.check_all_used()
    for e in new:
        state = rs.evolve(state, e)
    events += new
    return state, new


def test_round_and_turn_start_steps_roll_and_append_events_in_order() -> None:
    from domain.core.encounter import RollInitiative

    rs, state, events = fight(ada={"frightened": True}, bo={})
    state, _ = send(rs, state, events, RollInitiative(), [])
    state, new = send(rs, state, events, StartEncounter(), [4, 7])
    assert [type(e).__name__ for e in new] == ["EncounterStarted", "RoundStarted", "RoundOmen", "FearSaved"]
    assert new[3].passed is True and new[3].die.face == 7
    state, new = send(rs, state, events, EndTurn(combatant_id="ada"), [])
    assert [type(e) for e in new] == [TurnEnded]  # Bo is not frightened: no save
    assert rs.replay(events) == state


def test_a_turn_end_step_waits_for_a_decision_and_the_round_end_step_follows() -> None:
    from domain.core.encounter import RollInitiative

    rs, state, events = fight(ada={"stunned": True, "dying": True})
    state, _ = send(rs, state, events, RollInitiative(), [])
    state, _ = send(rs, state, events, StartEncounter(), [3])
    # the step asks before the turn ends: the turn goes on, waiting on Ada's choice
    state, new = send(rs, state, events, EndTurn(combatant_id="ada"), [])
    assert [type(e) for e in new] == [OvercomeOffered]
    assert state.turn == "ada" and [d.kind for d in rs.pending(state) if d.blocks_turn_end] == ["overcome"]
    with pytest.raises(RuleViolation):
        rs.decide(state, EndTurn(combatant_id="ada"), ReportedDice([]))
    state, new = send(rs, state, events, Overcome(combatant_id="ada", attempt=True), [15])
    assert [type(e) for e in new] == [OvercomeRolled]
    # now the turn ends; the round's end step damages the dying; the next round's start rolls
    state, new = send(rs, state, events, EndTurn(combatant_id="ada"), [2])
    assert [type(e) for e in new] == [TurnEnded, DyingDamage, RoundStarted, RoundOmen]
    assert state.round == 2 and state.rules.damage == {"ada": 1} and state.turn == "ada"
    assert rs.replay(events) == state


def test_a_ruleset_without_steps_decides_as_before() -> None:
    """Places of Power has no steps: ``with_steps`` hands its events back untouched."""
    from domain.places_of_power.ruleset import PlacesOfPower

    pop = PlacesOfPower()
    events: list[Event] = [TurnEnded(combatant_id="a"), RoundStarted(round=2, action_points={})]
    assert pop.with_steps(None, events, ReportedDice([])) is events  # type: ignore[arg-type]


# ------------------------------------------------------------- a round-end step that waits


class DeathSaveAsked(Event, tag="StepsDeathSaveAsked"):
    combatant_id: CombatantId


class DeathSaved(Event, tag="StepsDeathSaved"):
    combatant_id: CombatantId
    die: DieRoll

    def dice_rolled(self) -> list[DieRoll]:
        return [self.die]


class RollDeathSave(Command, tag="StepsRollDeathSave"):
    actor_field = "combatant_id"
    combatant_id: CombatantId


class DeathSaves(Steps):
    """Between rounds, each dying combatant is asked to roll a death save before the next round."""

    extra_commands = (Overcome, RollDeathSave)
    extra_events = Steps.extra_events + (DeathSaveAsked, DeathSaved)

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        waiting = [c for c in state.order if state.combatants[c].sheet.dying and c not in state.rules.saved]
        return [DeathSaveAsked(combatant_id=waiting[0])] if waiting else []

    def pending(self, state: EncounterState) -> list[Decision]:
        asked = state.rules.asked
        if asked is None:
            return super().pending(state)
        return [Decision(id=f"death-save:{state.round}:{asked}", kind="death save", combatant_id=asked,
                         command="StepsRollDeathSave", body={"combatant_id": asked}, blocks_turn_end=True)]

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        if isinstance(command, RollDeathSave) and state.rules.asked == command.combatant_id:
            saved = DeathSaved(combatant_id=command.combatant_id, die=dice.roll(20, "death save", command.combatant_id))
            return [saved, *self.next_round(self.evolve(state, saved), dice)]
        return super().decide_action(state, command, dice)

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        r: Rules = state.rules
        match event:
            case DeathSaveAsked():
                return replace(state, rules=replace(r, asked=event.combatant_id))
            case DeathSaved():
                return replace(state, rules=replace(r, asked=None, saved=[*r.saved, event.combatant_id]))
        return super().evolve_action(state, event)

    def round_began(self, state: EncounterState) -> EncounterState:
        return replace(state, rules=replace(state.rules, saved=[]))


def test_a_round_end_step_waits_for_a_decision_and_its_answer_starts_the_next_round() -> None:
    from domain.core.encounter import RollInitiative

    rs = DeathSaves()
    events = rs.open("e", "steps", "reported", "0" * 64)
    state = rs.replay(events)
    for cid, sheet in (("ada", {"dying": True}), ("bo", {"dying": True})):
        state, _ = send(rs, state, events, AddCombatant(combatant_id=cid, name=cid, side="s", controller="player",
                                                        sheet=sheet), [])
    state, _ = send(rs, state, events, RollInitiative(), [])
    state, _ = send(rs, state, events, StartEncounter(), [1])
    state, _ = send(rs, state, events, EndTurn(combatant_id="ada"), [])
    state, new = send(rs, state, events, EndTurn(combatant_id="bo"), [])
    assert [type(e) for e in new] == [TurnEnded, DeathSaveAsked]
    assert rs.between_rounds(state) and state.round == 1
    assert [(d.kind, d.combatant_id) for d in rs.pending(state)] == [("death save", "ada")]
    state, new = send(rs, state, events, RollDeathSave(combatant_id="ada"), [12])
    # the round-end step runs again (the ruleset's state says Ada is past it): Bo is asked next
    assert [type(e) for e in new] == [DeathSaved, DeathSaveAsked]
    assert _refusal_for(rs, state, EndTurn(combatant_id="ada")) == "not_your_turn"  # nobody's turn between rounds
    state, new = send(rs, state, events, RollDeathSave(combatant_id="bo"), [3, 5])
    assert [type(e) for e in new] == [DeathSaved, RoundStarted, RoundOmen]
    assert state.round == 2 and state.turn == "ada" and not rs.between_rounds(state)
    assert rs.replay(events) == state


# ------------------------------------------------- the order at a round's start; Haste


class Ambush(Steps):
    """Surprised combatants (``sheet.frightened`` stands for surprised here) act last in round 1;
    from round 2 the order is the plain one again; Hasted ones get 10 AP a round, not 5."""

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        rolled = super().roll_initiative(state, dice)
        surprised = {c for c, x in state.combatants.items() if x.sheet.frightened}
        return replace(rolled, order=surprised_last(rolled.order, surprised, 1))

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        return []

    def round_order(self, state: EncounterState) -> list[str] | None:
        return sorted(state.order, key=lambda c: state.combatants[c].seq)

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        return Resources((Resource("ap", 10 if combatant.id in state.rules.hasted else 5, ("round_start",)),))

    def initial_rules(self) -> Rules:
        return Rules(hasted=["bo"])


def test_surprised_parties_act_last_in_round_one_only_and_haste_doubles_the_round_s_ap() -> None:
    """RealmsRPG: "During the first round of Combat, all surprised parties act after the opposing
    side has taken their turns. Subsequent rounds follow the normal initiative order." Novus:
    "some spells and items can Haste the character, giving him a total of 10 AP for the round"."""
    from domain.core.encounter import RollInitiative, TurnOrderSet

    rs = Ambush()
    events = rs.open("e", "steps", "reported", "0" * 64)
    state = rs.replay(events)
    for cid, sheet in (("ada", {"frightened": True}), ("bo", {})):
        state, _ = send(rs, state, events, AddCombatant(combatant_id=cid, name=cid, side="s", controller="player",
                                                        sheet=sheet), [])
    state, _ = send(rs, state, events, RollInitiative(), [])
    assert state.order == ["bo", "ada"]
    state, _ = send(rs, state, events, StartEncounter(), [2])
    assert {c: held(x) for c, x in state.combatants.items()} == {"ada": {"ap": 5}, "bo": {"ap": 10}}
    state, _ = send(rs, state, events, EndTurn(combatant_id="bo"), [])
    state, new = send(rs, state, events, EndTurn(combatant_id="ada"), [4])
    assert [type(e) for e in new] == [TurnEnded, TurnOrderSet, RoundStarted, RoundOmen]
    assert state.order == ["ada", "bo"] and state.turn == "ada" and state.round == 2
    assert rs.replay(events) == state
