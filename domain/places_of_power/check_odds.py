"""The odds of a Places of Power check, as ``GET /rulesets/places-of-power/odds`` answers them:
the exact chance of each outcome class, counted over every way the dice can fall."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.places_of_power.checks import OCCUPATION_DIE, dice_for, odds

AttributeDie = Literal["D4", "D6", "D8", "D10", "D12"]
SkillDie = Literal["D4", "D6", "D8", "D10", "D12", "D20"]
DifficultyName = Literal["Easy", "Normal", "Difficult", "Hard", "Very Hard"]


class CheckOddsQuery(msgspec.Struct, kw_only=True):
    """Odds of a Places of Power check.

    Exact probabilities of each outcome class (Critical Failure .. Critical Success) for an
    Attribute die + Skill die (+ the occupation D6) against a difficulty, at Advantage or
    Disadvantage, counted over every way the dice can fall."""

    attribute_die: Annotated[AttributeDie, msgspec.Meta(description="The Attribute's die.")]
    skill_die: Annotated[SkillDie, msgspec.Meta(description="The Skill's die.")]
    difficulty: Annotated[DifficultyName, msgspec.Meta(description="The Difficulty the total must reach.")] = "Normal"
    occupation: Annotated[bool, msgspec.Meta(
        description="The check relates to the character's occupation: an extra D6.")] = False
    advantage: Annotated[bool, msgspec.Meta(description="At Advantage: the lower die steps up one rung.")] = False
    disadvantage: Annotated[bool, msgspec.Meta(
        description="At Disadvantage: the higher die steps down one rung.")] = False


class OutcomeOdds(msgspec.Struct, kw_only=True):
    """An exact chance: ``numerator`` / ``denominator`` of all the ways the dice can fall."""

    probability: float
    numerator: int
    denominator: int


class Odds(msgspec.Struct, kw_only=True):
    """The chance of each outcome class of a Places of Power check, by enumeration."""

    dice: list[str]
    difficulty: str
    outcomes: dict[str, OutcomeOdds]


def check_odds(query: CheckOddsQuery) -> Odds:
    """The odds of the check ``query`` describes."""
    a, s = dice_for(int(query.attribute_die[1:]), int(query.skill_die[1:]), query.advantage, query.disadvantage)
    sizes = [a, s] + ([OCCUPATION_DIE] if query.occupation else [])
    exact = odds(sizes, query.difficulty)
    return Odds(
        dice=[f"D{n}" for n in sizes],
        difficulty=query.difficulty,
        outcomes={
            k: OutcomeOdds(probability=float(v), numerator=v.numerator, denominator=v.denominator)
            for k, v in exact.items()
        },
    )
