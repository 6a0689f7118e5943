"""The decider every ruleset is: ``initial_state``, ``decide``, ``evolve``.

A game subclasses ``Ruleset`` and fills in what ``domain/core/game.py`` names (its sheet, Action
Point budget, initiative, its own commands and events through ``decide_action`` /
``evolve_action``, its facts). The rest is the engine's (domain/core/engine/), which each
``Ruleset`` is given by composition: the fold, the lifecycle's commands, the turn and round
steps, hidden information. The methods here are the game's defaults and the doors to those parts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, Union

import msgspec

from domain.core.action_points import ActionPointBudget
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.dice import COMMITMENT_PREFIX, Dice, commitment_digest
from domain.core.encounter import (
    LIFECYCLE_COMMANDS,
    LIFECYCLE_EVENTS,
    AddCombatant,
    Combatant,
    CombatantAdded,
    CombatantRemoved,
    Command,
    EncounterOpened,
    EncounterState,
    EndTurn,
    Event,
    InitiativeRolled,
)
from domain.core.engine import checks, fold
from domain.core.engine.fold import SHEETS_KEPT, Fold, NeedsHistory
from domain.core.engine.hidden import Concealment
from domain.core.engine.lifecycle import Lifecycle
from domain.core.engine.steps import TurnSteps
from domain.core.errors import CODES, RuleViolation, clean_text, ruleset_codes
from domain.core.log import Sentence, Wording
from domain.core.next_moves import Offer
from domain.core.pending import Decision
from domain.core.resources import MOMENTS, Moment, Resources
from domain.core.tally import Exchange, Step, Tally
from domain.core.upcasting import SCHEMA_VERSIONS, UPCASTERS

__all__ = ["SHEETS_KEPT", "CommandInfo", "NeedsHistory", "Registry", "Ruleset", "Sender", "replace"]

replace = msgspec.structs.replace
NO_RESOURCES = Resources()


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
        # the engine's parts (domain/core/engine/), each asking this game its hooks; what they can
        # skip: the moments nothing refills at, the turn and round hooks left as core's
        kind = type(self)
        refilled_at: frozenset[Moment] = frozenset() if kind.resources is Ruleset.resources \
            else frozenset(MOMENTS) if self.refill_moments is None else self.refill_moments
        self._fold = Fold(self, refilled_at=refilled_at, plain_evolve=kind.evolve is Ruleset.evolve,
                         turn_hooks=(kind.turn_began is not Ruleset.turn_began,
                                     kind.turn_finished is not Ruleset.turn_finished))
        self._lifecycle = Lifecycle(self)
        self._turn_steps = TurnSteps(self, stepless=all(getattr(kind, hook) is getattr(Ruleset, hook) for hook in (
            "at_round_start", "at_turn_start", "at_turn_end", "at_round_end", "round_order")))
        self._concealment = Concealment(self)

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
        return self._concealment.accepts(state, command)

    def turn_end_refusal(self, state: EncounterState) -> RuleViolation | None:
        """The refusal ending the turn gets while a decision that blocks it waits, if any."""
        return self._lifecycle.turn_end_refusal(state)

    # ------------------------------------------------------------- who sees what

    def hidden_from(self, state: EncounterState, own: frozenset[str] = frozenset()) -> frozenset[str]:
        """The combatants hidden from a viewer whose own combatants are ``own`` (a player's), and
        the groups all of whose members are hidden."""
        return self._concealment.hidden_from(state, own)

    def decide_as(
        self, hidden: frozenset[str], state: EncounterState, command: Command, dice: Dice, **context: Any,
    ) -> list[Event]:
        """``decide`` for a sender from whom the ``hidden`` combatants are hidden (a player's
        command). One that names a hidden combatant gets the answer an unknown id gets, and a
        refusal is explained from the state the sender may see: neither tells of them. A command
        that records nothing is refused (``nothing_changes``), never answered with no events."""
        return self._concealment.decide_as(hidden, state, command, dice, **context)

    def groups(self, state: EncounterState) -> dict[str, list[str]]:
        """Names the ruleset's events use for several combatants at once (a roll for all NPCs),
        and who they stand for. Default: none."""
        return {}

    def conceal(self, state: EncounterState, hidden: frozenset[str]) -> EncounterState:
        """The state as it would be without the ``hidden`` combatants: what a player or a
        spectator may see of it, and what their refused commands are explained from."""
        return self._concealment.conceal(state, hidden)

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
        return self._fold.replay(events, state)

    def decide(
        self, state: EncounterState, command: Command, dice: Dice, *, seed: bytes | None = None,
        history: Sequence[Sequence[Event]] | None = None,
    ) -> list[Event]:
        """The events ``command`` records now (a lifecycle command's, else ``decide_action``'s), or
        the ``RuleViolation`` it is refused with. ``history``: the recorded events grouped by the
        command that recorded them, up to ``state.version``; only a ``Retcon`` needs it."""
        return self._lifecycle.decide(state, command, dice, seed=seed, history=history)

    def evolve(self, state: EncounterState, event: Event) -> EncounterState:
        """The state after ``event``."""
        return self._fold.evolve(state, event)

    def evolve_removed(self, state: EncounterState, event: CombatantRemoved) -> EncounterState:
        """A hook: the state once a combatant leaves (a game extends it to drop its own books of them)."""
        return fold.removed(state, event)

    def evolve_initiative(self, state: EncounterState, event: InitiativeRolled) -> EncounterState:
        """A hook: the state once initiative is rolled (each one's total, the groups', the order)."""
        return fold.initiative(state, event)

    # ----------------------------------------------------------- lifecycle

    def decide_add_combatant(self, state: EncounterState, cmd: AddCombatant) -> CombatantAdded:
        """A hook: the combatant an ``AddCombatant`` adds, checked (a game adds its own checks of the sheet)."""
        return self._lifecycle.add_combatant(state, cmd)

    def decide_start(self, state: EncounterState) -> list[Event]:
        """A hook: the events that start the fight (a game adds its own, as the initiator's first Action)."""
        return self._lifecycle.start(state)

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
        return self._lifecycle.end_turn(state, cmd)

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
        return self._turn_steps.next_round(state, dice)

    def between_rounds(self, state: EncounterState) -> bool:
        """Whether every turn of the round is over and the next round waits (on a round-end step)."""
        return state.status == "active" and state.turn is None and all(c in state.acted for c in state.order)

    def with_steps(self, state: EncounterState, events: list[Event], dice: Dice) -> list[Event]:
        """``events`` (a turn's end, a round's start) with the ruleset's turn and round steps
        put where they fall due, each decided on the state just before it. A ruleset whose
        own command ends a turn passes its events through here too."""
        return self._turn_steps.with_steps(state, events, dice)

    def spent(self, state: EncounterState, combatant_id: str, resource: str, cost: int,
              **changes: Any) -> EncounterState:
        """The state after ``combatant_id`` spent ``cost`` of ``resource`` (an event's fold: the
        spending was checked when it was decided, with ``check_resource``), with ``changes``."""
        return checks.spent(state, combatant_id, resource, cost, **changes)

    # the refusals every game's commands share (domain/core/engine/checks.py)
    combatant = staticmethod(checks.combatant)
    require_active = staticmethod(checks.require_active)
    require_turn = staticmethod(checks.require_turn)
    spend_action_points = staticmethod(checks.spend_action_points)
    check_resource = staticmethod(checks.check_resource)


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
