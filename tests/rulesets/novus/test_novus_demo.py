"""``fracas demo --ruleset novus`` plays its fight against a server (in process, against
PostgreSQL) and tells it from the server's readable log."""

from __future__ import annotations

from litestar.testing import TestClient

from server.app import create_app
from server.cli.demo import run as play
from server.settings import Settings


def test_the_novus_demo_plays_a_declared_round_told_from_its_log(database_url: str) -> None:
    lines: list[str] = []
    with TestClient(create_app(database_url, Settings.from_env())) as http:
        play("http://testserver", rounds=3, out=lines.append, ruleset="novus", http=http)
    said = [line for line in lines if line]
    assert said[2] == "The encounter “Ambush at the ford (fracas demo)” opens: Novus, seeded dice."
    assert any(" declares an attack on " in line for line in said)
    assert any(" against DEF" in line for line in said)
    assert "Round 2." in said
    assert any(line.startswith("Aren: ") and "Hit Points" in line for line in said)
