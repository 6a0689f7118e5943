"""domain/core must fit all four rulesets: its Action Point budgets and turn-order schemes
are checked against each ruleset's own text, directly and through small test rulesets
built on the core ``Ruleset`` lifecycle (the way realms/, novus/ and health_trauma/ will
plug in).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import msgspec
import pytest

from domain.core.action_points import (
    ActionPointBudget,
    CarryOverBudget,
    RoundGrantBudget,
    TurnResetBudget,
)
from domain.core.dice import Dice, ReportedDice
from domain.core.encounter import (
    AddCombatant,
    Combatant,
    Command,
    EncounterState,
    EndTurn,
    Event,
    InitiativeRoll,
    InitiativeRolled,
    RollInitiative,
    RoundStarted,
    SetTurnOrder,
    StartEncounter,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import (
    Entry,
    order_alternating_sides,
    order_around_gm,
    order_declare_low_resolve_high,
    order_descending,
)
from domain.core.ruleset import Ruleset, replace
from domain.places_of_power.action_points import NPC_BUDGET, PLAYER_BUDGET

# ----------------------------------------------------------------- test rulesets


class FakeSheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    initiative_bonus: int = 0
    acuity: int = 0
    hasted: bool = False


class Spend(Command, tag="Spend"):
    """Spend Action Points on an action (on your turn) or a reaction (off it)."""

    combatant_id: str
    action_points: int


class Spent(Event, tag="Spent"):
    combatant_id: str
    action_points: int


class CoreRuleset(Ruleset):
    """The core lifecycle with a budget and an order scheme plugged in."""

    id = "test"
    name = "Test"
    sheet_type = FakeSheet
    extra_commands = (Spend,)
    extra_events = (Spent,)
    die: ClassVar[int] = 20

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # each test ruleset below sets its own rhythm

    def order(self, entries: list[Entry]) -> list[str]:
        return order_descending(entries)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        rolls, entries = [], []
        for c in sorted(state.combatants.values(), key=lambda c: c.seq):
            die = dice.roll(self.die, f"initiative: {c.name}")
            total = die.face + c.sheet.initiative_bonus
            rolls.append(InitiativeRoll(who=c.id, die=die, modifier=c.sheet.initiative_bonus, total=total))
            entries.append(Entry(c.id, total, c.seq, side=c.side, tiebreak=c.sheet.acuity))
        return InitiativeRolled(rolls=rolls, order=self.order(entries))

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        assert isinstance(command, Spend)
        self.require_active(state)
        c = self.combatant(state, command.combatant_id)
        self.spend_action_points(c, command.action_points, "that")
        return [Spent(combatant_id=c.id, action_points=command.action_points)]

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        assert isinstance(event, Spent)
        combatants = dict(state.combatants)
        c = combatants[event.combatant_id]
        combatants[c.id] = replace(c, action_points=c.action_points - event.action_points)
        return replace(state, combatants=combatants)


class RealmsLike(CoreRuleset):
    id = "realms-test"

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return TurnResetBudget(maximum=4, amount=4)

    def order(self, entries: list[Entry]) -> list[str]:
        return order_alternating_sides(entries)


class NovusLike(CoreRuleset):
    id = "novus-test"
    die = 10

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        ap = 10 if combatant.sheet.hasted else 5
        return RoundGrantBudget(maximum=ap, first_round=ap, per_round=ap)


class HealthTraumaLike(CoreRuleset):
    id = "health-trauma-test"

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return ActionPointBudget(maximum=0)  # turns are split into fractions, not AP


class Table:
    """A fight under a test ruleset, driven with reported dice."""

    def __init__(self, ruleset: CoreRuleset) -> None:
        self.ruleset = ruleset
        self.state = ruleset.replay(ruleset.open("enc-1", "Test fight", "reported", "00" * 32))
        self.events: list[Event] = []

    def send(self, command: Command, faces: list[int] | None = None) -> list[Event]:
        dice = ReportedDice(faces or [])
        new = self.ruleset.decide(self.state, command, dice)
        dice.check_all_used()
        for e in new:
            self.state = self.ruleset.evolve(self.state, e)
        self.events.extend(new)
        return new

    def add(self, cid: str, side: str, **sheet: object) -> None:
        self.send(AddCombatant(combatant_id=cid, name=cid, side=side, controller="player", sheet=dict(sheet)))

    def ap(self, cid: str) -> int:
        return self.state.combatants[cid].action_points

    def end_turn(self) -> list[Event]:
        assert self.state.turn is not None
        return self.send(EndTurn(combatant_id=self.state.turn))


# ---------------------------------------------------------------------- RealmsRPG


def test_realms_turn_reset_budget() -> None:
    """RealmsRPG: "At the start of combat and the end of each of your turns, your Action
    Points (AP) are set to 4"."""
    budget = TurnResetBudget(maximum=4, amount=4)
    assert budget.at_combat_start() == 4
    assert budget.at_round_start(budget.at_combat_start(), 1) == 4
    for left in (0, 1, 3, 4):
        assert budget.at_turn_end(left) == 4
        # a new round is not a reset: only your own turn's end is
        assert budget.at_round_start(left, 2) == left


def test_realms_action_points_through_the_core_lifecycle() -> None:
    """RealmsRPG: "At the start of combat and the end of each of your turns, your Action
    Points (AP) are set to 4" and "outside your turn, AP can be used for Reactions"."""
    t = Table(RealmsLike())
    t.add("hero", "allies")
    t.add("brute", "enemies")
    t.send(RollInitiative(), [15, 5])
    t.send(StartEncounter())
    assert (t.ap("hero"), t.ap("brute")) == (4, 4)  # "At the start of combat"
    assert t.state.turn == "hero"
    t.send(Spend(combatant_id="hero", action_points=3))
    assert t.ap("hero") == 1
    t.end_turn()  # "the end of each of your turns"
    assert t.ap("hero") == 4
    assert t.state.turn == "brute"
    t.send(Spend(combatant_id="hero", action_points=1))  # a reaction on the brute's turn
    t.send(Spend(combatant_id="brute", action_points=4))
    assert (t.ap("hero"), t.ap("brute")) == (3, 0)
    t.end_turn()
    # round 2: the brute was reset at the end of its turn; the hero keeps 3 until theirs ends
    assert t.state.round == 2
    assert (t.ap("hero"), t.ap("brute")) == (3, 4)
    t.end_turn()
    assert t.ap("hero") == 4


def realms_example_entries() -> list[Entry]:
    """"The players roll 13, 4, and 4. Player 3 has 2 Acuity and Player 2 has 3 so they
    will go first." ... "The enemies roll 14, 10, 8, 6, and 4."

    Player 3 is added before Player 2, so only the Acuity tiebreak can put Player 2 first.
    """
    return [
        Entry("player-1", 13, 0, side="players", tiebreak=0),
        Entry("player-3", 4, 1, side="players", tiebreak=2),
        Entry("player-2", 4, 2, side="players", tiebreak=3),
        Entry("enemy-1", 14, 3, side="enemies"),
        Entry("enemy-2", 10, 4, side="enemies"),
        Entry("enemy-3", 8, 5, side="enemies"),
        Entry("enemy-4", 6, 6, side="enemies"),
        Entry("enemy-5", 4, 7, side="enemies"),
    ]


REALMS_EXAMPLE_ORDER = [
    "enemy-1",  # "Enemy 1 (14) - Highest overall roll"
    "player-1",  # "Player 1 (13)"
    "enemy-2",  # "Enemy 2 (10)"
    "player-2",  # "Player 2 (4 - ACU 3)"
    "enemy-3",  # "Enemy 3 (8)"
    "player-3",  # "Player 3 (4 - ACU 2)"
    "enemy-4",  # "Enemy 4 (6)"
    "enemy-5",  # "Enemy 5 (4)"
]


def test_realms_alternating_order_matches_the_example() -> None:
    """"Initiative order alternates between allies and enemies, starting with the side
    that has the highest individual roll. In the case of ties the creature with the
    higher Acuity goes first"; the text's own example."""
    assert order_alternating_sides(realms_example_entries()) == REALMS_EXAMPLE_ORDER


def test_realms_alternating_order_through_the_core_lifecycle() -> None:
    """The same example rolled through a ruleset on the core ``Ruleset`` (d20 + 0)."""
    t = Table(RealmsLike())
    for e in realms_example_entries():
        t.add(e.combatant_id, e.side, acuity=e.tiebreak)
    faces = [e.total for e in realms_example_entries()]
    (event,) = t.send(RollInitiative(), faces)
    assert event.order == REALMS_EXAMPLE_ORDER
    t.send(StartEncounter())
    # "Once all creatures have acted, the round ends, and the next round starts with the
    # first creature in the initiative order."
    seen = []
    while t.state.round == 1:
        seen.append(t.state.turn)
        t.end_turn()
    assert seen == REALMS_EXAMPLE_ORDER
    assert t.state.turn == "enemy-1"


def test_realms_players_start_when_they_have_the_highest_roll() -> None:
    """"starting with the side that has the highest individual roll"."""
    entries = [
        Entry("p1", 18, 0, side="players"),
        Entry("p2", 2, 1, side="players"),
        Entry("e1", 17, 2, side="enemies"),
        Entry("e2", 16, 3, side="enemies"),
        Entry("e3", 15, 4, side="enemies"),
    ]
    assert order_alternating_sides(entries) == ["p1", "e1", "p2", "e2", "e3"]


def test_realms_a_tie_for_the_highest_roll_goes_to_higher_acuity() -> None:
    """"In the case of ties the creature with the higher Acuity goes first": a tie for
    the highest roll across the sides decides which side starts."""
    entries = [
        Entry("e1", 14, 0, side="enemies", tiebreak=1),
        Entry("p1", 14, 1, side="players", tiebreak=3),
        Entry("e2", 9, 2, side="enemies"),
    ]
    assert order_alternating_sides(entries) == ["p1", "e1", "e2"]
    entries = [replace_entry(e, tiebreak=5) if e.combatant_id == "e1" else e for e in entries]
    assert order_alternating_sides(entries) == ["e1", "p1", "e2"]


def test_realms_same_roll_and_acuity_the_realm_master_decides() -> None:
    """"if this is the same the Realm Master or players decide who goes first": by
    default the order they were added, and the core lets the Realm Master set it."""
    t = Table(RealmsLike())
    t.add("a", "players", acuity=2)
    t.add("b", "players", acuity=2)
    t.add("x", "enemies")
    (event,) = t.send(RollInitiative(), [10, 10, 3])
    assert event.order == ["a", "x", "b"]
    t.send(SetTurnOrder(order=["b", "x", "a"]))
    assert t.state.order == ["b", "x", "a"]


def test_alternating_sides_of_nobody_is_empty() -> None:
    assert order_alternating_sides([]) == []


# -------------------------------------------------------------------------- Novus


def test_novus_round_grant_budget() -> None:
    """"Normally a character has only 5 Action Points to use in a given round. However,
    some spells and items can Haste the character, giving him a total of 10 AP for the
    round.\""""
    normal = RoundGrantBudget(maximum=5, first_round=5, per_round=5)
    hasted = RoundGrantBudget(maximum=10, first_round=10, per_round=10)
    assert normal.at_round_start(normal.at_combat_start(), 1) == 5
    assert hasted.at_round_start(hasted.at_combat_start(), 1) == 10
    for left in (0, 2, 5):
        assert normal.at_round_start(left, 2) == 5  # "in a given round": nothing carried
        assert normal.at_turn_end(left) == left
    for left in (0, 7, 10):
        assert hasted.at_round_start(left, 3) == 10


def test_novus_action_points_through_the_core_lifecycle() -> None:
    """Novus: "Normally a character has only 5 Action Points to use in a given round" ...
    Hasted, "giving him a total of 10 AP for the round"."""
    t = Table(NovusLike())
    t.add("knight", "party")
    t.add("mage", "party", hasted=True)
    t.send(RollInitiative(), [9, 1])  # one d10 each here; the order does not matter
    t.send(StartEncounter())
    assert t.events[-1] == RoundStarted(round=1, action_points={"knight": 5, "mage": 10})
    t.send(Spend(combatant_id="knight", action_points=5))
    with pytest.raises(RuleViolation) as exc:
        t.send(Spend(combatant_id="knight", action_points=1))
    assert exc.value.code == "not_enough_action_points"
    t.send(Spend(combatant_id="mage", action_points=8))  # "may allow the character to declare multiple attacks"
    while t.state.round == 1:
        t.end_turn()
    assert (t.ap("knight"), t.ap("mage")) == (5, 10)
    with pytest.raises(RuleViolation):
        t.send(Spend(combatant_id="knight", action_points=6))


def test_novus_declare_low_resolve_high() -> None:
    """README (Novus facts): "Initiative: 2d10 + Speed bonus + Wisdom bonus, rolled once
    per combat; actions are declared from lowest initiative to highest and resolved from
    highest to lowest"."""
    entries = [Entry("a", 15, 0), Entry("b", 9, 1), Entry("c", 21, 2), Entry("d", 12, 3)]
    declare, resolve = order_declare_low_resolve_high(entries)
    assert declare == ["b", "d", "a", "c"]
    assert resolve == ["c", "a", "d", "b"]
    assert declare == list(reversed(resolve))


# ------------------------------------------------------------------ health-trauma


def test_health_trauma_descending_order() -> None:
    """health-trauma: "These results will be placed in descending order to Track who acts
    when"."""
    entries = [Entry("pc1", 7, 0), Entry("npc1", 15, 1), Entry("pc2", 11, 2), Entry("npc2", 3, 3)]
    assert order_descending(entries) == ["npc1", "pc2", "pc1", "npc2"]
    # ties keep the order they were added in
    assert order_descending([Entry("x", 5, 1), Entry("y", 5, 0)]) == ["y", "x"]


def test_health_trauma_rounds_descend_through_the_core_lifecycle() -> None:
    """"These results will be placed in descending order to Track who acts when" and
    "Rounds begin at the top of Initiative then descend down Initiative order. A new round
    begins once each participant has completed their turn." "Each participant in combat
    will get one Turn per round."."""
    t = Table(HealthTraumaLike())
    t.add("pc1", "players")
    t.add("npc1", "enemies")
    t.add("pc2", "players")
    t.send(RollInitiative(), [7, 15, 11])
    assert t.state.order == ["npc1", "pc2", "pc1"]
    t.send(StartEncounter())
    for expected_round in (1, 2, 3):
        seen = []
        while t.state.round == expected_round:
            seen.append(t.state.turn)
            t.end_turn()
        assert seen == ["npc1", "pc2", "pc1"]


# ---------------------------------------------------------------- Places of Power


def test_places_of_power_budgets_are_core_budgets() -> None:
    """"receive 3 Action Points ... only up to a maximum of 6" (CarryOverBudget); Enemies
    "start with 3" then "a set 4" (RoundGrantBudget)."""
    assert PLAYER_BUDGET == CarryOverBudget(maximum=6, grant=3)
    assert NPC_BUDGET == RoundGrantBudget(maximum=4, first_round=3, per_round=4)
    ap = PLAYER_BUDGET.at_round_start(PLAYER_BUDGET.at_combat_start(), 1)
    seen = [ap]
    for n in range(2, 6):
        ap = PLAYER_BUDGET.at_round_start(ap, n)
        seen.append(ap)
    assert seen == [3, 6, 6, 6, 6]
    assert [NPC_BUDGET.at_round_start(left, n) for n, left in [(1, 0), (2, 3), (3, 0), (4, 4)]] == [3, 4, 4, 4]


def test_places_of_power_order_around_the_gm() -> None:
    """"Players who roll equal or higher than the GM take their turn before the GM, and
    players who roll less than the GM take their turn after the GM"."""
    players = [Entry("p1", 5, 0), Entry("p2", 9, 1), Entry("p3", 8, 2), Entry("p4", 12, 3)]
    npcs = [Entry("n2", 0, 5), Entry("n1", 0, 4)]
    assert order_around_gm(players, npcs, 8) == ["p4", "p2", "p3", "n1", "n2", "p1"]
    assert order_around_gm(players, npcs, None) == ["p4", "p2", "p3", "p1", "n1", "n2"]
    assert order_around_gm(players, [], 13) == ["p4", "p2", "p3", "p1"]


# ------------------------------------------------------------------------ helpers


def replace_entry(entry: Entry, **changes: object) -> Entry:
    return dataclasses.replace(entry, **changes)  # type: ignore[arg-type]
