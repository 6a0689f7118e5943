"""The kinds of declared action (the Action Points table's and the rules' own), shared by the actions
and the GM's data that names them (which limb an action uses)."""

from typing import Literal

Kind = Literal[
    "attack", "dodge", "move", "run", "draw_weapon", "perception", "get_up", "cast_spell", "counterspell",
    "instant_spell", "concentration", "multiple_weapon_attacks", "mounted_charge", "block", "reload_sling_bow", "reload_light_crossbow",
    "reload_heavy_crossbow", "gm_action", "disengage", "set_initiative", "reroll_initiative",
]
