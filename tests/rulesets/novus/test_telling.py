"""The readable log of a Novus fight: a sentence for each event, in the game's words, told from
what the reader may see (a player is not told an NPC's totals off its sheet)."""

from __future__ import annotations

import msgspec

from domain.core.log import sentences_of, story_for
from tests.rulesets.novus.fight import attack, started


def told(events, drop: tuple[str, ...] = ()) -> list[str]:  # noqa: ANN001
    f = started()
    story = story_for(f.ruleset)
    sentences = sentences_of(f.ruleset)
    out = []
    for e in [*f.events, *events]:
        d = {k: v for k, v in msgspec.to_builtins(e).items() if k not in drop}
        if d["type"] == "CombatantAdded":
            story.meet(d["combatant_id"], d["name"], d["controller"])
        out.append(sentences[d["type"]](d, story))
    return out


def test_initiative_tells_every_die_of_the_2d10_and_the_ip() -> None:
    """"Initiative = 2d10 + Speed Stat Bonus + Wisdom Stat Bonus"; a 10 "is rolled again" (an explosion)."""
    from domain.core.encounter import AddCombatant, RollInitiative
    from tests.rulesets.novus.fight import KAEL, ORC, Fight
    f = Fight()
    f.send(AddCombatant(combatant_id="kael", name="Kael", side="party", controller="player", sheet=KAEL))
    f.send(AddCombatant(combatant_id="orc", name="Orc", side="enemies", controller="gm", sheet=ORC))
    [rolled] = f.send(RollInitiative(dice=[10, 4, 3, 1, 6, 2]))
    story = story_for(f.ruleset)
    story.meet("kael", "Kael", "player")
    story.meet("orc", "Orc", "gm")
    line = sentences_of(f.ruleset)["InitiativeRolled"](msgspec.to_builtins(rolled), story)
    assert line == ("Initiative: Kael 10 4 3 + 0: 17 IP and the Orc 1 6 2 + 1: 6 IP. They declare from the lowest IP "
                    "up and resolve from the highest down: Kael and the Orc.")


def test_an_attack_is_told_with_its_dice_and_without_the_totals_a_reader_may_not_see() -> None:
    f = started()
    f.declare("orc", {"kind": "move"})
    declared = f.declare("kael", attack("orc", "Broadsword"))
    rolled = f.resolve("kael", [8, 6])
    lines = told([*declared, *rolled])
    assert "Kael declares an attack on the Orc with Broadsword (4 AP)." in lines
    assert ("Kael's attack on the Orc with Broadsword: 8 6 = 14 + 7 = 21 against DEF 16: a hit. Base Damage 9 + "
            "Scaled Damage 5 less AR 2: 12.") in lines
    assert "The Orc takes 12 damage: 18 Hit Points left." in lines
    hidden = told(rolled, drop=("defence", "armour", "hit_points"))
    assert ("Kael's attack on the Orc with Broadsword: 8 6 = 14 + 7 = 21 against DEF: a hit. Base Damage 9 + "
            "Scaled Damage 5 less armour: 12.") in hidden
    assert "The Orc takes 12 damage." in hidden
