"""Fate Points from every roll of the ruleset (novus-gaps N1): "A 1 on one die and a 10 on the other is a
**Nova Roll**: neither die explodes or implodes, the result happens in an odd and unusual way (the GM
narrates it), and the character earns a **Fate Point**"."""

from __future__ import annotations

from domain.core.encounter import AddCombatant, RollInitiative, StartEncounter
from domain.novus.events import Hold, RollGroupPerception, RollSave, RollSkill
from domain.novus.holding import RollOpposedSave
from tests.rulesets.novus.fight import KAEL, ORC, Fight, attack, started


def _fate(f: Fight) -> dict[str, int]:
    return {cid: c.sheet.fate_points for cid, c in f.ruleset.shown(f.state).combatants.items()}


def test_a_nova_roll_on_initiative_earns_a_fate_point_and_only_the_roll_that_stands_counts() -> None:
    """N11: "Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus"; a 1 with a 10 is a Nova Roll (11)."""
    f = Fight()
    f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player", sheet=KAEL))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    [rolled] = f.send(RollInitiative(dice=[1, 10, 4, 3]))
    assert rolled.rolls[0].total == 11 and _fate(f) == {"kael": 1, "orc": 0}
    f.send(RollInitiative(dice=[5, 5, 10, 1]))  # the GM rolls again before the start: the Orc's is a Nova now
    assert _fate(f) == {"kael": 0, "orc": 1}
    f.send(StartEncounter())
    assert _fate(f) == {"kael": 0, "orc": 1}


def test_a_nova_roll_on_rerolled_initiative_earns_a_fate_point() -> None:
    """"in order to reroll his initiative in the following round": that roll is a roll like any other."""
    f = started()
    f.declare("orc", {"kind": "reroll_initiative"})
    f.declare("kael", {"kind": "move"})
    f.resolve("kael")
    f.end_turn("kael")
    f.resolve("orc")
    f.end_turn("orc", dice=[10, 1])
    assert f.rules.rolled_ip["orc"] == 11 + 1 and _fate(f) == {"kael": 0, "orc": 1}


def test_a_nova_roll_on_attacks_saves_skills_perception_and_opposed_saves_earns_a_fate_point() -> None:
    """Every roll: an attack, a Saving Throw, a skill roll, the group's Perception roll, an Opposed Save."""
    f = started()
    f.send(RollSave(combatant_id="kael", stat="speed", dice=[1, 10]))
    f.send(RollSkill(combatant_id="kael", skill="Broadsword", dice=[10, 1]))
    f.send(RollGroupPerception(side="enemies", dice=[1, 10]))
    assert _fate(f) == {"kael": 2, "orc": 1}
    f.declare("orc", attack("kael", "Axe"))
    f.send(Hold(combatant_id="kael"))
    f.resolve("kael")
    f.end_turn("kael")
    f.command({"type": "NovusActHeld", "combatant_id": "kael", "at": "orc", "dice": [],
               "actions": [attack("orc", "Broadsword")]})
    f.send(RollOpposedSave(combatant_id="kael", dice=[1, 10]))  # 11 + 5 = 16
    f.send(RollOpposedSave(combatant_id="orc", dice=[6, 6]))  # 18: the Orc goes first
    f.resolve("orc", [10, 1, 2, 2])  # the Orc's Nova Roll attack (11 + 5 = 16 vs 16: a hit), then Kael's miss
    assert _fate(f) == {"kael": 3, "orc": 2}


def test_a_nova_roll_on_a_riding_roll_earns_a_fate_point() -> None:
    """"the player must make a Riding skill roll for his character each round": a roll like any other."""
    from domain.novus.events import SetMounted
    f = started()
    f.send(SetMounted(combatant_id="kael", trained=True))
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Broadsword"))
    out = f.resolve("kael", [1, 10, 6, 6])
    assert out[0].nova and _fate(f) == {"kael": 1, "orc": 0}
