"""Outbound webhooks: a fight's events pushed to a receiver, as a delivering projection does it.

Each (webhook, encounter) keeps ``delivered_version`` in PostgreSQL (migrations/0010): every
event up to it was answered 2xx. A server process claims the next delivery with a lease (one
UPDATE), reads the events after it in version order, filters them exactly as the live stream
does for the webhook's view (``visible_events``, judged by the encounter's current state),
posts them signed, and advances the version only on a 2xx. So delivery is at least once, in
version order per encounter; a process killed mid-delivery leaves its lease to expire and
another delivers again (the version is the receiver's dedupe key); with several processes one
delivers each event. A failing receiver is retried with bounded, jittered backoff and paused
after ``max_failures`` in a row; it never slows a command (delivery runs beside them, on the
log) nor another receiver (one delivery in flight per webhook per process, each with a short
timeout and a capped read). Addresses are checked before registering and before each delivery.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import random
import socket
import time
import urllib.parse
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import asyncpg
import httpx
import msgspec

from projections.readable_log import Teller
from projections.visibility import GM, REDACTED, Scope, Viewer
from server import metrics
from server.webhooks import signing

if TYPE_CHECKING:
    from projections.wakeup import Wakeup
    from server.store.encounters import EncounterService, EventView

log = logging.getLogger("fracas.webhooks")
# httpx logs every request at INFO: a line per delivery (200 tables' webhooks: ~3,500 a minute).
# A failed delivery is told by the lines above; the receiver's answers are in GET .../webhooks.
logging.getLogger("httpx").setLevel(logging.WARNING)

View = Literal["spectator", "gm"]
Format = Literal["fracas", "discord"]
DISCORD_LIMIT = 2000  # a Discord message's content, at most
HISTORIES_KEPT = 256  # encounters whose newest events (and tellers) a deliverer keeps in memory
EVENTS_KEPT = 64  # an encounter's newest events kept: older ones are read again on the rare need
_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True)
class WebhookSettings:
    """``FRACAS_WEBHOOK_*``: see docs/webhooks.md."""

    enabled: bool = True
    allow_private: bool = False  # FRACAS_WEBHOOK_ALLOW_PRIVATE: private, loopback, link-local addresses
    timeout_seconds: float = 5.0
    max_failures: int = 8  # in a row, then the webhook is paused
    backoff_seconds: float = 1.0  # the first retry's delay, doubled each failure ...
    max_backoff_seconds: float = 300.0  # ... up to this
    lease_seconds: float = 30.0  # a delivery's claim: another process delivers again once it lapses
    poll_seconds: float = 1.0
    # after a commit's wake-up, let the next moment's commits gather before looking for due
    # deliveries: one query per commit was an extra statement on every command at low load
    settle_seconds: float = 0.05
    batch: int = 200  # events in one delivery, at most
    max_response_bytes: int = 64 * 1024

    @classmethod
    def from_env(cls) -> WebhookSettings:
        env = os.environ.get
        return cls(
            enabled=env("FRACAS_WEBHOOKS", "on") != "off",
            allow_private=env("FRACAS_WEBHOOK_ALLOW_PRIVATE", "") not in ("", "0", "false", "no"),
            timeout_seconds=float(env("FRACAS_WEBHOOK_TIMEOUT", "5")),
            max_failures=int(env("FRACAS_WEBHOOK_MAX_FAILURES", "8")),
            backoff_seconds=float(env("FRACAS_WEBHOOK_BACKOFF", "1")),
            max_backoff_seconds=float(env("FRACAS_WEBHOOK_MAX_BACKOFF", "300")),
            lease_seconds=float(env("FRACAS_WEBHOOK_LEASE", "30")),
            settle_seconds=float(env("FRACAS_WEBHOOK_SETTLE", "0.05")),
        )

    def backoff(self, failures: int) -> float:
        """The delay before the next attempt after ``failures`` in a row: doubling, bounded, jittered."""
        delay = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** max(failures - 1, 0))
        return delay * random.uniform(0.5, 1.0)


# ------------------------------------------------------------------ addresses and signatures


@dataclass(frozen=True)
class Address:
    """Where a URL's deliveries go: ``refused`` (why not, or None) and, when allowed, the IP
    address its host resolved to, which the delivery connects to (so a name that resolves
    elsewhere a moment later, "DNS rebinding", reaches nothing the check did not see)."""

    refused: str | None
    ip: str | None = None


async def resolve(url: str, allow_private: bool) -> Address:
    """Only http(s), a host that resolves, and, unless the operator allows it, no private,
    loopback, link-local or reserved address among those it resolves to."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return Address(f"the URL is not valid ({exc})")
    if parts.scheme not in ("http", "https"):
        return Address("only http:// and https:// URLs receive webhooks")
    host = parts.hostname
    if not host:
        return Address("the URL names no host")
    if parts.username or parts.password:
        return Address("the URL carries credentials: use the webhook's signature to authenticate instead")
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return Address(f"{host} does not resolve ({exc})")
    addresses = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if not allow_private:
            carried = carried_ipv4(address)
            # one that carries IPv4 addresses is judged as they are (Pythons before 3.11.4 call all of 6to4 private)
            if any(not v4.is_global for v4 in carried) if carried else not address.is_global:
                inside = [str(v4) for v4 in carried if not v4.is_global]
                said = f"{address}" + (f" (which carries {', '.join(inside)})" if inside else "")
                return Address(f"{host} resolves to {said}, a private, loopback, link-local or reserved address "
                               "(the operator may allow those with FRACAS_WEBHOOK_ALLOW_PRIVATE)")
        addresses.append(address)
    if not addresses:
        return Address(f"{host} does not resolve")
    # a host with both: its IPv4 address (the deliverer connects to one address, with no fallback)
    return Address(None, str(min(addresses, key=lambda a: a.version)))


_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # RFC 4291's deprecated "IPv4-compatible" ::a.b.c.d
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))  # RFC 6052, RFC 8215


def carried_ipv4(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries, by which a packet may reach them: IPv4-mapped and
    IPv4-compatible (``::127.0.0.1``), NAT64 (``64:ff9b::7f00:1``: the last 32 bits), 6to4
    (``2002:7f00:1::1``) and Teredo (its server and client). A webhook address is judged by
    each, as that IPv4 address would be."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    low32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    out: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        out.append(address.ipv4_mapped)
    if address in _IPV4_COMPATIBLE and int(address) > 1:  # not :: nor ::1, themselves refused
        out.append(low32)
    if any(address in net for net in _NAT64):
        out.append(low32)
    if address.sixtofour is not None:
        out.append(address.sixtofour)
    if address.teredo is not None:
        out.extend(address.teredo)
    return out


async def refused_address(url: str, allow_private: bool) -> str | None:
    """Why ``url`` may not receive deliveries (None: it may)."""
    return (await resolve(url, allow_private)).refused


def pinned(url: str, ip: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """``url`` with its host replaced by the address it was checked at: (the URL to request,
    the ``Host`` header to send, the request's extensions: the TLS name to verify)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    at = f"[{ip}]" if ":" in ip else ip
    netloc = at if parts.port is None else f"{at}:{parts.port}"
    authority = parts.netloc.rsplit("@", 1)[-1]
    extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc)), {"Host": authority}, extensions


# -------------------------------------------------------------------------- what is sent


class DeliveredEvent(msgspec.Struct, kw_only=True):
    version: int
    event_id: str
    type: str
    data: msgspec.Raw
    recorded_at: datetime
    hash: str


class Delivery(msgspec.Struct, kw_only=True):
    """One delivery: the encounter's events in ``(after_version, version]`` as ``view`` may see
    them (of those, the ``event_types`` asked for), and the readable log's lines telling them."""

    webhook_id: str
    encounter_id: str
    view: View
    after_version: int
    version: int
    events: list[DeliveredEvent]
    log: list[str]


def discord_messages(lines: list[str]) -> list[bytes]:
    """The log's lines as Discord-compatible incoming-webhook bodies, each within its limit."""
    chunks: list[str] = []
    for line in lines or ["(nothing the channel may see)"]:
        line = line[:DISCORD_LIMIT]
        if chunks and len(chunks[-1]) + 1 + len(line) <= DISCORD_LIMIT:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return [_encode({"content": c, "allowed_mentions": {"parse": []}}) for c in chunks]


# ---------------------------------------------------------------------------- the store

_COLUMNS = """w.id::text AS webhook_id, w.encounter_id::text AS encounter_id, w.url, w.view, w.event_types,
  w.format, w.status, w.failures, w.last_status, w.last_error, w.last_attempt_at, w.last_success_at,
  w.created_at"""


class WebhookView(msgspec.Struct, kw_only=True):
    """A webhook as its owner sees it (never its secret)."""

    webhook_id: str
    encounter_id: str | None  # None: every encounter (the operator's)
    url: str
    view: View
    event_types: list[str] | None
    format: Format
    status: Literal["active", "paused"]
    failures: int  # in a row, since the last success
    last_status: int | None  # the receiver's last HTTP status (None: no answer)
    last_error: str | None  # why the last attempt failed (or why it was paused)
    last_attempt_at: datetime | None
    last_success_at: datetime | None
    created_at: datetime
    delivered_version: int | None = None  # of an encounter's webhook: every event up to it delivered


class IssuedWebhook(WebhookView, kw_only=True):
    """A new webhook with its signing secret: keep it, it is shown this once."""

    secret: str


def _view(row: Any, **more: Any) -> dict[str, Any]:
    return {**dict(row), "event_types": list(row["event_types"]) if row["event_types"] is not None else None, **more}


class WebhookStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def register(self, encounter_id: str | None, url: str, view: View, event_types: list[str] | None,
                       fmt: Format, after_version: int | None) -> IssuedWebhook:
        """A new webhook; it delivers the events after ``after_version`` (default: the current
        version) of its encounter, or, of every encounter, those after the registration."""
        webhook_id, secret = str(uuid.uuid4()), signing.new_secret()
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                """INSERT INTO webhooks (id, encounter_id, url, view, event_types, format, secret)
                   VALUES ($1, $2, $3, $4, $5, $6, $7)""",
                webhook_id, encounter_id, url, view, event_types, fmt, secret)
            if encounter_id is not None:
                await conn.execute(
                    """INSERT INTO webhook_progress (webhook_id, encounter_id, delivered_version)
                       SELECT $1, $2, COALESCE($3, (SELECT max(version) FROM events WHERE encounter_id = $2), 0)""",
                    webhook_id, encounter_id, after_version)
            else:  # every encounter there is, from now on
                await conn.execute(
                    """INSERT INTO webhook_progress (webhook_id, encounter_id, delivered_version)
                       SELECT $1, r.id, COALESCE((SELECT max(version) FROM events e WHERE e.encounter_id = r.id), 0)
                       FROM encounters r""", webhook_id)
        found = await self.get(webhook_id, encounter_id)
        assert found is not None
        return IssuedWebhook(**msgspec.structs.asdict(found), secret=secret)

    async def get(self, webhook_id: str, encounter_id: str | None) -> WebhookView | None:
        found = await self.list(encounter_id, webhook_id)
        return found[0] if found else None

    async def list(self, encounter_id: str | None, webhook_id: str | None = None) -> list[WebhookView]:
        """An encounter's webhooks (None: the operator's, for every encounter)."""
        rows = await self.pool.fetch(
            f"""SELECT {_COLUMNS}, p.delivered_version
                FROM webhooks w LEFT JOIN webhook_progress p
                  ON p.webhook_id = w.id AND w.encounter_id IS NOT NULL AND p.encounter_id = w.encounter_id
                WHERE w.encounter_id IS NOT DISTINCT FROM $1::uuid AND ($2::uuid IS NULL OR w.id = $2::uuid)
                ORDER BY w.created_at, w.id""", encounter_id, webhook_id)
        return [msgspec.convert(_view(r), WebhookView) for r in rows]

    async def delete(self, webhook_id: str, encounter_id: str | None) -> bool:
        done = await self.pool.execute(
            "DELETE FROM webhooks WHERE id = $1 AND encounter_id IS NOT DISTINCT FROM $2::uuid", webhook_id, encounter_id)
        return done != "DELETE 0"

    async def rotate(self, webhook_id: str, encounter_id: str | None) -> IssuedWebhook | None:
        """The webhook with a new ``whsec_`` secret (the old one signs nothing from now on); None: no such webhook."""
        secret = signing.new_secret()
        done = await self.pool.execute(
            "UPDATE webhooks SET secret = $3 WHERE id = $1 AND encounter_id IS NOT DISTINCT FROM $2::uuid",
            webhook_id, encounter_id, secret)
        found = None if done == "UPDATE 0" else await self.get(webhook_id, encounter_id)
        return None if found is None else IssuedWebhook(**msgspec.structs.asdict(found), secret=secret)

    async def resume(self, webhook_id: str, encounter_id: str | None, after_version: int | None = None
                     ) -> WebhookView | None:
        """A paused webhook active again, its failures forgotten, tried at once (``after_version``:
        an encounter's webhook skips to the events after it)."""
        async with self.pool.acquire() as conn, conn.transaction():
            done = await conn.execute(
                """UPDATE webhooks SET status = 'active', failures = 0, next_attempt_at = now()
                   WHERE id = $1 AND encounter_id IS NOT DISTINCT FROM $2::uuid""", webhook_id, encounter_id)
            if done != "UPDATE 0" and after_version is not None and encounter_id is not None:
                await conn.execute(
                    """UPDATE webhook_progress SET delivered_version = $3
                       WHERE webhook_id = $1 AND encounter_id = $2""", webhook_id, encounter_id, after_version)
        return await self.get(webhook_id, encounter_id)


# -------------------------------------------------------------------------- delivering

_DISCOVER = """
INSERT INTO webhook_progress (webhook_id, encounter_id)
SELECT w.id, r.id FROM webhooks w JOIN encounters r ON r.created_at > w.created_at - interval '1 minute'
WHERE w.encounter_id IS NULL AND ($1::boolean OR r.created_at > now() - interval '10 minutes')
ON CONFLICT DO NOTHING
"""
# the (webhook, encounter) pairs with an event past what was delivered, due and unclaimed
_DUE = """
SELECT p.webhook_id::text, p.encounter_id::text
FROM webhook_progress p JOIN webhooks w ON w.id = p.webhook_id
WHERE w.status = 'active' AND w.next_attempt_at <= now()
  AND (p.lease_until IS NULL OR p.lease_until < now())
  AND NOT (p.webhook_id = ANY($1::uuid[]))
  AND EXISTS (SELECT 1 FROM events e WHERE e.encounter_id = p.encounter_id AND e.version = p.delivered_version + 1)
ORDER BY w.next_attempt_at, p.webhook_id
LIMIT 100
"""
_CLAIM = """
UPDATE webhook_progress p SET lease_owner = $3, lease_until = now() + make_interval(secs => $4)
FROM webhooks w
WHERE p.webhook_id = $1 AND p.encounter_id = $2 AND w.id = p.webhook_id
  AND w.status = 'active' AND w.next_attempt_at <= now()
  AND (p.lease_until IS NULL OR p.lease_until < now())
RETURNING p.delivered_version, w.url, w.view, w.event_types, w.format, w.secret
"""
# ($5: seconds to hold the claim on for the next batch; NULL: give it back)
_DELIVERED = """
UPDATE webhook_progress SET delivered_version = GREATEST(delivered_version, $3),
  lease_owner = CASE WHEN $5::float8 IS NULL THEN NULL ELSE lease_owner END,
  lease_until = CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8) END
WHERE webhook_id = $1 AND encounter_id = $2 AND lease_owner = $4
"""
_SUCCEEDED = """
UPDATE webhooks SET failures = 0, last_status = $2, last_error = NULL, last_attempt_at = now(), last_success_at = now()
WHERE id = $1
"""
_FAILED = """
UPDATE webhooks SET failures = failures + 1, last_status = $2, last_error = $3, last_attempt_at = now(),
  next_attempt_at = now() + make_interval(secs => $4),
  status = CASE WHEN failures + 1 >= $5 THEN 'paused' ELSE status END
WHERE id = $1
"""
_RELEASE = """
UPDATE webhook_progress SET lease_owner = NULL, lease_until = NULL
WHERE webhook_id = $1 AND encounter_id = $2 AND lease_owner = $3
"""


@dataclass
class Told:
    """A webhook's story of an encounter: told up to ``version``, as seen with ``hidden`` hidden."""

    teller: Teller
    version: int
    hidden: frozenset[str]


@dataclass
class Recent:
    """An encounter's newest stored events, as read: ``events[i]`` is version ``first + i + 1``."""

    first: int
    events: list[EventView]


@dataclass
class Claim:
    webhook_id: str
    encounter_id: str
    after: int
    url: str
    view: View
    event_types: list[str] | None
    format: Format
    secret: str


class Deliverer:
    """Delivers every webhook's due events, beside the commands (one per server process)."""

    def __init__(self, pool: asyncpg.Pool, service: EncounterService, wakeup: Wakeup | None,
                 settings: WebhookSettings) -> None:
        self.pool, self.service, self.wakeup, self.settings = pool, service, wakeup, settings
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._task: asyncio.Task[None] | None = None
        self._inflight: dict[str, asyncio.Task[None]] = {}  # by webhook: one delivery at a time each
        self._more = asyncio.Event()
        self._client: httpx.AsyncClient | None = None
        self._last_discovery = self._last_full_discovery = 0.0
        # each encounter's newest events as stored (events never change): a delivery reads only the
        # new ones; older ones are read again when asked; the least recently delivered go first.
        # Not the whole history: 200 tables playing grew a worker by ~7 MB a minute that way.
        self._recent: OrderedDict[str, Recent] = OrderedDict()
        self._tellers: OrderedDict[tuple[str, str], Told] = OrderedDict()  # by (webhook, encounter)

    async def start(self) -> None:
        self._client = httpx.AsyncClient(follow_redirects=False, trust_env=False,
                                         timeout=httpx.Timeout(self.settings.timeout_seconds))
        self._task = asyncio.create_task(self._run(), name="webhooks")

    async def stop(self, release: bool = True) -> None:
        """Stop delivering; ``release``: give the claims back at once (a killed process cannot:
        its leases lapse)."""
        tasks = [t for t in (self._task, *self._inflight.values()) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if release:
            with contextlib.suppress(Exception):
                await self.pool.execute(
                    "UPDATE webhook_progress SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
                    self.owner)
        if self._client is not None:
            await self._client.aclose()

    async def _run(self) -> None:
        pause = 0.2
        while True:
            try:
                await self._round()
                pause = 0.2
            except asyncio.CancelledError:
                raise
            except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, TimeoutError,
                    asyncpg.CannotConnectNowError, asyncpg.InternalClientError) as exc:  # the database away
                # (InternalClientError: PostgreSQL shut a connection down mid-statement: a restart)
                log.warning("webhooks: the database is unavailable (%s); again in %.1fs", exc, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            except Exception:
                log.exception("webhooks: a delivery round failed; again in %.1fs", pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            await self._sleep()

    async def _sleep(self) -> None:
        if self._more.is_set():
            self._more.clear()
            return
        if self.wakeup is None:
            await asyncio.sleep(self.settings.poll_seconds)
            return
        with self.wakeup.waiter() as waiter:
            woken = asyncio.ensure_future(waiter.wait(self.settings.poll_seconds))
            more = asyncio.ensure_future(self._more.wait())
            try:
                await asyncio.wait([woken, more], return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
                more.cancel()
            if woken.done() and not woken.cancelled() and woken.result() and not self._more.is_set():
                await asyncio.sleep(self.settings.settle_seconds)  # woken by a commit: let others join it
            self._more.clear()

    async def _round(self) -> None:
        now = time.monotonic()
        if now - self._last_discovery >= self.settings.poll_seconds:  # new encounters, for the operator's
            full = now - self._last_full_discovery > 60
            await self.pool.execute(_DISCOVER, full)
            self._last_discovery = now
            if full:
                self._last_full_discovery = now
        rows = await self.pool.fetch(_DUE, [uuid.UUID(w) for w in self._inflight])
        for webhook_id, encounter_id in rows:
            if webhook_id in self._inflight:
                continue
            claimed = await self.pool.fetchrow(_CLAIM, webhook_id, encounter_id, self.owner,
                                               self.settings.lease_seconds)
            if claimed is None:
                continue  # another process has it, or it was paused meanwhile
            claim = Claim(webhook_id, encounter_id, claimed["delivered_version"], claimed["url"], claimed["view"],
                          list(claimed["event_types"]) if claimed["event_types"] is not None else None,
                          claimed["format"], claimed["secret"])
            task = asyncio.create_task(self._deliver(claim), name=f"webhook {webhook_id}")
            self._inflight[webhook_id] = task
            task.add_done_callback(lambda _t, w=webhook_id: self._finished(w))

    def _finished(self, webhook_id: str) -> None:
        self._inflight.pop(webhook_id, None)
        self._more.set()  # there may be more for it, or for a webhook it held back

    async def _deliver(self, claim: Claim) -> None:
        """Deliver the claim's events, batch after batch while more are there, holding the claim
        (each advance extends it), then give it back."""
        while True:
            status: int | None = None
            error: str | None = None
            bodies: list[bytes] = []
            upto = head = claim.after
            try:
                bodies, upto, head = await self._bodies(claim)
                for body in bodies:
                    status, error = await self._post(claim, body)
                    metrics.WEBHOOK_DELIVERIES.labels("failed" if error is not None else "delivered").inc()
                    if error is not None:
                        metrics.WEBHOOK_FAILURES.inc()
                        break
                if error is None and bodies:
                    self._lag(claim.encounter_id, upto)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the events could not be read: a failure, tried again after the backoff
                log.warning("webhooks: could not prepare a delivery of %s (%s)", claim.webhook_id, exc)
                error = f"the server could not prepare the delivery ({type(exc).__name__})"
            try:
                more = error is None and head > upto
                await self._record(claim, upto, bool(bodies), status, error, keep=more)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                    TimeoutError) as exc:  # (InternalClientError: a connection shut mid-statement, a restart)
                # not recorded: the lease lapses and the events are delivered again (at least once)
                log.warning("webhooks: could not record a delivery of %s (%s)", claim.webhook_id, exc)
                return
            if not more:
                return
            claim.after = upto

    def _lag(self, enc: str, upto: int) -> None:
        """How long the last event delivered waited from its recording (``fracas_webhook_lag_seconds``)."""
        recent = self._recent.get(enc)
        if recent is not None and recent.first < upto <= recent.first + len(recent.events):
            event = recent.events[upto - recent.first - 1]
            metrics.WEBHOOK_LAG.observe(max(0.0, time.time() - event.recorded_at.timestamp()))

    async def _record(self, claim: Claim, upto: int, posted: bool, status: int | None, error: str | None,
                      keep: bool = False) -> None:
        """The delivery's outcome in one transaction: the version delivered (``keep``: the claim
        held and extended, for the next batch), or the failure and the next attempt's time.
        The deliverer's pool commits without waiting for the disk (``synchronous_commit`` off):
        an outcome lost in a crash only means those events are delivered again, as at least once allows."""
        async with self.pool.acquire() as conn, conn.transaction():
            # the webhook's row before its progress, as a DELETE (cascading) takes them: no deadlock
            if error is None:
                if posted:
                    await conn.execute(_SUCCEEDED, claim.webhook_id, status)
                await conn.execute(_DELIVERED, claim.webhook_id, claim.encounter_id, upto, self.owner,
                                   self.settings.lease_seconds if keep else None)
                return
            failures = await conn.fetchval("SELECT failures FROM webhooks WHERE id = $1", claim.webhook_id) or 0
            await conn.execute(_FAILED, claim.webhook_id, status, error[:500],
                               self.settings.backoff(failures + 1), self.settings.max_failures)
            await conn.execute(_RELEASE, claim.webhook_id, claim.encounter_id, self.owner)
        log.warning("webhooks: delivery to %s failed (%s)", claim.webhook_id, error)

    async def _bodies(self, claim: Claim) -> tuple[list[bytes], int, int]:
        """What to post for the claim's next events, the version they reach, and the encounter's."""
        from server.store.encounters import visible_events
        from server.http.history import log_event

        service, enc = self.service, claim.encounter_id
        state = await service.current(enc)  # read first: the events are judged by a state at least as new
        upto = min(state.version, claim.after + self.settings.batch)
        if upto <= claim.after:
            return [], claim.after, state.version
        viewer = GM if claim.view == "gm" else Viewer("spectator")
        seed = await service.roll_key(enc)
        fresh = visible_events(await self._events(enc, claim.after, upto), state, viewer, seed)
        ruleset = await service.ruleset_of(enc)
        # the log's lines: told on from where this webhook's last delivery left the story; told on
        # over what another process delivered meanwhile; told afresh when the view changed
        hidden = frozenset() if viewer.sees_all else Scope.of(state, viewer).hidden
        told = self._tellers.pop((claim.webhook_id, enc), None)
        if told is None or told.version > claim.after or told.hidden != hidden:
            told = Told(Teller(ruleset), 0, hidden)
        if told.version < claim.after:
            missed = await self._events(enc, told.version, claim.after)
            told.teller.tell([log_event(v, ruleset) for v in visible_events(missed, state, viewer, seed)])
        entries = told.teller.tell([log_event(v, ruleset) for v in fresh])
        told.version = upto
        self._tellers[(claim.webhook_id, enc)] = told
        while len(self._tellers) > HISTORIES_KEPT:
            self._tellers.popitem(last=False)
        kept = [v for v in fresh if claim.event_types is None or v.type in claim.event_types]
        if not kept:
            return [], upto, state.version
        versions = {v.version for v in kept}
        lines = [e.sentence for e in entries if versions.intersection(e.versions)]
        if claim.format == "discord":
            return discord_messages(lines), upto, state.version
        delivery = Delivery(webhook_id=claim.webhook_id, encounter_id=enc, view=claim.view, after_version=claim.after,
                            version=upto, events=[_delivered(v) for v in kept], log=lines)
        return [_encode(delivery)], upto, state.version

    async def _events(self, enc: str, after: int, upto: int) -> list[EventView]:
        """The encounter's stored events after version ``after`` up to ``upto``: from the newest
        kept in memory, reading from PostgreSQL only those not kept."""
        from server.store.encounters import event_view

        async def read(first: int, last: int) -> list[EventView]:
            return [event_view(r) for r in await self.service.store.read(enc, first, last - first)]

        recent = self._recent.pop(enc, None)
        if recent is not None and after >= recent.first:
            end = recent.first + len(recent.events)
            if end < upto:
                recent.events.extend(await read(end, upto))
            events = recent.events[after - recent.first:upto - recent.first]
        else:  # older than what is kept (a story told afresh), or nothing kept yet
            events = await read(after, upto)
            if recent is None:
                recent = Recent(after, list(events))
        if len(recent.events) > EVENTS_KEPT:
            dropped = len(recent.events) - EVENTS_KEPT
            del recent.events[:dropped]
            recent.first += dropped
        self._recent[enc] = recent
        while len(self._recent) > HISTORIES_KEPT:
            self._recent.popitem(last=False)
        return events

    async def _post(self, claim: Claim, body: bytes) -> tuple[int | None, str | None]:
        """Post one body: (the status, None) on a 2xx, else (the status if any, why it failed)."""
        address = await resolve(claim.url, self.settings.allow_private)
        if address.refused is not None or address.ip is None:
            return None, f"address refused: {address.refused}"
        url, host, extensions = pinned(claim.url, address.ip)  # connect where the check looked
        now = int(time.time())
        headers = {**host, "Content-Type": "application/json", "User-Agent": "Fracas-Webhooks/1",
                   **signing.headers(claim.webhook_id, claim.secret, now, body)}
        assert self._client is not None
        try:
            async with self._client.stream("POST", url, content=body, headers=headers,
                                           extensions=extensions) as r:
                read = 0
                async for chunk in r.aiter_raw():
                    read += len(chunk)
                    if read >= self.settings.max_response_bytes:
                        break  # the answer's status is all that counts: read no more of it
                status = r.status_code
        except httpx.HTTPError as exc:
            return None, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if 200 <= status < 300:
            return status, None
        if 300 <= status < 400:
            return status, f"the receiver answered {status}: redirects are not followed"
        return status, f"the receiver answered {status}"


def _delivered(v: EventView) -> DeliveredEvent:
    return DeliveredEvent(version=v.version, event_id=v.event_id, type=v.type, data=v.data,
                          recorded_at=v.recorded_at, hash=v.hash)


def known_event_types(types: Iterable[str]) -> set[str]:
    """The event types a webhook may ask for: the rulesets' own and ``Redacted``."""
    return {*types, REDACTED}
