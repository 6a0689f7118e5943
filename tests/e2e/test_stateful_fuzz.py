"""Issue 40, "A stateful fuzzer over HTTP, every ruleset": a hypothesis state machine against a
real `fracas serve` and PostgreSQL. Each run opens an encounter of a ruleset, seats the ruleset's
examples (two player characters, an NPC, a hidden NPC) and gives each player and a spectator a
token; then it sends, from every kind of token, commands valid and not: an offered move exactly
as offered, someone else's move (the wrong actor), a move naming the hidden combatant, numbers
pushed to extremes, a stale `If-Match`, a replayed `Idempotency-Key` with another body.

After every step: no answer was a 5xx; a refusal appended nothing; an offered move was accepted
(the next moves never lie); the versions are 1..N with none missing; replaying the events to
each version gives the state the fight had then; and, while the hidden NPC is hidden, no read of
a player or spectator (the state, events, log, next moves, a refusal) carries its id or name."""

from __future__ import annotations

import json
import os
import threading
import uuid
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from tests.e2e.test_cli import env, serving  # noqa: F401  (env is a fixture)

RULESETS = ["places-of-power", "health-trauma", "realms", "novus"]
EXTREMES = [-1, 0, 2**31, 10**12, -(2**63)]
HIDDEN_NAME = "Qzxv the unseen"


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(strings_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(strings_in(v) for v in value))
    return set()


def replaced(value: Any, old: set[str], new: str) -> Any:
    """``value`` with every string in ``old`` (a combatant id) replaced by ``new``."""
    if isinstance(value, str):
        return new if value in old else value
    if isinstance(value, dict):
        return {k: replaced(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [replaced(v, old, new) for v in value]
    return value


def pushed(value: Any, number: int) -> Any:
    """``value`` with every integer (not a boolean) set to ``number``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return number
    if isinstance(value, dict):
        return {k: pushed(v, number) for k, v in value.items()}
    if isinstance(value, list):
        return [pushed(v, number) for v in value]
    return value


def machine_for(base: str, http: httpx.Client) -> type[RuleBasedStateMachine]:
    class Table(RuleBasedStateMachine):
        """One encounter, fuzzed."""

        @initialize(ruleset=st.sampled_from(RULESETS))
        def open_the_fight(self, ruleset: str) -> None:
            self.ruleset = ruleset
            # reported dice (middle faces, below): the same steps play the same fight, so a failure replays
            r = self.call("POST", "/encounters", None, {"ruleset": ruleset, "name": "Fuzzed", "dice_policy": "reported"})
            assert r.status_code == 201, r.text
            self.enc = r.json()["encounter_id"]
            self.headers: dict[str, dict[str, str]] = {"gm": {"Authorization": f"Bearer {r.json()['gm_token']['token']}"}}
            examples = self.call("GET", f"/rulesets/{ruleset}", None).json()["examples"]
            pc = next(e["body"] for e in examples if e["body"]["controller"] == "player")
            npc = next(e["body"] for e in examples if e["body"]["controller"] == "gm")
            self.ids: dict[str, str] = {}
            for name, body, hidden in (("Mira", pc, False), ("Kess", pc, False), ("Raider", npc, False),
                                       (HIDDEN_NAME, npc, True)):
                r = self.call("POST", f"/encounters/{self.enc}/combatants", "gm",
                              {**body, "name": name, "side": body["side"], "hidden": hidden})
                assert r.status_code == 201, r.text
                self.ids[name] = r.json()["events"][0]["data"]["combatant_id"]
            self.hidden = self.ids[HIDDEN_NAME]
            for who, name in (("p1", "Mira"), ("p2", "Kess")):
                r = self.call("POST", f"/encounters/{self.enc}/tokens", "gm",
                              {"role": "player", "combatant_ids": [self.ids[name]]})
                self.headers[who] = {"Authorization": f"Bearer {r.json()['token']}"}
            r = self.call("POST", f"/encounters/{self.enc}/tokens", "gm", {"role": "spectator"})
            self.headers["spectator"] = {"Authorization": f"Bearer {r.json()['token']}"}
            self.states: dict[int, Any] = {}  # the GM's state at each version, as the fight had it then
            self.offered_refused: list[str] = []

        # ------------------------------------------------------------------ plumbing

        def call(self, method: str, path: str, who: str | None, body: Any = None,
                 headers: dict[str, str] | None = None) -> httpx.Response:
            hdrs = {**(self.headers[who] if who else {}), **(headers or {})}
            r = http.request(method, base + path, headers=hdrs, json=body)
            assert r.status_code < 500, f"{method} {path} as {who} with {body}: {r.status_code} {r.text}"
            return r

        def version(self) -> int:
            return self.call("GET", f"/encounters/{self.enc}", "gm").json()["version"]

        def offers(self, who: str) -> list[dict[str, Any]]:
            return self.call("GET", f"/encounters/{self.enc}/actions", who).json()["actions"]

        def send(self, who: str, body: Any, headers: dict[str, str] | None = None,
                 action: dict[str, Any] | None = None) -> httpx.Response:
            """Send a command (with middle faces for the dice ``action`` lists, and for any more one
            asks for); a refusal must append nothing and hide the hidden NPC from a player."""
            faces = [max(1, need["sides"] // 2) for need in (action or {}).get("dice") or [] for _ in range(need["count"])]
            for _ in range(4):
                r = self._send(who, {**body, "dice": faces} if faces and isinstance(body, dict) else body, headers)
                details = r.json().get("details") or {} if r.status_code == 422 else {}
                if r.status_code != 422 or r.json().get("code") != "dice_missing" or "needed_sides" not in details:
                    return r
                faces = [*faces, max(1, int(details["needed_sides"]) // 2)]
            return r

        def _send(self, who: str, body: Any, headers: dict[str, str] | None) -> httpx.Response:
            before = self.version()
            r = self.call("POST", f"/encounters/{self.enc}/commands", who, body, headers)
            event(f"{self.ruleset}: {r.status_code} {r.json().get('code', '') if r.status_code >= 400 else ''}")
            if r.status_code >= 400:
                assert self.version() == before, f"a refusal appended something: {body} -> {r.text}"
                if who != "gm" and self.still_hidden():
                    assert HIDDEN_NAME not in r.text, r.text
            else:
                state = self.call("GET", f"/encounters/{self.enc}", "gm").json()
                self.states[state["version"]] = state
            return r

        def still_hidden(self) -> bool:
            state = self.call("GET", f"/encounters/{self.enc}", "gm").json()
            c = state["combatants"].get(self.hidden)
            return bool(c and c.get("hidden"))

        # ------------------------------------------------------------------ commands

        @rule(who=st.sampled_from(["gm", "p1", "p2"]), pick=st.integers(0, 10_000))
        def an_offered_move_is_accepted_as_offered(self, who: str, pick: int) -> None:
            offers = [a for a in self.offers(who) if a["command"]["type"] != "EndEncounter"]
            if not offers:
                return
            action = offers[pick % len(offers)]
            r = self.send(who, action["command"], action=action)
            assert r.status_code == 200, f"offered to {who}, then refused: {action['label']}: {r.text}"

        @rule(actor=st.sampled_from(["p1", "p2"]), sender=st.sampled_from(["p1", "p2", "spectator"]),
              pick=st.integers(0, 10_000))
        def someone_elses_move_is_refused(self, actor: str, sender: str, pick: int) -> None:
            offers = self.offers(actor)
            if not offers or sender == actor:
                return
            action = offers[pick % len(offers)]
            r = self.send(sender, action["command"], action=action)
            assert r.status_code in (403, 409, 422), r.text

        @rule(who=st.sampled_from(["p1", "p2"]), pick=st.integers(0, 10_000))
        def a_move_naming_the_hidden_npc_is_refused_as_an_unknown_one_is(self, who: str, pick: int) -> None:
            offers = [a for a in self.offers(who) if strings_in(a["command"]) & set(self.ids.values())]
            if not offers:
                return
            action = offers[pick % len(offers)]
            command = action["command"]
            own = self.ids["Mira" if who == "p1" else "Kess"]
            named = strings_in(command) & set(self.ids.values()) - {own}  # whom it is aimed at
            if not named:
                return
            hidden = self.send(who, replaced(command, named, self.hidden), action=action)
            unknown = self.send(who, replaced(command, named, str(uuid.uuid4())), action=action)
            if self.still_hidden():
                assert hidden.status_code == unknown.status_code, (hidden.text, unknown.text)

        @rule(who=st.sampled_from(["gm", "p1", "p2"]), pick=st.integers(0, 10_000), number=st.sampled_from(EXTREMES))
        def extreme_numbers_are_refused_or_taken_never_a_5xx(self, who: str, pick: int, number: int) -> None:
            offers = self.offers(who)
            if offers:
                action = offers[pick % len(offers)]
                self.send(who, pushed(action["command"], number), action=action)

        @rule(who=st.sampled_from(["gm", "p1", "p2"]), pick=st.integers(0, 10_000))
        def a_stale_if_match_is_refused(self, who: str, pick: int) -> None:
            offers = self.offers(who)
            version = self.version()
            if not offers or version < 2:
                return
            action = offers[pick % len(offers)]
            r = self.send(who, action["command"], {"If-Match": f'"{version - 1}"'}, action)
            assert r.status_code == 412, f"{self.ruleset}, {who}: {action['label']} {action['command']}: {r.text}; ids {self.ids}"

        @rule(who=st.sampled_from(["gm", "p1", "p2"]), pick=st.integers(0, 10_000))
        def a_replayed_idempotency_key_records_nothing_twice(self, who: str, pick: int) -> None:
            offers = self.offers(who)
            if not offers:
                return
            key = {"Idempotency-Key": str(uuid.uuid4())}
            action = offers[pick % len(offers)]
            first = self.send(who, action["command"], key, action)
            after = self.version()
            again = self.send(who, action["command"], key, action)
            assert self.version() == after
            if first.status_code == 200:
                assert again.status_code == 200 and again.json()["version"] == first.json()["version"]
            # the key again with another body: a player's names their own combatant (a body naming someone
            # else's is refused as theirs to send, 403, before the key is looked at); the GM's, anyone
            own = {"p1": self.ids["Mira"], "p2": self.ids["Kess"]}.get(who, str(uuid.uuid4()))
            other = self.send(who, {"type": "EndTurn", "combatant_id": own}, key)
            assert self.version() == after and other.status_code in (200, 409, 422), other.text

        # ------------------------------------------------------------------ invariants

        @invariant()
        def versions_run_from_one_without_a_gap(self) -> None:
            if not hasattr(self, "enc"):
                return
            events = self.call("GET", f"/encounters/{self.enc}/events?after=0&limit=1000", "gm").json()["events"]
            assert [e["version"] for e in events] == list(range(1, len(events) + 1))

        @invariant()
        def replaying_gives_the_state_the_fight_had(self) -> None:
            if not hasattr(self, "enc"):
                return
            now = self.version()
            for version, state in list(self.states.items())[-3:]:
                if version < now:
                    r = self.call("GET", f"/encounters/{self.enc}/state?at={version}", "gm")
                    assert r.json() == state, f"version {version} replayed differs from the live state then"

        @invariant()
        def no_player_or_spectator_read_names_the_hidden_npc(self) -> None:
            if not hasattr(self, "enc") or not self.still_hidden():
                return
            for who in ("p1", "p2", "spectator"):
                for path in ("", "/events?after=0&limit=1000", "/log", "/actions"):
                    text = self.call("GET", f"/encounters/{self.enc}{path}", who).text
                    assert self.hidden not in text and HIDDEN_NAME not in text, f"{who} {path or '/'}: {text[:300]}"

    return Table


def test_a_stateful_fuzzer_finds_no_5xx_no_append_on_refusal_and_nothing_hidden(env: dict[str, str]) -> None:  # noqa: F811
    with serving({**env, "FRACAS_LOG_LEVEL": "warning"}) as (base, proc):
        threading.Thread(target=lambda: [None for _ in proc.stdout or []], daemon=True).start()  # never a full pipe
        with httpx.Client(timeout=30) as http:
            run_state_machine_as_test(
                machine_for(base, http),
                settings=settings(max_examples=int(os.environ.get("FRACAS_FUZZ_EXAMPLES", "12")), stateful_step_count=20, deadline=None, derandomize=True,
                                  suppress_health_check=list(HealthCheck), database=None))


@pytest.mark.parametrize("body", [{"type": "EndTurn"}, {"type": "Nope"}, [], "x", {"type": "EndTurn", "combatant_id": 7}])
def test_strings_and_numbers_helpers(body: Any) -> None:
    """The fuzzer's own helpers leave what they do not touch as it was."""
    assert replaced(body, set(), "x") == body
    assert json.dumps(pushed(body, 1)) == json.dumps(body).replace("7", "1")
