"""Healing Hits with a Medical check."""

from __future__ import annotations

import pytest

from domain.core.dice import ReportedDice
from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.core.errors import RuleViolation
from domain.places_of_power.healing import Heal
from domain.places_of_power.hits import SetHits
from domain.rulesets import default_registry

RULESET = default_registry().get("places-of-power")
MEDIC = {"attributes": {"dexterity": "D8", "intelligence": "D10"}, "skills": {"Medical": "D8"}}


class Table:
    def __init__(self) -> None:
        self.state = RULESET.replay(RULESET.open("e", "Field hospital", "reported", "x"))
        self.play(AddCombatant(name="Mira", side="a", controller="player", combatant_id="mira", sheet=MEDIC))
        self.play(AddCombatant(name="Kess", side="a", controller="player", combatant_id="kess", sheet=MEDIC))
        self.play(RollInitiative(), [12, 1])
        self.play(StartEncounter())

    def play(self, command, faces=()):
        for event in RULESET.decide(self.state, command, ReportedDice(list(faces))):
            self.state = RULESET.evolve(self.state, event)
        return self.state


@pytest.mark.parametrize(("hits", "difficulty", "faces_pass", "faces_fail"), [
    (1, "Easy", [3, 4], [2, 4]),        # "Hit 1: Grazed - Easy (7)"
    (2, "Normal", [4, 5], [3, 5]),      # "Hit 2: Wounded - Normal (9)"
    (3, "Difficult", [6, 7], [5, 7]),   # "Hit 3: Afflicted - Difficult (13)"
    (4, "Hard", [8, 8], [7, 8]),        # "Hit 4: Helpless - Hard (16)"
])
def test_the_difficulty_follows_the_targets_hits(hits, difficulty, faces_pass, faces_fail) -> None:
    """"The difficulty level at which these checks are rolled depends on the number of Hits the
    target has taken." "Each Medical check costs 3 Action Points to perform, and can only ...
    restore 1 Hit at a time.\""""
    for faces, healed in ((faces_pass, True), (faces_fail, False)):
        t = Table()
        t.play(SetHits(combatant_id="kess", hits=hits))
        s = t.play(Heal(combatant_id="mira", target="kess"), faces)
        assert s.combatants["kess"].sheet.hits == hits - (1 if healed else 0)
        assert s.combatants["mira"].action_points == 0


def test_a_helpless_player_cannot_heal_themselves() -> None:
    """"if a player has been rendered Helpless then they cannot Stabilise or Heal themselves\""""
    t = Table()
    t.play(SetHits(combatant_id="mira", hits=4))
    with pytest.raises(RuleViolation) as e:
        t.play(Heal(combatant_id="mira", target="mira"), [8, 8])
    assert e.value.code == "cannot_act"


def test_the_attribute_is_the_healers_choice_and_there_must_be_a_hit() -> None:
    """"combining it with whichever Attribute is most appropriate (most commonly Dexterity or
    Intelligence)\""""
    t = Table()
    with pytest.raises(RuleViolation) as e:
        t.play(Heal(combatant_id="mira", target="kess"), [3, 4])
    assert e.value.code == "no_hits_to_restore"
    t.play(SetHits(combatant_id="kess", hits=1))
    s = t.play(Heal(combatant_id="mira", target="kess", attribute="intelligence"), [10, 1])
    assert s.combatants["kess"].sheet.hits == 0
