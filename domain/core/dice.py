"""Dice: every die rolled in ``decide`` is written into its event.

Two sources, chosen per encounter by its dice policy:

- ``SeededDice``: roll n of an encounter is HMAC-SHA256(seed, "<encounter_id>:<n>")
  mapped onto the die by rejection sampling (no modulo bias). The seed's SHA-256 is
  published when the encounter opens and the seed itself when it ends, so anyone can
  re-derive every roll.
- ``ReportedDice``: faces supplied by the client (physical dice, a VTT's roller),
  range-checked and marked as reported.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import ClassVar, Literal, Protocol

import msgspec

from domain.core.concerns import CombatantId
from domain.core.errors import RuleViolation

DiceSource = Literal["seeded", "reported"]
DicePolicy = Literal["seeded", "reported", "mixed"]
DICE_POLICIES: tuple[str, ...] = ("seeded", "reported", "mixed")

_SPACE = 1 << 64


class DieRoll(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One die as rolled: its size, the face that came up, why it was rolled and where from.

    ``index`` is the seeded roll number (for audit), ``None`` for a reported die. ``by``: the
    combatant who rolled it (``None``: the GM for a group, or a roll of no one's); ``purpose``
    names the rule it was rolled for, never a combatant (who sees whom is decided by ``by``).
    A viewer who may not see every roll is shown, while the seed is secret, a ``roll`` tag in
    place of ``index`` (``roll_tag``: the numbers would count the unseen rolls).
    """

    sides: int
    face: int
    purpose: str
    source: DiceSource
    index: int | None = None
    by: CombatantId | None = None

    __rolled_by__: ClassVar[bool] = True  # a list of dice is never cut short (domain/core/concerns.py)


class Dice(Protocol):
    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll: ...


def roll_tag(seed: bytes, encounter_id: str, index: int) -> str:
    """What a viewer who may not see every roll is shown of seeded roll ``index`` instead of its
    number: a tag that tells nothing of how many rolls came before (the numbers would count the
    rolls made out of sight). Once the seed is revealed, anyone finds each tag's number again
    (``roll_number``) and re-derives its face."""
    return hmac.new(seed, f"{encounter_id}:roll:{index}".encode(), hashlib.sha256).hexdigest()[:16]


def roll_number(seed: bytes, encounter_id: str, tag: str, rolls: int) -> int | None:
    """The number of the roll whose tag is ``tag``, among the first ``rolls`` (None: none)."""
    return next((i for i in range(rolls) if hmac.compare_digest(roll_tag(seed, encounter_id, i), tag)), None)


def seeded_face(seed: bytes, encounter_id: str, index: int, sides: int) -> int:
    """The face of seeded roll ``index`` on a die of ``sides`` faces.

    Each HMAC block gives four 64-bit candidates; a candidate at or above the largest
    multiple of ``sides`` below 2**64 is rejected, so every face is equally likely.
    """
    if sides < 1:
        raise ValueError("a die has at least one side")
    limit = _SPACE - (_SPACE % sides)
    block = 0
    while True:
        msg = f"{encounter_id}:{index}" if block == 0 else f"{encounter_id}:{index}:{block}"
        digest = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
        for offset in range(0, 32, 8):
            candidate = int.from_bytes(digest[offset : offset + 8], "big")
            if candidate < limit:
                return candidate % sides + 1
        block += 1


def seed_commitment(seed: bytes) -> str:
    """What is published when an encounter opens: the SHA-256 of its seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


# A published commitment names its hash: ``sha256:<hex>`` (EncounterOpened, schema version 2).
COMMITMENT_PREFIX = "sha256:"


def commitment_digest(commitment: str) -> str | None:
    """The hex digest of a ``sha256:<hex>`` commitment; None for a scheme these rules do not know."""
    return commitment[len(COMMITMENT_PREFIX):] if commitment.startswith(COMMITMENT_PREFIX) else None


def commitment_matches(commitment: str, seed: bytes) -> bool:
    """Whether ``seed`` is the seed ``commitment`` was published for."""
    digest = commitment_digest(commitment)
    return digest is not None and hmac.compare_digest(digest, seed_commitment(seed))


class SeededDice:
    """Verifiable dice: deterministic from the encounter's secret seed and the roll number."""

    def __init__(self, seed: bytes, encounter_id: str, next_index: int) -> None:
        self._seed = seed
        self._encounter_id = encounter_id
        self.next_index = next_index

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        index = self.next_index
        self.next_index += 1
        face = seeded_face(self._seed, self._encounter_id, index, sides)
        return DieRoll(sides=sides, face=face, purpose=purpose, source="seeded", index=index, by=by)


class ReportedDice:
    """Faces the client reports, used in the order the command's documentation gives."""

    def __init__(self, faces: list[int]) -> None:
        self._faces = list(faces)
        self._used = 0

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        if self._used >= len(self._faces):
            raise RuleViolation(
                "dice_missing",
                f"This command needs another die: a d{sides} for {purpose}. "
                f"Only {len(self._faces)} face(s) were reported.",
                needed_sides=sides,
                purpose=purpose,
            )
        face = self._faces[self._used]
        self._used += 1
        if not 1 <= face <= sides:
            raise RuleViolation(
                "die_face_out_of_range",
                f"A d{sides} shows a face from 1 to {sides}; {face} was reported for {purpose}.",
                sides=sides,
                face=face,
            )
        return DieRoll(sides=sides, face=face, purpose=purpose, source="reported", by=by)

    def check_all_used(self) -> None:
        if self._used != len(self._faces):
            raise RuleViolation(
                "dice_unused",
                f"{len(self._faces)} face(s) were reported but this command rolls only {self._used}.",
                reported=len(self._faces),
                used=self._used,
            )


class NoDice:
    """For commands that roll nothing: any roll is a programming error surfaced as a refusal."""

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:  # pragma: no cover - guard
        raise RuleViolation("dice_unavailable", f"No dice are available for {purpose}.")


def choose_dice(
    policy: str, reported: list[int] | None, seeded: SeededDice | None
) -> Dice:
    """The dice a command uses under the encounter's dice policy."""
    if reported is not None:
        if policy == "seeded":
            raise RuleViolation(
                "reported_dice_not_allowed",
                "This encounter rolls its own verifiable dice; reported dice are not accepted.",
            )
        return ReportedDice(reported)
    if policy == "reported":
        return ReportedDice([])
    if seeded is None:  # pragma: no cover - server always supplies one
        return NoDice()
    return seeded
