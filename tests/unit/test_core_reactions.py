"""The reaction window (domain/core/reactions.py): who may react, their answers, the GM's close."""

from __future__ import annotations

import pytest

from domain.core import reactions
from domain.core.errors import RuleViolation


def window() -> reactions.ReactionWindow:
    """RealmsRPG Defend: "You can defend an ally or yourself from being attacked if both the
    attacker and the ally are within 1 space of you and if the attack would hit": the defender
    and an ally beside them may answer the attack."""
    return reactions.open_window("attack:7", "ogre", ["rook", "vex"], ("defend", "dodge"), "the Ogre's attack").window


def test_the_window_waits_on_everyone_who_may_react_until_they_answer() -> None:
    w = window()
    assert w.waiting_on() == ["rook", "vex"] and not w.settled
    decided = reactions.decisions(w)
    assert [(d.combatant_id, d.command, [c.name for c in d.choices]) for d in decided] == [
        ("rook", "React", ["defend", "dodge"]), ("vex", "React", ["defend", "dodge"])]
    passed = reactions.decide_pass(w, reactions.PassReaction(combatant_id="rook", window="attack:7"), "Rook")
    w = reactions.evolve_window(w, passed)
    w = reactions.answered(w, "vex", "defend")
    assert w.settled and w.reacted() == {"vex": "defend"}
    assert reactions.decisions(w) == []


def test_answers_out_of_place_are_refused() -> None:
    w = window()
    with pytest.raises(RuleViolation) as refused:
        reactions.check_answer(w, "attack:7", "ogre", "Ogre")
    assert refused.value.code == "may_not_react"
    with pytest.raises(RuleViolation) as refused:
        reactions.check_answer(w, "attack:8", "rook", "Rook")
    assert refused.value.code == "no_reaction_window"
    with pytest.raises(RuleViolation) as refused:
        reactions.check_answer(reactions.answered(w, "rook", "dodge"), "attack:7", "rook", "Rook")
    assert refused.value.code == "already_answered"
    with pytest.raises(RuleViolation) as refused:
        reactions.check_reaction(w, "counter")
    assert refused.value.code == "reaction_not_allowed"


def test_the_gm_closes_the_window_for_whoever_has_not_answered() -> None:
    w = reactions.answered(window(), "rook", "dodge")
    closed = reactions.decide_close(w, reactions.CloseReactions(window="attack:7"))
    assert closed.passed == ["vex"]
    w = reactions.evolve_window(w, closed)
    assert w.settled and w.reacted() == {"rook": "dodge"}
    with pytest.raises(RuleViolation) as refused:
        reactions.decide_close(w, reactions.CloseReactions(window="attack:7"))
    assert refused.value.code == "no_reaction_window"
