"""A ruleset's demo fight (``Ruleset.demo()``): its cast and the script of its commands.

``fracas demo --ruleset ID`` (``server/cli/demo.py``) plays it against a running server: it
opens an encounter, seats the cast (a player's token for each player's combatant), then
sends the commands the script yields, each with the token of whoever sends it, and tells
the fight from the server's readable log. The script is pure: it reads the encounter as the
GM sees it (``Table.state``, the API's JSON) and the answer to its last command, and yields
the next one; the driver does the talking.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class Seat:
    """One of the cast: a combatant's name, side, controller (``player`` or ``gm``) and sheet."""

    name: str
    side: str
    controller: str
    sheet: Json


@dataclass(frozen=True)
class Send:
    """A command to send; ``by``: the combatant whose player sends it (None: the GM).
    ``may_refuse``: the script is told a refusal by the rules (else the demo stops on one)."""

    command: Json
    by: str | None = None
    may_refuse: bool = False


@dataclass(frozen=True)
class Aside:
    """A line the script adds to the telling: what the server refused, which no event records."""

    text: str


@dataclass(frozen=True)
class Refusal:
    """The rules refused the command (a 422): its stable code, its detail, its details."""

    code: str
    detail: str
    details: Json = field(default_factory=dict)


@dataclass
class Table:
    """What the script reads: the combatant id of each seat (by name), the rounds to play at
    most, and the encounter as the GM sees it now (kept by the driver)."""

    ids: dict[str, str]
    players: frozenset[str]
    rounds: int
    state: Json = field(default_factory=dict)


def beaten_side(state: Json, down: Callable[[Json, str], bool]) -> str | None:
    """The side (of the GM's view ``state``) all of whose combatants are ``down`` (the ruleset
    says what that is: dead, dying, out of Hits), if any: a demo fight is over then."""
    sides: dict[str, list[str]] = {}
    for cid, c in state["combatants"].items():
        sides.setdefault(c["side"], []).append(cid)
    return next((side for side, members in sides.items() if all(down(state, cid) for cid in members)), None)


class Stuck(Exception):
    """The fight waits for something the script cannot do: the GM ends it there, told why."""


# A script yields commands (and asides) and is sent, for each command, the refusal it got
# (None: it was taken); a part of a script may return what it did.
Script = Generator["Send | Aside", "Refusal | None", Any]


class DemoFight(ABC):
    """A ruleset's demo: the encounter's name, its cast, and its script."""

    name: str = "A demo fight (fracas demo)"
    cast: tuple[Seat, ...] = ()

    @abstractmethod
    def play(self, table: Table) -> Script:
        """The commands of the fight, from rolling initiative to its last turn (the driver
        ends the encounter). Stops by returning, or by raising ``Stuck``."""

    def summary(self, table: Table) -> list[str]:
        """Lines that sum the fight up once it has ended (``table.state``: as the GM sees it)."""
        return []
