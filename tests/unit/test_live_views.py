"""The pure parts of the live streams: presence, the SSE framing, the outbox, the log
redaction of ``?token=``."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime

import msgspec
import pytest

from domain.core.encounter import Combatant, EncounterState
from projections.presence import Connected, Presence, presence_for, with_presence
from projections.visibility import GM, Viewer
from server.live.streams import Outbox, SlowConsumer, sse_bytes
from server.auth.redaction import redact_record
from server.live.feed import Item

MIRA, KESS, ASSASSIN = "mira", "kess", "assassin"
# the prompts: tests/unit/test_pending.py (any ruleset), tests/rulesets/places_of_power/test_pending.py


def state_with_hidden() -> EncounterState:
    def c(cid: str, controller: str, hidden: bool = False) -> Combatant:
        return Combatant(id=cid, name=cid.title(), side="x", controller=controller, sheet={}, hidden=hidden)  # type: ignore[arg-type]

    return EncounterState(
        id="e", ruleset="places-of-power", name="n", dice_policy="seeded", seed_sha256="", version=5,
        combatants={MIRA: c(MIRA, "player"), KESS: c(KESS, "player"), ASSASSIN: c(ASSASSIN, "player", True)},
        concealed=[ASSASSIN],
    )


def connected(role: str, *combatants: str, transport: str = "websocket") -> Connected:
    return Connected(connection_id=f"c-{role}-{'-'.join(combatants)}", token_id="t", role=role,
                     combatant_ids=list(combatants), label=f"{role} label", transport=transport,
                     connected_at=datetime(2026, 1, 1, tzinfo=UTC))


def test_presence_the_gm_sees_every_connection_players_see_who_is_at_the_table() -> None:
    rows = [connected("gm"), connected("player", MIRA), connected("player", ASSASSIN), connected("spectator")]
    state = state_with_hidden()
    gm = presence_for(rows, state, GM)
    assert gm.roles == {"gm": 1, "player": 2, "spectator": 1}
    assert gm.combatants == [ASSASSIN, MIRA]
    assert gm.connections == rows
    kess = presence_for(rows, state, Viewer("player", frozenset({KESS})))
    # the hidden combatant's player is not counted: it would tell of the hidden combatant
    assert kess == Presence(roles={"gm": 1, "player": 1, "spectator": 1}, combatants=[MIRA])
    assert b"label" not in msgspec.json.encode(kess) and b"token_id" not in msgspec.json.encode(kess)


def test_presence_goes_alongside_the_state() -> None:
    p = Presence(roles={"gm": 1, "player": 0, "spectator": 0}, combatants=[])
    out = json.loads(with_presence(b'{"version":3}', p))
    assert out == {"version": 3, "presence": {"roles": {"gm": 1, "player": 0, "spectator": 0}, "combatants": []}}


def test_an_sse_message_carries_its_type_and_version() -> None:
    assert sse_bytes(Item("event", 7, b'{"type":"event","version":7}', "")) == (
        b'event: event\nid: 7\ndata: {"type":"event","version":7}\n\n')


async def test_the_outbox_keeps_order_and_gives_up_on_a_client_that_takes_nothing() -> None:
    box = Outbox(limit=2, timeout=0.05)
    for n in range(2):
        await box.put(Item("event", n, b"x", "x"))
    with pytest.raises(SlowConsumer):
        await box.put(Item("event", 2, b"x", "x"))
    taker = asyncio.create_task(box.get())
    assert (await taker).version == 0
    await box.put(Item("event", 3, b"x", "x"))  # room again
    box.close()
    assert [(await box.get()).version, (await box.get()).version] == [1, 3]  # type: ignore[union-attr]
    assert await box.get() is None


def test_tokens_in_urls_are_kept_out_of_the_logs() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, "", 0, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", "/encounters/e/live?after=3&token=frc_secret"), None)
    redact_record(record)
    assert "frc_secret" not in record.getMessage() and "token=[redacted]" in record.getMessage()
    assert "after=3" in record.getMessage()


def test_viewers_share_a_rendering_only_when_their_view_is_the_same() -> None:
    """``view_key``: a player whose own combatants are visible player characters sees what a
    spectator sees (state, events, presence); one who owns the hidden combatant, or an NPC (its
    sheet), or the GM, does not share it; the key is made of ids."""
    from projections.visibility import state_for, view_key
    from server.store.encounters import EventView, visible_events

    def npc(cid: str) -> Combatant:
        return Combatant(id=cid, name=cid.title(), side="y", controller="gm", sheet={"secret": 7})  # type: ignore[arg-type]

    state = state_with_hidden()
    state = msgspec.structs.replace(state, combatants={**state.combatants, "orc": npc("orc")})
    spectator, mira = Viewer("spectator"), Viewer("player", frozenset({MIRA}))
    both = Viewer("player", frozenset({MIRA, KESS}))
    assassin, orc = Viewer("player", frozenset({ASSASSIN})), Viewer("player", frozenset({"orc"}))
    assert view_key(state, spectator) == view_key(state, mira) == view_key(state, both)
    keys = [view_key(state, v) for v in (spectator, assassin, orc, GM)]
    assert len(set(keys)) == 4
    assert all(isinstance(k, tuple) and all(isinstance(p, (str, frozenset)) for p in k) for k in keys)
    rows = [connected("gm"), connected("player", MIRA), connected("player", ASSASSIN), connected("spectator")]
    event = EventView(version=5, event_id="x", type="Noted", schema_version=1, data=msgspec.Raw(b'{"type":"Noted"}'),
                      metadata=msgspec.Raw(b'{"idempotency_key":"k"}'), recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
                      hash="00")
    for v in (mira, both):
        assert state_for(state, v) == state_for(state, spectator)
        assert presence_for(rows, state, v) == presence_for(rows, state, spectator)
        assert visible_events([event], state, v) == visible_events([event], state, spectator)
    assert state_for(state, orc) != state_for(state, spectator)  # the orc's sheet is its player's
    assert presence_for(rows, state, assassin) != presence_for(rows, state, spectator)


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 70000])
def test_a_frame_made_once_is_the_frame_websockets_makes(size: int) -> None:
    """``ws_text_frame`` (what ``DirectFrames`` writes for every client) is byte for byte the
    unmasked text frame the ``websockets`` library serializes for a server."""
    from websockets.frames import Frame, Opcode

    from server.live.feed import Batch, ws_text_frame

    payload = ("é" * (size // 2) + "x" * (size % 2)).encode()
    assert ws_text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)
    items = (Item("event", 1, b'{"a":1}', '{"a":1}'), Item("patch", 1, payload, payload.decode()))
    batch = Batch(items)
    assert batch.ws_bytes(True) == Frame(Opcode.TEXT, batch.frame.encode()).serialize(mask=False)
    assert batch.ws_bytes(False) == b"".join(Frame(Opcode.TEXT, i.text.encode()).serialize(mask=False) for i in items)
