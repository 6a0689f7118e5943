"""What each viewer may see: one filter for every read path (state, events, command replies,
refusals, the log, the audit, live streams).

The GM sees everything. A player or a spectator does not see:

- a hidden combatant (an ambush), anywhere, until the GM reveals it: an event about it is
  shown as ``Redacted`` (its version stays, so paging and resuming work); a table-wide event
  (a new round's Action Points, the order of play) loses the entries that name it; the
  state is the ruleset's own view of the state without it (``Ruleset.conceal``);
- an NPC's sheet: they see its name, side and the fields its ruleset names as visible (its
  wound level and conditions), and no value an event copied off its sheet;
- a secret GM roll, until the GM reveals it: the event is shown with that roll's faces and
  totals removed, and the state without the values derived from it.

What an event is about is read from the types of its fields (``domain/core/concerns.py``)
and recorded as the fight is folded (``EncounterState.concealed_events``), never guessed
from text. A player sees their own combatants even when hidden or NPCs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.concerns import Shape, shape_of
from domain.core.dice import roll_tag
from domain.core.encounter import EncounterState
from domain.core.ruleset import Registry, Ruleset
from domain.rulesets import default_registry

REDACTED = "Redacted"
_SECRET_KEEP = ("who", "secret")
# what the state counts or lists of hidden things, and the record of them: never shown
_GM_ONLY = ("combatants_added", "rolls_used", "concealed", "concealed_events")
_json = msgspec.json.Encoder().encode

# the rulesets served, by id: fed by the app's registry (``serve``), the default one until then
_RULESETS: dict[str, Ruleset] = {}
_SHAPES: dict[str, dict[str, Shape]] = {}


def serve(registry: Registry) -> None:
    """Look up the rulesets of ``registry`` from now on (``create_app`` calls it with the
    registry it serves, so a ruleset outside the default one is filtered by its own rules)."""
    for r in registry.all():
        _RULESETS[r.id] = r
        _SHAPES[r.id] = {t.__struct_config__.tag: shape_of(t) for t in r.event_types}


def ruleset_of(ruleset_id: str) -> Ruleset | None:
    """The served ruleset with ``ruleset_id`` (None: not one served here)."""
    return _RULESETS.get(ruleset_id)


serve(default_registry())


@dataclass(frozen=True)
class Viewer:
    role: str  # "gm", "player" or "spectator"
    combatant_ids: frozenset[str] = field(default_factory=frozenset)

    @property
    def sees_all(self) -> bool:
        return self.role == "gm"


GM = Viewer("gm")


@dataclass(frozen=True)
class Scope:
    """What one viewer may not see in one encounter, at its current state."""

    hidden: frozenset[str]  # combatants hidden from the viewer, and groups all of whose members are
    own: frozenset[str]
    secret_versions: frozenset[int]
    players: frozenset[str] = frozenset()  # player characters: their sheets are the table's
    unseen_events: Mapping[int, list[str]] = field(default_factory=dict)
    visible_sheet_fields: tuple[str, ...] = ()
    shapes: Mapping[str, Shape] = field(default_factory=dict)
    # seeded dice: their numbers are shown once the seed is revealed (the fight ended); until then
    # each is a tag made with the seed (``roll_tag``), or nothing where the seed is not at hand
    numbers_shown: bool = False
    roll_key: bytes | None = None
    encounter_id: str = ""

    @classmethod
    def of(cls, state: EncounterState, viewer: Viewer, seed: bytes | None = None) -> Scope:
        own = viewer.combatant_ids
        ruleset = ruleset_of(state.ruleset)
        return cls(
            numbers_shown=state.status == "ended",
            roll_key=seed,
            encounter_id=state.id,
            hidden=ruleset.hidden_from(state, own) if ruleset else frozenset(state.concealed) - own,
            own=own,
            secret_versions=frozenset(state.secret_versions),
            players=frozenset(c.id for c in state.combatants.values() if c.controller == "player"),
            unseen_events=state.concealed_events,
            visible_sheet_fields=ruleset.visible_sheet_fields if ruleset else (),
            shapes=_SHAPES.get(state.ruleset, {}),
        )

    def sheet_is_private(self, owner: Any) -> bool:
        """Whether a value off ``owner``'s sheet is the GM's: an NPC's or a group's (the GM's
        roll for all NPCs), not the viewer's own."""
        return owner is not None and owner not in self.own and owner not in self.players

    def redacts(self, version: int) -> bool:
        """Whether the event at ``version`` is about a combatant hidden from the viewer."""
        about = self.unseen_events.get(version)
        return about is not None and any(c in self.hidden for c in about)


def view_key(state: EncounterState, viewer: Viewer) -> tuple[Any, ...]:
    """Which view of ``state`` the viewer has: two viewers with the same key at the same state
    see the same state (``state_for``), the same events (``event_data_for`` with
    ``metadata_for``) and the same presence (``projections.presence.presence_for``), so one
    rendering serves both (the live feeds share theirs by it). Made of ids, never of what is
    rendered: besides ``sees_all``, those functions read of a viewer only ``Scope.hidden`` and
    ``Scope.sheet_is_private``, which is "not one of the viewer's own combatants and not a
    player character" (so own combatants that are player characters change nothing). A GM sees
    everything: one key. Not prompts: they are the viewer's own (``prompts_for``)."""
    if viewer.sees_all:
        return ("all",)
    scope = Scope.of(state, viewer)
    return ("table", scope.hidden, scope.own - scope.players)


def state_for(state: EncounterState, viewer: Viewer) -> Any:
    """The state as ``viewer`` may see it: the state itself for the GM, else a filtered copy."""
    ruleset = ruleset_of(state.ruleset)
    if ruleset is None:
        raise KeyError(f"ruleset {state.ruleset!r} is not served here")
    state = ruleset.shown(state)
    counted = _counts_action_points(ruleset, state)
    if viewer.sees_all:
        if counted:
            return state
        view = msgspec.to_builtins(state)
        for c in view["combatants"].values():
            c.pop("action_points", None)
        return view
    scope = Scope.of(state, viewer)
    view = msgspec.to_builtins(ruleset.conceal(state, scope.hidden))
    # the ruleset's part without the values off an NPC's sheet (typed SheetValue), where it holds any
    rules_shape = shape_of(type(state.rules))
    if rules_shape.carries_sheet_values:
        view["rules"] = rules_shape.prune(view.get("rules"), frozenset(), scope.sheet_is_private)
    for key in _GM_ONLY:
        view.pop(key, None)
    if not scope.numbers_shown:  # dice kept in the state (a pending attack's) lose their numbers too
        view = {k: _unnumbered(v, scope) if _may_hold_dice(v) else v for k, v in view.items()}
    if state.initiative_version in scope.secret_versions:
        view["group_initiative"] = {}
    for cid, c in view["combatants"].items():
        c.pop("seq", None)
        if not counted:
            c.pop("action_points", None)
        if scope.sheet_is_private(cid) and isinstance(c.get("sheet"), dict):
            # an NPC's sheet is the GM's: only what the table can see of it is shown
            c["sheet"] = {k: c["sheet"][k] for k in scope.visible_sheet_fields if k in c["sheet"]} or None
    return view


def _counts_action_points(ruleset: Ruleset, state: EncounterState) -> bool:
    """Whether the game counts Action Points in ``Combatant.action_points``: a game that keeps its
    action resources elsewhere (``Combatant.resources``) shows no ``action_points`` reading 0."""
    return any(ruleset.counts_action_points(c) for c in state.combatants.values()) or not state.combatants


def event_data_for(version: int, data: dict[str, Any], scope: Scope) -> dict[str, Any] | None:
    """An event's payload as a viewer in ``scope`` may see it; None when it must be redacted whole."""
    if scope.redacts(version):
        return None
    shape = scope.shapes.get(data.get("type", ""))
    view = data if shape is None else shape.prune(data, scope.hidden, scope.sheet_is_private,
                                                  scope.visible_sheet_fields)
    if version in scope.secret_versions:  # the event's own "secret" flag stays; its secret rolls go
        view = {k: _hide_secrets(v) for k, v in view.items()}
    if not scope.numbers_shown:
        view = {k: _unnumbered(v, scope) for k, v in view.items()}
    view.pop("seq", None)
    return view


def _may_hold_dice(value: Any) -> bool:
    """Whether a part of a view may hold a die (a ``{"sides", "face", "index"}``): its JSON, made
    in C, tells at once. Walking the whole state's view for dice, most of it a sheet, was 8% of a
    server process's work at 300 tables (bench.tables)."""
    return isinstance(value, (dict, list)) and b'"index"' in _json(value)


def _unnumbered(value: Any, scope: Scope) -> Any:
    """Each seeded die without its roll number (``index``): in its place a ``roll`` tag where the
    seed is at hand. The numbers run through every roll, the GM's unseen ones too: a player
    could count what happened out of sight by their gaps."""
    if isinstance(value, list):
        return [_unnumbered(v, scope) for v in value]
    if not isinstance(value, dict):
        return value
    if "sides" in value and "face" in value and isinstance(value.get("index"), int):
        die = {k: v for k, v in value.items() if k != "index"}
        if scope.roll_key is not None:
            die["roll"] = roll_tag(scope.roll_key, scope.encounter_id, value["index"])
        return die
    return {k: _unnumbered(v, scope) for k, v in value.items()}


def metadata_for(metadata: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    if viewer.sees_all:
        return metadata
    return {k: v for k, v in metadata.items() if k != "idempotency_key"}


def _hide_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("secret") is True:
            return {k: value[k] for k in _SECRET_KEEP if k in value}
        return {k: _hide_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_hide_secrets(v) for v in value]
    return value


def seen_by(ruleset: Ruleset, state: EncounterState, viewer: Viewer) -> EncounterState:
    """The state ``viewer`` may see, as a state: shown (``Ruleset.shown``), and for anyone but
    the GM without the combatants hidden from them (``Ruleset.conceal``)."""
    shown = ruleset.shown(state)
    if viewer.sees_all:
        return shown
    return ruleset.conceal(shown, ruleset.hidden_from(state, viewer.combatant_ids))
