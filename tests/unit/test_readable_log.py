"""The readable log (projections/readable_log.py, domain/core/log.py): every event type of
every registered ruleset has a sentence (``missing_sentences``), any payload of it renders,
core's sentences speak no game's words, and lines, redactions and retcons are told. Places
of Power's own story: tests/rulesets/places_of_power/test_log.py."""

from __future__ import annotations

from typing import Any

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
    """Each sentence tells an event type some ruleset has, or one of core's own that a ruleset
    opts in to (a reaction window's: domain/core/reactions.py)."""
    from domain.core import reactions

    known = {tag for r in RULESETS for tag in sentences_for(r.id)}
    registered = {t.__struct_config__.tag for r in RULESETS for t in r.event_types}
    shared = {t.__struct_config__.tag for t in reactions.EVENTS}
    assert known - registered - shared == set(), "sentences for event types neither a ruleset nor core has"


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


# ------------------------------------------------------------- lines, redactions, retcons


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
