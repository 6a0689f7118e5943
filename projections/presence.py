"""What each role sees of presence: who is connected to an encounter's live stream.

The GM sees every connection: its token (id and label), role, combatants, transport, when it
connected and when it was last seen. Players and spectators see who is at the table, not who
holds which token: how many connections each role has, and which combatants have their
player connected; a connection of a player whose combatants are all hidden from them is not
counted (it would tell of the hidden combatant), and with no one else connected they see no
presence at all, as when nobody is. Presence is never an event.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.core.encounter import EncounterState
from projections.visibility import Scope, Viewer

ROLES = ("gm", "player", "spectator")


class Connected(msgspec.Struct, kw_only=True):
    """One open live connection (WebSocket or Server-Sent Events)."""

    connection_id: str
    token_id: str
    role: str
    combatant_ids: list[str]
    label: str
    transport: str
    connected_at: datetime


class Presence(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Who is at the table: live connections by role (``gm``, ``player``, ``spectator``), the
    combatants whose player is connected, and for the GM each connection."""

    roles: dict[str, int]
    combatants: list[str]
    connections: list[Connected] | None = None

    @property
    def anyone(self) -> bool:
        """Whether the viewer sees anyone connected (a hidden combatant's player alone is no one)."""
        return any(self.roles.values())


def presence_for(connected: list[Connected], state: EncounterState, viewer: Viewer) -> Presence:
    if viewer.sees_all:
        shown, hidden = connected, frozenset[str]()
    else:
        hidden = Scope.of(state, viewer).hidden
        shown = [c for c in connected
                 if c.role != "player" or any(cid not in hidden for cid in c.combatant_ids)]
    roles = dict.fromkeys(ROLES, 0)
    for c in shown:
        roles[c.role] = roles.get(c.role, 0) + 1
    combatants = sorted({cid for c in shown if c.role == "player" for cid in c.combatant_ids if cid not in hidden})
    return Presence(roles=roles, combatants=combatants, connections=list(connected) if viewer.sees_all else None)


class EncounterView(EncounterState, kw_only=True):
    """The state of an encounter as ``GET /encounters/{id}`` shows it (filtered for the
    caller), with ``presence`` while anyone is connected to its live stream."""

    presence: Presence | None = None


def with_presence(state_json: bytes, presence: Presence) -> bytes:
    """A state's JSON object with a ``presence`` member added (alongside the state, not in it)."""
    assert state_json.endswith(b"}")
    tail = b',"presence":' if state_json != b"{}" else b'"presence":'
    return state_json[:-1] + tail + msgspec.json.encode(presence) + b"}"
