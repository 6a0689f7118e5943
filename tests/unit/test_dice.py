"""Dice: verifiable seeded dice and reported dice (DESIGN.md, "Dice").

DESIGN.md: "Roll n = HMAC-SHA256(seed, encounter_id:n) mapped to the die without modulo
bias. The seed is revealed when the encounter ends (or on the GM's request), and anyone
can re-derive every roll: verifiable dice."
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter

import pytest

from domain.core.dice import (
    DICE_POLICIES,
    DieRoll,
    ReportedDice,
    SeededDice,
    choose_dice,
    seed_commitment,
    seeded_face,
)
from domain.core.errors import RuleViolation

SEED = bytes.fromhex("5f" * 16 + "a3" * 16)
OTHER_SEED = bytes(32)
ENC = "0b7d6f1c-6b7e-4f0e-9d2a-4e1b8c3f5a21"
STANDARD_DICE = (4, 6, 8, 10, 12, 20, 100)


def reference_face(seed: bytes, encounter_id: str, index: int, sides: int) -> tuple[int, int]:
    """An independent re-implementation of the documented scheme.

    Block 0 is HMAC-SHA256(seed, "<encounter_id>:<index>"), block b > 0 is
    HMAC-SHA256(seed, "<encounter_id>:<index>:<b>"); each block is four big-endian
    64-bit candidates; a candidate >= 2**64 - 2**64 % sides is rejected; the face is
    candidate % sides + 1. Returns (face, block the face came from).
    """
    limit = 2**64 - 2**64 % sides
    block = 0
    while True:
        msg = f"{encounter_id}:{index}" + ("" if block == 0 else f":{block}")
        digest = hmac.new(seed, msg.encode("utf-8"), hashlib.sha256).digest()
        for candidate in struct.unpack(">4Q", digest):
            if candidate < limit:
                return candidate % sides + 1, block
        block += 1


# ----------------------------------------------------------------------- SeededDice


def test_same_seed_encounter_and_index_give_the_same_face() -> None:
    """"anyone can re-derive every roll": the face depends only on seed, encounter and n."""
    first = SeededDice(SEED, ENC, 0)
    rolls_a = [first.roll(sides, "attack") for sides in STANDARD_DICE * 5]
    second = SeededDice(SEED, ENC, 0)
    rolls_b = [second.roll(sides, "something else") for sides in STANDARD_DICE * 5]
    assert [r.face for r in rolls_a] == [r.face for r in rolls_b]
    # a single roll re-derived on its own, from its recorded index, gives the same face
    for r in rolls_a:
        assert r.index is not None
        assert seeded_face(SEED, ENC, r.index, r.sides) == r.face
        assert SeededDice(SEED, ENC, r.index).roll(r.sides, "audit").face == r.face


def test_faces_depend_on_seed_and_encounter() -> None:
    base = [seeded_face(SEED, ENC, n, 100) for n in range(50)]
    assert [seeded_face(OTHER_SEED, ENC, n, 100) for n in range(50)] != base
    assert [seeded_face(SEED, ENC + "x", n, 100) for n in range(50)] != base
    # and on the index: fifty d100 rolls are not all one face
    assert len(set(base)) > 10


@pytest.mark.parametrize("sides", STANDARD_DICE)
def test_faces_are_within_one_to_sides_and_all_come_up(sides: int) -> None:
    dice = SeededDice(SEED, ENC, 0)
    faces = [dice.roll(sides, f"d{sides}").face for _ in range(sides * 40)]
    assert min(faces) >= 1
    assert max(faces) <= sides
    assert set(faces) == set(range(1, sides + 1))


def test_roll_index_increments_and_is_recorded() -> None:
    dice = SeededDice(SEED, ENC, 7)
    rolls = [dice.roll(12, "initiative") for _ in range(4)]
    assert [r.index for r in rolls] == [7, 8, 9, 10]
    assert dice.next_index == 11
    assert all(r.source == "seeded" for r in rolls)
    assert rolls[0] == DieRoll(sides=12, face=seeded_face(SEED, ENC, 7, 12), purpose="initiative",
                               source="seeded", index=7)


@pytest.mark.parametrize("sides", [*STANDARD_DICE, 2, 3, 7, 1000, 2**32 + 15])
def test_seeded_face_matches_the_documented_scheme(sides: int) -> None:
    for index in range(300):
        assert seeded_face(SEED, ENC, index, sides) == reference_face(SEED, ENC, index, sides)[0]


@pytest.mark.parametrize("sides", [2**63 + 1, 3 * 2**62])
def test_rejection_sampling_rejects_the_biased_tail(sides: int) -> None:
    """"mapped to the die without modulo bias": candidates >= 2**64 - 2**64 % sides are
    rejected, and when a whole block is rejected the next block is used.

    For these huge dice half (or a quarter) of all candidates fall in the rejected tail,
    so the rejection path and later blocks are exercised; a plain ``candidate % sides``
    would give different faces there.
    """
    limit = 2**64 - 2**64 % sides
    later_blocks = 0
    differs_from_plain_modulo = 0
    for index in range(400):
        face, block = reference_face(SEED, ENC, index, sides)
        assert seeded_face(SEED, ENC, index, sides) == face
        assert 1 <= face <= sides
        later_blocks += block > 0
        first = struct.unpack(">Q", hmac.new(SEED, f"{ENC}:{index}".encode(), hashlib.sha256).digest()[:8])[0]
        if first >= limit:
            differs_from_plain_modulo += face != first % sides + 1
    assert later_blocks > 0
    assert differs_from_plain_modulo > 50


def test_d12_distribution_is_flat_chi_square() -> None:
    """12,000 seeded d12 rolls: chi-square against a flat distribution, 11 degrees of
    freedom. The critical value at p = 0.001 is 31.26; the bound here is generous (40).
    The seed is fixed, so this is deterministic."""
    n, sides = 12_000, 12
    counts = Counter(seeded_face(SEED, ENC, i, sides) for i in range(n))
    assert set(counts) == set(range(1, sides + 1))
    expected = n / sides
    chi_square = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
    assert chi_square < 40, (chi_square, counts)
    # every face within 15% of its expected 1000
    assert all(abs(counts[f] - expected) < 0.15 * expected for f in range(1, sides + 1)), counts


def test_seed_commitment_is_sha256_of_the_seed() -> None:
    """"per encounter a 32-byte secret seed; its SHA-256 is published when the encounter opens"."""
    assert seed_commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert seed_commitment(OTHER_SEED) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert len(seed_commitment(SEED)) == 64


def test_seeded_face_refuses_a_die_without_sides() -> None:
    with pytest.raises(ValueError):
        seeded_face(SEED, ENC, 0, 0)


# ---------------------------------------------------------------------- ReportedDice


def test_reported_faces_are_used_in_order_and_marked_reported() -> None:
    """"ReportedDice: faces supplied by the client ..., checked for range, marked as
    reported in the event"."""
    dice = ReportedDice([3, 12, 1])
    rolls = [dice.roll(12, "a"), dice.roll(12, "b"), dice.roll(4, "c")]
    assert [r.face for r in rolls] == [3, 12, 1]
    assert [r.purpose for r in rolls] == ["a", "b", "c"]
    assert [r.sides for r in rolls] == [12, 12, 4]
    assert all(r.source == "reported" and r.index is None for r in rolls)
    dice.check_all_used()  # all three used: no refusal


@pytest.mark.parametrize(("sides", "face"), [(12, 13), (12, 0), (6, 7), (20, -1), (4, 5)])
def test_reported_face_out_of_range_is_refused(sides: int, face: int) -> None:
    """"checked for range"."""
    dice = ReportedDice([face])
    with pytest.raises(RuleViolation) as exc:
        dice.roll(sides, "initiative")
    assert exc.value.code == "die_face_out_of_range"
    assert exc.value.details == {"sides": sides, "face": face}
    assert str(face) in exc.value.message and f"d{sides}" in exc.value.message


@pytest.mark.parametrize(("sides", "face"), [(12, 1), (12, 12), (4, 4), (100, 100)])
def test_reported_faces_at_the_edges_are_accepted(sides: int, face: int) -> None:
    assert ReportedDice([face]).roll(sides, "edge").face == face


def test_too_few_reported_faces_is_refused() -> None:
    dice = ReportedDice([5])
    dice.roll(12, "first")
    with pytest.raises(RuleViolation) as exc:
        dice.roll(12, "initiative: the GM, for all NPCs")
    assert exc.value.code == "dice_missing"
    assert exc.value.details == {"needed_sides": 12, "purpose": "initiative: the GM, for all NPCs"}


def test_unused_reported_faces_are_refused() -> None:
    dice = ReportedDice([5, 6, 7])
    dice.roll(12, "only one")
    with pytest.raises(RuleViolation) as exc:
        dice.check_all_used()
    assert exc.value.code == "dice_unused"
    assert "3" in exc.value.message and "1" in exc.value.message


# ----------------------------------------------------------------------- choose_dice


def test_policies() -> None:
    assert DICE_POLICIES == ("seeded", "reported", "mixed")


def test_seeded_policy_refuses_reported_faces() -> None:
    """"Which policy an encounter allows is set when it opens."."""
    with pytest.raises(RuleViolation) as exc:
        choose_dice("seeded", [4, 5], SeededDice(SEED, ENC, 0))
    assert exc.value.code == "reported_dice_not_allowed"


def test_seeded_policy_without_faces_rolls_seeded() -> None:
    seeded = SeededDice(SEED, ENC, 3)
    assert choose_dice("seeded", None, seeded) is seeded


def test_reported_policy_uses_the_reported_faces() -> None:
    dice = choose_dice("reported", [9], SeededDice(SEED, ENC, 0))
    assert isinstance(dice, ReportedDice)
    roll = dice.roll(12, "initiative")
    assert (roll.face, roll.source, roll.index) == (9, "reported", None)


def test_reported_policy_without_faces_refuses_to_roll() -> None:
    seeded = SeededDice(SEED, ENC, 0)
    dice = choose_dice("reported", None, seeded)
    assert dice is not seeded
    with pytest.raises(RuleViolation) as exc:
        dice.roll(12, "initiative")
    assert exc.value.code == "dice_missing"
    assert seeded.next_index == 0  # no seeded roll was spent instead


def test_mixed_policy_uses_reported_faces_when_given_else_seeded() -> None:
    seeded = SeededDice(SEED, ENC, 0)
    reported = choose_dice("mixed", [2], seeded)
    assert isinstance(reported, ReportedDice)
    assert reported.roll(12, "x").face == 2
    assert seeded.next_index == 0
    assert choose_dice("mixed", None, seeded) is seeded
    assert choose_dice("mixed", None, seeded).roll(12, "y").source == "seeded"
