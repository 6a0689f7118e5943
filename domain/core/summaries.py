"""A command's summary for people (``GET /rulesets/{id}``): the first sentence of its
docstring, whole, as plain text.

A docstring's first line is often half a sentence (the sentence goes on on the next line),
and it names fields in reStructuredText (````target````): a GM reading a menu needs the
sentence, and the words without the markup.
"""

from __future__ import annotations

import inspect
import re

_LITERAL = re.compile(r"``([^`]*)``|`([^`]*)`")


def plain(text: str) -> str:
    """``text`` with its reStructuredText literals as the bare words, on one line."""
    return " ".join(_LITERAL.sub(lambda m: m.group(1) or m.group(2) or "", text).split())


def first_sentence(text: str) -> str:
    """The first sentence of ``text``: up to the first full stop that ends it (followed by
    the end or by a space and a capital letter or a literal), outside brackets and quotes."""
    depth = 0
    quoted = False
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == '"':
            quoted = not quoted
        elif ch == "." and depth == 0 and not quoted:
            rest = text[i + 1:]
            if not rest or (rest[0] == " " and (rest[1:2].isupper() or rest[1:2] == "`")):
                return text[: i + 1]
    return text


def summary_of(kind: type) -> str:
    """The first sentence of the first paragraph of ``kind``'s docstring, as plain text
    ('' when it has none)."""
    doc = inspect.cleandoc(kind.__dict__.get("__doc__") or "")
    return plain(first_sentence(" ".join(doc.split("\n\n", 1)[0].split())))
