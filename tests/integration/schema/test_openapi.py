"""openapi/openapi.json is what the app generates, and it documents every body."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domain.rulesets import default_registry
from server.cli import DEFAULT_OPENAPI, render_openapi
from server.schema.openapi_rulesets import prefix_of


def test_committed_openapi_matches_the_app() -> None:
    committed = Path(DEFAULT_OPENAPI).read_text(encoding="utf-8")
    assert committed == render_openapi(), "openapi/openapi.json is stale: run `fracas regen` and commit it"


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_every_reference_resolves_and_every_write_documents_its_body() -> None:
    doc = json.loads(render_openapi())
    schemas = doc["components"]["schemas"]
    for ref in _refs(doc):
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[1] in schemas, f"dangling {ref}"
    for path, item in doc["paths"].items():
        if "post" in item:
            body = item["post"]["requestBody"]["content"]["application/json"]["schema"]
            assert body, path
    commands = doc["paths"]["/encounters/{encounter_id}/commands"]["post"]
    union = commands["requestBody"]["content"]["application/json"]["schema"]
    # each offered ruleset's union, one of them
    assert _refs(union) == [f"#/components/schemas/{prefix_of(r)}.Command" for r in default_registry().all()]
    names = {r.rsplit("/", 1)[1] for r in _refs(schemas["PlacesOfPower.Command"])}
    # the lifecycle's commands are one component for every ruleset, a ruleset's own are named after it
    assert {"PlacesOfPower.TakeAction", "EndTurn", "RollInitiative", "StartEncounter"} <= names
    headers = {p["name"] for p in commands["parameters"] if p["in"] == "header"}
    assert headers == {"If-Match", "Idempotency-Key"}
