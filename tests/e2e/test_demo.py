"""``fracas demo`` as a newcomer runs it: a real ``fracas serve`` process, and the demo as a
second process talking to it over HTTP (with none of the server's settings in its
environment). The fight is the ruleset's (``Ruleset.demo()``), told from the server's
readable log."""

from __future__ import annotations

import os
import re
from typing import Any

import httpx
import pytest

from server.cli.demo import Api, ServerProblem
from tests.e2e.test_cli import free_port, run, serving

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url}


def bare() -> dict[str, str]:
    """An environment with none of Fracas' settings: the demo needs only the server's URL."""
    return {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}


@pytest.mark.parametrize("ruleset", [None, "places-of-power"])
def test_the_demo_plays_a_fight_the_server_keeps(env: dict[str, str], ruleset: str | None) -> None:
    with serving(env) as (base, _):
        chosen = ["--ruleset", ruleset] if ruleset else []  # the default: Places of Power
        done = run("demo", "--url", base, "--rounds", "3", *chosen, env=bare())
        assert done.returncode == 0, done.stdout + done.stderr
        out = done.stdout
        assert "a Places of Power fight, 3 rounds at most" in out
        for name in ("Mira", "Kess", "the Bandit", "the Bandit Chief"):
            assert name in out
        assert "\nRound 1. Action Points: " in out
        # an attack line in the log's words: kind, weapon, range, cost, roll against the difficulty, outcome
        attack = re.compile(r"\n\S.* attacks .+: an? (light|heavy) attack with the .+ at Melee range.*\(\d AP\)\. "
                            r"\d+ against \w+: an? (Critical Miss|Failure|Partial Success|Full Success|Critical Success)")
        assert attack.search(out), out
        assert "The fight ends. The dice seed is revealed: " in out
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
        # told from the readable log, not by a narrator of its own: every line of it, in order
        told = httpx.get(f"{base}/encounters/{enc.group(1)}/log", headers=as_spectator).json()["entries"]
        lines, at = out.splitlines(), -1
        for entry in told:
            at = lines.index(entry["sentence"], at + 1)  # ValueError: a line of the log the demo did not tell
        assert len(told) > 10
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
        assert "\nRound 1. " in done.stdout


def test_an_unreachable_server_is_a_clear_error() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = run("demo", "--url", url, env=dict(os.environ))
    assert done.returncode != 0
    assert f"Cannot reach a Fracas server at {url}" in done.stderr
    assert "fracas serve" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_an_unknown_ruleset_is_a_clear_error_listing_the_known_ones() -> None:
    """Exit code 2 at once (no server asked: none listens there), naming the known ids."""
    url = f"http://127.0.0.1:{free_port()}"
    done = run("demo", "--url", url, "--ruleset", "no-such-game", env=bare())  # novus is offered now
    assert done.returncode == 2, done.stdout + done.stderr
    from domain.rulesets import default_registry
    known = ", ".join(sorted(r.id for r in default_registry().all()))
    assert done.stderr == f"fracas demo: there is no ruleset “no-such-game”; known: {known}\n"
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


def test_another_rulesets_demo_is_its_own_and_told_from_its_log(database_url: str) -> None:
    """The demo driver names no game: a ruleset of the tests (Duel, tests/unit/duel.py) brings
    its own cast and script (``Ruleset.demo()``), served beside Places of Power; the fight is
    told from the log in core's words (no Action Points: Duel lends none)."""
    from litestar.testing import TestClient

    from domain.core.ruleset import Registry
    from domain.places_of_power.ruleset import PlacesOfPower
    from server.app import create_app
    from server.cli.demo import run as play
    from server.settings import Settings
    from tests.unit.duel import WithDemo

    registry = Registry([PlacesOfPower(), WithDemo()])
    lines: list[str] = []
    with TestClient(create_app(database_url, Settings.from_env(), registry=registry)) as http:
        play("http://testserver", rounds=2, out=lines.append, ruleset="duel", registry=registry, http=http)
        enc = next(re.search(UUID, line).group(0) for line in lines if line.startswith("Encounter “At dawn"))
    said = [line for line in lines if line]
    assert said[0] == "Fracas demo against http://testserver: a Duel fight, 2 rounds at most."
    assert said[2:8] == ["The encounter “At dawn (fracas demo)” opens: Duel, seeded dice.",
                         "Mira joins the fight on the party side.", "The Bandit joins the fight on the enemies side.",
                         "Mira's player gets a token that acts for Mira only.", "The GM plays the others.",
                         said[7]]
    assert said[7].startswith("Initiative: ") and "Round 1." in said and "Round 2." in said
    assert "Mira ends the turn." in said and "The Bandit ends the turn." in said
    assert "Both stand after round 2." in said and f"Encounter {enc}: " in "\n".join(said)
    assert not [line for line in said if "Action Point" in line]
