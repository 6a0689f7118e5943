"""A small Python client for the Fracas HTTP API: ``Fracas`` (sync) and ``AsyncFracas`` (async).

::

    from server.client import AsyncFracas, ProblemError

    async with AsyncFracas("http://127.0.0.1:8000") as api:
        opened = await api.open_encounter("places-of-power", "Ambush at the ford")
        gm = api.with_token(opened.gm_token)          # the GM's token, on the same connections
        enc = opened.encounter_id
        mira = (await gm.add_combatant(enc, "Mira", side="party", controller="player")).events[0]["data"]
        await gm.command(enc, {"type": "RollInitiative"})
        state = await gm.state(enc)
        try:
            await gm.command(enc, {"type": "EndTurn", "combatant_id": "nobody"})
        except ProblemError as refused:
            print(refused.status, refused.code, refused.detail)

``Fracas`` has the same methods, without ``await``. What the client does for you:

- **Auth**: ``Authorization: Bearer <token>`` on every request (``token=``; ``with_token()``
  gives a client for another token sharing the same connections).
- **Idempotency-Key**: every write carries one (a fresh UUID, or the ``idempotency_key`` you
  pass), the same on every retry of that write, so a write is recorded once however many
  times it is sent: the server answers a repeat with the first answer.
- **Retries**, bounded by ``RetryPolicy``: 429 (waits ``Retry-After``), 503 ``encounter_busy``
  (jittered exponential backoff, or ``Retry-After`` when given), any other 503 that carries
  ``Retry-After`` (the database is down; waits it), and connection errors (the same request
  again, with the same key). Any other error answer raises ``ProblemError``, which carries the
  problem details (``status``, ``code``, ``title``, ``detail``, ``details``); a server that
  cannot be reached raises ``ConnectionFailed``.
- **Optimistic concurrency**: ``command(enc, decide=fn)`` reads the state, calls ``fn(state)``
  for the command, and sends it with ``If-Match: "<the version read>"``. When someone else
  wrote first (412 ``version_mismatch``) it reads the state again, decides again and resends,
  up to ``RetryPolicy.conflicts`` times. ``command(enc, body, if_match=N)`` sends ``If-Match``
  without deciding again: a 412 is raised for you to handle. Without either, the server
  decides the command on its newest state (and refuses it if it is no longer legal).

  One Idempotency-Key serves the whole decision, across its re-decisions: a 412 answer means
  that attempt recorded nothing (the server answers a key it has already recorded with the
  first answer, even on 412), so the next attempt may carry another body under the same key.

For tests and embedding, pass ``http=`` (an ``httpx.Client``/``httpx.AsyncClient`` you own;
its ``base_url`` is used) or ``transport=`` (for instance ``httpx.ASGITransport(app=app)``).
Replies are decoded with msgspec into plain dicts and lists.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import random
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, Generic, Literal, TypedDict, TypeVar

import httpx
import msgspec

__all__ = [
    "AsyncFracas", "ConnectionFailed", "Fracas", "FracasError", "ProblemError", "Reply", "Retries", "RetryPolicy",
]

Json = dict[str, Any]


class DiceNeeded(TypedDict, total=False):
    """Faces a ``reported`` encounter puts in ``command["dice"]``, in order (docs/api.md, "The next moves")."""

    count: int
    sides: int
    # "for": what the dice are for (a reserved word in Python: read it as d["for"])
    by: str | None
    open: bool


class Action(TypedDict):
    """One move the caller may make now: send ``command`` as it is."""

    id: str
    kind: Literal["decision", "move", "lifecycle", "gm"]
    label: str
    combatant_id: str | None
    command: Json
    cost: dict[str, int]
    dice: list[DiceNeeded]
    parameters: Json | None
    decision: str | None


class Waiting(TypedDict):
    """Someone the fight waits on."""

    combatant_id: str | None
    who: Literal["gm", "player"]
    what: str


class NextMoves(TypedDict):
    """``GET /encounters/{id}/actions``: what the fight waits on and the caller's next moves."""

    version: int
    over: bool
    waiting_on: list[Waiting]
    actions: list[Action]
    out_of_fight: list[str]
Decide = Callable[[Json], "Json | None | Awaitable[Json | None]"]
DEFAULT_URL = "http://127.0.0.1:8000"
_decode = msgspec.json.decode
_encode = msgspec.json.encode

# ------------------------------------------------------------------------------ errors


class FracasError(Exception):
    """Anything this client raises."""


class ConnectionFailed(FracasError):
    """The server could not be reached, or the connection broke, on every attempt."""


class ProblemError(FracasError):
    """An error answer: its RFC 9457 problem details. ``code`` is Fracas's stable code
    (``not_your_turn``, ``version_mismatch``, ``encounter_not_found``, ...)."""

    def __init__(self, status: int, code: str, title: str, detail: str | None = None,
                 details: Json | None = None, *, headers: Mapping[str, str] | None = None,
                 retries: Retries | None = None) -> None:
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.details: Json = details or {}
        self.headers: Mapping[str, str] = headers or {}
        self.retries = retries or Retries()
        text = f"{status} {title}" + (f" [{code}]" if code else "") + (f": {detail}" if detail else "")
        super().__init__(text)

    @property
    def refused_by_the_rules(self) -> bool:
        """The rules refused the command (422 with the rules' own code)."""
        return self.status == 422 and self.title == "Not allowed by the rules"

    @classmethod
    def from_response(cls, response: httpx.Response, retries: Retries | None = None) -> ProblemError:
        try:
            body = _decode(response.content) if response.content else {}
        except msgspec.DecodeError:
            body = {"detail": response.text[:200] or None}
        if not isinstance(body, dict):
            body = {}
        return cls(
            response.status_code, str(body.get("code") or ""), str(body.get("title") or response.reason_phrase),
            body.get("detail"), body.get("details"), headers=response.headers, retries=retries,
        )


# ------------------------------------------------------------------------ retries


@dataclass(frozen=True)
class RetryPolicy:
    """How hard the client tries. ``attempts``: sends of one request when the answer is 429, a
    retryable 503 or a broken connection (then it raises). ``conflicts``: re-decisions after
    412 with ``decide``. Waits: ``Retry-After`` when the server names one (a wait longer than
    ``max_retry_after`` is not waited: the error is raised), else a random wait ("full
    jitter") up to ``backoff`` × 2^(n-1), at most ``max_backoff``; after the n-th conflict a
    random wait up to ``conflict_backoff`` × 2^(n-1), at most ``max_conflict_backoff``, so
    that racing clients spread out (a low cap keeps a client that lost many races from
    waiting longer and longer while newcomers win)."""

    attempts: int = 6
    conflicts: int = 50
    backoff: float = 0.05
    max_backoff: float = 2.0
    max_retry_after: float = 30.0
    conflict_backoff: float = 0.01
    max_conflict_backoff: float = 0.1


@dataclass
class Retries:
    """What one call took, beyond its first send: each kind of answer that made it try again,
    and the seconds it waited."""

    conflicts: int = 0  # 412 version_mismatch: read, decided and sent again
    busy: int = 0  # 503 encounter_busy
    unavailable: int = 0  # another 503 with Retry-After (the database is down)
    rate_limited: int = 0  # 429
    connection: int = 0  # the connection failed or broke: sent again with the same key
    waited: float = 0.0

    @property
    def total(self) -> int:
        return self.conflicts + self.busy + self.unavailable + self.rate_limited + self.connection


@dataclass
class Reply:
    """A write's answer: ``data`` is the whole JSON body (``encounter_id``, ``version``,
    ``events``, ``state``; opening adds ``gm_token``), ``retries`` what it took."""

    status: int
    data: Json
    idempotency_key: str
    retries: Retries = field(default_factory=Retries)

    @property
    def version(self) -> int:
        return int(self.data["version"])

    @property
    def events(self) -> list[Json]:
        return list(self.data.get("events") or [])

    @property
    def state(self) -> Json:
        return dict(self.data.get("state") or {})

    @property
    def encounter_id(self) -> str:
        return str(self.data["encounter_id"])

    @property
    def gm_token(self) -> str:
        """The GM token's secret, in the answer to ``open_encounter`` (shown once)."""
        return str(self.data["gm_token"]["token"])


def retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (delay-seconds or an HTTP date), None when absent or unreadable."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


# ---------------------------------------------------------------- the plan (no I/O)
# Each call is a generator that yields what to do (send a request, sleep, decide) and gets
# back the outcome; ``Fracas`` runs it with blocking I/O and ``AsyncFracas`` with await, so
# the retry logic lives here once.


@dataclass(frozen=True)
class _Send:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None = None
    params: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Sleep:
    seconds: float


@dataclass(frozen=True)
class _Decide:
    decide: Decide
    state: Json


_Step = _Send | _Sleep | _Decide
Plan = Generator[_Step, Any, Any]
T = TypeVar("T")


class _Base(ABC, Generic[T]):
    """What both clients share: the requests and the retry logic. ``T`` is the httpx client."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *, http: T | None = None,
                 transport: Any = None, retry: RetryPolicy | None = None, timeout: float = 10.0,
                 rng: random.Random | None = None) -> None:
        if http is not None and (base_url is not None or transport is not None):
            raise TypeError("pass http= (with its own base_url and transport), or base_url and transport")
        self.token = token
        self.retry = retry or RetryPolicy()
        self._rng = rng or random.Random()
        self._owns_http = http is None
        self.http: T = http if http is not None else self._new_http(base_url or DEFAULT_URL, transport, timeout)

    @abstractmethod
    def _new_http(self, base_url: str, transport: Any, timeout: float) -> T:
        """The httpx client this kind of client talks through."""

    def with_token(self, token: str | None) -> Any:
        """The same client (same connections, same policy) speaking with another token."""
        other = copy.copy(self)
        other.token = token
        other._owns_http = False
        return other

    # --------------------------------------------------------------------- calls

    def open_encounter(self, ruleset: str, name: str, dice_policy: str = "seeded", *,
                       operator_key: str | None = None, idempotency_key: str | None = None) -> Any:
        """Open an encounter → ``Reply`` (``.encounter_id``, ``.gm_token``). Sends the
        operator key, when the server has one, as the bearer token (else this client's token)."""
        body = {"ruleset": ruleset, "name": name, "dice_policy": dice_policy}
        return self._run(self._write("/encounters", body, key=idempotency_key,
                                     token=operator_key if operator_key is not None else self.token))

    def add_combatant(self, encounter_id: str, name: str, *, side: str, controller: str = "gm",
                      sheet: Json | None = None, hidden: bool = False, if_match: int | None = None,
                      idempotency_key: str | None = None) -> Any:
        """Add a combatant (the GM's) → ``Reply``; its id is ``events[0]["data"]["combatant_id"]``."""
        body = {"name": name, "side": side, "controller": controller, "sheet": sheet or {}, "hidden": hidden}
        return self._run(self._write(f"/encounters/{encounter_id}/combatants", body, if_match=if_match,
                                     key=idempotency_key))

    def command(self, encounter_id: str, body: Json | None = None, *, decide: Decide | None = None,
                if_match: int | None = None, idempotency_key: str | None = None) -> Any:
        """Send a command (``{"type": ..., ...}``) → ``Reply``. With ``decide`` instead of
        ``body``: optimistic concurrency, deciding again on each conflict (see the module's
        text); ``decide`` may return None to send nothing (the call then returns None)."""
        if (body is None) == (decide is None):
            raise TypeError("command() takes a body or decide=, not both")
        path = f"/encounters/{encounter_id}/commands"
        if decide is not None:
            return self._run(self._decided(encounter_id, path, decide, idempotency_key))
        return self._run(self._write(path, body, if_match=if_match, key=idempotency_key))

    def mint_token(self, encounter_id: str, role: str, combatant_ids: list[str] | None = None, label: str = "", *,
                   idempotency_key: str | None = None) -> Any:
        """A player (acting for ``combatant_ids``) or spectator token, minted by the GM → its JSON
        (``token`` is the secret)."""
        body = {"role": role, "combatant_ids": combatant_ids or [], "label": label}
        return self._run(self._data(self._write(f"/encounters/{encounter_id}/tokens", body, key=idempotency_key)))

    def state(self, encounter_id: str) -> Any:
        """The current state as this token may see it (``version`` is its ETag)."""
        return self._run(self._read(f"/encounters/{encounter_id}"))

    def actions(self, encounter_id: str) -> Any:
        """What the fight waits on and this token's next moves, a ``NextMoves`` (``waiting_on``, ``actions``, ``over``):
        each action's ``command`` is sent as it is (``command(encounter_id, action["command"])``)."""
        return self._run(self._read(f"/encounters/{encounter_id}/actions"))

    def events(self, encounter_id: str, after: int = 0, limit: int = 100) -> Any:
        """A page of events after version ``after``: ``events``, ``next_after``, ``has_more``."""
        return self._run(self._read(f"/encounters/{encounter_id}/events", {"after": after, "limit": limit}))

    def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        """Any read of the API (``/health``, ``/rulesets/...``, ``/encounters/{id}/log``), as JSON."""
        return self._run(self._read(path, params))

    def post(self, path: str, body: Any, *, if_match: int | None = None, idempotency_key: str | None = None) -> Any:
        """Any write of the API, with the same key, retries and errors as the others → ``Reply``."""
        return self._run(self._write(path, body, if_match=if_match, key=idempotency_key))

    # --------------------------------------------------------------------- plans

    @abstractmethod
    def _run(self, plan: Plan) -> Any:
        """Carry a plan out: send its requests, sleep its waits, call its decisions (blocking or
        awaited: the one difference between ``Fracas`` and ``AsyncFracas``)."""

    def _headers(self, token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def _backoff(self, n: int, base: float, cap: float) -> float:
        """Full jitter: a random wait up to base × 2^(n-1), at most ``cap``."""
        return self._rng.uniform(0.0, min(cap, base * 2 ** (n - 1)))

    def _exchange(self, send: _Send, retries: Retries) -> Plan:
        """Send, and send again (the very same request) while the answer says to wait."""
        for attempt in range(1, self.retry.attempts + 1):
            outcome = yield send
            last = attempt == self.retry.attempts
            if isinstance(outcome, httpx.TransportError):
                if last:
                    raise ConnectionFailed(f"{send.method} {send.path}: {outcome!r} ({attempt} attempts)") from outcome
                retries.connection += 1
                wait = self._backoff(attempt, self.retry.backoff, self.retry.max_backoff)
            else:
                response: httpx.Response = outcome
                status = response.status_code
                if status not in (429, 503) or last:
                    return response
                after = retry_after(response)
                if status == 429:
                    retries.rate_limited += 1
                elif _code(response) == "encounter_busy":
                    retries.busy += 1
                elif after is not None:
                    retries.unavailable += 1
                else:
                    return response  # a 503 that names no wait and no busy encounter
                if after is not None and after > self.retry.max_retry_after:
                    return response
                # Retry-After, spread by up to a tenth so that the waiting clients do not all return at once
                wait = (after + self._rng.uniform(0, after / 10 + 0.01)) if after is not None \
                    else self._backoff(attempt, self.retry.backoff, self.retry.max_backoff)
            retries.waited += wait
            yield _Sleep(wait)
        raise AssertionError("unreachable")

    def _read(self, path: str, params: dict[str, Any] | None = None, retries: Retries | None = None) -> Plan:
        retries = retries or Retries()
        response = yield from self._exchange(_Send("GET", path, self._headers(self.token), params=params), retries)
        if response.status_code >= 400:
            raise ProblemError.from_response(response, retries)
        return _json(response)

    def _write(self, path: str, body: Any, *, if_match: int | None = None, key: str | None = None,
               token: str | None = None, retries: Retries | None = None) -> Plan:
        key = key or str(uuid.uuid4())
        retries = retries or Retries()
        headers = {**self._headers(self.token if token is None else token), "Idempotency-Key": key,
                   "Content-Type": "application/json"}
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        response = yield from self._exchange(_Send("POST", path, headers, _encode(body)), retries)
        if response.status_code >= 400:
            raise ProblemError.from_response(response, retries)
        return Reply(response.status_code, _json(response) or {}, key, retries)

    def _decided(self, encounter_id: str, path: str, decide: Decide, key: str | None) -> Plan:
        """Read, decide, send with If-Match; on 412 read and decide again (one key throughout)."""
        key = key or str(uuid.uuid4())
        retries = Retries()
        while True:
            state = yield from self._read(f"/encounters/{encounter_id}", retries=retries)
            body = yield _Decide(decide, state)
            if body is None:
                return None
            try:
                return (yield from self._write(path, body, if_match=int(state["version"]), key=key, retries=retries))
            except ProblemError as problem:
                if problem.status != 412 or problem.code != "version_mismatch" \
                        or retries.conflicts >= self.retry.conflicts:
                    raise
            retries.conflicts += 1
            wait = self._backoff(retries.conflicts, self.retry.conflict_backoff, self.retry.max_conflict_backoff)
            retries.waited += wait
            yield _Sleep(wait)

    def _data(self, plan: Plan) -> Plan:
        reply = yield from plan
        return reply.data


def _json(response: httpx.Response) -> Any:
    try:
        return _decode(response.content) if response.content else None
    except msgspec.DecodeError as exc:
        kind = response.headers.get("content-type", "no content type")
        raise FracasError(f"{response.request.method} {response.request.url}: the answer is not JSON ({kind}): "
                          "is it a Fracas server?") from exc


def _code(response: httpx.Response) -> str:
    try:
        body = _decode(response.content)
    except msgspec.DecodeError:
        return ""
    return str(body.get("code") or "") if isinstance(body, dict) else ""


# ------------------------------------------------------------------------------ drivers


class Fracas(_Base[httpx.Client]):
    """The blocking client. ``with Fracas(url, token) as api: api.command(enc, {...})``."""

    def _new_http(self, base_url: str, transport: Any, timeout: float) -> httpx.Client:
        return httpx.Client(base_url=base_url, transport=transport, timeout=timeout)

    def _run(self, plan: Plan) -> Any:
        outcome: Any = None
        while True:
            try:
                step = plan.send(outcome)
            except StopIteration as done:
                return done.value
            if isinstance(step, _Send):
                try:
                    outcome = self.http.request(step.method, step.path, headers=step.headers, content=step.body,
                                                params=step.params)
                except httpx.TransportError as exc:
                    outcome = exc
            elif isinstance(step, _Sleep):
                time.sleep(step.seconds)
                outcome = None
            else:
                outcome = step.decide(step.state)

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    def __enter__(self) -> Fracas:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncFracas(_Base[httpx.AsyncClient]):
    """The asyncio client: the same methods as ``Fracas``, each returning an awaitable of what
    ``Fracas``'s returns. ``decide`` may be a plain function or a coroutine function.
    ``async with AsyncFracas(url, token) as api: await api.command(enc, {...})``."""

    def _new_http(self, base_url: str, transport: Any, timeout: float) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=base_url, transport=transport, timeout=timeout)

    async def _run(self, plan: Plan) -> Any:
        outcome: Any = None
        while True:
            try:
                step = plan.send(outcome)
            except StopIteration as done:
                return done.value
            if isinstance(step, _Send):
                try:
                    outcome = await self.http.request(step.method, step.path, headers=step.headers,
                                                      content=step.body, params=step.params)
                except httpx.TransportError as exc:
                    outcome = exc
            elif isinstance(step, _Sleep):
                await asyncio.sleep(step.seconds)
                outcome = None
            else:
                outcome = step.decide(step.state)
                if inspect.isawaitable(outcome):
                    outcome = await outcome

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()

    async def __aenter__(self) -> AsyncFracas:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
