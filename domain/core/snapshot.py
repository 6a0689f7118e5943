"""State snapshots, the pure part: which code folded a state (``fingerprint``) and the state as
bytes and back (``StateCodec``).

A snapshot is a cache of a fold, never history: it is valid only for the exact code that made
it. ``fingerprint`` is a SHA-256 over the source files of ``domain/core``, of the ruleset's own
folder and at the top of ``domain`` (sorted relative paths, then bytes), the ruleset's id and
its event schema versions, and the msgspec version that encodes: any change to that code gives
another fingerprint, and the old snapshots are ignored; another ruleset's code is not part of it.

The state is msgpack. Most of ``EncounterState`` is typed, so msgspec decodes it to the
right types by itself; a few fields are typed ``Any`` (``EncounterState.rules``,
``Combatant.sheet``, some fields of a ruleset's own state) and would come back as plain dicts
and lists. So the encoder writes, next to the state, a *manifest* naming the class of every
struct (and every tuple, set or container of structs) found in an ``Any`` field, and the
decoder converts those values back. Only ``msgspec.Struct`` classes of the ``domain``
package are ever named or built: the bytes cannot make the decoder build anything else.
``StateCodec.encode`` refuses (``Unsnapshottable``) a state its bytes would not give back
equal (``==``): a snapshot is written only once it is known to decode to the state folded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
from msgspec import inspect

from domain.core.encounter import EncounterState

DOMAIN_ROOT = Path(__file__).resolve().parent.parent  # the ``domain`` package


class Unsnapshottable(Exception):
    """The state holds something the codec cannot write and read back equal."""


# --------------------------------------------------------------------------- fingerprint


def source_digest(root: Path = DOMAIN_ROOT, package: str | None = None) -> bytes:
    """SHA-256 over the package's source files: sorted relative paths, each with its bytes.
    With ``package`` (a ruleset's folder, such as ``places_of_power``): only the files at the
    top of ``root``, ``core`` and that folder, so that editing one ruleset leaves the others'
    snapshots valid."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        relative = path.relative_to(root)
        if package is not None and len(relative.parts) > 1 and relative.parts[0] not in ("core", package):
            continue
        name = relative.as_posix().encode()
        data = path.read_bytes()
        for part in (name, data):
            h.update(len(part).to_bytes(8, "big"))
            h.update(part)
    return h.digest()


@cache
def _domain_digest(package: str | None) -> bytes:
    return source_digest(DOMAIN_ROOT, package)  # read once per process: the code it runs does not change


def package_of(ruleset: object) -> str | None:
    """The folder of ``domain`` a ruleset's class lives in (None: it lives elsewhere, a test's)."""
    parts = type(ruleset).__module__.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "domain" else None


def fingerprint(ruleset_id: str, schema_versions: dict[str, int], root: Path | None = None,
                package: str | None = None) -> str:
    """The ``fold`` a snapshot is stored under: valid only for this exact code of core and of
    the ruleset's ``package`` (all of ``domain`` when None; ``root``: another copy of it, for tests)."""
    h = hashlib.sha256(_domain_digest(package) if root is None else source_digest(root, package))
    h.update(msgspec.json.encode([ruleset_id, sorted(schema_versions.items()), msgspec.__version__]))
    return h.hexdigest()


# ------------------------------------------------------------------------------ codec

# A manifest mirrors the state only where an ``Any`` field holds more than plain JSON-like data:
#   struct:      ["S", "module.Class", {field: manifest}]   (fields whose manifest is not None)
#   containers:  ["L" | "T" | "F" | "E", {index: manifest}]  list, tuple, frozenset, set
#                ["D", [[key, manifest], ...]]               dict values
# For a *typed* field (a struct, or a dict/list of structs, holding ``Any`` fields further in),
# the manifest of the value itself: ``{field: manifest}`` for a struct, ``[[key, manifest]]``
# for a dict, ``[[index, manifest]]`` for a list.


def _domain_structs() -> dict[str, type[msgspec.Struct]]:
    found: dict[str, type[msgspec.Struct]] = {}
    todo = list(msgspec.Struct.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] == "domain":
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


class _Snapshot(msgspec.Struct, array_like=True):
    manifest: Any
    state: EncounterState


class StateCodec:
    """Encode a state to bytes and decode it back to an equal state."""

    def __init__(self) -> None:
        self._classes = _domain_structs()  # import the rulesets before building a codec
        self._names = {cls: name for name, cls in self._classes.items()}
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder(_Snapshot)
        self._fields: dict[type, list[tuple[str, Any]]] = {}

    # --------------------------------------------------------------------- encode

    def encode(self, state: EncounterState) -> bytes:
        """The state's bytes; ``Unsnapshottable`` unless they decode to an equal state."""
        try:
            data = self._encoder.encode(_Snapshot(self._typed(state, _struct_type(EncounterState)), state))
            back = self.decode(data)
        except (TypeError, ValueError, KeyError, msgspec.MsgspecError) as exc:
            raise Unsnapshottable(str(exc)) from exc
        if back != state:
            raise Unsnapshottable("the state decodes to a different state")
        return data

    def _struct_fields(self, cls: type) -> list[tuple[str, Any]]:
        """The fields of a struct class that hold ``Any`` somewhere, with their types."""
        found = self._fields.get(cls)
        if found is None:
            info = _struct_type(cls)
            found = [(f.name, f.type) for f in info.fields if _has_any(f.type)]  # type: ignore[attr-defined]
            self._fields[cls] = found
        return found

    def _typed(self, value: Any, t: Any) -> Any:
        """The manifest of ``value`` in a field declared ``t`` (None: nothing to note)."""
        t = _bare(t)
        if value is None:
            return None
        if isinstance(t, inspect.AnyType):
            return self._infer(value)
        if isinstance(t, inspect.StructType):
            fields = {}
            for name, ft in self._struct_fields(type(value)):
                m = self._typed(getattr(value, name), ft)
                if m is not None:
                    fields[name] = m
            return fields or None
        if isinstance(t, inspect.UnionType):
            for member in t.types:
                if isinstance(member, inspect.StructType) and type(value) is member.cls:
                    return self._typed(value, member)
                if isinstance(member, inspect.AnyType):
                    return self._infer(value)
            return None
        if isinstance(t, inspect.DictType) and _has_any(t.value_type):
            out = [[k, m] for k, v in value.items() if (m := self._typed(v, t.value_type)) is not None]
            return out or None
        if isinstance(t, (inspect.ListType, inspect.VarTupleType)) and _has_any(t.item_type):
            out = [[i, m] for i, v in enumerate(value) if (m := self._typed(v, t.item_type)) is not None]
            return out or None
        if _has_any(t):
            raise Unsnapshottable(f"cannot note the types of a {type(t).__name__}")
        return None

    def _infer(self, value: Any) -> Any:
        """The manifest of a value held in an ``Any`` field."""
        if value is None or isinstance(value, (bool, int, float, str, bytes)):
            return None
        if isinstance(value, msgspec.Struct):
            name = self._names.get(type(value))
            if name is None:
                raise Unsnapshottable(f"{type(value).__qualname__} is not a struct of the domain package")
            fields = {}
            for field, ft in self._struct_fields(type(value)):
                m = self._typed(getattr(value, field), ft)
                if m is not None:
                    fields[field] = m
            return ["S", name, fields]
        if isinstance(value, dict):
            items = [[k, m] for k, v in value.items() if (m := self._infer(v)) is not None]
            return ["D", items] if items else None
        kind = _CONTAINERS.get(type(value))
        if kind is None:
            raise Unsnapshottable(f"cannot note a {type(value).__name__} held in an Any field")
        elements = list(value) if kind in "FE" else value
        if kind in "FE" and any(self._infer(v) is not None for v in elements):
            raise Unsnapshottable("a set of structs")
        items = {i: m for i, v in enumerate(elements) if (m := self._infer(v)) is not None}
        return [kind, items] if items or kind != "L" else None

    # --------------------------------------------------------------------- decode

    def decode(self, data: bytes) -> EncounterState:
        snapshot = self._decoder.decode(data)
        if snapshot.manifest is None:
            return snapshot.state
        state: EncounterState = self._apply(snapshot.state, snapshot.manifest, _struct_type(EncounterState))
        return state

    def _apply(self, value: Any, m: Any, t: Any) -> Any:
        """``value`` (decoded as field type ``t`` says) with the types its manifest notes."""
        t = _bare(t)
        if m is None or value is None:
            return value
        if isinstance(t, inspect.AnyType):
            return self._restore(value, m)
        if isinstance(t, inspect.StructType):
            changes = {}
            for name, ft in self._struct_fields(type(value)):
                if name in m:
                    changes[name] = self._apply(getattr(value, name), m[name], ft)
            return msgspec.structs.replace(value, **changes)
        if isinstance(t, inspect.UnionType):
            for member in t.types:
                if isinstance(member, inspect.StructType) and type(value) is member.cls:
                    return self._apply(value, m, member)
                if isinstance(member, inspect.AnyType):
                    return self._restore(value, m)
            return value
        if isinstance(t, inspect.DictType):
            notes = dict((k, n) for k, n in m)
            return {k: (self._apply(v, notes[k], t.value_type) if k in notes else v) for k, v in value.items()}
        if isinstance(t, (inspect.ListType, inspect.VarTupleType)):
            items = list(value)
            for i, n in m:
                items[i] = self._apply(items[i], n, t.item_type)
            return items if isinstance(t, inspect.ListType) else tuple(items)
        raise ValueError(f"a manifest for a {type(t).__name__}")

    def _restore(self, value: Any, m: Any) -> Any:
        """A value decoded into an ``Any`` field (plain data) back to the types ``m`` notes."""
        kind = m[0]
        if kind == "S":
            cls = self._classes[m[1]]  # a KeyError for any name but a domain struct's
            obj = msgspec.convert(value, cls)
            return self._apply(obj, m[2], _struct_type(cls)) if m[2] else obj
        if kind == "D":
            notes = dict((k, n) for k, n in m[1])
            return {k: (self._restore(v, notes[k]) if k in notes else v) for k, v in value.items()}
        items = list(value)
        for i, n in m[1].items():
            items[i] = self._restore(items[i], n)
        return {"L": list, "T": tuple, "F": frozenset, "E": set}[kind](items)


_CONTAINERS = {list: "L", tuple: "T", frozenset: "F", set: "E"}


def _types_in(t: Any) -> Iterator[Any]:
    if isinstance(t, inspect.UnionType):
        yield from t.types
    elif isinstance(t, inspect.DictType):
        yield t.key_type
        yield t.value_type
    elif isinstance(t, (inspect.ListType, inspect.VarTupleType, inspect.SetType, inspect.FrozenSetType)):
        yield t.item_type
    elif isinstance(t, inspect.TupleType):
        yield from t.item_types
    elif isinstance(t, inspect.Metadata):
        yield t.type


@cache
def _struct_type(cls: type) -> Any:
    return inspect.type_info(cls)


_HAS_ANY: dict[type, bool] = {}


def _struct_has_any(cls: type) -> bool:
    found = _HAS_ANY.get(cls)
    if found is None:
        _HAS_ANY[cls] = True  # meanwhile (a recursive type): assume it may (walking it is only slower)
        info = _struct_type(cls)
        found = _HAS_ANY[cls] = any(_has_any(f.type) for f in info.fields)  # type: ignore[attr-defined]
    return found


def _has_any(t: Any) -> bool:
    """Whether a value of type ``t`` may hold an ``Any`` field (at any depth)."""
    if isinstance(t, inspect.AnyType):
        return True
    if isinstance(t, inspect.StructType):
        return _struct_has_any(t.cls)
    return any(_has_any(x) for x in _types_in(t))


def _bare(t: Any) -> Any:
    """``t`` without its constraints (``Annotated[..., Meta(...)]``)."""
    while isinstance(t, inspect.Metadata):
        t = t.type
    return t
