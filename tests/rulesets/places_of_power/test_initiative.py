"""Places of Power initiative, through the decider (places-of-power-combat.txt,
"Initiative Check").

Fighters: Alice (+2), Bob (+0), Cara (-1) are players; a Goblin (+1) and an Orc (+3)
are the GM's NPCs. Reported faces are used in the order: players in the order they
were added, then the GM's one die.
"""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import (
    EndTurn,
    InitiativeRolled,
    RemoveCombatant,
    RollInitiative,
    SetTurnOrder,
    StartEncounter,
    TurnOrderSet,
)
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from tests.rulesets.places_of_power.fight import Fight, seeded_dice_in

NPCS = "npcs"


def party() -> Fight:
    f = Fight()
    f.add("alice", modifier=2)
    f.add("bob", modifier=0)
    f.add("goblin", gm=True, modifier=1)
    f.add("cara", modifier=-1)
    f.add("orc", gm=True, modifier=3)
    return f


def rolled(f: Fight, faces: list[int]) -> InitiativeRolled:
    (event,) = f.roll(faces)
    assert isinstance(event, InitiativeRolled)
    return event


# faces: alice 5 (+2 = 7), bob 3 (+0 = 3), cara 12 (-1 = 11), GM 4 (+3 = 7)
FACES = [5, 3, 12, 4]
EXPECTED_ORDER = ["cara", "alice", "goblin", "orc", "bob"]


def test_each_player_rolls_a_d12_plus_their_own_modifier() -> None:
    """"Both the players involved in the combat and the GM roll a D12 and add their
    Initiative Modifier to the value rolled."""
    f = party()
    event = rolled(f, FACES)
    players = {r.who: r for r in event.rolls if r.who != NPCS}
    assert set(players) == {"alice", "bob", "cara"}
    assert {who: (r.die.sides, r.die.face, r.modifier, r.total) for who, r in players.items()} == {
        "alice": (12, 5, 2, 7),
        "bob": (12, 3, 0, 3),
        "cara": (12, 12, -1, 11),
    }
    assert all(r.die.source == "reported" for r in event.rolls)
    assert (f.initiative("alice"), f.initiative("bob"), f.initiative("cara")) == (7, 3, 11)


def test_the_gm_rolls_one_d12_for_all_npcs() -> None:
    """"Both the players involved in the combat and the GM roll a D12": one die per
    player and a single die for the GM, whatever the number of NPCs."""
    f = party()
    event = rolled(f, FACES)
    assert len(event.rolls) == 4  # three players + one GM roll for two NPCs
    (gm,) = [r for r in event.rolls if r.who == NPCS]
    assert (gm.die.sides, gm.die.face, gm.total) == (12, 4, 7)
    assert f.state.group_initiative == {NPCS: 7}
    # NPCs have no individual initiative: they act on the GM's roll
    assert f.initiative("goblin") is None and f.initiative("orc") is None


def test_the_gm_roll_asks_for_exactly_one_die_per_player_plus_one() -> None:
    """A fifth reported face is refused as unused; three are too few."""
    f = party()
    dice = ReportedDice([5, 3, 12, 4, 9])
    f.ruleset.decide(f.state, RollInitiative(), dice)
    with pytest.raises(RuleViolation) as exc:
        dice.check_all_used()
    assert exc.value.code == "dice_unused"
    with pytest.raises(RuleViolation) as exc:
        f.roll([5, 3, 12])
    assert exc.value.code == "dice_missing"
    assert not f.state.initiative_rolled


def test_the_gm_modifier_is_the_highest_npc_modifier() -> None:
    """"The GM's Initiative Modifier is highest individual Initiative Modifier value of
    the enemy NPCs involved in the fight."""
    f = party()
    event = rolled(f, FACES)
    (gm,) = [r for r in event.rolls if r.who == NPCS]
    assert gm.modifier == 3  # the Orc's +3, not the Goblin's +1
    # with the Orc gone, the Goblin's +1 is the highest
    f.send(RemoveCombatant(combatant_id="orc"))
    event = rolled(f, FACES)
    (gm,) = [r for r in event.rolls if r.who == NPCS]
    assert (gm.modifier, gm.total) == (1, 5)


def test_the_gm_modifier_can_be_negative() -> None:
    """"highest individual Initiative Modifier value": with only -2 and -1 NPCs it is -1."""
    f = Fight()
    f.add("alice", modifier=0)
    f.add("rat", gm=True, modifier=-2)
    f.add("bat", gm=True, modifier=-1)
    event = rolled(f, [6, 6])
    (gm,) = [r for r in event.rolls if r.who == NPCS]
    assert (gm.modifier, gm.total) == (-1, 5)
    assert event.order == ["alice", "rat", "bat"]


def test_players_equal_or_higher_go_before_the_gm_lower_after() -> None:
    """"Players who roll equal or higher than the GM take their turn before the GM, and
    players who roll less than the GM take their turn after the GM."

    Cara 11 > GM 7: before. Alice 7 == GM 7 (a tie): before. Bob 3 < 7: after.
    """
    f = party()
    event = rolled(f, FACES)
    assert event.order == EXPECTED_ORDER
    assert f.state.order == EXPECTED_ORDER


def test_one_below_the_gm_goes_after() -> None:
    """"players who roll less than the GM take their turn after the GM": Alice 6 < GM 7."""
    f = party()
    event = rolled(f, [4, 3, 12, 4])  # alice 4 + 2 = 6
    assert event.order == ["cara", "goblin", "orc", "alice", "bob"]


def test_everyone_below_the_gm_means_the_npcs_go_first() -> None:
    f = party()
    event = rolled(f, [1, 1, 1, 12])  # players 3, 1, 0; GM 15
    assert event.order[:2] == ["goblin", "orc"]
    assert set(event.order[2:]) == {"alice", "bob", "cara"}


def test_without_npcs_there_is_no_gm_roll() -> None:
    f = Fight()
    f.add("alice", modifier=2)
    f.add("bob", modifier=0)
    event = rolled(f, [2, 9])
    assert [r.who for r in event.rolls] == ["alice", "bob"]
    assert event.order == ["bob", "alice"]
    assert f.state.group_initiative == {}


def test_seeded_initiative_records_the_dice() -> None:
    """Seeded: every die is written into the event, and ``rolls_used`` advances."""
    f = party()
    (event,) = f.roll()
    dice = seeded_dice_in([event])
    assert [d.index for d in dice] == [0, 1, 2, 3]
    assert all(d.sides == 12 for d in dice)
    assert f.state.rolls_used == 4
    for r in event.rolls:
        assert r.total == r.die.face + r.modifier


# ------------------------------------------------------------------ the GM's order


def test_the_gm_orders_play_within_the_groups() -> None:
    """"The exact order of play within these groupings is specified by the GM"."""
    f = party()
    rolled(f, FACES)
    order = ["alice", "cara", "orc", "goblin", "bob"]
    (event,) = f.send(SetTurnOrder(order=order))
    assert event == TurnOrderSet(order=order)
    assert f.state.order == order
    # initiative values are untouched by a re-order
    assert (f.initiative("alice"), f.initiative("cara"), f.state.group_initiative) == (7, 11, {NPCS: 7})


@pytest.mark.parametrize(
    "order",
    [
        ["cara", "alice", "bob", "goblin", "orc"],  # Bob (3 < 7) moved before the GM
        ["bob", "cara", "alice", "goblin", "orc"],
        ["cara", "goblin", "orc", "alice", "bob"],  # Alice (7 == 7, a tie) moved after the GM
        ["goblin", "orc", "cara", "alice", "bob"],
    ],
)
def test_moving_a_player_across_the_gm_is_refused(order: list[str]) -> None:
    """"the GM can change the narrative order of play at any time, as long as the players
    relative position to the GMs turn remains the same"."""
    f = party()
    rolled(f, FACES)
    before = f.state
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=order))
    assert exc.value.code == "invalid_turn_order"
    assert f.state is before and f.state.order == EXPECTED_ORDER


def test_splitting_the_npcs_is_refused() -> None:
    """The GM rolls once for all NPCs: they act together, on the GM's turn."""
    f = party()
    rolled(f, FACES)
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=["cara", "goblin", "alice", "orc", "bob"]))
    assert exc.value.code == "invalid_turn_order"
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=["cara", "alice", "goblin", "bob", "orc"]))
    assert exc.value.code == "invalid_turn_order"
    assert f.state.order == EXPECTED_ORDER


@pytest.mark.parametrize(
    "order",
    [
        ["cara", "alice", "goblin", "orc"],  # Bob missing
        ["cara", "alice", "goblin", "orc", "bob", "bob"],  # Bob twice
        ["cara", "alice", "goblin", "orc", "zed"],  # a stranger instead of Bob
    ],
)
def test_the_order_must_name_everyone_once(order: list[str]) -> None:
    f = party()
    rolled(f, FACES)
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=order))
    assert exc.value.code == "invalid_turn_order"


def test_setting_the_order_needs_initiative() -> None:
    f = party()
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=EXPECTED_ORDER))
    assert exc.value.code == "initiative_not_rolled"


def test_the_gm_can_reorder_during_the_fight_within_the_groups() -> None:
    """"the GM can change the narrative order of play at any time, as long as the players
    relative position to the GMs turn remains the same"."""
    f = party()
    rolled(f, FACES)
    f.start()
    f.end_round()
    f.send(SetTurnOrder(order=["alice", "cara", "orc", "goblin", "bob"]))
    assert f.state.order == ["alice", "cara", "orc", "goblin", "bob"]
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=["alice", "cara", "bob", "orc", "goblin"]))
    assert exc.value.code == "invalid_turn_order"


def turns_until_next_round(f: Fight) -> list[str]:
    seen = []
    start = f.state.round
    while f.state.round == start:
        seen.append(f.turn)
        f.end_turn()
    return seen


def test_reordering_mid_round_gives_nobody_a_second_turn() -> None:
    """"the GM can change the narrative order of play at any time": at any time, so also
    in the middle of a round; the round still gives everyone one turn ("On a players turn,
    they can Move, perform a number of Free Actions, and carry out as many Actions as they
    can afford"; a round is the turns of everyone in the order of play).

    Cara has had her turn; the GM moves her after Alice: Cara does not act again this
    round.
    """
    f = party()
    rolled(f, FACES)
    f.start()
    assert f.turn == "cara"
    f.end_turn()  # Cara has acted in round 1
    assert f.turn == "alice"
    f.send(SetTurnOrder(order=["alice", "cara", "goblin", "orc", "bob"]))
    assert f.turn == "alice"  # the turn in progress stays with Alice
    assert turns_until_next_round(f) == ["alice", "goblin", "orc", "bob"]
    assert f.state.round == 2
    assert turns_until_next_round(f) == ["alice", "cara", "goblin", "orc", "bob"]


def test_reordering_mid_round_skips_nobody() -> None:
    """"the GM can change the narrative order of play at any time": moving someone who has
    not acted yet ahead of the combatant whose turn it is does not cost them their turn."""
    f = party()
    rolled(f, FACES)
    f.start()
    assert f.turn == "cara"
    f.send(SetTurnOrder(order=["alice", "cara", "goblin", "orc", "bob"]))
    assert f.turn == "cara"  # the turn in progress stays with Cara
    seen = turns_until_next_round(f)
    assert seen[0] == "cara"
    assert sorted(seen) == ["alice", "bob", "cara", "goblin", "orc"]  # Alice too, once each
    assert f.state.round == 2
    assert turns_until_next_round(f) == ["alice", "cara", "goblin", "orc", "bob"]


def test_an_npc_joining_mid_fight_acts_on_the_gms_turn() -> None:
    """The GM rolls one D12 for all NPCs ("Both the players involved in the combat and the
    GM roll a D12"), and "players who roll less than the GM take their turn after the GM":
    an NPC joining the fight acts with the other NPCs on the GM's turn, not after the
    players who act after the GM. The order the engine builds is one it accepts."""
    f = party()
    rolled(f, FACES)
    f.start()
    assert f.state.order == ["cara", "alice", "goblin", "orc", "bob"]
    f.add("wolf", gm=True, modifier=4)
    assert f.state.order == ["cara", "alice", "goblin", "orc", "wolf", "bob"]
    f.send(SetTurnOrder(order=list(f.state.order)))  # accepted: the GM's turn is in one piece
    f.end_round()
    assert turns_until_next_round(f) == ["cara", "alice", "goblin", "orc", "wolf", "bob"]


def test_an_npc_joining_after_all_npcs_left_acts_where_the_gms_turn_falls() -> None:
    """"Players who roll equal or higher than the GM take their turn before the GM, and
    players who roll less than the GM take their turn after the GM": with the GM's roll
    still standing (7), a new NPC goes after Cara (11) and Alice (7), before Bob (3)."""
    f = party()
    rolled(f, FACES)
    f.start()
    f.send(RemoveCombatant(combatant_id="goblin"))
    f.send(RemoveCombatant(combatant_id="orc"))
    assert f.state.order == ["cara", "alice", "bob"]
    f.add("wolf", gm=True)
    assert f.state.order == ["cara", "alice", "wolf", "bob"]
    f.send(SetTurnOrder(order=list(f.state.order)))


# ------------------------------------------------------------------ no automatic re-roll


def test_initiative_is_not_rerolled_each_round() -> None:
    """"Initiative is not automatically re-rolled for every round of combat"."""
    f = party()
    rolled(f, FACES)
    f.start()
    assert (f.state.round, f.turn) == (1, "cara")
    initiatives = {cid: c.initiative for cid, c in f.state.combatants.items()}
    rolls_used = f.state.rolls_used
    events_before = len(f.events)
    for expected_round in (2, 3, 4):
        seen = []
        while f.state.round < expected_round:
            seen.append(f.turn)
            # no dice at all: a roll would raise dice_missing, a face left over dice_unused
            dice = ReportedDice([])
            new = f.ruleset.decide(f.state, EndTurn(combatant_id=f.turn), dice)
            dice.check_all_used()
            for e in new:
                f.state = f.ruleset.evolve(f.state, e)
            f.events.extend(new)
        assert seen == EXPECTED_ORDER  # everyone once, in the rolled order
        assert f.state.round == expected_round
        assert f.state.order == EXPECTED_ORDER
        assert f.turn == "cara"
    assert {cid: c.initiative for cid, c in f.state.combatants.items()} == initiatives
    assert f.state.group_initiative == {NPCS: 7}
    assert f.state.rolls_used == rolls_used
    new_events = f.events[events_before:]
    assert not any(isinstance(e, InitiativeRolled) for e in new_events)
    assert [d for e in new_events for d in e.dice_rolled()] == []


def test_the_gm_rerolls_when_they_send_roll_initiative() -> None:
    """"but only when the GM feels the fundamental aspects of the fight have changed
    enough that the current Initiative order no longer makes sense": a RollInitiative
    during the fight replaces the order and the initiative values."""
    f = party()
    rolled(f, FACES)
    f.start()
    f.end_round()
    assert f.state.order == EXPECTED_ORDER
    # alice 1 + 2 = 3, bob 12 + 0 = 12, cara 2 - 1 = 1, GM 6 + 3 = 9
    event = rolled(f, [1, 12, 2, 6])
    assert event.order == ["bob", "goblin", "orc", "alice", "cara"]
    assert f.state.order == ["bob", "goblin", "orc", "alice", "cara"]
    assert (f.initiative("alice"), f.initiative("bob"), f.initiative("cara")) == (3, 12, 1)
    assert f.state.group_initiative == {NPCS: 9}
    assert f.state.status == "active" and f.state.round == 2


def test_rerolling_mid_round_gives_nobody_a_second_turn() -> None:
    """"Initiative is ... re-rolled ... only when the GM feels the fundamental aspects of
    the fight have changed": a re-roll in the middle of a round sets the order of play; it
    does not give the combatants who already acted this round another turn, nor skip
    those who have not."""
    f = party()
    rolled(f, FACES)
    f.start()
    f.end_turn()  # Cara
    f.end_turn()  # Alice
    assert f.turn == "goblin"
    # alice 1 + 2 = 3, bob 12 + 0 = 12, cara 12 - 1 = 11, GM 6 + 3 = 9
    rolled(f, [1, 12, 12, 6])
    assert f.state.order == ["bob", "cara", "goblin", "orc", "alice"]
    assert f.turn == "goblin"
    seen = turns_until_next_round(f)
    assert seen[0] == "goblin"
    assert sorted(seen) == ["bob", "goblin", "orc"]  # Bob has not acted yet; Alice has
    assert f.state.round == 2
    assert turns_until_next_round(f) == ["bob", "cara", "goblin", "orc", "alice"]


# --------------------------------------------------------------------------- setup


def test_starting_before_initiative_is_refused() -> None:
    f = party()
    with pytest.raises(RuleViolation) as exc:
        f.send(StartEncounter())
    assert exc.value.code == "initiative_not_rolled"
    assert f.state.status == "setup"


def test_adding_a_combatant_after_rolling_requires_a_reroll() -> None:
    f = party()
    rolled(f, FACES)
    assert f.state.initiative_rolled
    f.add("dana", modifier=1)
    assert not f.state.initiative_rolled
    with pytest.raises(RuleViolation) as exc:
        f.send(StartEncounter())
    assert exc.value.code == "initiative_not_rolled"
    with pytest.raises(RuleViolation) as exc:
        f.send(SetTurnOrder(order=[*EXPECTED_ORDER, "dana"]))
    assert exc.value.code == "initiative_not_rolled"
    # dana 10 + 1 = 11 (added last, rolls last among the players)
    event = rolled(f, [5, 3, 12, 10, 4])
    assert [r.who for r in event.rolls] == ["alice", "bob", "cara", "dana", NPCS]
    assert "dana" in f.state.order
    f.start()
    assert f.state.status == "active"
    assert f.state.order.index("dana") < f.state.order.index("goblin")


def test_rolling_with_no_combatants_is_refused() -> None:
    f = Fight()
    with pytest.raises(RuleViolation) as exc:
        f.roll([5])
    assert exc.value.code == "no_combatants"


def test_the_first_turn_is_the_first_in_the_order() -> None:
    f = party()
    rolled(f, FACES)
    f.start()
    assert f.turn == "cara"
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="alice", action="Dash"))
    assert exc.value.code == "not_your_turn"
