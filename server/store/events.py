"""The event store: append with an expected version in one round trip, read back in order.

Tamper evidence: each event's ``hash`` is SHA-256 over the previous event's hash of the
same encounter (32 zero bytes before the first) followed by the event's canonical
bytes: the JSON array ``[encounter_id, version, event_id, type, schema_version, data,
metadata, recorded_at]`` where ``data`` and ``metadata`` are JSON with sorted keys and
``recorded_at`` is ISO 8601 in UTC. The definition lives in ``projections/chain.py``
(pure), shared with the audit and ``fracas verify``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
import msgspec

# GENESIS_HASH, StoredRow and canonical_bytes are re-exported: the chain has one definition
from projections.chain import GENESIS_HASH, StoredRow, canonical_bytes, encode_sorted, link_new, next_hash  # noqa: F401
from server import metrics

_encode_sorted = encode_sorted


class VersionConflict(Exception):
    """Another command appended to the encounter first."""


class UnstorableText(Exception):
    """PostgreSQL refused a string: text and jsonb cannot hold NUL (U+0000)."""


_UNSTORABLE = (asyncpg.UntranslatableCharacterError, asyncpg.CharacterNotInRepertoireError)


class TokenRevoked(Exception):
    """The token that sent the command was revoked (or re-issued) before it could append."""


class IdempotencyConflict(Exception):
    """Another request with the same Idempotency-Key committed first."""


class PredecessorFailed(Exception):
    """The append this one followed (``after``) was not appended, so neither is this one: it
    was decided on a state that never came to be."""


@dataclass(frozen=True)
class Idempotency:
    scope: str
    key: str
    request_hash: bytes
    status: int
    response: bytes


_random_hex: list[str] = []
_VARIANT = {c: "89ab"[int(c, 16) & 3] for c in "0123456789abcdef"}
os.register_at_fork(after_in_child=_random_hex.clear)  # a forked child draws its own


def new_uuid() -> str:
    """A random (version 4) UUID as text, from the operating system's random bytes drawn 4 KiB
    at a time: about four times as fast as ``str(uuid.uuid4())``, which draws 16 bytes a call."""
    if not _random_hex:
        h = os.urandom(4096).hex()
        _random_hex.extend(h[i:i + 32] for i in range(0, len(h), 32))
    h = _random_hex.pop()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:]}"


def chain(
    encounter_id: str,
    prev_hash: bytes,
    first_version: int,
    events: Sequence[Any],
    metadata: dict[str, Any],
    schema_versions: dict[str, int] | None = None,
) -> list[StoredRow]:
    """Turn events into stored rows with versions, ids and the hash chain."""
    versions = schema_versions or {}
    parts = []
    for event in events:
        type_name = event.__struct_config__.tag
        parts.append((new_uuid(), type_name, versions.get(type_name, 1), _encode_sorted(event)))
    return link_new(encounter_id, prev_hash, first_version, parts, _encode_sorted(metadata), datetime.now(UTC))


_INSERT_EVENTS = """
ins AS (
    INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, recorded_at, hash)
    SELECT $1::uuid, v, e, t, s, d, m, r, decode(h, 'hex')
    FROM json_to_recordset($2::json) AS x(v int, e uuid, t text, s int2, d jsonb, m jsonb, r timestamptz, h text)
    WHERE {guard}
    RETURNING 1
), idem AS (
    INSERT INTO idempotency_keys (scope, key, request_hash, status, response)
    SELECT $3::text, $4::text, $5::bytea, $6::int2, $7::bytea
    WHERE $4::text IS NOT NULL AND {guard}
    RETURNING 1
)
SELECT (SELECT count(*) FROM ins) AS appended
"""

# A command's events, appended only while the token that sent it is valid ($8: its hash).
_APPEND = "WITH " + _INSERT_EVENTS.format(
    guard="EXISTS (SELECT 1 FROM tokens WHERE secret_hash = $8 AND revoked_at IS NULL)"
)

# The same, telling the readers from inside the transaction when the events are appended
# ($9: the channel): PostgreSQL delivers the NOTIFY at the commit, and the round trip of a
# NOTIFY after it is saved. Only for an append with no other statement in flight: the NOTIFY
# holds PostgreSQL's one notify-queue lock from before the commit until after its WAL flush,
# which would make concurrent appends commit one at a time (``EventStore._append_group``).
_APPEND_AND_WAKE = _APPEND.replace(
    "SELECT (SELECT count(*) FROM ins) AS appended",
    "SELECT (SELECT count(*) FROM ins) AS appended,\n"
    "       (SELECT count(pg_notify($9, $1::text || ',')) FROM (SELECT 1 FROM ins LIMIT 1) AS one) AS woke",
)
# (its payload ends with a comma, which every reader skips: the process that appended, whose
# waiters were woken already, tells it from the other notifications of its own connections,
# such as presence's: ``Wakeup._notified``)

# A new encounter: its registry row, its GM token and its first event, in one statement.
_OPEN = """
WITH enc AS (
    INSERT INTO encounters (id, ruleset, name, seed) VALUES ($1::uuid, $8, $9, $10)
    RETURNING 1
), gm AS (
    INSERT INTO tokens (id, encounter_id, role, label, secret_hash)
    SELECT $11::uuid, $1::uuid, 'gm', 'GM', $12 FROM enc
    RETURNING 1
), """ + _INSERT_EVENTS.format(guard="true")


class _Row(msgspec.Struct):
    """One row as the append statement reads it (``json_to_recordset``): the rows travel as one
    JSON parameter, which msgspec writes in C; asyncpg's array parameters cost a few Python-level
    type checks per element, the largest part of a command's database call."""

    v: int
    e: str
    t: str
    s: int
    d: msgspec.Raw
    m: msgspec.Raw
    r: datetime
    h: str


_encode_rows = _encode_commands = msgspec.json.Encoder().encode


def _args(encounter_id: str, rows: Sequence[StoredRow], idem: Idempotency | None) -> list[Any]:
    payload = _encode_rows(_rows(rows))
    return [
        encounter_id,
        payload.decode(),
        idem.scope if idem else None,
        idem.key if idem else None,
        idem.request_hash if idem else None,
        idem.status if idem else None,
        idem.response if idem else None,
    ]


# Several commands' events in one statement (group commit): the commands travel as one JSON
# array; each is appended only while its sender's token is valid; the answer names the ones
# appended (by their index ``i``). A command that follows another of the group (``dep``: the same
# encounter, decided on the state the earlier one leaves) is appended only if every earlier
# command of its encounter in the group is. A unique violation or an unstorable string fails the
# whole statement, which appends nothing: the commands are then appended one by one, each
# getting its own answer.
_APPEND_MANY = """
WITH c AS (
    SELECT c.*, EXISTS (SELECT 1 FROM tokens WHERE secret_hash = decode(c.tok, 'hex') AND revoked_at IS NULL) AS valid
    FROM json_to_recordset($1::json)
        AS c(i int, enc uuid, tok text, dep bool, rows json, scope text, key text, rh text, st int2, resp text)
), ok AS (
    SELECT * FROM c
    WHERE c.valid AND (NOT c.dep OR NOT EXISTS (SELECT 1 FROM c e WHERE e.enc = c.enc AND e.i < c.i AND NOT e.valid))
), ins AS (
    INSERT INTO events (encounter_id, version, event_id, type, schema_version, data, metadata, recorded_at, hash)
    SELECT ok.enc, x.v, x.e, x.t, x.s, x.d, x.m, x.r, decode(x.h, 'hex')
    FROM ok, json_to_recordset(ok.rows) AS x(v int, e uuid, t text, s int2, d jsonb, m jsonb, r timestamptz, h text)
    RETURNING 1
), idem AS (
    INSERT INTO idempotency_keys (scope, key, request_hash, status, response)
    SELECT ok.scope, ok.key, decode(ok.rh, 'hex'), ok.st, convert_to(ok.resp, 'UTF8') FROM ok
    WHERE ok.key IS NOT NULL
    RETURNING 1
)
SELECT i FROM ok
"""


class _Command(msgspec.Struct):
    """One command's append in ``_APPEND_MANY``."""

    i: int
    enc: str
    tok: str
    dep: bool  # follows an earlier command of the group
    rows: list[_Row]
    scope: str | None
    key: str | None
    rh: str | None
    st: int | None
    resp: str | None


def _rows(rows: Sequence[StoredRow]) -> list[_Row]:
    return [
        _Row(r.version, r.event_id, r.type, r.schema_version, msgspec.Raw(r.data), msgspec.Raw(r.metadata),
             r.recorded_at, r.hash.hex())
        for r in rows
    ]


@dataclass(eq=False)
class Pending:
    """An append handed to the store: ``done`` is its outcome (None, or the exception ``append``
    raises). ``after``: the append of the same encounter it follows, if that one was still
    pending when this one was decided."""

    encounter_id: str
    rows: Sequence[StoredRow]
    token_hash: bytes
    idem: Idempotency | None
    done: asyncio.Future[None]
    after: Pending | None = None

    @property
    def follows_a_failure(self) -> bool:
        return self.after is not None and failed(self.after)

    def refuse(self) -> None:
        """Settle it unappended, as the append it followed was (its own followers follow suit)."""
        self.after = None
        self.done.set_exception(PredecessorFailed())


def failed(p: Pending) -> bool:
    """Settled without being appended."""
    return p.done.done() and (p.done.cancelled() or p.done.exception() is not None)


class EventStore:
    """Appends and reads events.

    Group commit: at most ``max_in_flight`` append statements run at once. An append waits
    for the end of the event loop's turn (``call_soon``: the commands whose requests came in
    the same read of the sockets are decided by then) and for a free slot; the next statement
    takes everyone waiting (up to ``max_group``) together: one round trip, one transaction,
    one commit for them all. A command alone goes alone, a few microseconds later than at
    once. Under load this is what saves the most: each statement costs the server and
    PostgreSQL a fixed price (and a WAL flush) however many rows it carries; starting a
    statement for the first command of a turn the moment a slot was free took that slot
    for one command while the rest of the turn waited for the next (at 64 connections, 745
    of 1,672 statements carried one command, 276 of 1,691 with the turn's wait). A command is
    never in two groups, and the encounter's lock (``EncounterService``) keeps two commands
    of one encounter out of one group unless the second follows the first (``settle``).
    """

    def __init__(self, pool: asyncpg.Pool, max_in_flight: int | None = None, max_group: int = 64) -> None:
        self.pool = pool
        if max_in_flight is None:
            max_in_flight = int(os.environ.get("FRACAS_APPEND_STATEMENTS", "2"))
        self.max_in_flight = max(1, max_in_flight)
        self.max_group = max(1, max_group)
        self._waiting: list[Pending] = []
        self._in_flight = 0
        self._flushes: set[asyncio.Task[None]] = set()
        self._releases: set[asyncio.Future[None]] = set()  # connections on their way back to the pool
        # called with the encounters of each committed append and whether the append's own
        # transaction told the other processes already (the app: Wakeup.announce, which tells
        # the readers; with a pool made with wake_after_commit, the trigger does not)
        self.on_commit: Callable[[Iterable[str], bool], None] | None = None
        # the channel a lone append notifies from its own transaction (None: never; the app
        # sets it with on_commit), and the backends that did (Wakeup.own_backends)
        self.wake_channel: str | None = None
        self.notifying_backends: dict[int, asyncpg.Connection] = {}  # by backend pid, while open
        self.grouped = 0  # commands appended in a statement with others (a figure for tests and benches)
        self.followed = 0  # appends prepared to follow a pending one of their encounter (likewise)
        self.statements = 0  # statements the group commit started, one command or many (likewise)
        self._tick_due = False  # a call to _on_tick is scheduled

    async def append(
        self, encounter_id: str, rows: Sequence[StoredRow], token_hash: bytes, idem: Idempotency | None = None
    ) -> None:
        """Append all rows atomically, if the sender's token is still valid.

        Raises VersionConflict, IdempotencyConflict, TokenRevoked or UnstorableText.
        """
        await self.settle(self.prepare(encounter_id, rows, token_hash, idem))

    def prepare(
        self, encounter_id: str, rows: Sequence[StoredRow], token_hash: bytes, idem: Idempotency | None = None,
        after: Pending | None = None,
    ) -> Pending:
        """An append to ``settle``. ``after``: a pending append of the same encounter that these
        rows follow (they were decided on the state it leaves)."""
        if after is not None:
            self.followed += 1
        return Pending(encounter_id, rows, token_hash, idem, asyncio.get_running_loop().create_future(), after)

    async def settle(self, p: Pending) -> None:
        """Append ``p`` with the next statement once this turn of the event loop is over (alone
        when nobody else waits). Raises what ``append`` raises, or PredecessorFailed.

        An append that follows another (``after``) goes in the same statement as that one or a
        later one, never in a statement that could commit before it, and only if that one is
        appended. So a command need not wait for the one before it on its encounter to commit
        before it is decided and queued: both can go in one statement.
        """
        if p.follows_a_failure:
            p.refuse()
            return p.done.result()  # raises PredecessorFailed
        self._waiting.append(p)
        self._start_soon()
        await asyncio.shield(p.done)  # a caller that goes away leaves the outcome to its followers

    async def _append_one(
        self, encounter_id: str, rows: Sequence[StoredRow], token_hash: bytes, idem: Idempotency | None,
        wake: bool = False,
    ) -> None:
        """``wake``: notify the readers from the append's own transaction (nothing else in flight)."""
        channel = self.wake_channel if wake else None
        try:
            async with _Lent(self) as conn:
                if channel is None:
                    appended = await conn.fetchval(_APPEND, *_args(encounter_id, rows, idem), token_hash)
                else:
                    appended = await conn.fetchval(_APPEND_AND_WAKE, *_args(encounter_id, rows, idem), token_hash,
                                                   channel)
                    self._notifying(conn)
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc
        except _UNSTORABLE as exc:
            raise UnstorableText(str(exc)) from exc
        if appended == 0:
            raise TokenRevoked()
        if self.on_commit is not None:
            self.on_commit((encounter_id,), channel is not None)

    def _release_later(self, conn: Any) -> None:
        """Give a connection back to the pool without waiting: asyncpg's release is a shielded
        task (two turns of the event loop) that a command's answer need not wait for."""
        task = asyncio.ensure_future(self.pool.release(conn))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    def _notifying(self, conn: Any) -> None:
        """Note the backend that notified, while its connection is open: once it is closed its
        pid may be another process's backend's."""
        pid = conn.get_server_pid()
        if pid not in self.notifying_backends:
            for old in [p for p, c in self.notifying_backends.items() if c.is_closed()]:
                del self.notifying_backends[old]
            self.notifying_backends[pid] = getattr(conn, "_con", conn)  # the connection, not the pool's proxy

    def _start_soon(self) -> None:
        """Start statements for the waiting appends once this turn of the event loop is over:
        an append queued, or a slot freed, mid-turn, waits for the rest of the turn's commands."""
        if not self._tick_due:
            self._tick_due = True
            asyncio.get_running_loop().call_soon(self._on_tick)

    def _on_tick(self) -> None:
        """The turn in which appends were queued is over: start the statements for them."""
        self._tick_due = False
        self._start_groups()

    def _start_groups(self) -> None:
        while self._waiting and self._in_flight < self.max_in_flight:
            group, in_group, rest = [], set(), []
            for p in self._waiting:
                if p.follows_a_failure:
                    p.refuse()  # its own followers, later in the list, in turn
                    continue
                if p.after is not None:
                    if p.after.done.done():  # appended: this one stands alone now
                        p.after = None
                    elif p.after not in in_group:  # in flight, or held back: wait for it
                        rest.append(p)
                        continue
                if len(group) < self.max_group:
                    group.append(p)
                    in_group.add(p)
                else:
                    rest.append(p)
            self._waiting = rest
            if not group:
                return
            self._in_flight += 1
            self.statements += 1
            metrics.APPEND_STATEMENTS.inc()
            metrics.GROUP_COMMANDS.observe(len(group))
            task = asyncio.ensure_future(self._append_group(group, in_group))
            self._flushes.add(task)
            task.add_done_callback(self._flushes.discard)

    async def _append_group(self, group: list[Pending], in_group: set[Pending]) -> None:
        try:
            if len(group) == 1:
                await self._settle(group[0], wake=self._in_flight == 1)
                return
            payload = _encode_commands([
                _Command(
                    i, p.encounter_id, p.token_hash.hex(), p.after in in_group, _rows(p.rows),
                    p.idem.scope if p.idem else None, p.idem.key if p.idem else None,
                    p.idem.request_hash.hex() if p.idem else None, p.idem.status if p.idem else None,
                    p.idem.response.decode() if p.idem else None,
                )
                for i, p in enumerate(group)
            ])
            try:
                async with _Lent(self) as conn:
                    appended = {r["i"] for r in await conn.fetch(_APPEND_MANY, payload.decode())}
                self.grouped += len(group)
            except (asyncpg.UniqueViolationError, *_UNSTORABLE):
                # one of them cannot be appended, and the statement appended nothing: one by one,
                # each encounter's in order
                chains: dict[str, list[Pending]] = {}
                for p in group:
                    chains.setdefault(p.encounter_id, []).append(p)
                await asyncio.gather(*(self._settle_in_order(c) for c in chains.values()))
                return
            except Exception as exc:  # the database is gone: nobody knows more
                for p in group:
                    if not p.done.done():
                        p.done.set_exception(exc)
                return
            except BaseException:
                for p in group:
                    p.done.cancel()
                raise
            if appended and self.on_commit is not None:
                self.on_commit({group[i].encounter_id for i in appended}, False)
            for i, p in enumerate(group):
                if not p.done.done():
                    if i in appended:
                        p.done.set_result(None)
                    elif p.follows_a_failure:
                        p.refuse()
                    else:
                        p.done.set_exception(TokenRevoked())
        finally:
            for p in group:
                if not p.done.done():  # the task was cancelled (shutdown): its followers decide again
                    p.done.cancel()
                p.after = None  # settled: a pending append keeps no chain of those before it alive
            self._in_flight -= 1
            self._start_soon()

    async def _settle_in_order(self, appends: list[Pending]) -> None:
        for p in appends:
            if p.follows_a_failure:
                p.refuse()
            else:
                await self._settle(p)

    async def _settle(self, p: Pending, wake: bool = False) -> None:
        """Append one waiting command alone and hand its outcome to its waiter."""
        try:
            await self._append_one(p.encounter_id, p.rows, p.token_hash, p.idem, wake)
        except Exception as exc:
            if not p.done.done():
                p.done.set_exception(exc)
        else:
            if not p.done.done():
                p.done.set_result(None)

    async def open(
        self, encounter_id: str, ruleset: str, name: str, seed: bytes, gm_token: tuple[str, bytes],
        rows: Sequence[StoredRow], idem: Idempotency | None = None,
    ) -> None:
        """Register the encounter, its GM token (id, secret hash) and its first events at once."""
        try:
            await self.pool.fetchval(_OPEN, *_args(encounter_id, rows, idem), ruleset, name, seed, *gm_token)
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc
        except _UNSTORABLE as exc:
            raise UnstorableText(str(exc)) from exc
        if self.on_commit is not None:
            self.on_commit((encounter_id,), False)

    async def encounter(self, encounter_id: str) -> asyncpg.Record | None:
        return await self.pool.fetchrow("SELECT id, ruleset, name, seed FROM encounters WHERE id = $1", encounter_id)

    async def read(
        self, encounter_id: str, after: int, limit: int | None = None, *, fold_only: bool = False
    ) -> list[asyncpg.Record]:
        """The events after version ``after``, in order. ``fold_only``: just what a replay needs
        (type, schema_version, data, hash): a long history reads about twice as fast."""
        columns = ("type, schema_version, data::text AS data, hash" if fold_only else
                   "version, event_id::text AS event_id, type, schema_version, data::text AS data, "
                   "metadata::text AS metadata, recorded_at, hash")
        return await self.pool.fetch(
            f"""SELECT {columns}
               FROM events WHERE encounter_id = $1 AND version > $2
               ORDER BY version LIMIT $3""",
            encounter_id, after, limit,
        )

    async def stored_response(self, scope: str, key: str, token_hash: bytes | None = None) -> asyncpg.Record:
        """The answer stored under an ``Idempotency-Key`` (``response`` NULL when there is none),
        and ``valid``: whether the sender's token (``token_hash``, its secret's hash) is still
        valid, in the same round trip; a write without a token passes None."""
        record: asyncpg.Record = await self.pool.fetchrow(_STORED_RESPONSE, scope, key, token_hash)
        return record


_STORED_RESPONSE = """
SELECT $3::bytea IS NULL OR EXISTS (SELECT 1 FROM tokens WHERE secret_hash = $3 AND revoked_at IS NULL) AS valid,
       k.request_hash, k.status, k.response
FROM (SELECT 1) AS one LEFT JOIN idempotency_keys k ON k.scope = $1 AND k.key = $2
"""


class _Lent:
    """A pool connection for one append statement, given back without the caller waiting
    (``EventStore._release_later``)."""

    __slots__ = ("store", "conn")

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def __aenter__(self) -> Any:
        self.conn = await self.store.pool.acquire()
        return self.conn

    async def __aexit__(self, *exc: object) -> None:
        self.store._release_later(self.conn)


def _conflict(exc: asyncpg.UniqueViolationError) -> Exception:
    constraint = getattr(exc, "constraint_name", "") or ""
    if constraint.startswith("idempotency_keys"):
        return IdempotencyConflict(str(exc))
    return VersionConflict(str(exc))
