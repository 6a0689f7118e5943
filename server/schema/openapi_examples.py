"""Examples of the main request bodies, for the OpenAPI document (and so for the docs' "Try
it"): valid bodies a real server accepts, not what a generator makes of a schema
(``"dice": [-2147483648]``).

Taken in order they are the start of a fight: open an encounter (``mixed`` dice, so the
examples can report faces), then the commands, then a combatant joining and the tokens.
``tests/integration/test_openapi_examples.py`` sends them so, to a real server.
"""

from __future__ import annotations

from typing import Any

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
CUDGEL = {"name": "Cudgel", "skill": "Melee", "kind": "melee",
          "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
MIRA_SHEET = {
    "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Athletics": "D6", "Brawling": "D6"},
    "weapons": [KNIFE],
    "armour": [{"name": "Cloak", "layer": "Outer", "value": 1, "durability": 2}],
    "initiative_modifier": 2,
}
BANDIT_SHEET = {
    "attributes": {"strength": "D6", "agility": "D6"},
    "skills": {"Melee": "D6", "Athletics": "D6"},
    "weapons": [CUDGEL],
    "armour": [{"name": "Greatcoat", "layer": "Outer", "value": 1, "durability": 2}],
    "initiative_modifier": 1,
}


class Example:
    """One example body: ``name`` is its key in the document (the keys are sorted there, so
    a number leads those that go in order)."""

    def __init__(self, name: str, summary: str, value: dict[str, Any]) -> None:
        self.name, self.summary, self.value = name, summary, value


OPEN_ENCOUNTER = [
    Example("mixedDice", "Open a Places of Power encounter; clients may report dice, the server rolls the rest",
            {"ruleset": "places-of-power", "name": "Ambush at the ford", "dice_policy": "mixed"}),
]

# In order, in the encounter the example above opens: versions 2 to 11 (the attack is version 7).
SEND_COMMAND = [
    Example("1-addMira", "1. The GM adds a player character, with the id the commands below use",
            {"type": "AddCombatant", "combatant_id": "mira", "name": "Mira", "side": "party",
             "controller": "player", "sheet": MIRA_SHEET}),
    Example("2-addBandit", "2. The GM adds an NPC",
            {"type": "AddCombatant", "combatant_id": "bandit", "name": "Bandit", "side": "bandits",
             "controller": "gm", "sheet": BANDIT_SHEET}),
    Example("3-rollInitiative", "3. Initiative with reported faces: Mira's D12, then the GM's one die for the NPCs",
            {"type": "RollInitiative", "dice": [12, 1]}),
    Example("4-startEncounter", "4. Round 1 begins: Mira acts first", {"type": "StartEncounter"}),
    Example("5-attack", "5. Mira attacks with her Knife: Strength 7 + Knife 4 = 11 against Normal (9)",
            {"type": "Attack", "combatant_id": "mira", "target": "bandit", "attack": "LightMelee",
             "band": "Melee", "weapon": "Knife", "dice": [7, 4]}),
    Example("6-defend", "6. The Bandit takes the blow (the attack is the event at version 7)",
            {"type": "Defend", "combatant_id": "bandit", "attack": 7, "defence": "TakeIt"}),
    Example("7-endTurn", "7. Mira ends her turn", {"type": "EndTurn", "combatant_id": "mira"}),
]

ADD_COMBATANT = [
    Example("1-player", "A player character joins (she acts last this round)",
            {"name": "Kess", "side": "party", "controller": "player",
             "sheet": {"attributes": {"strength": "D8", "agility": "D10"}, "skills": {"Athletics": "D8"},
                       "initiative_modifier": 1}}),
    Example("2-hiddenNpc", "An NPC in ambush: only the GM sees it until RevealCombatant",
            {"name": "Bandit Chief", "side": "bandits", "controller": "gm", "hidden": True, "sheet": BANDIT_SHEET}),
]

MINT_TOKEN = [
    Example("1-player", "A token for Mira's player: it acts for Mira and sees what she would",
            {"role": "player", "combatant_ids": ["mira"], "label": "Mira's phone"}),
    Example("2-spectator", "A read-only token for a stream overlay", {"role": "spectator", "label": "Overlay"}),
]

# operation id -> its body's examples
EXAMPLES: dict[str, list[Example]] = {
    "openEncounter": OPEN_ENCOUNTER,
    "sendCommand": SEND_COMMAND,
    "addCombatant": ADD_COMBATANT,
    "mintToken": MINT_TOKEN,
}
