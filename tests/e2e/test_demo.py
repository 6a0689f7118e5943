"""``fracas demo`` as a newcomer runs it: a real ``fracas serve`` process, and the demo as a
second process talking to it over HTTP."""

from __future__ import annotations

import os
import re
from typing import Any

import httpx
import pytest

from server.demo import Api, ServerProblem
from tests.e2e.test_cli import free_port, run, serving

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url}


def test_the_demo_plays_a_fight_the_server_keeps(env: dict[str, str]) -> None:
    with serving(env) as (base, _):
        done = run("demo", "--url", base, "--rounds", "3", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        out = done.stdout
        for name in ("Mira", "Kess", "the Bandit", "the Bandit Chief"):
            assert name in out
        assert "Round 1 —" in out
        # an attack line in the game's words: weapon, kind, cost, roll against the difficulty, outcome
        attack = re.compile(r"Round \d — .+ attacks .+ with .+ \((Light|Heavy), \d AP.*\): \d+ against \w+ — "
                            r"(Critical Miss|Failure|Partial Success|Full Success|Critical Success)")
        assert attack.search(out), out
        assert "The GM ends the encounter" in out
        assert "Hits taken:" in out
        assert "Traceback" not in done.stderr
        assert "a step this demo does not know" not in out and "The rules refuse" not in out, out

        enc = re.search(rf"Encounter ({UUID}): (\d+) events", out)
        history = re.search(rf"Its event history: (\S+/encounters/{UUID}/events\S*)", out)
        spectator = re.search(r"Authorization: Bearer (\S+)'", out)
        assert enc and history and spectator, out
        assert history.group(1).startswith(f"{base}/encounters/{enc.group(1)}/events")
        as_spectator = {"Authorization": f"Bearer {spectator.group(1)}"}
        page = httpx.get(history.group(1), headers=as_spectator).json()
        types = [e["type"] for e in page["events"]]
        assert len(types) == int(enc.group(2)) and not page["has_more"]
        assert types[0] == "EncounterOpened" and types[-1] == "EncounterEnded"
        assert {"InitiativeRolled", "RoundStarted", "AttackDeclared", "AttackRolled", "ExchangeEnded"} <= set(types)
        state = httpx.get(f"{base}/encounters/{enc.group(1)}", headers=as_spectator).json()
        assert state["status"] == "ended" and state["round"] <= 4
        assert {c["name"] for c in state["combatants"].values()} == {"Mira", "Kess", "Bandit", "Bandit Chief"}
        # the players act with their own tokens, the GM for the bandits
        players = {c["id"] for c in state["combatants"].values() if c["controller"] == "player"}
        acting = {"AttackDeclared": "attacker", "DefenceRolled": "defender", "TurnEnded": "combatant_id",
                  "HealingRolled": "healer"}
        for e in page["events"]:
            if e["type"] in acting:
                who = e["data"][acting[e["type"]]]
                assert e["metadata"]["actor"]["role"] == ("player" if who in players else "gm"), e


def test_the_demo_uses_the_operator_key(env: dict[str, str]) -> None:
    env = {**env, "FRACAS_OPERATOR_KEY": "open-sesame"}
    with serving(env) as (base, _):
        without = {k: v for k, v in env.items() if k != "FRACAS_OPERATOR_KEY"}
        refused = run("demo", "--url", base, env=without)
        assert refused.returncode != 0
        assert "401" in refused.stderr and "Unauthorized" in refused.stderr and "opening an encounter" in refused.stderr
        assert "Traceback" not in refused.stderr
        done = run("demo", "--url", base, "--operator-key", "open-sesame", "--rounds", "1", env=without)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Round 1 —" in done.stdout


def test_an_unreachable_server_is_a_clear_error() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = run("demo", "--url", url, env=dict(os.environ))
    assert done.returncode != 0
    assert f"Cannot reach a Fracas server at {url}" in done.stderr
    assert "fracas serve" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_rate_limited_request_waits_and_tries_again() -> None:
    """Past the token's rate the server answers 429 with Retry-After: the demo waits, then retries."""
    answers = iter([
        httpx.Response(429, headers={"Retry-After": "0"}, json={"title": "Too many requests", "code": "rate_limited"}),
        httpx.Response(200, json={"status": "ok", "database": "ok"}),
        httpx.Response(422, json={"title": "Not allowed by the rules", "status": 422, "code": "not_your_turn",
                                  "detail": "It is Mira's turn, not Kess's."}),
    ])
    api = Api("http://fracas.test")
    api.http = httpx.Client(base_url=api.base, transport=httpx.MockTransport(lambda _: next(answers)))
    assert api.call("GET", "/health") == {"status": "ok", "database": "ok"}
    with pytest.raises(ServerProblem) as refused:
        api.call("POST", "/encounters/x/commands", "t", {"type": "EndTurn"}, what="EndTurn sent by Kess's player")
    problem: Any = refused.value
    assert (problem.status, problem.code, problem.refused_by_the_rules) == (422, "not_your_turn", True)
    assert str(problem) == ("EndTurn sent by Kess's player: the server answered 422 Not allowed by the rules "
                            "[not_your_turn]: It is Mira's turn, not Kess's.")
