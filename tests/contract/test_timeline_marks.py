"""The timeline's marks for every ruleset (projections/timeline.py), read through the contract's
statistics door: "each action, hit and decision marked, hidden parts absent for viewers who may
not see them" (issue 22). A random walk of each ruleset, some NPCs hidden."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.core.ruleset import Ruleset
from domain.core.tally import Exchange
from projections import timeline
from tests.contract.rulesets import declaring, each_ruleset
from tests.contract.walk import walked


def counted(ruleset: Ruleset, events: list, statistic: str, hidden: frozenset[str]) -> int:
    """Events in which someone has ``statistic`` counted, with no hidden combatant in the count."""
    sides: dict[int, tuple[str, str]] = {}
    n = 0
    for event in events:
        step = ruleset.exchange(event)
        attack = None
        if step is not None:
            if step.opens is not None:
                sides[step.id] = (step.opens.attacker, step.opens.defender)
            attack = Exchange(step.id, *sides[step.id]) if step.id in sides else None
        n += len({t.combatant for t in ruleset.tally(event, attack) if t.statistic == statistic and t.amount
                  and t.combatant not in hidden and t.opponent not in hidden})
    return n


@each_ruleset(declaring("tally"))
def test_every_attack_and_hit_is_marked_and_nothing_hidden(ruleset: Ruleset) -> None:
    kinds: set[str] = set()
    for seed in range(6):
        table = walked(ruleset, seed, 60)
        events = list(enumerate(table.events, start=1))
        hidden = frozenset(c for c in table.hidden if c in table.state.concealed)
        everything = timeline.marks(ruleset, events, frozenset(), lambda _: False)
        kinds |= {m.kind for m in everything}
        assert sum(m.kind == "attack" for m in everything) == counted(ruleset, table.events, "attacks_made", frozenset())
        assert sum(m.kind == "hit" for m in everything) == counted(ruleset, table.events, "hits_taken", frozenset())
        concealed = set(table.state.concealed_events)
        seen = timeline.marks(ruleset, events, hidden, concealed.__contains__)
        assert not any(m.combatant in hidden for m in seen)
        assert sum(m.kind == "attack" for m in seen) <= sum(m.kind == "attack" for m in everything)
        rows = timeline.rows_of(table.state.combatants, table.state.order)
        picture = timeline.svg(table.state.name, rows, everything)
        ET.fromstring(picture)  # well-formed
        assert picture == timeline.svg(table.state.name, rows, everything)
        shown = timeline.svg(table.state.name, [r for r in rows if r[0] not in hidden], seen)
        for cid in hidden:
            assert cid not in shown and table.hidden[cid] not in shown
    assert {"attack", "hit", "turn"} <= kinds  # the walks do attack and hit: the checks above are not empty
