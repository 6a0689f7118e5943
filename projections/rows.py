"""Rows to PostgreSQL as one JSON parameter.

A read model writes many rows per batch. Sent as array parameters (``unnest($2::uuid[], …)``)
each element costs asyncpg a few Python-level type checks; sent as one JSON document, which
msgspec writes in C, the statement unpacks them itself (``json_to_recordset`` for objects,
``json_array_elements`` with ``j->>n`` for tuples). Datetimes travel as RFC 3339 text, which
``timestamptz`` reads back to the microsecond.
"""

from __future__ import annotations

from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode


def as_json(rows: Any) -> str:
    """Rows (dataclasses, structs, dicts or tuples) as one JSON array, for a ``json`` parameter."""
    return _encode(rows).decode()
