"""How the table names a combatant in a sentence: a player's character by name, one of the GM's
with the article ("the Raider"), unless its name already starts with one ("a Bandit")."""

from __future__ import annotations

import re

_ARTICLE = re.compile(r"(?i)(the|a|an) ")


def called(name: str, npc: bool) -> str:
    """``name`` as a sentence names it: "Kess", "the Raider"."""
    return f"the {name}" if npc and not _ARTICLE.match(name) else name


def called_of(combatant: object) -> str:
    """A ``Combatant`` as a sentence names it (the GM controls the NPCs)."""
    return called(getattr(combatant, "name"), getattr(combatant, "controller") != "player")
