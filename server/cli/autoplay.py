"""``fracas autoplay``: whole fights played against a running server from its next moves alone.

It speaks only the public HTTP API through the Python client, as a third-party table would:
it seats the ruleset's own examples (``GET /rulesets/{id}``: a player character, a weak NPC, a
strong NPC; a second player character and a hidden NPC made from them), gives each player
character's player a token, and then, as the GM and as each player with their own token, asks
``GET /encounters/{id}/actions`` and sends one offered move or decision exactly as offered,
with random faces for the dice it lists (the encounter's dice are ``reported``). A die the
command asks for beyond those (a ``dice_missing`` refusal naming it) is rolled and added, as at
the table. Once the fight is over the GM ends it; now and then the GM reveals a hidden combatant
(an ambush is sprung in time), so that every fight can end.

Counted: fights finished, commands, stalls (the fight not over and nobody offered a move or a
decision), refused offers (an offer the server then refuses: the door lies), 5xx answers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from server.client import Fracas, FracasError, ProblemError

MAX_COMMANDS = 1500  # one fight's commands at most: an autoplay always stops
REVEAL = 0.03  # the chance at each step that the GM reveals a hidden combatant, as a GM does in time


@dataclass
class Tally:
    fights: int = 0
    finished: int = 0
    commands: int = 0
    stalls: int = 0
    refused: list[str] = field(default_factory=list)
    server_errors: int = 0
    dice_asked: int = 0

    def line(self) -> str:
        return (f"fights finished: {self.finished}/{self.fights}, commands: {self.commands}, "
                f"stalls: {self.stalls}, refused offers: {len(self.refused)}, 5xx: {self.server_errors}, "
                f"dice asked: {self.dice_asked}")

    @property
    def clean(self) -> bool:
        return self.finished == self.fights and not (self.stalls or self.refused or self.server_errors)


def faces_for(action: dict[str, Any], rng: random.Random) -> list[int]:
    """Random faces for the dice ``action`` lists, an open roll's further dice as its rule says
    (docs/api.md, "The next moves")."""
    out: list[int] = []
    for need in action.get("dice") or []:
        sides, count = int(need["sides"]), int(need["count"])
        first = [rng.randint(1, sides) for _ in range(count)]
        out += first
        if not need.get("open") or (count == 2 and set(first) == {1, sides}):
            continue
        for face in first:
            again = face
            while again in (1, sides) and again == face:
                again = rng.randint(1, sides)
                out.append(again)
    return out


def pick(offered: list[tuple[Fracas, dict[str, Any]]], moves: dict[str, Any], status: str,
         rng: random.Random) -> tuple[Fracas, dict[str, Any]] | None:
    """What to send next, among the actions offered to everyone: the lifecycle while setting up,
    ending the encounter once the fight is over, else a decision first, then mostly a move other
    than ending the turn."""
    if moves["over"]:
        ends = [o for o in offered if o[1]["command"]["type"] == "EndEncounter"]
        return ends[0] if ends else None
    if status == "setup":
        steps = [o for o in offered if o[1]["command"]["type"] in ("StartEncounter", "RollInitiative")]
        starts = [o for o in steps if o[1]["command"]["type"] == "StartEncounter"]
        return (starts or steps or [None])[0]
    picks = [o for o in offered if o[1]["kind"] in ("decision", "move")]
    reveals = [o for o in offered if o[1]["command"]["type"] == "RevealCombatant"]
    if reveals and (not picks or rng.random() < REVEAL):
        return rng.choice(reveals)
    if not picks:
        return None
    decisions = [o for o in picks if o[1]["kind"] == "decision"]
    if decisions:  # a decision at random, then one of its answers: many answers are not many decisions
        asked = sorted({str(o[1].get("decision")) for o in decisions})
        one = rng.choice(asked)
        return rng.choice([o for o in decisions if str(o[1].get("decision")) == one])
    doing = [o for o in picks if o[1]["kind"] == "move" and o[1]["command"]["type"] != "EndTurn"]
    return rng.choice(doing if doing and rng.random() < 0.75 else picks)


def play_fight(url: str, ruleset: str, seed: int, tally: Tally, *, operator_key: str | None = None,
               transport: Any = None) -> None:
    """One fight, from opening to its end (or ``MAX_COMMANDS``)."""
    rng = random.Random(seed)
    tally.fights += 1
    with Fracas(url, transport=transport) as api:
        info = api.get(f"/rulesets/{ruleset}")
        examples = info.get("examples") or []
        if not examples:
            raise FracasError(f"the ruleset {ruleset} offers no combatant examples to seat")
        opened = api.open_encounter(ruleset, f"Autoplay {seed}", "reported", operator_key=operator_key)
        enc = opened.encounter_id
        gm = api.with_token(opened.gm_token)
        players: list[Fracas] = []
        cast = _cast(examples, rng)
        for body in cast:
            added = gm.add_combatant(enc, body["name"], side=body["side"], controller=body["controller"],
                                     sheet=body.get("sheet") or {}, hidden=bool(body.get("hidden")))
            if body["controller"] == "player":
                cid = added.events[0]["data"]["combatant_id"]
                players.append(gm.with_token(gm.mint_token(enc, "player", [cid])["token"]))
        status = "setup"
        for _ in range(MAX_COMMANDS):
            offered: list[tuple[Fracas, dict[str, Any]]] = []
            gm_moves: dict[str, Any] = {}
            for who in (gm, *players):
                moves = who.actions(enc)
                if who is gm:
                    gm_moves = moves
                offered += [(who, a) for a in moves["actions"]]
            chosen = pick(offered, gm_moves, status, rng)
            if chosen is None:
                tally.stalls += 1
                return
            who, action = chosen
            body = dict(action["command"])
            faces = faces_for(action, rng)
            if not _send(who, enc, body, faces, rng, tally, action["label"]):
                continue
            tally.commands += 1
            if body["type"] == "EndEncounter":
                tally.finished += 1
                return
            if body["type"] == "StartEncounter":
                status = "active"


def _send(who: Fracas, enc: str, body: dict[str, Any], faces: list[int], rng: random.Random, tally: Tally,
          label: str) -> bool:
    """Send ``body`` with ``faces``, rolling more (or fewer) where the server asks: accepted?"""
    for _ in range(64):
        try:
            who.command(enc, {**body, "dice": faces} if faces else body)
            return True
        except ProblemError as problem:
            if problem.status >= 500:
                tally.server_errors += 1
                return False
            if problem.code == "dice_missing" and "needed_sides" in problem.details:
                faces = [*faces, rng.randint(1, int(problem.details["needed_sides"]))]
                tally.dice_asked += 1
                continue
            if problem.code == "dice_unused" and "used" in problem.details:
                faces = faces[:int(problem.details["used"])]
                tally.dice_asked += 1
                continue
            tally.refused.append(f"{label}: {body} -> {problem}")
            return False
    tally.refused.append(f"{label}: {body} -> the dice never settled")
    return False


def _cast(examples: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The examples seated: every one of them, a second player character, and a hidden copy of
    one NPC on every other fight."""
    bodies = [dict(e["body"]) for e in examples]
    pcs = [b for b in bodies if b["controller"] == "player"]
    npcs = [b for b in bodies if b["controller"] != "player"]
    cast = list(bodies)
    if pcs:
        cast.append({**pcs[0], "name": f"{pcs[0]['name']} the Second"})
    if npcs and rng.random() < 0.5:
        cast.append({**rng.choice(npcs), "name": "Lurker", "hidden": True})
    return cast


def run(url: str, ruleset: str, seed: int, fights: int, operator_key: str | None = None,
        transport: Any = None) -> Tally:
    tally = Tally()
    for k in range(fights):
        try:
            play_fight(url, ruleset, seed + k, tally, operator_key=operator_key, transport=transport)
        except ProblemError as problem:
            if problem.status >= 500:
                tally.server_errors += 1
            else:
                raise
    return tally
