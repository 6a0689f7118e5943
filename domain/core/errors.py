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
