"""Health and Energy coming back or drained (R20, R25): healing and Overheal, Energy below 0, and
rest (partial and full recovery). Pure: each function decides one event from the state."""

from __future__ import annotations

from math import ceil

from domain.core.dice import Dice
from domain.core.encounter import Combatant
from domain.core.errors import RuleViolation
from domain.realms import body as bodies
from domain.realms import conditions as conds
from domain.realms.body import Body
from domain.realms.events import ChangeEnergy, EnergyChanged, Heal, Healed, Recover, Recovered


def _alive(c: Combatant, b: Body) -> None:
    if b.dead:
        raise RuleViolation("realms_dead", f"{c.name} is dead.")


def heal(c: Combatant, b: Body, cmd: Heal, dice: Dice, healer: Combatant | None) -> Healed:
    """R20: "Healing restores Health up to the maximum; healing from a Power adds the healer's Power
    Bonus. Overheal can go over the maximum, stacks"; Bleed: "healing reduces Bleed by the amount
    healed but restores that much less Health"."""
    _alive(c, b)
    if (cmd.amount is None) == (cmd.dice_count == 0):
        raise RuleViolation("realms_bad_amount", "Heal by an amount, or by dice to roll: one of them.")
    now = bodies.health(c.sheet, b)
    if now >= c.sheet.health and not cmd.overheal:
        raise RuleViolation("realms_full_health", f"{c.name} is at their maximum Health ({c.sheet.health}).")
    rolled = [dice.roll(cmd.dice_sides, "healing", c.id) for _ in range(cmd.dice_count)]
    power = healer.sheet.power_bonus if healer is not None else 0
    amount = max((cmd.amount if cmd.amount is not None else sum(d.face for d in rolled) + cmd.bonus) + power, 0)
    bleed = min(conds.level(b.conditions, "bleed"), amount)  # "restores that much less Health"
    health = now + amount - bleed
    if not cmd.overheal:
        health = min(health, max(c.sheet.health, now))
    revived = b.dying and health > 0
    # R22: "When a dying character is stabilised or revived it gains 1 level of Exhausted": at each (a
    # character stabilised is still dying until healed above 0), one level for one healing
    exhausted = b.dying and (revived or not b.stabilised)
    return Healed(combatant_id=c.id, amount=health - now, health=health, bleed=bleed, dice=rolled, revived=revived,
                  exhausted=exhausted, overheal=max(health - c.sheet.health, 0),
                  power_bonus=power)


def change_energy(c: Combatant, b: Body, cmd: ChangeEnergy) -> EnergyChanged:
    """R20: "If Energy drops below 0, the creature takes 1 damage per point below 0. Energy can't go
    below 0"; restored Energy stops at the maximum."""
    _alive(c, b)
    now = bodies.energy(c.sheet, b)
    after = now + cmd.amount
    return EnergyChanged(combatant_id=c.id, change=cmd.amount, energy=min(max(after, 0), max(c.sheet.energy, now)),
                         below=max(-after, 0))


def recover(c: Combatant, b: Body, cmd: Recover) -> Recovered:
    """R25: "Partial recovery comes in 2-hour blocks, up to 6 hours: each block gives back ¼ of
    maximum Health and ¼ of maximum Energy, or ½ of one of them. Full recovery (8–10 hours) restores
    everything"; Exhausted: "one level goes with each Full Recovery"; Overheal "lasts until ... a
    recovery". R14: fractions rounded up, after all the arithmetic is done."""
    _alive(c, b)
    top, most = c.sheet.health, c.sheet.energy
    health = min(bodies.health(c.sheet, b), top)  # the recovery ends Overheal
    energy = min(bodies.energy(c.sheet, b), most)
    exhausted = conds.level(bodies.afflictions(b), "exhausted")
    if cmd.recovery == "full":
        return Recovered(combatant_id=c.id, recovery="full", health=top, energy=most, exhausted=max(exhausted - 1, 0))
    share = {"both": (4, 4), "health": (2, 0), "energy": (0, 2)}[cmd.restore]
    if share[0]:
        health = min(health + ceil(cmd.blocks * top / share[0]), top)
    if share[1]:
        energy = min(energy + ceil(cmd.blocks * most / share[1]), most)
    return Recovered(combatant_id=c.id, recovery="partial", blocks=cmd.blocks, health=health, energy=energy,
                     exhausted=exhausted)
