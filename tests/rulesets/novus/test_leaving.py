"""The GM takes a combatant out in the middle of a Novus round: what waited on them goes on, an
attack declared on them lapses, and nothing of theirs stays in the round's books."""

from __future__ import annotations

from domain.core.encounter import AddCombatant, EndTurn, RemoveCombatant
from tests.rulesets.novus.fight import ORC, attack, started, types


def test_boon_points_of_a_hit_on_one_taken_out_no_longer_hold_the_turn() -> None:
    """Boon Points "must be spent at once": on a foe no longer in the fight there is nothing to spend
    them on, so the attacker's resolution goes on at once and the turn may end."""
    f = started()
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    [rolled] = f.resolve("kael", [10, 9, 8])
    assert rolled.boon_points == 1 and f.rules.boons_due is not None
    out = f.send(RemoveCombatant(combatant_id="orc"))
    assert types(out) == ["CombatantRemoved", "NovusActionsResolved"]
    assert f.rules.boons_due is None and f.ruleset.pending(f.state) == []
    assert "orc" not in f.rules.hits_lost and "orc" not in f.rules.declared and "orc" not in f.rules.ip
    f.send(EndTurn(combatant_id="kael"))
    assert f.ruleset.replay(f.events) == f.state


def test_an_attack_declared_on_one_taken_out_lapses_and_one_added_again_is_not_its_target() -> None:
    """The declaration named the one taken out; the one the GM seats again under that id starts
    afresh and is not attacked by it."""
    f = started()
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    f.send(RemoveCombatant(combatant_id="orc"))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    out = f.resolve("kael")
    assert types(out) == ["NovusActionTaken", "NovusActionsResolved"] and out[0].lapsed
    assert f.hp("orc") == 30 and "orc" not in f.rules.hits_lost
    assert f.ruleset.replay(f.events) == f.state
