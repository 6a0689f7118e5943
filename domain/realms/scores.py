"""The d20 arithmetic of RealmsRPG, pure: natural 20 and 1, Successes and Failures, critical
hits, the Help Die, the Multiple Action Penalty, damage reductions.

Each function quotes the rule it follows (the chapter, or realms-gaps.md's R-number)."""

from __future__ import annotations

from domain.realms.sheet import half_up

# R8: "Natural 20 adds +2 to the roll; natural 1 takes −2."
NATURAL = {20: 2, 1: -2}
# "The standard amount is +10 over a relevant defense"; "The standard Critical Multiplier is 2×"
CRITICAL_RANGE = 10
CRITICAL_MULTIPLIER = 2
# "you incur a -5 penalty to all related D20 rolls each subsequent time you perform that Action"
REPEAT_PENALTY = 5


def natural(face: int) -> int:
    return NATURAL.get(face, 0)


def degrees(total: int, score: int) -> int:
    """R9: "meeting the Score is 1 Success, +1 for every 5 points above it. Falling short is 1
    Failure, +1 for every 5 points below." Successes positive, Failures negative."""
    if total >= score:
        return 1 + (total - score) // 5
    return -(1 + (score - total) // 5)


def is_critical(total: int, score: int, critical_range: int) -> bool:
    """"an attack that exceeds the target's Evasion or relevant Defense by +10" (the Critical
    Range: "the amount over a Defense that is required to achieve a Critical Hit")."""
    return total - score >= critical_range


def critical_range(*adjustments: int) -> int:
    """"When you have multiple sources of Critical Range or Multiplier adjustments they can stack"
    (a -2 feat and a -1 weapon: +7); armour raises it (R19). Never below 0."""
    return max(CRITICAL_RANGE + sum(adjustments), 0)


def critical_multiplier(*increases: int) -> int:
    """"Whenever your Critical Multiplier increases by +1 or +1x, it adds one additional multiple
    of your normal damage dice." Never below 1 (the dice once)."""
    return max(CRITICAL_MULTIPLIER + sum(increases), 1)


def repeat_penalty(times_before: int) -> int:
    """The Multiple Action Penalty: "increasing from -5 to -10, -15, and so on"."""
    return -REPEAT_PENALTY * times_before


# R1: "Movement 1 AP per use (first use moves the Speed, second doubles it, third adds half, fourth
# adds a quarter; at most four)": each use's share of the Speed
MOVEMENT_SHARES = (1, 1, 2, 4)  # the Speed, the Speed again, a half, a quarter


def movement(speed: int, use: int) -> int:
    """The spaces the ``use``-th Movement of a turn (1 to 4) covers at most; 0 past the fourth. R14:
    fractions rounded up."""
    if not 1 <= use <= len(MOVEMENT_SHARES) or speed <= 0:
        return 0
    return -(-speed // MOVEMENT_SHARES[use - 1])


# R1: "Focus 1 (+2 to the next d20 roll)"
FOCUS = 2


def help_die(bonus: int) -> int:
    """R12: "the Skill (or Attack) Bonus rounded up to an even number, as a die: +1/+2 → d2,
    +3/+4 → d4, … up to d12". 0: no die (a bonus of 0 or less)."""
    if bonus <= 0:
        return 0
    return min(bonus + bonus % 2, 12)


def resisted(damage: int, resistances: int, vulnerabilities: int, immune: bool) -> int:
    """R17: "Resistance halves the damage (rounded up), and two or more sources of Resistance give
    Immunity. Vulnerability doubles it. Having both cancels out. Immunity means no damage.\""""
    if immune or (resistances >= 2 and not vulnerabilities):
        return 0
    if resistances and vulnerabilities:
        return damage
    if resistances:
        return half_up(damage)
    if vulnerabilities:
        return damage * 2
    return damage


def improvised_bonus(strength: int) -> int:
    """Improvised weapons: "add ½ of your Strength ... If your strength is negative, double it
    instead" (½ rounded up, R14)."""
    return strength * 2 if strength < 0 else half_up(strength)


# R5: unarmed prowess damage by prowess level: "Ability / 1d2+Ability / 1d4+ / 1d6+ / 1d8+ / 1d10+Ability"
PROWESS_DICE: dict[int, int] = {1: 0, 2: 2, 3: 4, 4: 6, 5: 8, 6: 10}
# R3: the Power Improvisation Energy Multiplier by the result against the DS (±3: "3 or more")
IMPROVISATION_MULTIPLIER: dict[int, float] = {-3: 5, -2: 4, -1: 3, 1: 2, 2: 1.5, 3: 1}


def improvisation_multiplier(result: int) -> float:
    return IMPROVISATION_MULTIPLIER[max(-3, min(3, result))]
