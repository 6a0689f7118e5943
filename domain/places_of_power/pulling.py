"""Pull your Punch's words: its command, its event and its cost, shared by the attack exchange
(attacks.py offers it) and the rule itself (pull_your_punch.py decides it)."""

from __future__ import annotations

from domain.core.concerns import CombatantId, EventRef
from domain.core.dice import DieRoll
from domain.core.encounter import Command, Event

PULL_COST = 1
SUCCESSES = ("Partial Success", "Full Success", "Critical Success")


class PullYourPunch(Command, tag="PullYourPunch"):
    """The attacker's answer to a lethal blow: pull the punch (``pull``: 1 AP, re-roll the
    attack) or let it land. Reported dice: the attack's two dice again."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    attack: EventRef
    pull: bool = True


class PunchPulled(Event, tag="PunchPulled"):
    attack_id: EventRef
    combatant_id: CombatantId
    action_points: int
    dice: list[DieRoll]
    total: int
    difficulty: str
    success: bool

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)
