"""Fighting Defensively and the Block (novus-combat, "Fighting Defensively"; novus-gaps N19): "any amount
shifted to DEF when performing a Block or Parry comes off the character's AB for the roll made to stop the
incoming attack"; "Basic Block: ... roll your AB against TN 10 + the foe's AB. Both sides count only the AB
not shifted to DEF"."""

from __future__ import annotations

from domain.novus.events import BlockRolled
from tests.rulesets.novus.fight import attack, started


def test_the_attackers_shift_to_def_comes_off_the_tn_of_the_block() -> None:
    """N19: "Both sides count only the AB not shifted to DEF": the foe's AB less its shift."""
    f = started(initiative=(2, 2, 9, 9))  # Kael (4) declares first; the Orc (19) resolves first
    f.declare("kael", {"kind": "block"})
    f.declare("orc", attack("kael", "Axe"), defensive=2, defensive_weapon="Axe")
    assert f.ruleset.defence(f.state, "orc") == 16 + 1
    block, rolled = f.resolve("orc", [3, 3])[:2]  # Kael 6 + 7 = 13 against TN 10 + (5 - 2)
    assert isinstance(block, BlockRolled) and (block.attack_bonus, block.tn, block.stopped) == (7, 13, True)
    assert rolled.blocked and f.hp("kael") == 40


def test_both_sides_shifts_count_a_shift_with_another_weapon_of_the_same_skill_too() -> None:
    """"any amount shifted to DEF when performing a Block or Parry comes off the character's AB"; the shift is
    of "his Melee Combat Skill, for the weapon he is currently wielding": the Orc's Dagger shares its Axe
    skill, a shift with it comes off the Axe's AB too."""
    f = started(initiative=(2, 2, 9, 9))
    f.declare("kael", {"kind": "block"}, defensive=2, defensive_weapon="Broadsword")
    f.declare("orc", attack("kael", "Axe"), defensive=4, defensive_weapon="Dagger")
    block, _ = f.resolve("orc", [4, 4])[:2]  # Kael 8 + 7 - 2 = 13 against TN 10 + (5 - 4) = 11: stopped
    assert (block.attack_bonus, block.tn, block.stopped) == (5, 11, True)
