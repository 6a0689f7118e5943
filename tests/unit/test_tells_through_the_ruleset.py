"""The readable log, the statistics and the demo reach a game only through its ``Ruleset``
(issue 18): "Make the `Ruleset` object the only way the server and projections reach a
game". Read from the sources (their imports), so a late import inside a function counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME = "domain.places_of_power"


def imported(path: Path) -> set[str]:
    """Every module a source file imports, wherever the import statement stands."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


TELLING = sorted([*(ROOT / "projections").glob("*.py"), ROOT / "server" / "cli" / "demo.py", ROOT / "server" / "cli" / "__init__.py"])


@pytest.mark.parametrize("path", TELLING, ids=[str(p.relative_to(ROOT)) for p in TELLING])
def test_no_game_is_imported(path: Path) -> None:
    names = imported(path)
    assert not {n for n in names if n == GAME or n.startswith(GAME + ".")}, f"{path} imports a game"


def test_the_domain_imports_no_projection() -> None:
    """The sentences are the domain's (pure): no import cycle with the log that tells them."""
    for path in (ROOT / "domain").rglob("*.py"):
        assert not {n for n in imported(path) if n.startswith(("projections", "server"))}, path
