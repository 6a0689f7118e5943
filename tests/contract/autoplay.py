"""Play a fight with nothing but the offered next moves, through the decider (no server).

A table of players and NPCs (some hidden) is seated with the ruleset's contract sheets; then at
each step every viewer (the GM, each player) is asked for its next moves
(``projections.actions.actions_for``), one offered move or decision is picked at random and
sent as it is, by that viewer, with random faces for the dice it lists in a ``reported``
encounter. What is counted: a refused offer (an offer the rules then refuse: the door lies), a
stall (the fight not over and nobody offered a move or a decision), an empty ``waiting_on``
while the fight is not over, and whether the fight ended.
"""

from __future__ import annotations

import collections
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.dice import ReportedDice, SeededDice, seed_commitment
from domain.core.encounter import AddCombatant, EncounterState
from domain.core.errors import RuleViolation
from domain.core.next_moves import Action
from domain.core.ruleset import Ruleset
from projections.actions import actions_for
from projections.visibility import GM, Viewer
from tests.contract.walk import UNLIKELY, walk_of


def faces_for(action: Action, rng: random.Random) -> list[int]:
    """Random faces for the dice ``action`` lists, an open roll's further dice as its rule says."""
    out: list[int] = []
    for need in action.dice:
        first = [rng.randint(1, need.sides) for _ in range(need.count)]
        out += first
        if not need.open or (need.count == 2 and set(first) == {1, need.sides}):
            continue
        for face in first:
            again = face
            while again in (1, need.sides) and again == face:
                again = rng.randint(1, need.sides)
                out.append(again)
    return out


@dataclass
class Played:
    commands: int = 0
    dice_asked: int = 0  # dice a command asked for beyond those listed (``dice_missing``), or fewer (``dice_unused``)
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    stalls: int = 0
    empty_waiting: int = 0
    over: bool = False
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    state: EncounterState | None = None
    states: list[EncounterState] = field(default_factory=list)  # after each command, in order


def viewers(state: EncounterState) -> list[Viewer]:
    return [GM] + [Viewer("player", frozenset({c.id})) for c in state.combatants.values() if c.controller == "player"]


def play(ruleset: Ruleset, seed: int, steps: int = 400, policy: str = "seeded") -> Played:
    """One fight of at most ``steps`` commands, every one of them an offered action."""
    rng = random.Random(seed)
    secret = rng.randbytes(32)
    enc = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    events = ruleset.open(enc, "An autoplayed fight", policy, seed_commitment(secret))
    state = ruleset.replay(events)
    out = Played()
    walk = walk_of(ruleset)
    players, npcs = rng.randint(1, 3), rng.randint(1, 3)
    hidden = rng.randint(0, npcs)

    def send(viewer: Viewer, body: dict[str, Any], faces: list[int] | None) -> None:
        nonlocal state
        command = ruleset.command_decoder.decode(msgspec.json.encode({**body, **({"dice": faces} if faces else {})}))
        dice = ReportedDice(faces or []) if policy == "reported" else SeededDice(secret, enc, state.rolls_used)
        concealed = frozenset() if viewer.sees_all else ruleset.hidden_from(state, viewer.combatant_ids)
        new = ruleset.decide_as(concealed, state, command, dice, seed=secret)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        for event in new:
            state = ruleset.evolve(state, event)
        out.states.append(state)

    for i in range(players + npcs):
        npc = i >= players
        hide = npc and i >= players + npcs - hidden
        send(GM, msgspec.to_builtins(AddCombatant(
            combatant_id=f"{UNLIKELY}{i}" if hide else f"c{i}", name=f"Zq{UNLIKELY} {i}" if hide else f"Hero {i}",
            side="enemies" if npc else "party", controller="gm" if npc else "player",
            sheet=walk.sheet(rng, npc), hidden=hide)), None)
    for _ in range(steps):
        if state.status == "ended":
            break
        offered: list[tuple[Viewer, Action]] = []
        over = False
        for viewer in viewers(state):
            moves = actions_for(ruleset, state, viewer)
            if viewer.sees_all:
                over = moves.over
                if not moves.waiting_on and not moves.over:
                    out.empty_waiting += 1
            offered += [(viewer, a) for a in moves.actions]
        if over:
            out.over = True
            picks = [(v, a) for v, a in offered if a.command["type"] == "EndEncounter"]
        elif state.status == "setup":
            picks = [(v, a) for v, a in offered if a.command["type"] in ("RollInitiative", "StartEncounter")]
            picks = [p for p in picks if p[1].command["type"] == "StartEncounter"] or picks
        else:
            picks = [(v, a) for v, a in offered if a.kind in ("decision", "move")]
            # as players play: a decision first, then mostly something other than ending the turn
            decisions = [p for p in picks if p[1].kind == "decision"]
            doing = [p for p in picks if p[1].kind == "move" and p[1].command["type"] != "EndTurn"]
            picks = decisions or (doing if doing and rng.random() < 0.75 else picks)
        if not picks:
            out.stalls += 1
            break
        viewer, action = rng.choice(picks)
        faces = faces_for(action, rng) if policy == "reported" else None
        for _ in range(64):
            try:
                send(viewer, action.command, faces)
                break
            except RuleViolation as refused:
                # the dice a command rolls after its listed ones hang on how those fell: the
                # refusal names the next die (or how many it used), as a client reads it
                if refused.code == "dice_missing" and faces is not None:
                    faces.append(rng.randint(1, int(refused.details["needed_sides"])))
                    out.dice_asked += 1
                    continue
                if refused.code == "dice_unused" and faces is not None:
                    faces = faces[:int(refused.details["used"])]
                    out.dice_asked += 1
                    continue
                out.refused.append((action.label, action.command, f"{refused.code}: {refused}"))
                break
        else:
            out.refused.append((action.label, action.command, "dice never settled"))
        if out.refused and out.refused[-1][1] is action.command:
            continue
        out.commands += 1
        out.kinds[action.kind] += 1
    out.state = state
    return out
