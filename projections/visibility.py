"""What each viewer may see: one filter for every read path (state, events, command replies).

The GM sees everything. A player or a spectator does not see:

- a hidden combatant (an ambush), anywhere: not in the state, not in the order of play,
  not in any event, not in a count; an event about it is shown as ``Redacted``
  (its version stays, so paging and resuming work);
- an NPC's sheet: they see its name, side and what the table can see of it (the fields
  its ruleset names as visible: its wound level and conditions), not the rest;
- a secret GM roll, until the GM reveals it: the event is shown with that roll's faces
  and totals removed, and the state without the values derived from it.

A player sees their own combatants even when hidden or NPCs. The filter works on the
JSON shapes of the state and the events, so every later event is filtered by the same
rules without code of its own: an object that names a hidden combatant disappears.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core.encounter import EncounterState
from domain.rulesets import default_registry

# What the table can see of an NPC's sheet, per ruleset (its wound level, its conditions).
_VISIBLE_SHEET_FIELDS = {r.id: r.visible_sheet_fields for r in default_registry().all()}

REDACTED = "Redacted"
_SECRET_KEEP = ("who", "secret")
_COUNTS = ("combatants_added", "rolls_used", "concealed")  # counts and lists that tell of hidden things


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

    hidden: frozenset[str]
    own: frozenset[str]
    secret_versions: frozenset[int]
    hidden_names: frozenset[str] = frozenset()
    visible_sheet_fields: tuple[str, ...] = ()

    @classmethod
    def of(cls, state: EncounterState, viewer: Viewer) -> Scope:
        own = viewer.combatant_ids
        hidden = frozenset(state.concealed) - own
        return cls(
            hidden=hidden,
            own=own,
            secret_versions=frozenset(state.secret_versions),
            hidden_names=frozenset(state.combatants[c].name for c in hidden if c in state.combatants),
            visible_sheet_fields=_VISIBLE_SHEET_FIELDS.get(state.ruleset, ()),
        )

    def mentions_hidden(self, text: str) -> bool:
        return any(h in text for h in self.hidden | self.hidden_names)


def state_for(state: EncounterState, viewer: Viewer) -> Any:
    """The state as ``viewer`` may see it: the state itself for the GM, else a filtered copy."""
    if viewer.sees_all:
        return state
    scope = Scope.of(state, viewer)
    view = msgspec.to_builtins(state)
    for key in _COUNTS:
        view.pop(key, None)
    if view.get("turn") in scope.hidden:
        view["turn"] = None
    if state.initiative_version in scope.secret_versions:
        view["group_initiative"] = {}
    view = _scrub(view, scope)
    for c in view["combatants"].values():
        c.pop("seq", None)
    return view


def event_data_for(version: int, data: dict[str, Any], scope: Scope) -> dict[str, Any] | None:
    """An event's payload as a viewer in ``scope`` may see it; None when it must be redacted whole."""
    if any(isinstance(v, str) and v in scope.hidden for k, v in data.items() if k != "type"):
        return None
    view = _scrub(data, scope)
    if version in scope.secret_versions:  # the event's own "secret" flag stays; its secret rolls go
        view = {k: _hide_secrets(v) for k, v in view.items()}
    view.pop("seq", None)
    return view


def metadata_for(metadata: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    if viewer.sees_all:
        return metadata
    return {k: v for k, v in metadata.items() if k != "idempotency_key"}


def _names_hidden(obj: dict[str, Any], hidden: frozenset[str]) -> bool:
    return any(isinstance(v, str) and v in hidden for v in obj.values())


def _scrub(value: Any, scope: Scope) -> Any:
    """Drop every key, item and object that names a hidden combatant; blank NPC sheets."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in scope.hidden:
                continue
            if isinstance(v, dict) and _names_hidden(v, scope.hidden):
                continue
            out[k] = _scrub(v, scope)
        if "sheet" in out and out.get("controller") == "gm" and out.get("id", out.get("combatant_id")) not in scope.own:
            sheet = out["sheet"] if isinstance(out["sheet"], dict) else {}
            # an NPC's sheet is the GM's: only what the table can see of it is shown
            out["sheet"] = {k: sheet[k] for k in scope.visible_sheet_fields if k in sheet} or None
        return out
    if isinstance(value, list):
        return [
            _scrub(v, scope)
            for v in value
            if not (isinstance(v, str) and v in scope.hidden)
            and not (isinstance(v, dict) and _names_hidden(v, scope.hidden))
        ]
    return value


def _hide_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("secret") is True:
            return {k: value[k] for k in _SECRET_KEEP if k in value}
        return {k: _hide_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_hide_secrets(v) for v in value]
    return value
