"""Issue 42, "CLI conventions": ``fracas --version``; ``--help`` on every subcommand, with an example;
exit codes documented. Run as a user runs the command: the installed ``fracas``, no environment
but PATH and HOME."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from server.cli import EXAMPLES, build_parser
from tests.e2e.test_cli import FRACAS

REPO = Path(__file__).resolve().parents[2]
BARE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += [(*prefix, name), *_commands(sub, (*prefix, name))]
    return out


COMMANDS = _commands(build_parser())


def test_fracas_version_prints_the_projects_version() -> None:
    done = subprocess.run([FRACAS, "--version"], env=BARE, capture_output=True, text=True, timeout=60)
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert done.returncode == 0 and done.stdout.strip() == f"fracas {project}"


def test_every_subcommand_has_an_example_and_no_example_is_for_a_command_that_is_not_there() -> None:
    assert {" ".join(c) for c in COMMANDS} == set(EXAMPLES)
    assert len(COMMANDS) >= 12


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_help_of_each_subcommand_shows_its_example_and_the_exit_codes(command: tuple[str, ...]) -> None:
    done = subprocess.run([FRACAS, *command, "--help"], env=BARE, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    example = done.stdout.split("example:\n", 1)[1].split("\n\n", 1)[0]
    assert re.search(rf"\bfracas {' '.join(command)}\b", example), example  # the example runs this command
    assert "exit codes:" in done.stdout and re.search(r"^  2  ", done.stdout, re.M)


def test_the_documented_exit_codes_are_the_ones_given() -> None:
    """2 for a command line that cannot work (an unknown subcommand, argparse's own), 0 for help; the
    operations manual lists the same codes as --help."""
    assert subprocess.run([FRACAS, "no-such-command"], env=BARE, capture_output=True, timeout=60).returncode == 2
    assert subprocess.run([FRACAS, "verify", "/no/such/file"], env=BARE, capture_output=True,
                          timeout=60).returncode == 2
    manual = (REPO / "docs" / "operations.md").read_text(encoding="utf-8")
    assert "fracas --version" in manual and "exit codes" in " ".join(manual.split())
    for code in ("0", "1", "2"):
        assert re.search(rf"^\| {code} \|", manual, re.M), f"exit code {code} is not in docs/operations.md"
