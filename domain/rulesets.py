"""The rulesets this server offers: every game package beside ``domain/core`` (the ``Ruleset``
its ``ruleset.py`` defines), and any installed package's, named in the entry-point group
``fracas.rulesets`` (``name = "package.module:Class"``). Adding a game touches its own package and
its tests, nothing here."""

from __future__ import annotations

import importlib
import inspect
from importlib.metadata import entry_points
from pathlib import Path

from domain.core.ruleset import Registry, Ruleset

ENTRY_POINTS = "fracas.rulesets"


def games_here() -> list[type[Ruleset]]:
    """The ``Ruleset`` each package of ``domain/`` defines in its ``ruleset.py``."""
    found = []
    for package in sorted(Path(__file__).resolve().parent.iterdir()):
        if package.name == "core" or not (package / "ruleset.py").is_file():
            continue
        module = importlib.import_module(f"domain.{package.name}.ruleset")
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, Ruleset) and c.__module__ == module.__name__ and not inspect.isabstract(c)]
    return found


def games_installed() -> list[type[Ruleset]]:
    """The rulesets installed packages name in the ``fracas.rulesets`` entry points."""
    return [ep.load() for ep in entry_points(group=ENTRY_POINTS)]


def default_registry() -> Registry:
    games: dict[str, type[Ruleset]] = {}
    for game in [*games_here(), *games_installed()]:
        games.setdefault(game.id, game)
    return Registry([g() for g in sorted(games.values(), key=lambda g: (g.listed, g.id))])
