"""Places of Power as a decider."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.core.action_points import ActionPointBudget
from domain.core.dice import Dice
from domain.core.encounter import (
    AddCombatant,
    Combatant,
    CombatantAdded,
    Command,
    EncounterState,
    Event,
    InitiativeRolled,
)
from domain.core.errors import RuleViolation
from domain.core.next_moves import Offer
from domain.core.pending import Decision as PendingDecision
from domain.core.ruleset import CommandInfo, Ruleset, replace
from domain.places_of_power import (
    attacks,
    check_odds,
    codes,
    concealed,
    check_rolls,
    grapples,
    healing,
    conditions,
    contests,
    enemies,
    hero_points,
    hits,
    initiative,
    injuries,
    levelling,
    loading,
    magic,
    morale,
    movement,
    next_moves,
    non_lethal,
    pending,
    pull_your_punch,
    statistics,
    statuses,
    weapons_at_hand,
)
from domain.places_of_power.action_points import budget_for
from domain.places_of_power.actions import ACTION_COSTS, ActionTaken, GmCostedAction, TakeAction
from domain.places_of_power.sheet import Sheet, bad_skill_die
from domain.places_of_power.coverage import COVERAGE, Section
from domain.places_of_power.grapples import cost_only, penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.table import Rules, can_act

if TYPE_CHECKING:
    from collections.abc import Mapping

    from domain.core.demo import DemoFight
    from domain.core.log import Sentence, Wording
    from domain.core.tally import Exchange, Step, Tally

Decision = Callable[["PlacesOfPower", EncounterState, Any, Dice], list[Event]]

# Each command of the ruleset and the rule that decides it.
DECISIONS: dict[type[Command], Decision] = {
    check_rolls.CallForCheck: lambda r, s, c, d: check_rolls.call_for_check(s, c),
    check_rolls.RollCheck: lambda r, s, c, d: check_rolls.roll_check(s, c, d),
    check_rolls.ReRoll: lambda r, s, c, d: check_rolls.re_roll(s, c, d),
    conditions.ApplyCondition: lambda r, s, c, d: conditions.apply_condition(s, c),
    conditions.RemoveCondition: lambda r, s, c, d: conditions.remove_condition(s, c),
    hits.SetHits: lambda r, s, c, d: hits.set_hits(s, c),
    hero_points.StartSession: lambda r, s, c, d: hero_points.start_session(s, c),
    hero_points.AwardHeroPoint: lambda r, s, c, d: hero_points.award(s, c),
    hero_points.SpendHeroPoint: lambda r, s, c, d: hero_points.spend(s, c),
    contests.OpposedRoll: lambda r, s, c, d: contests.opposed(s, c, d),
    contests.WillpowerRoll: lambda r, s, c, d: contests.willpower(s, c, d),
    levelling.LongRest: lambda r, s, c, d: levelling.long_rest(s, c, d),
    attacks.Attack: lambda r, s, c, d: attacks.declare(r, s, c, d),
    attacks.ChooseCriticalEffect: lambda r, s, c, d: attacks.choose_critical(s, c),
    attacks.SpendSuccesses: lambda r, s, c, d: attacks.spend(s, c),
    attacks.Defend: lambda r, s, c, d: attacks.defend(r, s, c, d),
    attacks.ResolveMishap: lambda r, s, c, d: attacks.mishap(s, c, d),
    attacks.RegainBalance: lambda r, s, c, d: attacks.regain_balance(r, s, c),
    grapples.Grapple: lambda r, s, c, d: grapples.grapple(r, s, c, d),
    grapples.ReleaseGrapple: lambda r, s, c, d: grapples.release(s, c),
    grapples.BreakFree: lambda r, s, c, d: grapples.break_free(r, s, c, d),
    grapples.Squeeze: lambda r, s, c, d: grapples.squeeze(r, s, c),
    non_lethal.NonLethalAttack: lambda r, s, c, d: non_lethal.non_lethal(r, s, c, d),
    non_lethal.Taunt: lambda r, s, c, d: non_lethal.taunt(r, s, c, d),
    weapons_at_hand.SwapWeapons: lambda r, s, c, d: weapons_at_hand.swap(r, s, c),
    healing.Heal: lambda r, s, c, d: healing.heal(r, s, c, d),
}
# Rule modules written to one shape: each exports COMMANDS, EVENTS, DECISIONS ({command type:
# decide(ruleset, state, command, dice)}) and evolve(state, event) -> state | None; and, when it
# needs them, GATES (checks every action passes, gate(ruleset, state, command)), AFTER_FIGHT
# (commands taken once the fight has ended), round_began(state), turn_began(state, id),
# turn_finished(state, id) and before_end_turn(state).
MODULES: tuple[Any, ...] = (statuses, magic, injuries, movement, morale, enemies, pull_your_punch,)
for _module in MODULES:
    DECISIONS.update(_module.DECISIONS)
GATES: tuple[Callable[[Any, EncounterState, Command], None], ...] = tuple(
    g for m in MODULES for g in getattr(m, "GATES", ())
)


def action_taken(state: EncounterState, event: ActionTaken) -> EncounterState:
    """A common action: its Action Points paid, and what Stand, Take Cover and Dash change."""
    combatants = dict(state.combatants)
    c = combatants[event.combatant_id]
    sheet = c.sheet
    if event.action == "Stand":
        sheet = replace(sheet, prone=False)
    elif event.action == "TakeCover":
        sheet = replace(sheet, in_cover=True)
    combatants[c.id] = replace(c, action_points=c.action_points - event.action_points, sheet=sheet)
    moved = movement.dashed(state) if event.action == "Dash" else state
    moved = replace(moved, combatants=combatants)
    return loading.loaded(moved, c.id, event.weapon) if event.weapon is not None else moved


# Each rule module folds its own events: evolve(state, event) -> state for every type in its EVENTS
# (and None for any other); a module may also give its step for each type, as EVOLVES.
EVOLVES: dict[type[Event], Callable[[EncounterState, Any], EncounterState]] = {ActionTaken: action_taken}
for _module in (*MODULES, check_rolls, hits, hero_points, levelling, contests, attacks, grapples, non_lethal,
                weapons_at_hand, healing):
    _steps = getattr(_module, "EVOLVES", {})
    EVOLVES.update({kind: _steps.get(kind, _module.evolve) for kind in _module.EVENTS})


def _hooks(name: str) -> tuple[Callable[..., Any], ...]:
    """The modules' ``name`` hooks, in the order of MODULES."""
    return tuple(getattr(m, name) for m in MODULES if hasattr(m, name))


ROUND_BEGAN, TURN_BEGAN, TURN_FINISHED, BEFORE_END_TURN = (
    _hooks("round_began"), _hooks("turn_began"), _hooks("turn_finished"), _hooks("before_end_turn"))


class PlacesOfPower(Ruleset):
    id = "places-of-power"
    listed = 0
    capabilities = frozenset({"demo", "coverage", "odds", "tally"})
    name = "Places of Power"
    sheet_type = Sheet
    extra_commands = (
        TakeAction, GmCostedAction, *check_rolls.COMMANDS, *conditions.COMMANDS, *hits.COMMANDS, *hero_points.COMMANDS,
        *contests.COMMANDS, *levelling.COMMANDS, *attacks.COMMANDS, *grapples.COMMANDS, *non_lethal.COMMANDS,
        *weapons_at_hand.COMMANDS, *healing.COMMANDS, *(c for m in MODULES for c in m.COMMANDS),
    )
    extra_events = (
        ActionTaken, *check_rolls.EVENTS, *hits.EVENTS, *hero_points.EVENTS, *contests.EVENTS, *levelling.EVENTS,
        *attacks.EVENTS, *grapples.EVENTS, *non_lethal.EVENTS, *weapons_at_hand.EVENTS,
        *healing.EVENTS, *(e for m in MODULES for e in m.EVENTS),
    )
    after_fight_commands = tuple(c for m in MODULES for c in getattr(m, "AFTER_FIGHT", ()))
    reserved_ids = frozenset({initiative.NPC_GROUP})
    # "sees an NPC's name, visible condition and wound level, not its sheet"; its Status Effects
    # show (a burning, bleeding or paralysed enemy is plain to see, and attacks depend on them)
    visible_sheet_fields = ("hits", "conditions", "prone", "dead", "injuries", "statuses")

    def decide_add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        problem = bad_skill_die(cmd.sheet)
        if problem is not None:  # msgspec names no dict key: say which skill
            raise RuleViolation("invalid_sheet", f"The character sheet is not valid for {self.name}: {problem}.")
        added = super().decide_add_combatant(state, cmd)
        enemies.check_enemy(added)  # a Stat Block: the GM's, with the reduced skill list
        return added

    def initial_rules(self) -> Rules:
        return Rules()

    def budget(self, combatant: Combatant) -> ActionPointBudget:
        return budget_for(combatant)

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        return initiative.roll(state, dice)

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        initiative.check_order(state, order)

    def place_joiner(self, state: EncounterState, added: CombatantAdded) -> list[str]:
        return initiative.place_joiner(state, added)

    def pending(self, state: EncounterState) -> list[PendingDecision]:
        return pending.pending(self, state)

    # the next moves (next_moves.py): what each combatant may try now, the GM's rulings

    initiative_dice = next_moves.INITIATIVE_DICE

    def moves(self, state: EncounterState, combatant_id: str) -> list[Offer]:
        return next_moves.moves(self, state, combatant_id)

    def may_act(self, state: EncounterState) -> list[str]:
        return next_moves.may_act(state)

    def rulings(self, state: EncounterState) -> list[Offer]:
        return next_moves.rulings(state)

    def examples(self) -> list[tuple[str, dict[str, Any]]]:
        return next_moves.examples()

    def out_of_fight(self, state: EncounterState, combatant: Combatant) -> bool:
        return next_moves.out_of_fight(state, combatant)

    # before_end_turn: the base's. What refused ending a turn here (an attack being resolved, a
    # Bleeding or Burning due) are pending decisions: Ruleset.decide_end_turn refuses while they wait.

    def round_began(self, state: EncounterState) -> EncounterState:
        for hook in ROUND_BEGAN:
            state = hook(state)
        return state

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        for hook in TURN_BEGAN:
            state = hook(state, combatant_id)
        return state

    def turn_finished(self, state: EncounterState, combatant_id: str) -> EncounterState:
        for hook in TURN_FINISHED:
            state = hook(state, combatant_id)
        return state

    def check_gates(self, state: EncounterState, command: Command) -> None:
        """The checks every action passes before its own rule (each module's GATES)."""
        for gate in GATES:
            gate(self, state, command)

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        self.check_gates(state, command)
        if isinstance(command, TakeAction):
            c = self.require_turn(state, command.combatant_id)
            can_act(c)
            if command.action == "Stand" and not c.sheet.prone:
                raise RuleViolation("not_prone", f"{c.name} is not Prone.")
            if command.action in ("Dash", "ClimbLeap") and statuses.has(c, "Crippled"):
                # Crippled: "You cannot use Dash or Climb/Leap actions until this effect is healed."
                raise RuleViolation("crippled", f"{c.name} is Crippled and cannot Dash, Climb or Leap.")
            cost, _ = ACTION_COSTS[command.action]
            # "When your character is Wounded or Afflicted then they must apply Penalty Points
            # when performing any actions": a common action rolls no dice and has no difficulty
            # (Climb/Leap's Athletics check is the GM's call, paid when rolled), so its Penalty
            # Points are paid in Action Points; a raised difficulty would be a point paid free
            cost_only(command.penalties)
            pay = apply_penalties(command.penalties, penalty_owed(state, c.id), difficulty="Normal", dice=(),
                                  cost=cost, base_damage=0)
            weapon = loading.to_load(c, command.action, command.weapon) if command.action in loading.WORDS else None
            if command.weapon is not None and command.action not in loading.WORDS:
                raise RuleViolation("nothing_to_load", f"{command.action} names no weapon: only a reloading action does.")
            self.spend_action_points(c, pay.cost, command.action)
            return [ActionTaken(combatant_id=c.id, action=command.action, action_points=pay.cost, weapon=weapon)]
        if isinstance(command, GmCostedAction):
            c = self.require_turn(state, command.combatant_id)
            self.spend_action_points(c, command.action_points, command.description)
            return [ActionTaken(combatant_id=c.id, action=command.action, action_points=command.action_points,
                                description=command.description)]
        decision = DECISIONS.get(type(command))
        if decision is None:
            return super().decide_action(state, command, dice)
        named = getattr(command, "combatant_id", None)
        if named is not None:
            self.combatant(state, named)  # a clear refusal for an unknown combatant
        return decision(self, state, command, dice)

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        evolve = EVOLVES.get(type(event))
        if evolve is None:
            return super().evolve_action(state, event)
        return statuses.after_event(state, evolve(state, event))

    def coverage(self) -> list[Section]:
        return COVERAGE

    own_codes = codes.CODES
    rule_texts = {"dice": "places-of-power-dice.txt", "combat": "places-of-power-combat.txt"}
    odds_query = check_odds.CheckOddsQuery
    odds_answer = check_odds.Odds
    odds_operation_id = "getCheckOdds"

    def odds(self, query: check_odds.CheckOddsQuery) -> check_odds.Odds:
        return check_odds.check_odds(query)

    def shown(self, state: EncounterState) -> EncounterState:
        # the exchange's choices, as the checks that accept Defend or PullYourPunch judge them now
        return attacks.with_choices(self, state)

    def groups(self, state: EncounterState) -> dict[str, list[str]]:
        # "the GM rolls one D12 + the best NPC modifier for all NPCs"
        return {initiative.NPC_GROUP: [c.id for c in state.combatants.values() if c.controller == "gm"]}

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> Rules:
        return concealed.conceal_rules(state, hidden)

    def command_info(self) -> list[CommandInfo]:
        return [
            CommandInfo(type="TakeAction", summary=f"{name}: {text}", action_points=cost, who="the acting combatant")
            for name, (cost, text) in ACTION_COSTS.items()
        ]

    # what it tells: its log sentences, what its events count, its demo fight
    # (imported here, not above, so that these hooks stay in one place of the class)

    def sentences(self) -> Mapping[str, Sentence]:
        from domain.places_of_power import log

        return log.SENTENCES

    def wording(self) -> Wording:
        from domain.places_of_power import log

        return log.WORDING

    def exchange(self, event: Event) -> Step | None:
        return statistics.exchange(event)

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        return statistics.tally(event, exchange)

    def counted_events(self) -> frozenset[type[Event]]:
        return statistics.counted(self.event_types)

    def demo(self) -> DemoFight:
        from domain.places_of_power.demo import AmbushAtTheFord

        return AmbushAtTheFord()
