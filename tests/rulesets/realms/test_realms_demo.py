"""``fracas demo --ruleset realms`` plays its fight against a server (in process, against
PostgreSQL) and tells it from the server's readable log."""

from __future__ import annotations

from litestar.testing import TestClient

from server.app import create_app
from server.cli.demo import run as play
from server.settings import Settings


def test_the_realms_demo_plays_a_fight_told_from_its_log(database_url: str) -> None:
    lines: list[str] = []
    with TestClient(create_app(database_url, Settings.from_env())) as http:
        play("http://testserver", rounds=4, out=lines.append, ruleset="realms", http=http)
    said = [line for line in lines if line]
    text = "\n".join(said)
    assert "The encounter “Ambush at the ford (fracas demo)” opens: RealmsRPG, seeded dice." in said, text
    assert any("attack roll" in line and "against" in line for line in said), text
    assert any("initiates combat" in line for line in said), text
    assert "Round 1." in text
    assert any(line.startswith("Arwen: ") for line in said), text  # the summary of who stands
    assert "The rules refuse" not in text and "a step this demo does not know" not in text, text
