"""A ruleset's coverage table: what the engine does with each section of the ruleset's rule
text (``GET /rulesets/{id}`` lists it), in one shape for every ruleset.

A row with ``part_of`` is a rule inside that heading's section that the text gives a bold lead-in
("Surprise.", "Non-Lethal Damage:"); the other rows follow the text's headings one for one.

``enforced``: the server applies the rule; ``gm``: the rule is the GM's decision, offered as
a GM command or parameter; ``partial``: part enforced, the rest named; ``not covered``: not
yet, with why. ``readings``: where the text leaves a choice, the one the engine makes.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Support = Literal["enforced", "gm", "partial", "not covered"]


class Section(msgspec.Struct, kw_only=True):
    """One section of a chapter of the ruleset's text, under its heading."""

    heading: str
    support: Support
    how: str
    chapter: str
    readings: list[str] = msgspec.field(default_factory=list)
    # a rule the text gives a bold lead-in ("Surprise.") inside the section under this heading
    part_of: str | None = None
