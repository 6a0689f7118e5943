"""``fracas demo``: a short scripted Places of Power fight against a running server.

It speaks only the public HTTP API, through the Python client (``server/client.py``), as any
third-party frontend would: it opens an encounter with seeded dice, seats Mira and Kess
(players, each acting with their own token) against two bandits (the GM's), rolls initiative
and plays rounds. On each turn the combatant attacks someone on the other side; every
decision the exchange then waits for (``state.rules.exchange``: ``stage``, ``awaiting``,
``choices``) is answered by whoever it waits for: a Critical's addition, the extra
Successes, a defence (Parry or Evade when affordable, else the armour, else taking it), the
GM's mishap, and, when a server has Pull your Punch, sparing a beaten enemy (the players) or
not (the bandits). A step it does not know stops the fight there, told. Players act with
their own tokens. The fight stops when one side is all Helpless or dead, or after ``rounds``
rounds; the GM ends the encounter and a summary is printed, with the URL of the event
history and a spectator token to read it.

The script never loops forever: it sends at most ``SETUP_COMMANDS + COMMANDS_PER_ROUND *
rounds`` commands. An unreachable server or an error answer stops it with the problem's
title and detail (``DemoError``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import httpx

from domain.places_of_power.harm import HIT_LEVELS, penalty_points
from server.client import ConnectionFailed, Fracas, FracasError, ProblemError, RetryPolicy

RULESET = "places-of-power"
ENCOUNTER_NAME = "Ambush at the ford (fracas demo)"
SETUP_COMMANDS = 20
COMMANDS_PER_ROUND = 80
ATTACKS_PER_TURN = 2
RATE_LIMIT_RETRIES = 5  # and busy answers, and broken connections (each write keeps its Idempotency-Key)

Json = dict[str, Any]


class DemoError(Exception):
    """The demo cannot go on: the message says why, for the newcomer."""


class UnknownStep(DemoError):
    """The exchange waits for a decision this demo cannot make (a newer server's rule)."""


class ServerProblem(DemoError):
    """An error answer: its RFC 9457 problem details."""

    def __init__(self, what: str, status: int, problem: Json) -> None:
        self.status = status
        self.code = str(problem.get("code", ""))
        self.title = str(problem.get("title", "Error"))
        self.detail = str(problem.get("detail") or "")
        self.details: Json = problem.get("details") or {}
        code = f" [{self.code}]" if self.code else ""
        super().__init__(f"{what}: the server answered {status} {self.title}{code}"
                         + (f": {self.detail}" if self.detail else ""))

    @property
    def refused_by_the_rules(self) -> bool:
        return self.status == 422 and self.title == "Not allowed by the rules"


# ------------------------------------------------------------------------ the cast


def _weapon(name: str, skill: str, damage: int, **extra: Any) -> Json:
    at_melee = {"Melee": {"difficulty": "Normal", "damage": damage}}
    return {"name": name, "skill": skill, "kind": "melee", "ranges": at_melee, **extra}


def _armour(name: str, layer: str, value: int, durability: int) -> Json:
    return {"name": name, "layer": layer, "value": value, "durability": durability}


# name → (side, controller, pronoun, sheet)
CAST: dict[str, tuple[str, str, str, Json]] = {
    "Mira": ("party", "player", "her", {
        "attributes": {"strength": "D10", "stamina": "D8", "agility": "D8", "dexterity": "D8", "perception": "D6"},
        "skills": {"Sword": "D10", "Knife": "D6", "Athletics": "D8", "Brawling": "D6", "Medical": "D4"},
        "weapons": [_weapon("Sabre", "Sword", 3), _weapon("Knife", "Knife", 2)],
        "armour": [_armour("Cloak", "Outer", 1, 2), _armour("Leather jerkin", "Base", 2, 3)],
        "initiative_modifier": 2,
    }),
    "Kess": ("party", "player", "her", {
        "attributes": {"strength": "D8", "agility": "D10", "dexterity": "D10", "intelligence": "D8"},
        "skills": {"Spear": "D8", "Athletics": "D8", "Medical": "D8", "Brawling": "D6"},
        "weapons": [_weapon("Spear", "Spear", 3, two_handed=True)],
        "armour": [_armour("Padded coat", "Outer", 1, 2), _armour("Gambeson", "Skin", 1, 2)],
        "initiative_modifier": 1,
    }),
    "Bandit": ("bandits", "gm", "his", {
        "attributes": {"strength": "D6", "agility": "D6", "dexterity": "D6"},
        "skills": {"Melee": "D6", "Athletics": "D6", "Brawling": "D6"},
        "weapons": [_weapon("Cudgel", "Melee", 2)],
        "armour": [_armour("Greatcoat", "Outer", 1, 2)],
        "initiative_modifier": 1,
    }),
    "Bandit Chief": ("bandits", "gm", "his", {
        "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D6"},
        "skills": {"Melee": "D8", "Athletics": "D8", "Brawling": "D6"},
        "weapons": [_weapon("Axe", "Melee", 3)],
        "armour": [_armour("Greatcoat", "Outer", 1, 2), _armour("Jerkin", "Base", 2, 3)],
        "initiative_modifier": 1,
    }),
}


# ------------------------------------------------------------------------- the wire


class Api:
    """The public API over HTTP, through the Python client (``server/client.py``: bearer
    tokens, an Idempotency-Key on every write, waits out 429 and busy answers); every error
    answer becomes a ``DemoError``."""

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self.base = base_url.rstrip("/")
        self.http = httpx.Client(base_url=self.base, timeout=timeout)
        self.retry = RetryPolicy(attempts=RATE_LIMIT_RETRIES + 1, max_retry_after=5.0)

    def close(self) -> None:
        self.http.close()

    def call(self, method: str, path: str, token: str | None = None, body: Json | None = None,
             what: str = "") -> Any:
        what = what or f"{method} {path}"
        api = Fracas(http=self.http, token=token, retry=self.retry)
        try:
            return api.get(path) if method == "GET" else api.post(path, body).data
        except ProblemError as p:
            problem = {"code": p.code, "title": p.title, "detail": p.detail, "details": p.details}
            raise ServerProblem(what, p.status, problem) from None
        except ConnectionFailed as exc:
            if isinstance(exc.__cause__, httpx.TimeoutException):
                raise DemoError(f"The server at {self.base} did not answer {what} in time.") from exc
            if isinstance(exc.__cause__, httpx.ConnectError):
                raise DemoError(f"Cannot reach a Fracas server at {self.base} ({exc.__cause__}). Start one with "
                                "`fracas serve` in another terminal, or name it with --url.") from exc
            raise DemoError(f"{what} failed: {exc.__cause__}") from exc
        except FracasError as exc:  # an answer that is not JSON
            raise DemoError(f"{what}: the answer from {self.base} is not JSON: is it a Fracas server?") from exc


# ------------------------------------------------------------------------ narration


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    if word.endswith("y"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}{'es' if word.endswith('ss') else 's'}"


def _ap(n: int) -> str:
    return f"{n} AP"


def _words(name: str) -> str:
    """``UnavoidableHit`` → ``Unavoidable Hit``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def wound_level(hits: int, dead: bool) -> str:
    return "dead" if dead else HIT_LEVELS[min(hits, len(HIT_LEVELS) - 1)]


MISHAPS = {
    1: "loses balance and ends up Prone",
    2: "is off balance: no Evade, Parry or Dive for the rest of the round",
    3: "loses grip: the weapon slides across the floor",
    4: "crashes into the opponent and is Weakened",
    5: "stumbles and loses an Action Point",
    6: "damages the weapon: attacks with it are at a Disadvantage",
}
KINDS = {"LightMelee": "Light", "HeavyMelee": "Heavy", "Ranged": "Ranged"}
DEFENCES = {"Evade": "tries to evade", "Parry": "parries", "Dive": "dives aside"}


class Narrator:
    """Turns the events of each reply into lines in the game's words. An attack's line is
    held back a moment so that the attacker's follow-up (a Critical's addition, the extra
    Successes spent) joins it."""

    def __init__(self, out: Callable[[str], None], last_round: int) -> None:
        self.out = out
        self.last_round = last_round
        self.names: dict[str, str] = {}
        self.pronouns: dict[str, str] = {}
        self.order: list[str] = []
        self.round = 0
        self.difficulty = ""
        self.harm_told = False  # the current exchange has told what reached whom
        self.riposte = False  # the current exchange's defender has parried into a Riposte
        self.pending = ""

    def name(self, cid: str, *, start: bool = False) -> str:
        n = self.names.get(cid, "someone")
        return n[0].upper() + n[1:] if start else n

    def place(self, cid: str) -> int:
        return self.order.index(cid) if cid in self.order else len(self.order)

    def say(self, line: str) -> None:
        self.flush()
        self.out(line)

    def flush(self) -> None:
        if self.pending:
            self.out(self.pending + ".")
            self.pending = ""

    def tell(self, events: list[Json]) -> None:
        for e in events:
            self.event(e["type"], e.get("data") or {})

    def event(self, kind: str, d: Json) -> None:  # noqa: C901 - one line per event type
        n = self.name
        if kind == "RoundStarted":
            self.round = d["round"]
            if self.round <= self.last_round:
                points = d.get("action_points") or {}
                ap = ", ".join(f"{n(c)} {points[c]}" for c in sorted(points, key=self.place))
                self.say(f"\nRound {self.round} begins. Action Points: {ap}.")
        elif kind == "InitiativeRolled":
            rolls = [f"{'the GM' if r['who'] == 'npcs' else n(r['who'])} {r['total']}"
                     + (" for the NPCs" if r["who"] == "npcs" else "") for r in d["rolls"]]
            self.order = list(d["order"])
            self.say(f"Initiative (D12 + modifier): {', '.join(rolls)}. Order of play: "
                     f"{' → '.join(n(c) for c in self.order)}.")
        elif kind == "AttackDeclared":
            whose = self.pronouns.get(d["attacker"], "their")
            weapon = "bare hands" if d["weapon"] == "Unarmed" else f"{whose} {d['weapon']}"
            self.say("")
            self.difficulty, self.harm_told, self.riposte = d["difficulty"], False, False
            paying = f", paying {_plural(len(d['penalties']), 'Penalty Point')}" if d.get("penalties") else ""
            self.pending = (f"Round {self.round} — {n(d['attacker'])} attacks {n(d['defender'])} with {weapon} "
                            f"({KINDS.get(d['attack'], d['attack'])}, {_ap(d['action_points'])}{paying})")
        elif kind == "AttackRolled":
            self.pending += f": {d['total']} against {self.difficulty} — {d['outcome']}"
        elif kind == "CriticalEffectChosen":
            self.pending += f", Critical: {_words(d['effect'])}"
        elif kind == "SuccessesSpent":
            spent = [f"{_plural(d['split'].count(s), 'extra Success')} spent on {s}" for s in ("Damage", "Precision")
                     if s in d["split"]]
            self.pending += ", " + " and ".join(spent) + f" ({_plural(d['damage'], 'Hit')}, defended at " \
                f"{d['defence_difficulty']})"
        elif kind == "DefenceRolled":
            who = n(d["defender"], start=True)
            if d["defence"] in DEFENCES:
                result = "a Riposte!" if d["riposte"] else ("it works" if d["success"] else "it fails")
                self.riposte = bool(d["riposte"])
                self.say(f"   {who} {DEFENCES[d['defence']]} ({_ap(d['action_points'])}): {d['total']} "
                         f"against {d['difficulty']} — {result}")
            else:
                self.say(f"   {who} uses {_words(d['defence'])} ({_ap(d['action_points'])})")
        elif kind == "ArmourTook" and d["damage"] == 0:
            pass  # told as no harm when the exchange ends
        elif kind == "ArmourTook":
            self.harm_told = True
            worn = " and ".join(d["used"]) or "armour"
            line = (f"   {n(d['combatant_id'], start=True)} takes {'the Riposte' if self.riposte else 'it'} "
                    f"on the armour: {worn} "
                    f"{'stops' if len(d['used']) == 1 else 'stop'} {d['damage'] - d['damage_through']} of "
                    f"{_plural(d['damage'], 'Hit')}")
            if d["destroyed"]:
                line += f"; {' and '.join(d['destroyed'])} destroyed"
            self.say(line)
        elif kind == "HitsTaken":
            self.harm_told = True
            level = wound_level(d["hits"], d["dead"])
            end = " and dies" if d["dead"] else f": {level}"
            self.say(f"   {n(d['combatant_id'], start=True)} takes {_plural(d['damage'], 'Hit')}{end}"
                     + (f" ({_plural(d['injuries'], 'Injury')})" if d["injuries"] else ""))
        elif kind == "KnockedProne":
            self.say(f"   {n(d['combatant_id'], start=True)} goes down Prone ({d['reason']})")
        elif kind == "LethalBlow":
            self.say(f"   {_plural(d['damage'], 'Hit')} would kill {n(d['combatant_id'])}")
        elif kind == "PunchPulled":
            result = "it works: Helpless, not dead" if d["success"] else "it fails: the full blow lands"
            self.say(f"   {n(d['combatant_id'], start=True)} pulls {self.pronouns.get(d['combatant_id'], 'their')} "
                     f"punch ({_ap(d['action_points'])}): {d['total']} against {d['difficulty']} — {result}")
        elif kind == "MishapSuffered":
            how = f"the GM rolls {d['die']['face']} on the D6" if d.get("die") else f"the GM picks {d['result']}"
            self.say(f"   Critical Miss: {how}. {n(d['combatant_id'], start=True)} "
                     f"{MISHAPS.get(d['result'], 'suffers a mishap')}")
        elif kind == "ExchangeEnded":
            if d["result"] == "missed":
                self.pending += ": a miss"
            elif d["result"] == "avoided":
                self.say("   The blow is avoided")
            elif d["result"] == "hit" and not self.harm_told:
                self.say("   The blow lands but does no harm")
            self.flush()
        elif kind == "ActionTaken":
            what = "gets back up (Stand" if d["action"] == "Stand" else f"takes an action ({_words(d['action'])}"
            self.say(f"\nRound {self.round} — {n(d['combatant_id'])} {what}, {_ap(d['action_points'])})")
        elif kind == "HealingRolled":
            result = "1 Hit restored" if d["healed"] else "no Hit restored"
            self.say(f"\nRound {self.round} — {n(d['healer'])} tends to {n(d['target'])} (Medical, "
                     f"{_ap(d['action_points'])}): {d['total']} against {d['difficulty']} — "
                     f"{d['outcome']}, {result}")
        elif kind == "EncounterEnded":
            self.say(f"\nThe GM ends the encounter. The dice seed is revealed: {d.get('seed')}")
        elif kind not in ("TurnEnded", "EncounterStarted", "CombatantAdded"):
            self.say(f"   ({kind})")


# --------------------------------------------------------------------------- the fight


def down(c: Json) -> bool:
    """Out of the fight: dead or Helpless."""
    s = c["sheet"]
    return bool(s["dead"] or s["hits"] >= 4 or s.get("helpless_for_fight"))


def sides(state: Json) -> dict[str, list[Json]]:
    out: dict[str, list[Json]] = {}
    for c in state["combatants"].values():
        out.setdefault(c["side"], []).append(c)
    return out


def beaten_side(state: Json) -> str | None:
    for side, members in sides(state).items():
        if all(down(c) for c in members):
            return side
    return None


def _sides_of_die(die: str | None) -> int:
    return int(die[1:]) if die else 0


def defence_dice(c: Json, defence: str) -> int:
    """How good a defence is for this combatant: the sides of its two dice added (0: cannot roll it)."""
    s = c["sheet"]
    if defence == "Parry":
        blade = next((w for w in s["weapons"] if w["kind"] == "melee" and w["name"] not in s["dropped_weapons"]), None)
        if blade is None or blade["skill"] not in s["skills"]:
            return 0
        return _sides_of_die(s["attributes"]["strength"]) + _sides_of_die(s["skills"][blade["skill"]])
    skill = s["skills"].get("Athletics")
    return _sides_of_die(s["attributes"]["agility"]) + _sides_of_die(skill) if skill else 0


class Fight:
    """The demo's table: the GM's token, the players' tokens, and the state as the GM sees it."""

    def __init__(self, api: Api, narrator: Narrator, max_commands: int) -> None:
        self.api = api
        self.narrator = narrator
        self.max_commands = max_commands
        self.commands = 0
        self.enc = ""
        self.gm = ""
        self.players: dict[str, str] = {}  # combatant id → its player's token
        self.state: Json = {}

    # -- sending

    def token_for(self, cid: str) -> str:
        return self.players.get(cid, self.gm)

    def send(self, body: Json, as_: str | None = None) -> Json:
        """A command with the token of ``as_`` (a combatant id; None: the GM); narrates the events."""
        self.commands += 1
        if self.commands > self.max_commands:
            raise DemoError(f"Stopped after {self.max_commands} commands: the fight should have ended by now.")
        token = self.gm if as_ is None else self.token_for(as_)
        who = "the GM" if token == self.gm else f"{self.narrator.name(as_ or '')}'s player"
        reply = self.api.call("POST", f"/encounters/{self.enc}/commands", token, body,
                              what=f"{body['type']} sent by {who}")
        self.narrator.tell(reply.get("events") or [])
        self.state = reply["state"] if token == self.gm else self.refresh()
        return reply

    def refresh(self) -> Json:
        self.state = self.api.call("GET", f"/encounters/{self.enc}", self.gm, what="reading the encounter")
        return self.state

    def act(self, body: Json, as_: str, *, rolled: bool) -> Json | None:
        """An action the combatant chose, paying any Penalty Points its wounds owe (a rolled
        action steps a die down; one without dice costs an Action Point more). The rules may
        refuse it: the refusal is told and None returned."""
        owed = penalty_points(self.combatant(as_)["sheet"]["hits"])
        ways = ["StepDownDie", "IncreaseDifficulty", "IncreaseCost"] if rolled else ["IncreaseCost"]
        way = 0
        for _ in range(len(ways) + 2):
            try:
                return self.send({**body, "penalties": [ways[way]] * owed}, as_)
            except ServerProblem as p:
                asked = p.details.get("owed")
                if p.code == "penalty_points_owed" and isinstance(asked, int) and asked != owed:
                    owed = asked  # the server counts more (a grapple, say): pay what it asks
                    continue
                if p.code == "penalty_not_applicable" and way + 1 < len(ways):
                    way += 1
                    continue
                if not p.refused_by_the_rules:
                    raise
                self.narrator.say(f"   The rules refuse: {p.detail}")
                return None
        return None

    # -- reading

    def combatant(self, cid: str) -> Json:
        return dict(self.state["combatants"][cid])

    def opponents(self, c: Json) -> list[Json]:
        return [o for o in self.state["combatants"].values() if o["side"] != c["side"] and not down(o)]

    # -- the script

    def play(self, rounds: int) -> None:
        while beaten_side(self.state) is None and self.state["round"] <= rounds and self.state["status"] == "active":
            try:
                self.take_turn(self.state["turn"])
            except UnknownStep as stuck:
                self.narrator.say(f"   {stuck}")
                return

    def take_turn(self, cid: str) -> None:
        c = self.combatant(cid)
        if down(c):
            if not c["sheet"]["dead"]:  # a death has been told already
                self.narrator.say(f"{self.narrator.name(cid, start=True)} is Helpless and cannot act.")
        else:
            self.act_on_turn(cid)
            if beaten_side(self.state) is not None:
                return
        self.send({"type": "EndTurn", "combatant_id": cid}, cid)

    def act_on_turn(self, cid: str) -> None:
        if self.combatant(cid)["sheet"]["prone"]:
            owed = penalty_points(self.combatant(cid)["sheet"]["hits"])
            if self.combatant(cid)["action_points"] < 1 + owed:
                return
            if self.act({"type": "TakeAction", "combatant_id": cid, "action": "Stand"}, cid, rolled=False) is None:
                return
        self.heal_a_friend(cid)
        for n in range(ATTACKS_PER_TURN):
            if not self.attack(cid, first=n == 0):
                return
            if beaten_side(self.state) is not None:
                return

    def heal_a_friend(self, cid: str) -> None:
        """A combatant with Medical tends to a Helpless friend (3 AP) before fighting on."""
        c = self.combatant(cid)
        s = c["sheet"]
        if "Medical" not in s["skills"] or _sides_of_die(s["skills"]["Medical"]) < 8 or c["action_points"] < 3:
            return
        friend = next((f for f in self.state["combatants"].values() if f["side"] == c["side"] and f["id"] != cid
                       and not f["sheet"]["dead"] and f["sheet"]["hits"] >= 4
                       and not f["sheet"].get("helpless_for_fight")), None)
        if friend is None:
            return
        attribute = max(("dexterity", "intelligence"), key=lambda a: _sides_of_die(s["attributes"][a]))
        self.act({"type": "Heal", "combatant_id": cid, "target": friend["id"], "attribute": attribute}, cid,
                 rolled=True)

    def attack(self, cid: str, *, first: bool) -> bool:
        """One attack and its whole exchange; False when the combatant cannot or will not attack."""
        c = self.combatant(cid)
        targets = self.opponents(c)
        if not targets:
            return False
        target = max(targets, key=lambda o: o["sheet"]["hits"])  # the most hurt: finish them
        s = c["sheet"]
        weapon = next((w for w in s["weapons"] if w["kind"] == "melee" and "Melee" in w["ranges"]
                       and w["name"] not in s["dropped_weapons"]), None)
        if weapon is None and "Brawling" not in s["skills"]:
            return False
        ap = c["action_points"]
        # The first attack of a turn: Heavy when it still leaves an Action Point to defend with.
        # A second one only keeps an Action Point back.
        kind = "HeavyMelee" if first and ap >= 3 else "LightMelee"
        if ap < (1 if first else 2):
            return False
        body = {"type": "Attack", "combatant_id": cid, "target": target["id"], "attack": kind, "band": "Melee",
                "weapon": weapon["name"] if weapon else None}
        if self.act(body, cid, rolled=True) is None:
            return False
        self.resolve_exchange()
        return True

    def resolve_exchange(self) -> None:
        """Answer every decision the exchange waits for, as whoever it waits for."""
        while (ex := self.state["rules"].get("exchange")) is not None:
            choices = {ch["name"]: ch["action_points"] for ch in ex["choices"]}
            awaiting = ex["awaiting"]
            stage = ex["stage"]
            base = {"attack": ex["id"]}
            if stage == "mishap":
                self.send({"type": "ResolveMishap", **base})  # the GM rolls the D6
            elif stage == "critical":
                effect = "UnavoidableHit" if "UnavoidableHit" in choices else next(
                    n for n in choices if n != "InflictCondition")
                self.send({"type": "ChooseCriticalEffect", "combatant_id": awaiting, "effect": effect, **base},
                          awaiting)
            elif stage == "spend":
                self.send({"type": "SpendSuccesses", "combatant_id": awaiting, "split": ["Damage"] * ex["extra"],
                           **base}, awaiting)
            elif stage in ("defence", "riposte"):
                self.defend(awaiting, choices, ex)
            elif stage == "pull":  # a killing blow: the players spare their enemy, the bandits do not
                spare = "PullYourPunch" in choices and awaiting in self.players
                self.send({"type": "PullYourPunch", "combatant_id": awaiting, "pull": spare, **base}, awaiting)
            else:
                raise UnknownStep(f"Attack {ex['id']} waits for “{stage}”, a step this demo does not know: "
                                  "the GM ends the fight here.")

    def defend(self, cid: str, choices: dict[str, int], ex: Json) -> None:
        """Parry or Evade (or Dive) if affordable, the better dice first; else the armour; else take it.
        A blow that does no harm is taken."""
        c = self.combatant(cid)
        body = {"type": "Defend", "combatant_id": cid, "attack": ex["id"]}
        harmless = ex["damage"] == 0 and ex.get("critical") is None and "Knockdown" not in ex["modifiers"]
        if harmless:
            self.send({**body, "defence": "TakeIt"}, cid)
            return
        active = sorted((n for n in ("Parry", "Evade", "Dive") if n in choices and defence_dice(c, n) > 0),
                        key=lambda n: -defence_dice(c, n))
        if active and self.act({**body, "defence": active[0]}, cid, rolled=True) is not None:
            return
        self.send({**body, "defence": "Armour" if "Armour" in choices else "TakeIt"}, cid)


# ------------------------------------------------------------------------- set-up


def set_up(fight: Fight, operator_key: str | None) -> str:
    """Open the encounter, seat the cast, hand out tokens, roll initiative and start.
    Returns a spectator token for reading the history afterwards."""
    api, say = fight.api, fight.narrator.say
    opened = api.call("POST", "/encounters", operator_key,
                      {"ruleset": RULESET, "name": ENCOUNTER_NAME, "dice_policy": "seeded"},
                      what="opening an encounter")
    fight.enc, fight.gm = opened["encounter_id"], opened["gm_token"]["token"]
    say(f"Encounter “{ENCOUNTER_NAME}” opened with seeded dice: {fight.enc}")
    for name, (side, controller, pronoun, sheet) in CAST.items():
        added = api.call("POST", f"/encounters/{fight.enc}/combatants", fight.gm,
                         {"name": name, "side": side, "controller": controller, "sheet": sheet},
                         what=f"adding {name}")
        cid = added["events"][0]["data"]["combatant_id"]
        fight.narrator.names[cid] = name if controller == "player" else f"the {name}"
        fight.narrator.pronouns[cid] = pronoun
        gear = ", ".join(w["name"] for w in sheet["weapons"]) + "; " + ", ".join(a["name"] for a in sheet["armour"])
        if controller == "player":
            minted = api.call("POST", f"/encounters/{fight.enc}/tokens", fight.gm,
                              {"role": "player", "combatant_ids": [cid], "label": f"{name}'s player"},
                              what=f"minting {name}'s player token")
            fight.players[cid] = minted["token"]
            say(f"{name} joins the {side} ({gear}); {pronoun} player gets a token that acts for {name} only.")
        else:
            say(f"The {name} joins the {side} ({gear}), played by the GM.")
    spectator = api.call("POST", f"/encounters/{fight.enc}/tokens", fight.gm,
                         {"role": "spectator", "label": "fracas demo: the newcomer"}, what="minting a spectator token")
    fight.send({"type": "RollInitiative"})
    fight.send({"type": "StartEncounter"})
    return str(spectator["token"])


def summary(fight: Fight, spectator: str, rounds: int) -> None:
    say, state = fight.narrator.say, fight.state
    beaten = beaten_side(state)
    played = min(state["round"], rounds)
    if beaten:
        winners = " and the ".join(s for s in sides(state) if s != beaten)
        say(f"\nAfter {_plural(played, 'round')} every one of the {beaten} is down: the {winners} win.")
    else:
        say(f"\nAfter {_plural(played, 'round')} both sides still stand.")
    for c in state["combatants"].values():
        s = c["sheet"]
        standing = "down" if down(c) else "stands"
        injuries = f", {_plural(s['injuries'], 'Injury')}" if s["injuries"] else ""
        say(f"  {fight.narrator.name(c['id'], start=True)} ({c['side']}): {standing}, "
            f"{wound_level(s['hits'], s['dead'])}, Hits taken: {s['hits']}{injuries}")
    history = f"{fight.api.base}/encounters/{fight.enc}/events?after=0&limit=1000"
    say(f"\nEncounter {fight.enc}: {_plural(state['version'], 'event')}.")
    say(f"Its event history: {history}")
    say(f"Read it with the spectator token: curl -H 'Authorization: Bearer {spectator}' '{history}'")


def run(url: str, operator_key: str | None = None, rounds: int = 4,
        out: Callable[[str], None] = print) -> None:
    """Play the demo fight against the server at ``url``; raises ``DemoError`` when it cannot."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # no log line per request
    api = Api(url)
    narrator = Narrator(out, rounds)
    try:
        health = api.call("GET", "/health", what="asking the server's health")
        if not isinstance(health, dict) or health.get("status") != "ok":
            raise DemoError(f"The server at {api.base} is not healthy: {health}")
        out(f"Fracas demo against {api.base}: a Places of Power fight, {_plural(rounds, 'round')} at most.")
        fight = Fight(api, narrator, SETUP_COMMANDS + COMMANDS_PER_ROUND * rounds)
        spectator = set_up(fight, operator_key)
        fight.play(rounds)
        narrator.flush()
        fight.send({"type": "EndEncounter"})
        summary(fight, spectator, rounds)
    finally:
        narrator.flush()
        api.close()
