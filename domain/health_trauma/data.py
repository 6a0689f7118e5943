"""What the text leaves open, as GM-replaceable data (one JSON document per encounter).

Every default here is OURS, not the game's: the excerpt never gives the Attack Test's formula
("You calculate the Test Number of like this:" and nothing follows), the injury chart's bands,
the value of -X, the 1D6 maimed-part table, what MSvs and BSvs roll, the Initiative Test, the
action list or the reactions. The GM replaces the whole document with ``SetHealthTraumaRules``
(before or during the fight); the coverage table names each default as ours.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Size = Literal["quarter", "half", "full", "quick"]
Result = Literal["lucky_escape", "sliced_muscle", "reeling", "maimed", "gut_wound", "mortal_blow"]
RESULTS: tuple[Result, ...] = ("lucky_escape", "sliced_muscle", "reeling", "maimed", "gut_wound", "mortal_blow")
TraumaDeath = Literal["maximum_before_trauma", "lowered_maximum"]
FearAgainst = Literal["trauma", "trauma_at_injury", "injuring_damage"]
Pair = Literal["arm", "leg", "eye"]
# a plain name in a table is one of a pair only by these names (the default table's, as tables were first written)
NAMED_PAIRS: dict[Pair, tuple[str, ...]] = {"arm": ("left arm", "right arm"), "leg": ("left leg", "right leg"),
                                            "eye": ("left eye", "right eye")}
Count = Annotated[int, msgspec.Meta(ge=0, le=100)]
Sides = Annotated[int, msgspec.Meta(ge=2, le=100)]


class Band(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A band of the injury chart: totals from ``least`` up (to the next band's least) give ``result``."""

    least: int
    result: Result


class ActionRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One action of the list the text points at ("Most actions will be listed as Quarter (1/4),
    Half (1/2), or Full (1) Actions"): its size, whether it is a Move (``crawl``: one of "the
    Crawl Move Actions"), whether it needs arms or legs (for the maimed), and whether it readies
    a weapon of the sheet (``draws``: "Draw a weapon"; the one drawn is then the readied one)."""

    name: str
    size: Size
    move: bool = False
    crawl: bool = False
    needs_arms: bool = False
    needs_legs: bool = False
    draws: bool = False


class MaimedPart(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A face of the 1D6 maimed-part table: the part, and which of "both your arms", "both your
    legs" or "both your eyes" it is one of (``pair``; none: neither)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    pair: Pair | None = None


def _parts() -> list[str | MaimedPart]:
    return [MaimedPart(name=name, pair=pair) for pair, names in NAMED_PAIRS.items() for name in names]


class ReactionRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Reaction a target may take while an attack at it waits: what it adds to its Guard."""

    name: str
    guard_bonus: int = 0


def _chart() -> list[Band]:
    return [Band(least=1, result="lucky_escape"), Band(least=4, result="sliced_muscle"),
            Band(least=7, result="reeling"), Band(least=10, result="maimed"),
            Band(least=13, result="gut_wound"), Band(least=16, result="mortal_blow")]


def _actions() -> list[ActionRule]:
    return [ActionRule(name="Move", size="half", move=True, needs_legs=True),
            ActionRule(name="Crawl", size="half", move=True, crawl=True),
            ActionRule(name="Aim", size="quarter"),
            ActionRule(name="Draw a weapon", size="quick", needs_arms=True, draws=True),
            ActionRule(name="Brace", size="full")]


class HealthTraumaData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The encounter's Health/Trauma data (all defaults ours, not the game's).

    - ``attack_die`` / ``defence_die``: the Attack Test (ours): the attacker rolls 1D``attack_die``
      + combat skill, the target 1D``defence_die`` + Guard (0: Guard is a fixed number); the
      attack hits on a higher total (``attacker_wins_ties``: on an equal one too).
    - ``attack_size``: what part of a turn an attack takes (ours: a Half action).
    - ``initiative_die``: the Initiative Test (ours): 1D``initiative_die`` + initiative bonus.
    - ``injury_chart``: the bands read with "1D10, add five for each injury you already have"
      (ours: 1-3 lucky escape, 4-6 sliced muscle, 7-9 reeling, 10-12 maimed, 13-15 gut wound,
      16+ Mortal Blow, in the text's order of severity).
    - ``penalty_x``: X of the sliced muscle's "-X modifier" (ours: 1).
    - ``maim_table``: the 1D6 parts, each with the pair it is one of (``arm``, ``leg``, ``eye``: what
      "both your arms/legs/eyes" counts; ours: left/right arm, leg, eye). A plain name is one of
      a pair only as "left arm", "right arm", "left leg", ... are.
    - ``save_die``: MSvs/BSvs "vs N" (ours: "Mental/Body Save versus N"): 1D``save_die`` + the
      sheet's save bonus - penalty succeeds on a total above N.
    - ``reactions``: the Reactions a target may take against an attack (ours: Dodge, +2 Guard).
    - ``actions``: the action list (ours; "Draw a weapon" readies another weapon), ``attack_needs_arms``: whether both arms maimed stops attacks.
    - ``trauma_death``: "taken Trauma equal or greater than their maximum Health" read against the
      maximum before Trauma (ours: ``maximum_before_trauma``, five plus Physique, adjusted) or the
      maximum Trauma has lowered (``lowered_maximum``: death once Trauma reaches half the first).
    - ``fear_save_against``: the N of "a Fear MSvs Trauma they received from the attack": the
      character's Trauma when the save is made (ours: ``trauma``), the Trauma they had when the
      reeling result was rolled (``trauma_at_injury``), or the damage of the hit that put them into
      the dying state (``injuring_damage``).
    """

    attack_die: Sides = 20
    defence_die: Annotated[int, msgspec.Meta(ge=0, le=100)] = 20
    attacker_wins_ties: bool = False
    attack_size: Size = "half"
    initiative_die: Sides = 20
    injury_chart: list[Band] = msgspec.field(default_factory=_chart)
    penalty_x: Count = 1
    maim_table: list[str | MaimedPart] = msgspec.field(default_factory=_parts)
    save_die: Sides = 10
    reactions: list[ReactionRule] = msgspec.field(default_factory=lambda: [ReactionRule(name="Dodge", guard_bonus=2)])
    actions: list[ActionRule] = msgspec.field(default_factory=_actions)
    attack_needs_arms: bool = True
    trauma_death: TraumaDeath = "maximum_before_trauma"
    fear_save_against: FearAgainst = "trauma"

    def __post_init__(self) -> None:
        leasts = [b.least for b in self.injury_chart]
        if not leasts or leasts != sorted(leasts) or len(set(leasts)) != len(leasts) or leasts[0] > 1:
            raise ValueError("injury_chart: bands must rise, each from its own least total, the first from 1 or lower")
        if len(self.maim_table) != 6 or any(not _name(p).strip() for p in self.maim_table):
            raise ValueError("maim_table: six named parts, one for each face of the 1D6")
        names = [a.name for a in self.actions]
        if len(set(names)) != len(names):
            raise ValueError("actions: each action's name once")
        reactions = [r.name for r in self.reactions]
        if len(set(reactions)) != len(reactions) or "pass" in reactions:
            raise ValueError("reactions: each reaction's name once, and none called “pass”")

    def dead_of_trauma(self, base_health: int, trauma: int) -> bool:
        """"if they have taken Trauma equal or greater than their maximum Health", as the GM reads it."""
        top = base_health if self.trauma_death == "maximum_before_trauma" else base_health - trauma
        return trauma >= top

    def injury(self, total: int) -> Result:
        """The chart's result for ``total``."""
        found = self.injury_chart[0].result
        for band in self.injury_chart:
            if total >= band.least:
                found = band.result
        return found

    def part(self, face: int) -> str:
        """The part the maimed result's 1D6 ``face`` names."""
        return _name(self.maim_table[face - 1])

    def pair(self, pair: Pair) -> tuple[str, ...]:
        """The parts of the table that are one of ``pair`` ("both your arms": each "arm" part); a
        part named without its pair is one only by the default table's name ("left arm", ...)."""
        return tuple(p.name if isinstance(p, MaimedPart) else p for p in self.maim_table
                     if (p.pair == pair if isinstance(p, MaimedPart) else p in NAMED_PAIRS[pair]))

    def action(self, name: str) -> ActionRule | None:
        return next((a for a in self.actions if a.name.lower() == name.lower()), None)

    def reaction(self, name: str) -> ReactionRule | None:
        return next((r for r in self.reactions if r.name == name), None)


def _name(part: str | MaimedPart) -> str:
    return part.name if isinstance(part, MaimedPart) else part


DEFAULT_DATA = HealthTraumaData()
