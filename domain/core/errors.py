"""Rule violations: refusals a player can read, each with a stable code."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command the rules refuse.

    ``code`` is stable (clients switch on it); ``message`` is written for a player.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
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
