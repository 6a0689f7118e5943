"""What is wrong with a request body, said so that its sender can put it right: the command
and the field, the values an enum allows, the command meant by a mistyped name.

msgspec says what failed and where (``Invalid enum value 'Fly' - at `$.action```); this
turns that into a sentence and ``details`` a client can read (``command``, ``field``,
``allowed``, ``suggestion``), taking the allowed values from the body's JSON Schema.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

import msgspec

_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`$")
_BAD_VALUE = re.compile(r"^Invalid (?:enum )?value (?P<value>.+)$")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


class Explained(msgspec.Struct, kw_only=True):
    """A body's fault: ``detail`` for people, ``details`` for programs."""

    detail: str
    details: dict[str, Any]


def where(message: str) -> tuple[str, str]:
    """msgspec's message split into what failed and the path it failed at (``.a[0].b``)."""
    m = _AT.match(message)
    assert m is not None  # the pattern matches any text
    return m.group("what"), m.group("path") or ""


def nearest(word: str, choices: list[str]) -> str | None:
    """The choice ``word`` most likely meant: the same letters in another case, or a close spelling."""
    by_folded = {c.casefold(): c for c in choices}
    if word.casefold() in by_folded:
        return by_folded[word.casefold()]
    close = difflib.get_close_matches(word.casefold(), list(by_folded), n=1, cutoff=0.75)
    return by_folded[close[0]] if close else None


@lru_cache(maxsize=256)
def _schema(kind: Any) -> dict[str, Any]:
    return msgspec.json.schema(kind)


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[1]]
    return node


def _branches(node: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    options = node.get("anyOf") or node.get("oneOf")
    return [_resolve(o, defs) for o in options] if options else [node]


def _node_at(kind: Any, path: str) -> dict[str, Any] | None:
    """The JSON Schema of what sits at ``path`` in a body of type ``kind``."""
    schema = _schema(kind)
    defs = schema.get("$defs", {})
    node = _resolve(schema, defs)
    for name, index in _STEP.findall(path):
        for branch in _branches(node, defs):
            if name and name in branch.get("properties", {}):
                node = _resolve(branch["properties"][name], defs)
                break
            if index and isinstance(branch.get("items"), dict):
                node = _resolve(branch["items"], defs)
                break
        else:
            return None
    return node


def allowed_values(kind: Any, path: str) -> list[Any] | None:
    """The values an enum (a ``Literal``) at ``path`` allows, or None when it is no enum."""
    node = _node_at(kind, path)
    if node is None:
        return None
    values = [v for b in _branches(node, _schema(kind).get("$defs", {})) for v in b.get("enum", [])]
    return values or None


def fields_at(kind: Any, path: str) -> list[str]:
    """The fields of the object at ``path`` in a body of type ``kind``."""
    node = _node_at(kind, path)
    if node is None:
        return []
    defs = _schema(kind).get("$defs", {})
    return [f for b in _branches(node, defs) for f in b.get("properties", {}) if f != "type"]


def _listed(values: list[Any]) -> str:
    return ", ".join(f"`{v}`" for v in values)


def explain(kind: Any, message: str, subject: str = "The body") -> Explained:
    """A sentence about msgspec's ``message`` for a body of type ``kind``. ``subject`` names
    the body ("TakeAction" for a command, else "The body")."""
    what, path = where(message)
    field = path.lstrip(".")
    inside = f" in `{field}`" if field else ""
    details: dict[str, Any] = {}
    if (m := _MISSING.match(what)) is not None:
        details["field"] = f"{field}.{m['field']}" if field else m["field"]
        detail = f"{subject} needs the field `{m['field']}`{inside}."
    elif (m := _UNKNOWN.match(what)) is not None:
        details["field"] = f"{field}.{m['field']}" if field else m["field"]
        known = fields_at(kind, path)
        meant = nearest(m["field"], known)
        detail = f"{subject} has no field `{m['field']}`{inside}"
        if meant is not None:
            detail += f": did you mean `{meant}`?"
            details["suggestion"] = meant
        else:
            detail += f" (its fields: {_listed(known)})." if known else "."
    elif field and (m := _BAD_VALUE.match(what)) is not None and (allowed := allowed_values(kind, path)):
        details.update(field=field, allowed=allowed)
        detail = f"{subject}'s `{field}` cannot be {m['value']}: it is one of {_listed(allowed)}."
    elif field:
        details["field"] = field
        detail = f"{subject}'s `{field}`: {what}."
    else:
        detail = f"{subject}: {what}."
    return Explained(detail=detail, details=details)
