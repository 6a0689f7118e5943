"""Combat Moves learnt per Combat Skill and the cap on advanced ones (novus-gaps N18): "Advanced moves are
capped: 1 per 5 ranks without Combat Training, 1 per 3 ranks with Combat Training I, 1 per rank with Combat
Training II. Moves are bought separately for each Combat Skill." """

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.encounter import AddCombatant, CombatantAdded
from domain.core.errors import RuleViolation
from domain.novus.data import NovusData
from domain.novus.events import SetNovusRules
from domain.novus.moves import default_moves
from tests.rulesets.novus.fight import ORC, Fight, attack, sheet, started
from tests.rulesets.novus.test_moves import KAEL

CAP = ("Advanced moves are capped: 1 per 5 ranks without Combat Training, 1 per 3 ranks with Combat Training I, "
       "1 per rank with Combat Training II.")


def swordsman(ranks: int, moves: list[str], **talents: bool) -> dict[str, Any]:
    """Kael with ``ranks`` in Broadsword and ``moves`` learnt for it."""
    return sheet(skills=[{"name": "Broadsword", "ranks": ranks, "bonus": 7, "melee": True, "moves": moves}],
                 talents=talents)


def add(f: Fight, kael: dict[str, Any]) -> list[Any]:
    return f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player", sheet=kael))


def declared(f: Fight, weapon: str, move: str) -> RuleViolation:
    return f.refused(msgspec.convert({"type": "NovusDeclare", "combatant_id": "kael", "actions": [
        attack("orc", weapon, move=move)]}, f.ruleset.command_type))


def test_a_move_counts_only_with_a_weapon_of_the_skill_it_was_learnt_for() -> None:
    """N18: "Moves are bought separately for each Combat Skill": Cut learnt for Broadsword is not learnt for
    Knife; a weapon used with no Combat Skill is a Brawling attack ("untrained/unskilled", novus-combat: it
    "may use any of the Basic Unarmed Combat Moves")."""
    kael = {**KAEL, "skills": [*KAEL["skills"], {"name": "Knife", "ranks": 5, "bonus": 6, "melee": True}],
            "weapons": [*KAEL["weapons"], {"name": "Knife", "size": "tiny", "dr": 3, "skill": "Knife", "edged": True},
                        {"name": "Club", "size": "small", "dr": 3, "edged": True}]}
    f = started(kael=kael)
    f.declare("orc", {"kind": "move"})
    refused = declared(f, "Knife", "Cut")
    assert refused.code == "novus_move_not_known"
    assert refused.message == "move: Kael has not learnt Cut for Knife (the sheet's skills[2].moves)."
    refused = declared(f, "Club", "Cut")
    assert refused.code == "novus_move_not_known" and "Brawling" in refused.message
    f.declare("kael", attack("orc", "Broadsword", move="Cut"))
    g = started(kael=kael)
    g.declare("orc", {"kind": "move"})
    g.declare("kael", attack("orc", "Bow", move="Brace"))  # learnt for the Bow


def test_the_prompt_offers_the_moves_learnt_for_the_weapons_skill() -> None:
    """N18: "Moves are bought separately for each Combat Skill": the declaration prompt's attack with the
    first weapon (a Bow) offers Brace, learnt for the Bow, and not Cut, learnt for Broadsword."""
    bow_first = {**KAEL, "weapons": [KAEL["weapons"][2], *KAEL["weapons"][:2]]}
    f = started(kael=bow_first)
    f.declare("orc", {"kind": "move"})
    [decision] = [d for d in f.ruleset.pending(f.state) if d.combatant_id == "kael" and d.kind == "declare"]
    names = {c.name for c in decision.choices}
    assert "Attack Orc with the Bow (Brace)" in names and "Attack Orc with the Bow (Cut)" not in names
    assert "Attack Orc with the Broadsword (Cut)" in names  # the second weapon's moves are offered too


def test_more_advanced_moves_than_the_ranks_allow_are_refused_naming_the_skill_and_the_cap() -> None:
    """N18: """ + CAP + """ "Basic moves cost 0": they do not count."""
    f = Fight()
    refused = f.refused(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player",
                                     sheet=swordsman(9, ["All Out Attack", "Cut", "Basic Disarm"])))
    assert refused.code == "novus_moves_over_cap"
    assert refused.message.startswith("skills[0].moves: Broadsword (9 ranks, no Combat Training: 1 per 5 ranks) "
                                      "allows 1 advanced Combat Move(s), not 2 (All Out Attack, Cut)")
    add(Fight(), swordsman(10, ["All Out Attack", "Cut", "Basic Disarm"]))  # 10 ranks: 2
    add(Fight(), swordsman(4, ["Basic Disarm", "Whirlwind"]))  # a Basic move and one not in the table: none
    refused = Fight().refused(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player",
                                           sheet=swordsman(5, ["All Out Attack", "Cut"], combat_training_1=True)))
    assert "(5 ranks, Combat Training I: 1 per 3 ranks) allows 1" in refused.message
    add(Fight(), swordsman(6, ["All Out Attack", "Cut"], combat_training_1=True))
    add(Fight(), swordsman(2, ["All Out Attack", "Cut"], combat_training_2=True))
    refused = Fight().refused(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player",
                                           sheet=swordsman(1, ["All Out Attack", "Cut"], combat_training_2=True)))
    assert "(1 ranks, Combat Training II: 1 per rank) allows 1" in refused.message
    with pytest.raises(msgspec.ValidationError, match=r"skills\[0\]\.moves"):
        msgspec.convert(swordsman(5, ["Cut", "cut"]), Fight().ruleset.sheet_type)


def test_a_stored_sheet_with_the_flat_combat_moves_still_loads_known_for_every_combat_skill() -> None:
    """N18: "Moves are bought separately for each Combat Skill"; a sheet stored before (one flat
    ``combat_moves``) replays as it was, its moves read as learnt for each of its Combat Skills."""
    old = {**KAEL, "skills": [{k: v for k, v in s.items() if k != "moves"} for s in KAEL["skills"]],
           "combat_moves": ["All Out Attack", "Cut", "Brace"], "talents": {}}
    f = Fight()
    payload = msgspec.json.encode(CombatantAdded(combatant_id="kael", name="Kael", side="party",
                                                 controller="player", sheet=old))
    stored = f.ruleset.decode_event("CombatantAdded", f.ruleset.schema_versions.get("CombatantAdded", 1), payload)
    f.state = f.ruleset.evolve(f.state, stored)  # as a stored fight replays: no decision taken again
    f.events.append(stored)
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    f.send(msgspec.convert({"type": "RollInitiative", "dice": [9, 5, 4, 3]}, f.ruleset.command_type))
    f.send(msgspec.convert({"type": "StartEncounter"}, f.ruleset.command_type))
    f.declare("orc", {"kind": "move"})
    f.declare("kael", attack("orc", "Bow", move="Brace"))
    assert f.state.combatants["kael"].sheet.learnt("Broadsword") == {"all out attack", "cut", "brace"}
    # over the cap as stored (5 ranks: 1), it does not stop the GM changing the table ...
    f.send(SetNovusRules(data=NovusData()))
    refused = Fight().refused(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player",
                                           sheet=old))
    # ... but a new sheet so written is held to the cap, the flat list named
    assert refused.code == "novus_moves_over_cap" and refused.message.startswith("combat_moves: Broadsword")


def test_a_new_table_that_would_put_a_seated_sheet_over_the_cap_is_refused() -> None:
    """N18: """ + CAP + """ Which moves are advanced is the GM's table: making Basic Disarm an advanced
    move (3 CP) would give Kael (5 ranks) two, Cut and Basic Disarm."""
    f = Fight()
    add(f, swordsman(5, ["Cut", "Basic Disarm"]))
    moves = [m if m.name != "Basic Disarm" else msgspec.structs.replace(m, cp=3) for m in default_moves()]
    refused = f.refused(SetNovusRules(data=NovusData(moves=moves)))
    assert refused.code == "novus_moves_over_cap"
    assert refused.message.startswith("moves: the table would put Kael over the cap on advanced moves: "
                                      "skills[0].moves: Broadsword (5 ranks")
    g = Fight()
    add(g, swordsman(5, ["Cut"]))
    g.send(SetNovusRules(data=NovusData(moves=moves)))  # Kael learnt no Disarm: the table stands
    refused = g.refused(AddCombatant(combatant_id="ana", name="Ana", side="party", controller="player",
                                     sheet=swordsman(5, ["Cut", "Basic Disarm"])))
    assert refused.code == "novus_moves_over_cap"  # checked against the encounter's table
