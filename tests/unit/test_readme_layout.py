"""The Layout (docs/adding-a-ruleset.md) says what each folder holds now (issue 17: it still said the
projections were "coming" long after they came)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def layout() -> str:
    readme = (REPO / "docs" / "adding-a-ruleset.md").read_text(encoding="utf-8")
    section = readme.split("\n## Layout\n", 1)[1]
    return section.split("```", 2)[1]


def named() -> set[str]:
    """The folders and files the Layout names: a line's first word, nested ones under their parent."""
    names, parent = set(), ""
    for line in layout().splitlines():
        m = re.match(r"^( *)(\S+)\s", line + " ")
        if not m or line.startswith(" " * 15):
            continue  # a description carried on
        name = m.group(2)
        if m.group(1):
            name = parent + name
        else:
            parent = name
        names.add(name.rstrip("/"))
    return names


def test_the_layout_names_every_top_level_folder_and_each_exists() -> None:
    folders = {p.name for p in REPO.iterdir() if (p / "__init__.py").exists()} | {"openapi"}
    listed = named()
    assert folders <= listed, f"not in the Layout: {sorted(folders - listed)}"
    for name in listed:
        assert "<" in name or (REPO / name).exists(), f"the Layout names {name}, which is not there"


def test_the_layout_names_every_package_of_the_domain() -> None:
    """Each package of domain/ that is not a game by name; the games by the one line for them all
    (issue 41: adding a game touches its package and its tests, not this page)."""
    packages = {p for p in (REPO / "domain").iterdir() if (p / "__init__.py").exists()}
    games = {p for p in packages if (p / "ruleset.py").is_file()}
    assert {f"domain/{p.name}" for p in packages - games} <= named()
    assert not games or "domain/<game>" in named()


def test_the_layout_promises_nothing_that_is_already_there() -> None:
    assert "coming" not in layout()
