"""Holding an Action at someone else's Initiative Point (a part of the ``Novus`` decider, a mixin):
"Should the player want his character to perform his actions in the initiative point as somebody else
(PC or NPC), the GM should Opposed Saving Throws to determine which goes first."

The procedure is not given (novus-gaps 1.8 item 13, U-N7); ours, as GM settings (``held_save``,
``held_save_tie``): both roll a Saving Throw of the same stat, the higher total goes first. The fight
waits for both saves (a prompt for each side; rolled at once when the server rolls the dice). The
holder winning acts at once; the other winning resolves first, and the held actions follow.
"""

from __future__ import annotations

import msgspec

from domain.core.concerns import CombatantId
from domain.core.dice import Dice, SeededDice
from domain.core.encounter import (
    Combatant,
    Command,
    EncounterState,
    Event,
)
from domain.core.errors import RuleViolation
from domain.core.pending import Decision, Refusal
from domain.core.resources import held
from domain.novus import actions as ap_table
from domain.novus.codes import OWN_CODES
from domain.novus.declaring import unseen_ap
from domain.novus.dice import roll_2d10, save_bonus
from domain.novus.events import (
    ActHeld,
    ActionHeld,
    HeldActionsTaken,
    Hold,
    RollMade,
)
from domain.novus.sheet import Stat
from domain.novus.state import (
    AP,
    PHASES,
    HeldContest,
    rules,
)

replace = msgspec.structs.replace

SAVES_DUE = Refusal(code="novus_opposed_saves_due", message=OWN_CODES["novus_opposed_saves_due"])
REROLLS = 20  # seeded dice: ties rolled again at once at most this often, then prompted


class RollOpposedSave(Command, tag="NovusRollOpposedSave"):
    """One side's Opposed Saving Throw, when a held action is taken at another's IP: 2d10 + the
    GM's stat (held_save, Spd by default) bonus + 5; the higher total goes first."""

    actor_field = "combatant_id"
    combatant_id: CombatantId


class OpposedSaveRolled(RollMade, tag="NovusOpposedSaveRolled"):
    """An Opposed Saving Throw against ``against``; on the second one ``winner`` goes first (none
    on a tie the GM has rolled again)."""

    stat: Stat
    against: CombatantId
    winner: CombatantId | None = None


class HeldActionsDue(Event, tag="NovusHeldActionsDue"):
    """The one who won the Opposed Saving Throws has resolved: the held actions resolve now."""

    combatant_id: CombatantId


COMMANDS = (RollOpposedSave,)
EVENTS = (OpposedSaveRolled, HeldActionsDue)


class Holding:
    """The held actions' rules of ``Novus`` (domain/novus/ruleset.py)."""

    def _held_at(self, state: EncounterState, c: Combatant, ip: int | None, at: str | None) -> str | None:
        """Who the held actions contest the IP with (none: they resolve now): "at any initiative point
        that he desires, so long as it is lower", the next to resolve's IP at the lowest."""
        r = rules(state)
        nxt = PHASES.mover(r.position, self._ranked(state))  # type: ignore[attr-defined]
        if at is not None:
            other = self.combatant(state, at)  # type: ignore[attr-defined]
            if other.id == c.id or other.id != nxt:
                raise RuleViolation("novus_not_now", f"{c.name} may act at the IP of the one due to resolve next, "
                                    f"not {other.name}'s.")
            if ip is not None and ip != r.ip.get(other.id):
                raise RuleViolation("novus_not_now", f"{other.name}'s IP is {r.ip.get(other.id)}, not {ip}.")
            ip = r.ip.get(other.id)
        if ip is None:
            return None
        own = r.ip.get(c.id, 0)
        if ip >= own:
            raise RuleViolation("novus_not_now", f"Held actions come at an IP lower than {c.name}'s ({own}).")
        if nxt is None or nxt == c.id or (c.controller == "player" and nxt in self.hidden_from(  # type: ignore[attr-defined]
                state, frozenset({c.id}))):
            return None  # ours: no contest with one the player does not see (its prompt would tell of them)
        theirs = r.ip.get(nxt, 0)
        if ip < theirs:
            who = state.combatants[nxt].name
            raise RuleViolation("novus_not_now", f"IP {ip} comes after {who}'s ({theirs}): act when it comes.")
        return nxt if ip == theirs else None

    def contest_waits(self, state: EncounterState) -> bool:
        """The fight waits for the Opposed Saving Throws (of two still in the fight)."""
        r = rules(state)
        c = r.contest
        both = c is not None and c.holder in state.combatants and c.other in state.combatants
        return (both and c.waiting) or SAVES_DUE.code in r.unseen_waits  # type: ignore[union-attr]

    def _contest_decisions(self, state: EncounterState) -> list[Decision]:
        """A prompt for each side that has not rolled its Opposed Saving Throw."""
        contest = rules(state).contest
        if contest is None or not self.contest_waits(state):
            return []
        return [Decision(id=f"opposed:{state.round}:{contest.holder}:{cid}", kind="opposed_save", combatant_id=cid,
                         command=RollOpposedSave.__struct_config__.tag, body={"combatant_id": cid},
                         blocks_turn_end=True, refusal=SAVES_DUE,
                         summary="A held action at this Initiative Point: an Opposed Saving Throw says who goes first.")
                for cid in (contest.holder, contest.other) if cid not in contest.saves and cid in state.combatants]

    def _opposed_save(self, state: EncounterState, cmd: RollOpposedSave, dice: Dice) -> list[Event]:
        contest = rules(state).contest
        c = self.combatant(state, cmd.combatant_id)  # type: ignore[attr-defined]
        if contest is None or not contest.waiting or c.id not in (contest.holder, contest.other) \
                or c.id in contest.saves:
            raise RuleViolation("novus_no_opposed_save", OWN_CODES["novus_no_opposed_save"])
        return self._roll_opposed(state, [c.id], dice)

    def _contest_opened(self, state: EncounterState, dice: Dice) -> list[Event]:
        """Once the held actions are taken at another's IP: with the server's dice both saves now."""
        contest = rules(state).contest
        if contest is None or not isinstance(dice, SeededDice):
            return []
        return self._roll_opposed(state, [contest.holder, contest.other], dice)

    def _roll_opposed(self, state: EncounterState, who: list[str], dice: Dice) -> list[Event]:
        """Roll each in ``who``'s save; with the server's dice a tie rolled again is rolled at once;
        the holder winning acts at once."""
        out: list[Event] = []
        for _ in range(REROLLS):
            for cid in who:
                e = self._one_save(state, cid, dice)
                out.append(e)
                state = self.evolve(state, e)  # type: ignore[attr-defined]
            contest = rules(state).contest
            if contest is None or not contest.waiting or not isinstance(dice, SeededDice):
                break
            who = [contest.holder, contest.other]
        if rules(state).contest is None and not self.contest_waits(state):  # the holder won: "goes first"
            held = [e for e in out if isinstance(e, OpposedSaveRolled) and e.winner is not None][-1:]
            if held:
                out += self._carry_on(state, held[0].winner, False, dice, finish=False)  # type: ignore[attr-defined]
        return out

    def _one_save(self, state: EncounterState, cid: str, dice: Dice) -> OpposedSaveRolled:
        r = rules(state)
        contest = r.contest
        assert contest is not None
        stat = r.data.held_save
        c = state.combatants[cid]
        against = contest.other if cid == contest.holder else contest.holder
        roll = roll_2d10(dice, f"opposed save vs {stat} (held action)", cid)
        bonus = save_bonus(c.sheet.stats.bonus(stat))
        total = roll.total + bonus
        winner = None
        if against in contest.saves:
            theirs = contest.saves[against]
            if total != theirs:
                winner = cid if total > theirs else against
            elif r.data.held_save_tie != "reroll":
                winner = contest.holder if r.data.held_save_tie == "holder" else contest.other
        return OpposedSaveRolled(combatant_id=cid, dice=list(roll.dice), rolled=roll.total, nova=roll.nova,
                                 bonus=bonus, total=total, stat=stat, against=against, winner=winner)

    def _held_turn(self, state: EncounterState, dice: Dice) -> list[Event]:
        """The other won and has resolved (or left the fight): the held actions resolve now, once
        nothing waits."""
        r = rules(state)
        contest = r.contest
        if contest is None or contest.holder not in state.combatants or r.boons_due is not None \
                or self._waiting(state):  # type: ignore[attr-defined]
            return []
        if contest.other in state.combatants and (contest.winner is None or contest.winner not in r.resolved):
            return []
        due = HeldActionsDue(combatant_id=contest.holder)
        after = self.evolve(state, due)  # type: ignore[attr-defined]
        return [due, *self._carry_on(after, contest.holder, False, dice, finish=False)]  # type: ignore[attr-defined]

    def _hold(self, state: EncounterState, cmd: Hold) -> ActionHeld:
        """"Should the player decide to hold his character's actions prior to declaring his
        character's actions for the round, there is no penalty. However, should the player decide to
        hold his character's action after he has already declared his actions, he will lose 1 AP"."""
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        phase = self.phase(state)
        declared = r.declared.get(c.id)
        if phase == "declare" and declared is None and not r.unseen_mover \
                and PHASES.mover(r.position, self._ranked(state)) == c.id:
            return ActionHeld(combatant_id=c.id)
        if phase in ("declare", "resolve") and declared is not None and not declared.done and c.id not in r.resolved \
                and not declared.cancelled:
            unseen = declared.unseen(state.concealed)
            return ActionHeld(combatant_id=c.id, refund=declared.ap - sum(unseen.values()), refund_on=unseen,
                              lost=min(1, held(c).get(AP, 0) + declared.ap))
        raise RuleViolation("novus_not_now", f"{c.name} may hold when declaring, or after declaring and before the "
                            "actions resolve.")

    def _act_held(self, state: EncounterState, cmd: ActHeld, dice: Dice) -> list[Event]:
        """"The player may then perform have his character perform his actions at any initiative point
        that he desires, so long as it is lower than the initiative point rolled for the round"."""
        r = rules(state)
        c = self.combatant(state, cmd.combatant_id)
        if c.id not in r.holding or self.phase(state) != "resolve" or c.id not in state.acted:
            raise RuleViolation("novus_not_holding", f"{c.name} holds no action to perform now.")
        if cmd.actions and not self.can_act(state, c.id):
            raise RuleViolation("novus_cannot_act", f"{c.name} cannot act now.")
        other = self._held_at(state, c, cmd.ip, cmd.at)
        self._check_declaration(state, c, cmd.actions, cmd.defensive, cmd.defensive_weapon)
        costs = [ap_table.cost(c.sheet, a, r.data, c.id in r.mounted) for a in cmd.actions]
        total = sum(costs)
        left = held(c).get(AP, 0)
        if total > left:
            raise RuleViolation("novus_too_many_ap", f"{c.name} has {left} AP left for the held actions; they take "
                                f"{total}.", available=left, cost=total)
        unseen, _ = unseen_ap(state, cmd.actions, costs, 0)
        taken = HeldActionsTaken(combatant_id=c.id, actions=ap_table.each_attack(cmd.actions), ap=total - sum(unseen.values()),
                                 ap_on=unseen, defensive=cmd.defensive, defensive_weapon=cmd.defensive_weapon,
                                 at=other if cmd.actions else None)
        after = self.evolve(state, taken)
        out: list[Event] = [taken]
        if taken.at is not None:  # "Opposed Saving Throws to determine which goes first"
            return out + self._contest_opened(after, dice)
        for a in rules(after).declared[c.id].next_actions(False):
            more = self._perform(after, c.id, a, dice)
            out += more
            for e in more:
                after = self.evolve(after, e)
            if rules(after).boons_due is not None or self._waiting(after):
                break
        return out


def evolve_contest(contest: HeldContest | None, event: Event) -> HeldContest | None:
    """The contest after an Opposed Saving Throw (a tie rolled again starts it afresh; the holder
    winning ends it: the actions resolve at once) or once the held actions are due."""
    if contest is None:
        return None
    if isinstance(event, HeldActionsDue):
        return None
    if isinstance(event, OpposedSaveRolled):
        if event.winner is not None:
            return None if event.winner == contest.holder else replace(contest, winner=event.winner)
        saves = {**contest.saves, event.combatant_id: event.total}
        return replace(contest, saves={} if len(saves) == 2 else saves)
    return contest
