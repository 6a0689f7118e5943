"""The readable log (projections/readable_log.py, projections/places_of_power_log.py): every
event type has a sentence, any payload of it renders, and the story reads in the game's
words with names, not ids.

"`GET /encounters/{id}/log`: a readable log, one sentence per event in the game's words
("Round 2. Mira's heavy attack with the sabre: 16 against Normal, two extra Successes on
Damage. Kess parries: 8, fails; the armour takes it: Outer layer stops 1, 3 Hits get
through. Kess is Afflicted and Bleeding."), filtered for the caller"."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.log import missing_sentences, stray_sentences
from domain.rulesets import default_registry
from projections.readable_log import OUT_OF_SIGHT, LogEvent, as_text, render, sentences_for
from tests.unit.duel import Duel, Untold

RULESETS = default_registry().all()
EVENT_TYPES = sorted({(r.id, t.__struct_config__.tag, t) for r in RULESETS for t in r.event_types},
                     key=lambda x: (x[0], x[1]))
IDS = ["id-mira", "id-kess", "id-bandit", "id-unseen"]


@pytest.mark.parametrize("ruleset", [r.id for r in RULESETS])
def test_every_event_type_has_a_sentence(ruleset: str) -> None:
    """A new event type without a sentence fails here: each registered event type of each
    ruleset (the lifecycle's and the ruleset's own) has one of its own, not the generic."""
    known = sentences_for(ruleset)
    types = {t.__struct_config__.tag for t in default_registry().get(ruleset).event_types}
    assert types - known.keys() == set(), "event types without a sentence in the readable log"


def test_no_sentence_for_an_event_type_that_is_gone() -> None:
    known = {tag for r in RULESETS for tag in sentences_for(r.id)}
    registered = {t.__struct_config__.tag for r in RULESETS for t in r.event_types}
    assert known - registered == set(), "sentences for event types no ruleset has"


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.id for r in RULESETS])
def test_no_registered_ruleset_misses_a_sentence(ruleset: Any) -> None:
    """The helper a contract test over the registry calls: every event type is told, and no
    sentence is left for an event type the ruleset no longer has."""
    assert missing_sentences(ruleset) == set()
    assert stray_sentences(ruleset) == set()


def test_missing_sentences_finds_an_event_type_without_one() -> None:
    assert missing_sentences(Duel()) == {"Shrugged"}
    assert missing_sentences(Untold()) == {"AttackDeclared", "Struck", "Shrugged"}


DUEL = [
    LogEvent(1, "EncounterOpened", {"encounter_id": "e", "ruleset": "duel", "name": "At dawn",
                                    "dice_policy": "seeded", "seed_commitment": "sha256:00"}),
    LogEvent(2, "CombatantAdded", {"combatant_id": "id-mira", "name": "Mira", "side": "party", "controller": "player",
                                   "sheet": {}, "action_points": 3}),
    LogEvent(3, "CombatantAdded", {"combatant_id": "id-bandit", "name": "Bandit", "side": "enemies",
                                   "controller": "gm", "sheet": {}}),
    LogEvent(4, "InitiativeRolled", {"rolls": [{"who": "id-mira", "die": {"face": 4}, "modifier": 0, "total": 4},
                                               {"who": "npcs", "die": {"face": 2}, "modifier": 0, "total": 2}],
                                     "order": ["id-mira", "id-bandit"]}),
    LogEvent(5, "RoundStarted", {"round": 2, "action_points": {"id-mira": 3, "id-bandit": 3}}),
    LogEvent(6, "AttackDeclared", {"blow": 1, "by": "id-mira", "at": ["id-bandit"]}),
    LogEvent(7, "Struck", {"blow": 1, "combatant_id": "id-bandit", "wounds": 2}, {"request_id": "r6"}),
    LogEvent(8, "TurnEnded", {"combatant_id": "id-mira", "action_points": 2}),
]


def test_the_lifecycle_speaks_no_game_and_a_ruleset_tells_its_own_events() -> None:
    """Core's sentences name no game's points or groups ("keeping N Action Points", "the GM
    for the NPCs" are Places of Power's words, lent by its ruleset); a ruleset's own events
    are told with its own sentences, whatever their shape."""
    said = [e.sentence for e in render(DUEL, Duel())]
    assert said == [
        "The encounter “At dawn” opens: Duel, seeded dice.",
        "Mira joins the fight on the party side.",
        "The Bandit joins the fight on the enemies side.",
        "Initiative: Mira 4 + 0 = 4 and someone 2 + 0 = 2. The order of play: Mira and the Bandit.",
        "Round 2.",
        "Mira swings at the Bandit.",
        "The Bandit takes 2 wounds.",
        "Mira ends the turn.",
    ]


def test_an_unknown_event_type_gets_a_generic_sentence() -> None:
    events = [LogEvent(1, "CombatantAdded", {"combatant_id": "x", "name": "Mira", "controller": "player"}),
              LogEvent(2, "SpellChanneled", {"combatant_id": "x", "mana": 3}),
              LogEvent(3, "WeatherTurned", {})]
    said = [e.sentence for e in render(events, "novus")]
    assert said[1:] == ["Mira: spell channeled.", "Weather turned."]


# --------------------------------------------------------- any payload of any type renders


# fields that name combatants: drawn from the table's ids (and one the log never saw named)
REFS = {"combatant_id", "attacker", "defender", "target", "healer", "caster", "holder", "controller", "held",
        "patient", "toward", "a", "b", "winner", "source", "who", "order", "fled", "suppressed"}


def values(t: Any, ref: bool = False) -> st.SearchStrategy[Any]:
    """JSON values of the shape ``t`` describes (msgspec.inspect); ``ref``: a combatant's id."""
    match t:
        case mi.Metadata():  # a combatant's id is typed as one (domain/core/concerns.py)
            return values(t.type, ref or (t.extra or {}).get("concerns") == "combatant")
        case mi.StrType():
            return st.sampled_from(IDS) if ref else st.text(max_size=12)
        case mi.IntType():
            return st.integers(-3, 40)
        case mi.BoolType():
            return st.booleans()
        case mi.FloatType():
            return st.floats(allow_nan=False, width=32)
        case mi.NoneType():
            return st.none()
        case mi.LiteralType():
            return st.sampled_from(t.values)
        case mi.ListType() | mi.VarTupleType() | mi.SetType() | mi.FrozenSetType():
            return st.lists(values(t.item_type, ref), max_size=3)
        case mi.DictType():
            return st.dictionaries(st.sampled_from(IDS), values(t.value_type), max_size=3)
        case mi.UnionType():
            return st.one_of(*(values(x, ref) for x in t.types))
        case mi.StructType():
            def field(f: Any) -> st.SearchStrategy[Any]:
                return values(f.type, f.encode_name in REFS)
            return st.fixed_dictionaries({f.encode_name: field(f) for f in t.fields if f.required},
                                         optional={f.encode_name: field(f) for f in t.fields if not f.required})
        case _:  # Any and the rest: something JSON
            return st.none() | st.integers(0, 9) | st.text(max_size=5) | st.dictionaries(
                st.text(max_size=5), st.integers(), max_size=2)


def payloads(event_type: type) -> st.SearchStrategy[dict[str, Any]]:
    return values(mi.type_info(event_type))


TABLE = [
    LogEvent(1, "EncounterOpened", {"encounter_id": "e", "ruleset": "places-of-power", "name": "Ambush",
                                    "dice_policy": "seeded", "seed_commitment": "sha256:00"}),
    LogEvent(2, "CombatantAdded", {"combatant_id": "id-mira", "name": "Mira", "side": "party", "controller": "player",
                                   "sheet": {}}),
    LogEvent(3, "CombatantAdded", {"combatant_id": "id-kess", "name": "Kess", "side": "party", "controller": "player",
                                   "sheet": {}}),
    LogEvent(4, "CombatantAdded", {"combatant_id": "id-bandit", "name": "Bandit", "side": "enemies", "controller": "gm",
                                   "sheet": {}}),
]


@settings(max_examples=25, deadline=None)
@pytest.mark.parametrize(("ruleset", "tag", "event_type"), EVENT_TYPES, ids=[f"{r}:{t}" for r, t, _ in EVENT_TYPES])
@given(data=st.data())
def test_any_payload_renders_a_sentence(ruleset: str, tag: str, event_type: type, data: st.DataObject) -> None:
    """Whatever the payload (a viewer's is filtered: secret faces gone, unknown ids), the
    sentence is text, starts with a capital and names no id."""
    payload = data.draw(payloads(event_type))
    (entry,) = render([*TABLE, LogEvent(5, tag, payload)], ruleset)[len(TABLE):]
    assert entry.versions == [5]
    assert entry.sentence and entry.sentence[0] == entry.sentence[0].upper()
    for cid in IDS:
        assert cid not in entry.sentence, entry.sentence


# ------------------------------------------------------------------------- the game's words


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


def test_a_redacted_run_is_one_line_out_of_sight() -> None:
    events = [*TABLE,
              LogEvent(5, "Redacted", {}), LogEvent(6, "Redacted", {}),
              LogEvent(7, "TurnEnded", {"combatant_id": "id-mira"}, {"request_id": "a"}),
              LogEvent(8, "Redacted", {})]
    entries = render(events, "places-of-power")[len(TABLE):]
    assert [(e.versions, e.sentence) for e in entries] == [
        ([5, 6], OUT_OF_SIGHT), ([7], "Mira ends the turn."), ([8], OUT_OF_SIGHT)]


def test_a_retcon_is_told_and_what_it_undid_is_marked() -> None:
    events = [*TABLE,
              LogEvent(5, "RoundStarted", {"round": 1, "action_points": {}}, {"request_id": "a"}),
              LogEvent(6, "TurnEnded", {"combatant_id": "id-mira"}, {"request_id": "b"}),
              LogEvent(7, "RoundStarted", {"round": 2, "action_points": {}}, {"request_id": "b"}),
              LogEvent(8, "Retconned", {"to_version": 5, "undone_from": 6, "undone_to": 7, "reason": "wrong turn"},
                       {"request_id": "c"}),
              LogEvent(9, "TurnEnded", {"combatant_id": "id-kess"}, {"request_id": "d"})]
    entries = render(events, "places-of-power")[len(TABLE):]
    assert [(e.versions, e.round, e.undone, e.sentence) for e in entries] == [
        ([5], 1, False, "Round 1."),
        ([6], 1, True, "Mira ends the turn."),
        ([7], 2, True, "Round 2."),
        ([8], 1, False, "The GM undid events 6-7: wrong turn."),  # back in round 1
        ([9], 1, False, "Kess ends the turn."),
    ]
    text = as_text(entries).splitlines()
    assert text[1] == "        6  (undone) Mira ends the turn."
    assert text[3] == "        8  The GM undid events 6-7: wrong turn."


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
