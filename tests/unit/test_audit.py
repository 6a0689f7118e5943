"""The pure audit (projections/audit.py) over fights played through the decider.

Issue 7: "verifies the hash chain of the encounter's events and, once the seed is revealed,
re-derives every seeded roll and compares; reports the first event that fails, if any."
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.encounter import EncounterEnded, EncounterOpened, EndEncounter, Event
from projections.audit import AUDIT_CODES, Expected, audit
from projections.chain import GENESIS_HASH, StoredRow, canonical_json, encode_sorted, link
from server.store.events import chain
from tests.rulesets.places_of_power.fight import ENCOUNTER_ID, SEED, Fight, seeded_dice_in

META = {"actor": {"role": "gm", "token_id": "t"}}


def seeded_fight(rounds: int = 2) -> Fight:
    """Three combatants, seeded initiative, a few rounds, then the end (the seed revealed)."""
    f = Fight(dice_policy="seeded")
    f.add("mira", modifier=2)
    f.add("kess")
    f.add("bandit", gm=True, modifier=1)
    f.roll()
    f.start()
    for _ in range(rounds):
        f.end_round()
    f.roll()  # re-rolled during the fight: more seeded dice
    f.send(EndEncounter())
    return f


def rows_of(f: Fight, events: list[Event] | None = None) -> list[StoredRow]:
    return chain(f.encounter_id, GENESIS_HASH, 1, events or f.events, META, f.ruleset.schema_versions)


def rechain(rows: list[StoredRow]) -> list[StoredRow]:
    """The rows with every hash computed again: what a forger who rewrites the chain produces."""
    return link(ENCOUNTER_ID, rows)


def with_data(row: StoredRow, data: Any) -> StoredRow:
    return replace(row, data=encode_sorted(data))


def change_a_face(row: StoredRow) -> tuple[StoredRow, int]:
    """The first seeded die in the row shows another face; returns the new row and the new face."""
    data = msgspec.json.decode(row.data)
    found: list[int] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if v.get("source") == "seeded" and "face" in v and not found:
                v["face"] = v["face"] % v["sides"] + 1
                found.append(v["face"])
                return
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data)
    assert found, "no seeded die in this row"
    return with_data(row, data), found[0]


def dice_versions(rows: list[StoredRow]) -> list[int]:
    return [r.version for r in rows if b'"source":"seeded"' in r.data]


def check(f: Fight, rows: list[StoredRow], **expected: Any):
    return audit(f.encounter_id, f.ruleset, rows, Expected(**expected) if expected else None).report


FIGHT = seeded_fight()
ROWS = rows_of(FIGHT)


def test_an_untouched_fight_verifies_with_every_seeded_roll_rederived() -> None:
    report = check(FIGHT, ROWS)
    seeded = seeded_dice_in(FIGHT.events)
    assert report.ok and report.chain_ok and report.first is None and report.problems == []
    assert report.events == len(ROWS) and report.head_hash == ROWS[-1].hash.hex()
    assert report.seed.revealed and report.seed.matches
    assert report.seed.commitment == "sha256:" + hashlib.sha256(SEED).hexdigest()
    assert len(seeded) >= 6
    assert (report.dice.seeded, report.dice.rederived, report.dice.reported, report.dice.verified) == (
        len(seeded), len(seeded), 0, True)


def test_before_the_seed_is_revealed_the_chain_verifies_and_the_dice_wait() -> None:
    rows = ROWS[:-1]  # everything but EncounterEnded
    report = check(FIGHT, rows)
    assert report.ok and not report.seed.revealed and report.seed.matches is None
    assert report.dice.rederived == 0 and not report.dice.verified


def test_a_file_that_carries_the_seed_verifies_the_dice_before_the_end() -> None:
    report = check(FIGHT, ROWS[:-1], seed=SEED)
    assert report.ok and report.seed.revealed and report.dice.verified


def test_a_changed_face_breaks_the_hash_and_the_seed_names_the_die() -> None:
    v = dice_versions(ROWS)[1]
    tampered, face = change_a_face(ROWS[v - 1])
    rows = [*ROWS[: v - 1], tampered, *ROWS[v:]]
    report = check(FIGHT, rows)
    assert not report.ok and not report.chain_ok
    assert (report.first.version, report.first.code) == (v, "hash_mismatch")
    mismatch = next(p for p in report.problems if p.code == "die_mismatch")
    assert mismatch.version == v and mismatch.die is not None
    assert mismatch.die.stored_face == face and mismatch.die.derived_face != face
    assert mismatch.die.purpose.startswith("initiative")


def test_a_forger_who_rewrites_the_whole_chain_is_caught_by_the_seed() -> None:
    """The hash chain alone proves nothing against someone who recomputes it; the seeded dice
    do, once the seed is revealed: a changed face is not the face its roll number gives."""
    v = dice_versions(ROWS)[-1]
    tampered, face = change_a_face(ROWS[v - 1])
    rows = rechain([*ROWS[: v - 1], tampered, *ROWS[v:]])
    report = check(FIGHT, rows)
    assert report.chain_ok and not report.ok
    assert (report.first.version, report.first.code, report.first.die.stored_face) == (v, "die_mismatch", face)
    assert f"shows {face}" in report.first.detail
    # ... and the head hash a client saw before no longer matches
    again = check(FIGHT, rows, version=len(ROWS), head_hash=ROWS[-1].hash)
    assert ("head_mismatch", len(ROWS)) in {(p.code, p.version) for p in again.problems}


def test_a_dropped_event_is_a_gap_and_a_truncated_log_is_short_of_its_header() -> None:
    report = check(FIGHT, [*ROWS[:4], *ROWS[5:]])
    assert (report.first.version, report.first.code) == (5, "version_gap")
    report = check(FIGHT, ROWS[:-2], version=len(ROWS), head_hash=ROWS[-1].hash)
    assert (report.first.version, report.first.code) == (len(ROWS) - 1, "missing_events")


def test_two_swapped_events_are_out_of_order() -> None:
    rows = [*ROWS[:3], ROWS[4], ROWS[3], *ROWS[5:]]
    report = check(FIGHT, rows)
    assert (report.first.version, report.first.code) == (4, "version_out_of_order")
    assert "Version 4 comes after version 5" in report.first.detail


def test_a_run_of_missing_events_is_named_once_and_odd_versions_are_caught() -> None:
    report = check(FIGHT, [*ROWS[:3], *ROWS[7:]])
    assert [(p.version, p.code) for p in report.problems if p.code == "version_gap"] == [(4, "version_gap")]
    assert "Versions 4 to 7 are missing" in report.first.detail
    far = replace(ROWS[-1], version=10**9)  # a hostile file: named, not counted out one by one
    report = check(FIGHT, [*ROWS[:-1], far])
    assert (report.first.version, report.first.code) == (len(ROWS), "version_gap")
    report = check(FIGHT, [replace(ROWS[0], version=0), *ROWS[1:]])
    assert (report.first.version, report.first.code) == (0, "invalid_version")


def test_a_duplicated_event() -> None:
    report = check(FIGHT, [*ROWS[:3], ROWS[2], *ROWS[3:]])
    assert (report.first.version, report.first.code) == (3, "duplicate_version")


def test_a_revealed_seed_that_is_not_the_committed_one() -> None:
    ended = EncounterEnded(seed=bytes(32).hex())
    rows = rows_of(FIGHT, [*FIGHT.events[:-1], ended])
    report = check(FIGHT, rows)
    assert report.chain_ok and not report.ok
    assert (report.first.version, report.first.code) == (len(rows), "seed_mismatch")
    assert report.seed.matches is False and not report.dice.verified


def test_a_skipped_or_reused_roll_number_is_a_die_off_the_record() -> None:
    v = dice_versions(ROWS)[0]
    data = msgspec.json.decode(ROWS[v - 1].data)
    data["rolls"][1]["die"]["index"] = data["rolls"][0]["die"]["index"]
    report = check(FIGHT, rechain([*ROWS[: v - 1], with_data(ROWS[v - 1], data), *ROWS[v:]]))
    assert {p.code for p in report.problems} >= {"die_index_reused"}
    assert report.first.version == v


def test_reported_dice_are_checked_for_range_only() -> None:
    f = Fight(dice_policy="reported")
    f.add("mira")
    f.add("bandit", gm=True)
    f.roll([7, 3])
    rows = rows_of(f)
    assert check(f, rows).dice.reported == 2 and check(f, rows).ok
    data = msgspec.json.decode(rows[-1].data)
    data["rolls"][0]["die"]["face"] = 13  # a d12
    report = check(f, rechain([*rows[:-1], with_data(rows[-1], data)]))
    assert (report.first.version, report.first.code) == (len(rows), "die_out_of_range")


def test_a_log_of_another_encounter_or_not_opened_first() -> None:
    report = audit("00000000-0000-4000-8000-000000000000", FIGHT.ruleset, ROWS).report
    assert "encounter_mismatch" in {p.code for p in report.problems}
    assert check(FIGHT, []).first.code == "no_events"


def test_every_code_has_an_explanation() -> None:
    assert all(AUDIT_CODES.values())


# ------------------------------------------------------------------ any tampering is named

MUTATIONS = ("face", "drop", "swap", "metadata", "recorded_at")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MUTATIONS), st.data())
def test_any_single_tampering_is_caught_at_its_version(mutation: str, data: st.DataObject) -> None:
    """Whatever one change is made to one event of a verified log, the audit fails, and its
    first problem names the version changed (a drop names the missing version; a swap the
    later one of the pair)."""
    rows = list(ROWS)
    if mutation == "face":
        v = data.draw(st.sampled_from(dice_versions(rows)))
        rows[v - 1] = change_a_face(rows[v - 1])[0]
        expect = {(v, "hash_mismatch")}
    elif mutation == "drop":
        v = data.draw(st.integers(1, len(rows) - 1))
        del rows[v - 1]
        expect = {(v, "version_gap")} if v > 1 else {(1, "version_gap")}
    elif mutation == "swap":
        v = data.draw(st.integers(1, len(rows) - 1))
        rows[v - 1], rows[v] = rows[v], rows[v - 1]
        expect = {(v, "version_out_of_order")}
    elif mutation == "metadata":
        v = data.draw(st.integers(1, len(rows)))
        rows[v - 1] = replace(rows[v - 1], metadata=encode_sorted({"actor": {"role": "player", "token_id": "t"}}))
        expect = {(v, "hash_mismatch")}
    else:
        v = data.draw(st.integers(1, len(rows)))
        r = rows[v - 1]
        rows[v - 1] = replace(r, recorded_at=r.recorded_at.replace(microsecond=(r.recorded_at.microsecond + 1) % 10**6))
        expect = {(v, "hash_mismatch")}
    report = check(FIGHT, rows)
    assert not report.ok
    assert (report.first.version, report.first.code) in expect, report.first


@pytest.mark.parametrize("spelling", ['{"b": 1, "a": [1, 2]}', '{"a":[1,2],"b":1}', '{ "a" : [ 1 , 2 ] , "b" : 1 }'])
def test_any_spelling_of_a_payload_has_one_canonical_form(spelling: str) -> None:
    """PostgreSQL's jsonb gives payloads back spelled its own way; the chain hashes one spelling."""
    assert canonical_json(spelling) == b'{"a":[1,2],"b":1}'


# ------------------------------------------------------------------------- upcasting


class EncounterOpenedV1(msgspec.Struct, tag_field="type", tag="EncounterOpened", kw_only=True):
    """EncounterOpened as schema version 1 wrote it: the bare hex as ``seed_sha256``."""

    encounter_id: str
    ruleset: str
    name: str
    dice_policy: str
    seed_sha256: str


def as_v1(opened: EncounterOpened) -> EncounterOpenedV1:
    return EncounterOpenedV1(encounter_id=opened.encounter_id, ruleset=opened.ruleset, name=opened.name,
                             dice_policy=opened.dice_policy, seed_sha256=opened.seed_commitment.removeprefix("sha256:"))


def test_new_events_are_written_under_version_2_and_old_payloads_upcast() -> None:
    """"Event payloads carry a schema version ... change one event's shape in a later
    version with an upcaster": EncounterOpened 2 names its commitment's hash."""
    ruleset = FIGHT.ruleset
    assert ruleset.schema_versions["EncounterOpened"] == 2
    assert (ROWS[0].type, ROWS[0].schema_version) == ("EncounterOpened", 2)
    v1 = msgspec.json.encode(as_v1(FIGHT.events[0]))
    assert b"seed_sha256" in v1 and b"seed_commitment" not in v1
    assert ruleset.decode_event("EncounterOpened", 1, v1) == FIGHT.events[0]
    assert ruleset.decode_event("EncounterOpened", 2, ROWS[0].data) == FIGHT.events[0]


def test_a_fight_stored_under_version_1_replays_and_verifies() -> None:
    """"a fight stored under the old shape still replays and verifies"."""
    old = [as_v1(FIGHT.events[0]), *FIGHT.events[1:]]
    rows = chain(FIGHT.encounter_id, GENESIS_HASH, 1, old, META, {})  # every type at version 1
    assert rows[0].schema_version == 1 and b'"seed_sha256"' in rows[0].data
    result = audit(FIGHT.encounter_id, FIGHT.ruleset, rows)
    assert result.report.ok and result.report.dice.verified
    assert result.report.seed.commitment == FIGHT.events[0].seed_commitment
    assert msgspec.to_builtins(result.state) == msgspec.to_builtins(FIGHT.state)


# ------------------------------------------------------------- every legal fight verifies


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_every_legal_fight_verifies(seed: int, hidden: bool) -> None:
    """No false alarm: random legal fights (attack exchanges, checks, seeded dice, a hidden
    NPC) audit clean, and every seeded roll is derived again once the GM ends them."""
    import random

    from bench.fights import random_fight

    fight = random_fight(random.Random(seed), steps=40, combatants=3, hidden=hidden, end=True)
    rows = chain(fight.encounter_id, GENESIS_HASH, 1, fight.events, META, fight.ruleset.schema_versions)
    result = audit(fight.encounter_id, fight.ruleset, rows)
    assert result.report.ok, result.report.first
    assert result.report.dice.verified and result.report.dice.rederived == len(seeded_dice_in(fight.events))
    assert msgspec.to_builtins(result.state) == msgspec.to_builtins(fight.state)


def test_the_writers_chain_is_the_one_definition_of_the_hash() -> None:
    """The server links new events with ``link_new`` (each row built once, the encounter, the
    metadata and the time encoded once per command): its hashes are what ``link`` computes from
    the rows' contents, which the audit and ``fracas verify`` check."""
    f = seeded_fight()
    rows: list[StoredRow] = []
    for start in range(0, len(f.events), 3):  # three events a command
        rows += chain(ENCOUNTER_ID, rows[-1].hash if rows else GENESIS_HASH, len(rows) + 1, f.events[start:start + 3],
                      {"actor": {"role": "gm", "token_id": "t\u00e9\"x"}, "request_id": str(start)},
                      {"EncounterOpened": 2})
    assert len(rows) > 10
    assert [r.hash for r in rows] == [r.hash for r in link(ENCOUNTER_ID, rows)]
    prev, js = GENESIS_HASH, msgspec.json.encode
    for r in rows:  # spelled out once more, from the module docstring of projections/chain.py
        canonical = b"[" + b",".join([
            js(ENCOUNTER_ID), str(r.version).encode(), js(r.event_id), js(r.type), str(r.schema_version).encode(),
            encode_sorted(msgspec.json.decode(r.data)), encode_sorted(msgspec.json.decode(r.metadata)),
            js(r.recorded_at.astimezone(UTC).isoformat()),
        ]) + b"]"
        prev = hashlib.sha256(prev + canonical).digest()
        assert r.hash == prev
