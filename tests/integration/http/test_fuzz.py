"""Schemathesis fuzzes every documented operation of openapi/openapi.json against the app
in-process: no answer is a 500, and every answer has a documented status, media type and
body schema. A route added to the document is fuzzed without touching this file.

Requests carry the GM token of an encounter opened first, and the `{encounter_id}` of every
path is that encounter's id, so generated requests get past authentication and reach the
handlers. Both valid (positive) and schema-violating (negative) requests are generated.

Left out: operations that answer with an event stream (`text/event-stream`), today only
`GET /encounters/{encounter_id}/live`. The stream never ends while the encounter is open, and
the in-process client waits for the end of the body; tests/integration/live/test_live.py tests it
against a real server process, and test_bad_input.py its refused `after` values.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.integration.fight import POP, add, open_encounter

SPEC = Path(__file__).resolve().parents[3] / "openapi" / "openapi.json"
SCHEMA = schemathesis.openapi.from_path(SPEC)


def _streams(op: Any) -> bool:
    return any("text/event-stream" in (answer.get("content") or {})
               for answer in op.definition.raw.get("responses", {}).values())


OPERATIONS = [op for op in (r.ok() for r in SCHEMA.get_all_operations()) if not _streams(op)]


def _negatable(op: Any) -> bool:
    """Negative cases break the body or a parameter; a bare string in the path cannot be broken."""
    def bare_string(schema: dict[str, Any]) -> bool:
        return {k: v for k, v in schema.items() if k != "description"} == {"type": "string"}

    return bool(op.body) or any(not bare_string(p.get("schema") or {}) for p in op.definition.raw.get("parameters", []))


CASES = [pytest.param(op, mode, id=f"{op.label}-{mode.value}")
         for op in OPERATIONS for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
         if mode is GenerationMode.POSITIVE or _negatable(op)]
# No 500; the status, the media type and the body are each the documented ones.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# 25 examples per operation and mode: the whole file takes about 25 s on 2 cores.
EXAMPLES = 25


def _is_uuid(value: Any) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return value is not None


def _anchor(body: dict[str, Any], known: dict[str, str]) -> None:
    """Random strings rarely name a ruleset or a combatant, and the handlers behind that check
    would go unfuzzed: half the valid bodies get real ones."""
    anchors = {"ruleset": POP, "combatant_id": known["combatant_id"], "combatant_ids": [known["combatant_id"]]}
    body.update({k: v for k, v in anchors.items() if k in body})


def _request(case: Any) -> dict[str, Any]:
    """The case as httpx.AsyncClient.request arguments (schemathesis builds `requests` ones)."""
    kw = case.as_transport_kwargs(base_url="http://testserver")
    # The document declares bearer tokens, so schemathesis makes up Authorization headers (in
    # negative cases, ones no client can send, such as "Bearer \x80"): the requests carry the
    # GM token instead, to reach the handlers (tokens have tests of their own).
    headers = {k: v for k, v in (kw.get("headers") or {}).items() if k.lower() != "authorization"}
    out: dict[str, Any] = {"method": kw["method"], "url": kw["url"], "headers": headers,
                           "params": kw.get("params") or None}
    if "json" in kw:
        out["content"] = json.dumps(kw["json"]).encode()
    elif kw.get("data") is not None:
        data = kw["data"]
        out["content"] = data.encode() if isinstance(data, str) else data
    return out


@pytest.mark.parametrize(("operation", "mode"), CASES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
async def test_every_operation_answers_as_documented(client: httpx.AsyncClient, operation: Any,
                                                     mode: GenerationMode, data: st.DataObject) -> None:
    known = getattr(client, "fuzzed", None)
    if known is None:  # once per test, not per example
        enc = await open_encounter(client, dice_policy="mixed")
        known = client.fuzzed = {"encounter_id": enc, "combatant_id": await add(client, enc, "Mira")}
    case = data.draw(operation.as_strategy(generation_mode=mode))
    if _is_uuid(case.path_parameters.get("encounter_id")):  # a broken id (negative case) stays broken
        case.path_parameters["encounter_id"] = known["encounter_id"]
    if mode is GenerationMode.POSITIVE and isinstance(case.body, dict) and data.draw(st.booleans()):
        _anchor(case.body, known)
    request = _request(case)
    response = await client.request(**request)
    case.validate_response(response, checks=CHECKS, headers=request["headers"])


async def test_the_text_log_is_documented_plain_text(client: httpx.AsyncClient) -> None:
    """Found by the fuzzing above: the text log was undocumented and said its charset twice."""
    enc = await open_encounter(client)
    r = await client.get(f"/encounters/{enc}/log", params={"format": "text"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/plain; charset=utf-8"
    documented = json.loads(SPEC.read_text())["paths"]["/encounters/{encounter_id}/log"]["get"]["responses"]["200"]
    assert set(documented["content"]) == {"application/json", "text/plain"}
