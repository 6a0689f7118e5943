"""The export file of one encounter (NDJSON), and its offline check. Pure: no database.

Line 1 is the header::

    {"format": "fracas-encounter", "format_version": 1, "encounter_id": ..., "ruleset": ...,
     "name": ..., "created_at": ..., "seed_commitment": "sha256:<hex>", "seed": "<hex>" | null,
     "seed_revealed": true | false, "version": <last version>, "head_hash": "<hex>",
     "exported_at": ...}

then one line per event, in version order, with everything its hash covers::

    {"version": 3, "event_id": ..., "type": ..., "schema_version": 1, "data": {...},
     "metadata": {...}, "recorded_at": "<ISO 8601, UTC>", "hash": "<hex>"}

``data`` and ``metadata`` are the payloads as JSON values, written in the chain's canonical
spelling (sorted keys, compact); the check brings whatever it reads back to that spelling,
so the canonical bytes are recomputed exactly. ``recorded_at`` is the string the chain
hashes. ``seed`` is the revealed seed, or null; a file exported with ``--include-seed``
from a fight that has not ended carries the secret seed (``seed_revealed`` false) and must
be kept as secret as the seed itself.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import msgspec

from domain.core.ruleset import Registry
from domain.rulesets import default_registry
from projections.audit import Audit, Expected, audit
from projections.chain import StoredRow, canonical_json, timestamp

FORMAT = "fracas-encounter"
FORMAT_VERSION = 1


class Header(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    format: Literal["fracas-encounter"]
    format_version: int
    encounter_id: str
    ruleset: str
    name: str
    created_at: datetime
    seed_commitment: str | None
    seed: str | None = None
    seed_revealed: bool = False
    version: int
    head_hash: str
    exported_at: datetime


class EventLine(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    version: int
    event_id: str
    type: str
    schema_version: int
    data: msgspec.Raw
    metadata: msgspec.Raw
    recorded_at: str
    hash: str


class FileUnreadable(Exception):
    """The file is not an export of this format: names the line and why."""


@dataclass(frozen=True)
class ExportFile:
    header: Header
    rows: list[StoredRow]

    @property
    def expected(self) -> Expected:
        """What the header promises, for the audit to hold the events to."""
        return Expected(
            version=self.header.version,
            head_hash=bytes.fromhex(self.header.head_hash),
            seed=bytes.fromhex(self.header.seed) if self.header.seed else None,
            commitment=self.header.seed_commitment,
        )


_encode = msgspec.json.Encoder().encode
_header = msgspec.json.Decoder(Header)
_line = msgspec.json.Decoder(EventLine)


def render(header: Header, rows: Sequence[StoredRow]) -> Iterable[bytes]:
    """The file's lines, each ending in a newline."""
    yield _encode(header) + b"\n"
    for r in rows:
        yield _encode(EventLine(
            version=r.version, event_id=r.event_id, type=r.type, schema_version=r.schema_version,
            data=msgspec.Raw(canonical_json(r.data)), metadata=msgspec.Raw(canonical_json(r.metadata)),
            recorded_at=timestamp(r.recorded_at), hash=r.hash.hex(),
        )) + b"\n"


def parse(lines: Iterable[bytes]) -> ExportFile:
    """Read a file's lines (blank lines are skipped). Raises FileUnreadable."""
    header: Header | None = None
    rows: list[StoredRow] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            if header is None:
                header = _header.decode(line)
                if header.format_version != FORMAT_VERSION:
                    raise FileUnreadable(f"line {number}: format version {header.format_version} is not "
                                         f"{FORMAT_VERSION}, the one this program reads")
                bytes.fromhex(header.head_hash + (header.seed or ""))
                uuid.UUID(header.encounter_id)
                continue
            e = _line.decode(line)
            uuid.UUID(e.event_id)
            rows.append(StoredRow(
                version=e.version, event_id=e.event_id, type=e.type, schema_version=e.schema_version,
                data=canonical_json(e.data), metadata=canonical_json(e.metadata),
                recorded_at=datetime.fromisoformat(e.recorded_at), hash=bytes.fromhex(e.hash),
            ))
        except (msgspec.DecodeError, ValueError) as exc:
            what = "the header" if header is None else "an event"
            raise FileUnreadable(f"line {number} is not {what} of a {FORMAT} file: {exc}") from None
    if header is None:
        raise FileUnreadable(f"the file is empty: a {FORMAT} file starts with its header line")
    return ExportFile(header=header, rows=rows)


def verify(file: ExportFile, registry: Registry) -> Audit:
    """Audit the file's events against its header, offline."""
    if file.header.ruleset not in registry:
        raise FileUnreadable(f"the file's ruleset “{file.header.ruleset}” is not one this program knows")
    return audit(file.header.encounter_id, registry.get(file.header.ruleset), file.rows, file.expected)


def read_file(lines: Iterable[bytes], registry: Registry | None = None) -> tuple[ExportFile, Audit]:
    """Parse and verify an export file, offline (``fracas verify``). Raises FileUnreadable."""
    file = parse(lines)
    return file, verify(file, registry or default_registry())
