"""Status Effects (places-of-power-combat.txt, "Status Effects", "Stabilising & Healing Hits"
and "Hit 4: Helpless"), rule by rule, through the decider with reported dice. Each test
quotes the rule text it checks.

Fighters: Mira (player: Strength D10, Stamina D8, Agility D8, Dexterity D8; Knife D8,
Athletics D6, Medical D6; a Knife; a Coat), Kess (player and healer: Strength D8, Stamina D6,
Agility D6, Dexterity D8, Intelligence D10; Medical D8, Athletics D8, Knife D6; a Knife) and
the Bandit (NPC: Strength D8, Agility D6, Stamina D6; Knife D8, Athletics D6; a Knife; a
Jerkin). Initiative 12, 11 and the GM's 1: Mira, Kess, then the Bandit, each round. Everyone
starts round 1 with 3 Action Points.

Advantage and Disadvantage show in the dice rolled (``checks.dice_for`` steps a die): the
``sides`` of the DieRolls an event carries.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.encounter import AddCombatant, Command, EndTurn, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import (
    Attack,
    AttackDeclared,
    AttackRolled,
    ChooseCriticalEffect,
    Defend,
    Exchange,
    SpendSuccesses,
)
from domain.places_of_power.healing import Heal
from domain.places_of_power.hits import SetHits
from domain.places_of_power.status_effect import Status
from domain.places_of_power.statuses import (
    ApplyStatus,
    BreakLoose,
    RemoveStatus,
    ResolveStatus,
    Stabilise,
    StatusApplied,
    StatusRemoved,
    StatusRolled,
)
from tests.rulesets.places_of_power.fight import Fight, shown

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
MIRA: dict[str, Any] = {
    "attributes": {"strength": "D10", "stamina": "D8", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Medical": "D6"},
    "weapons": [KNIFE],
    "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2}],
}
KESS: dict[str, Any] = {
    "attributes": {"strength": "D8", "stamina": "D6", "agility": "D6", "dexterity": "D8", "intelligence": "D10"},
    "skills": {"Medical": "D8", "Athletics": "D8", "Knife": "D6"},
    "weapons": [KNIFE],
}
BANDIT: dict[str, Any] = {
    "attributes": {"strength": "D8", "agility": "D6", "stamina": "D6"},
    "skills": {"Knife": "D8", "Athletics": "D6"},
    "weapons": [KNIFE],
    "armour": [{"name": "Jerkin", "layer": "Base", "value": 1, "durability": 3}],
}


def fight(*, mira: dict[str, Any] | None = None, kess: dict[str, Any] | None = None,
          before_start: tuple[Command, ...] = (), dice_policy: str = "reported") -> Fight:
    """Mira, Kess and the Bandit, round 1 begun, Mira's turn (``before_start`` sent in setup)."""
    f = Fight(dice_policy=dice_policy)
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=mira or MIRA))
    f.send(AddCombatant(combatant_id="kess", name="Kess", side="party", controller="player", sheet=kess or KESS))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm", sheet=BANDIT))
    f.roll([12, 11, 1])
    for command in before_start:
        f.send(command)
    f.start()
    assert f.state.order == ["mira", "kess", "bandit"] and f.turn == "mira"
    return f


def apply(f: Fight, who: str, status: str, **fields: Any) -> list[Event]:
    return f.send(ApplyStatus(combatant_id=who, status=status, **fields))


def on(f: Fight, who: str) -> dict[str, Status]:
    """The statuses on ``who``'s sheet, by name."""
    return {s.name: s for s in f.state.combatants[who].sheet.statuses}


def refused(f: Fight, command: Command) -> RuleViolation:
    """The command is refused and nothing changes."""
    before, count = f.state, len(f.events)
    with pytest.raises(RuleViolation) as caught:
        f.send(command)
    assert f.state == before and len(f.events) == count
    return caught.value


def end_turns_until(f: Fight, who: str) -> None:
    """End turns (none of them with anything due) until it is ``who``'s turn."""
    f.end_turn()
    while f.turn != who:
        f.end_turn()


def replays(f: Fight) -> None:
    """Replaying the events gives the state the live fight reached."""
    assert f.ruleset.replay(f.events) == f.state


def attack(f: Fight, who: str, target: str, faces: list[int], **extra: Any) -> list[Event]:
    return f.send(Attack(combatant_id=who, target=target, attack="LightMelee", weapon="Knife", band="Melee",
                         dice=faces, **extra))


def rolled_sides(events: list[Event]) -> list[int]:
    (rolled,) = [e for e in events if isinstance(e, AttackRolled)]
    return [d.sides for d in rolled.dice]


def ex(f: Fight) -> Exchange:
    found = shown(f.state).rules.exchange
    assert isinstance(found, Exchange)
    return found


def choices(f: Fight) -> set[str]:
    return {c.name for c in ex(f).choices}


def status_rolled(events: list[Event]) -> StatusRolled:
    (found,) = [e for e in events if isinstance(e, StatusRolled)]
    return found


def hits(f: Fight, who: str) -> int:
    return f.state.combatants[who].sheet.hits


# ------------------------------------------------------------- applying and removing


def test_the_gm_inflicts_a_status_effect_and_removes_it() -> None:
    """"When a character becomes Afflicted the GM can inflict an appropriate Status Effect in
    line with the cause of the Hit. In the majority of cases this is likely to be the effect
    Bleeding" ... "or until actively removed by an action, spell, or another condition.\""""
    f = fight()
    f.send(SetHits(combatant_id="kess", hits=3))
    (applied,) = apply(f, "kess", "Bleeding", reason="a knife across the ribs")
    assert isinstance(applied, StatusApplied)
    bleeding = on(f, "kess")["Bleeding"]
    assert (bleeding.lasts, bleeding.turns, bleeding.round, bleeding.reason, bleeding.due) == (
        "until_removed", 0, 1, "a knife across the ribs", False)
    (removed,) = f.send(RemoveStatus(combatant_id="kess", status="Bleeding", reason="bandaged"))
    assert isinstance(removed, StatusRemoved) and removed.reason == "bandaged"
    assert on(f, "kess") == {}
    replays(f)


def test_several_different_statuses_may_be_borne_at_once_but_not_the_same_twice() -> None:
    """"When a character becomes Afflicted the GM can inflict an appropriate Status Effect ...
    other effects can apply": one of each; the same one again is refused (status_present)."""
    f = fight()
    apply(f, "bandit", "Bleeding")
    apply(f, "bandit", "Burning")
    apply(f, "bandit", "Blinded", lasts="turns", turns=2)
    assert set(on(f, "bandit")) == {"Bleeding", "Burning", "Blinded"}
    assert refused(f, ApplyStatus(combatant_id="bandit", status="Bleeding")).code == "status_present"
    assert refused(f, ApplyStatus(combatant_id="bandit", status="Blinded", lasts="end_of_round")).code == (
        "status_present")


def test_removing_a_status_the_combatant_does_not_have_is_refused() -> None:
    """"until actively removed": only a status that is there can be removed (no_status)."""
    f = fight()
    assert refused(f, RemoveStatus(combatant_id="mira", status="Bleeding")).code == "no_status"
    apply(f, "mira", "Burning")
    assert refused(f, RemoveStatus(combatant_id="mira", status="Bleeding")).code == "no_status"


@pytest.mark.parametrize(("fields", "why"), [
    ({"status": "Blinded", "lasts": "turns"}, "lasting turns names how many"),
    ({"status": "Blinded", "lasts": "turns", "turns": 0}, "turns is at least 1"),
    ({"status": "Frightened"}, "Frightened names the source of the fear"),
    ({"status": "Frightened", "source": "mira"}, "nobody is the source of their own fear"),
    ({"status": "Frightened", "source": "ghost"}, "the source is a combatant in the fight"),
    ({"status": "Blinded", "source": "bandit"}, "only Frightened names a source"),
    ({"status": "Bleeding", "difficulty": "Hard"}, "only Entangled names a difficulty"),
])
def test_a_status_lacking_a_detail_it_needs_is_refused(fields: dict[str, Any], why: str) -> None:
    """"These conditions will last either until the end of the round, a set number of turns,
    or until actively removed" (a number of turns names the number); Frightened: "Any attacks
    or checks against the source of your fear" (it names the source); Entangled: "difficulty
    specified by the GM" (only it names one)."""
    f = fight()
    assert refused(f, ApplyStatus(combatant_id="mira", **fields)).code == "missing_detail", why


def test_a_status_on_an_unknown_combatant_is_refused() -> None:
    f = fight()
    assert refused(f, ApplyStatus(combatant_id="ghost", status="Bleeding")).code == "unknown_combatant"
    assert refused(f, RemoveStatus(combatant_id="ghost", status="Bleeding")).code == "unknown_combatant"


def test_applying_and_removing_are_the_gms_commands() -> None:
    """"the GM can inflict an appropriate Status Effect": ApplyStatus and RemoveStatus name no
    acting combatant (a player's token cannot send them); the settling and the actions do."""
    assert ApplyStatus(combatant_id="mira", status="Bleeding").acting_combatant() is None
    assert RemoveStatus(combatant_id="mira", status="Bleeding").acting_combatant() is None
    assert ResolveStatus(combatant_id="mira", status="Bleeding").acting_combatant() == "mira"
    assert Stabilise(combatant_id="kess", target="mira", status="Bleeding").acting_combatant() == "kess"
    assert BreakLoose(combatant_id="mira").acting_combatant() == "mira"


# ------------------------------------------------------------------------ durations


def test_a_status_lasting_until_the_end_of_the_round_ends_as_the_next_round_begins() -> None:
    """"These conditions will last either until the end of the round, ...\""""
    f = fight()
    apply(f, "bandit", "Blinded", lasts="end_of_round")
    assert on(f, "bandit")["Blinded"].round == 1
    f.end_turn("mira")
    f.end_turn("kess")
    assert "Blinded" in on(f, "bandit")  # the Bandit's own turn, still round 1
    apply(f, "mira", "Exposed", lasts="end_of_round")  # on the round's last turn
    f.end_turn("bandit")
    assert f.state.round == 2
    assert "Blinded" not in on(f, "bandit") and "Exposed" not in on(f, "mira")
    replays(f)


def test_a_status_applied_before_the_fight_to_the_end_of_the_round_ends_as_round_one_begins() -> None:
    """"until the end of the round": one put on in setup (round 0) is gone by round 1."""
    f = fight(before_start=(ApplyStatus(combatant_id="kess", status="Deafened", lasts="end_of_round"),))
    assert on(f, "kess") == {}


def test_a_status_lasting_turns_counts_down_at_the_end_of_each_of_its_bearers_turns() -> None:
    """"These conditions will last ... a set number of turns": the bearer's own turns; other
    combatants' turns do not count."""
    f = fight()
    apply(f, "mira", "Blinded", lasts="turns", turns=2)
    assert on(f, "mira")["Blinded"].turns == 2
    f.end_turn("mira")
    assert on(f, "mira")["Blinded"].turns == 1
    f.end_turn("kess")
    f.end_turn("bandit")
    assert f.state.round == 2 and on(f, "mira")["Blinded"].turns == 1
    f.end_turn("mira")
    assert "Blinded" not in on(f, "mira")
    replays(f)


def test_a_status_lasting_one_turn_applied_between_turns_covers_the_bearers_next_turn() -> None:
    """Paralysed: "Depending on the cause, this effect generally lasts either a single turn or
    until healed": put on during the Bandit's turn, it lasts through Mira's next turn."""
    f = fight()
    end_turns_until(f, "bandit")
    apply(f, "mira", "Paralysed", lasts="turns", turns=1)
    f.end_turn("bandit")
    assert f.turn == "mira" and "Paralysed" in on(f, "mira")
    assert refused(f, TakeAction(combatant_id="mira", action="TakeCover")).code == "cannot_act"
    f.end_turn("mira")
    assert "Paralysed" not in on(f, "mira")
    replays(f)


def test_a_status_lasting_until_removed_stays_round_after_round() -> None:
    """"or until actively removed by an action, spell, or another condition.\""""
    f = fight()
    apply(f, "kess", "Crippled")
    for _ in range(3):
        f.end_round()
    assert f.state.round == 4 and "Crippled" in on(f, "kess")
    f.send(RemoveStatus(combatant_id="kess", status="Crippled"))
    assert on(f, "kess") == {}


# ---------------------------------------------------------------------------- Bleeding


def test_bleeding_falls_due_as_the_bearers_turn_begins_and_bars_everything_else() -> None:
    """Bleeding: "At the start of each turn you roll a Medical + Stamina check": until it is
    rolled (ResolveStatus) the bearer does nothing else, and cannot end the turn (status_due)."""
    f = fight()
    apply(f, "kess", "Bleeding")
    assert on(f, "kess")["Bleeding"].due is False  # not at the start of Kess's turn
    assert refused(f, ResolveStatus(combatant_id="kess", status="Bleeding")).code == "not_your_turn"
    f.end_turn("mira")
    assert f.turn == "kess" and on(f, "kess")["Bleeding"].due is True
    for command in (TakeAction(combatant_id="kess", action="TakeCover"), EndTurn(combatant_id="kess"),
                    Attack(combatant_id="kess", target="bandit", attack="LightMelee", weapon="Knife", band="Melee",
                           dice=[5, 4])):
        violation = refused(f, command)
        assert violation.code == "status_due"
        assert violation.details.get("due") == ["Bleeding"]
    # Kess: Stamina D6 then Medical D8, at Easy (7) on the first turn: 4 + 3 holds.
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="kess", status="Bleeding", dice=[4, 3])))
    assert on(f, "kess")["Bleeding"].due is False
    assert [d.sides for d in rolled.dice] == [6, 8]
    f.send(TakeAction(combatant_id="kess", action="TakeCover"))
    f.end_turn("kess")
    replays(f)


def test_bleeding_put_on_before_the_fight_falls_due_on_the_first_turn() -> None:
    """"At the start of each turn": the very first turn of the fight too."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),))
    assert on(f, "mira")["Bleeding"].due is True
    assert refused(f, EndTurn(combatant_id="mira")).code == "status_due"


def test_a_bleeding_is_rolled_once_a_turn_and_only_when_due() -> None:
    """"At the start of each turn you roll": once; not on a turn it was only just put on
    (nothing_due)."""
    f = fight()
    apply(f, "mira", "Bleeding")
    assert refused(f, ResolveStatus(combatant_id="mira", status="Bleeding", dice=[4, 3])).code == "nothing_due"
    assert refused(f, ResolveStatus(combatant_id="mira", status="Burning")).code == "nothing_due"
    end_turns_until(f, "mira")
    f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[4, 3]))
    assert refused(f, ResolveStatus(combatant_id="mira", status="Bleeding", dice=[4, 3])).code == "nothing_due"


@pytest.mark.parametrize(("faces", "hurt"), [
    ([4, 3], False),  # 7: Easy (7) reached
    ([3, 2], True),   # 5: short of Easy
    ([1, 1], True),   # a double below the target: a Critical Failure, a failure too
    ([8, 6], False),  # both dice at their maximum
])
def test_a_failed_bleeding_check_costs_a_hit(faces: list[int], hurt: bool) -> None:
    """Bleeding: "At the start of each turn you roll a Medical + Stamina check. If you fail
    then you suffer an addition Hit. Difficulty level for the check starts at Easy"; the dice
    are the Stamina die (Mira's D8), then the Medical die (her D6)."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),))
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=faces)))
    assert [d.sides for d in rolled.dice] == [8, 6]
    assert [d.face for d in rolled.dice] == faces and rolled.total == sum(faces)
    assert rolled.difficulty == "Easy" and rolled.check == "Bleeding"
    assert (rolled.hits, hits(f, "mira")) == ((1, 1) if hurt else (0, 0))
    assert "Bleeding" in on(f, "mira")  # a roll, failed or not, does not stop the bleeding
    replays(f)


def test_a_bleeding_check_without_a_medical_skill_rolls_the_lowest_die() -> None:
    """"you roll a Medical + Stamina check": a sheet without Medical rolls it at D4."""
    f = fight(mira={**MIRA, "skills": {"Knife": "D8"}},
              before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),))
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[4, 4])))
    assert [d.sides for d in rolled.dice] == [8, 4]


def test_the_bleeding_check_gets_one_level_harder_every_turn() -> None:
    """"Difficulty level for the check starts at Easy and increases by one level every turn
    until the bleeding is stabilised." The same 8 holds at Easy, then fails at Normal."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),))
    seen: list[tuple[str, int]] = []
    for faces in ([5, 3], [5, 3], [7, 6], [7, 6], [7, 6], [7, 6]):
        rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=faces)))
        seen.append((rolled.difficulty, rolled.hits))
        f.send(SetHits(combatant_id="mira", hits=0))  # keep her standing for the next turn
        end_turns_until(f, "mira")
    # 8 holds at Easy, fails at Normal; 13 holds at Difficult, fails at Hard and (the top) Very Hard
    assert seen == [("Easy", 0), ("Normal", 1), ("Difficult", 0), ("Hard", 1), ("Very Hard", 1), ("Very Hard", 1)]
    replays(f)


def test_bleeding_into_helpless_gives_an_injury_and_past_helpless_kills() -> None:
    """"If you fail then you suffer an addition Hit" - a Hit like any other: "Hit 4: Helpless
    ... If you take additional damage you will die"; "or you are rendered Helpless, then you
    suffer an Injury.\""""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"), SetHits(combatant_id="mira", hits=3)))
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[3, 2])))
    assert (rolled.hits_after, rolled.helpless, rolled.injuries, rolled.dead) == (4, True, 1, False)
    assert hits(f, "mira") == 4 and f.state.combatants["mira"].sheet.injuries == 1
    f.end_turn("mira")
    end_turns_until(f, "mira")
    # Helpless: unable to act, but the bleeding still falls due and is rolled (here by the GM).
    assert on(f, "mira")["Bleeding"].due is True
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[3, 2])))
    assert rolled.dead and f.state.combatants["mira"].sheet.dead
    f.end_turn("mira")
    end_turns_until(f, "mira")
    assert on(f, "mira")["Bleeding"].due is False  # the dead bleed no more checks
    f.end_turn("mira")
    replays(f)


def test_a_combatant_killed_by_their_bleeding_has_nothing_more_to_settle() -> None:
    """"If you take additional damage you will die": once dead, "At the start of each turn you
    suffer an addition Hit" has no one left to hurt - a dead combatant's other due status
    (Burning) does not hold up the end of the turn."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),
                            ApplyStatus(combatant_id="mira", status="Burning"), SetHits(combatant_id="mira", hits=4)))
    rolled = status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[3, 2])))
    assert rolled.dead and f.state.combatants["mira"].sheet.dead
    f.end_turn("mira")  # the Burning of the dead is not settled
    assert f.state.turn != "mira"
    replays(f)


# --------------------------------------------------------------------------- Stabilise


def defend(f: Fight, who: str, defence: str, faces: list[int] | None = None) -> list[Event]:
    return f.send(Defend(combatant_id=who, attack=ex(f).id, defence=defence, dice=faces))


def stabilise(f: Fight, healer: str, target: str, status: str, faces: list[int], **extra: Any) -> StatusRolled:
    return status_rolled(f.send(Stabilise(combatant_id=healer, target=target, status=status, dice=faces, **extra)))


def kess_to_tend(*statuses: str, hits_on_mira: int = 0) -> Fight:
    """Mira bears ``statuses`` and ``hits_on_mira`` Hits; it is Kess's turn (3 Action Points)."""
    f = fight()
    for name in statuses:
        apply(f, "mira", name)
    f.send(SetHits(combatant_id="mira", hits=hits_on_mira))
    f.end_turn("mira")
    assert f.turn == "kess" and f.ap("kess") == 3
    return f


def test_stabilise_costs_three_action_points_and_rolls_the_chosen_attribute_then_medical() -> None:
    """"Stabilise (3 AP): Remove a Status Effect manually using a Medical Check. Uses a full
    turns worth of Action Points." "roll a Medical check, combining it with whichever Attribute
    is most appropriate (most commonly Dexterity or Intelligence)": Kess's Intelligence D10
    (or by default her Dexterity D8), then her Medical D8."""
    f = kess_to_tend("Bleeding")
    rolled = stabilise(f, "kess", "mira", "Bleeding", [3, 4], attribute="intelligence")
    assert [d.sides for d in rolled.dice] == [10, 8] and [d.face for d in rolled.dice] == [3, 4]
    assert (rolled.check, rolled.healer, rolled.action_points, rolled.total, rolled.removed) == (
        "Stabilise", "kess", 3, 7, True)
    assert f.ap("kess") == 0 and on(f, "mira") == {}
    replays(f)
    f = kess_to_tend("Bleeding")
    assert [d.sides for d in stabilise(f, "kess", "mira", "Bleeding", [3, 4]).dice] == [8, 8]  # Dexterity


def test_stabilise_with_fewer_than_three_action_points_left_is_refused() -> None:
    """"Stabilise (3 AP)": with 2 left it cannot be paid for."""
    f = kess_to_tend("Bleeding")
    f.send(TakeAction(combatant_id="kess", action="TakeCover"))
    violation = refused(f, Stabilise(combatant_id="kess", target="mira", status="Bleeding", dice=[3, 4]))
    assert violation.code == "not_enough_action_points"
    assert "Bleeding" in on(f, "mira")


@pytest.mark.parametrize(("hits_taken", "difficulty", "passing", "failing"), [
    (0, "Easy", [3, 4], [2, 4]),       # unhurt: no harder than Grazed
    (1, "Easy", [3, 4], [2, 4]),       # "Hit 1: Grazed - Easy (7)"
    (2, "Normal", [4, 5], [3, 5]),     # "Hit 2: Wounded - Normal (9)"
    (3, "Difficult", [6, 7], [5, 7]),  # "Hit 3: Afflicted - Difficult (13)"
    (4, "Hard", [9, 7], [8, 7]),       # "Hit 4: Helpless - Hard (16)"
])
@pytest.mark.parametrize("succeeds", [True, False])
def test_the_stabilise_difficulty_follows_the_targets_hits(hits_taken: int, difficulty: str, passing: list[int],
                                                           failing: list[int], succeeds: bool) -> None:
    """"The difficulty level at which these checks are rolled depends on the number of Hits the
    target has taken. Hit 1: Grazed - Easy (7), Hit 2: Wounded - Normal (9), Hit 3: Afflicted -
    Difficult (13), Hit 4: Helpless - Hard (16)": the TARGET's Hits (Kess is unhurt). A
    failed check still costs the 3 Action Points and leaves the status."""
    f = kess_to_tend("Bleeding", hits_on_mira=hits_taken)
    faces = passing if succeeds else failing
    rolled = stabilise(f, "kess", "mira", "Bleeding", faces, attribute="intelligence")
    assert rolled.difficulty == difficulty and rolled.total == sum(faces)
    assert rolled.removed is succeeds
    assert ("Bleeding" in on(f, "mira")) is not succeeds
    assert f.ap("kess") == 0 and hits(f, "mira") == hits_taken
    replays(f)


def test_one_stabilise_removes_only_the_status_it_names() -> None:
    """"Each Medical check costs 3 Action Points to perform, and can only remove either 1
    Status Effect or restore 1 Hit at a time.\""""
    f = kess_to_tend("Crippled", "Blinded", "Deafened")
    assert stabilise(f, "kess", "mira", "Crippled", [6, 6]).outcome == "Critical Success"  # still only one
    assert set(on(f, "mira")) == {"Blinded", "Deafened"}
    end_turns_until(f, "kess")
    stabilise(f, "kess", "mira", "Deafened", [3, 4])
    assert set(on(f, "mira")) == {"Blinded"}
    replays(f)


def test_a_healer_may_stabilise_themselves() -> None:
    """"if a player has been rendered Helpless then they cannot Stabilise or Heal themselves":
    short of Helpless, they may."""
    f = fight()
    apply(f, "kess", "Blinded")
    f.end_turn("mira")
    assert stabilise(f, "kess", "kess", "Blinded", [3, 4]).removed and on(f, "kess") == {}


def test_stabilise_is_only_on_the_healers_own_turn() -> None:
    """"Stabilise (3 AP) ... Uses a full turns worth of Action Points": an action on one's own
    turn (not_your_turn otherwise)."""
    f = fight()
    apply(f, "mira", "Bleeding")
    assert refused(f, Stabilise(combatant_id="kess", target="mira", status="Bleeding", dice=[3, 4])).code == (
        "not_your_turn")
    end_turns_until(f, "bandit")
    assert refused(f, Stabilise(combatant_id="kess", target="mira", status="Bleeding", dice=[3, 4])).code == (
        "not_your_turn")


def test_stabilising_a_status_the_target_does_not_bear_is_refused() -> None:
    """"Remove a Status Effect": there must be one of that name (no_status)."""
    f = kess_to_tend("Crippled")
    assert refused(f, Stabilise(combatant_id="kess", target="mira", status="Bleeding", dice=[3, 4])).code == (
        "no_status")
    assert refused(f, Stabilise(combatant_id="kess", target="bandit", status="Crippled", dice=[3, 4])).code == (
        "no_status")


def test_stabilising_a_dead_target_is_refused() -> None:
    """"If you take additional damage you will die": the dead are past stabilising
    (invalid_target), though the Bleeding that killed Mira is still on her sheet."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"), SetHits(combatant_id="mira", hits=4)))
    assert status_rolled(f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[3, 2]))).dead
    f.end_turn("mira")
    assert "Bleeding" in on(f, "mira")
    assert refused(f, Stabilise(combatant_id="kess", target="mira", status="Bleeding", dice=[9, 8],
                                attribute="intelligence")).code == "invalid_target"


def test_a_helpless_healer_cannot_stabilise_anyone_themselves_included() -> None:
    """"Remember, if a player has been rendered Helpless then they cannot Stabilise or Heal
    themselves. Another player, or friendly NPC, will need to do this for them, at least
    until they are no longer Helpless.\""""
    f = fight()
    apply(f, "kess", "Bleeding")
    apply(f, "mira", "Crippled")
    f.send(SetHits(combatant_id="kess", hits=4))
    f.end_turn("mira")
    f.send(ResolveStatus(combatant_id="kess", status="Bleeding", dice=[5, 5]))  # 10: holds at Easy
    for target, name in (("kess", "Bleeding"), ("mira", "Crippled")):
        assert refused(f, Stabilise(combatant_id="kess", target=target, status=name, dice=[3, 4])).code == "cannot_act"
    f.end_turn("kess")
    end_turns_until(f, "mira")
    # Mira, not Helpless, stabilises Kess: Hard (16) for her 4 Hits, Mira's Strength D10 + Medical D6.
    assert stabilise(f, "mira", "kess", "Bleeding", [10, 6], attribute="strength").removed
    replays(f)


def test_hits_cannot_be_healed_until_every_status_is_stabilised() -> None:
    """"Status Effects must always be resolved before you can treat any Hits a target has
    suffered.": Heal is refused (statuses_first) while Mira bears one; once it is stabilised
    the Hit can be healed."""
    f = kess_to_tend("Crippled", hits_on_mira=2)
    violation = refused(f, Heal(combatant_id="kess", target="mira", dice=[4, 5]))
    assert violation.code == "statuses_first"
    assert stabilise(f, "kess", "mira", "Crippled", [4, 5]).removed
    # Cleared: what now stands in the way is only Kess's spent Action Points.
    assert refused(f, Heal(combatant_id="kess", target="mira", dice=[4, 5])).code == "not_enough_action_points"
    end_turns_until(f, "kess")
    f.send(Heal(combatant_id="kess", target="mira", dice=[4, 5]))
    assert hits(f, "mira") == 1
    replays(f)


def test_a_status_put_on_after_stabilising_bars_healing_again() -> None:
    """"Status Effects must always be resolved before you can treat any Hits": any status, of
    any kind, whenever it came."""
    f = kess_to_tend(hits_on_mira=1)
    apply(f, "mira", "Exposed", lasts="end_of_round")
    assert refused(f, Heal(combatant_id="kess", target="mira", dice=[3, 4])).code == "statuses_first"


# ------------------------------------------------------------- Paralysed and Unconscious


@pytest.mark.parametrize("name", ["Paralysed", "Unconscious"])
def test_the_paralysed_and_the_unconscious_cannot_act_but_settle_statuses_and_end_the_turn(name: str) -> None:
    """Paralysed: "You cannot move or act whilst in this condition." Unconscious: "You cannot
    act at all ... Until you are healed you can do nothing." Settling a Bleeding that falls due
    ("At the start of each turn you roll") and ending the turn are not acts."""
    f = fight(before_start=(ApplyStatus(combatant_id="mira", status="Bleeding"),
                            ApplyStatus(combatant_id="mira", status=name),
                            ApplyStatus(combatant_id="mira", status="Entangled")))
    f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=[4, 3]))
    for command in (
        Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee", dice=[5, 4]),
        TakeAction(combatant_id="mira", action="TakeCover"),
        Stabilise(combatant_id="mira", target="mira", status="Bleeding", dice=[4, 3]),
        BreakLoose(combatant_id="mira", dice=[5, 4]),
    ):
        violation = refused(f, command)
        assert violation.code == "cannot_act", command
    assert f.ap("mira") == 3
    f.end_turn("mira")
    assert f.turn == "kess"
    replays(f)


@pytest.mark.parametrize("name", ["Paralysed", "Unconscious"])
def test_the_paralysed_and_the_unconscious_can_only_take_a_blow(name: str) -> None:
    """Paralysed: "You cannot move or act"; Unconscious: "You cannot act at all": no Evade,
    Parry or Tank (cannot_act), though she has the Action Points; only the armour or taking it."""
    f = fight()
    apply(f, "mira", name)
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6])
    assert choices(f) == {"Armour", "TakeIt"}
    for defence, faces in (("Evade", [5, 4]), ("Parry", [5, 4]), ("Tank", None)):
        assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence=defence, dice=faces)).code == (
            "cannot_act")
    defend(f, "mira", "Armour")
    assert hits(f, "mira") == 1 and f.ap("mira") == 3  # Knife 2, less the Coat's 1
    replays(f)


@pytest.mark.parametrize(("name", "sides"), [
    (None, [8, 8]),          # the Bandit's Strength D8 + Knife D8
    ("Paralysed", [8, 10]),  # "All attacks against you can be performed at Advantage"
    ("Unconscious", [8, 10]),  # "You are rendered Prone": attacked at Advantage
])
def test_attacks_against_the_paralysed_are_at_advantage(name: str | None, sides: list[int]) -> None:
    """Paralysed: "All attacks against you can be performed at Advantage." Unconscious: "You
    are rendered Prone"; Prone: "Attacks performed against you can be performed at Advantage.\""""
    f = fight()
    if name:
        apply(f, "mira", name)
    end_turns_until(f, "bandit")
    assert rolled_sides(attack(f, "bandit", "mira", [3, 2])) == sides


def test_the_unconscious_are_rendered_prone() -> None:
    """Unconscious: "You're out cold ... You are rendered Prone and must rely on others for
    your survival.\""""
    f = fight()
    assert not f.state.combatants["kess"].sheet.prone
    apply(f, "kess", "Unconscious")
    assert f.state.combatants["kess"].sheet.prone
    replays(f)


# ---------------------------------------------------------------------------- Staggered


def test_a_staggered_combatant_performs_a_single_action_per_turn() -> None:
    """Staggered: "You can only perform a total of a single action per turn when in this
    condition." A second action is refused (staggered) whatever it is."""
    f = fight()
    apply(f, "mira", "Staggered")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    for command in (
        TakeAction(combatant_id="mira", action="TakeCover"),
        Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee", dice=[5, 4]),
    ):
        assert refused(f, command).code == "staggered"
    assert f.ap("mira") == 2
    f.end_turn("mira")
    replays(f)


def test_a_staggered_combatants_defence_is_their_action_for_the_turn() -> None:
    """Staggered: "This applies to both Offensive and Defensive actions." Mira Evades the
    Bandit's first blow; the next she can only take (on the armour, or as it comes)."""
    f = fight()
    apply(f, "mira", "Staggered")
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6])
    defend(f, "mira", "Evade", [5, 4])  # Agility D8 + Athletics D6: 9 at Normal, avoided
    assert f.state.rules.exchange is None and f.ap("mira") == 2
    attack(f, "bandit", "mira", [5, 6])
    for defence, faces in (("Evade", [5, 4]), ("Parry", [5, 4]), ("Tank", None)):
        assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence=defence, dice=faces)).code == (
            "staggered")
    defend(f, "mira", "TakeIt")
    assert hits(f, "mira") == 2 and f.ap("mira") == 2
    replays(f)


def test_a_staggered_combatant_who_acted_on_their_turn_cannot_evade_until_their_next_turn() -> None:
    """Staggered: "a single action per turn ... This applies to both Offensive and Defensive
    actions": after Taking Cover on her own turn, Mira cannot Evade the Bandit's blow; the
    limit starts afresh as her next turn begins."""
    f = fight()
    apply(f, "mira", "Staggered")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6])
    assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence="Evade", dice=[5, 4])).code == "staggered"
    defend(f, "mira", "Armour")
    f.end_turn("bandit")
    assert f.turn == "mira" and f.state.round == 2
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))  # a new turn, a new action
    assert refused(f, TakeAction(combatant_id="mira", action="TakeCover")).code == "staggered"
    replays(f)


def test_a_staggered_defender_who_has_acted_is_offered_only_to_take_the_blow() -> None:
    """Staggered: "a single action per turn ... both Offensive and Defensive actions": the
    choices offered (what a frontend renders) hold only what may be chosen now."""
    f = fight()
    apply(f, "mira", "Staggered")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6])
    assert choices(f) == {"Armour", "TakeIt"}


def test_a_staggered_attacker_finishes_their_own_attack() -> None:
    """Staggered: "a single action per turn": spending the attack's extra Success and
    choosing its critical addition are the same attack, not new actions."""
    f = fight()
    apply(f, "mira", "Staggered")
    attack(f, "mira", "bandit", [7, 6])  # 13 at Normal: one extra Success
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage"]))
    defend(f, "bandit", "TakeIt")
    assert hits(f, "bandit") == 3
    f.end_turn("mira")
    end_turns_until(f, "mira")
    f.send(SetHits(combatant_id="bandit", hits=0))
    attack(f, "mira", "bandit", [6, 6])  # a double over the target: a Critical Success
    f.send(ChooseCriticalEffect(combatant_id="mira", attack=ex(f).id, effect="UnavoidableHit"))
    defend(f, "bandit", "TakeIt")
    assert hits(f, "bandit") == 2
    assert refused(f, TakeAction(combatant_id="mira", action="TakeCover")).code == "staggered"
    replays(f)


def test_recovering_from_helpless_leaves_one_staggered_for_two_turns() -> None:
    """"Hit 4: Helpless - ... Upon recovery apply Staggered for 2 turns.": healed from 4 Hits
    to 3, Mira is Staggered for two of her own turns."""
    f = kess_to_tend(hits_on_mira=4)
    f.send(Heal(combatant_id="kess", target="mira", attribute="intelligence", dice=[9, 7]))  # 16 at Hard
    assert hits(f, "mira") == 3
    staggered = on(f, "mira")["Staggered"]
    assert (staggered.lasts, staggered.turns) == ("turns", 2)
    end_turns_until(f, "mira")
    # Afflicted, she pays her 2 Penalty Points; then her one action is spent.
    f.send(TakeAction(combatant_id="mira", action="TakeCover", penalties=["IncreaseCost", "IncreaseCost"]))
    assert refused(f, TakeAction(combatant_id="mira", action="TakeCover",
                                 penalties=["IncreaseCost", "IncreaseCost"])).code == "staggered"
    f.end_turn("mira")
    assert on(f, "mira")["Staggered"].turns == 1
    end_turns_until(f, "mira")
    assert "Staggered" in on(f, "mira")
    f.end_turn("mira")
    assert "Staggered" not in on(f, "mira")
    replays(f)


@pytest.mark.parametrize(("before", "faces", "after"), [
    (3, [9, 4], 2),  # Afflicted to Wounded (13 at Difficult): she was never Helpless
    (2, [5, 4], 1),  # Wounded to Grazed (9 at Normal)
    (4, [8, 7], 4),  # 15, short of Hard: still Helpless, not recovered
])
def test_healing_that_does_not_bring_one_back_from_helpless_does_not_stagger(
        before: int, faces: list[int], after: int) -> None:
    """"Hit 4: Helpless - ... Upon recovery apply Staggered for 2 turns": only recovery from
    Helpless staggers."""
    f = kess_to_tend(hits_on_mira=before)
    f.send(Heal(combatant_id="kess", target="mira", attribute="intelligence", dice=faces))
    assert hits(f, "mira") == after and "Staggered" not in on(f, "mira")
    replays(f)


# ------------------------------------------------------------------------------ Exposed


@pytest.mark.parametrize(("exposed", "choice", "sides", "base_damage"), [
    (False, "Advantage", [10, 8], 2),  # Mira's Strength D10 + Knife D8, the Knife's 2
    (True, "Advantage", [10, 10], 2),  # "All attacks made against you are performed at Advantage"
    (True, "Damage", [10, 8], 3),      # "OR gain an extra Hit of Base damage"
    (False, "Damage", [10, 8], 2),     # nothing to gain against a guarded target
])
def test_attacks_against_the_exposed_gain_advantage_or_a_hit_of_base_damage(
        exposed: bool, choice: str, sides: list[int], base_damage: int) -> None:
    """Exposed: "Your guard is broken or your cover is blown. All attacks made against you are
    performed at Advantage OR gain an extra Hit of Base damage." - the attacker's pick, never
    both (Advantage unless they ask for the damage)."""
    f = fight()
    if exposed:
        apply(f, "bandit", "Exposed")
    events = attack(f, "mira", "bandit", [5, 4], exposed=choice)
    (declared,) = [e for e in events if isinstance(e, AttackDeclared)]
    assert rolled_sides(events) == sides and declared.base_damage == base_damage
    defend(f, "bandit", "TakeIt")
    assert hits(f, "bandit") == base_damage
    replays(f)


@pytest.mark.parametrize(("statuses", "sides"), [
    ({"mira": ["Blinded"]}, [8, 8]),                         # "All attacks are performed at Disadvantage"
    ({"mira": ["Blinded"], "bandit": ["Exposed"]}, [10, 8]),  # Disadvantage and Advantage cancel
    ({"bandit": ["Exposed"]}, [10, 10]),
])
def test_a_blinded_attacker_is_at_disadvantage(statuses: dict[str, list[str]], sides: list[int]) -> None:
    """Blinded: "All attacks are performed at Disadvantage." Against an Exposed target ("All
    attacks made against you are performed at Advantage") the two cancel out."""
    f = fight()
    for who, names in statuses.items():
        for name in names:
            apply(f, who, name)
    assert rolled_sides(attack(f, "mira", "bandit", [3, 2])) == sides


def test_a_blinded_attacker_choosing_the_exposed_damage_stays_at_disadvantage() -> None:
    """Exposed: "at Advantage OR gain an extra Hit of Base damage": taking the Hit, there is no
    Advantage to cancel Blinded's "All attacks are performed at Disadvantage"."""
    f = fight()
    apply(f, "mira", "Blinded")
    apply(f, "bandit", "Exposed")
    events = attack(f, "mira", "bandit", [5, 4], exposed="Damage")
    (declared,) = [e for e in events if isinstance(e, AttackDeclared)]
    assert rolled_sides(events) == [8, 8] and declared.base_damage == 3


@pytest.mark.parametrize(("source", "sides"), [
    ("bandit", [8, 8]),  # attacking the source of her fear: Disadvantage
    ("kess", [10, 8]),   # attacking someone else: no Disadvantage
])
def test_a_frightened_attacker_is_at_disadvantage_only_against_the_source(source: str, sides: list[int]) -> None:
    """Frightened: "Any attacks or checks against the source of your fear are performed at
    Disadvantage.\""""
    f = fight()
    apply(f, "mira", "Frightened", source=source)
    assert rolled_sides(attack(f, "mira", "bandit", [3, 2])) == sides


def test_a_deafened_target_attacked_from_behind_cannot_defend_actively_until_after_the_first_blow() -> None:
    """Deafened: "you are unaware of anything you can't directly see. If attacked from behind
    you cannot mount an active defence until after the first blow." The first blow from
    behind: no active defence at all, Tank neither ("Damage can be avoided actively, by way of
    Defensive Actions, or more passively, by the use of Armour"): only the armour or taking it.
    The next blow from behind, and one from the front, she may defend."""
    f = fight()
    apply(f, "mira", "Deafened")
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6], from_behind=True)
    assert choices(f) == {"Armour", "TakeIt"}
    for defence in ("Evade", "Tank"):
        assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence=defence, dice=[5, 4])).code == (
            "defence_not_allowed")
    assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence="Parry", dice=[5, 4])).code == (
        "defence_not_allowed")
    defend(f, "mira", "Armour")
    assert hits(f, "mira") == 1
    attack(f, "bandit", "mira", [5, 6], from_behind=True)
    assert {"Evade", "Parry"} <= choices(f)
    defend(f, "mira", "Evade", [5, 4])
    assert f.state.rules.exchange is None
    attack(f, "bandit", "mira", [5, 6])
    assert {"Evade", "Parry"} <= choices(f)
    defend(f, "mira", "Parry", [5, 4])  # Strength D10 + Knife D8: 9 at Normal
    assert hits(f, "mira") == 1
    replays(f)


def test_a_deafened_target_shot_in_the_head_from_behind_cannot_sacrifice_the_helmet_nor_tank() -> None:
    """Deafened: "If attacked from behind you cannot mount an active defence until after the
    first blow." Helmet Sacrifice ("render yourself Prone, in order to escape all incoming
    damage") and Tank are ways of mounting one; the helmet may still take the blow."""
    pistol = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
              "ranges": {"Near": {"difficulty": "Normal", "damage": 3}}}
    helmet = {"name": "Helmet", "layer": "Helmet", "value": 1, "durability": 2}

    def shot(from_behind: bool) -> Fight:
        f = fight(mira={**MIRA, "armour": [*MIRA["armour"], helmet]},
                  kess={**KESS, "weapons": [KNIFE, pistol], "skills": {**KESS["skills"], "Pistol": "D8"}})
        apply(f, "mira", "Deafened")
        end_turns_until(f, "kess")
        f.send(Attack(combatant_id="kess", target="mira", attack="Ranged", weapon="Pistol", band="Near",
                      modifiers=["TargetedHit"], aim="head", dice=[5, 6], from_behind=from_behind))
        return f

    assert {"Tank", "HelmetSacrifice", "Dive", "Armour", "TakeIt"} <= choices(shot(from_behind=False))
    f = shot(from_behind=True)
    assert choices(f) == {"Armour", "TakeIt"}
    assert refused(f, Defend(combatant_id="mira", attack=ex(f).id, defence="HelmetSacrifice")).code == (
        "defence_not_allowed")
    defend(f, "mira", "Armour")
    replays(f)


@pytest.mark.parametrize("deafened", [True, False])
def test_a_blow_from_the_front_can_always_be_defended(deafened: bool) -> None:
    """Deafened: "you are unaware of anything you can't directly see" - a blow from the front
    she sees; and a target who is not Deafened hears one from behind."""
    f = fight()
    if deafened:
        apply(f, "mira", "Deafened")
    end_turns_until(f, "bandit")
    attack(f, "bandit", "mira", [5, 6], from_behind=not deafened)
    assert {"Evade", "Parry"} <= choices(f)
    defend(f, "mira", "Evade", [5, 4])
    assert f.state.rules.exchange is None and hits(f, "mira") == 0


# ----------------------------------------------------------------------------- Crippled


@pytest.mark.parametrize("action", ["Dash", "ClimbLeap"])
def test_the_crippled_cannot_dash_climb_or_leap(action: str) -> None:
    """Crippled: "A leg or major joint is impaired, hampering movement. Movement is halved. You
    cannot use Dash or Climb/Leap actions until this effect is healed.\""""
    f = fight()
    apply(f, "mira", "Crippled")
    assert refused(f, TakeAction(combatant_id="mira", action=action)).code == "crippled"
    f.send(RemoveStatus(combatant_id="mira", status="Crippled", reason="healed"))
    f.send(TakeAction(combatant_id="mira", action=action))  # healed: allowed again
    assert f.ap("mira") == 2


def test_the_crippled_may_still_take_other_actions() -> None:
    """Crippled: "You cannot use Dash or Climb/Leap actions": those only; Taking Cover,
    notching an arrow and attacking remain."""
    f = fight()
    apply(f, "mira", "Crippled")
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))
    f.send(TakeAction(combatant_id="mira", action="NotchArrow"))
    attack(f, "mira", "bandit", [3, 2])
    assert f.ap("mira") == 0
    replays(f)


# ---------------------------------------------------------------------------- Entangled


@pytest.mark.parametrize(("difficulty", "attribute", "faces", "sides", "free"), [
    (None, "strength", [5, 4], [10, 6], True),       # Normal (9) by default: Strength D10 + Athletics D6
    (None, "strength", [4, 3], [10, 6], False),
    (None, "agility", [5, 4], [8, 6], True),         # or Agility D8 + Athletics D6
    ("Difficult", "strength", [8, 5], [10, 6], True),  # the GM's difficulty: 13
    ("Difficult", "strength", [7, 5], [10, 6], False),
    ("Easy", "agility", [4, 3], [8, 6], True),       # 7
])
def test_breaking_loose_is_an_athletics_check_at_the_gms_difficulty(
        difficulty: str | None, attribute: str, faces: list[int], sides: list[int], free: bool) -> None:
    """Entangled: "You are unable to move until you perform a successful Athletics +
    Strength/Agility check, difficulty specified by the GM." It costs no Action Points."""
    extra = {"difficulty": difficulty} if difficulty else {}
    f = fight()
    apply(f, "mira", "Entangled", **extra)
    rolled = status_rolled(f.send(BreakLoose(combatant_id="mira", attribute=attribute, dice=faces)))
    assert [d.sides for d in rolled.dice] == sides and rolled.total == sum(faces)
    assert (rolled.check, rolled.difficulty, rolled.removed) == ("BreakLoose", difficulty or "Normal", free)
    assert ("Entangled" in on(f, "mira")) is not free
    assert f.ap("mira") == 3
    replays(f)


def test_breaking_loose_is_tried_once_a_turn() -> None:
    """Entangled: "until you perform a successful Athletics + Strength/Agility check": one
    attempt a turn (already_tried), again on the next turn."""
    f = fight()
    apply(f, "mira", "Entangled")
    f.send(BreakLoose(combatant_id="mira", dice=[4, 3]))
    assert refused(f, BreakLoose(combatant_id="mira", dice=[5, 4])).code == "already_tried"
    assert refused(f, BreakLoose(combatant_id="mira", attribute="agility", dice=[5, 4])).code == "already_tried"
    f.send(TakeAction(combatant_id="mira", action="TakeCover"))  # "You may still perform other actions"
    end_turns_until(f, "mira")
    assert status_rolled(f.send(BreakLoose(combatant_id="mira", dice=[5, 4]))).removed
    assert "Entangled" not in on(f, "mira")
    assert refused(f, BreakLoose(combatant_id="mira", dice=[5, 4])).code == "no_status"
    replays(f)


def test_breaking_loose_needs_entanglement_and_ones_own_turn() -> None:
    """"You are unable to move until you perform a successful ... check": only the Entangled,
    on their own turn (no_status, not_your_turn)."""
    f = fight()
    assert refused(f, BreakLoose(combatant_id="mira", dice=[5, 4])).code == "no_status"
    apply(f, "kess", "Entangled")
    assert refused(f, BreakLoose(combatant_id="kess", dice=[5, 4])).code == "not_your_turn"
    f.end_turn("mira")
    assert status_rolled(f.send(BreakLoose(combatant_id="kess", dice=[5, 4]))).removed  # Strength D8 + Athletics D8


WHO = st.sampled_from(["mira", "kess", "bandit"])
NAMES = st.sampled_from(["Bleeding", "Burning", "Bleeding", "Burning", "Staggered", "Exposed", "Frightened",
                         "Unconscious", "Crippled", "Blinded"])
LASTS = st.sampled_from([("until_removed", 0), ("end_of_round", 0), ("turns", 1), ("turns", 2), ("turns", 3)])


@st.composite
def _apply(draw: Any) -> tuple[Any, ...]:
    who, name, (lasts, turns) = draw(WHO), draw(NAMES), draw(LASTS)
    source = draw(st.sampled_from([c for c in ("mira", "kess", "bandit") if c != who])) if name == "Frightened" else None
    return ("apply", who, name, lasts, turns, source)


applies = _apply()
removes = st.tuples(st.just("remove"), WHO, NAMES)
resolves = st.tuples(st.just("resolve"), st.sampled_from(["Bleeding", "Burning"]))

steps = st.lists(st.one_of(applies, applies, removes, resolves, st.just(("end",)), st.just(("settle_and_end",)),
                           st.just(("settle_and_end",))), min_size=15, max_size=50)


def command_for(f: Fight, step: tuple[Any, ...]) -> list[Command]:
    match step:
        case ("apply", who, name, lasts, turns, source):
            return [ApplyStatus(combatant_id=who, status=name, lasts=lasts, turns=turns, source=source)]
        case ("remove", who, name):
            return [RemoveStatus(combatant_id=who, status=name)]
        case ("resolve", name):
            return [ResolveStatus(combatant_id=f.turn, status=name)]
        case ("end",):
            return [EndTurn(combatant_id=f.turn)]
        case _:
            due = [s.name for s in f.state.combatants[f.turn].sheet.statuses if s.due]
            return [*(ResolveStatus(combatant_id=f.turn, status=n) for n in due), EndTurn(combatant_id=f.turn)]


def check_invariants(f: Fight) -> None:
    for cid, c in f.state.combatants.items():
        names = [s.name for s in c.sheet.statuses]
        assert len(names) == len(set(names)), f"{cid} bears a status twice: {names}"
        for s in c.sheet.statuses:
            if s.lasts == "turns":
                assert s.turns >= 1, s
            else:
                assert s.turns == 0, s
            if s.lasts == "end_of_round":
                assert s.round == f.state.round, s  # one from an earlier round has ended
            if s.due:
                assert s.name in ("Bleeding", "Burning") and cid == f.state.turn, (cid, s)
            if s.name == "Frightened":
                assert s.source in f.state.combatants and s.source != cid
        if "Unconscious" in names:
            assert c.sheet.prone


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_random_status_commands_keep_the_invariants_and_replay(plan: list[tuple[Any, ...]]) -> None:
    """Any sequence of ApplyStatus, RemoveStatus, ResolveStatus and EndTurn (seeded dice):
    no status twice on a sheet, a status lasting turns has at least 1 left, a due status is
    only ever the turn-holder's Bleeding or Burning, a refused command changes nothing, and
    replaying the events gives the state the live fight reached."""
    f = fight(kess={**KESS, "mere_skills": {"Rosmere": "D6"}, "affinities": {"Rosmere": 5}}, dice_policy="mixed")
    for step in plan:
        for command in command_for(f, step):
            before = f.state
            try:
                f.send(command)
            except RuleViolation:
                assert f.state is before
                break
            check_invariants(f)
    check_invariants(f)
    replayed = f.ruleset.replay(f.events)
    assert replayed == f.state
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(f.state)


def test_a_status_due_on_one_who_died_of_another_is_not_due_on_the_next_turn() -> None:
    """"Bleeding and Burning fall due as their bearer's turn begins": Mira, bleeding and burning,
    dies of the Bleeding she settles first; the dead have nothing left to settle, so her turn
    ends, and her Burning is no longer due once it has (found by the hypothesis test below)."""
    f = fight(before_start=(SetHits(combatant_id="mira", hits=4),))
    apply(f, "mira", "Bleeding", lasts="until_removed")
    apply(f, "mira", "Burning", lasts="until_removed")
    f.end_turn()  # Mira's first turn: nothing due yet (they were put on during it)
    end_turns_until(f, "mira")
    assert on(f, "mira")["Bleeding"].due and on(f, "mira")["Burning"].due
    for faces in ([1, 1], [1, 1, 1], [1]):
        try:
            f.send(ResolveStatus(combatant_id="mira", status="Bleeding", dice=faces))
            break
        except RuleViolation as exc:
            assert exc.code in ("dice_missing", "dice_unused"), exc
    assert f.state.combatants["mira"].sheet.dead, "the Bleeding was to kill her"
    f.end_turn()
    assert f.turn == "kess"
    assert not on(f, "mira")["Burning"].due
    replays(f)
