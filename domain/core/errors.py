"""Rule violations: refusals a player can read, each with a stable code."""

from __future__ import annotations


# Every code a RuleViolation may carry: stable, for clients to switch on. A new refusal
# adds its code here first (RuleViolation refuses an unknown code).
CODES: dict[str, str] = {
    "already_started": "The fight has already started.",
    "combatant_has_turn": "The combatant is acting now: end their turn first.",
    "dice_missing": "Fewer dice were reported than the command rolls.",
    "dice_unavailable": "No dice are available for this roll.",
    "dice_unused": "More dice were reported than the command rolls.",
    "die_face_out_of_range": "A reported face is not on the die.",
    "duplicate_combatant": "A combatant with that id is already in the encounter.",
    "encounter_ended": "The encounter has ended.",
    "encounter_not_started": "The fight has not started yet.",
    "initiative_not_rolled": "Initiative must be rolled (again) first.",
    "invalid_id": "An id is malformed or reserved.",
    "invalid_sheet": "The character sheet does not fit the ruleset.",
    "invalid_text": "A name or label is empty, too long or has control characters.",
    "invalid_turn_order": "The order of play breaks the ruleset's rules.",
    "no_combatants": "The encounter has no combatants yet.",
    "no_secret_roll": "That event has no secret roll left to reveal.",
    "not_hidden": "The combatant is not hidden.",
    "not_enough_action_points": "The combatant has fewer Action Points than the action costs.",
    "not_your_turn": "It is someone else's turn.",
    "reported_dice_not_allowed": "The encounter rolls its own dice.",
    "unknown_combatant": "No combatant with that id is in the encounter.",
    "unknown_command": "The ruleset has no such command.",
    "unknown_ruleset": "The server runs no such ruleset.",
}


class RuleViolation(Exception):
    """A command the rules refuse.

    ``code`` is stable (clients switch on it, listed in ``CODES``); ``message`` is written
    for a player.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        if code not in CODES:
            raise ValueError(f"unlisted rule violation code {code!r}: add it to domain.core.errors.CODES")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleViolation({self.code!r}, {self.message!r})"


_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-")


def clean_text(value: str, what: str, *, max_length: int = 200) -> str:
    """A name or label as players will read it: trimmed, not empty, no control characters."""
    text = value.strip()
    if not text:
        raise RuleViolation("invalid_text", f"{what} cannot be empty.")
    if len(text) > max_length:
        raise RuleViolation("invalid_text", f"{what} is longer than {max_length} characters.")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise RuleViolation("invalid_text", f"{what} cannot contain control characters.")
    return text


def check_id(value: str, what: str, reserved: frozenset[str] = frozenset()) -> str:
    """An identifier: 1 to 64 of letters, digits and ``_ . : -``, not one the rules reserve."""
    if not 1 <= len(value) <= 64 or not set(value) <= _ID_CHARS:
        raise RuleViolation(
            "invalid_id", f"{what} must be 1 to 64 letters, digits or the characters _ . : -", value=value[:64]
        )
    if value in reserved:
        raise RuleViolation("invalid_id", f"{what} “{value}” is reserved by the rules.", value=value)
    return value
