"""``fracas demo [--ruleset ID]``: a ruleset's scripted demo fight against a running server.

It speaks only the public HTTP API, through the Python client (``server/client.py``), as any
third-party frontend would. The fight is the ruleset's own (``Ruleset.demo()``,
domain/core/demo.py): its cast and its script of commands, which reads the encounter as the
GM sees it and says who sends what. This module opens an encounter with seeded dice, seats
the cast (a player's token for each player's combatant, acting for that one only), sends the
script's commands with the right tokens, has the GM end the encounter, and tells the fight
from the server's readable log (``GET /encounters/{id}/log``, as a spectator reads it) as it
goes, round by round.
It ends with the ruleset's summary, the URL of the event history and a spectator token.

The script never loops forever: at most ``SETUP_COMMANDS + COMMANDS_PER_ROUND * rounds``
commands are sent. An unreachable server or an error answer stops it with the problem's
title and detail (``DemoError``); a ruleset that is not known here, or has no demo, is an
``UnknownDemo``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx

from domain.core.demo import Aside, DemoFight, Refusal, Send, Stuck, Table
from domain.core.log import count
from domain.core.ruleset import Registry, Ruleset
from server.client import ConnectionFailed, Fracas, FracasError, ProblemError, RetryPolicy

DEFAULT_RULESET = "places-of-power"
SETUP_COMMANDS = 20
COMMANDS_PER_ROUND = 80
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


# ------------------------------------------------------------------------- the wire


class Api:
    """The public API over HTTP, through the Python client (``server/client.py``: bearer
    tokens, an Idempotency-Key on every write, waits out 429 and busy answers); every error
    answer becomes a ``DemoError``."""

    def __init__(self, base_url: str, *, timeout: float = 10.0, http: httpx.Client | None = None) -> None:
        self.base = base_url.rstrip("/")
        self.own_http = http is None  # a client handed in is its owner's to close
        self.http = http or httpx.Client(base_url=self.base, timeout=timeout)
        self.retry = RetryPolicy(attempts=RATE_LIMIT_RETRIES + 1, max_retry_after=5.0)

    def close(self) -> None:
        if self.own_http:
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


class UnknownDemo(DemoError):
    """No demo fight for that ruleset id here: the message lists the ids that have one."""


def demo_of(ruleset_id: str, registry: Registry | None = None) -> tuple[Ruleset, DemoFight]:
    """The ruleset of that id and its demo fight (``registry``: default, the rulesets this
    Fracas offers)."""
    if registry is None:
        from domain.rulesets import default_registry

        registry = default_registry()
    with_demo = sorted(r.id for r in registry.all() if r.demo() is not None)
    if ruleset_id not in registry:
        raise UnknownDemo(f"there is no ruleset “{ruleset_id}”; known: {', '.join(sorted(r.id for r in registry.all()))}")
    ruleset = registry.get(ruleset_id)
    fight = ruleset.demo()
    if fight is None:
        raise UnknownDemo(f"{ruleset.name} ({ruleset_id}) has no demo fight; rulesets with one: {', '.join(with_demo)}")
    return ruleset, fight


class Teller:
    """Tells the fight from the server's readable log, as the spectator reads it (what the
    GM keeps to themselves, an NPC's modifier, stays so): each time it is asked, the lines it
    has not told yet (a new round after a blank line)."""

    def __init__(self, api: Api, encounter_id: str, token: str, out: Callable[[str], None]) -> None:
        self.api, self.enc, self.token, self.out = api, encounter_id, token, out
        self.told = 0  # the last version told
        self.round = 0  # the round of the last line told

    def tell(self) -> None:
        log = self.api.call("GET", f"/encounters/{self.enc}/log", self.token, what="reading the log")
        for entry in log["entries"]:
            if entry["versions"][-1] <= self.told:
                continue
            if entry["round"] != self.round:
                self.round = entry["round"]
                self.out("")
            self.out(entry["sentence"])
            self.told = entry["versions"][-1]

    def aside(self, text: str) -> None:
        self.out(f"   {text}")


class Fight:
    """The demo's table: the GM's token, the players' tokens, and the state as the GM sees it."""

    def __init__(self, api: Api, max_commands: int) -> None:
        self.api = api
        self.max_commands = max_commands
        self.commands = 0
        self.enc = ""
        self.gm = ""
        self.names: dict[str, str] = {}  # combatant id → name
        self.players: dict[str, str] = {}  # combatant id → its player's token
        self.teller: Teller | None = None

    def send(self, step: Send, table: Table) -> Refusal | None:
        """A command with the token of ``step.by`` (None: the GM); the state is read again after it."""
        self.commands += 1
        if self.commands > self.max_commands:
            raise DemoError(f"Stopped after {self.max_commands} commands: the fight should have ended by now.")
        body = step.command
        token = self.gm if step.by is None else self.players.get(step.by, self.gm)
        who = "the GM" if token == self.gm else f"{self.names.get(step.by or '', 'someone')}'s player"
        try:
            reply = self.api.call("POST", f"/encounters/{self.enc}/commands", token, body,
                                  what=f"{body.get('type')} sent by {who}")
        except ServerProblem as p:
            if not (step.may_refuse and p.refused_by_the_rules):
                raise
            return Refusal(p.code, p.detail, p.details)
        table.state = reply["state"] if token == self.gm else self.refresh()
        if self.teller is not None and {e["type"] for e in reply.get("events") or []} & {"RoundStarted",
                                                                                        "EncounterEnded"}:
            self.teller.tell()
        return None

    def refresh(self) -> Json:
        return self.api.call("GET", f"/encounters/{self.enc}", self.gm, what="reading the encounter")

    def play(self, fight: DemoFight, table: Table) -> None:
        """Run the script: each command sent, its refusal (or None) sent back."""
        script = fight.play(table)
        answer: Refusal | None = None
        try:
            while True:
                step = script.send(answer)
                if isinstance(step, Aside):
                    if self.teller is not None:
                        self.teller.aside(step.text)
                    answer = None
                else:
                    answer = self.send(step, table)
        except StopIteration:
            return
        except Stuck as stuck:
            if self.teller is not None:
                self.teller.tell()
                self.teller.aside(str(stuck))


def set_up(fight: Fight, ruleset: Ruleset, demo: DemoFight, operator_key: str | None, rounds: int,
           out: Callable[[str], None], *, tell: bool = True) -> tuple[Table, str]:
    """Open the encounter, seat the cast and hand out tokens. Returns the table the script
    reads and a spectator token for reading the history afterwards. ``tell``: tell the fight
    from the log as it goes (else silent: no log is read)."""
    api = fight.api
    opened = api.call("POST", "/encounters", operator_key,
                      {"ruleset": ruleset.id, "name": demo.name, "dice_policy": "seeded"},
                      what="opening an encounter")
    fight.enc, fight.gm = opened["encounter_id"], opened["gm_token"]["token"]
    out(f"Encounter “{demo.name}” opened with seeded dice: {fight.enc}")
    ids: dict[str, str] = {}
    for seat in demo.cast:
        added = api.call("POST", f"/encounters/{fight.enc}/combatants", fight.gm,
                         {"name": seat.name, "side": seat.side, "controller": seat.controller, "sheet": seat.sheet},
                         what=f"adding {seat.name}")
        cid = added["events"][0]["data"]["combatant_id"]
        ids[seat.name], fight.names[cid] = cid, seat.name
        if seat.controller == "player":
            minted = api.call("POST", f"/encounters/{fight.enc}/tokens", fight.gm,
                              {"role": "player", "combatant_ids": [cid], "label": f"{seat.name}'s player"},
                              what=f"minting {seat.name}'s player token")
            fight.players[cid] = minted["token"]
    spectator = api.call("POST", f"/encounters/{fight.enc}/tokens", fight.gm,
                         {"role": "spectator", "label": "fracas demo: the newcomer"}, what="minting a spectator token")
    if tell:
        fight.teller = Teller(api, fight.enc, spectator["token"], out)  # the newcomer's view of the fight
        fight.teller.tell()
        for cid, name in fight.names.items():
            if cid in fight.players:
                out(f"{name}'s player gets a token that acts for {name} only.")
        if len(fight.players) < len(fight.names):
            out("The GM plays the others.")
    table = Table(ids=ids, players=frozenset(fight.players), rounds=rounds, state=fight.refresh())
    return table, str(spectator["token"])


def summary(fight: Fight, demo: DemoFight, table: Table, spectator: str, out: Callable[[str], None]) -> None:
    lines = demo.summary(table)
    if lines:
        out("")
        for line in lines:
            out(line)
    history = f"{fight.api.base}/encounters/{fight.enc}/events?after=0&limit=1000"
    out(f"\nEncounter {fight.enc}: {count(table.state['version'], 'event')}.")
    out(f"Its event history: {history}")
    out(f"Read it with the spectator token: curl -H 'Authorization: Bearer {spectator}' '{history}'")


def run(url: str, operator_key: str | None = None, rounds: int = 4,
        out: Callable[[str], None] = print, ruleset: str = DEFAULT_RULESET, *,
        registry: Registry | None = None, http: httpx.Client | None = None) -> None:
    """Play ``ruleset``'s demo fight against the server at ``url``; raises ``DemoError`` when it
    cannot (``UnknownDemo`` before any request, for a ruleset without a demo here).
    ``registry``: where the demo is found (default: this Fracas' rulesets); ``http``: the
    client to talk with (default: a new one for ``url``)."""
    rules, demo = demo_of(ruleset, registry)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # no log line per request
    api = Api(url, http=http)
    try:
        health = api.call("GET", "/health", what="asking the server's health")
        if not isinstance(health, dict) or health.get("status") != "ok":
            raise DemoError(f"The server at {api.base} is not healthy: {health}")
        out(f"Fracas demo against {api.base}: a {rules.name} fight, {count(rounds, 'round')} at most.")
        fight = Fight(api, SETUP_COMMANDS + COMMANDS_PER_ROUND * rounds)
        table, spectator = set_up(fight, rules, demo, operator_key, rounds, out)
        fight.play(demo, table)
        fight.send(Send({"type": "EndEncounter"}), table)
        summary(fight, demo, table, spectator, out)
    finally:
        api.close()
