"""Morale: the Morale Check, and the two non-lethal moves that test it.

"they will need to roll a D20 against their Willpower value. If they roll less than or equal
to the Willpower value then their willpower/morale held, however if they roll over it then
their willpower was broken" (the dice chapter). An Enemy's Morale is on its Stat Block; an
NPC without one uses its sheet's Willpower.

"Force Morale Check: ... any remaining enemies must perform an immediate Morale Check. Those
that fail this check will flee the battle. The GM can roll a single check for all of the
remaining NPCs."

"Demand Surrender (2 AP): You can attempt to get your target to surrender. This can only be
attempted on a human target. This is performed as an Opposed Roll between your Persuasion +
Strength and the target's Morale level. If you are successful then your target will
immediate drop any weapon they have in their hands. The GM will decide specifically how they
act after that."

"Suppression (2 AP): Requires the player to have a loaded ranged weapon, and the target or
targets to be behind cover. Fire a shot at the cover to trigger a standard Morale Check in all
targets behind it. Any NPCs that fail the check are unable to act this round, and must remain
in cover."

A fled NPC is out of the fight and a suppressed one cannot act this round: ``GATES`` refuses
what they try (their turn's actions and their active defences; taking a blow on the armour,
or taking it, is not an action and stays open). Their turns still come round: the GM ends them.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.core.concerns import CombatantId, Parties, SheetValue
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.contests import WILLPOWER_DIE, Contestant, ContestantRolled, OpposedRolled, \
    level_reached, roll_contestant
from domain.places_of_power import loading
from domain.places_of_power.grapples import cost_only, pay_opposed, penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.table import replace, rules, sheet, spend, with_rules, with_sheet

Id = Annotated[CombatantId, msgspec.Meta(min_length=1, max_length=64)]
Reason = Annotated[str, msgspec.Meta(max_length=500)]
Penalties = Annotated[list[str], msgspec.Meta(max_length=4)]

DEMAND_SURRENDER_COST = 2
SUPPRESSION_COST = 2


class Morale(msgspec.Struct, kw_only=True):
    """Who fled the battle, who surrendered (the GM decides what they do next) and who is
    suppressed until the next round begins."""

    fled: list[CombatantId] = msgspec.field(default_factory=list)
    surrendered: list[CombatantId] = msgspec.field(default_factory=list)
    suppressed: list[CombatantId] = msgspec.field(default_factory=list)


def morale(state: EncounterState) -> Morale:
    found = rules(state).morale
    return found if isinstance(found, Morale) else Morale()


def _with_morale(state: EncounterState, **changes: list[str]) -> EncounterState:
    return with_rules(state, morale=replace(morale(state), **changes))


def morale_of(c: Combatant) -> int:
    """The value a Morale Check rolls a D20 at or under: the Stat Block's Morale, else the
    sheet's Willpower ("their willpower/morale held")."""
    s = sheet(c)
    return s.stat_block.morale if s.stat_block is not None else s.willpower


def is_human(c: Combatant) -> bool:
    """Players and NPCs without a Stat Block are people; a Stat Block says whether its Enemy is."""
    block = sheet(c).stat_block
    return block is None or block.human


def out_of_the_fight(state: EncounterState, c: Combatant) -> bool:
    s = sheet(c)
    return s.dead or s.hits >= 4 or s.helpless_for_fight or c.id in morale(state).fled


# ------------------------------------------------------------------------- commands


class MoraleCheck(Command, tag="MoraleCheck"):
    """The GM tests NPCs' Morale (a Force Morale Check, or whenever the story calls for one):
    the NPCs named in ``combatant_ids``, or every remaining NPC (not dead, Helpless or fled)
    on a ``side`` (say, the side a Critical Hit's attacker fights). ``one_roll``: one D20 for
    them all ("The GM can roll a single check for all of the remaining NPCs"), else one each.
    Each NPC holds at or under its own Morale; those that fail flee the battle. Reported dice:
    the one D20, or one per NPC in the order named (by ``side``: the order they were added)."""

    combatant_ids: Annotated[list[Id], msgspec.Meta(max_length=50)] = msgspec.field(default_factory=list)
    side: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None
    one_roll: bool = True
    reason: Reason = ""


class DemandSurrender(Command, tag="DemandSurrender"):
    """Demand Surrender (2 AP, on your turn) of a human target: your Strength + Persuasion
    against the target's Morale. ``penalties``: how a Wounded or Afflicted combatant pays each
    Penalty Point (``StepDownDie``, one of your dice, or ``IncreaseCost``). Reported
    dice: your Strength die, then your Persuasion die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    target: CombatantId
    penalties: Penalties = msgspec.field(default_factory=list)


class Suppression(Command, tag="Suppression"):
    """Suppression (2 AP, on your turn): a shot at the cover the ``targets`` are behind (each must
    be in cover) with a ranged weapon at hand (``weapon``; none named: the first ranged weapon
    at hand, loaded: domain/places_of_power/loading.py). Each target
    rolls a Morale Check; NPCs that fail cannot act until the next round. Reported dice: one
    D20 per target, in the order named."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    targets: Annotated[list[Id], msgspec.Meta(min_length=1, max_length=20)]
    weapon: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    penalties: Penalties = msgspec.field(default_factory=list)


COMMANDS: tuple[type[Command], ...] = (MoraleCheck, DemandSurrender, Suppression)

# --------------------------------------------------------------------------- events


class MoraleTest(msgspec.Struct, kw_only=True):
    """One combatant's Morale Check: ``die`` is the index of its D20 in the event's ``dice``."""

    combatant_id: CombatantId
    morale: SheetValue[int, "combatant_id"]
    die: int
    held: bool


class MoraleChecked(Event, tag="MoraleChecked"):
    """``fled``: the NPCs whose Morale broke; they flee the battle."""

    dice: list[DieRoll]
    tests: Parties[list[MoraleTest]]
    fled: list[CombatantId]
    reason: str = ""

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class SurrenderDemanded(Event, tag="SurrenderDemanded"):
    """``roll``: the demander's Strength + Persuasion against the target's Morale (the target's
    side has no dice: its total is its Morale value). ``weapons_dropped``: on a success, the
    target's weapons at hand, now on the floor."""

    combatant_id: CombatantId
    target: CombatantId
    action_points: int
    roll: OpposedRolled
    success: bool
    weapons_dropped: list[str]

    def dice_rolled(self) -> list[DieRoll]:
        return self.roll.dice_rolled()


class SuppressionFired(Event, tag="SuppressionFired"):
    """``suppressed``: the NPCs that failed their Morale Check, unable to act this round."""

    combatant_id: CombatantId
    weapon: str
    action_points: int
    dice: list[DieRoll]
    tests: Parties[list[MoraleTest]]
    suppressed: list[CombatantId]

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


EVENTS: tuple[type[Event], ...] = (MoraleChecked, SurrenderDemanded, SuppressionFired)

# ---------------------------------------------------------------------------- rules


def roll_morale(targets: list[Combatant], dice: Dice, one_roll: bool, label: str
                ) -> tuple[list[DieRoll], list[MoraleTest]]:
    """A D20 at or under each target's Morale holds; one die for all, or one each."""
    rolled: list[DieRoll] = []
    tests: list[MoraleTest] = []
    for c in targets:
        if not rolled or not one_roll:
            one_for_all = one_roll and len(targets) > 1  # the GM's one die for them all
            rolled.append(dice.roll(WILLPOWER_DIE, label, None if one_for_all else c.id))
        value = morale_of(c)
        tests.append(MoraleTest(combatant_id=c.id, morale=value, die=len(rolled) - 1,
                                held=rolled[-1].face <= value))
    return rolled, tests


def _distinct(ruleset: Any, state: EncounterState, ids: list[str]) -> list[Combatant]:
    if len(set(ids)) != len(ids):
        raise RuleViolation("invalid_target", "Name each combatant once.")
    return [ruleset.combatant(state, cid) for cid in ids]


def morale_check(ruleset: Any, state: EncounterState, cmd: MoraleCheck, dice: Dice) -> list[Event]:
    if (cmd.side is None) == (not cmd.combatant_ids):
        raise RuleViolation("missing_detail", "Name the NPCs (`combatant_ids`) or a side (`side`), not both.")
    if cmd.side is not None:
        npcs = sorted((c for c in state.combatants.values()
                       if c.side == cmd.side and c.controller == "gm" and not out_of_the_fight(state, c)),
                      key=lambda c: c.seq)
        if not npcs:
            raise RuleViolation("invalid_target", f"No NPC remains in the fight on side “{cmd.side}”.")
    else:
        npcs = _distinct(ruleset, state, cmd.combatant_ids)
        for c in npcs:
            if c.controller != "gm":
                raise RuleViolation("invalid_target", f"{c.name} is a player character: a Morale Check makes "
                                    "NPCs flee (test a player's willpower with WillpowerRoll).")
            if out_of_the_fight(state, c):
                raise RuleViolation("invalid_target", f"{c.name} is no longer in the fight.")
    rolled, tests = roll_morale(npcs, dice, cmd.one_roll, "morale check")
    return [MoraleChecked(dice=rolled, tests=tests, fled=[t.combatant_id for t in tests if not t.held],
                          reason=cmd.reason)]


def _opponent(state: EncounterState, c: Combatant, target: Combatant) -> Combatant:
    if target.id == c.id or out_of_the_fight(state, target):
        raise RuleViolation("invalid_target", f"{target.name} cannot be the target.")
    return target


def _pay(ruleset: Any, state: EncounterState, c: Combatant, penalties: list[str], cost: int, what: str) -> int:
    """No difficulty to raise and no die of the action to shrink (the targets roll): Penalty
    Points are paid in Action Points."""
    cost_only(penalties)
    pay = apply_penalties(penalties, penalty_owed(state, c.id), difficulty="Normal", dice=(), cost=cost,
                          base_damage=0)
    ruleset.spend_action_points(c, pay.cost, what)
    return pay.cost


def demand_surrender(ruleset: Any, state: EncounterState, cmd: DemandSurrender, dice: Dice) -> list[Event]:
    """The reading of "an Opposed Roll between your Persuasion + Strength and the target's Morale
    level": the target rolls nothing. Its Morale is a level, a value (like a difficulty level),
    and a Morale value is rolled *under* on a D20, so no roll of the target's could sensibly be
    compared to the demander's total. The Morale value stands as the target's total, and as in
    every opposed roll the higher total wins: the demander must beat it; a tie holds."""
    c = ruleset.require_turn(state, cmd.combatant_id)
    target = _opponent(state, c, ruleset.combatant(state, cmd.target))
    if not is_human(target):
        raise RuleViolation("not_human", f"{target.name} is not human: a surrender can only be demanded of a "
                            "human target.")
    side = Contestant(combatant_id=c.id, attribute="strength", skill="Persuasion")
    pay = pay_opposed(state, side, cmd.penalties, penalty_owed(state, c.id), DEMAND_SURRENDER_COST)
    ruleset.spend_action_points(c, pay.cost, "Demand Surrender")
    cost = pay.cost
    mine = roll_contestant(state, side, dice, sizes=pay.dice)
    theirs = ContestantRolled(combatant_id=target.id, dice=[], bonus=morale_of(target), total=morale_of(target))
    success = mine.total > theirs.total
    winner = None if mine.total == theirs.total else (c.id if success else target.id)
    by_level = winner is not None and level_reached(mine.total) != level_reached(theirs.total)
    roll = OpposedRolled(sides=[mine, theirs], winner=winner, by_a_level=by_level, reason="Demand Surrender")
    s = sheet(target)
    # "drop any weapon they have in their hands": the sheet does not say which weapons at hand
    # are in the hands, so every weapon at hand is laid down
    dropped = [w.name for w in s.weapons if w.name not in s.dropped_weapons] if success else []
    return [SurrenderDemanded(combatant_id=c.id, target=target.id, action_points=cost, roll=roll, success=success,
                              weapons_dropped=dropped)]


def suppression(ruleset: Any, state: EncounterState, cmd: Suppression, dice: Dice) -> list[Event]:
    c = ruleset.require_turn(state, cmd.combatant_id)
    s = sheet(c)
    ranged = [w for w in s.weapons if w.kind == "ranged" and w.name not in s.dropped_weapons]
    weapon = next((w for w in ranged if cmd.weapon in (None, w.name)), None)
    if weapon is None:
        if cmd.weapon is not None and all(w.name != cmd.weapon for w in s.weapons):
            raise RuleViolation("unknown_weapon", f"{c.name} has no {cmd.weapon} at hand.")
        raise RuleViolation("wrong_weapon", "Suppression needs a loaded ranged weapon at hand.")
    loading.check_loaded(c, weapon)  # "Requires the player to have a loaded ranged weapon"
    targets = [_opponent(state, c, t) for t in _distinct(ruleset, state, cmd.targets)]
    for t in targets:
        if not sheet(t).in_cover:
            raise RuleViolation("not_in_cover", f"{t.name} is not behind cover: Suppression fires at the cover "
                                "its targets are behind.", combatant_id=t.id)
    cost = _pay(ruleset, state, c, cmd.penalties, SUPPRESSION_COST, "Suppression")
    rolled, tests = roll_morale(targets, dice, False, "suppression")
    npcs = {t.id for t in targets if t.controller == "gm"}  # "Any NPCs that fail the check"
    return [SuppressionFired(combatant_id=c.id, weapon=weapon.name, action_points=cost, dice=rolled, tests=tests,
                             suppressed=[t.combatant_id for t in tests if not t.held and t.combatant_id in npcs])]


DECISIONS: dict[type[Command], Any] = {
    MoraleCheck: morale_check,
    DemandSurrender: demand_surrender,
    Suppression: suppression,
}


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    m = morale(state)
    match event:
        case MoraleChecked():
            return _with_morale(state, fled=[*m.fled, *(f for f in event.fled if f not in m.fled)])
        case SurrenderDemanded():
            state = spend(state, event.combatant_id, event.action_points)
            if not event.success:
                return state
            s = sheet(state.combatants[event.target])
            state = with_sheet(state, event.target, dropped_weapons=[*s.dropped_weapons, *event.weapons_dropped])
            if event.target in m.surrendered:
                return state
            return _with_morale(state, surrendered=[*m.surrendered, event.target])
        case SuppressionFired():  # "Fire a shot at the cover": the load spent
            state = loading.fired(spend(state, event.combatant_id, event.action_points), event.combatant_id,
                                  event.weapon)
            return _with_morale(state, suppressed=[*m.suppressed, *(x for x in event.suppressed
                                                                    if x not in m.suppressed)])
    return None


def round_began(state: EncounterState) -> EncounterState:
    """Suppression lasts "this round": a new round frees the suppressed."""
    if not morale(state).suppressed:
        return state
    return _with_morale(state, suppressed=[])


# ---------------------------------------------------------------------------- gate

# Commands a combatant sends that are not acting: steps of an attack already under way,
# letting go of a grapple, settling what falls due, rolling a check the GM called for.
NOT_ACTING = frozenset({
    "ChooseCriticalEffect", "SpendSuccesses", "PullYourPunch", "ReleaseGrapple", "ResolveStatus", "RollCheck",
    "ReRoll", "SpendHeroPoint",
})
# Taking a blow is not an action: no Action Points, no dice of one's own.
TAKING_IT = frozenset({"Armour", "TakeIt", "HelmetSacrifice"})
# The GM's commands that are an NPC's action on its turn.
GM_ACTIONS = frozenset({"GmCostedAction", "UseSpecialAction"})


def acting(command: Command) -> str | None:
    """The combatant ``command`` makes act, if it is an action: the actor of a command a
    player may send for their own combatant, or the NPC of the GM's action commands."""
    name = type(command).__name__
    if name in GM_ACTIONS:
        return getattr(command, "combatant_id", None)
    if name in NOT_ACTING or getattr(command, "defence", None) in TAKING_IT:
        return None
    return command.acting_combatant()


def unable_to_act(ruleset: Any, state: EncounterState, command: Command) -> None:
    cid = acting(command)
    if cid is None or state.status != "active":
        return
    m = morale(state)
    c = state.combatants.get(cid)
    name = c.name if c is not None else cid
    if cid in m.fled:
        raise RuleViolation("fled", f"{name} has fled the battle and can no longer act.", combatant_id=cid)
    if cid in m.suppressed:
        raise RuleViolation("suppressed", f"{name} is suppressed: unable to act this round, and must remain in "
                            "cover.", combatant_id=cid)


GATES = (unable_to_act,)
