"""Encounters as aggregates: load by replaying events, decide commands, append the result.

Hot encounters stay in memory keyed by version. A cached state is only ever used
optimistically: every append names the version it was decided against (the unique
``(encounter_id, version)`` key refuses it if another process appended first, and the
command is then decided again on the fresh state), a refusal is re-checked against
the database before it is returned, and every read catches up from the database
first. So the cache saves replays and reads but never answers with stale state.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from domain.core.dice import ReportedDice, SeededDice, choose_dice, seed_commitment
from domain.core.encounter import AddCombatant, Command, EncounterState, Event, Retcon, Retconned
from domain.core.errors import RuleViolation, clean_text
from domain.core.ruleset import Registry, Ruleset
from projections.visibility import GM, REDACTED, Scope, Viewer, event_data_for, metadata_for, state_for
from server.auth.tokens import IssuedToken, Principal, TokenStore, hash_secret, new_secret, revoked
from server.http.command_errors import command_problem
from server.http.problems import Problem
from server.store.snapshots import Snapshots
from server.store.events import (
    GENESIS_HASH,
    EventStore,
    Idempotency,
    IdempotencyConflict,
    Pending,
    PredecessorFailed,
    TokenRevoked,
    VersionConflict,
    chain,
    failed,
    new_uuid,
)

MAX_ATTEMPTS = 50
RETCONNED = Retconned.__struct_config__.tag


class EventView(msgspec.Struct, kw_only=True):
    """One stored event as the API shows it."""

    version: int
    event_id: str
    type: str
    schema_version: int
    data: msgspec.Raw
    metadata: msgspec.Raw
    recorded_at: datetime
    hash: str


def event_view(row: Any) -> EventView:
    """An event as stored (a database record) as the API shows it."""
    return EventView(
        version=row["version"], event_id=row["event_id"], type=row["type"], schema_version=row["schema_version"],
        data=msgspec.Raw(row["data"].encode()), metadata=msgspec.Raw(row["metadata"].encode()),
        recorded_at=row["recorded_at"], hash=bytes(row["hash"]).hex(),
    )


class CommandResult(msgspec.Struct, kw_only=True):
    """What a write returns: the events it appended, the new version and the new state."""

    encounter_id: str
    version: int
    events: list[EventView]
    state: EncounterState


class OpenedEncounter(CommandResult, kw_only=True):
    """A new encounter, and its GM token: keep it, it is shown this once."""

    gm_token: IssuedToken


@dataclass(frozen=True)
class Write:
    """Who sends a write, and on what terms."""

    principal: Principal
    if_match: int | None = None
    idempotency_key: str | None = None
    rhash: bytes = b""
    status: int = 200

    @property
    def scope(self) -> str:
        """Idempotency keys are the sender's own: one token cannot replay another's answers."""
        return f"{self.principal.encounter_id}/{self.principal.token_id}"


def visible_events(views: list[EventView], state: EncounterState, viewer: Viewer,
                   seed: bytes | None = None) -> list[EventView]:
    """The events as ``viewer`` may see them, judged by the encounter's current state; ``seed``
    (``EncounterService.roll_key``) tags their seeded dice in place of the roll numbers."""
    if viewer.sees_all:
        return views
    scope = Scope.of(state, viewer, seed)
    out = []
    for v in views:
        data = event_data_for(v.version, msgspec.json.decode(v.data), scope)
        if data is None:
            out.append(msgspec.structs.replace(
                v, type=REDACTED, schema_version=1, data=msgspec.Raw(b"{}"), metadata=msgspec.Raw(b"{}")
            ))
        else:
            metadata = metadata_for(msgspec.json.decode(v.metadata), viewer)
            out.append(msgspec.structs.replace(
                v, data=msgspec.Raw(_encode(data)), metadata=msgspec.Raw(_encode(metadata))
            ))
    return out


@dataclass
class Entry:
    """A cached encounter: ``state`` and ``last_hash`` are committed (the log holds them).

    ``tail``: the last append this process handed to the store for the encounter, and ``tip``,
    ``tip_hash``: the state and hash it leaves. While it is pending, the next command is decided
    on the tip and its append follows the tail (``EventStore.settle``): it is appended only if
    the tail is, so a command need not wait for the one before it to commit. ``lock`` is held
    only while deciding (and while catching up with the database), never across an append."""

    ruleset: Ruleset
    seed: bytes
    state: EncounterState
    last_hash: bytes
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tail: Pending | None = None
    tip: EncounterState | None = None
    tip_hash: bytes = b""

    def base(self) -> tuple[EncounterState, bytes, Pending | None]:
        """What the next command is decided on: (state, its last hash, the append it follows)."""
        t = self.tail
        if t is not None and self.tip is not None and not failed(t):
            if not t.done.done():
                return self.tip, self.tip_hash, t
            if self.tip.version > self.state.version:  # appended: the tip is committed
                self.state, self.last_hash = self.tip, self.tip_hash
        return self.state, self.last_hash, None

    async def settled(self) -> None:
        """Wait until no append of this encounter is pending in this process."""
        while self.tail is not None and not self.tail.done.done():
            await asyncio.wait([self.tail.done])


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    version: int
    encounter_id: str = ""


_encode = msgspec.json.Encoder().encode


def request_hash(*parts: bytes | str) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode() if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "big"))
        h.update(b)
    return h.digest()


def not_found(encounter_id: str) -> Problem:
    return Problem(404, "encounter_not_found", "Encounter not found", f"There is no encounter {encounter_id}.")


class EncounterService:
    def __init__(
        self, store: EventStore, registry: Registry, tokens: TokenStore, cache_size: int = 10_000,
        snapshots: Snapshots | None = None,
    ) -> None:
        self.store = store
        self.tokens = tokens
        self.registry = registry
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Entry] = OrderedDict()
        self.snapshots = snapshots  # None: every cold load replays the whole history

    # ----------------------------------------------------------------- loading

    async def _entry(self, encounter_id: str) -> Entry:
        entry = self._cache.get(encounter_id)
        if entry is not None:
            self._cache.move_to_end(encounter_id)
            return entry
        rec = await self.store.encounter(encounter_id)
        if rec is None:
            raise not_found(encounter_id)
        ruleset = self.registry.get(rec["ruleset"])
        loaded = await self.snapshots.load(encounter_id, ruleset, self._decode) if self.snapshots else None
        if loaded is None:
            rows = await self.store.read(encounter_id, 0, fold_only=True)
            loaded = ruleset.replay([self._decode(ruleset, r) for r in rows]), bytes(rows[-1]["hash"])
        state, last_hash = loaded
        entry = Entry(ruleset=ruleset, seed=bytes(rec["seed"]), state=state, last_hash=last_hash)
        entry = self._cache.setdefault(encounter_id, entry)
        if self.snapshots:
            self.snapshots.consider(encounter_id, ruleset, entry.state, entry.last_hash)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return entry

    @staticmethod
    def _decode(ruleset: Ruleset, row: Any) -> Any:
        return ruleset.decode_event(row["type"], row["schema_version"], row["data"])

    decode = _decode  # a stored event (a row) as the ruleset's event: what a live feed folds

    async def _refresh(self, encounter_id: str, entry: Entry) -> bool:
        """Catch the cached state up with the database; True when there was something new.

        Reads and writes of one encounter interleave, so the entry only ever moves forward:
        the rows are applied to the state they were read after, never to a newer one.
        """
        base = entry.state
        rows = await self.store.read(encounter_id, base.version)
        if not rows:
            return False
        state = base
        if any(row["type"] == RETCONNED for row in rows):  # a retcon goes back: replay the history
            state = entry.ruleset.replay(await self._events(encounter_id, entry.ruleset, rows[-1]["version"]))
        else:
            for row in rows:
                state = entry.ruleset.evolve(state, self._decode(entry.ruleset, row))
        if state.version > entry.state.version:
            entry.state = state
            entry.last_hash = bytes(rows[-1]["hash"])
        return True

    async def roll_key(self, encounter_id: str) -> bytes:
        """What tags the seeded dice a viewer sees in place of their numbers (``visible_events``)."""
        return (await self._entry(encounter_id)).seed

    async def current(self, encounter_id: str) -> EncounterState:
        entry = await self._entry(encounter_id)
        await self._refresh(encounter_id, entry)
        return entry.state

    # ------------------------------------------------------------- history

    async def _events(self, encounter_id: str, ruleset: Ruleset, upto: int) -> list[Event]:
        """The encounter's events, versions 1 .. ``upto``."""
        rows = await self.store.read(encounter_id, 0, upto)
        return [self._decode(ruleset, r) for r in rows]

    async def history(self, encounter_id: str, ruleset: Ruleset, upto: int) -> list[list[Event]]:
        """The events up to ``upto``, grouped by the command that recorded them (one append,
        one ``request_id`` in their metadata): what a ``Retcon`` is judged against."""
        rows = await self.store.read(encounter_id, 0, upto)
        groups: list[list[Event]] = []
        last: object = None
        for r in rows:
            request = msgspec.json.decode(r["metadata"]).get("request_id") or r["version"]
            if not groups or request != last:
                groups.append([])
            groups[-1].append(self._decode(ruleset, r))
            last = request
        return groups

    async def state_at(self, encounter_id: str, version: int) -> EncounterState:
        """The state as it was after event ``version`` (1 .. the current version), replayed."""
        current = await self.current(encounter_id)
        if not 1 <= version <= current.version:
            raise Problem(404, "version_not_found", "No such version",
                          f"The encounter is at version {current.version}: ask for a version from 1 to it.",
                          current_version=current.version)
        if version == current.version:
            return current
        ruleset = await self.ruleset_of(encounter_id)
        return ruleset.replay(await self._events(encounter_id, ruleset, version))

    # ------------------------------------------------------------------ writes

    async def open(
        self, ruleset_id: str, name: str, dice_policy: str, *, idempotency_key: str | None, body: bytes
    ) -> Reply:
        """Open an encounter and issue its GM token, in one statement."""
        scope = "encounters"
        rhash = request_hash("POST /encounters", body)
        if idempotency_key is not None:
            replay = await self._reopened(scope, idempotency_key, rhash)
            if replay is not None:
                return replay
        ruleset = self.registry.get(ruleset_id)
        encounter_id = str(uuid.uuid4())
        seed = secrets.token_bytes(32)
        events = ruleset.open(encounter_id, name, dice_policy, seed_commitment(seed))
        state = ruleset.replay(events)
        gm_id, gm_secret = str(uuid.uuid4()), new_secret()
        gm = IssuedToken(id=gm_id, role="gm", combatant_ids=[], label="GM", token=gm_secret)
        actor = {"role": "gm", "token_id": gm_id}
        rows = chain(
            encounter_id, GENESIS_HASH, 1, events, self._metadata(actor, idempotency_key), ruleset.schema_versions
        )
        reply = self._opened(encounter_id, state, rows, gm)
        # the stored answer never holds the secret: a retry gets the same token re-issued
        stored = self._opened(encounter_id, state, rows, msgspec.structs.replace(gm, token=""))
        idem = Idempotency(scope, idempotency_key, rhash, 201, stored) if idempotency_key else None
        try:
            await self.store.open(encounter_id, ruleset.id, state.name, seed, (gm_id, hash_secret(gm_secret)), rows, idem)
        except IdempotencyConflict:
            replay = await self._reopened(scope, idempotency_key or "", rhash)
            assert replay is not None
            return replay
        self._cache[encounter_id] = Entry(ruleset=ruleset, seed=seed, state=state, last_hash=rows[-1].hash)
        self.tokens.remember(Principal(token_id=gm_id, encounter_id=encounter_id, role="gm",
                                       combatant_ids=frozenset(), secret_hash=hash_secret(gm_secret)))
        return Reply(201, reply, state.version, encounter_id)

    async def _reopened(self, scope: str, key: str, rhash: bytes) -> Reply | None:
        """A retried open: the first answer, with the GM token's secret issued anew."""
        replay = await self._stored(scope, key, rhash)
        if replay is None:
            return None
        first = msgspec.json.decode(replay.body, type=OpenedEncounter)
        secret = await self.tokens.resecret(first.gm_token.id)
        if secret is None:
            raise Problem(409, "token_revoked", "Token revoked", "The GM token of that encounter has been revoked.")
        gm = msgspec.structs.replace(first.gm_token, token=secret)
        body = _encode(msgspec.structs.replace(first, gm_token=gm))
        return Reply(replay.status, body, replay.version, first.encounter_id)

    async def mint_token(
        self, encounter_id: str, role: str, combatant_ids: list[str], label: str, *,
        principal: Principal, idempotency_key: str | None, rhash: bytes,
    ) -> IssuedToken:
        """A player token for combatants of this encounter, or a spectator token."""
        scope = f"{encounter_id}/{principal.token_id}/tokens"
        if idempotency_key is not None:
            again = await self._reminted(scope, idempotency_key, rhash, principal.secret_hash)
            if again is not None:
                return again
        state = await self.current(encounter_id)
        label = clean_text(label, "A token's label", max_length=100) if label.strip() else ""
        ids = list(dict.fromkeys(combatant_ids))
        if role == "player" and not ids:
            raise Problem(422, "invalid_token_request", "Invalid token request",
                          "A player token acts for at least one combatant: name them in `combatant_ids`.")
        if role != "player" and ids:
            raise Problem(422, "invalid_token_request", "Invalid token request",
                          "A spectator token reads only: it acts for no combatant.")
        for cid in ids:
            if cid not in state.combatants:
                raise RuleViolation("unknown_combatant", f"There is no combatant {cid} in this encounter.",
                                    combatant_id=cid)
        try:
            return await self.tokens.mint(
                encounter_id, role, ids, label, by=principal.secret_hash,
                idem=(scope, idempotency_key, rhash) if idempotency_key is not None else None,
            )
        except IdempotencyConflict:
            again = await self._reminted(scope, idempotency_key or "", rhash, principal.secret_hash)
            assert again is not None
            return again

    async def _reminted(self, scope: str, key: str, rhash: bytes, token_hash: bytes) -> IssuedToken | None:
        """A retried mint (while the minting token is valid): the same token, its secret issued anew."""
        replay = await self._stored(scope, key, rhash, token_hash)
        if replay is None:
            return None
        first = msgspec.json.decode(replay.body, type=IssuedToken)
        secret = await self.tokens.resecret(first.id)
        if secret is None:
            raise Problem(409, "token_revoked", "Token revoked", "The token minted with that key has been revoked.")
        return msgspec.structs.replace(first, token=secret)

    def decode_command(self, ruleset: Ruleset, body: bytes) -> Command:
        try:
            command: Command = ruleset.command_decoder.decode(body)
            return command
        except (msgspec.DecodeError, RecursionError) as exc:
            raise command_problem(ruleset, body, exc) from None

    async def ruleset_of(self, encounter_id: str) -> Ruleset:
        return (await self._entry(encounter_id)).ruleset

    async def execute(self, encounter_id: str, command: Command, write: Write) -> Reply:
        try:
            return await self._execute(encounter_id, command, write)
        except (RuleViolation, Problem) as exc:
            key = write.idempotency_key
            # A retry that overlapped its first attempt is refused on the state that attempt
            # produced (or by its version): it gets the first attempt's answer instead.
            if key is not None and (isinstance(exc, RuleViolation) or exc.status == 412):
                replay = await self._stored(write.scope, key, write.rhash, write.principal.secret_hash)
                if replay is not None:
                    return replay
            # a refusal is an answer too, sent only for a token still valid: the route asks
            # (TokenStore.may_answer), for this refusal and for those before it got here
            raise

    async def _execute(self, encounter_id: str, command: Command, write: Write) -> Reply:
        if_match, idempotency_key, principal = write.if_match, write.idempotency_key, write.principal
        entry = await self._entry(encounter_id)
        scope = write.scope
        if idempotency_key is not None:
            replay = await self._stored(scope, idempotency_key, write.rhash, principal.secret_hash)
            if replay is not None:
                return replay
        if isinstance(command, AddCombatant) and not command.combatant_id:
            command = msgspec.structs.replace(command, combatant_id=str(uuid.uuid4()))
        # If-Match names a committed version, and a retcon reads the committed history: both are
        # decided once the encounter's pending appends have settled.
        settle_first = if_match is not None or isinstance(command, Retcon)
        for _ in range(MAX_ATTEMPTS):
            async with entry.lock:
                if settle_first:
                    await entry.settled()
                state, prev_hash, after = entry.base()
                if if_match is not None:
                    if if_match > state.version:
                        await self._refresh(encounter_id, entry)
                        state, prev_hash, after = entry.base()
                    if if_match != state.version:
                        raise self._precondition_failed(if_match, state.version)
                history = (await self.history(encounter_id, entry.ruleset, state.version)
                           if isinstance(command, Retcon) else None)
                try:
                    events, new_state = self._decide(entry, encounter_id, state, command, history, principal.viewer)
                except RuleViolation:
                    if after is not None:  # refused on a state not yet committed: judge it on the committed one
                        await entry.settled()
                        continue
                    # The cache may trail another process: refuse only on the latest state.
                    if await self._refresh(encounter_id, entry):
                        if if_match is not None:
                            raise self._precondition_failed(if_match, entry.state.version) from None
                        continue
                    raise
                rows = chain(
                    encounter_id, prev_hash, state.version + 1, events,
                    self._metadata(principal.actor, idempotency_key, command), entry.ruleset.schema_versions,
                )
                body = self._result(encounter_id, new_state, rows, principal.viewer)
                idem = Idempotency(scope, idempotency_key, write.rhash, write.status, body) if idempotency_key else None
                pending = self.store.prepare(encounter_id, rows, principal.secret_hash, idem, after)
                entry.tail, entry.tip, entry.tip_hash = pending, new_state, rows[-1].hash
            try:
                await self.store.settle(pending)
            except PredecessorFailed:
                continue  # the command before it on this encounter was not appended: decide again
            except TokenRevoked:
                self.tokens.forget(principal.secret_hash)
                raise revoked() from None
            except VersionConflict:
                async with entry.lock:
                    await self._refresh(encounter_id, entry)
                if if_match is not None:
                    raise self._precondition_failed(if_match, entry.state.version) from None
                continue
            except IdempotencyConflict:
                replay = await self._stored(scope, idempotency_key or "", write.rhash, principal.secret_hash)
                assert replay is not None
                return replay
            if new_state.version > entry.state.version:  # a concurrent read may be ahead already
                entry.state = new_state
                entry.last_hash = rows[-1].hash
            if self.snapshots:
                self.snapshots.consider(encounter_id, entry.ruleset, entry.state, entry.last_hash)
            return Reply(write.status, body, new_state.version)
        busy = Problem(
            503, "encounter_busy", "Encounter busy",
            "Too many commands raced for this encounter; send the command again.",
        )
        busy.headers["Retry-After"] = "1"
        raise busy

    def _decide(
        self, entry: Entry, encounter_id: str, state: EncounterState, command: Command,
        history: list[list[Event]] | None = None, viewer: Viewer = GM,
    ) -> tuple[list[Any], EncounterState]:
        """The events of ``command`` and the state they leave. A player's command is decided for
        what they may see: naming a hidden combatant is naming no one, and a refusal tells
        nothing of them (``Ruleset.decide_as``)."""
        seeded = SeededDice(entry.seed, encounter_id, state.rolls_used)
        dice = choose_dice(state.dice_policy, command.dice, seeded)
        hidden = frozenset() if viewer.sees_all else entry.ruleset.hidden_from(state, viewer.combatant_ids)
        events = entry.ruleset.decide_as(hidden, state, command, dice, seed=entry.seed, history=history)
        if isinstance(dice, ReportedDice):
            dice.check_all_used()
        if history is not None and any(isinstance(e, Retconned) for e in events):
            # a retcon goes back to an earlier state: replay the history with it
            return events, entry.ruleset.replay([e for group in history for e in group] + events)
        new_state = state
        for event in events:
            new_state = entry.ruleset.evolve(new_state, event)
        return events, new_state

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def _precondition_failed(expected: int, current: int) -> Problem:
        p = Problem(
            412, "version_mismatch", "Precondition failed",
            f"The encounter is at version {current}, not {expected}: reload it and decide again.",
            expected_version=expected, current_version=current,
        )
        p.headers["ETag"] = f'"{current}"'
        return p

    async def _stored(self, scope: str, key: str, rhash: bytes, token_hash: bytes | None = None) -> Reply | None:
        """The answer stored under ``key``, or None. With ``token_hash`` (the sender's), only while
        that token is valid, checked in the same round trip: else the 401."""
        rec = await self.store.stored_response(scope, key, token_hash)
        if not rec["valid"]:
            assert token_hash is not None
            self.tokens.forget(token_hash)
            raise revoked()
        if rec["response"] is None:
            return None
        if bytes(rec["request_hash"]) != rhash:
            raise Problem(
                422, "idempotency_key_reused", "Idempotency-Key reused",
                "This Idempotency-Key was already used for a different request; use a new key.",
            )
        body = bytes(rec["response"])
        version = msgspec.json.decode(body, type=_VersionOnly).version
        return Reply(rec["status"], body, version)

    @staticmethod
    def _metadata(
        actor: dict[str, Any], idempotency_key: str | None, command: Command | None = None
    ) -> dict[str, Any]:
        return {
            "actor": actor,
            "command": type(command).__struct_config__.tag if command is not None else "OpenEncounter",
            "idempotency_key": idempotency_key,
            "request_id": new_uuid(),
        }

    @staticmethod
    def _views(rows: list[Any]) -> list[EventView]:
        return [
            EventView(
                version=r.version, event_id=r.event_id, type=r.type, schema_version=r.schema_version,
                data=msgspec.Raw(r.data), metadata=msgspec.Raw(r.metadata), recorded_at=r.recorded_at,
                hash=r.hash.hex(),
            )
            for r in rows
        ]

    def _result(self, encounter_id: str, state: EncounterState, rows: list[Any], viewer: Viewer) -> bytes:
        return _encode(
            CommandResult(
                encounter_id=encounter_id,
                version=state.version,
                events=visible_events(self._views(rows), state, viewer,
                                      self._cache[encounter_id].seed if encounter_id in self._cache else None),
                state=state_for(state, viewer),
            )
        )

    def _opened(self, encounter_id: str, state: EncounterState, rows: list[Any], gm: IssuedToken) -> bytes:
        return _encode(
            OpenedEncounter(
                encounter_id=encounter_id, version=state.version, events=self._views(rows), state=state, gm_token=gm
            )
        )


class _VersionOnly(msgspec.Struct):
    version: int = 0
