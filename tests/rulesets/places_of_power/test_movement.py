"""Range bands, moving, free actions, Dash, Take Cover, Disengaging and Shove
(domain/places_of_power/movement.py), rule by rule, through the decider with reported dice.
Each test quotes the rule it checks (places-of-power-combat.txt).

Half-steps (movement.py's arithmetic): Melee↔Close 2, Close↔Near 2, Near↔Far 4, Far↔Long 8; a
turn's movement is 4, Dash doubles it, Crippled and a Slow Enemy halve it, a Fast Enemy
doubles it.

Fighters: Mira (player: Strength D10, Agility D8, Dexterity D8; Knife D8, Athletics D6,
Brawling D6, Pistol D8; a Knife and a Pistol), Kess (player, Mira's ally: Strength D8,
Agility D8; Athletics D6, Brawling D6) and the Bandit (NPC: Strength D8, Agility D6; Knife
D8, Athletics D6, Brawling D6; a Knife). Initiative: Mira, Kess, then the Bandit, unless a
test says otherwise. Everyone starts round 1 with 3 Action Points.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.encounter import AddCombatant, Command, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import Attack
from domain.places_of_power.grapples import Grapple
from domain.places_of_power.hits import SetHits
from domain.places_of_power.movement import (
    Disengage,
    DisengageRolled,
    FreeAction,
    FreeActionTaken,
    Move,
    Moved,
    RangeSet,
    SetRange,
    Shove,
    ShoveRolled,
    band_between,
    half_steps,
    positions,
)
from domain.places_of_power.non_lethal import NonLethalAttack
from domain.places_of_power.statuses import ApplyStatus
from tests.rulesets.places_of_power.fight import Fight

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
SWORD = {"name": "Sword", "skill": "Sword", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 3}, "Close": {"difficulty": "Normal", "damage": 3}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Close": {"difficulty": "Normal", "damage": 3}, "Near": {"difficulty": "Normal", "damage": 3},
                     "Far": {"difficulty": "Difficult", "damage": 2}}}
SHIELD = {"name": "Shield", "skill": "Brawling", "kind": "melee", "shield": True,
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 1}}}
MIRA: dict[str, Any] = {
    "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Brawling": "D6", "Pistol": "D8"},
    "weapons": [KNIFE, PISTOL],
}
KESS: dict[str, Any] = {"attributes": {"strength": "D8", "agility": "D8"},
                        "skills": {"Athletics": "D6", "Brawling": "D6"}}
BANDIT: dict[str, Any] = {
    "attributes": {"strength": "D8", "agility": "D6"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Brawling": "D6", "Sword": "D8"},
    "weapons": [KNIFE],
}
# An Enemy played from a Stat Block (the reduced skill list).
ENEMY: dict[str, Any] = {
    "attributes": {"strength": "D8", "agility": "D6"},
    "skills": {"Melee": "D8", "Athletics": "D6"},
    "weapons": [{**KNIFE, "skill": "Melee"}],
}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def fight(mira: dict[str, Any] | None = None, bandit: dict[str, Any] | None = None, *,
          kess: dict[str, Any] | None = None, bandit_first: bool = False) -> Fight:
    """Mira, Kess and the Bandit, round 1 begun; Mira first (or the Bandit, ``bandit_first``)."""
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=mira or MIRA))
    f.send(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player", sheet=kess or KESS))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm",
                        sheet=bandit or BANDIT))
    f.roll([1, 2, 12] if bandit_first else [12, 11, 1])
    f.start()
    return f


def place(f: Fight, a: str, b: str, band: str) -> None:
    f.send(SetRange(a=a, b=b, band=band))


def band(f: Fight, a: str = "mira", b: str = "bandit") -> str | None:
    return band_between(f.state, a, b)


def move(f: Fight, band_to: str, who: str = "mira", toward: str = "bandit") -> list[Event]:
    return f.send(Move(combatant_id=who, toward=toward, band=band_to))


def refused(f: Fight, command: Command) -> RuleViolation:
    """The command is refused and nothing changes."""
    before = f.state
    with pytest.raises(RuleViolation) as caught:
        f.send(command)
    assert f.state == before
    return caught.value


def next_turn_of(f: Fight, who: str) -> None:
    """End turns until ``who`` has the turn again."""
    f.end_turn()
    while f.turn != who:
        f.end_turn()


def sheet(f: Fight, who: str) -> Any:
    return f.state.combatants[who].sheet


# ---------------------------------------------------------------------- range bands


def test_the_gm_places_two_combatants_at_a_band() -> None:
    """"Everything in a combat encounter is considered to be either at Melee, Close, Near, Far,
    or Long Range." The band is between two combatants, whichever is named first."""
    f = fight()
    assert band(f) is None  # not placed yet
    (placed,) = f.send(SetRange(a="bandit", b="mira", band="Far"))
    assert isinstance(placed, RangeSet) and placed.band == "Far"
    assert band(f, "mira", "bandit") == band(f, "bandit", "mira") == "Far"
    assert band(f, "mira", "kess") is None
    place(f, "mira", "bandit", "Near")  # placed again: the GM re-places as the story says
    assert band(f) == "Near"
    assert refused(f, SetRange(a="mira", b="mira", band="Near")).code == "invalid_target"
    assert refused(f, SetRange(a="mira", b="nobody", band="Near")).code == "unknown_combatant"


def test_the_half_steps_between_bands() -> None:
    """The Movement section's distances as half-steps: a turn's movement (4) reaches Near from
    Melee; Far is "more than a single movement action" away (8); Long "at least four turns"
    (16)."""
    assert half_steps("Melee", "Close") == 2
    assert half_steps("Close", "Near") == 2
    assert half_steps("Melee", "Near") == 4
    assert half_steps("Near", "Far") == 4
    assert half_steps("Far", "Melee") == 8
    assert half_steps("Far", "Long") == 8
    assert half_steps("Long", "Melee") == 16


def test_moving_needs_the_gm_to_have_placed_them() -> None:
    """A move is toward or away from another combatant the GM has placed."""
    f = fight()
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Melee")).code == "range_unknown"
    place(f, "mira", "bandit", "Near")
    assert refused(f, Move(combatant_id="mira", toward="mira", band="Melee")).code == "invalid_target"
    assert refused(f, Move(combatant_id="mira", toward="nobody", band="Melee")).code == "invalid_target"
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Near")).code == "already_there"
    assert refused(f, Move(combatant_id="kess", toward="bandit", band="Near")).code == "not_your_turn"


# --------------------------------------------------------------------------- moving


def test_near_is_reached_in_one_move() -> None:
    """"Near: Things that are Near of you can be reached on your turn by using your movement
    action." Once the movement is used, there is no more this turn."""
    f = fight()
    place(f, "mira", "kess", "Near")
    (moved,) = move(f, "Melee", toward="kess")
    assert isinstance(moved, Moved)
    assert (moved.from_band, moved.band, moved.half_steps, moved.free) == ("Near", "Melee", 4, False)
    assert band(f, "mira", "kess") == "Melee"
    assert f.ap("mira") == 3  # moving costs no Action Point
    e = refused(f, Move(combatant_id="mira", toward="kess", band="Close"))
    assert e.code == "too_far" and e.details == {"needed": 2, "left": 0}


def test_movement_can_be_split_into_smaller_movements() -> None:
    """"You can perform your movements and actions in any order, and can even split your
    movement into multiple smaller movements if you wish.\""""
    f = fight()
    place(f, "mira", "bandit", "Near")
    place(f, "mira", "kess", "Melee")
    move(f, "Close", toward="kess")  # 2 half-steps away from Kess
    assert positions(f.state).used == 2
    move(f, "Close")  # 2 more toward the Bandit
    assert (band(f, "mira", "kess"), band(f)) == ("Close", "Close")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Melee"))
    assert e.code == "too_far" and e.details == {"needed": 2, "left": 0}


def test_far_needs_two_turns() -> None:
    """"Far: Any item or enemy described as being Far from the player will required more than a
    single movement action to reach, but no more than three." Far to Near this turn, Near to
    Melee the next: the turn's movement comes back each turn."""
    f = fight()
    place(f, "mira", "bandit", "Far")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Melee"))
    assert e.code == "too_far" and e.details == {"needed": 8, "left": 4}
    assert "Dash" in e.message
    move(f, "Near")
    next_turn_of(f, "mira")
    assert positions(f.state).used == 0
    move(f, "Melee")
    assert band(f) == "Melee"


def test_dash_reaches_far_in_a_single_turn() -> None:
    """"You can spend an Action Point to use your Dash ability to reach something that is Far
    from you in a single turn." "Dash (1 AP): Double your normal movement range for this
    turn.\""""
    f = fight()
    place(f, "mira", "bandit", "Far")
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    assert f.ap("mira") == 2
    assert positions(f.state).dashed
    (moved,) = move(f, "Melee")
    assert isinstance(moved, Moved) and moved.half_steps == 8
    assert band(f) == "Melee"


def test_dash_after_part_of_the_movement_doubles_the_turns_movement() -> None:
    """"Double your normal movement range for this turn": the doubling counts what was
    already moved this turn (4 of 8)."""
    f = fight()
    place(f, "mira", "bandit", "Far")
    move(f, "Near")
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Close")).code == "too_far"
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    move(f, "Melee")
    assert band(f) == "Melee"


def test_dash_once_a_turn() -> None:
    """"Dash ... This counts as your movement action for this turn": it doubles the turn's
    movement once; the next turn may Dash again."""
    f = fight()
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    e = refused(f, TakeAction(combatant_id="mira", action="Dash"))
    assert e.code == "already_dashed"
    assert f.ap("mira") == 2
    next_turn_of(f, "kess")  # another combatant's turn: a Dash of their own
    f.send(TakeAction(combatant_id="kess", action="Dash"))
    next_turn_of(f, "mira")
    assert not positions(f.state).dashed
    f.send(TakeAction(combatant_id="mira", action="Dash"))


def test_long_takes_two_turns_dashing_each_turn() -> None:
    """"Long: Things that are at Long range will take at least four turns, or two if you choose
    to Dash each turn, to reach.\""""
    f = fight()
    place(f, "mira", "bandit", "Long")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Near"))
    assert e.code == "too_far" and e.details == {"needed": 12, "left": 4}
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    move(f, "Far")  # 8 half-steps
    next_turn_of(f, "mira")
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Melee")).code == "too_far"
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    move(f, "Melee")
    assert band(f) == "Melee"


def closer(now: str) -> str:
    order = ["Melee", "Close", "Near", "Far", "Long"]
    return order[order.index(now) - 1]


def close_in(f: Fight, who: str, toward: str, turns: int) -> None:
    """On each of ``who``'s next ``turns`` turns, move band by band closer to ``toward`` as far
    as the turn's movement goes (no Dash); a step longer than what is left is begun."""
    for _ in range(turns):
        if f.turn != who:
            next_turn_of(f, who)
        now = band(f, who, toward)
        assert now is not None
        while now != "Melee":
            try:
                f.send(Move(combatant_id=who, toward=toward, band=closer(now)))
            except RuleViolation as e:
                assert e.code == "too_far", e
                break
            if band(f, who, toward) == now:
                break  # a step begun: the turn's movement is spent
            now = band(f, who, toward)
        f.end_turn()


def test_long_is_reached_in_four_turns_without_dashing() -> None:
    """"Long: Things that are at Long range will take at least four turns, or two if you choose
    to Dash each turn, to reach.\""""
    f = fight()
    place(f, "mira", "bandit", "Long")
    close_in(f, "mira", "bandit", turns=4)
    assert band(f) == "Melee"


def test_a_crippled_combatant_at_far_still_closes_in_slowly() -> None:
    """"Crippled - ... Movement is halved. You cannot use Dash or Climb/Leap actions until this
    effect is healed." Far to Near is one turn's movement: halved, two turns."""
    f = fight()
    f.send(ApplyStatus(combatant_id="mira", status="Crippled"))
    place(f, "mira", "bandit", "Far")
    close_in(f, "mira", "bandit", turns=2)
    assert band(f) == "Near"


def test_a_slow_enemy_at_far_still_closes_in_slowly() -> None:
    """"A Speed value: ... Slow reduces their movement to half": Far to Near in two turns."""
    f = fight(bandit=with_(ENEMY, stat_block={"speed": "Slow"}), bandit_first=True)
    place(f, "mira", "bandit", "Far")
    close_in(f, "bandit", "mira", turns=2)
    assert band(f) == "Near"


def test_crippled_halves_movement_and_bars_dash() -> None:
    """"Crippled - A leg or major joint is impaired, hampering movement. Movement is halved. You
    cannot use Dash or Climb/Leap actions until this effect is healed.\""""
    f = fight()
    f.send(ApplyStatus(combatant_id="mira", status="Crippled"))
    place(f, "mira", "bandit", "Near")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Melee"))
    assert e.code == "too_far" and e.details == {"needed": 4, "left": 2}
    move(f, "Close")
    assert band(f) == "Close"
    assert refused(f, TakeAction(combatant_id="mira", action="Dash")).code == "crippled"


@pytest.mark.parametrize(("speed", "reach", "too_far"), [
    # "Normal means they move like a regular Player Character"
    ("Normal", "Melee", None),
    # "Slow reduces their movement to half"
    ("Slow", "Close", "Melee"),
    # "Fast allows them to move as if using the Dash ability, but without paying the Action
    # Point cost": Far to Melee in one turn.
    ("Fast", "Melee", None),
])
def test_an_enemys_speed(speed: str, reach: str, too_far: str | None) -> None:
    """"A Speed value: This dictates how the Enemy moves. Normal means they move like a regular
    Player Character, Slow reduces their movement to half, and Fast allows them to move as if
    using the Dash ability, but without paying the Action Point cost.\""""
    f = fight(bandit=with_(ENEMY, stat_block={"speed": speed}), bandit_first=True)
    start = "Far" if speed == "Fast" else "Near"
    place(f, "mira", "bandit", start)
    if too_far is not None:
        e = refused(f, Move(combatant_id="bandit", toward="mira", band=too_far))
        assert e.code == "too_far"
    move(f, reach, who="bandit", toward="mira")
    assert band(f) == reach
    assert f.ap("bandit") == 3  # no Action Point paid, Fast included


def test_a_fast_enemy_cannot_go_further_than_a_dash() -> None:
    """Fast: "as if using the Dash ability": Far to Melee (8), not Long to Near (12)."""
    f = fight(bandit=with_(ENEMY, stat_block={"speed": "Fast"}), bandit_first=True)
    place(f, "mira", "bandit", "Long")
    e = refused(f, Move(combatant_id="bandit", toward="mira", band="Near"))
    assert e.code == "too_far" and e.details == {"needed": 12, "left": 8}


# --------------------------------------------------------------------------- gates


def test_a_prone_combatant_must_stand_first() -> None:
    """"Prone - You have been knocked to the ground. ... You will need to spend 1 Action Point
    to regain your feet." "Stand (1 AP): ... This does not stop you from subsequently using
    your Movement action, or your Free Movement action.\""""
    f = fight(mira=with_(MIRA, prone=True))
    place(f, "mira", "bandit", "Near")
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Melee")).code == "prone"
    f.send(TakeAction(combatant_id="mira", action="Stand"))
    assert f.ap("mira") == 2
    move(f, "Melee")
    assert band(f) == "Melee"


def test_entangled_cannot_move() -> None:
    """"Entangled - ... You are unable to move until you perform a successful Athletics +
    Strength/Agility check\""""
    f = fight()
    f.send(ApplyStatus(combatant_id="mira", status="Entangled"))
    place(f, "mira", "bandit", "Near")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Melee"))
    assert e.code == "cannot_move" and e.details == {"status": "Entangled"}


def test_paralysed_cannot_move() -> None:
    """"Paralysed - ... You cannot move or act whilst in this condition.\""""
    f = fight()
    f.send(ApplyStatus(combatant_id="mira", status="Paralysed"))
    place(f, "mira", "bandit", "Near")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Melee"))
    assert e.code in ("cannot_move", "cannot_act") and e.details == {"status": "Paralysed"}
    e = refused(f, FreeAction(combatant_id="mira", kind="ShoutCommand", words="Run!"))
    assert e.code == "cannot_act"


def test_a_helpless_combatant_cannot_move() -> None:
    """"Hit 4: Helpless - ... You are unable to perform ANY actions on your own.\""""
    f = fight()
    f.send(SetHits(combatant_id="mira", hits=4))
    place(f, "mira", "bandit", "Near")
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Close")).code == "cannot_act"


def test_held_in_a_grapple_cannot_move() -> None:
    """Grapple: "If you succeed then your opponent is in your grip and unable to move.\""""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    # Strength D10 + Brawling D6: 9 + 5 = 14 against the Bandit's 2 + 3 = 5: held.
    f.send(Grapple(combatant_id="mira", target="bandit", dice=[9, 5, 2, 3]))
    assert f.state.rules.grapples == {"bandit": "mira"}
    place(f, "kess", "bandit", "Near")
    next_turn_of(f, "bandit")
    e = refused(f, Move(combatant_id="bandit", toward="kess", band="Far"))
    assert e.code == "cannot_move"


def test_frightened_cannot_move_closer_to_the_source() -> None:
    """"Frightened - You're overcome with fear. ... You cannot choose to move closer to the
    source of your fear." Away from it, or closer to someone else, is allowed."""
    f = fight()
    f.send(ApplyStatus(combatant_id="mira", status="Frightened", source="bandit"))
    place(f, "mira", "bandit", "Near")
    place(f, "mira", "kess", "Close")
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Close")).code == "frightened"
    e = refused(f, FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="bandit", band="Melee"))
    assert e.code == "frightened"
    f.send(FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="kess", band="Melee"))
    move(f, "Far")  # away from the Bandit
    assert (band(f), band(f, "mira", "kess")) == ("Far", "Melee")


def test_engaged_in_melee_cannot_walk_away() -> None:
    """"if you are stuck in melee combat that is not always the easiest thing to do. If you
    wish to pull back from melee combat you must spend 1 Action Point and roll an Athletics +
    Agility Check": a combatant at Melee with an able enemy cannot Move (nor take a Small
    Change of Position) until they Disengage."""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    place(f, "mira", "kess", "Near")
    e = refused(f, Move(combatant_id="mira", toward="bandit", band="Close"))
    assert e.code == "engaged_in_melee" and "Bandit" in e.message
    assert refused(f, Move(combatant_id="mira", toward="kess", band="Close")).code == "engaged_in_melee"
    e = refused(f, FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="bandit", band="Close"))
    assert e.code == "engaged_in_melee"


def test_an_ally_or_a_helpless_enemy_at_melee_does_not_hold_you() -> None:
    """Melee with someone on your own side, or with an enemy who cannot fight (Helpless), is not
    being "stuck in melee combat"."""
    f = fight()
    place(f, "mira", "kess", "Melee")
    move(f, "Close", toward="kess")
    assert band(f, "mira", "kess") == "Close"
    f = fight(bandit=with_(BANDIT, hits=4))
    place(f, "mira", "bandit", "Melee")
    move(f, "Near")
    assert band(f) == "Near"
    assert refused(f, Disengage(combatant_id="mira", dice=[8, 6])).code == "not_in_melee"


# ----------------------------------------------------------------------- free actions


def test_a_small_change_of_position_is_free_and_only_between_melee_and_close() -> None:
    """"Close: To reach an object in Close range you will need to use a free action to get near
    enough to touch it with your hands." "Small Change of Position (Quick Movement)": Melee to
    Close and back, without using the turn's movement or an Action Point."""
    f = fight()
    place(f, "mira", "kess", "Close")
    place(f, "mira", "bandit", "Near")
    moved, taken = f.send(FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="kess",
                                     band="Melee"))
    assert isinstance(moved, Moved) and (moved.half_steps, moved.free) == (0, True)
    assert isinstance(taken, FreeActionTaken) and taken.kind == "SmallChangeOfPosition"
    assert band(f, "mira", "kess") == "Melee"
    assert positions(f.state).used == 0 and f.ap("mira") == 3
    move(f, "Melee")  # the whole movement is still there: Near to Melee
    e = refused(f, FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="kess", band="Close"))
    assert e.code == "free_action_used"


def test_a_small_change_of_position_goes_no_further_than_close() -> None:
    f = fight()
    place(f, "mira", "bandit", "Near")
    e = refused(f, FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="bandit", band="Close"))
    assert e.code == "too_far"
    e = refused(f, FreeAction(combatant_id="mira", kind="SmallChangeOfPosition"))
    assert e.code == "missing_detail"


def test_one_free_action_of_each_type_a_turn() -> None:
    """"Free Actions are minor actions that the player can perform without spending Action
    Points. You can perform as many of these Free Actions as you like on your turn, but only
    one of each type.\""""
    f = fight()
    (shout,) = f.send(FreeAction(combatant_id="mira", kind="ShoutCommand", words="Flank him!"))
    assert isinstance(shout, FreeActionTaken) and shout.words == "Flank him!"
    f.send(FreeAction(combatant_id="mira", kind="DrawWeapon", item="Pistol"))
    f.send(FreeAction(combatant_id="mira", kind="Drop", item="Knife"))
    assert f.ap("mira") == 3
    e = refused(f, FreeAction(combatant_id="mira", kind="ShoutCommand", words="Now!"))
    assert e.code == "free_action_used"
    assert refused(f, FreeAction(combatant_id="mira", kind="DrawWeapon", item="Pistol")).code == "free_action_used"
    # Someone else's turn: their own free actions; then Mira's next turn: hers again.
    next_turn_of(f, "kess")
    f.send(FreeAction(combatant_id="kess", kind="ShoutCommand", words="Down!"))
    next_turn_of(f, "mira")
    f.send(FreeAction(combatant_id="mira", kind="ShoutCommand", words="Again!"))


def test_free_actions_need_their_details() -> None:
    """"Shout a Command to another player or NPC (a few short words)"; "Draw an Available
    Weapon": one at hand."""
    f = fight()
    assert refused(f, FreeAction(combatant_id="mira", kind="ShoutCommand")).code == "missing_detail"
    assert refused(f, FreeAction(combatant_id="mira", kind="DrawWeapon")).code == "missing_detail"
    assert refused(f, FreeAction(combatant_id="mira", kind="DrawWeapon", item="Halberd")).code == "unknown_weapon"
    assert refused(f, FreeAction(combatant_id="mira", kind="Drop", item="Halberd")).code == "unknown_weapon"
    e = refused(f, FreeAction(combatant_id="mira", kind="PickUp", item="Knife"))
    assert e.code == "nothing_to_pick_up"


def test_a_dropped_weapon_is_picked_up_after_moving_to_it() -> None:
    """"Drop an Item", "Pick up an Item"; a weapon knocked away "lands Near to them. Should they
    wish to pick it up on their turn they must use their movement action to reach it, and
    their Free Pick Up Action to recover it.\""""
    f = fight()
    place(f, "mira", "bandit", "Near")
    f.send(FreeAction(combatant_id="mira", kind="Drop", item="Knife"))
    assert sheet(f, "mira").dropped_weapons == ["Knife"]
    # Dropped: not at hand for an attack.
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Near",
                          dice=[5, 5]))
    assert e.code == "unknown_weapon"
    assert refused(f, FreeAction(combatant_id="mira", kind="PickUp", item="Knife")).code == "move_first"
    move(f, "Close")
    f.send(FreeAction(combatant_id="mira", kind="PickUp", item="Knife"))
    assert sheet(f, "mira").dropped_weapons == []


# ------------------------------------------------------------------------ take cover


def test_take_cover_then_moving_leaves_it() -> None:
    """"Take Cover (1 AP): ... take cover behind an object that is, at maximum, within close
    range of you." Moving away from the cover leaves it (a Small Change of Position too)."""
    f = fight()
    place(f, "mira", "bandit", "Far")
    place(f, "mira", "kess", "Close")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    assert sheet(f, "mira").in_cover and f.ap("mira") == 2
    move(f, "Near")
    assert not sheet(f, "mira").in_cover
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    assert sheet(f, "mira").in_cover
    f.send(FreeAction(combatant_id="mira", kind="SmallChangeOfPosition", toward="kess", band="Melee"))
    assert not sheet(f, "mira").in_cover


def test_someone_else_moving_does_not_end_your_cover() -> None:
    f = fight()
    place(f, "kess", "bandit", "Near")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    next_turn_of(f, "kess")
    move(f, "Close", who="kess")
    assert sheet(f, "mira").in_cover


# ------------------------------------------------------------------- attacks at range


def test_an_attack_uses_the_tracked_band() -> None:
    """"The difficulty level you are rolling against is dictated by the type of weapon and the
    range you are attempting to use it at": once the GM has placed them, an attack names the
    band they are at."""
    f = fight()
    place(f, "mira", "bandit", "Near")
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee",
                          dice=[5, 5]))
    assert e.code == "wrong_range" and e.details == {"band": "Near"}
    e = refused(f, Attack(combatant_id="mira", target="bandit", attack="Ranged", weapon="Pistol", band="Close",
                          dice=[5, 5]))
    assert e.code == "wrong_range"
    declared, _rolled, *_ = f.send(Attack(combatant_id="mira", target="bandit", attack="Ranged", weapon="Pistol",
                                          band="Near", dice=[1, 2]))
    assert declared.band == "Near"


def test_an_attack_at_an_unplaced_target_names_its_own_band() -> None:
    f = fight()
    declared, *_ = f.send(Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                                 band="Melee", dice=[1, 2]))
    assert declared.band == "Melee"


def test_non_lethal_attacks_reach_melee_or_close() -> None:
    """"Most of these actions can only be used if you are in Melee or Close Range of the target
    you wish to use them on." "Non-Lethal Attack (Varied): ... These generally can only be
    performed at Melee and Close range.\""""
    f = fight()
    place(f, "mira", "bandit", "Near")
    e = refused(f, NonLethalAttack(combatant_id="mira", target="bandit", move="Trip", weapon="Knife",
                                   dice=[5, 5, 1, 2]))
    assert e.code == "out_of_range"
    assert refused(f, Grapple(combatant_id="mira", target="bandit", dice=[9, 5, 2, 3])).code == "out_of_range"
    place(f, "mira", "bandit", "Close")
    (grappled,) = f.send(Grapple(combatant_id="mira", target="bandit", dice=[9, 5, 2, 3]))
    assert grappled.held


# ------------------------------------------------------------------------- disengage


def test_a_successful_disengage_moves_you_out_of_reach_and_keeps_your_movement() -> None:
    """"If you wish to pull back from melee combat you must spend 1 Action Point and roll an
    Athletics + Agility Check at Normal difficulty. If you are successful then you
    automatically move out of range of your opponent. You are then free to move as normal if
    you want to, and you still have your Move Action to do so." The Bandit's Knife reaches
    only Melee: out of its range is Close."""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    # Agility D8 + Athletics D6: 5 + 4 = 9, Normal.
    (rolled,) = f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    assert isinstance(rolled, DisengageRolled)
    assert [d.sides for d in rolled.dice] == [8, 6]
    assert (rolled.total, rolled.difficulty, rolled.success, rolled.action_points) == (9, "Normal", True, 1)
    assert rolled.ranges == {"bandit": "Close"}
    assert band(f) == "Close"
    assert f.ap("mira") == 2


def test_disengage_then_the_whole_move_action() -> None:
    """"you still have your Move Action": the full movement of the turn after disengaging."""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    assert positions(f.state).used == 0
    move(f, "Near")  # Close to Near: 2 half-steps
    assert positions(f.state).used == 2


@pytest.mark.parametrize(("weapons", "out_of_reach"), [
    ([], "Close"),  # bare hands: "brawling ... not useable at this distance" (Close)
    ([KNIFE], "Close"),  # "Short weapons like Knives ... are not useable at this distance"
    ([SWORD], "Near"),  # "objects and enemies in Close range can still be reached using a sword"
])
def test_disengage_goes_to_the_first_band_the_opponent_cannot_reach(weapons: list[Any], out_of_reach: str) -> None:
    """"you automatically move out of range of your opponent": the first band none of their
    melee weapons at hand, nor their bare hands, reaches."""
    f = fight(bandit=with_(BANDIT, weapons=weapons))
    place(f, "mira", "bandit", "Melee")
    (rolled,) = f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    assert rolled.ranges == {"bandit": out_of_reach}
    assert band(f) == out_of_reach


def test_a_dropped_sword_does_not_reach() -> None:
    f = fight(bandit=with_(BANDIT, weapons=[SWORD], dropped_weapons=["Sword"]))
    place(f, "mira", "bandit", "Melee")
    f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    assert band(f) == "Close"


def test_disengage_from_everyone_engaging_you() -> None:
    """Disengaging from two opponents at once: out of reach of each."""
    f = fight(kess=with_(KESS, weapons=[SWORD], skills={"Athletics": "D6", "Sword": "D8"}), bandit_first=True)
    # the Bandit is engaged by Mira (knife) and Kess (sword); the other side for him.
    place(f, "bandit", "mira", "Melee")
    place(f, "bandit", "kess", "Melee")
    # Agility D6 + Athletics D6: 5 + 4 = 9.
    (rolled,) = f.send(Disengage(combatant_id="bandit", dice=[5, 4]))
    assert rolled.ranges == {"mira": "Close", "kess": "Near"}
    assert (band(f, "bandit", "mira"), band(f, "bandit", "kess")) == ("Close", "Near")


def test_a_failed_disengage_keeps_you_in_melee_for_the_round() -> None:
    """"If, however, you fail the Check then you remain in melee combat for that round. You can
    only attempt to disengage once per round.\""""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    (rolled,) = f.send(Disengage(combatant_id="mira", dice=[4, 4]))  # 8 < Normal (9)
    assert not rolled.success and rolled.ranges == {}
    assert band(f) == "Melee" and f.ap("mira") == 2
    assert refused(f, Move(combatant_id="mira", toward="bandit", band="Close")).code == "engaged_in_melee"
    assert refused(f, Disengage(combatant_id="mira", dice=[8, 6])).code == "already_tried"
    f.end_round()
    assert f.turn == "mira" and f.state.round == 2
    (rolled,) = f.send(Disengage(combatant_id="mira", dice=[8, 6]))
    assert rolled.success and band(f) == "Close"


def test_disengage_needs_an_opponent_at_melee_and_an_action_point() -> None:
    """"you must spend 1 Action Point"."""
    f = fight()
    assert refused(f, Disengage(combatant_id="mira", dice=[5, 4])).code == "not_in_melee"
    place(f, "mira", "bandit", "Close")
    assert refused(f, Disengage(combatant_id="mira", dice=[5, 4])).code == "not_in_melee"
    place(f, "mira", "bandit", "Melee")
    f.send(TakeAction(combatant_id="mira", action="ReloadCrossbow"))  # 3 AP: none left
    assert refused(f, Disengage(combatant_id="mira", dice=[5, 4])).code == "not_enough_action_points"


def test_disengage_without_athletics_on_the_sheet_rolls_the_lowest_die() -> None:
    f = fight(mira=with_(MIRA, skills={"Knife": "D8"}))
    place(f, "mira", "bandit", "Melee")
    (rolled,) = f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    assert [d.sides for d in rolled.dice] == [8, 4]


def test_a_wounded_combatant_pays_the_penalty_on_disengaging() -> None:
    """"When your character is Wounded or Afflicted then they must apply Penalty Points when
    performing any actions": Wounded (2 Hits), 1 point; raising the difficulty to Difficult
    makes 10 a failure."""
    f = fight(mira=with_(MIRA, hits=2))
    place(f, "mira", "bandit", "Melee")
    assert refused(f, Disengage(combatant_id="mira", dice=[6, 4])).code == "penalty_points_owed"
    (rolled,) = f.send(Disengage(combatant_id="mira", penalties=["IncreaseDifficulty"], dice=[6, 4]))
    assert (rolled.difficulty, rolled.total, rolled.success) == ("Difficult", 10, False)
    assert band(f) == "Melee"


# ---------------------------------------------------------------------------- shove


def test_a_successful_shove_sends_the_target_to_near() -> None:
    """"Shove (1 AP): You can attempt to move a target that is in Melee or Close range of you
    further way by shoving them. This is handled as an Opposed Roll between your Athletics +
    Strength value and your targets Athletics + Strength value. ... If you succeed then your
    target moves to Near range." Reported dice: Mira's Strength and Athletics dice, then the
    Bandit's."""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    (shoved,) = f.send(Shove(combatant_id="mira", target="bandit", dice=[6, 4, 3, 2]))
    assert isinstance(shoved, ShoveRolled)
    assert [d.sides for d in shoved.dice_rolled()] == [10, 6, 8, 6]
    assert [s.total for s in shoved.roll.sides] == [10, 5]
    assert shoved.success and shoved.roll.winner == "mira" and shoved.action_points == 1
    assert not shoved.fell
    assert band(f) == "Near"
    assert f.ap("mira") == 2
    assert not sheet(f, "bandit").prone
    move(f, "Far")  # no longer in melee: free to walk off
    assert band(f) == "Far"


@pytest.mark.parametrize("faces", [[3, 2, 6, 4], [3, 2, 3, 2]])  # lost, tied
def test_a_failed_shove_does_not_move_the_target(faces: list[int]) -> None:
    """"If your Shove fails then your target does not move." A tie is not a win."""
    f = fight()
    place(f, "mira", "bandit", "Close")
    (shoved,) = f.send(Shove(combatant_id="mira", target="bandit", edge=True, dice=faces))
    assert not shoved.success and not shoved.fell
    assert band(f) == "Close" and f.ap("mira") == 2
    assert not sheet(f, "bandit").prone


def test_a_shield_gives_two() -> None:
    """"If you are armed with a shield you can Shove with that. Doing so gives you +2 to your
    roll." 3 + 2 = 5 loses to 6; with the shield 7 wins; a dropped shield gives nothing."""
    faces = [3, 2, 4, 2]
    plain = fight()
    place(plain, "mira", "bandit", "Melee")
    (shoved,) = plain.send(Shove(combatant_id="mira", target="bandit", dice=faces))
    assert not shoved.success
    shielded = fight(mira=with_(MIRA, weapons=[KNIFE, SHIELD]))
    place(shielded, "mira", "bandit", "Melee")
    (shoved,) = shielded.send(Shove(combatant_id="mira", target="bandit", dice=faces))
    assert shoved.roll.sides[0].bonus == 2 and shoved.roll.sides[0].total == 7
    assert shoved.success and band(shielded) == "Near"
    dropped = fight(mira=with_(MIRA, weapons=[KNIFE, SHIELD], dropped_weapons=["Shield"]))
    place(dropped, "mira", "bandit", "Melee")
    (shoved,) = dropped.send(Shove(combatant_id="mira", target="bandit", dice=faces))
    assert shoved.roll.sides[0].bonus == 0 and not shoved.success


def test_a_shove_over_an_edge_leaves_the_target_prone() -> None:
    """"If they are on the edge of something and shoving them would cause them to fall then the
    GM will apply Fall Damage to the target and they will be considered Prone.\""""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    (shoved,) = f.send(Shove(combatant_id="mira", target="bandit", edge=True, dice=[6, 4, 3, 2]))
    assert shoved.success and shoved.fell
    assert sheet(f, "bandit").prone and band(f) == "Near"


def test_a_shove_reaches_melee_or_close_only() -> None:
    """"You can attempt to move a target that is in Melee or Close range of you\""""
    f = fight()
    place(f, "mira", "bandit", "Near")
    assert refused(f, Shove(combatant_id="mira", target="bandit", dice=[6, 4, 3, 2])).code == "out_of_range"
    assert refused(f, Shove(combatant_id="mira", target="mira", dice=[6, 4, 3, 2])).code == "invalid_target"


# -------------------------------------------------------------------- turn bookkeeping


def test_each_turn_starts_with_fresh_movement() -> None:
    """Movement, Dash and free actions are the turn's: a new turn has them all again."""
    f = fight()
    place(f, "mira", "bandit", "Far")
    f.send(TakeAction(combatant_id="mira", action="Dash"))
    f.send(FreeAction(combatant_id="mira", kind="ShoutCommand", words="Charge!"))
    move(f, "Near")
    p = positions(f.state)
    assert (p.used, p.dashed, p.moved, p.free_actions) == (4, True, True, ["ShoutCommand"])
    f.end_turn()
    p = positions(f.state)
    assert (p.used, p.dashed, p.moved, p.free_actions) == (0, False, False, [])
    assert band(f) == "Near"  # the bands stay
    assert p.disengaged == {}


def test_moving_and_free_actions_are_replayed_from_events() -> None:
    """The state is the fold of the events: replaying them gives the same positions."""
    f = fight()
    place(f, "mira", "bandit", "Melee")
    f.send(Disengage(combatant_id="mira", dice=[5, 4]))
    move(f, "Near")
    f.send(FreeAction(combatant_id="mira", kind="ShoutCommand", words="Back!"))
    assert f.ruleset.replay(f.events) == f.state



def test_a_wounded_combatant_pays_the_shoves_penalty_in_action_points() -> None:
    """An opposed roll has no difficulty to raise: a Wounded shover pays the Penalty Point in
    Action Points (1 + 1), or with one of their dice (test_non_lethal)."""
    f = fight(mira=with_(MIRA, hits=2))
    place(f, "mira", "bandit", "Melee")
    assert refused(f, Shove(combatant_id="mira", target="bandit", dice=[6, 4, 3, 2])).code == "penalty_points_owed"
    e = refused(f, Shove(combatant_id="mira", target="bandit", penalties=["IncreaseDifficulty"], dice=[6, 4, 3, 2]))
    assert e.code == "penalty_not_applicable"
    (shoved,) = f.send(Shove(combatant_id="mira", target="bandit", penalties=["IncreaseCost"], dice=[6, 4, 3, 2]))
    assert shoved.action_points == 2 and f.ap("mira") == 1


def test_a_helpless_combatant_cannot_shove() -> None:
    """"Hit 4: Helpless - You have been rendered Unconscious. You are unable to perform ANY
    actions on your own.\""""
    f = fight()
    f.send(SetHits(combatant_id="mira", hits=4))
    place(f, "mira", "bandit", "Melee")
    assert refused(f, Shove(combatant_id="mira", target="bandit", dice=[6, 4, 3, 2])).code == "cannot_act"


def test_a_helpless_combatant_cannot_dash() -> None:
    """"Hit 4: Helpless - ... You are unable to perform ANY actions on your own.\""""
    f = fight()
    f.send(SetHits(combatant_id="mira", hits=4))
    assert refused(f, TakeAction(combatant_id="mira", action="Dash")).code == "cannot_act"


def test_a_target_without_athletics_on_the_sheet_can_still_be_shoved() -> None:
    """"an Opposed Roll between your Athletics + Strength value and your targets Athletics +
    Strength value\""""
    f = fight(bandit=with_(ENEMY, skills={"Melee": "D8"}, stat_block={}))
    place(f, "mira", "bandit", "Melee")
    (shoved,) = f.send(Shove(combatant_id="mira", target="bandit", dice=[6, 4, 3, 2]))
    assert [d.sides for d in shoved.roll.sides[1].dice] == [8, 4]
    assert shoved.success and band(f) == "Near"
