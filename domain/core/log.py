"""The readable log's words: the ``Story`` the sentences read and write, and the lifecycle's
sentences, in no game's words.

A sentence is a pure function of an event's payload, as the viewer may see it (plain JSON
values), and the ``Story`` so far (names, the order of play, what a ruleset remembers). Each
ruleset brings the sentences of its own events (``Ruleset.sentences()``) and the words the
lifecycle's sentences borrow from the game (``Ruleset.wording()``: what its Action Points are
called, who rolls for a group); ``projections/readable_log.py`` tells a history with them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.core.names import called

if TYPE_CHECKING:
    from domain.core.ruleset import Ruleset

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number(n: int) -> str:
    """Small counts in words ("two extra Successes"), larger ones in digits."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``count(3, "Hit")`` is "3 Hits"; ``count(1, "Injury", "Injuries")`` is "1 Injury"."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def listed(items: Iterable[str]) -> str:
    """"Mira, Kess and the Bandit"."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def words(tag: str) -> str:
    """A type or value in CamelCase as words: "SmallChangeOfPosition" → "small change of position"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", tag).lower()


@dataclass(frozen=True)
class Wording:
    """The game's words in the lifecycle's sentences.

    ``points``: what a combatant's Action Points are called, in the singular ("Action
    Point"); empty: the lifecycle's sentences tell no points. ``group_roller``: who an
    initiative roll by no combatant the log knows is told as (a roll for a group)."""

    points: str = ""
    group_roller: str = "someone"


@dataclass
class Story:
    """What the log has learned from the events it told so far: who is who, which attack and
    which check a later event means, the round. Sentences read it and add to it."""

    names: dict[str, str] = field(default_factory=dict)
    npcs: set[str] = field(default_factory=set)
    round: int = 0
    order: list[str] = field(default_factory=list)  # the order of play, as last told
    rounds: list[tuple[int, int]] = field(default_factory=list)  # (version, round) of each round begun
    version: int = 0  # the version of the event being told
    facts: dict[str, dict[Any, Any]] = field(default_factory=dict)  # a ruleset's own memory, by topic
    rules: str = ""  # the ruleset's name, as the opening tells it ("" : its id)
    wording: Wording = field(default_factory=Wording)

    def who(self, cid: Any) -> str:
        """A combatant as the log names them: "Mira", "the Bandit", or "someone"."""
        if not isinstance(cid, str) or cid not in self.names:
            return "someone"
        return called(self.names[cid], cid in self.npcs)

    def Who(self, cid: Any) -> str:  # noqa: N802 - the capitalised form, at a sentence's start
        return cap(self.who(cid))

    def whose(self, cid: Any) -> str:
        return f"{self.who(cid)}'s"

    def Whose(self, cid: Any) -> str:  # noqa: N802
        return cap(self.whose(cid))

    def meet(self, cid: Any, name: Any, controller: Any) -> None:
        if isinstance(cid, str) and isinstance(name, str):
            self.names[cid] = name
            if controller == "gm":
                self.npcs.add(cid)

    def in_order(self, ids: Iterable[str]) -> list[str]:
        """``ids`` in the order of play (the stored payloads keep no order of their own)."""
        place = {cid: i for i, cid in enumerate(self.order)}
        return sorted(ids, key=lambda cid: (place.get(cid, len(place)), self.who(cid)))

    def remember(self, topic: str, key: Any, value: Any) -> None:
        self.facts.setdefault(topic, {})[key] = value

    def recall(self, topic: str, key: Any) -> dict[str, Any]:
        found = self.facts.get(topic, {}).get(key)
        return found if isinstance(found, dict) else {}

    def points(self, n: int) -> str:
        """"3 Action Points" in the game's words ("" when it names no points)."""
        return count(n, self.wording.points) if self.wording.points else ""


Sentence = Callable[[Mapping[str, Any], Story], str]

# ------------------------------------------------------------------ the lifecycle's sentences

_POLICIES = {"seeded": "seeded dice", "reported": "dice reported by the table", "mixed": "reported or seeded dice"}


def _opened(d: Mapping[str, Any], s: Story) -> str:
    rules = s.rules or d.get("ruleset", "")
    return f"The encounter “{d.get('name', '')}” opens: {rules}, {_POLICIES.get(d.get('dice_policy'), 'dice')}."


def _added(d: Mapping[str, Any], s: Story) -> str:
    s.meet(d.get("combatant_id"), d.get("name"), d.get("controller"))
    cid = d.get("combatant_id")
    hidden = ", hidden from the players" if d.get("hidden") else ""
    ap = d.get("action_points") or 0
    joins = f", with {s.points(ap)}" if ap and s.points(ap) else ""
    return f"{s.Who(cid)} joins the fight on the {d.get('side', '')} side{hidden}{joins}."


def _removed(d: Mapping[str, Any], s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} leaves the fight."


def _initiative(d: Mapping[str, Any], s: Story) -> str:
    rolls = []
    for r in d.get("rolls") or []:
        who = s.who(r.get("who")) if r.get("who") in s.names else s.wording.group_roller
        if "total" not in r:
            rolls.append(f"{who} in secret")
            continue
        face = (r.get("die") or {}).get("face")
        if "modifier" in r:
            rolls.append(f"{who} {face} + {r['modifier']} = {r['total']}")
        else:  # an NPC's modifier is off its sheet: the viewer sees the die and the total
            rolls.append(f"{who} {face}, {r['total']} in all")
    s.order = [c for c in d.get("order") or [] if isinstance(c, str)]
    order = listed(s.who(c) for c in s.order)
    secret = " (the GM's roll is secret)" if d.get("secret") else ""
    return f"Initiative{secret}: {listed(rolls)}. The order of play: {order}."


def _order(d: Mapping[str, Any], s: Story) -> str:
    s.order = [c for c in d.get("order") or [] if isinstance(c, str)]
    return f"The GM sets the order of play: {listed(s.who(c) for c in s.order)}."


def _started(d: Mapping[str, Any], s: Story) -> str:
    return "The fight begins."


def _round(d: Mapping[str, Any], s: Story) -> str:
    s.round = int(d.get("round") or 0)
    s.rounds.append((s.version, s.round))
    points = d.get("action_points") or {}
    ap = [f"{s.who(cid)} {points[cid]}" for cid in s.in_order(points)]
    told = f" {cap(s.wording.points)}s: {listed(ap)}." if ap and s.wording.points else ""
    return f"Round {s.round}.{told}"


def _turn_ended(d: Mapping[str, Any], s: Story) -> str:
    ap = d.get("action_points")
    keeps = f", keeping {s.points(ap)}" if isinstance(ap, int) and s.wording.points else ""
    return f"{s.Who(d.get('combatant_id'))} ends the turn{keeps}."


def _ended(d: Mapping[str, Any], s: Story) -> str:
    seed = d.get("seed")
    return "The fight ends." + (f" The dice seed is revealed: {seed}." if seed else "")


def _revealed(d: Mapping[str, Any], s: Story) -> str:
    return f"The GM reveals {s.who(d.get('combatant_id'))}."


def _roll_revealed(d: Mapping[str, Any], s: Story) -> str:
    return f"The GM reveals the secret roll of event {d.get('version')}."


def _retconned(d: Mapping[str, Any], s: Story) -> str:
    first, last = d.get("undone_from"), d.get("undone_to")
    span = f"event {first}" if first == last else f"events {first}-{last}"
    back = d.get("to_version")
    s.rounds = [(v, r) for v, r in s.rounds if isinstance(back, int) and v <= back]
    s.round = s.rounds[-1][1] if s.rounds else 0
    reason = d.get("reason") or ""
    return f"The GM undid {span}" + (f": {reason}" if reason else "") + "."


LIFECYCLE: dict[str, Sentence] = {
    "EncounterOpened": _opened,
    "CombatantAdded": _added,
    "CombatantRemoved": _removed,
    "InitiativeRolled": _initiative,
    "TurnOrderSet": _order,
    "EncounterStarted": _started,
    "RoundStarted": _round,
    "TurnEnded": _turn_ended,
    "EncounterEnded": _ended,
    "CombatantRevealed": _revealed,
    "RollRevealed": _roll_revealed,
    "Retconned": _retconned,
}


# ------------------------------------------------ the sentences of core's reaction windows


def _reactions_opened(d: Mapping[str, Any], s: Story) -> str:
    w = d.get("window") or {}
    may = listed(s.who(c) for c in w.get("may_react") or [])
    what = w.get("trigger") or f"{s.whose(w.get('actor'))} action"
    return f"{cap(what)} waits: {may} may react ({listed(w.get('reactions') or [])}) or pass."


def _reaction_passed(d: Mapping[str, Any], s: Story) -> str:
    return f"{s.Who(d.get('combatant_id'))} lets it pass."


def _reactions_closed(d: Mapping[str, Any], s: Story) -> str:
    passed = d.get("passed") or []
    return "The GM closes the reactions" + (f": {listed(s.who(c) for c in passed)} pass." if passed else ".")


# core's events a ruleset opts in to (domain/core/reactions.py): told the same in every game
SHARED: dict[str, Sentence] = {
    "ReactionsOpened": _reactions_opened,
    "ReactionPassed": _reaction_passed,
    "ReactionsClosed": _reactions_closed,
}

_ACTOR_FIELDS = ("combatant_id", "attacker", "caster", "healer", "controller")


def generic(type_name: str, d: Mapping[str, Any], s: Story) -> str:
    """An event no sentence knows: its type in words, and who it was about."""
    actor = next((d[k] for k in _ACTOR_FIELDS if isinstance(d.get(k), str) and d[k] in s.names), None)
    what = words(type_name)
    return f"{s.Who(actor)}: {what}." if actor is not None else f"{cap(what)}."


# ------------------------------------------------------------------------ a ruleset's whole


def sentences_of(ruleset: Ruleset | None) -> dict[str, Sentence]:
    """Every event type's sentence for ``ruleset``: the lifecycle's, then the ruleset's own
    (which may word a lifecycle event its own way). None: the lifecycle's only."""
    return {**LIFECYCLE, **SHARED, **(ruleset.sentences() if ruleset is not None else {})}


def missing_sentences(ruleset: Ruleset) -> set[str]:
    """The event types of ``ruleset`` that have no sentence (each would be told generically):
    a contract test over every registered ruleset expects none."""
    told = sentences_of(ruleset)  # a shared sentence counts only for a type the ruleset has
    return {t.__struct_config__.tag for t in ruleset.event_types} - told.keys()


def stray_sentences(ruleset: Ruleset) -> set[str]:
    """Sentences ``ruleset`` brings for event types it does not have (left behind by a rename)."""
    types = {t.__struct_config__.tag for t in ruleset.event_types}
    return set(ruleset.sentences()) - types


def story_for(ruleset: Ruleset | None) -> Story:
    """A fresh story in ``ruleset``'s words."""
    if ruleset is None:
        return Story()
    return Story(rules=ruleset.name, wording=ruleset.wording())
