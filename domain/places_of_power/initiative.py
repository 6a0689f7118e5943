"""Places of Power initiative.

"Both the players involved in the combat and the GM roll a D12 and add their
Initiative Modifier to the value rolled. The GM's Initiative Modifier is highest
individual Initiative Modifier value of the enemy NPCs involved in the fight."

"Players who roll equal or higher than the GM take their turn before the GM, and
players who roll less than the GM take their turn after the GM. The exact order of
play within these groupings is specified by the GM."
"""

from __future__ import annotations

from domain.core.dice import Dice
from domain.core.encounter import CombatantAdded, EncounterState, InitiativeRoll, InitiativeRolled
from domain.core.errors import RuleViolation
from domain.core.initiative import Entry, order_around_gm

NPC_GROUP = "npcs"
INITIATIVE_DIE = 12


def roll(state: EncounterState, dice: Dice) -> InitiativeRolled:
    """Each player character rolls a D12 + their modifier (in the order they were added);
    then the GM rolls one D12 + the highest NPC modifier for all NPCs."""
    players = sorted((c for c in state.combatants.values() if c.controller == "player"), key=lambda c: c.seq)
    npcs = sorted((c for c in state.combatants.values() if c.controller == "gm"), key=lambda c: c.seq)
    rolls: list[InitiativeRoll] = []
    for c in players:
        die = dice.roll(INITIATIVE_DIE, "initiative", c.id)
        mod = c.sheet.initiative_modifier
        rolls.append(InitiativeRoll(who=c.id, die=die, modifier=mod, total=die.face + mod))
    gm_total = None
    if npcs:
        mod = max(c.sheet.initiative_modifier for c in npcs)
        die = dice.roll(INITIATIVE_DIE, "initiative: the GM, for all NPCs")
        gm_total = die.face + mod
        rolls.append(InitiativeRoll(who=NPC_GROUP, die=die, modifier=mod, total=gm_total))
    by_id = {c.id: c for c in players}
    entries = [Entry(r.who, r.total, by_id[r.who].seq) for r in rolls if r.who in by_id]
    npc_entries = [Entry(c.id, 0, c.seq) for c in npcs]
    return InitiativeRolled(rolls=rolls, order=order_around_gm(entries, npc_entries, gm_total))


def check_order(state: EncounterState, order: list[str]) -> None:
    """The GM orders play within the groups; players keep their place relative to the GM's turn."""
    npc_positions = [i for i, cid in enumerate(order) if state.combatants[cid].controller == "gm"]
    if not npc_positions:
        return
    first, last = npc_positions[0], npc_positions[-1]
    if last - first + 1 != len(npc_positions):
        raise RuleViolation(
            "invalid_turn_order", "The NPCs act together on the GM's turn: keep them next to each other."
        )
    gm_total = state.group_initiative.get(NPC_GROUP)
    for i, cid in enumerate(order):
        c = state.combatants[cid]
        if c.controller != "player" or gm_total is None:
            continue
        if c.initiative is None:
            raise RuleViolation(
                "initiative_not_rolled", f"{c.name} has no initiative yet: roll initiative again."
            )
        before = c.initiative >= gm_total
        if before and i > first:
            raise RuleViolation(
                "invalid_turn_order",
                f"{c.name} rolled {c.initiative}, equal to or above the GM's {gm_total}: they act before the NPCs.",
            )
        if not before and i < first:
            raise RuleViolation(
                "invalid_turn_order",
                f"{c.name} rolled {c.initiative}, below the GM's {gm_total}: they act after the NPCs.",
            )


def place_joiner(state: EncounterState, added: CombatantAdded) -> list[str]:
    """Where a combatant joining the fight in progress enters the order of play.

    An NPC acts on the GM's turn: after the NPCs already there or, when none are left,
    where the GM's turn falls (after the players who rolled equal or higher than the GM,
    before those who rolled less). A player joins at the end: they have no initiative
    until the GM rolls again.
    """
    order = list(state.order)
    at = len(order)
    if added.controller == "gm":
        npcs = [i for i, cid in enumerate(order) if state.combatants[cid].controller == "gm"]
        gm_total = state.group_initiative.get(NPC_GROUP)
        if npcs:
            at = npcs[-1] + 1
        elif gm_total is not None:
            rolled = ((i, state.combatants[cid].initiative) for i, cid in enumerate(order))
            at = next((i for i, total in rolled if total is not None and total < gm_total), len(order))
    return [*order[:at], added.combatant_id, *order[at:]]
