"""TypeScript declarations of the API, written from the OpenAPI document (`fracas typescript`):
every schema of ``components`` as a named type, and every operation's parameters, request body
and responses, so that ``fracas-client.d.ts`` (and a VTT module built on it) types what it
sends and reads from the same document the server checks, never from a copy by hand.

The output is deterministic (a test compares it with the committed file, like the OpenAPI
document itself). Only what the document uses is translated: ``$ref``, ``type`` (or a list of
types), ``properties``/``required``, ``additionalProperties``, ``items``, ``enum``, ``const``,
``anyOf``/``oneOf``; anything else reads as ``unknown``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

DEFAULT_TYPESCRIPT = Path(__file__).resolve().parents[1] / "web" / "fracas-api.d.ts"
HEADER = """\
// fracas-api.d.ts: the request and response types of every operation of the Fracas API.
// Generated from openapi/openapi.json by `fracas typescript`: do not edit by hand (a test fails
// when this file is stale). fracas-client.d.ts uses these types; a VTT module may import them:
//   import type { EncounterView, operations } from "./fracas-api.js";
"""
METHODS = ("get", "put", "post", "delete", "patch")
_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_REF = "#/components/schemas/"


def type_name(schema_name: str) -> str:
    """A schema's name as a TypeScript name: ``PlacesOfPower.Attack`` is ``PlacesOfPower_Attack``."""
    return re.sub(r"[^A-Za-z0-9_$]", "_", schema_name)


def _key(name: str) -> str:
    return name if _IDENTIFIER.match(name) else json.dumps(name)


def _comment(text: str | None, indent: str) -> str:
    if not text:
        return ""
    lines = text.strip().replace("*/", "*\\/").splitlines()
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */\n"
    body = "".join(f"{indent} * {line}".rstrip() + "\n" for line in lines)
    return f"{indent}/**\n{body}{indent} */\n"


def _union(parts: list[str]) -> str:
    seen: list[str] = []
    for p in parts:
        if p not in seen:
            seen.append(p)
    if "unknown" in seen:
        return "unknown"
    return " | ".join(f"({p})" if " | " in p and not p.startswith("{") else p for p in seen) or "never"


def ts_type(schema: Any, indent: str = "") -> str:
    """The TypeScript type of one JSON Schema (as the OpenAPI document writes it)."""
    if schema is True or schema is None or schema == {}:
        return "unknown"
    if schema is False:
        return "never"
    if "$ref" in schema:
        ref: str = schema["$ref"]
        if not ref.startswith(_REF):
            return "unknown"
        return type_name(ref[len(_REF):])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if "enum" in schema:
        return _union([json.dumps(v, ensure_ascii=False) for v in schema["enum"]])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _union([ts_type(s, indent) for s in schema[key]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([ts_type({**schema, "type": k}, indent) for k in kind])
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        item = ts_type(schema.get("items", {}), indent)
        return f"({item})[]" if " " in item and not item.startswith("{") else f"{item}[]"
    if kind == "object" or "properties" in schema:
        return _object(schema, indent)
    return "unknown"


def _object(schema: dict[str, Any], indent: str) -> str:
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    extra = schema.get("additionalProperties", not properties)
    inner = indent + "  "
    lines = []
    for name in sorted(properties):
        prop = properties[name]
        optional = "" if name in required else "?"
        lines.append(_comment(prop.get("description") if isinstance(prop, dict) else None, inner)
                     + f"{inner}{_key(name)}{optional}: {ts_type(prop, inner)};\n")
    if extra is not False and not properties:
        lines.append(f"{inner}[key: string]: {ts_type(extra if isinstance(extra, dict) else {}, inner)};\n")
    if not lines:
        return "Record<string, never>"
    return "{\n" + "".join(lines) + indent + "}"


def _wrapped(kind: str) -> str:
    """A long union of names, one a line."""
    if len(kind) <= 100 or kind.startswith("{") or "\n" in kind:
        return kind
    return "".join(f"\n  | {part}" for part in kind.split(" | "))


def _body_type(content: dict[str, Any]) -> str:
    """The type of a request's or response's body: its JSON when it has one, else text."""
    for media in ("application/json", "application/problem+json"):
        if media in content:
            return ts_type(content[media].get("schema", {}), "    ")
    return "string" if content else "null"


def _parameters(operation: dict[str, Any], inherited: list[dict[str, Any]]) -> str:
    places: dict[str, list[str]] = {"path": [], "query": [], "header": []}
    for p in [*inherited, *operation.get("parameters", [])]:
        if p.get("in") not in places:
            continue
        optional = "" if p.get("required") else "?"
        places[p["in"]].append(_comment(p.get("description"), "        ")
                               + f"        {_key(p['name'])}{optional}: {ts_type(p.get('schema', {}), '        ')};\n")
    out = [f"      {place}: {{\n{''.join(lines)}      }};\n" if lines else f"      {place}: Record<string, never>;\n"
           for place, lines in places.items()]
    return "    parameters: {\n" + "".join(out) + "    };\n"


def _operation(path: str, method: str, operation: dict[str, Any], inherited: list[dict[str, Any]]) -> str:
    op_id = operation.get("operationId") or type_name(f"{method}_{path}")
    doc = _comment(f"{method.upper()} {path}: {operation.get('summary', '')}".rstrip(": "), "  ")
    body = operation.get("requestBody")
    request = _body_type(body.get("content", {})) if body else "never"
    responses = operation.get("responses", {})
    answers = []
    ok: list[str] = []
    errors: list[str] = []
    for status in sorted(responses):
        content = responses[status].get("content") or {}
        kind = _body_type(content)
        answers.append(f"      {json.dumps(status)}: {kind};\n")
        (ok if status.startswith("2") else errors).append(kind)
    return (
        f"{doc}  {_key(op_id)}: {{\n"
        f"    method: {json.dumps(method.upper())};\n"
        f"    path: {json.dumps(path)};\n"
        + _parameters(operation, inherited)
        + f"    requestBody: {request};\n"
        f"    responses: {{\n{''.join(answers)}    }};\n"
        f"    /** The body of a successful answer. */\n"
        f"    response: {_union(ok) if ok else 'null'};\n"
        f"    /** The body of a refusal (RFC 9457 problem details). */\n"
        f"    error: {_union(errors) if errors else 'never'};\n"
        "  };\n"
    )


def render_typescript(document: dict[str, Any]) -> str:
    """The declarations file for ``document`` (an OpenAPI 3.1 document)."""
    out = [HEADER, "\n// ---------------------------------------------------------------- schemas\n\n"]
    schemas: dict[str, Any] = document.get("components", {}).get("schemas", {})
    for name in sorted(schemas):
        schema = schemas[name]
        out.append(_comment(schema.get("description"), ""))
        out.append(f"export type {type_name(name)} = {_wrapped(ts_type(schema))};\n\n")
    out.append("// ------------------------------------------------------------- operations\n\n")
    out.append("/** Every operation, by its `operationId`: parameters, request body, responses. */\n")
    out.append("export interface operations {\n")
    paths: dict[str, Any] = document.get("paths", {})
    ids = []
    for path in sorted(paths):
        item = paths[path]
        for method in METHODS:
            if method in item:
                ids.append((path, method, item[method].get("operationId")))
                out.append(_operation(path, method, item[method], item.get("parameters", [])))
    out.append("}\n\n")
    out.append("/** Every path, by method, to its operation. */\n")
    out.append("export interface paths {\n")
    for path in sorted(paths):
        methods = [(m, i) for p, m, i in ids if p == path]
        out.append(f"  {json.dumps(path)}: {{\n")
        out.extend(f"    {m}: operations[{json.dumps(i)}];\n" for m, i in methods)
        out.append("  };\n")
    out.append("}\n\n")
    out.append("/** The request body of an operation (`never` for one that takes none). */\n")
    out.append('export type RequestBody<Op extends keyof operations> = operations[Op]["requestBody"];\n')
    out.append("/** The body of an operation's successful answer. */\n")
    out.append('export type ResponseBody<Op extends keyof operations> = operations[Op]["response"];\n')
    out.append("/** An operation's query parameters. */\n")
    out.append('export type QueryOf<Op extends keyof operations> = operations[Op]["parameters"]["query"];\n')
    return "".join(out)


def typescript_from(openapi_path: Path) -> str:
    return render_typescript(json.loads(openapi_path.read_text(encoding="utf-8")))
