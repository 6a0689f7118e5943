"""PostgreSQL outages: which errors mean "the database cannot be reached just now".

While PostgreSQL is stopped, restarting, refusing connections or has dropped ours, every
request that needs it is answered 503 ``database_unavailable`` with ``Retry-After``
(``server.http.problems``), never 500, and within the bounds of ``server.store.database.Timeouts``.
Nothing needs restarting when it is back: the pool replaces lost connections as it hands
them out, the LISTEN connection (``projections.wakeup``) and the projection runner
(``projections.runner``) reconnect by themselves, and the live streams stay open and catch
up (``server.live.streams``).

A write cut off by the outage may or may not have been committed: PostgreSQL may have
committed the INSERT and lost the connection before it answered. Sent with an
``Idempotency-Key``, it is safe to send again with the same key: the stored answer comes
back if it was recorded, else the command is decided afresh and appended once.
"""

from __future__ import annotations

import logging
import time

import asyncpg

log = logging.getLogger("fracas.outage")

RETRY_AFTER_SECONDS = 2
CODE = "database_unavailable"
TITLE = "Database unavailable"
DETAIL = (
    "The database cannot be reached just now; try again in a few seconds (see Retry-After). "
    "A write may or may not have been recorded: send it again with the same Idempotency-Key "
    "and it is recorded once."
)

# Class 08 (connection exceptions, with asyncpg's "connection was closed in the middle of
# operation"), class 57 (operator intervention: shutdown, crash, "the database system is
# starting up", a cancelled statement), class 53 (insufficient resources: too many
# connections), and the socket's own errors (refused, reset, no such socket file, timeouts:
# TimeoutError is an OSError).
_OUTAGE = (
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InsufficientResourcesError,
    OSError,
)
# asyncpg's InterfaceError and InternalClientError also mean misuse (a bug, a 500): only these
# are outages. "cannot switch to state": PostgreSQL's FATAL message (shutting down) reached an
# idle pooled connection before its end did, and the next query on it meets the half-dead state.
_CLOSED = ("connection is closed", "pool is closing", "pool is closed")
_HALF_DEAD = "cannot switch to state"


def is_outage(exc: BaseException) -> bool:
    """True when ``exc`` (or, for an exception group, one of its exceptions) says the database
    cannot be reached, rather than that the request or the code is wrong."""
    if isinstance(exc, BaseExceptionGroup):
        return any(is_outage(e) for e in exc.exceptions)
    if isinstance(exc, _OUTAGE):
        return True
    if isinstance(exc, asyncpg.InterfaceError):
        return any(m in str(exc) for m in _CLOSED)
    return isinstance(exc, asyncpg.InternalClientError) and _HALF_DEAD in str(exc)


class Throttled:
    """One warning per ``every`` seconds, with how many were held back: an outage under load
    fails hundreds of requests a second."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self._last = float("-inf")
        self._held = 0

    def warn(self, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._last < self.every:
            self._held += 1
            return
        held, self._held, self._last = self._held, 0, now
        suffix = f" (and {held} more since the last warning)" if held else ""
        log.warning(message + suffix, *args)


outages = Throttled()
