"""The decider every ruleset is: ``initial_state``, ``decide``, ``evolve``.

``Ruleset`` implements the shared encounter lifecycle once; a ruleset subclasses it and
fills the hooks (sheet, Action Point budget, initiative, turn-order limits) and adds its
own commands and events through ``decide_action`` / ``evolve_action``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, Union

import msgspec

from domain.core.action_points import ActionPointBudget
from domain.core.concerns import Shape, shape_of
from domain.core.dice import COMMITMENT_PREFIX, Dice, ReportedDice, commitment_digest
from domain.core.encounter import (
    LIFECYCLE_COMMANDS,
    LIFECYCLE_EVENTS,
    AddCombatant,
    Combatant,
    CombatantAdded,
    CombatantRemoved,
    CombatantRevealed,
    Command,
    EncounterEnded,
    EncounterOpened,
    EncounterStarted,
    EncounterState,
    EndEncounter,
    EndTurn,
    Event,
    InitiativeRolled,
    RemoveCombatant,
    Retcon,
    Retconned,
    RevealCombatant,
    RevealRoll,
    RollInitiative,
    RollRevealed,
    RoundStarted,
    SetTurnOrder,
    StartEncounter,
    TurnEnded,
    TurnOrderSet,
)
from domain.core import retcon
from domain.core.demo import DemoFight
from domain.core.log import Sentence, Wording
from domain.core.tally import Exchange, Step, Tally
from domain.core.pending import Decision
from domain.core.next_moves import Offer
from domain.core.coverage import Section
from domain.core.resources import MOMENTS, Moment, Resources, held, spend
from domain.core.errors import CODES, RuleViolation, check_id, clean_text, ruleset_codes
from domain.core.upcasting import SCHEMA_VERSIONS, UPCASTERS

replace = msgspec.structs.replace
NO_RESOURCES = Resources()

# Which ``Ruleset`` method folds each lifecycle event (any other event: ``evolve_action``).
_LIFECYCLE_STEPS: tuple[tuple[type[Event], str], ...] = (
    (CombatantAdded, "_evolve_added"),
    (CombatantRemoved, "evolve_removed"),
    (InitiativeRolled, "evolve_initiative"),
    (TurnOrderSet, "_evolve_order"),
    (EncounterStarted, "_evolve_started"),
    (RoundStarted, "_evolve_round"),
    (TurnEnded, "_evolve_turn_ended"),
    (EncounterEnded, "_evolve_ended"),
    (CombatantRevealed, "_evolve_revealed"),
    (RollRevealed, "_evolve_roll_revealed"),
    (EncounterOpened, "_evolve_opened"),
    (Retconned, "_evolve_retconned"),
)


# Who sends commands: the GM, or a player for their own combatants (spectators only read).
Sender = Literal["gm", "player"]


class CommandInfo(msgspec.Struct, kw_only=True):
    """What a frontend needs to offer a command in a menu."""

    type: str
    summary: str
    action_points: int | None = None
    who: str = "anyone"


class Ruleset(ABC):
    """Base decider: the encounter lifecycle, shared by every ruleset."""

    id: ClassVar[str]
    name: ClassVar[str]
    # where it stands in lists of rulesets (GET /rulesets, the console's choice): lowest first, then by id
    listed: ClassVar[int] = 100
    sheet_type: ClassVar[type[msgspec.Struct]]
    extra_commands: ClassVar[tuple[type[Command], ...]] = ()
    extra_events: ClassVar[tuple[type[Event], ...]] = ()
    # What players and spectators may see of an NPC's sheet (its wound level, conditions).
    visible_sheet_fields: ClassVar[tuple[str, ...]] = ()
    # Ids a combatant may not take because the ruleset's events use them for groups.
    reserved_ids: ClassVar[frozenset[str]] = frozenset()
    # Event payload versions: an event type absent here is at version 1. An upcaster
    # turns a stored payload of (type, version) into the payload of version + 1. A ruleset
    # adds to these, never replaces them (see domain/core/upcasting.py).
    schema_versions: ClassVar[dict[str, int]] = SCHEMA_VERSIONS
    upcasters: ClassVar[dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]]] = UPCASTERS
    # The moments at which any of ``resources()`` can refill, when the ruleset knows them: the
    # fold skips asking at the others (a speed-up only). None: asked at every moment.
    refill_moments: ClassVar[frozenset[Moment] | None] = None

    def __init__(self) -> None:
        self.command_types: tuple[type[Command], ...] = LIFECYCLE_COMMANDS + self.extra_commands
        self.event_types: tuple[type[Event], ...] = LIFECYCLE_EVENTS + self.extra_events
        self.command_type: Any = Union[self.command_types]  # noqa: UP007 - runtime union of classes
        self.event_type: Any = Union[self.event_types]  # noqa: UP007
        self.command_decoder = msgspec.json.Decoder(self.command_type)
        self.event_decoder = msgspec.json.Decoder(self.event_type)
        # how evolve folds each event type (``_evolver``, from ``_step_for``), filled as types are met
        self._steps: dict[type[Event], Callable[[EncounterState, Any], EncounterState]] = {}
        # the sheets a fold has read, by their payload (see _sheet); a frozen sheet type's only
        self._sheets: dict[bytes, Any] | None = {} if getattr(
            getattr(self.sheet_type, "__struct_config__", None), "frozen", False) else None
        # what the fold can skip: the moments nothing refills at (``_refill``), the turn's hooks left as core's
        kind = type(self)
        self._refilled_at: frozenset[Moment] = frozenset() if kind.resources is Ruleset.resources \
            else frozenset(MOMENTS) if self.refill_moments is None else self.refill_moments
        self._turn_hooks = kind.turn_began is not Ruleset.turn_began, kind.turn_finished is not Ruleset.turn_finished

    def decode_event(self, type_name: str, schema_version: int, data: str | bytes) -> Event:
        """Decode a stored payload, upcasting it first when it was written by older rules."""
        current = self.schema_versions.get(type_name, 1)
        if schema_version == current:
            return self.event_decoder.decode(data)
        payload = msgspec.json.decode(data)
        while schema_version < current:
            payload = self.upcasters[(type_name, schema_version)](payload)
            schema_version += 1
        return msgspec.convert(payload, self.event_type)

    # ------------------------------------------------------------------ hooks

    @abstractmethod
    def budget(self, combatant: Combatant) -> ActionPointBudget:
        """The Action Point rhythm this combatant follows."""

    @abstractmethod
    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """Roll initiative for everyone and derive the order of play."""

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        """Refuse an order the rules do not allow. Default: any order."""

    def place_joiner(self, state: EncounterState, added: CombatantAdded) -> list[str]:
        """The order of play once ``added`` joins a fight in progress. Default: they act last."""
        return [*state.order, added.combatant_id]

    def after_removal(self, state: EncounterState, dice: Dice) -> list[Event]:
        """What follows at once when the GM takes a combatant out (``state``: after it), such as
        an action that was waiting only on them going on. Default: nothing."""
        return []

    def decide_action(self, state: EncounterState, command: Command, dice: Dice) -> list[Event]:
        raise RuleViolation("unknown_command", f"{type(command).__name__} is not a command of {self.name}.")

    def evolve_action(self, state: EncounterState, event: Event) -> EncounterState:
        raise TypeError(f"{type(event).__name__} is not an event of {self.name}")

    def action_step(self, kind: type[Event]) -> Callable[[EncounterState, Any], EncounterState]:
        """How ``evolve`` folds the ruleset's own events of type ``kind`` (asked once per type):
        ``evolve_action``, unless the ruleset gives that type's step itself (the same fold,
        without looking the type up again on every event)."""
        return self.evolve_action

    def command_info(self) -> list[CommandInfo]:
        return []

    def senders(self, command_type: type[Command]) -> tuple[Sender, ...]:
        """Who may send a command of ``command_type``: the GM any; a player too where it names
        the combatant who acts (its ``actor_field``), and then only for their own combatants.
        The server asks this of every command it is sent and lists it with each command, so a
        player's page offers only what they may send. A ruleset whose rules keep such a command
        for the GM narrows it; none widens it (a player acts only through a combatant)."""
        return ("gm", "player") if command_type.actor_field else ("gm",)

    # ---------------------------------------------------- what it documents

    def coverage(self) -> list[Section] | None:
        """Each section of the ruleset's text and what the engine does with it."""
        return None

    # The rule texts ``coverage`` follows, by chapter: a file of the shared rules for each (its
    # rows name the chapter; the contract suite checks the rows against each text's headings).
    rule_texts: ClassVar[dict[str, str]] = {}
    # Where those files are, a folder found beside the game's code or above it: ``shared/rules``
    # beside the checkout for the games of this repository; a game shipped on its own names its own.
    rules_folder: ClassVar[str] = "shared/rules"

    # What the game offers beyond the contract, declared (each checked against what it does by the
    # contract suite, and asked only of the games that declare it): ``demo`` (a demo fight),
    # ``coverage`` (a coverage table of its rule texts), ``odds`` (GET /rulesets/{id}/odds),
    # ``tally`` (statistics of attacks and hits, and the timeline's marks).
    capabilities: ClassVar[frozenset[str]] = frozenset()

    # The ruleset's own violation codes (its package's table, ``errors.ruleset_codes``): a
    # lifecycle code may not be redefined (refused as the class is made, ``__init_subclass__``).
    own_codes: ClassVar[dict[str, str]] = {}
    # The query ``GET /rulesets/{id}/odds`` takes (its fields are the query parameters, decoded
    # from their text) and what it answers; None: the ruleset has no odds (404 ``no_odds``).
    odds_query: ClassVar[type[msgspec.Struct] | None] = None
    odds_answer: ClassVar[type[msgspec.Struct] | None] = None
    # The odds operation's id in the OpenAPI document (default ``get<Name>Odds``).
    odds_operation_id: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "own_codes" in cls.__dict__:
            ruleset_codes(cls.own_codes)  # refuses a lifecycle code; a RuleViolation then takes them

    @property
    def violation_codes(self) -> dict[str, str]:
        """Every code this ruleset's refusals carry, with its meaning: the lifecycle's and its own."""
        return dict(sorted({**CODES, **self.own_codes}.items()))

    def odds(self, query: Any) -> msgspec.Struct:
        """The odds for ``query`` (an ``odds_query``): exact chances a frontend shows before a roll."""
        raise NotImplementedError(f"{self.name} has no odds")

    # -------------------------------------------------------- what it tells

    def sentences(self) -> Mapping[str, Sentence]:
        """The readable log's sentence of each of the ruleset's own event types, by type tag
        (and of any lifecycle event it words its own way; domain/core/log.py). Default: none."""
        return {}

    def wording(self) -> Wording:
        """The game's words in the lifecycle's sentences (its Action Points, who rolls for a
        group). Default: none of them."""
        return Wording()

    def exchange(self, event: Event) -> Step | None:
        """The attack exchange ``event`` is a step of (or opens), for the statistics. Default: none."""
        return None

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        """What ``event`` counts in the statistics (domain/core/tally.py); ``exchange``: the
        attack it is a step of, if any. Default: nothing."""
        return []

    def counted_events(self) -> frozenset[type[Event]] | None:
        """The event types ``tally`` may count something of or ``exchange`` may place in an
        exchange; an event of any other type counts nothing, so the statistics skip reading it
        (a speed-up only). None: any type may count (every event is read). Default: None."""
        return None

    def demo(self) -> DemoFight | None:
        """The ruleset's demo fight (``fracas demo --ruleset ID``). Default: none."""
        return None

    # ------------------------------------------------------------ the next moves

    # The order a ``reported`` encounter's ``RollInitiative`` takes its faces in, in words: each
    # ruleset's own (documented with the command in ``GET /rulesets/{id}`` and the OpenAPI document).
    initiative_dice: ClassVar[str] = "one die for each combatant, in the order they were added"
    # What an action spends, by the id its cost and ``Combatant.resources`` use, in the game's words
    # (``AP``: ``Combatant.action_points``, where the game counts them).
    resource_labels: ClassVar[dict[str, str]] = {"AP": "Action Points"}

    def acting(self, state: EncounterState) -> list[str]:
        """Who may make a move now (not an answer to a decision): the combatant whose turn it
        is. A ruleset whose rounds go in phases (Novus's declarations) names everyone who may."""
        if state.status != "active" or state.turn is None or state.turn not in state.combatants:
            return []
        return [state.turn]

    def may_act(self, state: EncounterState) -> list[str]:
        """Who may make a move now out of turn without the fight waiting on them (a Hero Point
        spent while defending, a grapple released "at any time"): offered their ``moves``, not
        named in ``waiting_on``. Default: nobody."""
        return []

    def moves(self, state: EncounterState, combatant_id: str) -> Iterable[Offer]:
        """What ``combatant_id`` may try as they act now, each a complete command body labelled
        in the game's words: an attack on each foe in reach, each action of the ruleset's list.
        Core adds ending the turn and keeps only what ``decide`` takes (domain/core/next_moves.py).
        Default: nothing but ending the turn."""
        return ()

    def rulings(self, state: EncounterState) -> Iterable[Offer]:
        """The GM's rulings that take free values (harm, heal, conditions, settings), each with a
        complete default body and the fields a client may vary (``Offer.vary``). Default: none."""
        return ()

    def examples(self) -> list[tuple[str, dict[str, Any]]]:
        """Ready-to-send combatant bodies (``POST /encounters/{id}/combatants``), labelled: a
        player character, a weak NPC and a strong NPC. Default: none."""
        return []

    def out_of_fight(self, state: EncounterState, combatant: Combatant) -> bool:
        """Whether ``combatant`` is out of the fight (dead, dying, unconscious, fled). Default: never."""
        return False

    def fight_over(self, state: EncounterState) -> bool:
        """Whether the fight is over: the GM ended it, or once it runs, fewer than two sides
        have anyone left in the fight (``out_of_fight``)."""
        if state.status == "ended":
            return True
        if state.status != "active":
            return False
        sides = {c.side for c in state.combatants.values() if not self.out_of_fight(state, c)}
        return len(sides) < 2

    def counts_action_points(self, combatant: Combatant) -> bool:
        """Whether the game counts Action Points in ``Combatant.action_points`` (its budget has
        any); a game without them keeps its action resources in ``Combatant.resources``."""
        return self.budget(combatant).maximum > 0

    def command_schemas(self) -> dict[str, Any]:
        """Each command's JSON Schema by type (its ``$defs`` inlined alongside), made once."""
        cached = getattr(self, "_command_schemas", None)
        if cached is None:
            out: dict[str, Any] = {}
            for kind in self.command_types:
                (schema,), defs = msgspec.json.schema_components([kind], ref_template="#/$defs/{name}")
                name = schema["$ref"].split("/")[-1] if "$ref" in schema else None
                body = dict(defs.get(name, schema)) if name else dict(schema)
                body["$defs"] = {k: v for k, v in defs.items() if k != name}
                out[kind.__struct_config__.tag] = body
            cached = self._command_schemas = out
        return cached

    # ------------------------------------------------------ who must decide

    def pending(self, state: EncounterState) -> list[Decision]:
        """The decisions the fight waits for now (the state as the asker may see it: a
        concealed state gives only what that viewer may be asked). Default: none."""
        return []

    def shown(self, state: EncounterState) -> EncounterState:
        """The state as clients are shown it: with what the ruleset derives from it for them
        (the legal choices of a decision), worked out when read rather than in every fold.
        Default: the state itself."""
        return state

    def accepts(self, state: EncounterState, command: Command) -> bool:
        """Whether ``decide`` would take ``command`` now, judged without rolling a die (one that
        gets as far as rolling has passed every check): how a ruleset finds the answer to a
        decision that its rules accept (the Penalty Points a Wounded combatant can pay)."""
        try:
            self.decide(state, command, _NoRolling())
        except RuleViolation:
            return False
        except _WouldRoll:
            return True
        return True

    def turn_end_refusal(self, state: EncounterState) -> RuleViolation | None:
        """The refusal ending the turn gets while a decision that blocks it waits, if any."""
        for decision in self.pending(state):
            if decision.blocks_turn_end:
                if decision.refusal is not None:
                    return decision.refusal.violation()
                return RuleViolation("decision_pending", f"{decision.summary or 'A decision'} is still awaited "
                                     f"({decision.command}).", decision=decision.id)
        return None

    # ------------------------------------------------------------- who sees what

    def hidden_from(self, state: EncounterState, own: frozenset[str] = frozenset()) -> frozenset[str]:
        """The combatants hidden from a viewer whose own combatants are ``own`` (a player's), and
        the groups all of whose members are hidden."""
        hidden = frozenset(state.concealed) - own
        if not hidden:
            return hidden
        groups = {g for g, members in self.groups(state).items() if members and all(m in hidden for m in members)}
        return hidden | groups

    def decide_as(
        self, hidden: frozenset[str], state: EncounterState, command: Command, dice: Dice, **context: Any,
    ) -> list[Event]:
        """``decide`` for a sender from whom the ``hidden`` combatants are hidden (a player's
        command). One that names a hidden combatant gets the answer an unknown id gets, and a
        refusal is explained from the state the sender may see: neither tells of them. A command
        that records nothing is refused (``nothing_changes``), never answered with no events."""
        events = self._decide_as(hidden, state, command, dice, **context)
        if not events:
            raise RuleViolation("nothing_changes", f"{type(command).__struct_config__.tag} would change nothing "
                                "in the fight now.")
        return events

    def _decide_as(
        self, hidden: frozenset[str], state: EncounterState, command: Command, dice: Dice, **context: Any,
    ) -> list[Event]:
        if not hidden:
            return self.decide(state, command, dice, **context)
        if isinstance(dice, ReportedDice):  # its own refusals reach the sender as it gave them
            dice = _Reporting(dice)
        if not shape_of(type(command)).ids(command).isdisjoint(hidden):
            refusal = self._refusal_unseen(self.conceal(state, hidden), command, context)
            raise refusal or RuleViolation(
                "unknown_combatant", "There is no such combatant in this encounter.") from None
        try:
            events = self.decide(state, command, dice, **context)
        except RuleViolation as refused:
            if isinstance(dice, _Reporting) and dice.refusal is refused:
                # the reported dice's own (a die missing, a face out of range): it names a die's
                # size and rule, no more than the offer's dice do, and the client needs it
                raise
            # explained from what the sender may see: a refusal there is the answer (even when the
            # whole state refuses for another reason, such as an exchange of a hidden attacker's:
            # telling that would tell of them); else the code alone, with its table's words
            told = self._refusal_unseen(self.conceal(state, hidden), command, context)
            if told is not None:
                raise told from None
            raise RuleViolation(refused.code, self.violation_codes.get(refused.code, "This command is refused.")) from None
        if events and _hidden_here(state) and self._answers_unseen(state, hidden, command):
            # an answer to a decision the sender cannot see (a hidden attacker's exchange, found by
            # guessing its version): refused as it is on what they see, as an unknown one is
            told = self._refusal_unseen(self.conceal(state, hidden), command, context)
            if told is not None:
                raise told
        return events

    def _answers_unseen(self, state: EncounterState, hidden: frozenset[str], command: Command) -> bool:
        """Whether ``command`` answers a decision the fight waits for that the sender, from whom
        ``hidden`` is hidden, is not asked (it concerns them)."""
        tag = type(command).__struct_config__.tag
        fields = msgspec.to_builtins(command)

        def answers(d: Decision) -> bool:  # its command, or another naming all it names (a pass)
            named = {k: v for k, v in d.body.items() if k != "type"}
            return (d.command == tag or len(named) >= 2) and all(fields.get(k) == v for k, v in named.items())

        answered = [d for d in self.pending(self.shown(state)) if answers(d)]
        if not answered:
            return False
        asked = {d.id for d in self.pending(self.conceal(self.shown(state), hidden))}
        return any(d.id not in asked for d in answered)

    def _refusal_unseen(self, seen: EncounterState, command: Command, context: dict[str, Any]) -> RuleViolation | None:
        """The refusal ``command`` gets on ``seen`` (a state without the hidden combatants), or
        None if it would pass there (or roll dice: it got past every check)."""
        try:
            self.decide(seen, command, _NoRolling(), **context)
        except RuleViolation as refused:
            return refused
        except _WouldRoll:
            return None
        return None

    def groups(self, state: EncounterState) -> dict[str, list[str]]:
        """Names the ruleset's events use for several combatants at once (a roll for all NPCs),
        and who they stand for. Default: none."""
        return {}

    def conceal(self, state: EncounterState, hidden: frozenset[str]) -> EncounterState:
        """The state as it would be without the ``hidden`` combatants: what a player or a
        spectator may see of it, and what their refused commands are explained from."""
        if not hidden:
            return state
        return replace(
            state,
            combatants={k: c for k, c in state.combatants.items() if k not in hidden},
            order=[c for c in state.order if c not in hidden],
            acted=[c for c in state.acted if c not in hidden],
            turn=None if state.turn in hidden else state.turn,
            group_initiative={g: t for g, t in state.group_initiative.items() if g not in hidden},
            rules=self.conceal_rules(state, hidden),
        )

    def conceal_rules(self, state: EncounterState, hidden: frozenset[str]) -> Any:
        """The ruleset's part of the state (``state.rules``) without the ``hidden`` combatants:
        each ruleset says what of it names them (a key that joins two ids is its own)."""
        return state.rules

    # --------------------------------------------------------------- decider

    def open(self, encounter_id: str, name: str, dice_policy: str, seed_sha256: str) -> list[Event]:
        name = clean_text(name, "The encounter's name")
        return [
            EncounterOpened(
                encounter_id=encounter_id,
                ruleset=self.id,
                name=name,
                dice_policy=dice_policy,
                seed_commitment=COMMITMENT_PREFIX + seed_sha256,
            )
        ]

    def initial_state(self, opened: EncounterOpened) -> EncounterState:
        return EncounterState(
            id=opened.encounter_id,
            ruleset=opened.ruleset,
            name=opened.name,
            dice_policy=opened.dice_policy,
            seed_sha256=commitment_digest(opened.seed_commitment) or opened.seed_commitment,
            version=1,
            rules=self.initial_rules(),
        )

    def initial_rules(self) -> Any:
        """The ruleset's own encounter-wide state, kept in ``EncounterState.rules``."""
        return None

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
            state = self.initial_state(event)
            after = 1
        start = state
        evolve = self.evolve
        try:  # most histories hold no retcon: a plain fold (a Retconned event's step refuses it)
            if type(self).evolve is Ruleset.evolve:  # each type's evolve (``_evolver``), without the call to evolve
                steps, evolver = self._steps, self._evolver
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

    def decide(
        self, state: EncounterState, command: Command, dice: Dice, *, seed: bytes | None = None,
        history: Sequence[Sequence[Event]] | None = None,
    ) -> list[Event]:
        """``history``: the recorded events grouped by the command that recorded them, up to
        ``state.version``; only a ``Retcon`` is judged against it (and needs it)."""
        if isinstance(command, Retcon):
            if history is None:
                raise NeedsHistory("a Retcon is decided against the recorded history")
            return [retcon.decide(state, command, history)]
        if state.status == "ended":
            if isinstance(command, self.after_fight_commands):
                return self.decide_action(state, command, dice)
            raise RuleViolation("encounter_ended", f"The encounter “{state.name}” has ended.")
        match command:
            case AddCombatant():
                added = self.decide_add_combatant(state, command)
                if state.status != "active":
                    return [added]
                order = self.place_joiner(state, added)
                if order == [*state.order, added.combatant_id]:
                    return [added]
                return [added, TurnOrderSet(order=order)]
            case RemoveCombatant():
                removed = self._remove_combatant(state, command)
                return [removed, *self.after_removal(self.evolve(state, removed), dice)]
            case RollInitiative():
                if not state.combatants:
                    raise RuleViolation("no_combatants", "Add combatants before rolling initiative.")
                return [self._roll_initiative(state, command, dice)]
            case SetTurnOrder():
                return [self._set_turn_order(state, command)]
            case StartEncounter():
                return self.with_steps(state, self.decide_start(state), dice)
            case EndTurn():
                return self.with_steps(state, self.decide_end_turn(state, command), dice)
            case EndEncounter():
                return [EncounterEnded(seed=seed.hex() if seed is not None else None)]
            case RevealCombatant():
                c = self.combatant(state, command.combatant_id)
                if not c.hidden:
                    raise RuleViolation("not_hidden", f"{c.name} is not hidden.")
                return [CombatantRevealed(combatant_id=c.id)]
            case RevealRoll():
                if command.version not in state.secret_versions:
                    raise RuleViolation(
                        "no_secret_roll", f"Event {command.version} has no secret roll left to reveal."
                    )
                return [RollRevealed(version=command.version)]
            case _:
                return self.decide_action(state, command, dice)

    def evolve(self, state: EncounterState, event: Event) -> EncounterState:
        kind = type(event)
        return (self._steps.get(kind) or self._evolver(kind))(state, event)

    def _evolver(self, kind: type[Event]) -> Callable[[EncounterState, Any], EncounterState]:
        """``evolve`` for an event of type ``kind``, made once (kept in ``_steps``; ``replay`` calls it
        without going through ``evolve``): its fold, then whom it is about noted if someone hidden is
        concerned, its secret rolls, the dice it used, the version counted."""
        fold, rolls, secret, shape = self._step_for(kind)
        names = shape.names_anything
        note = self._note_concealed

        def evolved(state: EncounterState, event: Any) -> EncounterState:
            # someone hidden is here (before the event: one it removes; after it: one it adds), or
            # the event is a step of something about one who was: note whom it is about
            noted = names and bool(state.concealed) and _hidden_here(state)
            state = fold(state, event)
            if names and state.concealed and (
                    noted or _hidden_here(state) or shape.refers_into(event, state.concealed_events)):
                state = note(state, event, shape)
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

        self._steps[kind] = evolved
        return evolved

    def _step_for(self, kind: type[Event]) -> tuple[Callable[[EncounterState, Any], EncounterState], bool, bool, Shape]:
        """How ``evolve`` folds an event of type ``kind``: the lifecycle's own step for a
        lifecycle event (or a subclass of one), else ``action_step``'s; whether the type can
        roll dice (overrides ``dice_rolled``) and can be secret; what it names. Worked out once per type."""
        fold = next((getattr(self, name) for base, name in _LIFECYCLE_STEPS if issubclass(kind, base)), None)
        if fold is None:
            fold = self.action_step(kind)
        return fold, kind.dice_rolled is not Event.dice_rolled, hasattr(kind, "secret"), shape_of(kind)

    @staticmethod
    def _note_concealed(state: EncounterState, event: Event, shape: Shape) -> EncounterState:
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

    # One step per lifecycle event: the state after it, before ``evolve`` counts the version.

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """A hook: the state once a combatant leaves (a game extends it to drop its own books of them)."""
        combatants = dict(state.combatants)
        del combatants[event.combatant_id]
        order = [c for c in state.order if c != event.combatant_id]
        return replace(state, combatants=combatants, order=order)

    def evolve_initiative(self, state: EncounterState, event: InitiativeRolled) -> EncounterState:
        """A hook: the state once initiative is rolled (each one's total, the groups', the order)."""
        combatants = dict(state.combatants)
        groups = {}
        for roll in event.rolls:
            if roll.who in combatants:
                combatants[roll.who] = replace(combatants[roll.who], initiative=roll.total)
            else:
                groups[roll.who] = roll.total
        return replace(
            state,
            combatants=combatants,
            group_initiative=groups,
            order=list(event.order),
            initiative_rolled=True,
            initiative_version=state.version + 1,
        )

    def _evolve_order(self, state: EncounterState, event: TurnOrderSet) -> EncounterState:
        return replace(state, order=list(event.order))

    def _evolve_started(self, state: EncounterState, event: EncounterStarted) -> EncounterState:
        return self._refill(replace(state, status="active"), "combat_start")

    def _evolve_round(self, state: EncounterState, event: RoundStarted) -> EncounterState:
        grants = event.action_points
        combatants = state.combatants
        for cid, c in combatants.items():
            if grants.get(cid, c.action_points) != c.action_points:  # someone's AP change: copied
                combatants = {cid: c if grants.get(cid, c.action_points) == c.action_points
                              else replace(c, action_points=grants[cid]) for cid, c in combatants.items()}
                break
        state = replace(
            state,
            round=event.round,
            combatants=combatants,
            turn=state.order[0] if state.order else None,
            acted=[],
        )
        state = self.round_began(self._refill(state, "round_start"))
        if state.turn is not None:
            state = self._turn_began(state, state.turn)
        return state

    def _turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """The fold as a turn begins: what refills then, then ``turn_began`` (each only when it can do anything)."""
        if "turn_start" in self._refilled_at:
            state = self._refill(state, "turn_start", [combatant_id])
        return self.turn_began(state, combatant_id) if self._turn_hooks[0] else state

    def _evolve_turn_ended(self, state: EncounterState, event: TurnEnded) -> EncounterState:
        combatants = state.combatants
        if event.action_points is not None:
            combatants = dict(combatants)
            c = combatants[event.combatant_id]
            combatants[event.combatant_id] = replace(c, action_points=event.action_points)
        acted = [*state.acted, event.combatant_id]
        nxt = None
        for cid in state.order:
            if cid not in acted:
                nxt = cid
                break
        state = replace(state, combatants=combatants, turn=nxt, acted=acted)
        if "turn_end" in self._refilled_at:
            state = self._refill(state, "turn_end", [event.combatant_id])
        if self._turn_hooks[1]:
            state = self.turn_finished(state, event.combatant_id)
        return state if nxt is None else self._turn_began(state, nxt)

    def _evolve_ended(self, state: EncounterState, event: EncounterEnded) -> EncounterState:
        return replace(state, status="ended", turn=None, seed=event.seed)

    def _evolve_revealed(self, state: EncounterState, event: CombatantRevealed) -> EncounterState:
        combatants = dict(state.combatants)
        combatants[event.combatant_id] = replace(combatants[event.combatant_id], hidden=False)
        concealed = [c for c in state.concealed if c != event.combatant_id]
        unseen = {}  # its history is everyone's now
        for version, about in state.concealed_events.items():
            rest = [c for c in about if c != event.combatant_id]
            if rest:
                unseen[version] = rest
        return replace(state, combatants=combatants, concealed=concealed, concealed_events=unseen)

    def _evolve_roll_revealed(self, state: EncounterState, event: RollRevealed) -> EncounterState:
        return replace(state, secret_versions=[v for v in state.secret_versions if v != event.version])

    def _evolve_opened(self, state: EncounterState, event: EncounterOpened) -> EncounterState:
        raise ValueError("EncounterOpened starts a history; it cannot follow one")

    def _evolve_retconned(self, state: EncounterState, event: Retconned) -> EncounterState:
        raise NeedsHistory("a Retconned event goes back to an earlier state: replay the history")

    # ----------------------------------------------------------- lifecycle

    def _roll_initiative(self, state: EncounterState, cmd: RollInitiative, dice: Dice) -> InitiativeRolled:
        """The ruleset rolls; a secret roll marks the GM's own rolls (not the players') secret.
        (The GM's modifier is a value off an NPC's sheet, which players never see: a hidden NPC
        with the best modifier tells nothing, so a roll is secret only when the GM asks.)"""
        event = self.roll_initiative(state, dice)
        if not cmd.secret:
            return event
        rolls = [
            r if r.who in state.combatants and state.combatants[r.who].controller == "player"
            else replace(r, secret=True)
            for r in event.rolls
        ]
        return replace(event, rolls=rolls, secret=any(r.secret for r in rolls))

    def decide_add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        """A hook: the combatant an ``AddCombatant`` adds, checked (a game adds its own checks of the sheet)."""
        name = clean_text(cmd.name, "A combatant's name")
        side = clean_text(cmd.side, "A combatant's side (for example “party” or “enemies”)", max_length=64)
        check_id(cmd.combatant_id or "", "A combatant's id", self.reserved_ids)
        if cmd.combatant_id in state.combatants or cmd.combatant_id in state.concealed:
            # a hidden combatant's id stays its own, even once a retcon undid its arrival
            raise RuleViolation("duplicate_combatant", f"A combatant with id {cmd.combatant_id} is already here.")
        try:
            sheet = msgspec.convert(cmd.sheet, self.sheet_type, strict=True)
        except msgspec.ValidationError as exc:
            raise RuleViolation("invalid_sheet", f"The character sheet is not valid for {self.name}: {exc}.") from exc
        combatant = Combatant(
            id=cmd.combatant_id, name=name, side=side, controller=cmd.controller, sheet=sheet
        )
        ap = 0
        if state.status == "active":
            budget = self.budget(combatant)
            ap = budget.at_round_start(budget.at_combat_start(), state.round)
        return CombatantAdded(
            combatant_id=cmd.combatant_id,
            name=name,
            side=side,
            controller=cmd.controller,
            sheet=msgspec.to_builtins(sheet),
            action_points=ap,
            seq=state.combatants_added,
            hidden=cmd.hidden,
        )

    def _evolve_added(self, state: EncounterState, event: CombatantAdded) -> EncounterState:
        combatant = Combatant(
            id=event.combatant_id,
            name=event.name,
            side=event.side,
            controller=event.controller,
            sheet=self._sheet(event.sheet),
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
            state = self._refill(self._refill(state, "combat_start", [combatant.id]), "round_start", [combatant.id])
        return state

    def _sheet(self, payload: Any) -> Any:
        """The sheet a CombatantAdded carries, read once for each payload: a fight seats the same
        sheets again and again (reading one is dearer than encoding its payload), and a frozen
        sheet is shared safely. Up to ``SHEETS_KEPT`` kept, then forgotten all at once."""
        sheets = self._sheets
        if sheets is None:
            return msgspec.convert(payload, self.sheet_type)
        key = _SHEET_KEY.encode(payload)
        sheet = sheets.get(key)
        if sheet is None:
            sheet = msgspec.convert(payload, self.sheet_type)
            if len(sheets) >= SHEETS_KEPT:
                sheets.clear()
            sheets[key] = sheet
        return sheet

    def _remove_combatant(self, state: EncounterState, cmd: RemoveCombatant) -> CombatantRemoved:
        c = self.combatant(state, cmd.combatant_id)
        if state.status == "active" and state.turn == c.id:
            raise RuleViolation(
                "combatant_has_turn", f"It is {c.name}'s turn: end it before removing them from the fight."
            )
        return CombatantRemoved(combatant_id=c.id)

    def _set_turn_order(self, state: EncounterState, cmd: SetTurnOrder) -> TurnOrderSet:
        if not state.initiative_rolled:
            raise RuleViolation("initiative_not_rolled", "Roll initiative before setting the order of play.")
        if sorted(cmd.order) != sorted(state.combatants) or len(set(cmd.order)) != len(cmd.order):
            raise RuleViolation(
                "invalid_turn_order", "The order of play must name every combatant in the fight exactly once."
            )
        self.check_turn_order(state, cmd.order)
        return TurnOrderSet(order=list(cmd.order))

    def decide_start(self, state: EncounterState) -> list[Event]:
        """A hook: the events that start the fight (a game adds its own, as the initiator's first Action)."""
        if state.status != "setup":
            raise RuleViolation("already_started", "The fight has already started.")
        if not state.combatants:
            raise RuleViolation("no_combatants", "Add combatants before starting the fight.")
        if not state.initiative_rolled:
            raise RuleViolation("initiative_not_rolled", "Roll initiative before starting the fight.")
        grants = {}
        for cid, c in state.combatants.items():
            budget = self.budget(c)
            grants[cid] = budget.at_round_start(budget.at_combat_start(), 1)
        return [EncounterStarted(), RoundStarted(round=1, action_points=grants)]

    def before_end_turn(self, state: EncounterState) -> None:
        """Refuse ending a turn for a reason that is not a pending decision (those refuse through
        ``pending``: ``Decision.blocks_turn_end``). Default: never."""

    # Commands a ruleset still takes once the fight has ended (treating injuries, days passing).
    after_fight_commands: tuple[type[Command], ...] = ()

    def round_began(self, state: EncounterState) -> EncounterState:
        """The state as a new round begins (statuses that last until the end of the round end)."""
        return state

    def turn_began(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """The state as ``combatant_id``'s turn begins (start-of-turn effects fall due)."""
        return state

    def turn_finished(self, state: EncounterState, combatant_id: str) -> EncounterState:
        """The state after ``combatant_id``'s turn ended (statuses lasting turns count down)."""
        return state

    def decide_end_turn(self, state: EncounterState, cmd: EndTurn) -> list[Event]:
        """A hook: the events that end a turn, and the round once everyone has had theirs."""
        self.require_turn(state, cmd.combatant_id)
        waiting = self.turn_end_refusal(state)
        if waiting is not None:
            raise waiting
        self.before_end_turn(state)
        c = state.combatants[cmd.combatant_id]
        after = self.budget(c).at_turn_end(c.action_points)
        events: list[Event] = [
            TurnEnded(combatant_id=c.id, action_points=after if after != c.action_points else None)
        ]
        acted = {*state.acted, c.id}
        if all(cid in acted for cid in state.order):
            nxt_round = state.round + 1
            grants = {}
            for cid, other in state.combatants.items():
                current = after if cid == c.id else other.action_points
                grants[cid] = self.budget(other).at_round_start(current, nxt_round)
            events.append(RoundStarted(round=nxt_round, action_points=grants))
        return events

    # ------------------------------------------- turns, rounds and reactions

    def resources(self, combatant: Combatant, state: EncounterState) -> Resources:
        """The action resources this combatant has beside its Action Points, and when each
        refills (``domain/core/resources.py``), in ``state`` (Novus: 10 AP, not 5, while
        Hasted). Default: none (``Combatant.resources`` unset)."""
        return NO_RESOURCES

    def round_order(self, state: EncounterState) -> list[str] | None:
        """The order of play for the round about to start, once the last one's turns are over
        (RealmsRPG: defeated creatures' places taken "at the beginning of the next round",
        surprised parties back in their places after round 1: ``domain/core/initiative.py``).
        None (the default): the order stays. A different order is recorded as a
        ``TurnOrderSet`` just before the ``RoundStarted``."""
        return None

    def at_round_start(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Events a new round begins with, once ``RoundStarted`` is folded (before its first
        turn's start). Default: none."""
        return []

    def at_turn_start(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """Events ``combatant_id``'s turn begins with, once it is theirs (a Fear save at the
        start of a turn). Default: none."""
        return []

    def at_turn_end(self, state: EncounterState, combatant_id: str, dice: Dice) -> list[Event]:
        """Events decided as ``combatant_id`` ends their turn, before ``TurnEnded`` (RealmsRPG's
        End-of-Turn Overcome, "before gaining Action Points"). If they leave a decision that
        ``blocks_turn_end`` pending, the turn does not end yet: the step's events are all the
        command records, and the next ``EndTurn`` calls this again (the ruleset's state says
        what is already done). Default: none."""
        return []

    def at_round_end(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Events decided as a round ends, after its last turn and before the next
        ``RoundStarted`` (Health/Trauma: "A dying character takes one point of damage at the
        end of each round"). If they leave a decision that ``blocks_turn_end`` pending, the
        next round waits (nobody has the turn): the command answering it carries on with
        ``next_round``, which calls this again (the ruleset's state says what is done).
        Default: none."""
        return []

    def next_round(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The events that start the next round, once every turn of this one is over and a
        round-end step has had its answer (a ruleset's command that answered it appends them)."""
        nxt = state.round + 1
        grants = {cid: self.budget(c).at_round_start(c.action_points, nxt) for cid, c in state.combatants.items()}
        return self.with_steps(state, [RoundStarted(round=nxt, action_points=grants)], dice)

    def between_rounds(self, state: EncounterState) -> bool:
        """Whether every turn of the round is over and the next round waits (on a round-end step)."""
        return state.status == "active" and state.turn is None and all(c in state.acted for c in state.order)

    def with_steps(self, state: EncounterState, events: list[Event], dice: Dice) -> list[Event]:
        """``events`` (a turn's end, a round's start) with the ruleset's turn and round steps
        put where they fall due, each decided on the state just before it. A ruleset whose
        own command ends a turn passes its events through here too."""
        cls = type(self)
        if (cls.at_round_start is Ruleset.at_round_start and cls.at_turn_start is Ruleset.at_turn_start
                and cls.at_turn_end is Ruleset.at_turn_end and cls.at_round_end is Ruleset.at_round_end
                and cls.round_order is Ruleset.round_order):
            return events
        out: list[Event] = []

        def step(more: list[Event]) -> None:
            nonlocal state
            out.extend(more)
            for e in more:
                state = self.evolve(state, e)

        for event in events:
            if isinstance(event, TurnEnded):
                before = {d.id for d in self.pending(state)}
                mark = len(out)
                step(self.at_turn_end(state, event.combatant_id, dice))
                if len(out) > mark and any(d.blocks_turn_end and d.id not in before for d in self.pending(state)):
                    return out  # the step waits for a decision: the turn goes on
            elif isinstance(event, RoundStarted) and state.round >= 1:
                before = {d.id for d in self.pending(state)}
                mark = len(out)
                step(self.at_round_end(state, dice))
                if len(out) > mark and any(d.blocks_turn_end and d.id not in before for d in self.pending(state)):
                    return out  # the step waits for a decision: the next round waits too
                order = self.round_order(state)
                if order is not None and order != state.order:
                    step([TurnOrderSet(order=order)])
            step([event])
            if isinstance(event, RoundStarted):
                step(self.at_round_start(state, dice))
                if state.turn is not None:
                    step(self.at_turn_start(state, state.turn, dice))
            elif isinstance(event, TurnEnded) and state.turn is not None:
                step(self.at_turn_start(state, state.turn, dice))
        return out

    def _refill(self, state: EncounterState, moment: Moment, combatant_ids: Sequence[str] | None = None) -> EncounterState:
        """The state once ``moment`` comes for ``combatant_ids`` (None: everyone): their
        resources refilling then are refilled. Nothing for a ruleset without resources."""
        if moment not in self._refilled_at:
            return state
        combatants: dict[str, Combatant] | None = None  # copied once something refills
        here = state.combatants
        resources = self.resources
        for cid, c in here.items() if combatant_ids is None else [(i, here[i]) for i in combatant_ids if i in here]:
            declared = resources(c, state)
            if moment in declared.moments:  # declared.refills_at(moment), without the call
                if combatants is None:
                    combatants = dict(state.combatants)
                fresh = declared.afresh.get(moment)  # each Novus round's AP: what is held not read
                combatants[cid] = replace(
                    c, resources=dict(fresh) if fresh is not None else declared.at(moment, held(c)))
        return state if combatants is None else replace(state, combatants=combatants)

    def spent(self, state: EncounterState, combatant_id: str, resource: str, cost: int,
              **changes: Any) -> EncounterState:
        """The state after ``combatant_id`` spent ``cost`` of ``resource`` (an event's fold:
        the spending was checked when it was decided, with ``check_resource``), with ``changes``
        to the rest of the state made in the same copy of it."""
        c = state.combatants[combatant_id]
        have = held(c)
        left = {**have, resource: have.get(resource, 0) - cost}
        return replace(state, combatants={**state.combatants, combatant_id: replace(c, resources=left)}, **changes)

    def check_resource(self, combatant: Combatant, resource: str, cost: int, what: str) -> None:
        """Refuse an action needing more of ``resource`` than the combatant has left."""
        spend(held(combatant), resource, cost, who=combatant.name, what=what)

    # ------------------------------------------------------------- helpers

    def combatant(self, state: EncounterState, combatant_id: str) -> Combatant:
        c = state.combatants.get(combatant_id)
        if c is None:
            raise RuleViolation(
                "unknown_combatant", f"There is no combatant {combatant_id} in this encounter.",
                combatant_id=combatant_id,
            )
        return c

    def require_active(self, state: EncounterState) -> None:
        if state.status != "active":
            raise RuleViolation("encounter_not_started", "The fight has not started yet.")

    def require_turn(self, state: EncounterState, combatant_id: str) -> Combatant:
        self.require_active(state)
        c = self.combatant(state, combatant_id)
        if state.turn != combatant_id:
            current = state.combatants[state.turn].name if state.turn in state.combatants else "nobody"
            raise RuleViolation(
                "not_your_turn", f"It is {current}'s turn, not {c.name}'s.", turn=state.turn
            )
        return c

    def spend_action_points(self, combatant: Combatant, cost: int, what: str) -> None:
        """Refuse an action costing more Action Points than the combatant has."""
        if cost > combatant.action_points:
            raise RuleViolation(
                "not_enough_action_points",
                f"{combatant.name} has {combatant.action_points} Action Point"
                f"{'' if combatant.action_points == 1 else 's'} left; {what} costs {cost}.",
                available=combatant.action_points,
                cost=cost,
            )


def _hidden_here(state: EncounterState) -> bool:
    combatants = state.combatants
    return any(c in combatants for c in state.concealed)


class _Reporting:
    """Reported dice that keep the refusal they gave (a die missing, a face out of range)."""

    def __init__(self, dice: ReportedDice) -> None:
        self.dice = dice
        self.refusal: RuleViolation | None = None

    def roll(self, sides: int, purpose: str, by: str | None = None) -> Any:
        try:
            return self.dice.roll(sides, purpose, by)
        except RuleViolation as refused:
            self.refusal = refused
            raise


class _WouldRoll(Exception):
    """A command judged only for its refusal got as far as rolling a die."""


class _NoRolling:
    """The dice of a command judged only for its refusal: none is rolled."""

    def roll(self, sides: int, purpose: str, by: str | None = None) -> Any:
        raise _WouldRoll


SHEETS_KEPT = 256  # sheets a ruleset keeps read (``Ruleset._sheet``)
_SHEET_KEY = msgspec.msgpack.Encoder()


class NeedsHistory(ValueError):
    """A retcon needs the history (the caller's to read): ``decide`` and ``replay`` take it."""


class Registry:
    """The rulesets a server offers, by id."""

    def __init__(self, rulesets: Sequence[Ruleset]) -> None:
        self._by_id = {r.id: r for r in rulesets}

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            return self._by_id[ruleset_id]
        except KeyError:
            raise RuleViolation(
                "unknown_ruleset",
                f"There is no ruleset “{ruleset_id}”. Known: {', '.join(sorted(self._by_id))}.",
            ) from None

    def __contains__(self, ruleset_id: str) -> bool:
        return ruleset_id in self._by_id

    def all(self) -> list[Ruleset]:
        return list(self._by_id.values())
