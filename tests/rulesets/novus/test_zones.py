"""The Control Zone's size: "This is a 5' area to the sides and front of the character/creature ... Large
humanoid creatures have a 10' Control Zone and Huge humanoid creatures have a 15' Control Zone.
Non-humanoid creatures, especially those that are Large and Huge will have similar Control Zones, but the
actual shape is likely to depend upon the shape of the creature"."""

from __future__ import annotations

from domain.core.encounter import AddCombatant
from tests.rulesets.novus.fight import ORC, Fight, sheet, started, types
from tests.rulesets.novus.test_telling import told


def test_a_humanoids_control_zone_follows_its_size_and_a_non_humanoids_is_the_gms() -> None:
    ogre = {**ORC, "creature_size": "large"}
    giant = {**ORC, "creature_size": "huge"}
    wyrm = {**ORC, "creature_size": "huge", "humanoid": False, "control_zone": 20}
    beast = {**ORC, "creature_size": "large", "humanoid": False}  # no shape given: like a Large humanoid's (ours)
    f = started(orc=ogre)
    for cid, body in (("giant", giant), ("wyrm", wyrm), ("beast", beast)):
        f.send(AddCombatant(combatant_id=cid, name=cid.title(), side="enemies", controller="gm", sheet=body))
    shown = f.ruleset.shown(f.state).combatants
    reach = {cid: c.sheet.control_zone_reach for cid, c in shown.items()}
    assert reach == {"kael": 5, "orc": 10, "giant": 15, "wyrm": 20, "beast": 10}


def test_a_humanoids_zone_is_not_set_by_hand_and_the_error_names_the_field() -> None:
    f = Fight()
    refused = f.refused(AddCombatant(combatant_id="x", name="X", side="a", controller="gm",
                                     sheet=sheet(creature_size="large", control_zone=20)))
    assert refused.code == "invalid_sheet" and "control_zone" in refused.message


def test_a_move_names_the_zones_it_enters_with_their_reach() -> None:
    """"Opportunity Attacks are triggered by a potential foe entering or crossing a character's Control
    Zone": the move's event says how far each zone it names reaches, and the log tells it."""
    f = started(orc={**ORC, "creature_size": "large"}, initiative=(9, 9, 2, 2))  # Kael 18 resolves first
    f.declare("orc", {"kind": "move"})
    f.declare("kael", {"kind": "run", "through": ["orc"]})
    out = f.resolve("kael")
    assert types(out)[:2] == ["NovusActionTaken", "ReactionsOpened"] and out[0].reach == [10]
    line = told([out[0]])[-1]
    assert line == "Kael: a run, through the Orc's Control Zone (10')."
