"""What the OpenAPI document says beyond the route decorators: the schemas of the bodies the
routes decode by hand, which token each operation takes, and examples of the main bodies.

Each route says in its ``opt``: ``body`` (the type its body follows) and ``token`` (a key of
``TOKENS``: who may call it). An operation in the document without a ``token`` is a mistake
that stops the app from starting, so a new route cannot leave its security unsaid.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import msgspec
from litestar import Litestar
from litestar.openapi.spec import Example, OpenAPIMediaType, OpenAPIType, Reference, RequestBody, Schema, SecurityScheme

from server.schema.openapi_examples import EXAMPLES
from server.schema.openapi_rulesets import _REF, RulesetSchemas, document_odds, ruleset_schemas

BEARER = "Send it as `Authorization: Bearer <token>`."
SECURITY_SCHEMES = {
    "operatorKey": SecurityScheme(
        type="http", scheme="bearer",
        description="The server's operator key (`fracas serve --operator-key KEY`, or `FRACAS_OPERATOR_KEY`): "
                    "opening and listing encounters need it when the server has one. " + BEARER),
    "gmToken": SecurityScheme(
        type="http", scheme="bearer",
        description="The GM's token of an encounter: `gm_token.token` in the answer to `POST /encounters`, shown "
                    "once. It sees everything and may send every command. " + BEARER),
    "playerToken": SecurityScheme(
        type="http", scheme="bearer",
        description="A player's token, minted by the GM (`POST /encounters/{encounter_id}/tokens`, role `player`): "
                    "it sees what its combatants would, and sends the commands they act in. " + BEARER),
    "spectatorToken": SecurityScheme(
        type="http", scheme="bearer",
        description="A spectator's token, minted by the GM (role `spectator`): it reads the public view, and "
                    "writes nothing. " + BEARER),
}
_GM, _PLAYER, _SPECTATOR = {"gmToken": []}, {"playerToken": []}, {"spectatorToken": []}

# who may call an operation: its security requirements (any one of them), and the same for people
TOKENS: dict[str, tuple[list[dict[str, list[str]]], str]] = {
    "none": ([], "none."),
    "operator": ([{"operatorKey": []}, {}],
                 "the operator key when the server has one (`operatorKey`); none when it has not."),
    "operator_only": ([{"operatorKey": []}],
                      "the operator key (`operatorKey`); a server with none (FRACAS_OPERATOR_KEY) refuses it."),
    "encounter": ([_GM, _PLAYER, _SPECTATOR],
                  "any token of the encounter, the GM's, a player's or a spectator's; each sees what its role may."),
    "actor": ([_GM, _PLAYER],
              "the GM's token, or a player's token for a command one of its combatants acts in (no spectator)."),
    "gm": ([_GM], "the GM's token."),
}


def document(app: Litestar, registry: Any) -> None:
    """Complete ``app``'s OpenAPI document (it is built once, and kept)."""
    openapi = app.openapi_schema
    assert openapi.components is not None
    openapi.components.security_schemes = dict(SECURITY_SCHEMES)  # type: ignore[arg-type]
    rulesets = registry.all()
    bodies: dict[tuple[str, str], Any] = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
            item = openapi.paths.get(path) if openapi.paths else None
            for method in handler.http_methods:
                operation = getattr(item, method.lower(), None)
                if operation is None:  # not in the document (include_in_schema=False)
                    continue
                _secure(operation, handler.opt.get("token"), f"{method} {path}")
                body = handler.opt.get("body")
                if body is not None:
                    bodies[(path, method.lower())] = body
    by_ruleset = ruleset_schemas(openapi, rulesets)
    _document_bodies(openapi, {k: v for k, v in bodies.items() if v != "commands"})
    for (path, method), body in bodies.items():
        if body == "commands":
            _document_commands(getattr(openapi.paths[path], method), rulesets, by_ruleset)
    _document_events(openapi, rulesets, by_ruleset)
    _document_roll_tags(openapi)
    document_odds(openapi, rulesets)
    _type_headers(openapi)
    openapi.components.schemas = {name: _one_branch_plain(schema)
                                  for name, schema in sorted(openapi.components.schemas.items())}


def _type_headers(openapi: Any) -> None:
    """Give each response header documented by name only (the ETag: ``documentation_only``) its schema,
    a string, as OpenAPI requires (``schema`` or ``content``; redocly's ``struct`` rule)."""
    for item in (openapi.paths or {}).values():
        for method in ("get", "post", "put", "patch", "delete"):
            operation = getattr(item, method, None)
            for response in (getattr(operation, "responses", None) or {}).values():
                for header in (getattr(response, "headers", None) or {}).values():
                    if getattr(header, "schema", None) is None and getattr(header, "content", None) is None:
                        header.schema = Schema(type=OpenAPIType.STRING)


def _one_branch_plain(schema: Any) -> Any:
    """A property whose ``oneOf`` has one branch (an optional field left out when unset: msgspec's
    ``T | UnsetType``) as that branch itself: a one-way choice says nothing a reader needs."""
    for name, prop in (getattr(schema, "properties", None) or {}).items():
        branches = getattr(prop, "one_of", None)
        if branches is not None and len(branches) == 1:
            branch = branches[0]
            if isinstance(branch, Schema) and prop.description and not branch.description:
                branch = dataclasses.replace(branch, description=prop.description)
            schema.properties[name] = branch
    return schema


def _secure(operation: Any, token: str | None, where: str) -> None:
    if token not in TOKENS:
        raise ValueError(f"{where}: say which token it takes, opt={{'token': ...}}, one of {', '.join(TOKENS)}")
    security, words = TOKENS[token]
    operation.security = [dict(s) for s in security]
    sentence = f"Token: {words}"
    operation.description = f"{operation.description}\n\n{sentence}" if operation.description else sentence


def _document_bodies(openapi: Any, bodies: dict[tuple[str, str], Any]) -> None:
    """Bodies are decoded by hand (strictly), so tell the document their schemas and examples."""
    kinds = list(dict.fromkeys(bodies.values()))
    schemas, components = msgspec.json.schema_components(kinds, ref_template="#/components/schemas/{name}")
    existing = openapi.components.schemas if openapi.components.schemas is not None else {}
    for name, schema in components.items():
        existing.setdefault(name, schema)
    openapi.components.schemas = existing
    by_kind = dict(zip(kinds, schemas, strict=True))
    for (path, method), kind in bodies.items():
        operation = getattr(openapi.paths[path], method)
        schema = by_kind[kind]
        _set_body(operation, Reference(ref=schema["$ref"]) if "$ref" in schema else schema)


def _set_body(operation: Any, schema: Any) -> None:
    examples = {e.name: Example(summary=e.summary, value=e.value)
                for e in EXAMPLES.get(operation.operation_id, [])}
    operation.request_body = RequestBody(
        required=True,
        content={"application/json": OpenAPIMediaType(schema=schema, examples=examples or None)},  # type: ignore[arg-type]
    )


def _document_commands(operation: Any, rulesets: list[Any], by_ruleset: dict[str, RulesetSchemas]) -> None:
    """The command route's body: one of the rulesets' command unions (the encounter's ruleset
    decides which). ``anyOf``, not ``oneOf``: two rulesets may each have an ``Attack``, so one
    body can fit both; inside a ruleset's union ``type`` is the discriminator."""
    unions = [{"$ref": _REF + by_ruleset[r.id].command} for r in rulesets]
    _set_body(operation, unions[0] if len(unions) == 1 else {
        "anyOf": unions,
        "description": "A command of the encounter's ruleset: one of the rulesets' command unions, by `type` "
                       "within it (`GET /rulesets/{ruleset_id}` lists a ruleset's commands).",
    })


def _document_events(openapi: Any, rulesets: list[Any], by_ruleset: dict[str, RulesetSchemas]) -> None:
    """An event's ``data``, wherever the API shows an event (``EventView``: the history, a
    command's answer, the live stream's items): the payloads of each ruleset's events."""
    view = openapi.components.schemas.get("EventView")
    if view is None or not view.properties or "data" not in view.properties:
        return
    view.properties["data"] = {
        "anyOf": [*({"$ref": _REF + by_ruleset[r.id].event} for r in rulesets), {"type": "object"}],
        "description": "The event's payload, as stored at its `schema_version`: at the current version, one of "
                       "the encounter's ruleset's events (its union, by `type`; "
                       + ", ".join(f"`{by_ruleset[r.id].event}`" for r in rulesets)
                       + "). Shown to a player or a spectator, what they may not see is left out of it, and a "
                       "`Redacted` event's payload is `{}`.",
    }


def _document_roll_tags(openapi: Any) -> None:
    """A die as a player or spectator sees it while the seed is secret: a ``roll`` tag in place of
    its ``index`` (``projections.visibility``: the numbers would count the rolls out of sight)."""
    die = openapi.components.schemas.get("DieRoll")
    if isinstance(die, dict):
        die.setdefault("properties", {})["roll"] = {
            "type": "string",
            "description": "Shown to a player or spectator in place of `index` until the fight ends and the "
                           "seed is revealed: a tag that tells nothing of how many rolls came before. With the "
                           "seed, `HMAC-SHA256(seed, \"{encounter_id}:roll:{index}\")`, its first 16 hex "
                           "digits, gives each number's tag.",
        }
