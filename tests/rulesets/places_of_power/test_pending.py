"""What a Places of Power fight waits for (``PlacesOfPower.pending``, issue 18): the attack
exchange's stage with its legal choices, the checks the GM called, the statuses due as the
bearer's turn begins; the prompts built from them, and the refusal to end a turn meanwhile.

The property test walks random fights (attacks of every kind, checks, statuses, wounds, hidden
combatants revealed or not) and runs the contract check (tests/unit/pending_contract.py) after
every command.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.encounter import AddCombatant, EndTurn, RevealCombatant
from domain.core.errors import RuleViolation
from domain.places_of_power.actions import TakeAction
from domain.places_of_power.attacks import PENALTY_OPTIONS, Attack, Defend
from domain.places_of_power.check_rolls import CallForCheck
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.hits import SetHits
from domain.places_of_power.sheet import Attribute
from domain.places_of_power.statuses import ApplyStatus
from projections.prompts import prompts_for
from projections.visibility import GM, Viewer
from tests.rulesets.places_of_power.fight import Fight
from tests.contract.pending import check_pending

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Close": {"difficulty": "Normal", "damage": 3}, "Near": {"difficulty": "Normal", "damage": 3},
                     "Far": {"difficulty": "Difficult", "damage": 2}}}
FIGHTER: dict[str, Any] = {
    "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Pistol": "D8", "Brawling": "D6"},
    "weapons": [KNIFE, PISTOL],
    "armour": [{"name": "Coat", "layer": "Outer", "value": 1, "durability": 2},
               {"name": "Helmet", "layer": "Helmet", "value": 1, "durability": 1}],
}
# the attack's faces: the seeded dice's, or reported ones for a Critical Miss (a mishap) or a great hit
ATTACK_FACES = (None, None, None, [1, 1], [6, 6], [4, 6])
STATUSES = ("Bleeding", "Burning", "Paralysed", "Staggered", "Unconscious", "Deafened", "Exposed")


def fight(players: int = 2, npcs: int = 1, hidden: tuple[str, ...] = (), seed: bytes = bytes(range(32)),
          dice_policy: str = "mixed") -> Fight:
    f = Fight(dice_policy=dice_policy, seed=seed)
    for i in range(players + npcs):
        cid = f"pc{i}" if i < players else f"npc{i}"
        f.send(AddCombatant(combatant_id=cid, name=cid.upper(), side="party" if i < players else "enemies",
                            controller="player" if i < players else "gm", sheet=FIGHTER, hidden=cid in hidden))
    f.roll()
    f.start()
    return f


def answer(f: Fight, decision_id: str, choice: str | None = None) -> None:
    (d,) = [d for d in f.ruleset.pending(f.state) if d.id == decision_id]
    picked = next(c for c in d.choices if c.name == choice) if choice else None
    f.send(msgspec.convert(d.answer(picked), f.ruleset.command_type))


def prompts(f: Fight, viewer: Viewer) -> list[Any]:
    return prompts_for(f.ruleset, f.state, viewer)


# ------------------------------------------------------------------------ examples


def test_an_attack_prompts_the_defenders_player_to_defend_and_blocks_the_turn() -> None:
    """The defender "picks a defence (or armour, or takes it)": their player is prompted with
    the Defend that answers it and the legal choices; no one else is; the attacker's turn does
    not end meanwhile, refused as before ("Attack N is still waiting for a decision")."""
    f = fight(players=2, npcs=1)
    attacker = f.turn
    target = next(c for c in ("pc0", "pc1") if c != attacker)
    f.send(Attack(combatant_id=attacker, target=target, attack="LightMelee", weapon="Knife", band="Melee", dice=[4, 6]))
    ex = f.state.rules.exchange  # 10 at Normal: a hit, no extra Success
    (p,) = prompts(f, Viewer("player", frozenset({target})))
    assert (p.id, p.kind, p.command, p.combatant_id, p.choice_field, p.stage) == (
        f"exchange:{ex.id}:defence", "attack_exchange", "Defend", target, "defence", "defence")
    assert p.body == {"type": "Defend", "attack": ex.id, "combatant_id": target}
    shown = f.ruleset.shown(f.state).rules.exchange
    assert [(c.name, c.action_points) for c in p.choices] == [(c.name, c.action_points) for c in shown.choices]
    assert prompts(f, Viewer("player", frozenset({attacker}))) == [] or attacker == target
    assert prompts(f, GM) == [] and prompts(f, Viewer("spectator")) == []
    with pytest.raises(RuleViolation) as refused:
        f.end_turn()
    assert (refused.value.code, refused.value.message) == (
        "exchange_pending", "An attack is still waiting for a decision: defend against an attack.")


def test_a_wounded_defenders_choices_carry_the_penalty_points_they_pay() -> None:
    """"When your character is Wounded or Afflicted then they must apply Penalty Points when
    performing any actions": the Evade offered to a Wounded defender is answered with the
    Penalty Point it pays, and that answer is accepted."""
    f = fight(players=2, npcs=0)
    attacker = f.turn
    target = next(c for c in ("pc0", "pc1") if c != attacker)
    f.send(SetHits(combatant_id=target, hits=2))  # Wounded: 1 Penalty Point
    f.send(Attack(combatant_id=attacker, target=target, attack="LightMelee", weapon="Knife", band="Melee",
                  dice=[4, 6]))
    (d,) = f.ruleset.pending(f.state)
    evade = next(c for c in d.choices if c.name == "Evade")
    assert evade.answer is not None and len(evade.answer["penalties"]) == 1
    assert f.ruleset.accepts(f.state, msgspec.convert(d.answer(evade), f.ruleset.command_type))
    assert not f.ruleset.accepts(f.state, Defend(combatant_id=target, attack=d.body["attack"], defence="Evade"))


def test_a_lethal_blow_asks_the_attacker_to_pull_their_punch_or_let_it_land() -> None:
    """"you can choose to spend an extra Action Point to reduce that damage down to the point
    that they would be rendered Helpless instead": the attacker is prompted with both, and
    each answer (``pull`` true or false) is accepted."""
    f = fight(players=1, npcs=1)
    while f.turn != "pc0":
        f.end_turn()
    attacker, target = "pc0", "npc1"  # 5 Hits kill an NPC: "that NPC has been killed outright"
    f.send(SetHits(combatant_id=target, hits=3))
    f.send(Attack(combatant_id=attacker, target=target, attack="LightMelee", weapon="Knife", band="Melee",
                  dice=[4, 6]))
    answer(f, f"exchange:{f.state.rules.exchange.id}:defence", "TakeIt")
    (d,) = f.ruleset.pending(f.state)
    assert (d.id, d.command, d.choice_field, d.combatant_id) == (
        f"exchange:{d.body['attack']}:pull", "PullYourPunch", "pull", attacker)
    assert [(c.name, c.action_points, c.answer) for c in d.choices] == [
        ("PullYourPunch", 1, {"pull": True}), ("LetItLand", 0, {"pull": False})]
    check_pending(f.ruleset, f.state)


def test_a_critical_miss_prompts_the_gm_for_the_mishap_and_an_npcs_step_the_gm() -> None:
    """A Critical Miss: "the GM picks or rolls the D6 mishap" - the GM's own decision, no
    combatant's (its body names none); then the defence of an NPC is the GM's to send."""
    f = fight(players=1, npcs=1)
    while f.turn != "pc0":
        f.end_turn()
    f.send(Attack(combatant_id="pc0", target="npc1", attack="LightMelee", weapon="Knife", band="Melee", dice=[1, 1]))
    (p,) = prompts(f, GM)
    attack_id = f.state.rules.exchange.id
    assert (p.id, p.combatant_id, p.command, p.choice_field, p.stage, p.body) == (
        f"exchange:{attack_id}:mishap", None, "ResolveMishap", "result", "mishap",
        {"type": "ResolveMishap", "attack": attack_id})
    assert [c.name for c in p.choices] == ["1", "2", "3", "4", "5", "6", "roll"]
    assert prompts(f, Viewer("player", frozenset({"pc0"}))) == []
    check_pending(f.ruleset, f.state)
    answer(f, p.id, "5")  # "5. You lose an Action Point"
    f.send(Attack(combatant_id="pc0", target="npc1", attack="LightMelee", weapon="Knife", band="Melee", dice=[4, 6]))
    (p,) = prompts(f, GM)
    assert (p.command, p.combatant_id, p.body["combatant_id"]) == ("Defend", "npc1", "npc1")
    assert prompts(f, Viewer("player", frozenset({"pc0"}))) == []


def test_a_called_check_and_a_due_status_prompt_the_character_and_the_status_blocks_the_turn() -> None:
    """The GM calls for a check: "the combatant's controller rolls it". Bleeding: "At the start
    of each turn you roll a Medical + Stamina check": due as the bearer's turn begins, it is
    settled before the turn ends (status_due, as before)."""
    f = fight(players=2, npcs=0)
    pc = f.turn
    other = next(c for c in ("pc0", "pc1") if c != pc)
    f.send(ApplyStatus(combatant_id=pc, status="Bleeding"))
    f.send(CallForCheck(combatant_id=other, attribute="agility", skill="Athletics", difficulty="Normal"))
    check_id = f.state.version
    f.end_turn()
    (check,) = prompts(f, Viewer("player", frozenset({other})))
    assert (check.id, check.kind, check.command, check.body) == (
        f"check:{check_id}", "check", "RollCheck", {"type": "RollCheck", "combatant_id": other, "check": check_id})
    f.end_turn()
    assert f.turn == pc
    (due,) = prompts(f, Viewer("player", frozenset({pc})))
    assert (due.id, due.kind, due.command, due.body) == (
        f"status:{pc}:2:Bleeding", "status_due", "ResolveStatus",
        {"type": "ResolveStatus", "combatant_id": pc, "status": "Bleeding"})
    with pytest.raises(RuleViolation) as refused:
        f.end_turn()
    assert (refused.value.code, refused.value.message, refused.value.details) == (
        "status_due", f"{pc.upper()} must first settle Bleeding (ResolveStatus).", {"due": ["Bleeding"]})
    answer(f, due.id)
    check_pending(f.ruleset, f.state)


def test_an_attack_by_a_hidden_combatant_prompts_no_player() -> None:
    """An attack by a hidden combatant is dropped from a player's view, and so from their
    prompts: the ambushed player is not asked to Defend against an attacker they cannot see;
    the GM, who may send any step for a player, is asked instead."""
    f = fight(players=1, npcs=2, hidden=("npc2",))
    while f.turn != "npc2":
        f.end_turn()
    f.send(Attack(combatant_id="npc2", target="pc0", attack="LightMelee", weapon="Knife", band="Melee",
                  dice=[4, 6]))
    assert [d.combatant_id for d in f.ruleset.pending(f.state)] == ["pc0"]  # the fight waits for pc0's defence
    assert prompts(f, Viewer("player", frozenset({"pc0"}))) == []
    # the player is never told, so the GM is prompted for it (issue 37: else the fight stalls)
    assert [(p.combatant_id, p.command) for p in prompts(f, GM)] == [("pc0", "Defend")]
    check_pending(f.ruleset, f.state)


# ------------------------------------------------------------------------ the walk


def penalties(f: Fight, cid: str, data: Any) -> list[str]:
    owed = penalty_owed(f.state, cid)
    options = list(combinations_with_replacement(PENALTY_OPTIONS, owed))
    return list(data.draw(st.sampled_from(options), label="penalties")) if owed else []


def step(f: Fight, data: Any) -> str:
    """One random command: mostly answering what the fight waits for, else an attack, an
    action, the end of the turn or one of the GM's (a check, a status, Hits, a reveal)."""
    s = f.state
    waiting = f.ruleset.pending(s)
    moves = ["attack", "attack", "end_turn", "end_turn", "action", "check", "status", "hits"]
    moves += ["answer"] * 6 if waiting else []
    moves += ["reveal"] if s.concealed else []
    move = data.draw(st.sampled_from(moves), label="move")
    turn = f.turn
    if move == "answer":
        d = data.draw(st.sampled_from(waiting), label="decision")
        choice = data.draw(st.sampled_from(d.choices), label="choice") if d.choices else None
        f.send(msgspec.convert(d.answer(choice), f.ruleset.command_type))  # answerable: checked before
        return f"{d.id} {choice.name if choice else ''}"
    others = sorted(c for c in s.combatants if c != turn)
    if move == "attack" and others:
        kind = data.draw(st.sampled_from(["LightMelee", "HeavyMelee", "Ranged"]), label="kind")
        weapon, band = ("Pistol", data.draw(st.sampled_from(["Close", "Near", "Far"]), label="band")) \
            if kind == "Ranged" else (data.draw(st.sampled_from(["Knife", None]), label="weapon"), "Melee")
        modifiers = data.draw(st.lists(st.sampled_from(["TargetedHit", "Steady", "Knockdown"]), max_size=2,
                                       unique=True), label="modifiers")
        aim = data.draw(st.sampled_from(["body", "head"]), label="aim") if "TargetedHit" in modifiers else "body"
        command: Any = Attack(combatant_id=turn, target=data.draw(st.sampled_from(others), label="target"),
                              attack=kind, weapon=weapon, band=band, modifiers=modifiers, aim=aim,
                              penalties=penalties(f, turn, data),
                              dice=data.draw(st.sampled_from(ATTACK_FACES), label="dice"))
    elif move == "action":
        command = TakeAction(combatant_id=turn, action="TakeCover", penalties=penalties(f, turn, data))
    elif move == "check":
        command = CallForCheck(combatant_id=data.draw(st.sampled_from(sorted(s.combatants)), label="who"),
                               attribute=data.draw(st.sampled_from(get_args(Attribute)), label="attribute"),
                               skill="Athletics", difficulty="Normal")
    elif move == "status":
        command = ApplyStatus(combatant_id=data.draw(st.sampled_from(sorted(s.combatants)), label="who"),
                              status=data.draw(st.sampled_from(STATUSES), label="status"))
    elif move == "hits":
        command = SetHits(combatant_id=data.draw(st.sampled_from(sorted(s.combatants)), label="who"),
                          hits=data.draw(st.sampled_from([0, 1, 2, 3, 3, 4]), label="hits"))
    elif move == "reveal":
        command = RevealCombatant(combatant_id=data.draw(st.sampled_from(sorted(s.concealed)), label="who"))
    else:
        command = EndTurn(combatant_id=turn)
    try:
        f.send(command)
    except RuleViolation as refused:
        assert f.state is s
        return f"{type(command).__name__} refused: {refused.code}"
    return type(command).__name__


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(1, 3), npcs=st.integers(0, 2), hide=st.sets(st.integers(0, 4)),
       seed=st.binary(min_size=32, max_size=32))
def test_every_pending_decision_is_answerable_and_prompted_to_the_right_viewer(
        data: Any, players: int, npcs: int, hide: set[int], seed: bytes) -> None:
    """Issue 18: "a hypothesis walk of legal commands keeps ... every pending decision answerable
    and prompted to the right viewer". After every command: each decision's body with each of
    its choices is accepted, and no player is prompted with a combatant hidden from them."""
    hidden = tuple(f"pc{i}" if i < players else f"npc{i}" for i in hide if i < players + npcs)
    f = fight(players, npcs, hidden, seed)
    steps = []
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        check_pending(f.ruleset, f.state)
        steps.append(step(f, data))
    check_pending(f.ruleset, f.state)
