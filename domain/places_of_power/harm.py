"""Harm in Places of Power: Hits taken, death, Injuries and paying Penalty Points.

Pure functions over plain numbers, for the attack exchange to build events from
(places-of-power-combat.txt: "Hits", "Helpless Vs. Dead", "Penalty Points", "Injuries").

"everyone involved in combat, both players and NPCs, can take a total of 4 Hits ... Hit 1:
Grazed ... Hit 2: Wounded ... Hit 3: Afflicted ... Hit 4: Helpless".

How Hits are counted (the convention of the sheet's ``hits`` and of Cheat Death in
``hero_points``, where more than 4 Hits is "beyond Helpless"):

- A living combatant has 0 to 4 Hits. A player taken past Helpless by one or two Hits "is
  simply Helpless, and the usual rules apply": they are stored at 4 Hits (Helpless), the
  level the healing table and every other rule knows ("Hit 4: Helpless - Hard (16)"; no
  level lies beyond it).
- A dead combatant has more than 4 Hits: the real count (capped at the sheet's 20), at
  least 5. So ``hits > HELPLESS`` means dead, and Cheat Death can see it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.core.errors import RuleViolation
from domain.core.rolls import step
from domain.places_of_power.checks import LADDER, harder
from domain.places_of_power.hits import HELPLESS

HIT_LEVELS: tuple[str, ...] = ("Unhurt", "Grazed", "Wounded", "Afflicted", "Helpless")
GRAZED, WOUNDED, AFFLICTED = 1, 2, 3
# "does not exceed the point at which they would become Helpless by more than two"
PLAYER_MARGIN = 2
# "As soon as you take a third Injury you are immediately rendered Helpless"
INJURY_LIMIT = 3
# the sheet's bound on ``hits`` (``Sheet.hits`` is 0..20)
MAX_HITS = 20


def wound_level(hits: int) -> str:
    """The level a number of Hits puts a combatant at: 0 Unhurt, 1 Grazed, 2 Wounded,
    3 Afflicted, 4 or more Helpless. "Dead" is not a level: whether more Hits killed the
    combatant depends on who they are and how the Hits came (``take_hits`` says)."""
    if hits < 0:
        raise ValueError(f"hits cannot be negative: {hits}")
    return HIT_LEVELS[min(hits, HELPLESS)]


def penalty_points(hits: int) -> int:
    """The Penalty Points owed on every action at a number of Hits.

    "Hit 2: Wounded - ... You must apply 1 Penalty Point to all actions you perform until
    healed." "Hit 3: Afflicted - ... You now apply 2 Penalty Points to all actions you
    perform." Unhurt and Grazed ("it will not hinder you in any way") owe none; Helpless
    owes none either: "You are unable to perform ANY actions on your own."
    """
    if hits < 0:
        raise ValueError(f"hits cannot be negative: {hits}")
    return {WOUNDED: 1, AFFLICTED: 2}.get(hits, 0)


class HarmResult(msgspec.Struct, frozen=True, kw_only=True):
    """What Hits from one attack did.

    ``hits``: the new total (at most 4 when alive, more than 4 when dead; see the module
    docstring). ``helpless``: alive and Helpless. ``injuries_gained``: 0 or 1 from this
    attack; ``injuries``: the new total. ``helpless_for_fight``: rendered Helpless by a
    third Injury, which "cannot recover during the combat itself".
    """

    hits: int
    dead: bool
    helpless: bool
    injuries_gained: int
    injuries: int
    helpless_for_fight: bool


def take_hits(
    hits_before: int,
    damage: int,
    *,
    is_player: bool,
    injuries_before: int = 0,
    helpless_for_fight: bool = False,
) -> HarmResult:
    """Apply the Hits of one attack (after armour and defences) to a combatant.

    Death:

    - "it is possible to inflict enough Hits on a target that they are taken beyond the
      Helpless stage. If this happens to an NPC, either friend or foe, then that NPC has
      been killed outright": an NPC past 4 Hits dies.
    - "As long as the number of Hits they have taken does not exceed the point at which
      they would become Helpless by more than two, then that player is simply Helpless
      ... If the number of Hits does however exceed the number needed to render the target
      Helpless by more than two, then that player is also killed": a player at 5 or 6
      Hits is Helpless (stored as 4), at 7 or more dead.
    - "if a target is already Helpless and they take another Hit, then they die,
      regardless of whether they are an NPC or a player character" (also "Hit 4: Helpless
      ... If you take additional damage you will die"). Helpless by a third Injury counts.

    Injuries:

    - "If you suffer two or more Hits in a single attack, or you are rendered Helpless,
      then you suffer an Injury": at most one Injury per attack, however many of the two
      causes it meets. Being rendered Helpless *by* Injuries (the two rules below) gives no
      further Injury: it is a consequence of the Injury, not another cause. The rule is
      applied whether or not the Hits also kill (Cheat Death brings the Injury back).
    - "As soon as you take a third Injury you are immediately rendered Helpless and cannot
      recover during the combat itself": Hits rise to 4 and ``helpless_for_fight`` is set.
    - "If you enter a fight with three Injuries and suffer any damage beyond the Grazed
      level, you are immediately rendered Helpless": a combatant with 3 or more Injuries
      who did not take their third in this fight (``helpless_for_fight`` unset) is rendered
      Helpless (Hits rise to 4) by any Hit that leaves them Wounded or worse; a Hit that
      only Grazes them does not. The text does not say they cannot recover, so
      ``helpless_for_fight`` stays unset (healing works as usual).

    ``damage`` 0 changes nothing. ``hits_before`` above 4 is read as dead (the stored
    convention).
    """
    if not 0 <= hits_before <= MAX_HITS:
        raise ValueError(f"hits_before must be 0..{MAX_HITS}: {hits_before}")
    if damage < 0:
        raise ValueError(f"damage cannot be negative: {damage}")
    if injuries_before < 0:
        raise ValueError(f"injuries_before cannot be negative: {injuries_before}")

    already_helpless = hits_before >= HELPLESS or helpless_for_fight
    if damage == 0:
        was_dead = hits_before > HELPLESS
        return HarmResult(
            hits=hits_before,
            dead=was_dead,
            helpless=already_helpless and not was_dead,
            injuries_gained=0,
            injuries=injuries_before,
            helpless_for_fight=helpless_for_fight,
        )

    raw = hits_before + damage
    if already_helpless:
        dead = True
    else:
        dead = raw > HELPLESS + (PLAYER_MARGIN if is_player else 0)

    entered_with_three = injuries_before >= INJURY_LIMIT and not helpless_for_fight
    helpless_by_old_injuries = entered_with_three and raw >= WOUNDED
    rendered_helpless = not already_helpless and raw >= HELPLESS
    gained = 1 if damage >= 2 or rendered_helpless or helpless_by_old_injuries else 0
    injuries = injuries_before + gained
    third_injury = injuries_before < INJURY_LIMIT <= injuries
    for_fight = helpless_for_fight or third_injury

    if dead:
        hits = min(MAX_HITS, max(raw, HELPLESS + 1))
    elif helpless_by_old_injuries or third_injury:
        hits = HELPLESS
    else:
        hits = min(raw, HELPLESS)
    return HarmResult(
        hits=hits,
        dead=dead,
        helpless=not dead and (hits >= HELPLESS or for_fight),
        injuries_gained=gained,
        injuries=injuries,
        helpless_for_fight=for_fight,
    )


# "Increase Roll Difficulty", "Reduce Dice Value", "Increase Action Point Cost",
# "Reduce Base Damage": the text's four penalties, in its order.
PENALTIES: tuple[str, ...] = ("IncreaseDifficulty", "StepDownDie", "IncreaseCost", "ReduceDamage")


class PenaltyPayment(msgspec.Struct, frozen=True, kw_only=True):
    """An action after its Penalty Points are paid: its difficulty, the dice rolled (sides,
    in the order given), its Action Point cost and its Base Damage."""

    difficulty: str | None
    dice: tuple[int, ...]
    cost: int
    base_damage: int


def apply_penalties(
    choices: Sequence[str],
    points: int,
    *,
    difficulty: str | None,
    dice: tuple[int, ...],
    cost: int,
    base_damage: int,
) -> PenaltyPayment:
    """Pay ``points`` Penalty Points on one action, one choice per point, in order.

    "the Player is free to select the specific penalty or penalties of their choice. Each
    penalty in the list equates to 1 Penalty Point. You may apply the same Penalty twice
    if you wish, i.e. increasing the cost of an action by 2 Action Points."

    - ``IncreaseDifficulty``: "Increase the Difficulty Level of the Action you are
      attempting to perform by 1 level. For example, turning a Normal roll into a
      Difficult roll." Refused at Very Hard (there is no level above), and for an action
      rolled against no Difficulty Level (``difficulty`` None: an opposed roll, where "the
      person who rolls the highest wins").
    - ``StepDownDie``: "Reduce the value of one of the dice you are rolling by one level."
      The player picks the die: ``StepDownDie:0`` is ``dice[0]`` (the Attribute die),
      ``StepDownDie:1`` ``dice[1]`` (the Skill die), and so on; plain ``StepDownDie`` steps
      the higher die (the Skill die when they are equal, as Disadvantage does in
      ``checks.dice_for``). A D4 cannot go lower: refused. "Condition effects still apply
      when choosing this option": this does not replace any Condition's step.
    - ``IncreaseCost``: "Increase the cost of the Action you are attempting to perform by 1
      Action Point."
    - ``ReduceDamage``: "Reduce the Base Damage of the attack you are performing by 1 Hit."
      Refused at Base Damage 0 (and so for an action that is not an attack).

    A penalty that would change nothing is refused (``penalty_not_applicable``) rather
    than let a point be paid for free; the player picks another. The number of choices
    must be the number of points owed (``penalty_points_owed``); an unknown penalty or die
    is ``unknown_penalty``.
    """
    if points < 0 or cost < 0 or base_damage < 0:
        raise ValueError("points, cost and base_damage cannot be negative")
    if difficulty is not None and difficulty not in LADDER:
        raise ValueError(f"unknown difficulty {difficulty!r}")
    if len(choices) != points:
        raise RuleViolation(
            "penalty_points_owed",
            f"{points} Penalty Point{'s' if points != 1 else ''} must be paid on this action, "
            f"one penalty each: {len(choices)} {'was' if len(choices) == 1 else 'were'} chosen.",
            owed=points,
            chosen=len(choices),
        )
    sizes = list(dice)
    for choice in choices:
        name, _, which = choice.partition(":")
        if name not in PENALTIES or (which and name != "StepDownDie"):
            raise RuleViolation(
                "unknown_penalty",
                f"“{choice}” is not a penalty: choose one of {', '.join(PENALTIES)}.",
                choice=choice,
            )
        if name == "IncreaseDifficulty":
            if difficulty is None:
                raise RuleViolation(
                    "penalty_not_applicable",
                    "This roll is opposed, not rolled against a Difficulty Level: there is no difficulty to "
                    "increase. Choose another penalty (StepDownDie or IncreaseCost).",
                    penalty=name,
                )
            raised = harder(difficulty)
            if raised is None:
                raise RuleViolation(
                    "penalty_not_applicable",
                    f"The action is already {difficulty}: its difficulty cannot be increased. Choose another penalty.",
                    penalty=name,
                )
            difficulty = raised
        elif name == "StepDownDie":
            index = _die_index(choice, which, sizes)
            lowered = step(sizes[index], -1)
            if lowered == sizes[index]:
                raise RuleViolation(
                    "penalty_not_applicable",
                    f"That die is a D{sizes[index]}: it cannot be reduced further. Choose another penalty.",
                    penalty=name,
                    die=index,
                )
            sizes[index] = lowered
        elif name == "IncreaseCost":
            cost += 1
        else:
            if base_damage == 0:
                raise RuleViolation(
                    "penalty_not_applicable",
                    "The action has no Base Damage left to reduce. Choose another penalty.",
                    penalty=name,
                )
            base_damage -= 1
    return PenaltyPayment(difficulty=difficulty, dice=tuple(sizes), cost=cost, base_damage=base_damage)


def _die_index(choice: str, which: str, sizes: list[int]) -> int:
    """The die a StepDownDie choice names; the higher one (the later on a tie) if none."""
    if not sizes:
        raise RuleViolation("penalty_not_applicable", "The action rolls no dice to reduce.", penalty="StepDownDie")
    if not which:
        highest = max(sizes)
        return max(i for i, s in enumerate(sizes) if s == highest)
    if not which.isdigit() or int(which) >= len(sizes):
        raise RuleViolation(
            "unknown_penalty",
            f"“{choice}” names no die: the action rolls {len(sizes)} dice, "
            f"StepDownDie:0 to StepDownDie:{len(sizes) - 1}.",
            choice=choice,
        )
    return int(which)
