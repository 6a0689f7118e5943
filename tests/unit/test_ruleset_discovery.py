"""How the server finds its games (issue 41): each package of domain/ by its ruleset.py, and any
installed package's through the ``fracas.rulesets`` entry points, so a game may ship on its own."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from domain.rulesets import ENTRY_POINTS, default_registry, games_here


def test_every_game_package_here_is_offered_in_its_listed_order() -> None:
    packages = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "domain").iterdir()
                      if (p / "ruleset.py").is_file() and p.name != "core")
    assert sorted(g.__module__.split(".")[1] for g in games_here()) == packages
    assert [r.id for r in default_registry().all()] == ["places-of-power", "health-trauma", "realms", "novus"]


def test_a_game_installed_as_a_package_of_its_own_is_found_by_its_entry_point(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution whose metadata names the test-only Door ruleset under ``fracas.rulesets``:
    found through importlib.metadata as pip would install it, listed after the games here."""
    info = tmp_path / "fracas_door-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fracas-door\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\ndoor = tests.rulesets.door.ruleset:Door\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    assert [r.id for r in default_registry().all()][-1] == "door"
    monkeypatch.undo()
    importlib.invalidate_caches()
    assert "door" not in default_registry()
