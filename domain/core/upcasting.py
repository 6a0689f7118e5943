"""Upcasting: old fights replay after the shape of an event changes.

Events are immutable and their hashes cover the payload exactly as it was written, so a
stored event is never rewritten. Instead each stored row carries the ``schema_version``
its payload was written under, and the rules read old payloads through upcasters:

1. The event's struct (``domain/core/encounter.py`` or a ruleset's module) always has the
   newest shape; the code that decides and evolves only ever sees that shape.
2. ``Ruleset.schema_versions`` names the current version of each event type whose shape
   has changed (a type absent from it is at version 1). The store writes new events
   under these versions (``server/store/events.py`` ``chain``).
3. ``Ruleset.upcasters[(type, n)]`` is a pure function turning a version-``n`` payload
   (plain JSON values) into a version-``n + 1`` one. ``Ruleset.decode_event`` applies
   them in turn, ``n`` → ``n + 1`` → ... → current, then decodes strictly; a payload
   already at the current version is decoded directly, with no cost.
4. What reads the log as stored (the events API, the audit, ``fracas export`` and
   ``verify``) keeps each payload as written, with its version: the hash chain is
   checked over the stored bytes, and the seeded dice over the upcast events.

A ruleset that changes one of its own events adds to the base maps rather than replacing
them: ``schema_versions = {**Ruleset.schema_versions, "HitsTaken": 2}``, likewise
``upcasters``. An upcaster is never changed or removed once its version has shipped:
fights written under it stay in the database and in export files.

The first change, to show the path: ``EncounterOpened`` version 2 publishes the dice
seed's commitment as ``seed_commitment: "sha256:<hex>"`` where version 1 had
``seed_sha256: "<hex>"``. The commitment names the hash it was made with, so an auditor
knows how to check the revealed seed, and a later commitment scheme is a new prefix, not
another field. Every encounter opened before the change starts with a version-1 event,
and replays and verifies through ``opened_v1_to_v2``.
"""

from __future__ import annotations

from typing import Any

from domain.core.dice import COMMITMENT_PREFIX


def opened_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """``EncounterOpened`` 1 → 2: the bare ``seed_sha256`` hex becomes ``seed_commitment``."""
    out = {k: v for k, v in payload.items() if k != "seed_sha256"}
    out["seed_commitment"] = COMMITMENT_PREFIX + payload["seed_sha256"]
    return out


SCHEMA_VERSIONS: dict[str, int] = {"EncounterOpened": 2}
UPCASTERS = {("EncounterOpened", 1): opened_v1_to_v2}
