"""What commands and events concern, read from their types (domain/core/concerns.py).

Issue 16: "Every event type says which combatants it concerns (from its fields, nested ones
included, and for a multi-step exchange every event of it concerns every party of it)" and
"Dice carry who rolled them as a structured field (a combatant id), never a name in free text".
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from bench.fights import random_fight
from domain.core.concerns import KEY, CombatantId, EventRef, Parties, SheetValue, WholeSheet, shape_of
from domain.core.dice import DieRoll


class MoraleRow(msgspec.Struct, kw_only=True):
    combatant_id: CombatantId
    morale: SheetValue[int, "combatant_id"]


class Checked(msgspec.Struct, tag=True, kw_only=True):
    by: CombatantId
    attack_id: EventRef
    tests: Parties[list[MoraleRow]]
    order: list[CombatantId]
    points: dict[CombatantId, int]
    rolls: list[DieRoll]
    sheet: WholeSheet[dict[str, Any], "by"]


def die(by: str | None) -> dict[str, Any]:
    return {"sides": 6, "face": 3, "purpose": "test", "source": "reported", "index": None, "by": by}


DATA = {"type": "Checked", "by": "a", "attack_id": 7, "tests": [{"combatant_id": "b", "morale": 9}],
        "order": ["a", "h", "b"], "points": {"a": 1, "h": 2}, "rolls": [die("a")],
        "sheet": {"hits": 1, "willpower": 12}}


def test_subjects_are_named_outside_lists_and_in_parties_and_dice() -> None:
    ids, refs = shape_of(Checked).subjects(DATA)
    assert ids == {"a", "b"} and refs == {7}  # not "h": it is only listed
    assert shape_of(Checked).subjects({**DATA, "rolls": [die("h")]})[0] == {"a", "b", "h"}
    assert shape_of(Checked).ids(DATA) == {"a", "b", "h"}
    struct = msgspec.convert(DATA, Checked)
    assert shape_of(Checked).subjects(struct) == (ids, refs)  # the same on a struct as on its JSON


def test_prune_drops_what_names_the_hidden_and_the_private_sheet_values() -> None:
    seen = shape_of(Checked).prune(DATA, frozenset({"h"}), private=lambda owner: owner in ("a", "b"),
                                   visible=("hits",))
    assert seen["order"] == ["a", "b"] and seen["points"] == {"a": 1}
    assert seen["tests"] == [{"combatant_id": "b"}]  # the Morale is b's sheet
    assert seen["sheet"] == {"hits": 1}  # of a whole sheet, what the table sees
    assert DATA["order"] == ["a", "h", "b"]  # the payload itself is left as it was


def test_every_combatant_id_in_a_fights_events_is_typed_as_one() -> None:
    """Random Places of Power fights (bench/fights.py) with a hidden combatant: every string in
    an event that is a combatant's id sits in a field typed ``CombatantId`` (else the filter
    could not know it names one)."""
    for seed in range(6):
        f = random_fight(random.Random(seed), steps=60, combatants=4, hidden=True, reveal=seed % 2 == 0)
        everyone = set(f.state.combatants) | set(f.state.concealed)
        for event in f.events:
            named = {v for v in _strings(msgspec.to_builtins(event)) if v in everyone}
            assert named <= shape_of(type(event)).ids(event), (type(event).__name__, named)


def test_dice_say_who_rolled_them_and_their_purpose_names_no_one() -> None:
    for seed in range(6):
        f = random_fight(random.Random(seed), steps=80, combatants=4, hidden=True)
        names = {c.name for c in f.state.combatants.values()}
        rolled = [d for e in f.events for d in e.dice_rolled()]
        assert rolled
        for d in rolled:
            assert not any(n in d.purpose for n in names), d
            assert d.by is None or d.by in f.state.combatants or d.by in f.state.concealed
        assert any(d.by is not None for d in rolled)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


class Toll(msgspec.Struct, kw_only=True):
    health: SheetValue[int | None, KEY] = None
    trauma: int = 0


class Tolls(msgspec.Struct, kw_only=True):
    bodies: dict[CombatantId, Toll] = {}


def test_a_sheet_value_in_a_map_by_combatant_belongs_to_its_key() -> None:
    """``SheetValue[T, KEY]``: the owner is the map key the struct sits under."""
    data = {"bodies": {"npc": {"health": 2, "trauma": 1}, "pc": {"health": 4, "trauma": 0}}}
    pruned = shape_of(Tolls).prune(data, frozenset(), lambda owner: owner == "npc")
    assert pruned == {"bodies": {"npc": {"trauma": 1}, "pc": {"health": 4, "trauma": 0}}}


class Names(msgspec.Struct, kw_only=True):
    by_id: dict[CombatantId, list[CombatantId]] = {}


def test_a_shape_knows_whether_it_carries_sheet_values() -> None:
    """The served state's ruleset part is pruned of sheet values only where it can hold some."""
    assert shape_of(Tolls).carries_sheet_values and shape_of(MoraleRow).carries_sheet_values
    assert not shape_of(Names).carries_sheet_values
