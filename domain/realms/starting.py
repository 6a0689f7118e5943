"""Starting combat: initiative rolled with the RM's bonuses, sides alternating, the surprised
last in the first round, Companions after everyone, defeated places taken by their side."""

from __future__ import annotations

import msgspec

from domain.core.dice import Dice
from domain.core.encounter import (
    EncounterState,
    InitiativeRoll,
    InitiativeRolled,
)
from domain.core.errors import RuleViolation
from domain.core.initiative import (
    Entry,
    defeated_replaced,
    order_alternating_sides,
    surprised_last,
)
from domain.realms.state import (
    Start,
    body_of,
    is_companion,
    rules,
)

replace = msgspec.structs.replace


class StartingCombat:
    """A part of ``Realms`` (domain/realms/ruleset.py): startingcombat."""

    def _key(self, state: EncounterState, cid: str) -> tuple[int, int]:
        c = state.combatants[cid]
        return (c.initiative or 0, c.sheet.abilities.acuity)

    def _normal(self, state: EncounterState, order: list[str]) -> list[str]:
        """The order of play from ``order``: each side highest first (ties: higher Acuity, then as
        ``order`` has them: the RM's choice), sides alternating from the one with the highest roll;
        Companions after everyone, in ``order``'s order."""
        cs = state.combatants
        entries = [Entry(cid, self._key(state, cid)[0], i, cs[cid].side, tiebreak=self._key(state, cid)[1])
                   for i, cid in enumerate(order) if cid in cs and not is_companion(cs[cid])]
        return order_alternating_sides(entries) + [c for c in order if c in cs and is_companion(cs[c])]

    def _surprised(self, state: EncounterState) -> list[str]:
        return [cid for cid, s in rules(state).starts.items() if s.surprised and cid in state.combatants]

    def roll_initiative(self, state: EncounterState, dice: Dice) -> InitiativeRolled:
        """"each creature ... rolls a D20 and adds a bonus based on Acuity, a relevant Ability, or
        an appropriate Skill. Initiative order alternates between allies and enemies, starting with
        the side that has the highest individual roll. In the case of ties the creature with the
        higher Acuity goes first"; "During the first round of Combat, all surprised parties act
        after the opposing side has taken their turns"; Companions "act after all other Characters
        and Creatures" (by Acuity, until the players agree on an order: ``SetTurnOrder``)."""
        r = rules(state)
        rolled, totals = [], {}
        ranked = sorted(state.combatants.values(), key=lambda c: c.seq)
        for c in ranked:
            start = r.starts.get(c.id) or Start()
            bonus = c.sheet.bonus_of(start.roll_with or c.sheet.initiative)
            die = dice.roll(20, "initiative", c.id)
            rolled.append(InitiativeRoll(who=c.id, die=die, modifier=bonus, total=die.face + bonus))
            totals[c.id] = die.face + bonus
        entries = [Entry(c.id, totals[c.id], c.seq, c.side, tiebreak=c.sheet.abilities.acuity)
                   for c in ranked if not is_companion(c)]
        companions = sorted((c for c in ranked if is_companion(c)), key=lambda c: (-c.sheet.abilities.acuity, c.seq))
        order = order_alternating_sides(entries) + [c.id for c in companions]
        return InitiativeRolled(rolls=rolled, order=self._round_one(state, order, self._surprised(state)))

    def _round_one(self, state: EncounterState, order: list[str], surprised: list[str]) -> list[str]:
        """Round 1's order: the surprised after the others, the Companions still after everyone."""
        cs = state.combatants
        companions = [c for c in order if is_companion(cs[c])]
        return surprised_last([c for c in order if not is_companion(cs[c])], surprised, 1) + companions

    def check_turn_order(self, state: EncounterState, order: list[str]) -> None:
        """The RM (or the players) may settle ties ("if this is the same the Realm Master or players
        decide who goes first") and the Companions' order ("in any order the Players agree on"),
        nothing else: the order must be the rules' order with its ties broken some way."""
        surprised = self._surprised(state) if state.round <= 1 else []
        normal = self._normal(state, order)
        if self._round_one(state, normal, surprised) != order:
            raise RuleViolation("invalid_turn_order", "Only ties (equal rolls and equal Acuity) and the Companions' "
                                "order are the RM's to settle: sides alternate from the highest roll, highest "
                                "first, surprised parties after the others in round 1, Companions last.")

    def round_order(self, state: EncounterState) -> list[str] | None:
        """After round 1 "Subsequent rounds follow the normal initiative order"; "As creatures get
        defeated, all creature's initiative on their side move up to replace their position in the
        initiative order (unless it is in the first position). This is done at the beginning of the
        next round.\""""
        order = list(state.order)
        if state.round == 1 and self._surprised(state):
            order = self._normal(state, order)
        defeated = [c for c in order if body_of(state, c).dead]
        sides = {cid: c.side for cid, c in state.combatants.items()}
        return defeated_replaced(order, sides, defeated)
