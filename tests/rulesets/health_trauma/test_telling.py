"""What Health/Trauma tells: the log in the game's words, the statistics, the odds, and what a
player may see of a hidden combatant."""

from __future__ import annotations

import msgspec

from domain.core.log import story_for
from domain.core.tally import Tally
from domain.health_trauma.events import Attack, RollInjury
from domain.health_trauma.odds import AttackOddsQuery, attack_odds
from tests.rulesets.health_trauma.fight import BANDIT, started


def told(ruleset, events) -> list[str]:
    story = story_for(ruleset)
    sentences = ruleset.sentences()
    out = []
    for e in events:
        d = msgspec.to_builtins(e)
        kind = d["type"]
        if kind == "CombatantAdded":
            story.meet(d["combatant_id"], d["name"], d["controller"])
        if kind in sentences:
            out.append(sentences[kind](d, story))
    return out


def test_the_injury_is_told_in_the_games_words() -> None:
    """"Roll 1D10, add five for each injury you already have, then consult the chart." """
    f = started(bandit={**BANDIT, "physique": 5})
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))
    f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 6]))
    f.send(RollInjury(combatant_id="bandit", dice=[5]))
    lines = told(f.ruleset, f.events)
    assert "The Bandit rolls for the injury: 5 + 5 × 0 = 5, sliced muscle, cracked bones. -1 to Skill Tests, " \
           "Saves and Damage Rolls until Trauma is 0." in lines
    assert "Mira's Attack Test with the Sword: 10, 15 against the Bandit's Guard 2: a hit. Damage 6 = 6, less " \
           "Protection 0: 6." in lines


def test_an_attack_counts_in_the_statistics() -> None:
    f = started()
    rolled = f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 4]))[1]
    assert f.ruleset.tally(rolled, None) == [
        Tally("mira", "attacks_made", 1, "bandit"), Tally("mira", "rolls", 1, "bandit"),
        Tally("mira", "attacks_landed", 1, "bandit"), Tally("mira", "hits_dealt", 4, "bandit"),
        Tally("bandit", "hits_taken", 4, "mira")]


def test_the_odds_of_an_attack_are_exact() -> None:
    """An opposed test (ours: 1D20 + combat skill against 1D20 + Guard): equal skill and Guard hit
    on a higher total only: (400 - 20) / 2 of the 400 ways."""
    assert attack_odds(AttackOddsQuery(combat_skill=3, guard=3)).numerator == 190
    fixed = attack_odds(AttackOddsQuery(combat_skill=0, guard=10, defence_die=0, attacker_wins_ties=True))
    assert (fixed.numerator, fixed.denominator) == (11, 20)


def test_a_hidden_combatants_body_is_not_shown_to_a_player() -> None:
    from domain.core.encounter import AddCombatant
    f = started()
    f.send(AddCombatant(combatant_id="lurker", name="Lurker", side="enemies", controller="gm", sheet=BANDIT, hidden=True))
    f.send(Attack(combatant_id="mira", target="lurker", dice=[10, 3]))
    assert "lurker" in f.state.rules.bodies
    seen = f.ruleset.conceal(f.state, f.ruleset.hidden_from(f.state, frozenset({"mira"})))
    assert "lurker" not in seen.rules.bodies


def test_a_player_sees_no_value_off_an_npcs_sheet_in_an_attack() -> None:
    """A player sees an NPC's name and what happens to it, not its sheet: the totals an attack
    took from the Bandit's Guard and Protection (or from an NPC attacker's combat skill) are
    left out of the player's copy of the event, and the log tells the attack without them."""
    from projections.visibility import Scope, Viewer, event_data_for

    f = started()
    rolled = f.send(Attack(combatant_id="mira", target="bandit", dice=[10, 4]))[1]
    version = f.events.index(rolled) + 1
    data = msgspec.to_builtins(rolled)
    player = event_data_for(version, data, Scope.of(f.state, Viewer("player", frozenset({"mira"}))))
    assert "guard_total" in data and "protection" in data
    assert player is not None and "guard_total" not in player and "protection" not in player
    assert player["attack_total"] == data["attack_total"]  # Mira's own sheet is her player's
    story = story_for(f.ruleset)
    story.meet("mira", "Mira", "player")
    story.meet("bandit", "Bandit", "gm")
    line = f.ruleset.sentences()["HTAttackRolled"](player, story)
    assert line.startswith("Mira's Attack Test with the Sword: 10, ") and "Guard 2" not in line
