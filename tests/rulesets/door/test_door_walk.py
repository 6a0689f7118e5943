"""A walk of Hold the Door driven only by what the ruleset says it waits for (``pending``): every
decision it shows is answerable with the command and choices it names, the fight never stalls,
and the replay of the events equals the live state."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core import reactions
from domain.core.encounter import AddCombatant, EndTurn, RollInitiative, StartEncounter
from tests.rulesets.door.test_door_fight import Fight


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=10, max_size=80),
       st.integers(min_value=2, max_value=4))
def test_every_pending_decision_is_answerable_and_replay_equals_the_live_state(picks: list[int], fighters: int) -> None:
    f = Fight()
    for i in range(fighters):
        f.send(AddCombatant(combatant_id=f"c{i}", name=f"C{i}", side="party" if i % 2 else "enemies",
                            controller="player" if i % 2 else "gm", sheet={"might": i % 3, "guard": 1, "hits": 3}))
    f.send(RollInitiative())
    f.send(StartEncounter())
    decoder = f.ruleset.command_decoder
    for pick in picks:
        waiting = f.ruleset.pending(f.state)
        if not waiting:
            f.send(EndTurn(combatant_id=f.state.turn))  # nothing waits: the turn may end
            continue
        d = waiting[pick % len(waiting)]
        assert d.combatant_id in f.state.combatants
        if d.kind == "reaction" and pick % 3 == 1:
            f.send(reactions.PassReaction(combatant_id=d.combatant_id, window=d.body["window"]))
        elif d.kind == "reaction" and pick % 3 == 2:
            f.send(reactions.CloseReactions(window=d.body["window"]))
        else:
            body = dict(d.body, type=d.command)
            if d.choice_field is not None:
                assert d.choices, d
                body[d.choice_field] = d.choices[pick % len(d.choices)].name
            f.send(decoder.decode(msgspec.json.encode(body)))  # the decision's own command is legal
        assert d.id not in {x.id for x in f.ruleset.pending(f.state)}  # answered: it waits no more
    assert f.ruleset.replay(f.events) == f.state
    assert f.state.version == len(f.events)
