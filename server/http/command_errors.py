"""Why a command's body was refused, in the words of the ruleset's commands: the command and
its field, the values an enum allows, the command a mistyped ``type`` most likely meant
("Endturn": did you mean `EndTurn`?), rather than the list of every command."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.ruleset import Ruleset
from server.http.body_errors import explain, nearest, where
from server.http.problems import Problem, empty_body, malformed

EXAMPLE = ', such as {"type": "EndTurn", "combatant_id": "..."}'


class _Head(msgspec.Struct):
    """Only a command's ``type``: the rest of the body is skipped."""

    type: Any = msgspec.UNSET


_head = msgspec.json.Decoder(_Head)


def _invalid(detail: str, **details: Any) -> Problem:
    return Problem(422, "invalid_command", "Invalid request body", detail, **details)


def command_problem(ruleset: Ruleset, body: bytes, exc: Exception) -> Problem:
    """The problem for a body that ``ruleset``'s command decoder refused with ``exc``."""
    if not body.strip():
        return empty_body(EXAMPLE)
    if not isinstance(exc, msgspec.ValidationError):
        return malformed(exc)
    listing = f"`GET /rulesets/{ruleset.id}` lists the commands of {ruleset.name}"
    try:
        head: _Head | None = _head.decode(body)
    except msgspec.ValidationError:
        return _invalid(f"A command is a JSON object{EXAMPLE}; {listing}.")
    except (msgspec.DecodeError, RecursionError):  # nested too deeply to look into: say what msgspec says
        head = None
    if head is None:
        what, path = where(str(exc))
        return _invalid(f"The command's `{path.lstrip('.')}`: {what}." if path else f"{what}.")
    kinds = {t.__struct_config__.tag: t for t in ruleset.command_types}
    name = head.type
    if name is msgspec.UNSET:
        return _invalid(f"A command names its `type`{EXAMPLE}; {listing}.", field="type")
    if not isinstance(name, str):
        return _invalid(f"A command's `type` is its name, a string{EXAMPLE}; {listing}.", field="type")
    if name not in kinds:
        meant = nearest(name, list(kinds))
        if meant is not None:
            return _invalid(f"{ruleset.name} has no command `{name}`: did you mean `{meant}`?",
                            field="type", suggestion=meant)
        return _invalid(f"{ruleset.name} has no command `{name}`; {listing}.", field="type")
    why = explain(kinds[name], str(exc), name)
    return _invalid(why.detail, command=name, **why.details)
