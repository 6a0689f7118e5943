"""What a command or an event concerns, read from the types of its fields, never from text.

A field holding a combatant's id is typed ``CombatantId``; a field naming an earlier event by
its version (an attack, a called check) is an ``EventRef``; a field copying a value off a
combatant's sheet is ``SheetValue[T, "owner"]``, ``owner`` being the sibling field that says
whose sheet. From those types each command and event type gets a ``Shape``, worked out once:

- ``subjects``: the ids (and references) the payload names outside any list or map, and in
  its lists of parties (``Parties``; who rolled its dice): whom the event is about. An event about a combatant hidden from the
  viewer is shown redacted.
- ``prune``: the payload as plain JSON values, without the list items and map entries that
  name a hidden combatant (a table-wide event, such as a new round's Action Points, keeps
  the others), and without the sheet values of combatants whose sheets the viewer may not see.
- ``ids``: every combatant id the payload names, anywhere (a command naming a hidden one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from msgspec import inspect as mi

COMBATANT = "combatant"
EVENT = "event"

CombatantId = Annotated[str, msgspec.Meta(extra={"concerns": COMBATANT})]
EventRef = Annotated[int, msgspec.Meta(extra={"concerns": EVENT})]
PARTIES = "parties"


class Parties:
    """``Parties[list[MoraleTest]]``: each item names a party of the event (everyone a Morale
    Check tested): an event with a hidden party is about it, and is redacted whole."""

    def __class_getitem__(cls, kind: Any) -> Any:
        return Annotated[kind, msgspec.Meta(extra={"concerns": PARTIES})]


KEY = "@key"
"""The owner of a sheet value held in a map keyed by combatant id: ``SheetValue[int, KEY]``."""


class SheetValue:
    """``SheetValue[int, "combatant_id"]``: a value copied off the sheet of the combatant named by
    the sibling field ``combatant_id`` (``KEY``: by the map key the struct sits under); players
    and spectators do not see an NPC's."""

    def __class_getitem__(cls, params: tuple[Any, str]) -> Any:
        kind, owner = params
        return Annotated[kind, msgspec.Meta(extra={"sheet_of": owner})]


class WholeSheet:
    """``WholeSheet[dict[str, Any], "combatant_id"]``: a combatant's whole sheet; of an NPC's,
    players and spectators see only the fields its ruleset names as visible."""

    def __class_getitem__(cls, params: tuple[Any, str]) -> Any:
        kind, owner = params
        return Annotated[kind, msgspec.Meta(extra={"sheet_of": owner, "whole": True})]


# ------------------------------------------------------------------------- the shapes


@dataclass(frozen=True)
class _Id:
    kind: str  # COMBATANT or EVENT


@dataclass(frozen=True)
class _Struct:
    fields: tuple[tuple[str, str, Any], ...]  # (attribute, JSON name, shape) of the fields that matter
    sheet: tuple[tuple[str, str, bool], ...]  # (JSON name, owner's JSON name, whole sheet?) of the sheet values
    cls: type
    tag: tuple[str, Any] | None = None  # (tag field, tag) of a tagged struct


@dataclass(frozen=True)
class _Seq:
    item: Any


@dataclass(frozen=True)
class _Parties:
    """A list whose items are parties of the payload (its dice, each combatant tested): whom
    they name, the payload is about; the list is never cut short (others point into it)."""

    item: Any


@dataclass(frozen=True)
class _Map:
    key: _Id | None
    value: Any


@dataclass(frozen=True)
class _Union:
    options: tuple[Any, ...]  # shapes of the union's non-None members that matter


def _shape(t: mi.Type, seen: dict[type, Any]) -> Any:
    """The part of type ``t`` that names combatants, events or sheet values; None if nothing."""
    if isinstance(t, mi.Metadata):
        concerns = (t.extra or {}).get("concerns")
        if concerns == PARTIES:
            inner = _shape(t.type, seen)
            return _Parties(inner.item) if isinstance(inner, (_Seq, _Parties)) else inner
        return _Id(concerns) if concerns else _shape(t.type, seen)
    if isinstance(t, mi.StructType):
        if t.cls in seen:
            return seen[t.cls]
        seen[t.cls] = None  # a recursive type names nothing through its recursion
        fields, sheet = [], []
        for f in t.fields:
            extra = (f.type.extra or {}) if isinstance(f.type, mi.Metadata) else {}
            if extra.get("sheet_of"):
                owner = KEY if extra["sheet_of"] == KEY else _encode_name(t, extra["sheet_of"])
                sheet.append((f.encode_name, owner, bool(extra.get("whole"))))
            inner = _shape(f.type, seen)
            if inner is not None:
                fields.append((f.name, f.encode_name, inner))
        tag = (t.tag_field, t.tag) if t.tag_field is not None else None
        shape = _Struct(tuple(fields), tuple(sheet), t.cls, tag) if fields or sheet else None
        seen[t.cls] = shape
        return shape
    if isinstance(t, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
        item = _shape(t.item_type, seen)
        if item is None:
            return None
        dice = isinstance(t.item_type, mi.StructType) and getattr(t.item_type.cls, "__rolled_by__", False)
        return _Parties(item) if dice else _Seq(item)
    if isinstance(t, mi.DictType):
        key, value = _shape(t.key_type, seen), _shape(t.value_type, seen)
        return _Map(key if isinstance(key, _Id) else None, value) if key is not None or value is not None else None
    if isinstance(t, mi.UnionType):
        options = tuple(s for s in (_shape(u, seen) for u in t.types) if s is not None)
        if not options:
            return None
        return options[0] if len(options) == 1 else _Union(options)
    return None


def _carries_sheet(shape: Any, seen: set[int]) -> bool:
    if shape is None or id(shape) in seen:
        return False
    seen.add(id(shape))
    if isinstance(shape, _Struct):
        return bool(shape.sheet) or any(_carries_sheet(inner, seen) for _, _, inner in shape.fields)
    if isinstance(shape, (_Seq, _Parties)):
        return _carries_sheet(shape.item, seen)
    if isinstance(shape, _Map):
        return _carries_sheet(shape.value, seen)
    if isinstance(shape, _Union):
        return any(_carries_sheet(o, seen) for o in shape.options)
    return False


def _encode_name(t: mi.StructType, attribute: str) -> str:
    for f in t.fields:
        if f.name == attribute:
            return f.encode_name
    raise TypeError(f"{t.cls.__name__}: a sheet value names its owner {attribute!r}, which is not a field")


class Shape:
    """What a command or event type names, worked out once from its type."""

    __slots__ = ("_root", "_subjects", "_refs", "carries_sheet_values")

    def __init__(self, kind: type) -> None:
        self._root = _shape(mi.type_info(kind), {})
        self.carries_sheet_values = _carries_sheet(self._root, set())  # anywhere in it
        self._subjects = _subjects_reader(self._root) if self._root is not None else None
        # the fields that refer to an earlier event, at the top of the payload
        self._refs = tuple(a for a, _, inner in self._root.fields if _refers(inner)) \
            if isinstance(self._root, _Struct) else ()

    def refers_into(self, value: Any, versions: Mapping[int, Any]) -> bool:
        """Whether ``value`` (a struct) refers to one of ``versions`` by a field at its top."""
        return any(getattr(value, a, None) in versions for a in self._refs)

    @property
    def names_anything(self) -> bool:
        return self._root is not None

    def subjects(self, value: Any) -> tuple[set[str], set[int]]:
        """The combatant ids and event references ``value`` (a struct or its JSON values)
        names outside any list or map."""
        ids: set[str] = set()
        refs: set[int] = set()
        if self._subjects is not None:
            self._subjects(value, ids, refs)
        return ids, refs

    def ids(self, value: Any) -> set[str]:
        """Every combatant id ``value`` names, anywhere."""
        return set(_all_ids(self._root, value)) if self._root is not None else set()

    def prune(self, data: Any, hidden: frozenset[str], private: Callable[[Any], bool],
              visible: tuple[str, ...] = ()) -> Any:
        """``data`` (JSON values) without the items and entries naming a ``hidden`` combatant,
        and without the sheet values of an owner whose sheet is ``private`` to the viewer (of
        a whole sheet, the ``visible`` fields stay)."""
        if self._root is None:
            return data
        return _prune(self._root, data, _Viewing(hidden, private, visible))


_SHAPES: dict[type, Shape] = {}


def shape_of(kind: type) -> Shape:
    found = _SHAPES.get(kind)
    if found is None:
        found = _SHAPES[kind] = Shape(kind)
    return found


# ------------------------------------------------------------------ reading the values


def _get(value: Any, attribute: str, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else getattr(value, attribute, None)


def _subjects(shape: Any, value: Any, ids: set[str], refs: set[int]) -> None:
    if value is None:
        return
    if isinstance(shape, _Id):
        if shape.kind == COMBATANT and isinstance(value, str):
            ids.add(value)
        elif shape.kind == EVENT and isinstance(value, int) and not isinstance(value, bool):
            refs.add(value)
    elif isinstance(shape, _Struct):
        for attribute, name, inner in shape.fields:
            _subjects(inner, _get(value, attribute, name), ids, refs)
    elif isinstance(shape, _Parties):
        for die in value if isinstance(value, (list, tuple)) else ():
            _subjects(shape.item, die, ids, refs)
    elif isinstance(shape, _Union):
        for option in shape.options:
            if _fits(option, value):
                _subjects(option, value, ids, refs)
                return
    # other lists and maps: what they hold is not whom the payload is about


def _refers(shape: Any) -> bool:
    return (isinstance(shape, _Id) and shape.kind == EVENT) or (
        isinstance(shape, _Union) and any(_refers(o) for o in shape.options))


Reader = Callable[[Any, set[str], set[int]], None]


def _subjects_reader(shape: Any) -> Reader | None:
    """``_subjects`` for one shape, made into a function once (the fold calls it on every event
    of a fight with someone hidden); None where the shape has no subjects."""
    if isinstance(shape, _Id):
        if shape.kind == COMBATANT:
            def combatant(v: Any, ids: set[str], refs: set[int]) -> None:
                if v.__class__ is str:
                    ids.add(v)
            return combatant

        def event(v: Any, ids: set[str], refs: set[int]) -> None:
            if v.__class__ is int:
                refs.add(v)
        return event
    if isinstance(shape, _Struct):
        parts = tuple((a, n, r) for a, n, inner in shape.fields if (r := _subjects_reader(inner)) is not None)
        if not parts:
            return None

        def struct(v: Any, ids: set[str], refs: set[int]) -> None:
            if v is None:
                return
            if isinstance(v, dict):
                for _, name, read in parts:
                    read(v.get(name), ids, refs)
            else:
                for attribute, _, read in parts:
                    read(getattr(v, attribute, None), ids, refs)
        return struct
    if isinstance(shape, _Parties):
        item = _subjects_reader(shape.item)
        if item is None:
            return None

        def parties(v: Any, ids: set[str], refs: set[int]) -> None:
            if isinstance(v, (list, tuple)):
                for x in v:
                    item(x, ids, refs)
        return parties
    if isinstance(shape, _Union):
        def union(v: Any, ids: set[str], refs: set[int]) -> None:
            _subjects(shape, v, ids, refs)
        return union
    return None  # other lists and maps: what they hold is not whom the payload is about


def _all_ids(shape: Any, value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(shape, _Id):
        if shape.kind == COMBATANT and isinstance(value, str):
            yield value
    elif isinstance(shape, _Struct):
        for attribute, name, inner in shape.fields:
            yield from _all_ids(inner, _get(value, attribute, name))
    elif isinstance(shape, (_Seq, _Parties)):
        if isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                yield from _all_ids(shape.item, item)
    elif isinstance(shape, _Map):
        if isinstance(value, dict):
            for k, v in value.items():
                if shape.key is not None and shape.key.kind == COMBATANT and isinstance(k, str):
                    yield k
                if shape.value is not None:
                    yield from _all_ids(shape.value, v)
    elif isinstance(shape, _Union):
        for option in shape.options:
            if _fits(option, value):
                yield from _all_ids(option, value)
                return


def _fits(shape: Any, value: Any) -> bool:
    """Whether ``value`` can be of the union member ``shape``."""
    if isinstance(shape, _Id):
        return isinstance(value, str if shape.kind == COMBATANT else int)
    if isinstance(shape, _Struct):
        if isinstance(value, msgspec.Struct):
            return isinstance(value, shape.cls)
        return isinstance(value, dict) and (shape.tag is None or value.get(shape.tag[0]) == shape.tag[1])
    if isinstance(shape, (_Seq, _Parties)):
        return isinstance(value, (list, tuple, set, frozenset))
    if isinstance(shape, _Map):
        return isinstance(value, dict)
    return False


def _names_hidden(shape: Any, value: Any, hidden: frozenset[str]) -> bool:
    """Whether a list item or map value is about a hidden combatant (its own subjects)."""
    ids: set[str] = set()
    _subjects(shape, value, ids, set())
    return not ids.isdisjoint(hidden)


@dataclass(frozen=True)
class _Viewing:
    hidden: frozenset[str]
    private: Callable[[Any], bool]
    visible: tuple[str, ...]


def _prune(shape: Any, value: Any, v: _Viewing, key: Any = None) -> Any:
    """``key``: the map key ``value`` sits under (the owner of its ``KEY`` sheet values)."""
    if value is None:
        return None
    hidden = v.hidden
    if isinstance(shape, _Struct):
        if not isinstance(value, dict):
            return value
        out = dict(value)
        for name, owner, whole in shape.sheet:
            if name in out and v.private(key if owner == KEY else out.get(owner)):
                if whole and isinstance(out[name], dict):
                    out[name] = {k: out[name][k] for k in v.visible if k in out[name]} or None
                else:
                    del out[name]
        for _, name, inner in shape.fields:
            if name in out and not isinstance(inner, _Id):
                out[name] = _prune(inner, out[name], v)
        return out
    if isinstance(shape, _Seq):
        if not isinstance(value, list):
            return value
        return [_prune(shape.item, item, v) for item in value if not _names_hidden(shape.item, item, hidden)]
    if isinstance(shape, _Parties):  # never cut short: a hidden party redacts the whole payload
        return [_prune(shape.item, item, v) for item in value] if isinstance(value, list) else value
    if isinstance(shape, _Map):
        if not isinstance(value, dict):
            return value
        out = {}
        for k, item in value.items():
            if shape.key is not None and shape.key.kind == COMBATANT and k in hidden:
                continue
            if shape.value is not None:
                if _names_hidden(shape.value, item, hidden):
                    continue
                item = _prune(shape.value, item, v, k)
            out[k] = item
        return out
    if isinstance(shape, _Union):
        for option in shape.options:
            if _fits(option, value):
                return _prune(option, value, v, key)
    return value
