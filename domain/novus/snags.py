"""Snag Points (a part of the ``Novus`` decider, a mixin): "Snag Points come from very low
(imploding) rolls and are spent on the Snag table" (novus-gaps N4, N17).

How many a roll earns is not published (U-N7): the GM's ``snag_step`` (ours: an attack roll that
imploded and missed earns 1 for every full 10 points it falls short of DEF, the mirror of the Boon
Points). They wait, like Boon Points, to be spent at once on the GM's Snag table, by the GM (ours).
The engine applies what the table's effects do in a fight (a fumbled or broken weapon, a strained
muscle, hurting oneself, striking a friend, a broken weapon's double damage); the rest is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.core.pending import Choice, Decision, Refusal
from domain.novus.actions import Action
from domain.novus.codes import OWN_CODES
from domain.novus.data import SnagRule
from domain.novus.dice import imploded
from domain.novus.events import AttackRolled
from domain.novus.state import NovusRules, SnagsDue, rules

replace = msgspec.structs.replace

SNAGS_DUE = Refusal(code="novus_snags_due", message=OWN_CODES["novus_snags_due"])
TEN_MINUTES = 120  # "-1 to all actions for 10 minutes": rounds of 5 seconds
NEEDS_WEAPON = ("fumble", "break_item", "break_weapon")


class SpendSnags(Command, tag="NovusSpendSnags"):
    """The GM spends the Snag Points ``combatant_id``'s imploded attack roll earned, at once, on the
    Snag table (none: they go unspent); ``friend``: the nearest friend in range, for a Snag that
    strikes one (positions are not tracked)."""

    combatant_id: CombatantId
    snags: list[str] = msgspec.field(default_factory=list)
    friend: CombatantId | None = None


class SnagsSpent(Event, tag="NovusSnagsSpent"):
    """The Snags bought; ``dice``: the 1d10 of hurting oneself; ``recorded``: the effects left to the GM."""

    combatant_id: CombatantId
    snags: list[str]
    weapon: str | None = None
    friend: CombatantId | None = None
    dice: list[DieRoll] = msgspec.field(default_factory=list)
    recorded: list[str] = msgspec.field(default_factory=list)

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


COMMANDS = (SpendSnags,)
EVENTS = (SnagsSpent,)


def snag_points(step: int | None, dice: Sequence[DieRoll], total: int, tn: int) -> int:
    """The GM's reading (``snag_step``): 1 for every full ``step`` the imploded total falls short of the TN."""
    if step is None or total >= tn or not imploded(dice):
        return 0
    return (tn - total) // step


def unusable(r: NovusRules, cid: str, weapon: str | None, round_number: int) -> str | None:
    """Why the weapon may not be used now (broken, or fumbled and not yet recovered), or None."""
    if weapon is None:
        return None
    if weapon in r.broken.get(cid, []):
        return f"{weapon} is broken (a Snag)."
    if r.fumbled.get(cid, {}).get(weapon, 0) >= round_number:
        return f"{weapon} was fumbled (a Snag): recovering it takes a round."
    return None


def strain(r: NovusRules, cid: str, round_number: int) -> int:
    """A strained muscle: "-1 to all actions for 10 minutes"."""
    return 1 if r.strained.get(cid, 0) >= round_number else 0


def evolve_snags(r: NovusRules, event: Event, state: EncounterState) -> NovusRules:
    """The Snag Points an attack roll earned wait; the Snags spent leave their marks."""
    if isinstance(event, AttackRolled) and event.snag_points:
        sheet = state.combatants[event.combatant_id].sheet
        weapon = event.weapon if sheet.weapon(event.weapon) is not None else None
        return replace(r, snags_due=SnagsDue(roller=event.combatant_id, points=event.snag_points, weapon=weapon,
                                             at=state.version + 1))
    if not isinstance(event, SnagsSpent):
        return r
    cid, w, now = event.combatant_id, event.weapon, state.round
    r = replace(r, snags_due=None)
    for name in event.snags:
        snag = r.data.snag(name)
        does = snag.does if snag is not None else "none"
        if does == "fumble" and w is not None:
            r = replace(r, fumbled={**r.fumbled, cid: {**r.fumbled.get(cid, {}), w: now + 1}})
        elif does == "strain":
            r = replace(r, strained={**r.strained, cid: now + TEN_MINUTES})
        elif does in ("break_item", "break_weapon") and w is not None and w not in r.broken.get(cid, []):
            r = replace(r, broken={**r.broken, cid: [*r.broken.get(cid, []), w]})
    return r


class Snags:
    """The Snag Points of ``Novus`` (domain/novus/ruleset.py)."""

    def snags_wait(self, state: EncounterState) -> bool:
        """The fight waits for the GM to spend Snag Points (of one still in the fight)."""
        r = rules(state)
        due = r.snags_due
        return (due is not None and due.roller in state.combatants) or SNAGS_DUE.code in r.unseen_waits

    def _snag_decision(self, state: EncounterState, due: SnagsDue) -> Decision:
        """The GM's: the Snags the points buy (one at a time here; several in one command)."""
        r = rules(state)
        roller = state.combatants[due.roller]
        choices = [Choice(name="Spend none (the points are lost)", answer={"snags": []})]
        for n in r.data.snags:
            if n.cost > due.points or (n.does in NEEDS_WEAPON and due.weapon is None):
                continue
            if n.does != "strike_friend":
                choices.append(Choice(name=n.name, answer={"snags": [n.name]}))
                continue
            # "strike the nearest friend in range": positions are not tracked, so one choice for each friend
            choices += [Choice(name=f"{n.name}: {friend.name}", answer={"snags": [n.name], "friend": fid})
                        for fid, friend in state.combatants.items()
                        if fid != roller.id and friend.side == roller.side and fid not in r.dead]
        name = roller.name
        return Decision(id=f"snags:{due.at}:{due.roller}", kind="snags", combatant_id=None,
                        command=SpendSnags.__struct_config__.tag, body={"combatant_id": due.roller},
                        choice_field="snags", choices=tuple(choices), blocks_turn_end=True, refusal=SNAGS_DUE,
                        summary=f"{name}'s roll imploded: spend {due.points} Snag Point(s) on the Snag table at once "
                                "(to strike a friend, name the nearest in range: friend).")

    def _spend_snags(self, state: EncounterState, cmd: SpendSnags, dice: Dice) -> list[Event]:
        r = rules(state)
        due = r.snags_due
        c = self.combatant(state, cmd.combatant_id)  # type: ignore[attr-defined]
        if due is None or due.roller != c.id:
            raise RuleViolation("novus_no_snags_due", f"{c.name} has no Snag Points to spend now.")
        chosen = [self._snag(state, due, name, cmd) for name in cmd.snags]
        if len(set(cmd.snags)) != len(cmd.snags) or sum(n.cost for n in chosen) > due.points:
            raise RuleViolation("novus_snags_over", f"Each Snag once, for no more than the {due.points} Snag "
                                "Point(s) earned.")
        does = {n.does for n in chosen}
        hurt = [dice.roll(10, "snag: hurt yourself", c.id)] if "hurt" in does else []
        friend = cmd.friend if "strike_friend" in does else None
        spent = SnagsSpent(combatant_id=c.id, snags=list(cmd.snags), weapon=due.weapon, friend=friend, dice=hurt,
                           recorded=[n.effect or n.name for n in chosen if n.does == "none"])
        out: list[Event] = [spent]
        after = self.evolve(state, spent)  # type: ignore[attr-defined]
        harm = [(d.face - c.sheet.armour.ar, "a Snag: hurt yourself") for d in hurt]  # "armour applies"
        if "break_weapon" in does:  # "take double its normal damage, ignoring armour"
            double = 2 * self.base_damage(state, c.id, Action(kind="attack", weapon=due.weapon))  # type: ignore[attr-defined]
            harm.append((double, "a Snag: the weapon breaks"))
        for amount, cause in harm:
            more = self._damage(after, c.id, amount, cause, from_attack=False)  # type: ignore[attr-defined]
            out += more
            for e in more:
                after = self.evolve(after, e)  # type: ignore[attr-defined]
        if friend is not None and self.can_act(after, c.id):  # type: ignore[attr-defined]
            strike = Action(kind="attack", target=friend, weapon=due.weapon)
            more = [replace(e, snag=True) if isinstance(e, AttackRolled) and e.combatant_id == c.id else e
                    for e in self._roll_attack(after, c.id, strike, dice, False, False)]  # type: ignore[attr-defined]
            out += more
            for e in more:
                after = self.evolve(after, e)  # type: ignore[attr-defined]
        return out + self._continue(after, dice)  # type: ignore[attr-defined]

    @staticmethod
    def _snag(state: EncounterState, due: SnagsDue, name: str, cmd: SpendSnags) -> SnagRule:
        r = rules(state)
        n = r.data.snag(name)
        if n is None:
            raise RuleViolation("novus_unknown_snag", f"“{name}” is not on the Snag table "
                                f"({', '.join(x.name for x in r.data.snags)}).")
        if n.does in NEEDS_WEAPON and due.weapon is None:
            raise RuleViolation("novus_bad_snag", f"{name}: there is no weapon in hand (a Brawling attack).")
        if n.does == "strike_friend":
            roller = state.combatants[due.roller]
            friend = state.combatants.get(cmd.friend or "")
            if friend is None or friend.id == roller.id or friend.side != roller.side or friend.id in r.dead:
                raise RuleViolation("novus_bad_snag", f"{name}: name the nearest friend in range (friend), one of "
                                    f"{roller.name}'s side in the fight.")
        return n
