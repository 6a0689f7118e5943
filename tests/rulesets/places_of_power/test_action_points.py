"""Places of Power Action Points, through the decider (places-of-power-combat.txt: the
Action Points paragraph at the top, the common actions list, and "Enemies").

Fighters: Alice (player) rolls 12 and goes before the GM, then the Bandit (NPC).
"""

from __future__ import annotations

import pytest

from domain.core.dice import seed_commitment
from domain.core.encounter import (
    AddCombatant,
    EncounterEnded,
    EndEncounter,
    EndTurn,
    RollInitiative,
    RoundStarted,
    SetTurnOrder,
    StartEncounter,
)
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import ACTION_COSTS, ActionTaken, TakeAction
from tests.rulesets.places_of_power.fight import SEED, Fight


def fight(*, players: int = 1) -> Fight:
    """Alice (and Bob) before the GM; the Bandit acts on the GM's turn."""
    f = Fight()
    f.add("alice", modifier=0)
    if players > 1:
        f.add("bob", modifier=0)
    f.add("bandit", gm=True, modifier=0)
    f.roll([12] * players + [1])
    f.start()
    return f


def act(f: Fight, action: str, cid: str | None = None) -> ActionTaken:
    (event,) = f.send(TakeAction(combatant_id=cid or f.turn, action=action))
    assert isinstance(event, ActionTaken)
    return event


def test_players_receive_3_at_the_start_of_the_first_round() -> None:
    """"At the start of each round all players engaged in the combat receive 3 Action
    Points"."""
    f = fight(players=2)
    started = [e for e in f.events if isinstance(e, RoundStarted)]
    assert started == [RoundStarted(round=1, action_points={"alice": 3, "bob": 3, "bandit": 3})]
    assert (f.ap("alice"), f.ap("bob")) == (3, 3)


def test_player_action_points_carry_over_up_to_6() -> None:
    """"Any Action Points they have remaining from the previous round are carried over,
    but only up to a maximum of 6 Action Points in total."

    3 -> spend 1 -> 2 -> next round 5 -> next round 6 (capped, not 8) -> stays 6.
    """
    f = fight()
    assert f.ap("alice") == 3
    act(f, "NotchArrow")
    assert f.ap("alice") == 2
    f.end_round()
    assert (f.state.round, f.ap("alice")) == (2, 5)
    f.end_round()
    assert (f.state.round, f.ap("alice")) == (3, 6)
    f.end_round()
    assert (f.state.round, f.ap("alice")) == (4, 6)
    # spend 3 of the 6: 3 + 3 = 6 again next round; spend all 6: 0 + 3 = 3
    act(f, "ReloadCrossbow")
    f.end_round()
    assert f.ap("alice") == 6
    act(f, "ReloadCrossbow")
    act(f, "InventoryItem")
    assert f.ap("alice") == 0
    f.end_round()
    assert f.ap("alice") == 3


def test_player_with_1_left_gets_4() -> None:
    """"receive 3 Action Points" on top of what "they have remaining": 1 + 3 = 4."""
    f = fight()
    act(f, "NotchArrow")
    act(f, "NotchArrow")
    f.end_round()
    assert f.ap("alice") == 4


def test_enemies_start_the_first_round_with_3() -> None:
    """"In the first round of combat, all Enemies start with 3 Action Points."."""
    f = fight()
    assert f.ap("bandit") == 3


def test_enemies_do_not_carry_over_and_get_a_set_4() -> None:
    """"However, unlike Player Characters, they cannot carry over Action Points to
    following rounds. Instead, they start every subsequent round of combat with a set 4
    Action Points."

    Unspent (3 left) -> 4, not 7; two spent (1 left) -> 4, not 5; all spent -> 4.
    """
    f = fight()
    f.end_round()
    assert (f.state.round, f.ap("bandit")) == (2, 4)
    f.end_round()
    assert (f.state.round, f.ap("bandit")) == (3, 4)
    f.end_turn("alice")
    act(f, "NotchArrow", "bandit")
    act(f, "NotchArrow", "bandit")
    assert f.ap("bandit") == 2
    f.end_turn("bandit")
    assert (f.state.round, f.ap("bandit")) == (4, 4)
    f.end_turn("alice")
    act(f, "EquipArmour", "bandit")
    act(f, "NotchArrow", "bandit")
    assert f.ap("bandit") == 0
    f.end_turn("bandit")
    assert (f.state.round, f.ap("bandit")) == (5, 4)


def test_an_npc_joining_in_round_1_gets_3_and_later_4() -> None:
    """"In the first round of combat, all Enemies start with 3 Action Points" ... "they
    start every subsequent round of combat with a set 4 Action Points"."""
    f = fight()
    f.add("wolf", gm=True)
    assert f.ap("wolf") == 3
    f.end_round()
    f.add("crow", gm=True)
    assert (f.state.round, f.ap("crow"), f.ap("wolf")) == (2, 4, 4)


def test_a_player_joining_mid_fight_receives_3() -> None:
    """"At the start of each round all players engaged in the combat receive 3"."""
    f = fight()
    f.end_round()
    f.add("bob")
    assert f.ap("bob") == 3
    f.end_round()
    assert f.ap("bob") == 6


# ----------------------------------------------------------------------- costs

COSTS = [
    ("Dash", 1, "Dash (1 AP): Double your normal movement range for this turn."),
    ("TakeCover", 1, "Take Cover (1 AP): If you’ve used all of your movement/free movement actions you can "
                     "spend an Action Point specifically to take cover"),
    ("NotchArrow", 1, "Notch Arrow (1 AP): Draw and notch a new arrow to a bow."),
    ("ReloadCrossbow", 3, "Reload Crossbow (3 AP): Reload a crossbow or similar weapon."),
    ("InventoryItem", 3, "Inventory Item (3 AP): Remove an item from a bag or other container you are carrying."),
    ("EquipArmour", 3, "Equip/Remove Armour (3 AP): Unless otherwise stated you can equip or remove pieces of "
                       "armour during a fight."),
    ("RemoveArmour", 3, "Equip/Remove Armour (3 AP): Unless otherwise stated you can equip or remove pieces of "
                        "armour during a fight."),
]


@pytest.mark.parametrize(("action", "cost", "rule"), COSTS, ids=[c[0] for c in COSTS])
def test_common_action_costs_match_the_text(action: str, cost: int, rule: str) -> None:
    """Each case quotes its line of the common actions list."""
    assert f"({cost} AP)" in rule
    assert ACTION_COSTS[action][0] == cost
    f = fight()
    event = act(f, action)
    assert event == ActionTaken(combatant_id="alice", action=action, action_points=cost)
    assert f.ap("alice") == 3 - cost


def test_every_listed_action_is_covered() -> None:
    assert set(ACTION_COSTS) == {a for a, _, _ in COSTS} | {"Stand", "ReloadGun", "ClimbLeap"}


def test_climbing_or_leaping_costs_one_and_the_gm_sets_the_check() -> None:
    """Quotes: "Climb/Leap (1 AP): ... require you to spend an Action Point, and successfully
    roll an Athletics Check (difficulty set by the GM based on what you are trying to do)"
    — the check is the GM's CallForCheck."""
    assert ACTION_COSTS["ClimbLeap"][0] == 1
    f = fight()
    assert act(f, "ClimbLeap") == ActionTaken(combatant_id="alice", action="ClimbLeap", action_points=1)


def test_reloading_a_gun_takes_the_action_points_of_two_turns() -> None:
    """Quotes: "Reload Gun (6 AP): Reload a pistol, musket, or rifle. This is a complex action
    and requires all of the Action Points you can accumulate in two turns."
    """
    assert ACTION_COSTS["ReloadGun"][0] == 6
    f = fight()
    with pytest.raises(RuleViolation) as e:
        act(f, "ReloadGun")
    assert e.value.code == "not_enough_action_points"


def test_stand_costs_one_and_needs_prone() -> None:
    """Quotes: "Stand (1 AP): This only applies if you have previously been rendered Prone by an
    attack. You must spend 1 Action Point to get back up again."
    """
    assert ACTION_COSTS["Stand"][0] == 1
    f = fight()
    with pytest.raises(RuleViolation) as e:
        act(f, "Stand")
    assert e.value.code == "not_prone"


# ----------------------------------------------------------------- cannot afford


def test_an_action_you_cannot_afford_is_refused() -> None:
    """"If you do not have enough Action Points to pay the cost of a given action then
    you cannot perform it."."""
    f = fight()
    act(f, "NotchArrow")  # 2 left
    before = f.state
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="alice", action="ReloadCrossbow"))
    assert exc.value.code == "not_enough_action_points"
    assert exc.value.details == {"available": 2, "cost": 3}
    message = exc.value.message
    assert "Alice" in message and "2 Action Points" in message and "costs 3" in message
    assert "ReloadCrossbow" in message
    assert f.state is before and f.ap("alice") == 2
    # exactly enough is enough: 2 arrows notched at 1 leave 0
    act(f, "NotchArrow")
    act(f, "NotchArrow")
    assert f.ap("alice") == 0
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="alice", action="NotchArrow"))
    assert exc.value.code == "not_enough_action_points"
    assert "0 Action Points" in exc.value.message and "costs 1" in exc.value.message
    assert f.ap("alice") == 0


def test_the_refusal_says_point_for_one() -> None:
    f = fight()
    act(f, "NotchArrow")
    act(f, "NotchArrow")
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="alice", action="EquipArmour"))
    assert "Alice has 1 Action Point left" in exc.value.message
    assert f.ap("alice") == 1


def test_an_npc_cannot_overspend_either() -> None:
    """Enemies: "As with Player Characters, all Actions taken by Enemies require Action Points"."""
    f = fight()
    f.end_turn("alice")
    act(f, "NotchArrow", "bandit")
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="bandit", action="ReloadCrossbow"))
    assert exc.value.code == "not_enough_action_points"
    assert "Bandit" in exc.value.message
    assert f.ap("bandit") == 2


# -------------------------------------------------------------------- turn and life


def test_taking_an_action_off_your_turn_is_refused() -> None:
    """"On a players turn, they can ... carry out as many Actions as they can afford"."""
    f = fight()
    assert f.turn == "alice"
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="bandit", action="NotchArrow"))
    assert exc.value.code == "not_your_turn"
    assert "Alice" in exc.value.message
    assert f.ap("bandit") == 3
    with pytest.raises(RuleViolation) as exc:
        f.send(EndTurn(combatant_id="bandit"))
    assert exc.value.code == "not_your_turn"


def test_taking_an_action_before_the_fight_is_refused() -> None:
    f = Fight()
    f.add("alice")
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="alice", action="NotchArrow"))
    assert exc.value.code == "encounter_not_started"


def test_unknown_combatant_is_refused() -> None:
    f = fight()
    with pytest.raises(RuleViolation) as exc:
        f.send(TakeAction(combatant_id="nobody", action="NotchArrow"))
    assert exc.value.code == "unknown_combatant"


@pytest.mark.parametrize(
    "command",
    [
        TakeAction(combatant_id="alice", action="NotchArrow"),
        EndTurn(combatant_id="alice"),
        AddCombatant(combatant_id="late", name="Late", side="party", controller="player"),
        RollInitiative(),
        SetTurnOrder(order=["alice", "bandit"]),
        StartEncounter(),
        EndEncounter(),
    ],
    ids=lambda c: type(c).__name__,
)
def test_commands_after_the_end_are_refused(command: object) -> None:
    f = fight()
    f.send(EndEncounter())
    ended = f.state
    with pytest.raises(RuleViolation) as exc:
        f.send(command)  # type: ignore[arg-type]
    assert exc.value.code == "encounter_ended"
    assert f.state is ended and f.state.status == "ended"


def test_ending_reveals_the_seed() -> None:
    """DESIGN.md: "The seed is revealed when the encounter ends ... and anyone can
    re-derive every roll"; it matches the SHA-256 published when the encounter opened."""
    f = fight()
    (event,) = f.send(EndEncounter())
    assert event == EncounterEnded(seed=SEED.hex())
    assert f.state.seed == SEED.hex()
    assert f.state.turn is None
    assert seed_commitment(bytes.fromhex(f.state.seed)) == f.state.seed_sha256


def test_non_combat_tasks_and_abilities_cost_what_the_gm_sets() -> None:
    """"Non-Combat Task" and "Use Ability" in the common actions: the GM sets the cost."""
    from domain.places_of_power.actions import GmCostedAction

    f = fight()
    event = f.send(GmCostedAction(combatant_id="alice", action="NonCombatTask", description="Bar the door",
                                  action_points=2))[0]
    assert event == ActionTaken(combatant_id="alice", action="NonCombatTask", action_points=2,
                                description="Bar the door")
    assert f.ap("alice") == 1
    with pytest.raises(RuleViolation) as e:
        f.send(GmCostedAction(combatant_id="alice", action="UseAbility", description="Second wind", action_points=2))
    assert e.value.code == "not_enough_action_points"
