"""Multiple Weapon Attacks: "Multiple Weapon Attacks in 1 round 5" (the Action Points table), and "There are
some combat skills, talents, capabilities or situations that will allow characters to declare and make
multiple attack rolls in a single round. When this happens, the primary attack roll is made at the
character's initiative point, and any remaining attack rolls are made at the end of the round"."""

from __future__ import annotations

from typing import Any

from domain.novus.events import ActionsDeclared, AttackRolled
from tests.integration.fight import command, mint
from tests.rulesets.health_trauma.test_health_trauma_api import client_for
from tests.rulesets.novus.fight import KAEL, ORC, sheet, started, types
from tests.rulesets.novus.http import kael_and_orc

DAGGER = {"name": "Dagger", "size": "tiny", "dr": 4, "skill": "Broadsword", "hand": "left"}
COMBO = sheet(weapons=[*KAEL["weapons"], DAGGER], talents={"two_weapon_combo": True})
BOTH = {"kind": "multiple_weapon_attacks", "target": "orc", "weapon": "Broadsword", "more_targets": ["orc"],
        "more_weapons": ["Dagger"]}


def test_the_primary_attack_at_ones_ip_the_other_weapons_at_the_end_of_the_round_for_5_ap() -> None:
    f = started(kael=COMBO)
    f.declare("orc", {"kind": "move"})
    [declared] = f.declare("kael", BOTH)
    assert isinstance(declared, ActionsDeclared) and declared.ap == 5 and f.ap("kael") == 0
    # the primary attack: the Broadsword at Kael's IP, 5 + 5 + 7 = 17 against DEF 16: 9 + 1 - 2 = 8
    rolled, _, resolved = f.resolve("kael", [5, 5])
    assert isinstance(rolled, AttackRolled) and (rolled.weapon, rolled.damage) == ("Broadsword", 8)
    assert types([resolved]) == ["NovusActionsResolved"]
    f.end_turn("kael")
    f.resolve("orc")
    assert f.ruleset.phase(f.state) == "end of round" and f.state.round == 1
    # the remaining one at the end of the round: the Dagger, 6 + 6 + 7 = 19: 4 + 1 + 3 - 2 = 6
    late = f.resolve("kael", [6, 6])
    assert types(late) == ["NovusAttackRolled", "NovusDamaged", "NovusLateAttacksResolved"]
    assert late[0].weapon == "Dagger" and f.hp("orc") == 30 - 8 - 6
    f.end_turn("orc")
    assert f.state.round == 2


def test_only_a_style_that_grants_them_and_a_weapon_in_each_hand() -> None:
    f = started()
    f.declare("orc", {"kind": "move"})
    assert "Two Weapon Combo" in f.refused(_declare("kael", BOTH)).message
    f = started(kael=COMBO)
    f.declare("orc", {"kind": "move"})
    assert f.refused(_declare("kael", {**BOTH, "more_weapons": ["Broadsword"]})).code == "novus_bad_action"
    assert f.refused(_declare("kael", {**BOTH, "more_weapons": ["Spear"]})).code == "novus_unknown_weapon"
    assert f.refused(_declare("kael", {**BOTH, "more_targets": ["kael"]})).code == "novus_not_a_target"
    offered = [acts for _, acts, _ in f.ruleset.declarations(f.state, "kael")]
    assert any(a.kind == "multiple_weapon_attacks" for acts in offered for a in acts)


def _declare(cid: str, *actions: dict[str, Any]) -> Any:
    import msgspec

    from domain.novus.ruleset import Novus
    return msgspec.convert({"type": "NovusDeclare", "combatant_id": cid, "actions": list(actions)},
                           Novus().command_type)


async def test_multiple_weapon_attacks_are_declared_by_a_player_and_offered(database_url: str) -> None:
    """Through the server: the declaration is offered to Kael's player, and taken as sent."""
    async with client_for(database_url) as client:
        enc, gm = await kael_and_orc(client, "Two blades", COMBO, ORC)
        await gm({"type": "RollInitiative", "dice": [9, 5, 4, 3]})
        await gm({"type": "StartEncounter"})
        player = await mint(client, enc, "player", ["kael"])
        await gm({"type": "NovusDeclare", "combatant_id": "orc", "actions": [{"kind": "move"}]})
        offered = (await client.get(f"/encounters/{enc}/actions", headers=player)).json()
        [said] = [a for a in offered["actions"] if "(Multiple Weapon Attacks)" in a["label"]]
        assert said["label"].startswith("Attack Orc with the Broadsword and the Dagger"), said
        out = await command(client, enc, said["command"], **player)  # the offer, as sent
        assert [e["type"] for e in out["events"]] == ["NovusActionsDeclared"] and out["events"][0]["data"]["ap"] == 5
        told = (await client.get(f"/encounters/{enc}/log", params={"format": "text"})).text
        assert "Kael declares Multiple Weapon Attacks (on the Orc with Broadsword, on the Orc with Dagger) (5 AP)" \
            in told
