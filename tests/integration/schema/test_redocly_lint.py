"""openapi/openapi.json lints clean under redocly's recommended rules (issue 42: "Make the document
lint clean, and keep it so with a test that runs the linter (pinned through a lockfile, like the
TypeScript check)"): `redocly lint` of tests/tooling/package-lock.json (``npm ci`` there; .ci/run does
it, and this test does it when it was not done). Skipped only where node or npm is missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from server.cli import DEFAULT_OPENAPI

TOOLING = Path(__file__).resolve().parents[2] / "tooling"
NODE, NPM = shutil.which("node"), shutil.which("npm")
QUIET = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def tool(package: str) -> Path:
    """The pinned ``package``'s folder under tests/tooling/node_modules, installed from the lockfile if
    it is not there yet, at the version package.json pins."""
    folder = TOOLING / "node_modules" / package
    if not folder.exists():
        assert NPM is not None
        subprocess.run([NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLING, check=True,
                       timeout=300, capture_output=True)
    pinned = json.loads((TOOLING / "package.json").read_text())["devDependencies"][package]
    assert json.loads((folder / "package.json").read_text())["version"] == pinned
    return folder


def lint(document: Path) -> dict:
    cli = tool("@redocly/cli") / "bin" / "cli.js"
    out = subprocess.run([str(NODE), str(cli), "lint", "--extends=recommended", "--format=json", str(document)],
                         check=False, capture_output=True, text=True, timeout=300, env=QUIET, cwd=TOOLING)
    return json.loads(out.stdout[out.stdout.index("{"):])


@pytest.mark.skipif(NODE is None or NPM is None, reason="node or npm is not installed")
def test_the_openapi_document_lints_clean_under_the_recommended_rules() -> None:
    report = lint(DEFAULT_OPENAPI)
    problems = [f"{p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}" for p in report["problems"]]
    assert problems == []
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}


@pytest.mark.skipif(NODE is None or NPM is None, reason="node or npm is not installed")
def test_the_linter_finds_what_the_document_once_had(tmp_path: Path) -> None:
    """Shown to catch a fault: the ETag header without its schema, as it was, is an error again."""
    doc = json.loads(DEFAULT_OPENAPI.read_text(encoding="utf-8"))
    del doc["paths"]["/encounters"]["post"]["responses"]["201"]["headers"]["ETag"]["schema"]
    broken = tmp_path / "openapi.json"
    broken.write_text(json.dumps(doc), encoding="utf-8")
    rules = [p["ruleId"] for p in lint(broken)["problems"]]
    assert rules == ["struct"]
