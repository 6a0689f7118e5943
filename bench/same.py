"""The same-work ceiling: a bare Litestar app that appends a command's events as Fracas does, with no rules and no state.

``POST /encounters/{id}/commands`` takes the very request Fracas takes (the command's JSON, the
GM token as ``Authorization: Bearer``) and sends the very append Fracas sends, through Fracas's
own ``EventStore``: two events chained after the encounter's last (``projections.chain``), each
command guarded by its token's hash in the statement, group commit, the readers woken (NOTIFY)
from the lone append's transaction or after the commit (``Wakeup.announce``). What it leaves out
is what Fracas adds on top: the rules (decide, evolve), the state, the visibility, the answer's
events and state. The events it appends are copies of the encounter's last two (``bench.append``
ends each encounter's turn once through Fracas first), so the projections that follow the log
read events they know. Run by ``python -m bench.append --with-bare``; alone::

    DATABASE_URL=postgresql://... python -m bench.same --port 8002
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get, post

from bench.bare import serve
from projections.chain import canonical_json, link_new
from projections.wakeup import CHANNEL, Wakeup
from server.auth.tokens import hash_secret
from server.settings import Settings
from server.store.database import create_pool
from server.store.events import (
    EventStore,
    Pending,
    PredecessorFailed,
    TokenRevoked,
    VersionConflict,
    new_uuid,
)

_LAST_TWO = """
SELECT version, type, schema_version, data, metadata, hash FROM events
WHERE encounter_id = $1::uuid ORDER BY version DESC LIMIT 2
"""


class Command(msgspec.Struct):
    """The command's body, decoded as Fracas decodes one (its type tag and fields)."""

    type: str
    combatant_id: str | None = None


_decode = msgspec.json.Decoder(Command).decode


@dataclass
class Head:
    """An encounter's end of log as this process appends to it: the next version, the hash to
    chain after, the two events it copies, and the append still pending (the next one follows it,
    as Fracas's next command of an encounter follows its pending one)."""

    version: int
    hash: bytes
    events: list[tuple[str, int, bytes]]  # (type, schema version, canonical data)
    metadata: bytes
    pending: Pending | None = None


async def load_head(request: Request[Any, Any, Any], encounter_id: str) -> Head | None:
    heads: dict[str, Head] = request.app.state.heads
    head = heads.get(encounter_id)
    if head is not None:
        return head
    async with request.app.state.loading:
        if encounter_id in heads:
            return heads[encounter_id]
        rows = await request.app.state.pool.fetch(_LAST_TWO, encounter_id)
        if len(rows) < 2:
            return None
        last, before = rows[0], rows[1]
        head = Head(
            last["version"] + 1, bytes(last["hash"]),
            [(r["type"], r["schema_version"], canonical_json(r["data"])) for r in (before, last)],
            canonical_json(last["metadata"]),
        )
        heads[encounter_id] = head
        return head


@post("/encounters/{encounter_id:str}/commands", status_code=200)
async def command(request: Request[Any, Any, Any], encounter_id: str) -> Response[bytes]:
    _decode(await request.body())
    auth = request.headers.get("authorization", "")
    if not auth.startswith("Bearer "):
        return Response(content=b'{"code":"token_required"}', status_code=401, media_type="application/json")
    head = await load_head(request, encounter_id)
    if head is None:
        return Response(content=b'{"code":"encounter_not_found"}', status_code=404, media_type="application/json")
    store: EventStore = request.app.state.store
    rows = link_new(encounter_id, head.hash, head.version,
                    [(new_uuid(), t, s, data) for t, s, data in head.events], head.metadata, datetime.now(UTC))
    after = head.pending if head.pending is not None and not head.pending.done.done() else None
    p = store.prepare(encounter_id, rows, hash_secret(auth[7:]), after=after)
    head.pending, head.version, head.hash = p, rows[-1].version + 1, rows[-1].hash
    try:
        await store.settle(p)
    except (VersionConflict, PredecessorFailed, TokenRevoked) as exc:
        request.app.state.heads.pop(encounter_id, None)  # read the end of the log again next time
        return Response(content=b'{"code":"%s"}' % type(exc).__name__.encode(), status_code=409,
                        media_type="application/json")
    return Response(content=b'{"version":%d}' % rows[-1].version, media_type="application/json")


@get("/health")
async def health(request: Request[Any, Any, Any]) -> Response[bytes]:
    await request.app.state.pool.fetchval("SELECT 1")
    return Response(content=b'{"status":"ok"}', media_type="application/json")


def create_app() -> Litestar:
    """The app, with Fracas's pool (DATABASE_URL, FRACAS_POOL_SIZE or 10 connections, readers
    woken after the commit) and its event store and wake-up wired as the server wires them."""
    settings = Settings.from_env()
    dsn = settings.database_url
    if not dsn:
        raise RuntimeError("set DATABASE_URL")

    async def startup(app: Litestar) -> None:
        app.state.pool = pool = await create_pool(dsn, settings.pool_size, wake_after_commit=True)
        app.state.store = store = EventStore(pool)
        app.state.wakeup = wakeup = Wakeup(dsn)
        await wakeup.start()
        store.on_commit = wakeup.announce
        store.wake_channel = CHANNEL
        wakeup.own_backends = store.notifying_backends
        app.state.heads = {}
        app.state.loading = asyncio.Lock()

    async def shutdown(app: Litestar) -> None:
        await app.state.wakeup.stop()
        await app.state.pool.close()

    return Litestar(route_handlers=[command, health], on_startup=[startup], on_shutdown=[shutdown])


def main(argv: list[str] | None = None) -> int:
    return serve("bench.same:create_app", "python -m bench.same", __doc__.splitlines()[0], 8002, argv)


if __name__ == "__main__":
    sys.exit(main())
