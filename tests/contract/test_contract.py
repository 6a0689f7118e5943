"""What every ruleset brings through the one door (issue 18, "Tests"): "every event type has a
log sentence; coverage headings equal the rule text's headings; violation codes are unique and
documented; the app and its OpenAPI document build" — run over every registered ruleset and the
test-only one, the way one abstract test case runs over every backend."""

from __future__ import annotations

import re
import sys
from abc import ABC
from pathlib import Path

from domain.core.errors import CODES
from domain.core.game import WRAPPABLE, Game
from domain.core.log import missing_sentences, stray_sentences
from domain.core.ruleset import Registry, Ruleset
from server.app import create_app
from server.schema.openapi_rulesets import prefix_of
from tests.contract.rulesets import RULESETS, declaring, each_ruleset, rule_text


@each_ruleset()
def test_every_event_type_has_a_log_sentence(ruleset: Ruleset) -> None:
    assert missing_sentences(ruleset) == set(), "told only generically"
    assert stray_sentences(ruleset) == set(), "a sentence for an event type the ruleset lacks"


def _raised(folder: Path) -> set[str]:
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        found |= set(re.findall(r'RuleViolation\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


@each_ruleset()
def test_violation_codes_are_unique_and_documented(ruleset: Ruleset) -> None:
    own = ruleset.own_codes
    assert set(own).isdisjoint(CODES), "a ruleset's own code redefines a lifecycle code"
    assert all(re.fullmatch(r"[a-z][a-z_]*", code) for code in own)
    assert all(meaning.strip() for meaning in ruleset.violation_codes.values()), "a code without its meaning"
    package = Path(sys.modules[type(ruleset).__module__].__file__).parent
    assert _raised(package) - set(ruleset.violation_codes) == set(), "raised but not in the ruleset's table"
    others = [r for r in RULESETS if r is not ruleset]
    for other in others:  # one ruleset's own codes mean one thing: the same code, the same words
        for code in set(own) & set(other.own_codes):
            assert own[code] == other.own_codes[code], code


def test_the_app_and_its_openapi_document_build_with_every_ruleset() -> None:
    app = create_app("postgresql://unused@localhost/none", registry=Registry(RULESETS))
    doc = app.openapi_schema.to_schema()
    schemas = doc["components"]["schemas"]
    for r in RULESETS:  # each ruleset's commands and events, one union each, switched on by `type`
        for kind, types in (("Command", r.command_types), ("Event", r.event_types)):
            union = schemas[f"{prefix_of(r)}.{kind}"]
            mapping = union["discriminator"]["mapping"]
            assert set(mapping) == {t.__struct_config__.tag for t in types}, (r.id, kind)
            assert all(ref.removeprefix("#/components/schemas/") in schemas for ref in mapping.values())


def headings(text: str) -> list[str]:
    """A rule text's section headings: its short lines that are neither bullets nor sentences."""
    lines = [x.strip() for x in text.splitlines()]
    return [x for x in lines if 0 < len(x) < 45 and not x.startswith("•") and not x.endswith(".")]


def _game_members() -> set[str]:
    return {n for n in vars(Game) if not n.startswith("_")} | set(Game.__annotations__)


def _overrides(ruleset: Ruleset) -> dict[str, str]:
    """What the game's own classes define that ``Ruleset`` has too: name -> the class that does."""
    core = {n for n in dir(Ruleset) if not n.startswith("__")} - {"_abc_impl"}
    return {name: klass.__name__ for klass in reversed(type(ruleset).__mro__)
            if not klass.__module__.startswith(("domain.core", "builtins", "abc", "typing"))
            for name in vars(klass) if name in core}


@each_ruleset()
def test_a_game_fills_in_the_game_protocol_and_overrides_nothing_else_of_core(ruleset: Ruleset) -> None:
    """Issue 41: "A Game protocol holds what a game fills in: its commands, decide, evolve, and its
    facts [...] An engine used by composition does the rest". Every registered game is a ``Game``
    (domain/core/game.py), and what it defines of core's is a member of it (or one of the engine's
    doors it may wrap for speed, calling core's): core may change everything else without
    breaking a game."""
    assert isinstance(ruleset, Game)
    stray = {f"{klass}.{name}" for name, klass in _overrides(ruleset).items()
             if name not in _game_members() | WRAPPABLE}
    assert stray == set()


def test_the_game_protocol_names_only_what_core_gives_a_default_or_requires() -> None:
    """Each member of ``Game`` is a hook of ``Ruleset`` (a default, or abstract), so the page is the
    contract and nothing on it is a stray name; and the engine's parts are composed, not inherited."""
    assert _game_members() <= {n for n in dir(Ruleset)} | set(Ruleset.__annotations__)
    assert Ruleset.__mro__[1:] == (ABC, object)


def test_the_protocol_check_refuses_a_game_that_overrides_an_engine_part() -> None:
    """The check above fails for a game that redefines the fold's door (shown, so it would catch one)."""
    from tests.rulesets.door.ruleset import Door

    class Sneaky(Door):
        def replay(self, events, state=None):  # type: ignore[no-untyped-def]
            return super().replay(events, state)

    assert set(_overrides(Sneaky())) - _game_members() - WRAPPABLE == {"replay"}


@each_ruleset()
def test_each_capability_declared_is_there_and_none_undeclared(ruleset: Ruleset) -> None:
    """Issue 41: "Optional capabilities are declared, not implied: demo, coverage, odds, tally. The bench
    and doc tests ask only the games that declare them." What a game declares, it has; what it has, it
    declares."""
    has = {"demo": ruleset.demo() is not None, "coverage": ruleset.coverage() is not None,
           "odds": ruleset.odds_query is not None,
           "tally": type(ruleset).tally is not Ruleset.tally or type(ruleset).exchange is not Ruleset.exchange}
    assert ruleset.capabilities <= set(has), f"unknown capabilities: {ruleset.capabilities - set(has)}"
    assert {k for k, v in has.items() if v} == set(ruleset.capabilities)


@each_ruleset(declaring("coverage"))
def test_the_coverage_table_follows_each_rule_texts_headings(ruleset: Ruleset) -> None:
    assert ruleset.rule_texts, f"{ruleset.id} names no rule text its coverage follows"
    rows = ruleset.coverage() or []
    for chapter in ruleset.rule_texts:
        text = rule_text(ruleset, chapter).read_text(encoding="utf-8")
        assert [s.heading for s in rows if s.chapter == chapter and s.part_of is None] == headings(text), chapter
        for s in rows:  # a lead-in's row: under a heading of the text, a lead-in of that text
            if s.chapter == chapter and s.part_of is not None:
                assert s.part_of in headings(text), s.heading
                assert re.search(rf"^{re.escape(s.heading)}[.:!]", text, re.MULTILINE), s.heading
    assert {s.chapter for s in rows} <= set(ruleset.rule_texts), "a row of a chapter the ruleset does not name"
    assert all(s.how for s in rows)


@each_ruleset(declaring("coverage"))
def test_every_coverage_row_is_enforced_or_the_gms(ruleset: Ruleset) -> None:
    """Issue 39: "Each row is either enforced or the GM's, through a command": what the engine does not
    enforce is the GM's to rule on, and no rule of the text is left half done."""
    rows = ruleset.coverage() or []
    assert [(s.heading, s.support) for s in rows if s.support not in ("enforced", "gm")] == []


@each_ruleset()
def test_a_player_may_send_only_commands_that_name_the_combatant_who_acts(ruleset: Ruleset) -> None:
    """The door ``Ruleset.senders`` (issue 22, the player's page: "commands they may send"):
    the GM sends every command; a player only one naming the combatant who acts (its
    ``actor_field``), for their own, so no ruleset lets a player act without a combatant."""
    for kind in ruleset.command_types:
        senders = ruleset.senders(kind)
        assert "gm" in senders and set(senders) <= {"gm", "player"}, kind
        if "player" in senders:
            assert kind.actor_field is not None, f"{kind.__name__}: a player's command names who acts"
    offered = {k.__struct_config__.tag for k in ruleset.command_types if "player" in ruleset.senders(k)}
    assert "EndTurn" in offered and not offered & {"AddCombatant", "RollInitiative", "Retcon", "RevealRoll"}
