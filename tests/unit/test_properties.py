"""Property tests (DESIGN.md, "Habits"): "random legal command sequences never break an
invariant, and replay equals the live state."

A Places of Power encounter with a few players and NPCs (initiative modifiers -2..4),
seeded dice from a random seed, then a random mix of legal commands: TakeAction for the
current combatant when affordable, EndTurn, RollInitiative re-rolls, RemoveCombatant of
a non-current combatant, AddCombatant mid-fight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.encounter import (
    AddCombatant,
    CombatantAdded,
    CombatantRemoved,
    EncounterState,
    EndTurn,
    Event,
    RemoveCombatant,
    RollInitiative,
    RoundStarted,
    SetTurnOrder,
    TurnEnded,
)
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import ACTION_COSTS as ALL_ACTION_COSTS
from domain.places_of_power.actions import TakeAction

# the actions with no precondition (Stand needs the combatant Prone)
# Stand needs a Prone combatant, Dash is once a turn: neither is a plain spend of Action Points
ACTION_COSTS = {a: v for a, v in ALL_ACTION_COSTS.items() if a not in ("Stand", "Dash")}
from tests.rulesets.places_of_power.fight import Fight, seeded_dice_in

MODIFIERS = st.integers(min_value=-2, max_value=4)
MAX_ADDED = 12  # combatants added over a whole fight, mid-fight arrivals included


@dataclass
class Script:
    """The fight and, for a readable failure report, the commands that built it."""

    fight: Fight = field(repr=False)
    setup: list[str]
    steps: list[str]


def legal_moves(f: Fight) -> list[str]:
    s = f.state
    c = s.combatants[f.turn]
    moves = ["end_turn"] * 5  # weighted so that fights last several rounds
    if any(cost <= c.action_points for cost, _ in ACTION_COSTS.values()):
        moves += ["act"] * 3
    moves.append("reroll")
    if len(s.combatants) > 1:
        moves.append("remove")
    if s.combatants_added < MAX_ADDED:
        moves.append("add")
    return moves


@st.composite
def fights(draw: st.DrawFn, *, max_steps: int = 60) -> Script:
    """A started fight, then up to ``max_steps`` random legal commands, all sent."""
    seed = draw(st.binary(min_size=32, max_size=32))
    f = Fight(dice_policy="seeded", seed=seed)
    players = draw(st.lists(MODIFIERS, min_size=1, max_size=3))
    npcs = draw(st.lists(MODIFIERS, min_size=0, max_size=3))
    setup: list[tuple[bool, int]] = [(False, m) for m in players] + [(True, m) for m in npcs]
    setup = draw(st.permutations(setup))
    for i, (gm, mod) in enumerate(setup):
        f.add(f"{'npc' if gm else 'pc'}{i}", gm=gm, modifier=mod)
    f.roll()
    f.start()
    opening = [f"{cid} {c.initiative if c.initiative is not None else ''}" for cid, c in f.state.combatants.items()]
    opening += [f"GM {f.state.group_initiative.get('npcs')}", f"order {f.state.order}"]
    steps = []
    for _ in range(draw(st.integers(min_value=0, max_value=max_steps))):
        move = draw(st.sampled_from(legal_moves(f)))
        s = f.state
        current = s.combatants[f.turn]
        if move == "end_turn":
            steps.append(f"EndTurn {current.id}")
            f.end_turn()
        elif move == "act":
            affordable = sorted(a for a, (cost, _) in ACTION_COSTS.items() if cost <= current.action_points)
            action = draw(st.sampled_from(affordable))
            steps.append(f"TakeAction {current.id} {action}")
            f.send(TakeAction(combatant_id=current.id, action=action))
        elif move == "reroll":
            f.send(RollInitiative())
            steps.append(f"RollInitiative -> {f.state.order}")
        elif move == "remove":
            others = sorted(cid for cid in s.combatants if cid != current.id)
            gone = draw(st.sampled_from(others))
            steps.append(f"RemoveCombatant {gone}")
            f.send(RemoveCombatant(combatant_id=gone))
        elif move == "add":
            gm = draw(st.booleans())
            cid = f"{'npc' if gm else 'pc'}{s.combatants_added}"
            f.add(cid, gm=gm, modifier=draw(MODIFIERS))
            steps.append(f"AddCombatant {cid} -> {f.state.order}")
        check_invariants(f)
    return Script(f, opening, steps)


def check_invariants(f: Fight) -> None:
    s = f.state
    for c in s.combatants.values():
        # players: "only up to a maximum of 6 Action Points in total";
        # NPCs: "they start every subsequent round of combat with a set 4 Action Points"
        top = 6 if c.controller == "player" else 4
        assert 0 <= c.action_points <= top, (c.id, c.action_points)
    assert s.version == len(f.events)
    assert s.rolls_used == len(seeded_dice_in(f.events))
    assert sorted(s.order) == sorted(s.combatants)
    assert s.status == "active"
    assert s.turn in s.combatants


def check_order_around_the_gm(s: EncounterState) -> None:
    """The GM rolls once for all NPCs, so the NPCs act together on the GM's turn; "Players
    who roll equal or higher than the GM take their turn before the GM, and players who
    roll less than the GM take their turn after the GM"."""
    npc_positions = [i for i, cid in enumerate(s.order) if s.combatants[cid].controller == "gm"]
    if not npc_positions:
        return
    first, last = npc_positions[0], npc_positions[-1]
    assert last - first + 1 == len(npc_positions), ("the GM's turn is split", s.order)
    gm_total = s.group_initiative.get("npcs")
    if gm_total is None:
        return
    for i, cid in enumerate(s.order):
        c = s.combatants[cid]
        if c.controller == "player" and c.initiative is not None:
            assert (i < first) == (c.initiative >= gm_total), (cid, c.initiative, gm_total, s.order)


def check_one_turn_per_round(events: list[Event]) -> None:
    """A round is everyone's turn once: nobody ends two turns in one round, and everyone
    still in the fight when a round ends has had their turn in it."""
    present: set[str] = set()
    ended: list[str] = []
    for e in events:
        if isinstance(e, CombatantAdded):
            present.add(e.combatant_id)
        elif isinstance(e, CombatantRemoved):
            present.discard(e.combatant_id)
        elif isinstance(e, TurnEnded):
            assert e.combatant_id not in ended, ("a second turn in one round", e.combatant_id, ended)
            ended.append(e.combatant_id)
        elif isinstance(e, RoundStarted):
            if e.round > 1:
                assert present <= set(ended), ("skipped in a round", sorted(present - set(ended)))
            ended = []


def builtins(state: EncounterState) -> object:
    return msgspec.to_builtins(state)


def json_round_trip(f: Fight, events: list[Event]) -> list[Event]:
    out = []
    for e in events:
        data = msgspec.json.encode(e)
        type_tag = msgspec.json.decode(data)["type"]
        assert type_tag == type(e).__struct_config__.tag
        out.append(f.ruleset.decode_event(type_tag, f.ruleset.schema_versions.get(type_tag, 1), data))
    return out


@settings(max_examples=200, deadline=None)
@given(fights())
def test_legal_sequences_keep_the_invariants(script: Script) -> None:
    """Invariants after every command (checked inside the strategy) and at the end."""
    f = script.fight
    check_invariants(f)
    seeded = seeded_dice_in(f.events)
    assert [d.index for d in seeded] == list(range(len(seeded)))  # each roll number once, in order
    assert all(d.source == "seeded" for e in f.events for d in e.dice_rolled())


@settings(max_examples=200, deadline=None)
@given(fights())
def test_the_gms_turn_stays_in_one_piece(script: Script) -> None:
    """Re-rolls, departures and NPCs joining mid-fight keep the NPCs together on the GM's
    turn and every player on their side of it."""
    f = script.fight
    for state in f.states:  # after every command
        if state.status == "active":
            check_order_around_the_gm(state)
    # and the order the engine built is one the GM may set
    players_without_initiative = [
        c for c in f.state.combatants.values() if c.controller == "player" and c.initiative is None
    ]
    if not players_without_initiative:
        f.send(SetTurnOrder(order=list(f.state.order)))


@settings(max_examples=200, deadline=None)
@given(fights())
def test_everyone_has_one_turn_per_round(script: Script) -> None:
    """Whatever re-rolls, departures and arrivals happen mid-round: nobody gets a second
    turn in a round, and nobody in the fight is skipped."""
    check_one_turn_per_round(script.fight.events)


@settings(max_examples=200, deadline=None)
@given(fights())
def test_replay_equals_the_live_state(script: Script) -> None:
    """DESIGN.md: "Replaying the events of a fight gives the same state, bit for bit"."""
    f = script.fight
    replayed = f.ruleset.replay(f.events)
    assert replayed == f.state
    assert builtins(replayed) == builtins(f.state)
    assert msgspec.json.encode(replayed) == msgspec.json.encode(f.state)


@settings(max_examples=200, deadline=None)
@given(fights())
def test_replay_after_a_json_round_trip_equals_the_live_state(script: Script) -> None:
    """What the event store does: encode each event to JSON, decode it by type tag and
    schema version, replay."""
    f = script.fight
    decoded = json_round_trip(f, f.events)
    assert decoded == f.events
    replayed = f.ruleset.replay(decoded)
    assert replayed == f.state
    assert builtins(replayed) == builtins(f.state)


@settings(max_examples=200, deadline=None)
@given(fights(max_steps=25), st.data())
def test_unaffordable_actions_never_change_the_state(script: Script, data: st.DataObject) -> None:
    """"If you do not have enough Action Points to pay the cost of a given action then you
    cannot perform it": decide refuses, and neither the state nor the history changes."""
    f = script.fight
    current = f.state.combatants[f.turn]
    # spend down with notched arrows until something is unaffordable (every action costs 1 or 3)
    while current.action_points >= 3 and data.draw(st.booleans()):
        f.send(TakeAction(combatant_id=current.id, action="NotchArrow"))
        current = f.state.combatants[f.turn]
    while current.action_points >= 3:
        f.send(TakeAction(combatant_id=current.id, action="ReloadCrossbow"))
        current = f.state.combatants[f.turn]
    unaffordable = sorted(a for a, (cost, _) in ACTION_COSTS.items() if cost > current.action_points)
    assert unaffordable
    action = data.draw(st.sampled_from(unaffordable))
    before = f.state
    snapshot = builtins(before)
    n_events = len(f.events)
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id=current.id, action=action))
    assert exc.value.code == "not_enough_action_points"
    assert exc.value.details == {"available": current.action_points, "cost": ACTION_COSTS[action][0]}
    assert f.state is before
    assert builtins(f.state) == snapshot  # decide did not mutate the state it was given
    assert len(f.events) == n_events


@settings(max_examples=60, deadline=None)
@given(fights(max_steps=25), st.data())
def test_off_turn_commands_never_change_the_state(script: Script, data: st.DataObject) -> None:
    """Only the combatant whose turn it is may act or end the turn ("not_your_turn")."""
    f = script.fight
    others = sorted(cid for cid in f.state.combatants if cid != f.turn)
    if not others:
        return
    who = data.draw(st.sampled_from(others))
    command = data.draw(st.sampled_from([TakeAction(combatant_id=who, action="NotchArrow"), EndTurn(combatant_id=who)]))
    snapshot = builtins(f.state)
    with pytest.raises(RuleViolation) as exc:
        f.send(command)
    assert exc.value.code == "not_your_turn"
    assert builtins(f.state) == snapshot


def test_add_combatant_ids_are_unique_in_the_generator() -> None:
    """The generator names mid-fight combatants by ``combatants_added``; a duplicate id
    would be refused, never silently replace someone."""
    f = Fight()
    f.add("pc0")
    with pytest.raises(RuleViolation) as exc:
        f.send(AddCombatant(combatant_id="pc0", name="Again", side="party", controller="player"))
    assert exc.value.code == "duplicate_combatant"
