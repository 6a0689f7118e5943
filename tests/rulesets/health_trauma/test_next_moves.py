"""Health/Trauma's next moves (DESIGN.md, "The next moves"; shared/rules/health-trauma-combat.txt):
what each viewer is offered, each offer accepted as sent, and a fight played from offers alone."""

from __future__ import annotations

import time
from typing import Any

import msgspec
import pytest

import tests.contract.autoplay as autoplay
from domain.core.reactions import ReactionPassed
from domain.core.dice import ReportedDice, SeededDice, seed_commitment
from domain.core.encounter import EncounterState, Event, InitiativeRolled
from domain.core.errors import RuleViolation
from domain.core.next_moves import Action, DiceNeeded, NextMoves
from domain.health_trauma.body import Body
from domain.health_trauma.events import AttackRolled, GutWoundSave, RulesSet
from domain.health_trauma.ruleset import HealthTrauma, body_of
from domain.health_trauma.sheet import HealthTraumaSheet
from projections.actions import actions_for
from projections.visibility import GM, Viewer
from tests.contract.walk import UNLIKELY

HT = HealthTrauma()
ENCOUNTER = "0d00d00d-0000-4000-8000-0000000000b7"
SEED = bytes(range(32))
MIRA_SEES = Viewer("player", frozenset({"mira"}))
MIRA = {"physique": 1, "combat_skill": 5, "guard": 3, "protection": 1,
        "weapons": [{"name": "Sword", "damage_dice": 1, "damage_sides": 6},
                    {"name": "Bow", "damage_sides": 6, "range": 10}]}
BANDIT = {"physique": 0, "combat_skill": 3, "guard": 2, "protection": 0,
          "weapons": [{"name": "Club", "damage_dice": 1, "damage_sides": 6}]}
PLAIN = {"defence_die": 0, "reactions": []}  # a fixed Guard, no Reactions: an attack resolves at once
HIDDEN_ID, HIDDEN_NAME = f"{UNLIKELY}1", f"Zq{UNLIKELY} Bandit"


class Table:
    """One encounter driven as the server drives it: each command decided for its sender
    (``decide_as``), with reported or seeded dice."""

    def __init__(self, policy: str = "seeded", data: dict[str, Any] | None = None) -> None:
        self.events: list[Event] = list(HT.open(ENCOUNTER, "At the mill", policy, seed_commitment(SEED)))
        self.state: EncounterState = HT.replay(self.events)
        if data is not None:
            self.send({"type": "SetHealthTraumaRules", "data": data})

    def decide(self, body: dict[str, Any], viewer: Viewer = GM, dice: list[int] | None = None) -> list[Event]:
        command = HT.command_decoder.decode(msgspec.json.encode({**body, **({"dice": dice} if dice else {})}))
        rolled = ReportedDice(dice or []) if self.state.dice_policy == "reported" else \
            SeededDice(SEED, ENCOUNTER, self.state.rolls_used)
        hidden = frozenset() if viewer.sees_all else HT.hidden_from(self.state, viewer.combatant_ids)
        events = HT.decide_as(hidden, self.state, command, rolled, seed=SEED)
        if isinstance(rolled, ReportedDice):
            rolled.check_all_used()
        return events

    def send(self, body: dict[str, Any], viewer: Viewer = GM, dice: list[int] | None = None) -> list[Event]:
        events = self.decide(body, viewer, dice)
        for e in events:
            self.state = HT.evolve(self.state, e)
        self.events += events
        return events

    def refused(self, body: dict[str, Any], viewer: Viewer = GM, dice: list[int] | None = None) -> RuleViolation:
        with pytest.raises(RuleViolation) as refused:
            self.decide(body, viewer, dice)
        return refused.value

    def add(self, cid: str, name: str, side: str, controller: str, sheet: dict[str, Any], hidden: bool = False) -> None:
        self.send({"type": "AddCombatant", "combatant_id": cid, "name": name, "side": side, "controller": controller,
                   "sheet": sheet, "hidden": hidden})

    def moves(self, viewer: Viewer = GM) -> NextMoves:
        return actions_for(HT, self.state, viewer)

    def offered(self, viewer: Viewer = GM, kind: str | None = None) -> list[Action]:
        return [a for a in self.moves(viewer).actions if kind is None or a.kind == kind]

    def labels(self, viewer: Viewer = GM, kind: str | None = None) -> list[str]:
        return [a.label for a in self.offered(viewer, kind)]

    def action(self, label: str, viewer: Viewer = GM) -> Action:
        [found] = [a for a in self.offered(viewer) if a.label == label]
        return found

    def body(self, cid: str) -> Body:
        return body_of(self.state, cid)

    def with_body(self, cid: str, body: Body) -> None:
        self.state = HT._with_body(self.state, cid, body)


def fight(policy: str = "seeded", data: dict[str, Any] | None = PLAIN, hidden: bool = False,
          bandit_first: bool = False, raider: bool = False) -> Table:
    """Mira (a player's) against a Bandit (the GM's; hidden: an ambush, with unlikely letters in
    its name and id) and perhaps a Raider; Mira first unless ``bandit_first``."""
    t = Table(policy, data)
    bandit = HIDDEN_ID if hidden else "bandit"
    first, last = {"initiative_bonus": 40}, {"initiative_bonus": 0}  # a d20 and these: the order is sure
    t.add("mira", "Mira", "party", "player", {**MIRA, **(last if bandit_first else first)})
    t.add(bandit, HIDDEN_NAME if hidden else "Bandit", "enemies", "gm", {**BANDIT, **(first if bandit_first else last)},
          hidden=hidden)
    if raider:
        t.add("raider", "Raider", "enemies", "gm", {**BANDIT, "initiative_bonus": 20})
    t.send({"type": "RollInitiative"}, dice=[10] * len(t.state.combatants) if policy == "reported" else None)
    t.send({"type": "StartEncounter"})
    return t


def leaks(moves: NextMoves) -> bool:
    return UNLIKELY in msgspec.json.encode(moves).decode()


# ------------------------------------------------------------------------- moves


def test_on_ones_turn_an_attack_on_each_foe_with_the_readied_weapon_and_each_action_of_the_list() -> None:
    """"Attacking an enemy is an Opposed Test that pits your combat skill against your Target's
    Guard. First, you must be in range of your target. This is either in base to base contact with
    the target or within your readied weapons listed Range or Reach." / "Most actions will be
    listed as Quarter (1/4), Half (1/2), or Full (1) Actions.\""""
    t = fight(raider=True)
    labels = t.labels(MIRA_SEES)
    assert labels == [  # the foes in the turn order (the Raider's initiative is the higher)
        "Attack the Raider with the Sword (2 turn quarters)", "Attack the Bandit with the Sword (2 turn quarters)",
        "Move, a Half action (2 turn quarters)", "Crawl, a Half action (2 turn quarters)",
        "Aim, a Quarter action (1 turn quarters)", "Draw a weapon: the Bow, a Quick Action (1 quick action)",
        "Brace, a Full action (4 turn quarters)", "End the turn"]
    draw = t.action("Draw a weapon: the Bow, a Quick Action (1 quick action)", MIRA_SEES)
    assert draw.command == {"type": "HTTakeAction", "combatant_id": "mira", "action": "Draw a weapon", "weapon": "Bow"}
    t.send(draw.command, MIRA_SEES)
    assert t.labels(MIRA_SEES)[:2] == ["Attack the Raider with the Bow (2 turn quarters)",
                                       "Attack the Bandit with the Bow (2 turn quarters)"]
    bow = t.action("Attack the Bandit with the Bow (2 turn quarters)", MIRA_SEES)
    assert bow.command == {"type": "HTAttack", "combatant_id": "mira", "target": "bandit", "weapon": "Bow",
                           "distance": 0}
    assert bow.cost == {"turn quarters": 2}
    assert bow.parameters is not None and bow.parameters["properties"]["distance"]["default"] == 0
    bow.command["distance"] = 10  # "within your readied weapons listed Range": a varied body is taken too
    assert t.decide(bow.command, MIRA_SEES)
    for action in t.offered(MIRA_SEES):  # every offer accepted exactly as sent
        assert t.decide(action.command, MIRA_SEES), action.label
    assert t.offered(GM, "move") == []  # Mira's turn is her player's: the GM is offered none of it
    t.send(t.action("Aim, a Quarter action (1 turn quarters)", MIRA_SEES).command, MIRA_SEES)
    assert "Brace, a Full action (4 turn quarters)" not in t.labels(MIRA_SEES)  # three quarters left
    t.send(t.action("Move, a Half action (2 turn quarters)", MIRA_SEES).command, MIRA_SEES)
    assert not any(label.startswith("Attack") for label in t.labels(MIRA_SEES))  # one left: no Half action
    t.send(t.action("Aim, a Quarter action (1 turn quarters)", MIRA_SEES).command, MIRA_SEES)
    # the turn's four quarters spent (and the Quick Action): only ending the turn is left
    assert t.labels(MIRA_SEES) == ["End the turn"]


def test_the_gms_action_list_is_what_is_offered() -> None:
    """"Most actions will be listed as ...": the list is the GM's (``SetHealthTraumaRules``)."""
    t = fight(data={**PLAIN, "actions": [{"name": "Sprint", "size": "full", "move": True},
                                         {"name": "Shout a warning", "size": "quick"}]})
    assert t.labels(MIRA_SEES)[1:] == ["Sprint, a Full action (4 turn quarters)",
                                       "Shout a warning, a Quick Action (1 quick action)", "End the turn"]
    t.send({"type": "EndTurn", "combatant_id": "mira"}, MIRA_SEES)
    # the NPC's turn: the GM is offered it, the player nothing
    assert "Attack Mira with the Club (2 turn quarters)" in t.labels(GM, "move")
    assert t.offered(MIRA_SEES) == []


def test_dazed_only_moves_and_maimed_legs_only_crawl() -> None:
    """"The Character is considered Dazed and may only take the move action until they receive
    medical treatment." / "if both your legs are maimed you may only use the Crawl Move Actions."
    / "If both your arms are maimed you cannot use Actions that would require them.\""""
    t = fight()
    t.with_body("mira", Body(dazed=True, gut_wound=True))
    assert t.labels(MIRA_SEES) == ["Move, a Half action (2 turn quarters)", "Crawl, a Half action (2 turn quarters)",
                                   "End the turn"]
    t.with_body("mira", Body(maimed=["left leg", "right leg"]))
    assert "Move, a Half action (2 turn quarters)" not in t.labels(MIRA_SEES)
    assert "Crawl, a Half action (2 turn quarters)" in t.labels(MIRA_SEES)
    t.with_body("mira", Body(maimed=["left arm", "right arm"]))
    assert not any(label.startswith(("Attack", "Draw")) for label in t.labels(MIRA_SEES))


def test_a_player_makes_their_own_initiative_test_before_the_roll() -> None:
    """"Each participant in Combat will make an Initiative Test before Combat begins. Players will
    roll for their characters while the Game Master rolls for Non-Player Characters.\""""
    t = Table("reported", PLAIN)
    t.add("mira", "Mira", "party", "player", MIRA)
    t.add("bandit", "Bandit", "enemies", "gm", BANDIT)
    test = t.action("Make Mira's Initiative Test", MIRA_SEES)
    assert test.command == {"type": "HTRollInitiativeTest", "combatant_id": "mira"}
    assert test.dice == [DiceNeeded(count=1, sides=20, for_="Mira: initiative", by="mira")]
    assert "Make Mira's Initiative Test" not in t.labels(GM)  # the player's to make, not the GM's
    assert not any("Bandit's Initiative Test" in label for label in t.labels(GM))
    t.send(test.command, MIRA_SEES, dice=[12])
    assert t.offered(MIRA_SEES) == []  # made: the GM's RollInitiative orders everyone next
    roll = t.action("Roll initiative")
    assert roll.dice == [DiceNeeded(count=1, sides=20, for_="Bandit: initiative", by="bandit")]


def test_initiative_dice_are_taken_in_the_order_combatants_were_added_but_a_tested_ones() -> None:
    """``initiative_dice`` says what ``roll_initiative`` does: "the Game Master rolls for
    Non-Player Characters" and for the players who did not make their own test."""
    assert "in the order they were added" in HT.initiative_dice and "Initiative Test" in HT.initiative_dice
    t = Table("reported", PLAIN)
    t.add("a", "Ash", "party", "player", MIRA)
    t.add("b", "Bo", "party", "player", MIRA)
    t.add("c", "Cutthroat", "enemies", "gm", BANDIT)
    t.send({"type": "HTRollInitiativeTest", "combatant_id": "b"}, Viewer("player", frozenset({"b"})), dice=[5])
    roll = t.action("Roll initiative")
    assert [(d.count, d.sides, d.by) for d in roll.dice] == [(1, 20, "a"), (1, 20, "c")]
    [rolled] = t.send(roll.command, dice=[17, 2])
    assert isinstance(rolled, InitiativeRolled)
    assert [(r.who, r.die.face) for r in rolled.rolls] == [("a", 17), ("c", 2)] and rolled.order == ["a", "b", "c"]


# ------------------------------------------------------------------ reactions


def test_the_target_may_dodge_or_pass_keeping_its_reaction() -> None:
    """"You get ... one Reaction inbetween your turns": a Dodge (ours) or keeping it (a pass)."""
    t = fight(data={"defence_die": 0}, bandit_first=True)
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    labels = t.labels(MIRA_SEES)
    assert labels == ["Dodge (1 reaction)", "Pass"]
    passed = t.action("Pass", MIRA_SEES)
    assert passed.command == {"type": "React", "combatant_id": "mira", "window": t.state.rules.window.id,
                              "reaction": "Pass"}
    events = t.send(passed.command, MIRA_SEES)
    assert any(isinstance(e, AttackRolled) and e.reaction is None for e in events)
    assert any(isinstance(e, ReactionPassed) for e in events)
    assert t.state.combatants["mira"].resources["reaction"] == 1  # kept for the next attack
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    t.send(t.action("Dodge (1 reaction)", MIRA_SEES).command, MIRA_SEES)
    assert t.state.combatants["mira"].resources["reaction"] == 0


def test_a_dazed_target_takes_no_reaction() -> None:
    """"The Character is considered Dazed and may only take the move action until they receive
    medical treatment": no Reaction is offered to a Dazed target, and one sent is refused."""
    t = fight(data={"defence_die": 0}, bandit_first=True)
    t.with_body("mira", Body(dazed=True, gut_wound=True))
    events = t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    assert any(isinstance(e, AttackRolled) for e in events) and t.state.rules.window is None
    assert t.labels(MIRA_SEES) == []  # nothing to answer: the attack went on at once
    t = fight(data={"defence_die": 0}, bandit_first=True)
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    window = t.state.rules.window.id
    t.with_body("mira", Body(dazed=True, gut_wound=True))  # as if Dazed while it waits: refused all the same
    refused = t.refused({"type": "React", "combatant_id": "mira", "window": window, "reaction": "Dodge"}, MIRA_SEES)
    assert refused.code == "ht_dazed_move_only" and "may only take the move action" in refused.message
    t.send({"type": "React", "combatant_id": "mira", "window": window, "reaction": "Pass"}, MIRA_SEES)
    assert t.state.rules.window is None


def test_a_hidden_attackers_attack_goes_on_the_gm_answers_for_the_target() -> None:
    """A hidden NPC attacks a player: the Reaction window waits on the target, whose player may not
    be told of it; the GM is offered the answer, the player nothing naming it, and the fight goes on."""
    t = fight(data={"defence_die": 0}, hidden=True, bandit_first=True)
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    window = t.state.rules.window
    assert window is not None and not window.settled and window.may_react == ("mira",)
    gm = t.moves(GM)
    answers = [a for a in gm.actions if a.kind == "decision"]
    assert [(a.label, a.command["type"], a.combatant_id) for a in answers] == [
        ("Dodge (1 reaction)", "React", "mira"), ("Pass", "React", "mira")]
    assert any(w.combatant_id == "mira" and w.who == "gm" for w in gm.waiting_on)
    player = t.moves(MIRA_SEES)
    assert not leaks(player)
    assert not any(a.command.get("window") == window.id or a.kind == "decision" for a in player.actions)
    assert [w.who for w in player.waiting_on] == ["gm"]
    events = t.send(answers[0].command)  # the GM's offer, sent as it is
    assert any(isinstance(e, AttackRolled) and e.reaction == "Dodge" for e in events)
    assert t.state.rules.window is None
    assert "End the turn" in t.labels(GM)  # the fight goes on: the hidden NPC's turn


def test_a_players_guessed_answer_to_a_hidden_attackers_window_is_an_unknown_windows() -> None:
    """A player who guesses the window of a hidden attacker's attack ("attack:N") is answered as for
    a window that does not exist: the same code and message, with a React or a PassReaction."""
    t = fight(data={"defence_die": 0}, hidden=True, bandit_first=True)
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)
    window = t.state.rules.window
    assert window is not None
    for body in ({"type": "React", "combatant_id": "mira", "reaction": "Dodge"},
                 {"type": "React", "combatant_id": "mira", "reaction": "Pass"},
                 {"type": "PassReaction", "combatant_id": "mira"}):
        guessed = t.refused({**body, "window": window.id}, MIRA_SEES)
        unknown = t.refused({**body, "window": "attack:9999"}, MIRA_SEES)
        assert (guessed.code, guessed.message) == (unknown.code, unknown.message) == (
            "no_reaction_window", "Nothing waits for a reaction now."), body
        assert t.decide({**body, "window": window.id})  # the GM's is taken


def test_a_die_asked_for_after_the_listed_ones_reaches_a_player_with_its_sides() -> None:
    """The damage is rolled only on a hit ("If you pass this Test, you Hit the Target and your roll
    the weapon's Damage"): a reported answer asks for it after the listed dice, with a hidden
    combatant in the fight too."""
    t = fight("reported", data={"defence_die": 0}, hidden=True, bandit_first=True, raider=True)
    t.send({"type": "EndTurn", "combatant_id": HIDDEN_ID})
    t.send(t.action("Attack Mira with the Club (2 turn quarters)").command)  # the Raider's
    dodge = t.action("Dodge (1 reaction)", MIRA_SEES)
    assert [(d.count, d.sides) for d in dodge.dice] == [(1, 20)]  # the attack test; a hit is not sure
    refused = t.refused(dodge.command, MIRA_SEES, dice=[20])
    assert refused.code == "dice_missing" and refused.details["needed_sides"] == 6
    t.send(dodge.command, MIRA_SEES, dice=[20, 4])


# ---------------------------------------------------------------- the round's end


def _gut_wounded(hidden: bool) -> Table:
    """Mira, last in the round, cuts the Bandit down; its injury is a gut wound (the chart the GM's)."""
    t = fight("reported", data={**PLAIN, "injury_chart": [{"least": 1, "result": "gut_wound"}]},
              hidden=hidden, bandit_first=True, raider=True)
    bandit = HIDDEN_ID if hidden else "bandit"
    t.send({"type": "EndTurn", "combatant_id": bandit})
    raider_ends = t.action("End the turn")
    assert raider_ends.dice == []  # not the round's last turn: nothing rolled as it ends
    t.send(raider_ends.command)
    while not t.body(bandit).injury_due:
        t.send({"type": "HTAttack", "combatant_id": "mira", "target": bandit}, dice=[20, 6])
    t.send({"type": "HTRollInjury", "combatant_id": bandit}, dice=[5])
    assert t.body(bandit).dying and t.body(bandit).gut_wound
    return t


def test_the_gut_wounds_bsvs_rides_in_the_rounds_last_end_turn() -> None:
    """"A dying character takes one point of damage at the end of each round" and a gut wound's
    bearer "must make a BSvs Damage Taken each time they take damage": the round's last EndTurn
    rolls it, and its offer lists that die."""
    t = _gut_wounded(hidden=False)
    ends = t.action("End the turn", MIRA_SEES)
    assert ends.dice == [DiceNeeded(count=1, sides=10, for_="Bandit: gut wound BSvs", by="bandit")]
    events = t.send(ends.command, MIRA_SEES, dice=[9])
    assert any(isinstance(e, GutWoundSave) and e.die.face == 9 for e in events)


def test_a_hidden_bandits_bsvs_in_a_players_end_turn_does_not_name_it() -> None:
    """The round's last EndTurn is the player's; the gut-wounded one dying is hidden from them."""
    t = _gut_wounded(hidden=True)
    moves = t.moves(MIRA_SEES)
    assert [d.sides for d in t.action("End the turn", MIRA_SEES).dice] == [10]
    assert not leaks(moves), msgspec.json.encode(moves)


# ----------------------------------------------------------------------- rulings


def test_the_gms_rulings_each_accepted_as_offered() -> None:
    """The GM's own commands, each a default that is accepted now: the data the text leaves open,
    "Certain spells, items, and the Medicine Skill can attempt to restore health", stabilising the
    dying, treating a gut wound ("until they receive medical treatment"), recuperating ("until they
    are able to recuperate"), and closing a Reaction window."""
    t = fight(data={"defence_die": 0})
    assert t.labels(GM, "gm") == ["Set the Health/Trauma rules (the Attack Test, the injury chart, X, saves, actions)"]
    rules = t.action(t.labels(GM, "gm")[0])
    assert rules.parameters is not None and "data" in rules.parameters["properties"]
    assert isinstance(t.send(rules.command)[0], RulesSet)
    t.send({"type": "HTAttack", "combatant_id": "mira", "target": "bandit"})
    assert "Close the Reactions to Mira's attack on the Bandit" in t.labels(GM, "gm")
    t.send(t.action("Close the Reactions to Mira's attack on the Bandit").command)
    t.with_body("bandit", Body(health=-1, dying=True, dazed=True, gut_wound=True, trauma=1))
    assert t.labels(GM, "gm")[1:] == ["Heal the Bandit", "Stabilise the Bandit", "Treat the Bandit's gut wound"]
    heal = t.action("Heal the Bandit")
    assert heal.command == {"type": "HTHeal", "combatant_id": "bandit", "amount": 1}
    assert heal.parameters is not None and set(heal.parameters["properties"]) == {
        "amount", "dice_count", "dice_sides", "bonus"}
    for label in t.labels(GM, "gm"):
        assert t.decide(t.action(label).command), label
    t.send(t.action("Stabilise the Bandit").command)
    assert "The Bandit recuperates" in t.labels(GM, "gm")
    assert t.offered(MIRA_SEES, "gm") == []  # the GM's alone


# -------------------------------------------------------------- out of the fight


def test_out_of_the_fight_dead_dying_or_in_a_coma() -> None:
    """"The attack that injured the character was fatal. The character is dead." / "When a
    character's health is at or below 0, that character receives an injury and is dying." / "the
    character falls into a coma and won't wake from it until their Trauma is reduced to 0.\""""
    t = fight()
    bandit = t.state.combatants["bandit"]
    for body, out in ((Body(), False), (Body(health=1), False), (Body(stunned=True), False),
                      (Body(dead=True), True), (Body(dying=True, health=0), True), (Body(coma=True), True)):
        t.with_body("bandit", body)
        assert HT.out_of_fight(t.state, bandit) is out, body
    t = fight()
    assert not t.moves(GM).over
    while not t.body("bandit").dying:  # the only foe cut down: over
        if t.state.turn == "mira" and t.state.combatants["mira"].resources["turn quarters"] >= 2:
            t.send({"type": "HTAttack", "combatant_id": "mira", "target": "bandit"}, MIRA_SEES)
        else:
            t.send({"type": "EndTurn", "combatant_id": t.state.turn})
    gm = t.moves(GM)
    assert gm.over and [w.what for w in gm.waiting_on][-1] == "the fight is over: end the encounter"


# ---------------------------------------------------------------------- examples


def test_the_examples_are_a_player_character_a_weak_and_a_strong_npc_accepted_as_sent() -> None:
    """Each example's body is taken by AddCombatant; the strong NPC outdoes the weak one."""
    t = Table()
    examples = dict(HT.examples())
    assert list(examples) == ["a player character", "a weak NPC", "a strong NPC"]
    assert [e["controller"] for e in examples.values()] == ["player", "gm", "gm"]
    for n, (label, body) in enumerate(examples.items()):
        assert t.send({"type": "AddCombatant", "combatant_id": f"e{n}", **body}), label  # the server adds an id
    weak, strong = (msgspec.convert(examples[k]["sheet"], HealthTraumaSheet) for k in ("a weak NPC", "a strong NPC"))
    assert strong.base_health > weak.base_health and strong.combat_skill > weak.combat_skill \
        and strong.guard > weak.guard


def test_the_examples_are_offered_to_the_gm_in_setup() -> None:
    t = Table()
    offered = [a.label for a in t.offered(GM, "lifecycle") if a.label.startswith("Add ")]
    assert offered == ["Add a player character", "Add a weak NPC", "Add a strong NPC"]


# ------------------------------------------------------------------------ autoplay

SEEDS = range(50)
OVER_AT_LEAST = 41  # measured: 44 and 43 of 50 (a hidden foe never revealed outlasts 400 steps;
# an attack is made with the readied weapon only, and drawing another takes a Quick Action)


@pytest.mark.parametrize("policy", ["seeded", "reported"])
def test_autoplay_from_offers_alone(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fights played with nothing but offered actions: none refused, none stalled, always waiting
    on someone, most reaching their end; and no player's offers or waiting_on ever carries a
    hidden combatant's id or name (every state the fights pass, every player)."""
    leaked: list[str] = []

    def checked(ruleset: Any, state: EncounterState, viewer: Viewer) -> NextMoves:
        moves = actions_for(ruleset, state, viewer)
        if not viewer.sees_all and leaks(moves):
            leaked.append(msgspec.json.encode(moves).decode())
        return moves

    monkeypatch.setattr(autoplay, "actions_for", checked)
    started = time.perf_counter()
    played = [autoplay.play(HT, seed, policy=policy) for seed in SEEDS]
    took = time.perf_counter() - started
    refused = [r for p in played for r in p.refused]
    over = sum(p.over for p in played)
    kinds = {k: sum(p.kinds[k] for p in played) for k in ("move", "decision", "lifecycle")}
    print(f"{policy}: {len(played)} fights, {sum(p.commands for p in played)} commands {kinds}, over {over}, "
          f"refused {len(refused)}, stalls {sum(p.stalls for p in played)}, "
          f"dice asked {sum(p.dice_asked for p in played)}, {took:.1f}s")
    assert refused == []
    assert sum(p.stalls for p in played) == 0 and sum(p.empty_waiting for p in played) == 0
    assert over >= OVER_AT_LEAST
    assert leaked == [], leaked[:1]
    assert kinds["decision"] > 0 and kinds["move"] > 0
