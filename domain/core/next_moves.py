"""The next moves: what a fight waits on, and every move that may be made now, each a command
body that ``decide`` takes exactly as sent (DESIGN.md, "The next moves").

A ruleset offers candidates in its own words (``Ruleset.moves`` for whoever acts now,
``Ruleset.rulings`` for the GM, ``Ruleset.examples`` for the combatants a GM may add); core adds
the lifecycle, an answer for each choice of each pending decision and the end of a turn. Every
candidate is then tried through ``decide`` with dice that record what is rolled: only what the
rules take now is offered, and its dice (in order, each with what it is for) and its cost (what
the actor's resources lose) come from the rules themselves, never from a second copy of them.
Pure: the trial dice roll nothing at random.
"""

from __future__ import annotations

import functools

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from domain.core.dice import DieRoll
from domain.core.encounter import (
    AddCombatant,
    Combatant,
    EncounterState,
    RoundStarted,
    TurnEnded,
)
from domain.core.pending import Decision
from domain.core.resources import held

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset

Kind = Literal["decision", "move", "lifecycle", "gm"]
Who = Literal["gm", "player"]


class Offer(msgspec.Struct, frozen=True, kw_only=True):
    """A candidate a ruleset offers: ``command`` a complete body (its ``type`` included, no
    ``dice``), ``label`` in the game's words, ``combatant_id`` who acts (None: the GM's own),
    ``vary`` the fields a client may change (their schema and defaults go in ``parameters``)."""

    label: str
    command: dict[str, Any]
    kind: Kind = "move"
    combatant_id: str | None = None
    vary: tuple[str, ...] = ()
    decision: str | None = None  # the id of the pending decision it answers


class DiceNeeded(msgspec.Struct, frozen=True, kw_only=True):
    """Faces a ``reported`` encounter puts in ``command.dice``, in order: ``count`` dice of
    ``sides`` for ``for_`` (sent as ``for``), rolled by ``by`` (None: the GM or no one's).
    ``open``: an open roll (Novus's 2d10): after these dice, each one showing 1 or ``sides`` is
    rolled again, in order, and again while the new die shows that same face; those dice are
    reported next, in that order. A 1 with a ``sides`` among two dice is a Nova Roll: no more
    dice."""

    count: int
    sides: int
    for_: str = msgspec.field(name="for")
    by: str | None = None
    open: bool = False


class Action(msgspec.Struct, kw_only=True):
    """One move a viewer may make now: send ``command`` as it is (in a ``reported`` encounter
    with the faces ``dice`` lists). ``id`` is made from the command body: stable while the
    version stays the same (and while the same move stays offered)."""

    id: str
    kind: Kind
    label: str
    combatant_id: str | None
    command: dict[str, Any]
    cost: dict[str, int] = msgspec.field(default_factory=dict)
    dice: list[DiceNeeded] = msgspec.field(default_factory=list)
    parameters: dict[str, Any] | None = None
    decision: str | None = None  # a decision's answer: the id of the decision (its prompt's id)


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    """Someone the fight waits on: ``combatant_id`` (None: the GM's own business), who sends
    it (``gm`` or ``player``) and what is awaited, in words."""

    combatant_id: str | None
    who: Who
    what: str


class NextMoves(msgspec.Struct, kw_only=True):
    """What the fight waits on and what the viewer who asked may do now; ``out_of_fight``: the
    combatants the viewer sees whom the rules count out of the fight (``Ruleset.out_of_fight``:
    what ``over`` is judged by), for a page to mark them."""

    version: int
    over: bool
    waiting_on: list[Waiting]
    actions: list[Action]
    out_of_fight: list[str] = []


# ------------------------------------------------------------------------ trial dice


class TrialDice:
    """Dice for trying a command: each roll shows the face ``face(sides)`` gives (by default a
    middle one, which neither explodes nor implodes, nor is a critical) and is recorded, so the
    offer says which dice the command needs, in the order it rolls them."""

    def __init__(self, face: Callable[[int], int] | None = None) -> None:
        self.rolled: list[DieRoll] = []
        self.opened: dict[int, int] = {}  # open rolls: the index in ``rolled`` of each one's first die -> its dice
        self._face = face or _middle

    def roll(self, sides: int, purpose: str, by: str | None = None) -> DieRoll:
        die = DieRoll(sides=sides, face=self._face(sides), purpose=purpose, source="reported", by=by)
        self.rolled.append(die)
        return die

    def open_roll(self, count: int) -> None:
        """The last ``count`` dice rolled make an open roll (``roll_exploding``)."""
        self.opened[len(self.rolled) - count] = count

    def signature(self) -> list[tuple[int, str, str | None, bool]]:
        return [(d.sides, d.purpose, d.by, i in self.opened) for i, d in enumerate(self.rolled)]

    def _entries(self, upto: int) -> list[tuple[int, int, bool]]:
        """(first index, dice, open) of each roll among the first ``upto`` dice: an open roll's
        dice together (its further dice, which follow them, are the client's to add)."""
        out, i = [], 0
        while i < upto:
            n = self.opened.get(i)
            if n is not None:
                if i + n > upto:
                    break  # an open roll only partly alike in every trial: asked for as it comes
                out.append((i, n, True))
                i += n
            else:
                out.append((i, 1, False))
                i += 1
        return out

    def needed(self, names: Callable[[str | None], str], upto: int | None = None) -> list[DiceNeeded]:
        """The first ``upto`` dice rolled (None: all), consecutive alike ones counted together,
        an open roll's as one entry."""
        out: list[DiceNeeded] = []
        for i, n, is_open in self._entries(len(self.rolled) if upto is None else upto):
            d = self.rolled[i]
            what = d.purpose.replace("_", " ")
            who = names(d.by)
            by = d.by if who else None  # a roller the viewer may not see is named by neither name nor id
            label = f"{who}: {what}" if who else what
            last = out[-1] if out else None
            if last is not None and not is_open and not last.open and last.sides == d.sides and last.for_ == label \
                    and last.by == by:
                out[-1] = msgspec.structs.replace(last, count=last.count + 1)
            else:
                out.append(DiceNeeded(count=n, sides=d.sides, for_=label, by=by, open=is_open))
        return out


def _middle(sides: int) -> int:
    return max(1, (sides + 1) // 2)


# faces the dice of an offer are tried with besides the middle one: the dice all of them roll
# alike are the ones listed; a die that hangs on how the earlier ones fell is asked for later
_OTHER_FACES: tuple[Callable[[int], int], ...] = (
    lambda sides: min(2, sides), lambda sides: max(1, sides - 1))


def open_roll(dice: Any, count: int) -> None:
    """Tell trial dice that the last ``count`` dice rolled make an open roll (nothing for real dice)."""
    if isinstance(dice, TrialDice):
        dice.open_roll(count)


# ------------------------------------------------------------------------ the offer


def action_id(body: dict[str, Any]) -> str:
    """An action's id, from its body: the same move has the same id for every viewer, and keeps it
    while it stays offered (a client's button does not change under a thumb)."""
    return _id_of(_CANON.encode(body))


def _id_of(canonical: bytes) -> str:
    return hashlib.sha256(canonical).hexdigest()[:16]


_CANON = msgspec.json.Encoder(order="sorted")


def try_offer(ruleset: Ruleset, state: EncounterState, offer: Offer, hidden: frozenset[str] = frozenset(),
              ) -> Action | None:
    """``offer`` as an action if ``decide`` takes it now (for a sender from whom ``hidden`` is
    hidden: a player), with the dice it rolls and what it costs its actor; None if refused."""
    body = _CANON.encode(offer.command)
    try:
        command = ruleset.command_decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if isinstance(command, AddCombatant) and not command.combatant_id:
        command = msgspec.structs.replace(command, combatant_id=TRIAL_ID)  # the server gives it one
    dice = TrialDice()
    try:
        events = ruleset.decide_as(hidden, state, command, dice)
    except Exception as refused:  # noqa: BLE001 - refused, or a candidate the rules cannot judge: not offered
        forget_frames(refused)
        return None
    if not events:
        return None
    listed = _listed(ruleset, state, command, hidden, dice) if state.dice_policy == "reported" and dice.rolled else []
    names = _namer(state, hidden)
    cost = _cost(ruleset, state, events, command.acting_combatant() or offer.combatant_id)
    return Action(
        id=_id_of(body),  # action_id, from the body already encoded
        kind=offer.kind,
        label=f"{offer.label} ({', '.join(f'{n} {k}' for k, n in cost.items())})" if cost else offer.label,
        combatant_id=offer.combatant_id,
        command=dict(offer.command),
        cost=cost,
        dice=dice.needed(names, listed[0]) if listed else [],
        parameters=_parameters(ruleset, offer) if offer.vary else None,
        decision=offer.decision,
    )


def forget_frames(exc: BaseException | None) -> None:
    """Drop a refusal's tracebacks, its own and those it was raised from. The frame that raised it
    may hold it (``waiting = ...; raise waiting``): a cycle through every frame of the trial and
    their objects, which only the garbage collector frees. Offers are tried by the hundred a
    commit; at 200 tables the collector then paused a worker 100-270 ms every few seconds."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        exc.__traceback__ = None
        exc = exc.__cause__ or exc.__context__


def _listed(ruleset: Ruleset, state: EncounterState, command: Any, hidden: frozenset[str],
            middle: TrialDice) -> list[int]:
    """How many of the dice ``middle`` rolled every trial rolls alike (as ``[count]``): those are
    listed; what follows depends on how they fall (``dice_missing`` asks for it)."""
    same = middle.signature()
    for face in _OTHER_FACES:
        other = TrialDice(face)
        try:
            ruleset.decide_as(hidden, state, command, other)
        except Exception as refused:  # noqa: BLE001 - refused with other faces: only the common dice are sure
            forget_frames(refused)
        theirs = other.signature()
        n = 0
        while n < min(len(same), len(theirs)) and same[n] == theirs[n]:
            n += 1
        same = same[:n]
    return [len(same)]


TRIAL_ID = "next-moves-trial"  # the id an offered combatant is tried with (the server gives it its own)


def _namer(state: EncounterState, hidden: frozenset[str]) -> Callable[[str | None], str]:
    def name(cid: str | None) -> str:
        c = state.combatants.get(cid) if cid is not None and cid not in hidden else None
        return c.name if c is not None else ""
    return name


def _cost(ruleset: Ruleset, state: EncounterState, events: Sequence[Any], actor: str | None) -> dict[str, int]:
    """What the actor's Action Points and resources lose to ``events`` before their turn ends."""
    if actor is None or actor not in state.combatants:
        return {}
    before = state.combatants[actor]
    after = state
    for event in events:
        if isinstance(event, (TurnEnded, RoundStarted)):
            break
        try:
            after = ruleset.evolve(after, event)
        except Exception:  # noqa: BLE001 - a fold that needs the history (a retcon): no cost shown
            return {}
    now = after.combatants.get(actor)
    if now is None:
        return {}
    out: dict[str, int] = {}
    if ruleset.counts_action_points(before):
        spent = before.action_points - now.action_points
        if spent > 0:
            out["AP"] = spent
    had, has = held(before), held(now)
    for name, amount in had.items():
        spent = amount - has.get(name, 0)
        if spent > 0:
            out[name] = spent
    return out


@functools.cache
def _settings_schema(settings_type: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """A settings document's JSON Schema and its definitions, made once: making it (msgspec's
    inspection) left reference cycles for the collector on every GM's next moves. Read, never change."""
    (schema,), defs = msgspec.json.schema_components([settings_type], ref_template="#/$defs/{name}")
    return schema, defs


def _parameters(ruleset: Ruleset, offer: Offer) -> dict[str, Any]:
    """A JSON Schema of the fields of ``offer`` a client may change, each with its default (the
    value the offered body holds)."""
    fields, defs = _varied(ruleset, str(offer.command.get("type")), offer.vary)
    if not fields:
        return {}
    out = {name: {**field, "default": offer.command[name]} if name in offer.command else field
           for name, field in fields.items()}
    return {"type": "object", "properties": out, "$defs": defs}


@functools.lru_cache(maxsize=1024)
def _varied(ruleset: Ruleset, tag: str, vary: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The schemas of a command's fields ``vary`` names, and their definitions: the same for every
    offer of that command, made once (a GM's next moves vary a dozen rulings' fields every commit).
    Read, never change: every action that varies them holds them."""
    schema = ruleset.command_schemas().get(tag, {})
    properties = schema.get("properties", {})
    defs = dict(schema.get("$defs", {}))
    kind = next((t for t in ruleset.command_types if t.__struct_config__.tag == tag), None)
    out: dict[str, Any] = {}
    for name in vary:
        field = dict(properties.get(name, {}))
        if name == "data" and kind is not None and kind.settings_type is not None:
            # a settings document: its own schema, whole (the patch may name any of it)
            field, more = _settings_schema(kind.settings_type)
            defs.update(more)
            field = dict(field)
        out[name] = field
    return out, defs


# ------------------------------------------------------------------ whole table


def decision_offers(decision: Decision) -> list[Offer]:
    """An offer for each answer of ``decision``: one per choice (with its whole body), or the one
    command when there is nothing to choose."""
    what = decision.summary or decision.command
    if not decision.choices:
        return [Offer(label=what, command=decision.answer(), kind="decision", combatant_id=decision.combatant_id,
                      decision=decision.id)]
    return [Offer(label=choice.label or choice.name, command=decision.answer(choice), kind="decision",
                  combatant_id=decision.combatant_id, decision=decision.id) for choice in decision.choices]


def lifecycle_offers(ruleset: Ruleset, state: EncounterState) -> list[Offer]:
    """The GM's lifecycle: add combatants (the ruleset's examples), roll initiative, start, end,
    reveal a hidden combatant, take one out."""
    out: list[Offer] = []
    if state.status == "ended":
        return out
    if state.status == "setup":
        for label, body in ruleset.examples():
            out.append(Offer(label=f"Add {label}", command={"type": "AddCombatant", **body}, kind="lifecycle",
                             vary=("name", "side", "controller", "sheet", "hidden")))
        if state.combatants:
            out.append(Offer(label="Roll initiative", command={"type": "RollInitiative"}, kind="lifecycle"))
        if state.initiative_rolled:
            out.append(Offer(label="Start the fight", command={"type": "StartEncounter"}, kind="lifecycle"))
    out.append(Offer(label="End the encounter", command={"type": "EndEncounter"}, kind="lifecycle"))
    for cid in state.concealed:
        c = state.combatants.get(cid)
        if c is not None and c.hidden:
            out.append(Offer(label=f"Reveal {c.name}", command={"type": "RevealCombatant", "combatant_id": cid},
                             kind="gm"))
    for version in state.secret_versions:
        out.append(Offer(label=f"Reveal the secret roll of event {version}",
                         command={"type": "RevealRoll", "version": version}, kind="gm"))
    return out


def turn_offers(ruleset: Ruleset, state: EncounterState, combatant_id: str) -> list[Offer]:
    """What ``combatant_id`` may do as they act now: the ruleset's moves, and ending the turn
    when it is theirs."""
    out = list(ruleset.moves(state, combatant_id))
    if state.turn == combatant_id:
        out.append(Offer(label="End the turn", command={"type": "EndTurn", "combatant_id": combatant_id},
                         combatant_id=combatant_id))
    return out


def waiting_words(state: EncounterState, combatant: Combatant | None) -> str:
    """What a turn waits on, in words."""
    if combatant is None:
        return "the GM's move"
    return f"{combatant.name}'s turn" if state.turn == combatant.id else f"{combatant.name}'s move"


def unique(offers: Iterable[Offer]) -> list[Offer]:
    """``offers`` without repeats of the same command body (the first label kept)."""
    seen: set[bytes] = set()
    out: list[Offer] = []
    for o in offers:
        key = _CANON.encode(o.command)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def canonical(body: dict[str, Any]) -> bytes:
    """A command body's canonical JSON (its keys sorted): two equal bodies, one encoding."""
    return _CANON.encode(body)
