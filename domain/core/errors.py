"""Rule violations: refusals a player can read, each with a stable code.

``CODES`` is the lifecycle's table (every ruleset's refusals of the shared encounter
lifecycle); a ruleset's own codes live in its package (``ruleset_codes``), and
``Ruleset.violation_codes`` is the two merged: what ``GET /rulesets/{id}`` lists.
"""

from __future__ import annotations

from collections.abc import Mapping

# The lifecycle's codes: stable, for clients to switch on. A new refusal of the lifecycle
# adds its code here first, a ruleset's to its own table (RuleViolation refuses an unknown code).
CODES: dict[str, str] = {
    "decision_pending": "The fight waits for a decision before the turn may end.",
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
    "invalid_settings": "The settings document, with the patch merged in, does not fit its schema.",
    "invalid_sheet": "The character sheet does not fit the ruleset.",
    "invalid_text": "A name or label is empty, too long or has control characters.",
    "invalid_turn_order": "The order of play breaks the ruleset's rules.",
    "no_combatants": "The encounter has no combatants yet.",
    "nothing_changes": "The command would change nothing in the fight now.",
    "no_secret_roll": "That event has no secret roll left to reveal.",
    "not_enough_action_points": "The combatant has fewer Action Points than the action costs.",
    "not_hidden": "The combatant is not hidden.",
    "not_your_turn": "It is someone else's turn.",
    "reported_dice_not_allowed": "The encounter rolls its own dice.",
    "retcon_before_start": "A retcon cannot undo the start of the fight.",
    "retcon_mid_command": "A retcon goes back to the end of a command, not into the middle of its events.",
    "retcon_nothing_to_undo": "A retcon goes back to a version before the current one.",
    "retcon_out_of_reach": "A retcon goes back to the start of the current round at the furthest, or undoes the last command.",
    "retcon_undone": "That version was undone by an earlier retcon: send the commands again instead.",
    "unknown_combatant": "No combatant with that id is in the encounter.",
    "unknown_command": "The ruleset has no such command.",
    "unknown_ruleset": "The server runs no such ruleset.",
    # reaction windows, phases of a round, named resources (domain/core/reactions.py, phases.py, resources.py)
    "no_reaction_window": "Nothing waits for a reaction now.",
    "may_not_react": "That combatant may not react to this.",
    "already_answered": "That combatant has already reacted or passed.",
    "reaction_not_allowed": "That reaction is not one of the choices.",
    "not_your_move": "Another combatant moves first in this phase of the round.",
    "wrong_phase": "That is not done in this phase of the round.",
    "not_enough_resource": "The combatant has not enough of what that action needs left.",
}


# Every ruleset's own codes, as their packages declare them: a RuleViolation takes one of
# these or a lifecycle code; which ruleset's table documents it is ``Ruleset.violation_codes``.
_RULESET_CODES: set[str] = set()


def lifecycle_clashes(own: Mapping[str, str]) -> list[str]:
    """The codes of a ruleset's own table that are the lifecycle's (it may not redefine them)."""
    return sorted(code for code in own if code in CODES)


def ruleset_codes(own: dict[str, str]) -> dict[str, str]:
    """Declare a ruleset's own violation codes (its package's table) and return them. A code
    of the lifecycle's is refused: the lifecycle's meaning is every ruleset's."""
    clashes = lifecycle_clashes(own)
    if clashes:
        raise ValueError(f"a ruleset may not redefine the lifecycle's codes: {', '.join(clashes)}")
    _RULESET_CODES.update(own)
    return own


class RuleViolation(Exception):
    """A command the rules refuse.

    ``code`` is stable (clients switch on it, listed in ``CODES`` or its ruleset's own table); ``message`` is written
    for a player.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        if code not in CODES and code not in _RULESET_CODES:
            raise ValueError(f"unlisted rule violation code {code!r}: add it to domain.core.errors.CODES "
                             "(the lifecycle's) or to its ruleset's own codes")
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
