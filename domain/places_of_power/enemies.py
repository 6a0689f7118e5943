"""Enemies played from a Stat Block (the block itself, as data: ``stat_block``).

"Stat Blocks tell the GM what Actions the Enemy can perform, and what Dice need to be rolled
when they attempt them. These Actions include both Offensive and Defensive Actions, as well
as Special Actions that can be applied to higher level Enemies."

- "Reduced Skill List: ... Weapon Skills are grouped into Melee and Ranged, with Brawling
  being separate. Mere use is also grouped into a single Skill called Magic." Checked when
  the Enemy joins (``check_enemy``).
- "A Speed value": exposed by ``speed`` (movement reads it).
- "Set Actions: ... each Enemy only has a limited number of Set Actions that they can
  perform. This applies to both Offensive and Defensive Actions. The GM is free to select
  which ever Action they think is most appropriate from those available, but they cannot have
  the Enemy do something that is not listed." Enforced by ``GATES`` (``SET_ACTION_OF``).
- "Special Actions: ... Only a single Special Action can be used per turn, with some being
  limited to a single use per Combat." ``UseSpecialAction``.
- Set Spells are cast through ``CastSpell`` (``magic``); Abilities are descriptive, kept on
  the block for the GM; the Action Point rule is ``action_points``'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from domain.core.concerns import CombatantId
from domain.core.encounter import Combatant, CombatantAdded, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.grapples import cost_only, penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.morale import TAKING_IT
from domain.places_of_power.stat_block import SpecialAction
from domain.places_of_power.table import replace, rules, sheet, spend, with_rules

# "Weapon Skills are grouped into Melee and Ranged, with Brawling being separate. Mere use is
# also grouped into a single Skill called Magic." Athletics stays: it is what the Evade and
# Dive defences roll ("Roll Athletics + Agility"), and a block's Defensive Actions must be
# rollable ("what Dice need to be rolled when they attempt them").
WEAPON_SKILLS = {"melee": ("Melee", "Brawling"), "ranged": ("Ranged",)}
ENEMY_SKILLS = ("Melee", "Ranged", "Brawling", "Magic", "Athletics")


def check_enemy(added: CombatantAdded) -> None:
    """Refuse a Stat Block on a player's character, and a block's sheet whose skills are not the
    reduced list or whose weapons do not use the grouped weapon skills."""
    raw = added.sheet
    if raw.get("stat_block") is None:
        return  # an NPC played like a player character: its sheet is a full one
    if added.controller != "gm":
        raise RuleViolation("invalid_sheet", "Only the GM's Enemies have a Stat Block; a player character has a "
                            "full character sheet.")
    for group in ("skills", "mere_skills"):
        for skill in raw.get(group) or {}:
            if skill not in ENEMY_SKILLS:
                raise RuleViolation("invalid_sheet", f"An Enemy with a Stat Block has the reduced skill list "
                                    f"({', '.join(ENEMY_SKILLS)}); “{skill}” is not on it - at "
                                    f"`$.{group}.{skill}`.", skill=skill)
    for group in ("weapons", "carried"):
        for weapon in raw.get(group) or []:
            allowed = WEAPON_SKILLS[weapon["kind"]]
            if weapon["skill"] not in allowed:
                raise RuleViolation("invalid_sheet", f"An Enemy's {weapon['kind']} weapon uses the skill "
                                    f"{' or '.join(allowed)}; the {weapon['name']} names “{weapon['skill']}”.",
                                    skill=weapon["skill"])


def speed(c: Combatant) -> str:
    """"Normal means they move like a regular Player Character, Slow reduces their movement to
    half, and Fast allows them to move as if using the Dash ability, but without paying the
    Action Point cost." Anyone without a Stat Block moves at Normal."""
    block = sheet(c).stat_block
    return block.speed if block is not None else "Normal"


# ------------------------------------------------------------------------- set actions

# The Offensive and Defensive Actions (the non-lethal attacks among them), by the command that
# performs them: the names a Stat Block lists them under (any one of them allows it). The
# other commands are not Set Actions and stay open to an Enemy: the Common Actions (moving,
# Take Cover, reloading, items, armour, Stand, Healing, Stabilise, Non-Combat Tasks, Use
# Ability, swapping weapons), Cast Spell (limited to the block's Set Spells by ``magic``),
# Special Actions (``UseSpecialAction``), the steps of an attack under way, taking a blow on
# the armour or taking it, and the GM's bookkeeping.
SET_ACTION_OF: dict[str, Callable[[Any], tuple[str, ...]]] = {
    "Attack": lambda c: (c.attack,),  # LightMelee, HeavyMelee, Ranged
    "Defend": lambda c: () if c.defence in TAKING_IT else (c.defence,),  # Evade, Parry, Dive, Tank, HumanShield
    "NonLethalAttack": lambda c: (c.move,),  # Trip, Disarm, ...
    "Grapple": lambda c: ("Grapple",),
    # squeezing and breaking free are described within Grapple
    "Squeeze": lambda c: ("Squeeze", "Grapple"),
    "BreakFree": lambda c: ("BreakFree", "Grapple"),
    "Taunt": lambda c: ("Taunt",),
    "DemandSurrender": lambda c: ("DemandSurrender",),
    "Suppression": lambda c: ("Suppression",),
    "Shove": lambda c: ("Shove",),
    "PullYourPunch": lambda c: ("PullYourPunch",) if c.pull else (),  # letting the blow land is no action
}


def plain(name: str) -> str:
    """How a listed action is matched: case, spaces and a trailing "Attack" do not count, so
    "Light Melee Attack" lists ``LightMelee`` and "Human Shield" ``HumanShield``."""
    key = re.sub(r"[^a-z]", "", name.lower())
    return key[: -len("attack")] if key.endswith("attack") and key != "attack" else key


def set_actions_gate(ruleset: Any, state: EncounterState, command: Command) -> None:
    """An Enemy with a Stat Block performs only its Set Actions. A block that lists no action
    (an empty ``set_actions``) restricts nothing: the GM has not written them down."""
    of = SET_ACTION_OF.get(type(command).__name__)
    c = state.combatants.get(getattr(command, "combatant_id", ""))
    if of is None or c is None:
        return
    block = sheet(c).stat_block
    names = of(command)
    if block is None or not block.set_actions or not names:
        return
    listed = {plain(n) for n in block.set_actions}
    if not any(plain(n) in listed for n in names):
        raise RuleViolation(
            "not_a_set_action",
            f"{c.name} cannot {names[0]}: an Enemy performs only the Set Actions on its Stat Block "
            f"({', '.join(block.set_actions)}).",
            action=names[0], set_actions=list(block.set_actions),
        )


# ---------------------------------------------------------------------- special actions


class SpecialActionsUsed(msgspec.Struct, kw_only=True):
    """``this_turn``: the Special Action used in the current turn, by Enemy; ``this_combat``:
    the once-per-combat Special Actions already used, by Enemy."""

    this_turn: dict[CombatantId, str] = msgspec.field(default_factory=dict)
    this_combat: dict[CombatantId, list[str]] = msgspec.field(default_factory=dict)


def used(state: EncounterState) -> SpecialActionsUsed:
    found = rules(state).special_actions
    return found if isinstance(found, SpecialActionsUsed) else SpecialActionsUsed()


class UseSpecialAction(Command, tag="UseSpecialAction"):
    """The GM has an Enemy use a Special Action from its Stat Block on its turn, paying the
    Action Points the block lists. One a turn; one marked ``once_per_combat`` only once in the
    fight. Its effect is the GM's to apply (``note``: what it did). ``penalties``: how a
    Wounded or Afflicted Enemy pays each Penalty Point (``IncreaseCost``)."""

    combatant_id: CombatantId
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    note: Annotated[str, msgspec.Meta(max_length=500)] = ""
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)


class SpecialActionUsed(Event, tag="SpecialActionUsed"):
    combatant_id: CombatantId
    name: str
    action_points: int
    once_per_combat: bool
    note: str = ""


COMMANDS: tuple[type[Command], ...] = (UseSpecialAction,)
EVENTS: tuple[type[Event], ...] = (SpecialActionUsed,)


def _special_action(c: Combatant, name: str) -> SpecialAction:
    block = sheet(c).stat_block
    listed = block.special_actions if block is not None else []
    found = next((a for a in listed if a.name == name), None)
    if found is None:
        raise RuleViolation(
            "unknown_special_action",
            f"{c.name}'s Stat Block lists no Special Action “{name}”"
            + (f" (it lists: {', '.join(a.name for a in listed)})." if listed else "."),
            special_actions=[a.name for a in listed],
        )
    return found


def use_special_action(ruleset: Any, state: EncounterState, cmd: UseSpecialAction) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    action = _special_action(c, cmd.name)
    u = used(state)
    if c.id in u.this_turn:
        raise RuleViolation("special_action_this_turn", f"{c.name} has used {u.this_turn[c.id]} this turn: only a "
                            "single Special Action can be used per turn.")
    if action.once_per_combat and action.name in u.this_combat.get(c.id, []):
        raise RuleViolation("special_action_spent", f"{action.name} can be used once per combat, and {c.name} "
                            "has used it.")
    cost_only(cmd.penalties)
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty="Normal", dice=(),
                          cost=action.action_points, base_damage=0)
    ruleset.spend_action_points(c, pay.cost, action.name)
    return [SpecialActionUsed(combatant_id=c.id, name=action.name, action_points=pay.cost,
                              once_per_combat=action.once_per_combat, note=cmd.note)]


DECISIONS: dict[type[Command], Any] = {
    UseSpecialAction: lambda r, s, c, d: use_special_action(r, s, c),
}


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    if not isinstance(event, SpecialActionUsed):
        return None
    u = used(state)
    this_combat = u.this_combat
    if event.once_per_combat:
        this_combat = {**this_combat, event.combatant_id: [*this_combat.get(event.combatant_id, []), event.name]}
    state = spend(state, event.combatant_id, event.action_points)
    return with_rules(state, special_actions=replace(u, this_turn={**u.this_turn, event.combatant_id: event.name},
                                                     this_combat=this_combat))


def turn_began(state: EncounterState, combatant_id: str) -> EncounterState:
    """A new turn: its Enemy may use a Special Action again."""
    if not isinstance(rules(state).special_actions, SpecialActionsUsed):
        return state  # none used yet
    u = used(state)
    if combatant_id not in u.this_turn:
        return state
    return with_rules(state, special_actions=replace(
        u, this_turn={k: v for k, v in u.this_turn.items() if k != combatant_id}))


GATES = (set_actions_gate,)
