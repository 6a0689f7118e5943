"""docs/adding-a-ruleset.md's small game runs as written (issue 41: "docs/adding-a-ruleset.md walks
through a small game whose code runs as a test"): its code, taken from the page, is served beside the
four games, and a fight is played to its end through the server from the next moves alone."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.core.ruleset import Registry
from domain.rulesets import default_registry
from projections.visibility import serve
from tests.conftest import app_client
from tests.contract import test_contract as contract
from tests.contract import test_walk as walks
from tests.contract.walk import walk_of, walked

PAGE = Path(__file__).resolve().parents[3] / "docs" / "adding-a-ruleset.md"


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    (tmp_path / "duel_page").mkdir()
    (tmp_path / "duel_page" / "__init__.py").write_text("", encoding="utf-8")
    for name in ("ruleset", "contract"):  # the game and its contract fixture, each as the page gives it
        code = next(b for b in blocks if b.startswith(f"# domain/duel/{name}.py"))
        (tmp_path / "duel_page" / f"{name}.py").write_text(code, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("duel_page.ruleset")
    yield module.Duel()
    sys.modules.pop("duel_page.ruleset", None)
    sys.modules.pop("duel_page.contract", None)
    sys.modules.pop("duel_page", None)


def test_the_contract_suite_walks_the_pages_game_from_the_fixture_its_package_exports(duel: Any) -> None:
    """Issue 41: "Its contract fixture is exported from its package": the walk is found beside the
    game's own module (``duel_page.contract``), and the suite's properties hold over random fights."""
    assert walk_of(duel) is importlib.import_module("duel_page.contract").WALK
    serve(Registry([duel]))  # the views filter its states by its own rules, as a server serving it does
    walks.test_replay_equals_the_live_state(ruleset=duel)
    walks.test_action_points_and_versions_stay_in_range(ruleset=duel)
    walks.test_nothing_hidden_reaches_a_player_or_a_spectator(ruleset=duel)
    table = walked(duel, seed=7, steps=120)
    assert any(type(e).__name__ == "Struck" for e in table.events), "the walk struck no blow"


async def test_the_pages_game_plays_a_fight_through_the_server(database_url: str, duel: Any) -> None:
    contract.test_a_game_fills_in_the_game_protocol_and_overrides_nothing_else_of_core(duel)
    contract.test_each_capability_declared_is_there_and_none_undeclared(duel)
    registry = Registry([*default_registry().all(), duel])
    async with app_client(database_url, registry=registry) as client:
        r = await client.post("/encounters", json={"ruleset": "duel", "name": "At dawn"})
        assert r.status_code == 201, r.text
        enc = r.json()["encounter_id"]
        client.headers["Authorization"] = f"Bearer {r.json()['gm_token']['token']}"
        for name, side in (("Ash", "north"), ("Birch", "south")):
            r = await client.post(f"/encounters/{enc}/combatants", json={
                "name": name, "side": side, "controller": "gm", "sheet": {"speed": 1, "health": 7}})  # past one d6: two strikes at least
            assert r.status_code == 201, r.text
        strikes = 0
        for _ in range(200):
            moves = (await client.get(f"/encounters/{enc}/actions")).json()
            if moves["over"]:
                break
            offered = {a["command"]["type"]: a for a in moves["actions"]}
            pick = next(offered[t] for t in ("DuelStrike", "StartEncounter", "EndTurn", "RollInitiative")
                        if t in offered)
            r = await client.post(f"/encounters/{enc}/commands", json=pick["command"])
            assert r.status_code == 200, r.text
            strikes += pick["command"]["type"] == "DuelStrike"
        assert moves["over"] and len(moves["out_of_fight"]) == 1 and strikes >= 2, (moves, strikes)
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "strikes" in told
