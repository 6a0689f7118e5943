"""``server/store/which_database.py``: the one place a ``fracas`` command gets its database from.

tests/e2e/test_embedded_cli.py runs every command on the embedded default; these check the
rule that kept it from crashing (asked before the event loop runs) where every other test,
which sets ``DATABASE_URL``, would otherwise never see it broken.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from server.settings import Settings
from server.store.which_database import database_url

SERVER = Path(__file__).resolve().parents[2] / "server"


def settings(url: str | None) -> Settings:
    return Settings(database_url=url, data_dir=Path("/nonexistent/pgdata"), pool_size=1, max_body_bytes=1)


def test_database_url_wins_when_set() -> None:
    assert database_url(settings("postgresql://u@h/db")) == "postgresql://u@h/db"


def test_asked_inside_a_running_loop_is_refused_even_with_database_url_set() -> None:
    """Starting the embedded PostgreSQL runs an event loop of its own: inside a running one it
    would crash, and only on a machine without DATABASE_URL. Refused always, so tests see it."""

    async def inside() -> str:
        return database_url(settings("postgresql://u@h/db"))

    with pytest.raises(RuntimeError, match="before the event loop runs"):
        asyncio.run(inside())


def test_sub_command_modules_do_not_import_the_cli() -> None:
    """``server/cli/__init__.py`` registers their commands; they get the database from
    ``server/store/which_database.py``, not from ``server.cli`` (no import cycle)."""
    for name in ("cli/transfer.py", "cli/projections.py"):
        tree = ast.parse((SERVER / name).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert "server.cli" not in imported, name
        assert "server.store.which_database" in imported, name
