"""What events count in the statistics: a ruleset says it (``Ruleset.tally``), the statistics
read model (``projections/combatant_statistics.py``) adds it up without reading a payload.

The statistics a read model shows (``STATISTICS``, and the rolls by outcome class:
``OUTCOME`` + the class), counted per pair (combatant, opponent): an attack is the
attacker's against the defender, a Hit the taker's from the dealer, an action with no one
else ``''``. An event may be a step of an attack exchange that an earlier event opened
(``Ruleset.exchange``): its tally then knows both sides of it.
"""

from __future__ import annotations

import msgspec

STATISTICS = ("attacks_made", "attacks_landed", "hits_dealt", "hits_taken", "defences_tried", "defences_won",
              "action_points_spent", "rolls")
OUTCOME = "outcome:"  # rolls by outcome class: "outcome:Full Success"


class Tally(msgspec.Struct, frozen=True):
    """``amount`` added to ``combatant``'s ``statistic`` against ``opponent`` ('' : no one)."""

    combatant: str
    statistic: str
    amount: int = 1
    opponent: str = ""


class Exchange(msgspec.Struct, frozen=True):
    """An attack exchange: the attack's id, who attacks and who defends."""

    id: int
    attacker: str
    defender: str


class Step(msgspec.Struct, frozen=True):
    """Where an event stands in an exchange: the exchange ``id`` it is a step of, and the
    ``Exchange`` itself when the event opens it."""

    id: int
    opens: Exchange | None = None


def attack_tallies(attacker: str, target: str, *, hit: bool, rolled: bool = True, damage: int = 0,
                   defended: bool = False) -> list[Tally]:
    """An attack's count: made (and a roll, if one was rolled), landed on a hit, the Hits it
    dealt and the target took, and whether the target tried a defence and won it (a miss)."""
    out = [Tally(attacker, "attacks_made", 1, target)]
    if rolled:
        out.append(Tally(attacker, "rolls", 1, target))
    if hit:
        out.append(Tally(attacker, "attacks_landed", 1, target))
    out += harm_tallies(attacker, target, damage)
    if defended:
        out.append(Tally(target, "defences_tried", 1, attacker))
        if not hit:
            out.append(Tally(target, "defences_won", 1, attacker))
    return out


def harm_tallies(dealer: str | None, taker: str, damage: int) -> list[Tally]:
    """Hits ``taker`` took (from ``dealer``, None: from no one), and the dealer dealt."""
    if not damage:
        return []
    if dealer is None:
        return [Tally(taker, "hits_taken", damage)]
    return [Tally(dealer, "hits_dealt", damage, taker), Tally(taker, "hits_taken", damage, dealer)]
