"""Events into the state: each event type's step made once (the lifecycle's own, or the game's
``action_step``), with whom it is about noted while someone hidden is here, its secret rolls, the
dice it used and the version counted; a history replayed (with its retcons); resources refilled
at the moments they refill; the sheets a fight seats read once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from domain.core import retcon
from domain.core.concerns import Shape, shape_of
from domain.core.encounter import (
    Combatant,
    CombatantAdded,
    CombatantRemoved,
    CombatantRevealed,
    EncounterEnded,
    EncounterOpened,
    EncounterStarted,
    EncounterState,
    Event,
    InitiativeRolled,
    Retconned,
    RollRevealed,
    RoundStarted,
    TurnEnded,
    TurnOrderSet,
)
from domain.core.resources import Moment, held

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset

replace = msgspec.structs.replace
Step = Callable[[EncounterState, Any], EncounterState]

SHEETS_KEPT = 256  # sheets a fold keeps read (``Fold.sheet``)
_SHEET_KEY = msgspec.msgpack.Encoder()


class NeedsHistory(ValueError):
    """A retcon needs the history (the caller's to read): ``decide`` and ``replay`` take it."""


def hidden_here(state: EncounterState) -> bool:
    """Whether a hidden combatant is in the fight now."""
    combatants = state.combatants
    return any(c in combatants for c in state.concealed)


class Fold:
    """A game's fold: ``evolve`` and ``replay``, asking ``game`` its hooks."""

    def __init__(self, game: Ruleset, *, refilled_at: frozenset[Moment], turn_hooks: tuple[bool, bool],
                 plain_evolve: bool) -> None:
        self.game = game
        # how evolve folds each event type (``evolver``), filled as types are met
        self.steps: dict[type[Event], Step] = {}
        # the sheets a fold has read, by their payload (see ``sheet``); a frozen sheet type's only
        self.sheets: dict[bytes, Any] | None = {} if getattr(
            getattr(game.sheet_type, "__struct_config__", None), "frozen", False) else None
        # what the fold can skip: the moments nothing refills at, the turn's hooks the game left as core's
        self.refilled_at = refilled_at
        self.turn_hooks = turn_hooks
        # whether the game's ``evolve`` is the engine's (``replay`` then calls each type's step itself)
        self.plain_evolve = plain_evolve
        self._lifecycle: tuple[tuple[type[Event], Step], ...] = (
            (CombatantAdded, self.added),
            (CombatantRemoved, game.evolve_removed),
            (InitiativeRolled, game.evolve_initiative),
            (TurnOrderSet, lambda state, event: replace(state, order=list(event.order))),
            (EncounterStarted, lambda state, event: self.refill(replace(state, status="active"), "combat_start")),
            (RoundStarted, self.round),
            (TurnEnded, self.turn_ended),
            (EncounterEnded, lambda state, event: replace(state, status="ended", turn=None, seed=event.seed)),
            (CombatantRevealed, revealed),
            (RollRevealed, lambda state, event: replace(
                state, secret_versions=[v for v in state.secret_versions if v != event.version])),
            (EncounterOpened, _opened),
            (Retconned, _retconned),
        )

    def evolve(self, state: EncounterState, event: Event) -> EncounterState:
        kind = type(event)
        return (self.steps.get(kind) or self.evolver(kind))(state, event)

    def replay(self, events: Sequence[Event], state: EncounterState | None = None) -> EncounterState:
        """Fold ``events`` (from ``state``, or from the opening). A ``Retconned`` event goes
        back to the state at its target version, which this fold has passed (so a history
        with retcons is replayed from its opening). Most histories hold no retcon: the fold
        does not look for one first, and starts again keeping the states retcons go back to
        once it meets one (a history with a retcon is folded that far twice)."""
        rest = iter(events)
        after = 0  # the events before the fold's own: the opening
        if state is None:
            event = next(rest, None)
            if event is None:
                raise ValueError("no events to replay")
            if not isinstance(event, EncounterOpened):
                raise ValueError("an encounter's history starts with EncounterOpened")
            state = self.game.initial_state(event)
            after = 1
        start = state
        evolve = self.game.evolve
        try:  # most histories hold no retcon: a plain fold (a Retconned event's step refuses it)
            if self.plain_evolve:  # each type's step (``evolver``), without the call to evolve
                steps, evolver = self.steps, self.evolver
                for event in rest:
                    state = (steps.get(type(event)) or evolver(type(event)))(state, event)
            else:
                for event in rest:
                    state = evolve(state, event)
            return state
        except NeedsHistory:
            if not any(isinstance(e, Retconned) for e in events):
                raise
        # with a retcon: again, keeping the states the retcons go back to as the fold passes them
        targets = {e.to_version for e in events if isinstance(e, Retconned)}
        state = start
        kept: dict[int, EncounterState] = {state.version: state} if state.version in targets else {}
        for event in events[after:]:
            if isinstance(event, Retconned):
                if event.to_version not in kept:
                    raise NeedsHistory("a Retconned event is replayed with the history up to its target version")
                state = retcon.retconned(kept[event.to_version], state, event)
            else:
                state = evolve(state, event)
            if state.version in targets:
                kept[state.version] = state
        return state

    def evolver(self, kind: type[Event]) -> Step:
        """``evolve`` for an event of type ``kind``, made once (kept in ``steps``; ``replay`` calls it
        without going through ``evolve``): its fold, then whom it is about noted if someone hidden is
        concerned, its secret rolls, the dice it used, the version counted."""
        fold, rolls, secret, shape = self.step_for(kind)
        names = shape.names_anything

        def evolved(state: EncounterState, event: Any) -> EncounterState:
            # someone hidden is here (before the event: one it removes; after it: one it adds), or
            # the event is a step of something about one who was: note whom it is about
            noted = names and bool(state.concealed) and hidden_here(state)
            state = fold(state, event)
            if names and state.concealed and (
                    noted or hidden_here(state) or shape.refers_into(event, state.concealed_events)):
                state = note_concealed(state, event, shape)
            version = state.version + 1
            if secret and getattr(event, "secret", False) is True:
                # an event with secret rolls: players see them once the GM reveals them (RevealRoll)
                state = replace(state, secret_versions=[*state.secret_versions, version])
            if not rolls:
                return replace(state, version=version)
            used = state.rolls_used
            for die in event.dice_rolled():
                if die.index is not None and die.index >= used:
                    used = die.index + 1
            return replace(state, version=version, rolls_used=used)

        self.steps[kind] = evolved
        return evolved

    def step_for(self, kind: type[Event]) -> tuple[Step, bool, bool, Shape]:
        """How ``evolve`` folds an event of type ``kind``: the lifecycle's own step for a
        lifecycle event (or a subclass of one), else the game's ``action_step``; whether the type
        can roll dice (overrides ``dice_rolled``) and can be secret; what it names. Once per type."""
        fold = next((step for base, step in self._lifecycle if issubclass(kind, base)), None)
        if fold is None:
            fold = self.game.action_step(kind)
        return fold, kind.dice_rolled is not Event.dice_rolled, hasattr(kind, "secret"), shape_of(kind)

    # One step per lifecycle event: the state after it, before ``evolver`` counts the version.

    def added(self, state: EncounterState, event: CombatantAdded) -> EncounterState:
        combatant = Combatant(
            id=event.combatant_id,
            name=event.name,
            side=event.side,
            controller=event.controller,
            sheet=self.sheet(event.sheet),
            action_points=event.action_points,
            seq=event.seq,
            hidden=event.hidden,
        )
        combatants = dict(state.combatants)
        combatants[combatant.id] = combatant
        order = state.order
        rolled = state.initiative_rolled
        if state.status == "active":
            order = order + [combatant.id]
        elif rolled:
            rolled = False  # the order no longer covers everyone: roll again before starting
        state = replace(
            state,
            combatants=combatants,
            order=order,
            initiative_rolled=rolled,
            combatants_added=state.combatants_added + 1,
            concealed=[*state.concealed, combatant.id] if combatant.hidden else state.concealed,
        )
        if state.status == "active":  # one joining a fight in progress has what a round gives
            state = self.refill(self.refill(state, "combat_start", [combatant.id]), "round_start", [combatant.id])
        return state

    def round(self, state: EncounterState, event: RoundStarted) -> EncounterState:
        grants = event.action_points
        combatants = state.combatants
        for cid, c in combatants.items():
            if grants.get(cid, c.action_points) != c.action_points:  # someone's AP change: copied
                combatants = {cid: c if grants.get(cid, c.action_points) == c.action_points
                              else replace(c, action_points=grants[cid]) for cid, c in combatants.items()}
                break
        state = replace(state, round=event.round, combatants=combatants,
                        turn=state.order[0] if state.order else None, acted=[])
        state = self.game.round_began(self.refill(state, "round_start"))
        if state.turn is not None:
            state = self.turn_began(state, state.turn)
        return state

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """The fold as a turn begins: what refills then, then the game's ``turn_began`` (each only
        when it can do anything)."""
        if "turn_start" in self.refilled_at:
            state = self.refill(state, "turn_start", [combatant_id])
        return self.game.turn_began(state, combatant_id) if self.turn_hooks[0] else state

    def turn_ended(self, state: EncounterState, event: TurnEnded) -> EncounterState:
        combatants = state.combatants
        if event.action_points is not None:
            combatants = dict(combatants)
            c = combatants[event.combatant_id]
            combatants[event.combatant_id] = replace(c, action_points=event.action_points)
        acted = [*state.acted, event.combatant_id]
        nxt = next((cid for cid in state.order if cid not in acted), None)
        state = replace(state, combatants=combatants, turn=nxt, acted=acted)
        if "turn_end" in self.refilled_at:
            state = self.refill(state, "turn_end", [event.combatant_id])
        if self.turn_hooks[1]:
            state = self.game.turn_finished(state, event.combatant_id)
        return state if nxt is None else self.turn_began(state, nxt)

    def refill(self, state: EncounterState, moment: Moment, combatant_ids: Sequence[str] | None = None) -> EncounterState:
        """The state once ``moment`` comes for ``combatant_ids`` (None: everyone): their
        resources refilling then are refilled. Nothing for a game without resources."""
        if moment not in self.refilled_at:
            return state
        combatants: dict[str, Combatant] | None = None  # copied once something refills
        here = state.combatants
        resources = self.game.resources
        for cid, c in here.items() if combatant_ids is None else [(i, here[i]) for i in combatant_ids if i in here]:
            declared = resources(c, state)
            if moment in declared.moments:  # declared.refills_at(moment), without the call
                if combatants is None:
                    combatants = dict(state.combatants)
                fresh = declared.afresh.get(moment)  # each Novus round's AP: what is held not read
                combatants[cid] = replace(
                    c, resources=dict(fresh) if fresh is not None else declared.at(moment, held(c)))
        return state if combatants is None else replace(state, combatants=combatants)

    def sheet(self, payload: Any) -> Any:
        """The sheet a CombatantAdded carries, read once for each payload: a fight seats the same
        sheets again and again (reading one is dearer than encoding its payload), and a frozen
        sheet is shared safely. Up to ``SHEETS_KEPT`` kept, then forgotten all at once."""
        sheets = self.sheets
        if sheets is None:
            return msgspec.convert(payload, self.game.sheet_type)
        key = _SHEET_KEY.encode(payload)
        sheet = sheets.get(key)
        if sheet is None:
            sheet = msgspec.convert(payload, self.game.sheet_type)
            if len(sheets) >= SHEETS_KEPT:
                sheets.clear()
            sheets[key] = sheet
        return sheet


def note_concealed(state: EncounterState, event: Event, shape: Shape) -> EncounterState:
    """Record the event (at the version it is about to get) if it is about a combatant hidden
    now: one it names outside a list, one who rolled its dice, or one an event it refers to
    (the attack or the check it is a step of) is about."""
    ids, refs = shape.subjects(event)
    for ref in refs:
        ids.update(state.concealed_events.get(ref, ()))
    about = [c for c in state.concealed if c in ids]
    if not about:
        return state
    return replace(state, concealed_events={**state.concealed_events, state.version + 1: about})


def removed(state: EncounterState, event: CombatantRemoved) -> EncounterState:
    """The state once a combatant leaves (``Ruleset.evolve_removed``'s default)."""
    combatants = dict(state.combatants)
    del combatants[event.combatant_id]
    order = [c for c in state.order if c != event.combatant_id]
    return replace(state, combatants=combatants, order=order)


def initiative(state: EncounterState, event: InitiativeRolled) -> EncounterState:
    """The state once initiative is rolled: each one's total, the groups', the order
    (``Ruleset.evolve_initiative``'s default)."""
    combatants = dict(state.combatants)
    groups = {}
    for roll in event.rolls:
        if roll.who in combatants:
            combatants[roll.who] = replace(combatants[roll.who], initiative=roll.total)
        else:
            groups[roll.who] = roll.total
    return replace(state, combatants=combatants, group_initiative=groups, order=list(event.order),
                   initiative_rolled=True, initiative_version=state.version + 1)


def revealed(state: EncounterState, event: CombatantRevealed) -> EncounterState:
    combatants = dict(state.combatants)
    combatants[event.combatant_id] = replace(combatants[event.combatant_id], hidden=False)
    concealed = [c for c in state.concealed if c != event.combatant_id]
    unseen = {}  # its history is everyone's now
    for version, about in state.concealed_events.items():
        rest = [c for c in about if c != event.combatant_id]
        if rest:
            unseen[version] = rest
    return replace(state, combatants=combatants, concealed=concealed, concealed_events=unseen)


def _opened(state: EncounterState, event: EncounterOpened) -> EncounterState:
    raise ValueError("EncounterOpened starts a history; it cannot follow one")


def _retconned(state: EncounterState, event: Retconned) -> EncounterState:
    raise NeedsHistory("a Retconned event goes back to an earlier state: replay the history")
