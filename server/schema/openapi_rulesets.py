"""Each ruleset's own schemas in the OpenAPI document: its commands and its events, as named
components and as two unions, ``<Ruleset>.Command`` and ``<Ruleset>.Event`` (``type`` is their
discriminator), and its odds operation.

Naming, chosen for generated clients: a type of the shared lifecycle (``domain/core``:
``EndTurn``, ``EncounterOpened``) keeps its class name and is one component every ruleset's
union points to; a ruleset's own type is named after its ruleset (``PlacesOfPower.Attack``),
always, not only when another ruleset has an ``Attack`` too. So a generator makes one model per
ruleset type whose name never changes when a ruleset is added beside it, two rulesets' commands
of the same ``type`` never collide, and ``<Ruleset>.Command`` is a closed union over one
ruleset's tags that a generator can switch on (a union over every ruleset could not: the same tag
would mean two types). The command route's body is the one ruleset's union, or ``anyOf`` them
when the server runs several (the encounter's ruleset picks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import msgspec
import msgspec.inspect as mi
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Operation, Parameter, PathItem, Reference

_REF = "#/components/schemas/"
_CORE = "domain.core."


@dataclass(frozen=True)
class RulesetSchemas:
    """The names of one ruleset's two unions in ``components.schemas``."""

    command: str
    event: str


def prefix_of(ruleset: Any) -> str:
    """``places-of-power`` -> ``PlacesOfPower``: how the ruleset's own components are named."""
    return "".join(part[:1].upper() + part[1:] for part in ruleset.id.replace("_", "-").split("-") if part)


def _named_types(types: list[Any]) -> list[type]:
    """The classes that get a component of their own (structs, dataclasses, enums...), reached
    from ``types``, each once."""
    found: dict[type, None] = {}
    seen: set[int] = set()
    stack: list[Any] = list(mi.multi_type_info(types))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, (mi.StructType, mi.DataclassType, mi.TypedDictType, mi.NamedTupleType, mi.EnumType)):
            found.setdefault(node.cls)
        if isinstance(node, msgspec.Struct):
            stack.extend(getattr(node, name) for name in reversed(node.__struct_fields__))
        elif isinstance(node, (tuple, list)):
            stack.extend(reversed(node))
    return list(found)


def _name(cls: type, prefix: str) -> str:
    return cls.__name__ if cls.__module__.startswith(_CORE) else f"{prefix}.{cls.__name__}"


def _components(types: list[Any], prefix: str) -> tuple[dict[type, str], dict[str, Any]]:
    """The components of the classes ``types`` reach, named as this module says (their refs
    renamed too): each class's name, and the schemas by name."""
    kinds = _named_types(types)
    refs, generated = msgspec.json.schema_components(kinds, ref_template=_REF + "{name}")
    names = {cls: _name(cls, prefix) for cls in kinds}
    by_generated = {ref["$ref"][len(_REF):]: names[cls] for cls, ref in zip(kinds, refs, strict=True) if "$ref" in ref}
    return names, {by_generated[n]: _renamed(schema, by_generated) for n, schema in generated.items()}


def _renamed(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {k: _renamed(v, names) for k, v in node.items()}
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF):
            out["$ref"] = _REF + names.get(ref[len(_REF):], ref[len(_REF):])
        return out
    if isinstance(node, list):
        return [_renamed(v, names) for v in node]
    return node


def _union(ruleset: Any, kinds: tuple[type, ...], names: dict[type, str], what: str) -> dict[str, Any]:
    refs = {k.__struct_config__.tag: _REF + names[k] for k in kinds}
    return {
        "title": f"{ruleset.name} {what}",
        "description": f"A{'n' if what[0] in 'aeiou' else ''} {what} of {ruleset.name} (`{ruleset.id}`): one of its "
                       f"types, by `type`.",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


def ruleset_schemas(openapi: Any, rulesets: list[Any]) -> dict[str, RulesetSchemas]:
    """Add each ruleset's command and event types and its two unions to ``openapi``'s
    components; the names of the unions, by ruleset id. A name two different schemas would take
    stops the app from starting (the document would say one thing of two types)."""
    components = openapi.components.schemas if openapi.components.schemas is not None else {}
    ours: dict[str, tuple[Any, str]] = {}  # name -> (schema, whose) as this module adds them
    out: dict[str, RulesetSchemas] = {}
    for ruleset in rulesets:
        prefix = prefix_of(ruleset)
        names, schemas = _components([*ruleset.command_types, *ruleset.event_types], prefix)
        for name, schema in schemas.items():
            if name in ours and ours[name][0] != schema:
                raise ValueError(f"two types would be the OpenAPI component {name!r} ({ours[name][1]} and "
                                 f"{ruleset.id}): a type of domain/core is one type for every ruleset")
            ours[name] = (schema, ruleset.id)
            components.setdefault(name, schema)
        command, event = f"{prefix}.Command", f"{prefix}.Event"
        for union, kinds_, what in ((command, ruleset.command_types, "command"),
                                    (event, ruleset.event_types, "event")):
            if union in components:
                raise ValueError(f"the OpenAPI component {union!r} is taken: ruleset ids must differ by more "
                                 "than case and dashes")
            components[union] = _union(ruleset, kinds_, names, what)
        out[ruleset.id] = RulesetSchemas(command=command, event=event)
    openapi.components.schemas = components
    return out


# ----------------------------------------------------------------------------- odds


def _in_order(annotation: Any) -> list[Any] | None:
    """The values of a ``Literal`` parameter in the order the ruleset wrote them (its ladder:
    D4 .. D12, Easy .. Very Hard), which msgspec's schema sorts."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return list(get_args(annotation)) if get_origin(annotation) is Literal else None


def _parameters(query: type[msgspec.Struct]) -> list[Parameter]:
    """The query parameters of an odds query: its fields, described, with their schemas."""
    (ref,), defs = msgspec.json.schema_components([query], ref_template=_REF + "{name}")
    schema = defs[ref["$ref"][len(_REF):]]
    required = set(schema.get("required", []))
    hints = get_type_hints(query, include_extras=True)
    params = []
    for name, field in schema.get("properties", {}).items():
        field = dict(field)
        description = field.pop("description", "")
        values = _in_order(hints.get(name))
        if values is not None and "enum" in field:
            field["enum"] = values
            if all(isinstance(v, str) for v in values):
                field["type"] = "string"
        params.append(Parameter(name=name, param_in="query", required=name in required, description=description,
                                schema=field))  # type: ignore[arg-type]
    return params


def document_odds(openapi: Any, rulesets: list[Any]) -> None:
    """Each ruleset's odds, at ``/rulesets/{its id}/odds``: its own parameters and answer (the
    generic route ``GET /rulesets/{ruleset_id}/odds`` serves them all, and cannot say them)."""
    generic = openapi.paths.get("/rulesets/{ruleset_id}/odds")
    if generic is None or generic.get is None:
        return
    components = openapi.components.schemas
    for ruleset in rulesets:
        query, answer = ruleset.odds_query, ruleset.odds_answer
        if query is None or answer is None:
            continue
        names, schemas = _components([answer], prefix_of(ruleset))
        for name, schema in schemas.items():
            components.setdefault(name, schema)
        doc = (query.__doc__ or "").strip()
        summary, _, rest = doc.partition("\n\n")
        base = generic.get
        operation = Operation(
            tags=base.tags,
            summary=summary.strip().rstrip("."),
            description=" ".join(rest.split()) + "\n\nToken: none.",
            operation_id=ruleset.odds_operation_id or f"get{prefix_of(ruleset)}Odds",
            parameters=_parameters(query),
            responses={
                "200": OpenAPIResponse(description="Request fulfilled, document follows", content={
                    "application/json": OpenAPIMediaType(schema=Reference(ref=_REF + names[answer]))}),
                **{code: r for code, r in (base.responses or {}).items() if code != "200"},
            },
            security=base.security,
        )
        openapi.paths[f"/rulesets/{ruleset.id}/odds"] = PathItem(get=operation)
    answers = [{"$ref": _REF + _name(r.odds_answer, prefix_of(r))} for r in rulesets
               if r.odds_query is not None and r.odds_answer is not None]
    ok = (generic.get.responses or {}).get("200")
    if answers and ok is not None and ok.content:
        ok.content["application/json"].schema = answers[0] if len(answers) == 1 else {"anyOf": answers}
    openapi.paths = dict(sorted(openapi.paths.items()))
