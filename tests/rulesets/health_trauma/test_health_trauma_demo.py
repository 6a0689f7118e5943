"""``fracas demo --ruleset health-trauma`` plays its fight against a server (in process, against
PostgreSQL) and tells it from the server's readable log."""

from __future__ import annotations

from litestar.testing import TestClient

from server.app import create_app
from server.cli.demo import run as play
from server.settings import Settings


def test_the_health_trauma_demo_plays_a_fight_told_from_its_log(database_url: str) -> None:
    lines: list[str] = []
    with TestClient(create_app(database_url, Settings.from_env())) as http:
        play("http://testserver", rounds=4, out=lines.append, ruleset="health-trauma", http=http)
    said = [line for line in lines if line]
    assert said[2] == "The encounter “Raid on the mill (fracas demo)” opens: Health/Trauma, seeded dice."
    assert any("Attack Test with the" in line for line in said)
    assert "Round 1." in said
    assert any(line.startswith("Mira: ") for line in said)  # the summary of who stands
