"""The readable log in Places of Power's words: the lifecycle's sentences borrow the game's
words from its ruleset (``PlacesOfPower.wording()``: its Action Points, the GM's roll for
all NPCs), and read as they did before they were core's."""

from __future__ import annotations

from projections.readable_log import LogEvent, render
from tests.unit.test_readable_log import DUEL


def test_the_lifecycle_in_places_of_powers_words() -> None:
    """The same lifecycle events under Places of Power: its ruleset lends its words."""
    events = [replace_ruleset(e, "places-of-power") for e in DUEL if e.type not in ("AttackDeclared", "Struck")]
    said = [e.sentence for e in render(events, "places-of-power")]
    assert said == [
        "The encounter “At dawn” opens: Places of Power, seeded dice.",
        "Mira joins the fight on the party side, with 3 Action Points.",
        "The Bandit joins the fight on the enemies side.",
        "Initiative: Mira 4 + 0 = 4 and the GM for the NPCs 2 + 0 = 2. The order of play: Mira and the Bandit.",
        "Round 2. Action Points: Mira 3 and the Bandit 3.",
        "Mira ends the turn, keeping 2 Action Points.",
    ]


def replace_ruleset(e: LogEvent, ruleset: str) -> LogEvent:
    return LogEvent(e.version, e.type, {**e.data, "ruleset": ruleset} if e.type == "EncounterOpened" else e.data,
                    e.metadata)
