"""``fracas export`` and ``fracas import``: an encounter's log out of one database and into another.

The file format, and its offline check (``fracas verify``), are ``projections/export_file.py``.

Export writes the events exactly as stored (same ids, times and hashes) with a header
naming the encounter, its seed commitment and its head hash. The secret dice seed of a
fight that has not ended stays out of the file unless asked for (``--include-seed``: a
fight moved between servers; such a file is as secret as the seed).

Import checks the file first (the same audit as ``fracas verify``) and refuses one that
fails, and an encounter id the database already has. It then writes, in one transaction,
the encounter's registry row, a new GM token (its secret is printed once: tokens are a
server's own, never exported) and the events as they are, so the hashes stay the same
and the encounter replays to the same state. The ``encounters`` table needs the dice seed:
a file with no seed (a fight exported before its end without ``--include-seed``) is
refused — the commitment could never be kept, and no server could roll its next dice.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg

from domain.rulesets import default_registry
from projections.audit import Audit, audit
from projections.chain import StoredRow, row_from
from projections.export_file import FORMAT, FORMAT_VERSION, Header, read_file, render
from server.auth.tokens import hash_secret, new_secret
from server.store.events import EventStore


class TransferRefused(Exception):
    """Export or import cannot go on: ``code`` is stable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Exported:
    lines: list[bytes]
    audit: Audit


@dataclass(frozen=True)
class Imported:
    encounter_id: str
    events: int
    gm_token_id: str
    gm_token: str
    audit: Audit


async def export_encounter(conn: asyncpg.Connection, encounter_id: str, *, include_seed: bool = False) -> Exported:
    """The file's lines. The audit is returned too: a log that fails it is still exported
    (it is the evidence), and the caller says so."""
    try:
        encounter_id = str(uuid.UUID(encounter_id))
    except ValueError:
        raise TransferRefused("invalid_encounter_id", f"{encounter_id!r} is not an encounter id (a UUID).") from None
    rec = await conn.fetchrow("SELECT ruleset, name, created_at, seed FROM encounters WHERE id = $1::uuid",
                              encounter_id)
    if rec is None:
        raise TransferRefused("encounter_not_found", f"There is no encounter {encounter_id} in this database.")
    records = await EventStore(conn).read(encounter_id, 0)  # type: ignore[arg-type]  # a connection reads alike
    rows = [row_from(r) for r in records]
    result = audit(encounter_id, default_registry().get(rec["ruleset"]), rows)
    report = result.report
    seed = bytes(rec["seed"])
    header = Header(
        format=FORMAT, format_version=FORMAT_VERSION, encounter_id=encounter_id, ruleset=rec["ruleset"],
        name=rec["name"], created_at=rec["created_at"], seed_commitment=report.seed.commitment,
        seed=seed.hex() if report.seed.revealed or include_seed else None, seed_revealed=report.seed.revealed,
        version=report.events, head_hash=report.head_hash or "", exported_at=datetime.now(UTC),
    )
    return Exported(lines=list(render(header, rows)), audit=result)


async def import_encounter(conn: asyncpg.Connection, lines: Iterable[bytes]) -> Imported:
    file, result = read_file(lines)
    h = file.header
    if not result.report.ok:
        first = result.report.first
        assert first is not None
        where = f"version {first.version}" if first.version is not None else "the file"
        raise TransferRefused("verification_failed", f"The file does not verify ({where}: {first.code}: "
                                                     f"{first.detail}); nothing was imported.")
    if result.seed is None:
        raise TransferRefused(
            "seed_not_revealed",
            "The fight has not ended and the file does not carry its dice seed: end the encounter and export "
            "it again, or export it with --include-seed to move a fight in progress.")
    async with conn.transaction():
        if await conn.fetchval("SELECT 1 FROM encounters WHERE id = $1::uuid", h.encounter_id):
            raise TransferRefused("encounter_exists", f"This database already has encounter {h.encounter_id}.")
        try:
            token_id, secret = await insert_encounter(
                conn, h.encounter_id, h.ruleset, h.name, h.created_at, result.seed, file.rows)
        except asyncpg.UniqueViolationError as exc:
            raise TransferRefused("event_exists", f"This database already has one of the file's events: {exc}.") from None
    return Imported(encounter_id=h.encounter_id, events=len(file.rows), gm_token_id=token_id, gm_token=secret,
                    audit=result)


async def insert_encounter(
    conn: asyncpg.Connection, encounter_id: str, ruleset: str, name: str, created_at: datetime, seed: bytes,
    rows: Sequence[StoredRow],
) -> tuple[str, str]:
    """Write an encounter's registry row, a new GM token and its events exactly as given (in
    the caller's transaction). Returns the GM token's id and secret."""
    token_id, secret = str(uuid.uuid4()), new_secret()
    await conn.execute(
        "INSERT INTO encounters (id, ruleset, name, created_at, seed) VALUES ($1::uuid, $2, $3, $4, $5)",
        encounter_id, ruleset, name, created_at, seed)
    await conn.execute(
        "INSERT INTO tokens (id, encounter_id, role, label, secret_hash) VALUES ($1::uuid, $2::uuid, 'gm', $3, $4)",
        token_id, encounter_id, "GM (imported)", hash_secret(secret))
    await conn.copy_records_to_table(
        "events",
        columns=["encounter_id", "version", "event_id", "type", "schema_version", "data", "metadata", "recorded_at",
                 "hash"],
        records=[(uuid.UUID(encounter_id), r.version, uuid.UUID(r.event_id), r.type, r.schema_version,
                  r.data.decode(), r.metadata.decode(), r.recorded_at, r.hash) for r in rows],
    )
    return token_id, secret
