"""The readable log in Places of Power's words (domain/places_of_power/log.py): the story
reads as the table tells it, and the lifecycle's sentences borrow the game's words from its
ruleset (``PlacesOfPower.wording()``: its Action Points, the GM's roll for all NPCs), reading
as they did before they were core's.

"`GET /encounters/{id}/log`: a readable log, one sentence per event in the game's words
("Round 2. Mira's heavy attack with the sabre: 16 against Normal, two extra Successes on
Damage. Kess parries: 8, fails; the armour takes it: Outer layer stops 1, 3 Hits get
through. Kess is Afflicted and Bleeding."), filtered for the caller"."""

from __future__ import annotations

from typing import Any

import msgspec

from projections.readable_log import LogEvent, render
from tests.unit.test_readable_log import DUEL, TABLE


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


def pop(events: list[tuple[str, dict[str, Any]]], request: str = "r") -> list[LogEvent]:
    """Events after the table, all recorded by one command unless a request id is given."""
    return [LogEvent(len(TABLE) + 1 + i, tag, data, {"request_id": f"{request}{i}" if request == "each" else request})
            for i, (tag, data) in enumerate(events)]


def die(face: int, sides: int = 10) -> dict[str, Any]:
    return {"sides": sides, "face": face, "purpose": "x", "source": "seeded", "index": 0}


def test_an_exchange_reads_like_the_table_tells_it() -> None:
    """The issue's example, step by step: a heavy attack with the sabre, 16 against Normal,
    two extra Successes on Damage; Kess parries and fails; the armour takes it; Kess is
    Afflicted and Bleeding."""
    steps = [
        [("RoundStarted", {"round": 2, "action_points": {"id-bandit": 4, "id-mira": 4, "id-kess": 3}})],
        [("AttackDeclared", {"attack_id": 9, "attacker": "id-mira", "defender": "id-kess", "attack": "HeavyMelee",
                             "weapon": "Sabre", "band": "Melee", "gun": False, "melee": True, "modifiers": [],
                             "aim": "body", "difficulty": "Normal", "base_damage": 3, "action_points": 2}),
         ("AttackRolled", {"attack_id": 9, "dice": [die(9), die(7, 8)], "total": 16, "outcome": "Full Success",
                           "extra": 2})],
        [("SuccessesSpent", {"attack_id": 9, "split": ["Damage", "Damage"], "damage": 5,
                             "defence_difficulty": "Normal"})],
        [("DefenceRolled", {"attack_id": 9, "defender": "id-kess", "defence": "Parry", "action_points": 1,
                            "dice": [die(5), die(3)], "total": 8, "difficulty": "Normal", "success": False})],
        [("ArmourTook", {"attack_id": 9, "combatant_id": "id-kess", "damage": 4, "damage_through": 3,
                         "pieces": [], "used": ["Outer layer"], "destroyed": []}),
         ("HitsTaken", {"attack_id": 9, "combatant_id": "id-kess", "damage": 3, "hits": 3, "dead": False,
                        "helpless": False, "injuries": 0, "helpless_for_fight": False}),
         ("ExchangeEnded", {"attack_id": 9, "result": "hit"})],
        [("StatusApplied", {"combatant_id": "id-kess", "status": {"name": "Bleeding", "lasts": "until_removed"}})],
    ]
    events: list[LogEvent] = list(TABLE)
    for i, step in enumerate(steps):
        for tag, data in step:
            events.append(LogEvent(len(events) + 1, tag, data, {"request_id": f"step{i}"}))
    said = [(e.round, e.sentence) for e in render(events, "places-of-power")][len(TABLE):]
    assert said == [
        (2, "Round 2. Action Points: Kess 3, Mira 4 and the Bandit 4."),  # no order of play told: by name
        (2, "Mira attacks Kess: a heavy attack with the Sabre at Melee range (2 AP). "
            "16 against Normal: a Full Success, two extra Successes."),
        (2, "Mira puts the two extra Successes on Damage: 5 Hits of damage, defended at Normal."),
        (2, "Kess parries (1 AP): 8 against Normal, fails."),
        (2, "Kess's armour takes it: Outer layer stops 1, 3 Hits get through. Kess takes 3 Hits and is Afflicted."),
        (2, "Kess is Bleeding."),
    ]


def test_a_secret_roll_is_told_as_secret() -> None:
    events = [*TABLE, LogEvent(5, "InitiativeRolled", {
        "rolls": [{"who": "id-mira", "die": die(7, 12), "modifier": 2, "total": 9}, {"who": "npcs", "secret": True}],
        "order": ["id-bandit", "id-mira", "id-kess"], "secret": True})]
    (entry,) = render(events, "places-of-power")[len(TABLE):]
    assert entry.sentence == ("Initiative (the GM's roll is secret): Mira 7 + 2 = 9 and the GM for the NPCs in "
                              "secret. The order of play: the Bandit, Mira and Kess.")


def test_names_not_ids() -> None:
    """"Use names, not ids": a player's character by name, the GM's with the article, an id
    never named (a hidden combatant, filtered out of the caller's events) as "someone"."""
    events = [*TABLE, *pop([("RangeSet", {"a": "id-bandit", "b": "hidden-one", "band": "Near"})])]
    (entry,) = render(events, "places-of-power")[len(TABLE):]
    assert entry.sentence == "The Bandit and someone are at Near range."
    assert msgspec.json.decode(msgspec.json.encode(entry))["sentence"] == entry.sentence
