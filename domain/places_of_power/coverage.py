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
            how="Paid by the player's choice on attacks, defences, common actions, healing, checks and opposed "
                "rolls (Grapple, Break Free, Trip, Disarm, Shove, Demand Surrender: one of the roller's dice "
                "reduced, or an Action Point). A penalty that would change nothing is refused: an opposed roll "
                "has no Difficulty Level to increase, an action without Base Damage none to reduce."),
    Section(heading="Status Effects", support="enforced",
            how="The GM applies and removes them (ApplyStatus/RemoveStatus), lasting to the end of the round, a "
                "number of the bearer's turns, or until removed. Bleeding (Stamina + Medical from Easy, a level "
                "harder each turn, a Hit on failure) and Burning (a Hit; a Normal Stamina + Rosmere check with a "
                "Rosmere Affinity of 5) fall due as the turn begins and are settled (ResolveStatus) before "
                "anything else. Blinded: attacks at Disadvantage (vision checks are the GM's). Paralysed and "
                "Unconscious: no actions, no active defence; Paralysed attacked at Advantage, Unconscious Prone. "
                "Staggered: one action (anything paid in AP) per turn. Exposed: the attacker picks Advantage or "
                "+1 base damage. Frightened: attacks on the source at Disadvantage, no move closer. Deafened: no "
                "active defence against the first blow from behind (the GM says from_behind): no Defensive "
                "Action (Tank and Human Shield included) nor Helmet Sacrifice, only the armour or taking it; the "
                "rest of hearing is narrated. Crippled: half movement, no Dash or Climb/Leap. Entangled: no movement "
                "until BreakLoose (Athletics + Strength/Agility at the GM's difficulty, once a turn). Prone: "
                "attacked at Advantage, Stand 1 AP. Recovering from Helpless applies Staggered for 2 turns."),
    Section(heading="Damage and Extra Successes", support="enforced",
            how="Each level past the weapon's difficulty is an extra Success spent on Damage or Precision."),
    Section(heading="Stabilising & Healing Hits", support="enforced",
            how="Stabilise and Healing (3 AP each): a Medical check at the difficulty for the target's Hits "
                "(Grazed Easy .. Helpless Hard) removes one Status Effect or restores one Hit; Hits wait until "
                "every Status Effect is resolved; a Helpless combatant cannot stabilise or heal anyone."),
    Section(heading="Injuries", support="enforced",
            how="Injuries are counted (two or more Hits, Helpless; the third is Helpless for the fight) and "
                "recorded one by one on the sheet (new or carried in). Not during combat: the GM sets an "
                "Injury's difficulty, Base Recovery Time, Recovery Dice and Permanent Condition "
                "(SetInjuryTreatment); the healer rolls Surgery or Medical (TreatInjury; Medical only if no one "
                "in the party can perform Surgery). Successful is Partial, Full or Critical Success (a Partial "
                "Success completes the task, not cleanly: the GM may narrate a minor consequence); a critically "
                "failed Surgery is a failed one. Outcomes as listed: Surgery success base + rolled die, failure "
                "base + maximum and a Permanent Condition; Medical critical success base + rolled, success base "
                "+ maximum, failure base + maximum and a Permanent Condition, critical failure untreated and "
                "needing Surgery that applies a Permanent Condition. PassDays (GM, between fights) counts "
                "treated Injuries down and removes them at zero."),
    Section(heading="Initiative Check", support="enforced",
            how="D12 + modifier per player, one GM roll for the NPCs, players placed around it; the GM orders "
                "within the groups and re-rolls when they choose."),
    Section(heading="Turns", support="enforced",
            how="Turns and rounds run in initiative order; on a turn the combatant moves (split as they like), "
                "takes free actions and AP actions in any order. The 5-10 seconds a turn lasts is the GM's to "
                "judge (they refuse what would take longer)."),
    Section(heading="Free Actions", support="enforced",
            how="FreeAction: Small Change of Position (Melee and Close), Pick up (after moving to the dropped "
                "weapon), Drop, Shout a Command, Draw an Available Weapon; one of each a turn. Drawing is "
                "recorded; an attack may use any weapon at hand."),
    Section(heading="Movement", support="enforced",
            how="The GM places combatants at Melee, Close, Near, Far or Long from each other (SetRange); Move "
                "uses the turn's movement: Near reached in one move, Far in two or one with Dash, Long in four or "
                "two with Dash; Crippled and Slow halve it, Fast moves as if Dashing; a step longer than what is "
                "left of a turn's movement is begun and finished on a later turn. An attack or non-lethal "
                "move at a placed target uses the tracked band. Moving away from melee needs Disengage."),
    Section(heading="Common Actions", support="partial",
            how="Dash, Take Cover, Notch Arrow, Reload Crossbow, Reload Gun (6, saved up over two turns), "
                "Inventory Item, Equip/Remove Armour, Stand, Healing cost their AP; Non-Combat Task and Use "
                "Ability at the GM's cost; Climb/Leap (1 AP, then the GM's Athletics check); Stabilise (3 AP); Dash "
                "doubles the turn's movement once a turn; Take Cover puts the combatant in cover until they move. "
                "Ammunition is not tracked: reloading costs its AP."),
    Section(heading="Offensive Actions", support="enforced",
            how="Light and Heavy Melee, Ranged: skill + Strength or Dexterity, difficulty and damage by range band."),
    Section(heading="Defensive Actions", support="enforced",
            how="Evade, Parry (Riposte), Dive, Tank, Human Shield, armour, with their AP and limits."),
    Section(heading="Attack Modifiers", support="enforced", how="Targeted Hit, Steady, Knockdown."),
    Section(heading="Prone Targets", support="enforced",
            how="Attacked at Advantage; Parry at Disadvantage; no Evade or Dive."),
    Section(heading="Non-Lethal Attacks", support="enforced",
            how="Grapple (hold, squeeze for an unavoidable Hit, break free or turn the tables, release, the "
                "1- and 2-point penalties, Human Shield), Trip, Disarm and Taunt (the GM decides its effect); "
                "Shove (opposed Athletics + Strength, +2 with a shield, to Near, Prone over an edge with the GM's "
                "Fall Damage); Pull your Punch (a lethal blow waits for the attacker: 1 AP and a re-rolled attack "
                "leave the target Helpless); Demand Surrender (human targets only; Strength + Persuasion must beat the "
                "target's Morale value, which stands as its total: the weapons at hand drop, the target is marked "
                "surrendered and the GM decides the rest); Suppression (a ranged weapon at hand, ammunition not "
                "tracked; targets in cover each roll a Morale Check; NPCs that fail cannot act, nor actively "
                "defend, until the next round)."),
    Section(heading="Critical Hits", support="enforced",
            how="The attacker picks one of the eight additions; Knockback moves a placed target one band "
                "further; Force Morale Check is the GM's MoraleCheck."),
    Section(heading="Weapons at Hand", support="enforced",
            how="At most three at hand; swapping is free outside a fight and 3 AP a weapon in one."),
    Section(heading="Unarmed Combat", support="enforced", how="Brawling + Strength, base damage 0."),
    Section(heading="Magical Combat", support="enforced",
            how="CastSpell: Mere skill (an Enemy's Magic) + an Attribute; complexity 0-3 gives 1-4 Hits of Base "
                "Damage, resolved as an attack (defence, armour, Hits), or heals that many Hits once Status "
                "Effects are resolved. AP, Mere and difficulty per complexity are the GM's table (SetSpellCosts, "
                "rising; our default 1-4 AP, 1-4 Mere, Normal); Mere is spent and tracked (SetMere); Enemies "
                "cast only their Set Spells. Activation Levels per colour are the GM's to judge."),
    Section(heading="Disengaging", support="enforced",
            how="Disengage: 1 AP, Athletics + Agility at Normal, once a round; success puts the combatant out of "
                "reach of everyone engaging them (the first band their melee weapons do not reach) with their "
                "move still to make; failure keeps them in melee for the round."),
    Section(heading="Critical Miss - Melee", support="enforced",
            how="The GM picks or rolls the D6 mishap; each result applies its effect."),
    Section(heading="Armour", support="enforced",
            how="Layers outermost first with Durability; the gun shot rule; helmets protect the head."),
    Section(heading="Helmet Sacrifice", support="enforced", how="Once per combat against a ranged head shot."),
    Section(heading="Enemies", support="enforced",
            how="NPC Action Points (3, then a set 4); a Stat Block is the GM's, with the reduced skills (Melee, "
                "Ranged, Brawling, Magic, and Athletics for Evade and Dive; weapons roll Melee, Ranged or "
                "Brawling); Set Actions: an Enemy is refused an Offensive, Defensive or Non-Lethal action its "
                "block does not list (Common Actions, taking a blow and Cast Spell are not Set Actions; a block "
                "listing none restricts nothing), and the attack exchange's choices offer it only those (every "
                "choice is judged by the check that accepts or refuses the command); Set Spells through CastSpell; Speed is read by movement; "
                "Abilities are the GM's to read; UseSpecialAction: its AP, one a turn, once-per-combat ones once; "
                "MoraleCheck: one D20 for one, several or all remaining NPCs, at or under Morale (Willpower "
                "without a block) holds, the rest flee and cannot act."),
]
