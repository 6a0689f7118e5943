"""The GM's settings documents (the data a rule text leaves open), changed a part at a time.

A settings command (``SetHealthTraumaRules``, ``SetRealmsRules``, ``SetNovusRules``) carries a
JSON Merge Patch (RFC 7396) of the encounter's current document: what it names is changed, an
object merged into the one there, ``null`` puts a field back to its default, what it leaves out
stays as it is. So changing X no longer resets the GM's chart. The whole document merged is
checked against its type, as a document sent whole always was. As in RFC 7396, a field cannot be
set to null by a patch (null puts back its default); a document given whole as its own type (a
caller in Python) replaces the current one, nulls and all.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import msgspec

from domain.core.errors import RuleViolation

T = TypeVar("T")

SettingsPatch = Annotated[
    dict[str, Any],
    msgspec.Meta(description=(
        "A JSON Merge Patch (RFC 7396) of the encounter's current settings document: the fields named "
        "are changed (an object merged into the one there, null puts a field back to its default), the "
        "rest stay. The document's schema, with each default, is this command's `settings_schema` in "
        "`GET /rulesets/{ruleset_id}`.")),
]


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: ``patch`` applied to ``target`` (neither is changed)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def merged(current: T, patch: Any, kind: type[T], what: str) -> T:
    """The settings document ``current`` with ``patch`` merged into it, checked as a ``kind``
    (a patch given as a whole document, a ``kind`` itself, replaces it)."""
    if isinstance(patch, kind):  # a whole document (a caller in Python): it replaces the current one
        return patch
    doc = merge_patch(msgspec.to_builtins(current), msgspec.to_builtins(patch))
    try:
        return msgspec.convert(doc, kind, strict=True)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid_settings", f"{what} would not be valid: {exc}.") from None
