"""What the fight has done to each creature: Health lost, Energy spent, Dying and death, the
armour's reductions this turn, Evade, and what its turn has used so far."""

from __future__ import annotations

import msgspec

from domain.core.concerns import CombatantId
from domain.core.durations import Duration
from domain.realms.conditions import Affliction, words
from domain.realms.sheet import RealmsSheet


class Ready(msgspec.Struct, frozen=True, kw_only=True):
    """A prepared attack or Action, until used or until the start of one's next turn."""

    trigger: str
    target: CombatantId | None
    weapon: str | None = None
    power: str | None = None
    distance: int = 1
    action: str | None = None  # an Action of the Action table instead of an attack
    roll_with: str | None = None
    spaces: int = 0


class Stealth(msgspec.Struct, frozen=True, kw_only=True):
    """Hiding or Stealthing: the roll's score, whom it hides from, and the round it was taken (no upkeep
    then: "except the turn in which you first took this action"), or switched."""

    mode: str
    score: int
    hidden_from: list[CombatantId] = []
    free_round: int = 0
    attacked: bool = False


class Body(msgspec.Struct, frozen=True, kw_only=True):
    """``damage``: Health lost (past the maximum: Negative Health; below 0: Overheal, Health over
    the maximum, R20); ``dying_step``: the next
    step of the Dying damage; ``armour_uses``: the times armour reduced damage this turn (R16:
    "its reduction drops by 1 until the start of the next turn"); ``evade``: Evade's bonus lasts
    one round; ``repeats``: the D20 Actions taken this turn by type (the Multiple Action
    Penalty); ``attacks``: the attack Actions of one's turn, for the off-hand and Quick Attacks."""

    damage: int = 0
    energy_spent: int = 0
    dying: bool = False
    dying_step: int = 0
    stabilised: bool = False
    dead: bool = False
    unconscious: bool = False
    exhausted: int = 0
    armour_uses: int = 0
    evade: Duration | None = None
    repeats: dict[str, int] = {}
    attacks: list[str] = []
    quick_attacked: bool = False
    off_hand_attacked: bool = False
    free_actions: int = 0
    braced: bool = False  # Brace (R1): "reduce the next damage by Vitality"
    focused: bool = False  # Focus (R1): "+2 to the next d20 roll"
    modifier: int = 0  # the RM's bonus or penalty to the next d20 roll (RealmsModifyRoll)
    moves: int = 0  # the Movements of one's turn (R1: the Speed, doubled, +½, +¼; at most four)
    conditions: dict[str, Affliction] = {}
    overcome_due: bool = False
    overcome_round: int = 0  # the round of the turn in which it last took the Overcome
    commanded_round: int = 0  # a Companion: the round its owner last Commanded it
    command_round: int = 0  # an owner: the round of its Commands counted in ``commands``
    commands: int = 0
    prepared: Ready | None = None
    stealth: Stealth | None = None
    detected_round: int = 0  # the round it was last Detected (a cheaper Stealth that turn)
    detect_round: int = 0  # as a detector: the round of its Detects counted in ``detects``
    detects: int = 0
    helped: int = 0  # Help Dice waiting for its next Ability or Skill roll this round
    helped_round: int = 0
    evades: int = 0  # Evades taken whole, waiting for the next attack on Evasion: +2, +1 per further use
    evade_split: bool = False  # the Evade is split (R1): no bonus but where allotted
    split_evades: int = 0  # split Evades left to allot, one attack each, while ``evade`` lasts
    determination: int | None = None  # Determination Dice held (None: the encounter's setting, R10)




def afflictions(b: Body) -> dict[str, Affliction]:
    """The creature's conditions, with the Exhausted levels Dying left it (R22) among them."""
    if not b.exhausted:
        return b.conditions
    had = b.conditions.get("exhausted")
    top = max(b.exhausted, had.level if had else 0)
    return {**b.conditions, "exhausted": Affliction(level=top, defence=had.defence if had else None,
                                                    score=had.score if had else None)}


def health(sheet: RealmsSheet, b: Body) -> int:
    return sheet.health - b.damage


def energy(sheet: RealmsSheet, b: Body) -> int:
    return sheet.energy - b.energy_spent


def terminal(sheet: RealmsSheet, b: Body) -> bool:
    """R21: "Terminal is a condition at ≤ ¼ of maximum Health"."""
    return not b.dead and health(sheet, b) * 4 <= sheet.health


def conditions(sheet: RealmsSheet, b: Body) -> list[str]:
    out = []
    if b.dead:
        return ["dead"]
    if b.dying:
        out += ["dying", "prone"]  # R22: "It falls prone"
    if b.unconscious:
        out.append("unconscious")
    if terminal(sheet, b):
        out.append("terminal")
    out += [words(name, a) for name, a in sorted(afflictions(b).items())]
    return out
