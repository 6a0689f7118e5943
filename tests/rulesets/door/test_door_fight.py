"""A whole fight of Hold the Door (tests/rulesets/door/ruleset.py) through the decider, the way
the server drives it: the test-only ruleset uses core's resources, phases, reaction window,
durations, several-dice initiative and end-of-round step, and its replay equals the live state."""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.encounter import AddCombatant, EndTurn, RollInitiative, RoundStarted, StartEncounter, TurnEnded
from domain.core.resources import held
from tests.rulesets.decider import DeciderFight
from tests.rulesets.door.ruleset import (
    ActionDeclared, Bled, Braced, CancelDeclared, Declare, Door, Parried, Resolve, StrikeRolled, Waited, rules,
)

ENCOUNTER = "0d00d00d-0000-4000-8000-000000000001"


class Fight(DeciderFight):
    def __init__(self) -> None:
        super().__init__(Door(), ENCOUNTER, "At the door")

    def held(self, cid: str) -> dict[str, int]:
        return held(self.state.combatants[cid])


def two_fighters() -> Fight:
    f = Fight()
    f.send(AddCombatant(combatant_id="hero", name="Hero", side="party", controller="player",
                        sheet={"might": 1, "guard": 2, "hits": 6}))
    f.send(AddCombatant(combatant_id="troll", name="Troll", side="enemies", controller="gm",
                        sheet={"might": 0, "guard": 1, "hits": 2}))
    # Hero: 7 + 5 + 1 = 13. Troll: 10 explodes ("A 10 on either die is added and that die is
    # rolled again"): 10 + 4 + 3 = 17.
    f.send(RollInitiative(dice=[7, 5, 10, 4, 3]))
    return f


def test_initiative_of_several_dice_is_written_and_read_back() -> None:
    f = two_fighters()
    rolled = f.events[-1]
    troll = next(r for r in rolled.rolls if r.who == "troll")
    assert [d.face for d in troll.all_dice] == [10, 4, 3]
    assert troll.total == 17 and f.state.order == ["troll", "hero"]
    assert f.state.rolls_used == 0  # reported dice are not seeded rolls
    assert f.ruleset.replay(f.events) == f.state


def test_a_whole_fight_through_phases_reactions_and_the_end_of_round_step() -> None:
    f = two_fighters()
    f.send(StartEncounter())
    # resources: 2 Actions at each round's start, 1 Reaction from the fight's start
    assert f.held("hero") == {"actions": 2, "reaction": 1} == f.held("troll")

    # declare phase: lowest initiative first
    assert [d.combatant_id for d in f.ruleset.pending(f.state)] == ["hero"]
    assert f.refused(Declare(combatant_id="troll", action="brace")).code == "not_your_move"
    f.send(Declare(combatant_id="hero", action="strike", target="troll"))
    assert f.held("hero")["actions"] == 0
    f.send(Declare(combatant_id="troll", action="brace"))

    # resolve phase: highest first, on one's turn; the turn cannot end before resolving
    assert f.refused(Declare(combatant_id="hero", action="wait")).code == "wrong_phase"
    assert f.refused(EndTurn(combatant_id="troll")).code == "door_resolve_first"
    assert f.refused(Resolve(combatant_id="hero")).code == "not_your_turn"
    assert isinstance(f.send(Resolve(combatant_id="troll"))[0], Braced)
    f.send(EndTurn(combatant_id="troll"))

    # the hero's strike waits while the troll may parry
    opened = f.send(Resolve(combatant_id="hero"))
    assert isinstance(opened[0], reactions.ReactionsOpened)
    waiting = f.ruleset.pending(f.state)
    assert [(d.kind, d.combatant_id, [c.name for c in d.choices]) for d in waiting] == [("reaction", "troll", ["parry"])]
    assert f.refused(EndTurn(combatant_id="hero")).code == "door_resolve_first"
    window = rules(f.state).window.id
    parried = f.send(reactions.React(combatant_id="troll", window=window, reaction="parry", dice=[5]))
    assert [type(e) for e in parried] == [Parried, StrikeRolled]
    assert parried[1].damage == 5 - 1 - 2  # less the Guard (parried), less 2 (braced)
    assert f.held("troll")["reaction"] == 0
    assert f.ruleset.hits(f.state, "troll") == 0

    # the round ends: the troll, down to 0 Hits, bleeds (a d6: 1 to 3 loses a Hit)
    ended = f.send(EndTurn(combatant_id="hero", dice=[2]))
    assert [type(e) for e in ended] == [TurnEnded, Bled, RoundStarted]
    assert f.ruleset.hits(f.state, "troll") == -1
    assert "troll" not in rules(f.state).braced  # the Brace lasted to the end of the round
    assert f.held("hero") == {"actions": 2, "reaction": 1}  # the hero's Reaction came back at their turn's end
    # the troll's Reaction, spent between its turns, comes back only at the end of its next one
    assert f.held("troll") == {"actions": 2, "reaction": 0}

    # round 2: a declared action cancelled before it resolves; the GM closes a reaction window
    f.send(Declare(combatant_id="hero", action="strike", target="troll"))
    f.send(Declare(combatant_id="troll", action="strike", target="hero"))
    f.send(CancelDeclared(combatant_id="hero"))
    f.send(Resolve(combatant_id="troll"))
    window = rules(f.state).window.id
    assert f.refused(reactions.CloseReactions(window="strike:1")).code == "no_reaction_window"
    closed = f.send(reactions.CloseReactions(window=window, dice=[6]))
    assert [type(e) for e in closed] == [reactions.ReactionsClosed, StrikeRolled]
    assert closed[0].passed == ["hero"] and closed[1].damage == 6
    f.send(EndTurn(combatant_id="troll"))
    assert f.held("troll")["reaction"] == 1
    assert isinstance(f.send(Resolve(combatant_id="hero"))[0], Waited)
    ended = f.send(EndTurn(combatant_id="hero", dice=[4, 1]))
    assert [(type(e), getattr(e, "lost", None)) for e in ended] == [
        (TurnEnded, None), (Bled, 0), (Bled, 1), (RoundStarted, None)]
    assert f.ruleset.hits(f.state, "hero") == -1

    assert f.ruleset.replay(f.events) == f.state
    assert msgspec.json.decode(msgspec.json.encode(f.events), type=list[f.ruleset.event_type]) == f.events


def test_a_reaction_passed_lets_the_strike_land_whole() -> None:
    f = two_fighters()
    f.send(StartEncounter())
    f.send(Declare(combatant_id="hero", action="wait"))
    f.send(Declare(combatant_id="troll", action="strike", target="hero"))
    f.send(Resolve(combatant_id="troll"))
    window = rules(f.state).window.id
    assert f.refused(reactions.PassReaction(combatant_id="troll", window=window)).code == "may_not_react"
    assert f.refused(reactions.React(combatant_id="hero", window=window, reaction="dodge")).code == "reaction_not_allowed"
    landed = f.send(reactions.PassReaction(combatant_id="hero", window=window, dice=[3]))
    assert [type(e) for e in landed] == [reactions.ReactionPassed, StrikeRolled]
    assert landed[1].damage == 3 and not landed[1].parried
    assert f.held("hero")["reaction"] == 1  # passing spends no Reaction
    assert f.ruleset.replay(f.events) == f.state


def test_seeded_steps_roll_in_order_and_replay() -> None:
    """The end-of-round step rolls the encounter's seeded dice, continuing after the command's."""
    f = two_fighters()
    f.send(StartEncounter())
    for _ in range(3):
        for cid in ("hero", "troll"):
            f.send(Declare(combatant_id=cid, action="strike", target="troll" if cid == "hero" else "hero"))
        for cid in ("troll", "hero"):
            f.send(Resolve(combatant_id=cid))
            w = rules(f.state).window
            if w is not None and not w.settled:
                f.send(reactions.PassReaction(combatant_id=w.may_react[0], window=w.id))
            f.send(EndTurn(combatant_id=cid))
    seeded = [d.index for e in f.events for d in e.dice_rolled() if d.source == "seeded"]
    assert seeded == list(range(len(seeded))) and any(isinstance(e, Bled) for e in f.events)
    assert f.state.round == 4
    assert f.ruleset.replay(f.events) == f.state
    assert isinstance(f.events[-1], RoundStarted) and not any(isinstance(e, ActionDeclared) for e in f.events[-3:])


def test_a_hidden_fighter_is_left_out_of_the_door_s_state_for_a_player() -> None:
    """The door's own state names combatants (declared actions, the reaction window): a player
    sees none of a hidden one's (``Door.conceal_rules``, through ``projections.visibility``)."""
    from projections import visibility
    from domain.core.ruleset import Registry

    visibility.serve(Registry([Door()]))
    f = two_fighters()
    f.send(AddCombatant(combatant_id="lurker", name="Lurker", side="enemies", controller="gm", hidden=True,
                        sheet={"might": 0}))
    f.send(RollInitiative(dice=[7, 5, 10, 4, 3, 2, 2]))
    f.send(StartEncounter())
    f.send(Declare(combatant_id="lurker", action="strike", target="hero"))
    f.send(Declare(combatant_id="hero", action="strike", target="troll"))
    gm = visibility.state_for(f.state, visibility.GM)  # a game without Action Points: shown without them
    assert set(gm["rules"]["declared"]) == {"lurker", "hero"} and "action_points" not in gm["combatants"]["hero"]
    player = visibility.state_for(f.state, visibility.Viewer("player", frozenset({"hero"})))
    assert set(player["rules"]["declared"]) == {"hero"}
    assert "lurker" not in player["combatants"] and "lurker" not in str(player["rules"])
