"""The change between two JSON views, as a JSON Patch (RFC 6902): what a live client applies to
the state it has to get the new one, instead of receiving the whole state again.

Objects are compared member by member; anything else that differs (a number, a string, a
list) is replaced whole: the state's lists are short (the order of play, the conditions), and
a replaced list cannot be misapplied.
"""

from __future__ import annotations

from typing import Any


def json_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    """Operations (``add``, ``remove``, ``replace``) that turn ``old`` into ``new``."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": where, "value": value})
            elif type(old[key]) is not type(value) or old[key] != value:
                _diff(old[key], value, where, ops)
        return
    if type(old) is not type(new) or old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _escape(key: str | int) -> str:
    """A member name in a JSON Pointer (a map keyed by versions has int keys: JSON spells them as text)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """Apply ``add``/``remove``/``replace`` operations (what ``json_patch`` makes) to a copy of
    ``doc``: what a client does; used by the tests."""
    import copy

    return patch_in_place(copy.deepcopy(doc), copy.deepcopy(ops))


def patch_in_place(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """``doc`` with ``ops`` applied in place (their values taken as they are): what a client that
    keeps one copy does (``bench.tables``' screens). Returns the document: a root ``replace``
    gives a new one."""
    for op in ops:
        if op["path"] == "":
            doc = op["value"]
            continue
        *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        target = doc
        for p in parents:
            target = target[int(p)] if isinstance(target, list) else target[p]
        at: Any = last
        if isinstance(target, list):
            at = len(target) if last == "-" else int(last)
        if op["op"] == "remove":
            del target[at]
        elif op["op"] == "add" and isinstance(target, list):
            target.insert(at, op["value"])
        else:
            target[at] = op["value"]
    return doc
