"""The TypeScript declarations of the web table's client (issue 22): ``fracas-api.d.ts`` is what
`fracas typescript` writes from openapi/openapi.json (stale, this fails, as the OpenAPI test
does), and an integrator's code using ``fracas-client.js`` type-checks against them with the
pinned TypeScript of tests/web/typescript/package.json (``npm ci`` there; .ci/run does it, and
this test does it when it was not done). Skipped only where node or npm is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.cli import DEFAULT_OPENAPI
from server.schema.typescript import DEFAULT_TYPESCRIPT, render_typescript, ts_type, type_name

CHECK = Path(__file__).resolve().parent / "typescript"
NODE, NPM = shutil.which("node"), shutil.which("npm")


def test_committed_declarations_match_the_openapi_document() -> None:
    document = json.loads(DEFAULT_OPENAPI.read_text(encoding="utf-8"))
    assert DEFAULT_TYPESCRIPT.read_text(encoding="utf-8") == render_typescript(document), (
        "server/web/fracas-api.d.ts is stale: run `fracas regen` and commit it")


def test_every_operation_and_schema_is_declared() -> None:
    document = json.loads(DEFAULT_OPENAPI.read_text(encoding="utf-8"))
    text = DEFAULT_TYPESCRIPT.read_text(encoding="utf-8")
    for name in document["components"]["schemas"]:
        assert f"export type {type_name(name)} = " in text, name
    for item in document["paths"].values():
        for method, operation in item.items():
            if method in ("get", "post", "delete"):
                assert f"\n  {operation['operationId']}: {{\n    method: \"{method.upper()}\";" in text


def test_json_schema_translation() -> None:
    assert ts_type({"$ref": "#/components/schemas/PlacesOfPower.Attack"}) == "PlacesOfPower_Attack"
    assert ts_type({"oneOf": [{"type": "string"}, {"type": "null"}]}) == "string | null"
    assert ts_type({"enum": ["a", "b"]}) == '"a" | "b"'
    assert ts_type({"type": "array", "items": {"enum": ["x", "y"]}}) == '("x" | "y")[]'
    assert ts_type({"type": "object", "additionalProperties": {"type": "integer"}}) == "{\n  [key: string]: number;\n}"
    assert ts_type({"type": "object", "properties": {"a b": {"type": "boolean"}, "c": {}}, "required": ["c"]}) == (
        '{\n  "a b"?: boolean;\n  c: unknown;\n}')
    assert ts_type({}) == "unknown"


@pytest.mark.skipif(NODE is None or NPM is None, reason="node or npm is not installed")
def test_a_vtt_module_using_the_client_type_checks() -> None:
    tsc = CHECK / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.exists():  # .ci/run installs it; a developer's first run does it here
        subprocess.run([NPM, "ci", "--no-audit", "--no-fund"], cwd=CHECK, check=True, timeout=300,
                       capture_output=True)
    pinned = json.loads((CHECK / "package.json").read_text())["devDependencies"]["typescript"]
    installed = json.loads((CHECK / "node_modules" / "typescript" / "package.json").read_text())["version"]
    assert installed == pinned
    out = subprocess.run([NODE, str(tsc), "-p", str(CHECK / "tsconfig.json")], check=False, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
