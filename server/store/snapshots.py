"""State snapshots, the I/O part: load an encounter from its latest snapshot and the events after
it, and take snapshots in the background.

A snapshot is a cache, never history (migrations/0008_snapshots.sql): it is used only when it
was folded by this exact domain code (its ``fold``, ``domain.core.snapshot.fingerprint``), when
the log still holds, at the snapshot's version, the event whose hash it names, and when no
``Retconned`` event follows it (a retcon goes back before it: the caller replays the whole
history). Anything else, and the caller replays the whole history as if there were no snapshot.

Taking one is off the command's path: once a cached state is ``every`` versions past the
encounter's last snapshot, one task per encounter (at most ``max_in_flight`` in all) encodes
the state it was given and upserts it. The states are immutable (the rules build new ones with
``msgspec.structs.replace`` and copy the dicts and lists they change), so the task may encode
later what it was handed now. A failure is logged, never raised, and waits another ``every``
versions before the next try; ``close`` cancels what is in flight.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import asyncpg

from domain.core.encounter import EncounterState, Retconned
from domain.core.ruleset import Registry, Ruleset
from domain.core.snapshot import StateCodec, Unsnapshottable, fingerprint, package_of

log = logging.getLogger("fracas")

RETCONNED = Retconned.__struct_config__.tag
DEFAULT_EVERY = 1000

# The snapshot and, in the same statement, the log from the snapshot's version on: the first row
# is the event the snapshot was folded to (its hash is checked), the snapshot's bytes ride on it
# alone; the next rows are the tail to fold (the columns of ``EventStore.read(fold_only=True)``).
# No snapshot: the whole log (``snapshot_version`` null), so a cache miss costs no more round
# trips than without snapshots.
_LOAD = """
SELECT e.version, e.type, e.schema_version, e.data::text AS data, e.hash,
       CASE WHEN e.version = s.version THEN s.last_hash END AS last_hash,
       CASE WHEN e.version = s.version THEN s.state END AS state,
       s.version AS snapshot_version
FROM (SELECT 1) AS one
LEFT JOIN snapshots s ON s.encounter_id = $1 AND s.fold = $2
JOIN events e ON e.encounter_id = $1 AND e.version >= coalesce(s.version, 1)
ORDER BY e.version
"""

# The latest snapshot per encounter and fold; another fold's (older code's) goes.
_SAVE = """
WITH gone AS (DELETE FROM snapshots WHERE encounter_id = $1 AND fold <> $2)
INSERT INTO snapshots (encounter_id, fold, version, last_hash, state) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (encounter_id, fold) DO UPDATE
    SET version = EXCLUDED.version, last_hash = EXCLUDED.last_hash, state = EXCLUDED.state, taken_at = now()
    WHERE snapshots.version <= EXCLUDED.version
"""

Decode = Callable[[Ruleset, Any], Any]


class Snapshots:
    """Loads from snapshots and takes them; one per server process (``server.app``)."""

    def __init__(
        self, pool: asyncpg.Pool, registry: Registry, every: int = DEFAULT_EVERY, *,
        max_in_flight: int = 2, remember: int = 100_000,
    ) -> None:
        self.pool = pool
        self.every = every
        self.max_in_flight = max(1, max_in_flight)
        self.codec = StateCodec()
        self.folds = {r.id: fingerprint(r.id, r.schema_versions, package=package_of(r)) for r in registry.all()}
        self._remember = remember
        self._taken: OrderedDict[str, int] = OrderedDict()  # the latest snapshot's version, as known here
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.written = 0  # figures for tests and benches
        self.used = 0
        self.ignored = 0

    # ------------------------------------------------------------------- loading

    async def load(self, encounter_id: str, ruleset: Ruleset, decode: Decode) -> tuple[EncounterState, bytes] | None:
        """The current state and the hash of its last event: from the latest valid snapshot and
        the events after it, or from the whole log where there is no snapshot. None when there
        is a snapshot but it cannot be used (or the log is empty): the caller reads and replays
        the whole history."""
        rows = await self.pool.fetch(_LOAD, encounter_id, self.folds[ruleset.id])
        # an unusable snapshot counts as none: the caller's ``consider`` replaces it at once
        self._note(encounter_id, 0)
        if not rows:
            return None
        head, tail = rows[0], rows[1:]
        version = head["snapshot_version"]
        if version is None:  # no snapshot: the whole log came
            return ruleset.replay([decode(ruleset, r) for r in rows]), bytes(rows[-1]["hash"])
        if head["version"] != version or bytes(head["hash"]) != bytes(head["last_hash"]):
            return self._ignore(encounter_id, version, "its event is not the one in the log")
        if any(r["type"] == RETCONNED for r in tail):  # a retcon goes back: the whole history
            return None
        try:
            state = self.codec.decode(head["state"])
        except Exception as exc:  # noqa: BLE001 - a cache that does not decode is no cache
            return self._ignore(encounter_id, version, f"it does not decode ({exc})")
        if state.version != version:
            return self._ignore(encounter_id, version, f"it holds version {state.version}")
        self._note(encounter_id, version)
        self.used += 1
        evolve = ruleset.evolve
        for r in tail:
            state = evolve(state, decode(ruleset, r))
        return state, bytes(rows[-1]["hash"])

    def _ignore(self, encounter_id: str, version: int, why: str) -> None:
        self.ignored += 1
        log.warning("snapshot of encounter %s at version %d ignored: %s", encounter_id, version, why)
        return None

    # -------------------------------------------------------------------- taking

    def consider(self, encounter_id: str, ruleset: Ruleset, state: EncounterState, last_hash: bytes) -> None:
        """Take a snapshot of ``state`` in the background if it is ``every`` versions past the
        last one; at most one task per encounter, ``max_in_flight`` in all."""
        if self.every <= 0 or state.version - self._taken.get(encounter_id, 0) < self.every:
            return
        if encounter_id in self._tasks or len(self._tasks) >= self.max_in_flight:
            return
        task = asyncio.get_running_loop().create_task(self.take(encounter_id, ruleset, state, last_hash))
        self._tasks[encounter_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(encounter_id, None))

    async def take(self, encounter_id: str, ruleset: Ruleset, state: EncounterState, last_hash: bytes) -> None:
        """Write a snapshot of ``state`` (``last_hash``: the hash of its last event) now; a failure
        is logged, not raised."""
        try:
            data = self.codec.encode(state)
            await self.pool.execute(_SAVE, encounter_id, self.folds[ruleset.id], state.version, last_hash, data)
            self.written += 1
        except Unsnapshottable as exc:
            log.warning("no snapshot of encounter %s at version %d: %s", encounter_id, state.version, exc)
        except Exception as exc:  # noqa: BLE001 - a snapshot is only ever a cache
            log.warning("snapshot of encounter %s at version %d not written: %r", encounter_id, state.version, exc)
        finally:  # written or not, the next try waits another ``every`` versions
            self._note(encounter_id, state.version)

    def _note(self, encounter_id: str, version: int) -> None:
        self._taken[encounter_id] = version
        self._taken.move_to_end(encounter_id)
        while len(self._taken) > self._remember:
            self._taken.popitem(last=False)

    async def idle(self) -> None:
        """Until no snapshot is being taken (for tests and benches)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Cancel the snapshots in flight (at shutdown, before the pool closes)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
