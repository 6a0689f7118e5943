"""What the engine does with each section of the Places of Power combat chapter.

``enforced``: the server applies the rule; ``gm``: the rule is the GM's decision, offered as
a GM command or parameter; ``partial``: part enforced, the rest named; ``not covered``:
not yet, with why. A test keeps this in step with the section headings of the text.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Support = Literal["enforced", "gm", "partial", "not covered"]


class Section(msgspec.Struct, kw_only=True):
    heading: str
    support: Support
    how: str


COVERAGE: list[Section] = [
    Section(heading="Action Points", support="enforced",
            how="3 a round carried over to 6 for players; NPCs 3 then a set 4; actions refused past the budget."),
    Section(heading="Hits", support="enforced",
            how="Grazed, Wounded, Afflicted, Helpless; Helpless combatants cannot act."),
    Section(heading="Helpless Vs. Dead", support="enforced",
            how="NPCs die past Helpless, players past Helpless + 2, anyone Helpless dies from one more Hit."),
    Section(heading="Penalty Points", support="enforced",
            how="Paid by the player's choice on attacks, defences, common actions, healing and checks."),
    Section(heading="Status Effects", support="partial",
            how="Prone is tracked (attacked at Advantage, no Evade/Dive, Stand 1 AP); the other statuses, "
                "their durations and start-of-turn effects are not yet in the engine."),
    Section(heading="Damage and Extra Successes", support="enforced",
            how="Each level past the weapon's difficulty is an extra Success spent on Damage or Precision."),
    Section(heading="Stabilising & Healing Hits", support="partial",
            how="Healing restores one Hit (Medical check by the target's Hits, 3 AP); Stabilise waits for "
                "status effects."),
    Section(heading="Injuries", support="partial",
            how="Injuries are counted (two or more Hits, Helpless; the third is Helpless for the fight); "
                "treatment after the fight and recovery time are not yet covered."),
    Section(heading="Initiative Check", support="enforced",
            how="D12 + modifier per player, one GM roll for the NPCs, players placed around it; the GM orders "
                "within the groups and re-rolls when they choose."),
    Section(heading="Turns", support="partial",
            how="Turns and rounds run in initiative order; movement and free actions are narrated, not tracked."),
    Section(heading="Free Actions", support="not covered", how="Narrated at the table; not tracked yet."),
    Section(heading="Movement", support="not covered",
            how="Range bands between combatants are not tracked yet: an attack names its band."),
    Section(heading="Common Actions", support="partial",
            how="Dash, Take Cover, Notch Arrow, Reload Crossbow, Reload Gun (6, saved up over two turns), "
                "Inventory Item, Equip/Remove Armour, Stand, Healing cost their AP; Non-Combat Task and Use "
                "Ability at the GM's cost; Climb/Leap (1 AP, then the GM's Athletics check); Stabilise is not yet "
                "a command."),
    Section(heading="Offensive Actions", support="enforced",
            how="Light and Heavy Melee, Ranged: skill + Strength or Dexterity, difficulty and damage by range band."),
    Section(heading="Defensive Actions", support="enforced",
            how="Evade, Parry (Riposte), Dive, Tank, Human Shield, armour, with their AP and limits."),
    Section(heading="Attack Modifiers", support="enforced", how="Targeted Hit, Steady, Knockdown."),
    Section(heading="Prone Targets", support="enforced",
            how="Attacked at Advantage; Parry at Disadvantage; no Evade or Dive."),
    Section(heading="Non-Lethal Attacks", support="partial",
            how="Grapple (hold, squeeze for an unavoidable Hit, break free or turn the tables, release, the "
                "1- and 2-point penalties, Human Shield), Trip, Disarm and Taunt (the GM decides its effect); "
                "Shove, Demand Surrender, Suppression and Pull your Punch are not yet commands."),
    Section(heading="Critical Hits", support="enforced",
            how="The attacker picks one of the eight additions; Knockback and Force Morale Check are recorded "
                "for the GM."),
    Section(heading="Weapons at Hand", support="enforced",
            how="At most three at hand; swapping is free outside a fight and 3 AP a weapon in one."),
    Section(heading="Unarmed Combat", support="enforced", how="Brawling + Strength, base damage 0."),
    Section(heading="Magical Combat", support="not covered",
            how="Spells, their complexity, AP and Mere costs are not yet in the engine."),
    Section(heading="Disengaging", support="not covered", how="Needs range bands between combatants."),
    Section(heading="Critical Miss - Melee", support="enforced",
            how="The GM picks or rolls the D6 mishap; each result applies its effect."),
    Section(heading="Armour", support="enforced",
            how="Layers outermost first with Durability; the gun shot rule; helmets protect the head."),
    Section(heading="Helmet Sacrifice", support="enforced", how="Once per combat against a ranged head shot."),
    Section(heading="Enemies", support="partial",
            how="The NPC Action Point rule is enforced; stat blocks (set actions, speed, morale, special "
                "actions) are not yet."),
]
