"""What the engine does with each section of the Places of Power texts: the dice chapter
(places-of-power-dice.txt) and the combat chapter (places-of-power-combat.txt).

``enforced``: the server applies the rule; ``gm``: the rule is the GM's decision, offered as
a GM command or parameter; ``partial``: part enforced, the rest named; ``not covered``:
not yet, with why. ``readings``: where the text leaves a choice (two rules that both apply, a
word that could mean two things), the one the engine makes. A test keeps each chapter's rows
in step with its section headings.
"""

from __future__ import annotations

from typing import Literal

from domain.core.coverage import Section as CoreSection
from domain.core.coverage import Support

__all__ = ["COVERAGE", "Section", "Support"]


class Section(CoreSection, kw_only=True):
    """One section of a chapter (``dice`` or ``combat``), under its heading."""

    chapter: Literal["dice", "combat"] = "combat"


DICE_CHAPTER: list[Section] = [
    Section(chapter="dice", heading="Standard Dice Rolls", support="enforced",
            how="A check is an Attribute die + a Skill die: the GM calls for it (CallForCheck: the Attribute, the "
                "Skill, the difficulty), the character's player rolls it (RollCheck). Attributes are D4 to D12, "
                "Skills D4 to D20.",
            readings=[
                "The player's choice of approach (\"they will select the Attribute and Skill\") is agreed at the "
                "table: the GM's CallForCheck records the pair chosen.",
                "Skills are the names the character sheet declares; a check of a Skill the sheet does not have is "
                "refused (unknown_skill). An Attribute the sheet leaves out is a D4.",
                "A Wounded or Afflicted character pays a check's Penalty Points in difficulty or dice "
                "(IncreaseDifficulty, StepDownDie): a check costs no Action Points and does no damage.",
            ]),
    Section(chapter="dice", heading="Difficulty Levels", support="enforced",
            how="Easy 7, Normal 9, Difficult 13, Hard 16, Very Hard 20. Below the target: Failure; from the target "
                "to one below the next level's value: Partial Success; the next level's value or more: Full "
                "Success. Exact odds: GET /rulesets/places-of-power/odds.",
            readings=[
                "Very Hard has no next level: a roll reaching Very Hard is a Partial Success, never a Full "
                "Success (a Full Success is defined by \"the target value for the next level of difficulty up\").",
            ]),
    Section(chapter="dice", heading="Critical Successes and Critical Failures", support="enforced",
            how="Both dice the same and the total over the target: Critical Success; the maximum on both dice: "
                "Critical Success; both dice the same and the total below the target: Critical Failure. On an "
                "attack a Critical Failure is the combat chapter's Critical Miss.",
            readings=[
                "When both apply the failure wins: D4 + D4 rolling 4 and 4 at Normal (8 against 9) is the maximum "
                "on both dice and the same value below the target: a Critical Failure, not a Critical Success.",
                "The maximum on both dice is a Critical Success only when the roll reaches the target; below it, "
                "without a pair (D4 + D6 rolling 4 and 6 at Difficult), it is a plain Failure.",
                "\"Over the target\" is strictly above it: a pair whose total is exactly the target (8 and 8 on a "
                "D10 and a D12 at Hard 16) is a plain success, not a critical one.",
                "The maximum on both dice counts the Attribute and Skill dice, not an occupation D6.",
            ]),
    Section(chapter="dice", heading="Advantage and Disadvantage", support="enforced",
            how="Advantage steps the lower die up one level, Disadvantage the higher die down one, on the ladder "
                "D4, D6, D8, D10, D12, D20.",
            readings=[
                "Two dice of the same size: the Skill die is the one stepped.",
                "Advantage and Disadvantage together cancel out; several reasons for one of them (the GM's call "
                "and a Condition) step one die once, they do not add up.",
                "The ladder's ends hold: a D20 Stepped Up stays a D20, a D4 Stepped Down stays a D4; a D12 Stepped "
                "Up becomes a D20.",
            ]),
    Section(chapter="dice", heading="Re-Rolls", support="enforced",
            how="ReRoll: once per check, after a Failure that is not a Critical Failure; the Attribute's Condition is "
                "taken, the re-roll is at Disadvantage, and failing it is a Critical Failure. \"Unless the GM "
                "states otherwise\": the GM calls a check with no_reroll (CallForCheck), and it is not re-rolled.",
            readings=[
                "The re-roll is at Disadvantage even when the check was called at Advantage (\"all rolls using "
                "that Attribute ... are performed at Disadvantage, including this re-roll\"): the Advantage is "
                "not kept to cancel it.",
                "A Condition already held is not taken twice; the re-roll is still at Disadvantage.",
                "A re-roll that succeeds keeps its outcome, a Critical Success included.",
            ]),
    Section(chapter="dice", heading="Conditions", support="enforced",
            how="Weakened, Exhausted, Dizzy, Numb, Dazed, Distracted, Angry, Anxious, each on its Attribute: the GM "
                "applies and removes them (ApplyCondition, RemoveCondition); every roll with that Attribute is at "
                "Disadvantage: checks, attacks, defences and opposed rolls.",
            readings=[
                "\"Usually by Resting\": a Long Rest (LongRest) removes every Condition; other ways are the GM's "
                "RemoveCondition or a Hero Point.",
                "A Condition is held once: applying one already held is refused (condition_present).",
            ]),
    Section(chapter="dice", heading="Occupation Rolls", support="gm",
            how="The GM says the check relates to the occupation (CallForCheck occupation): an extra D6 is rolled "
                "and added.",
            readings=[
                "Any two of the three dice the same is critical; the total against the target decides which: over "
                "it a Critical Success, below it a Critical Failure, exactly on it neither.",
                "Three the same counts as two (\"does not add anything further\").",
            ]),
    Section(chapter="dice", heading="Hero Points", support="enforced",
            how="StartSession sets every player character's Hero Points to 1 (unused ones are lost); AwardHeroPoint "
                "(GM); SpendHeroPoint: ReduceDifficulty, RemoveCondition, RestoreHit, DowngradeCriticalHit, "
                "ReduceCriticalFailure, CheatDeath, Flashback.",
            readings=[
                "Reducing the Difficulty of a Roll: a check called and not yet rolled, one level, not below Easy.",
                "Turning an incoming Critical Hit into a regular Hit: while the defender decides; the addition "
                "still to land with the blow (Unavoidable Hit, Bypass Armour, Knockdown) is dropped, one already "
                "applied when chosen (Knockback, Disarm, Inflict Condition, Refund, Force Morale Check) stays.",
                "Cheat Death: only for a character beyond Helpless (dead); they live again at a single Hit, keep "
                "their Injuries, and, being back from beyond Helpless, are Staggered for 2 turns (\"Upon recovery "
                "apply Staggered for 2 turns\").",
                "\"This includes, but is not limited to\": uses beyond the seven listed have no command; the GM "
                "narrates them.",
                "NPCs keep the Hero Points their sheet gives them; a session start gives only players theirs.",
            ]),
    Section(chapter="dice", heading="Flashbacks", support="gm",
            how="SpendHeroPoint Flashback with the narration of what was set up; the GM may call a check for it "
                "(CallForCheck).",
            readings=[
                "\"It is ultimately up to the GM if your flashback makes sense\": the GM changes it in the story, "
                "or undoes it (Retcon).",
            ]),
    Section(chapter="dice", heading="Initiative Rolls", support="enforced",
            how="Each player character rolls D12 + their Initiative Modifier, the GM one D12 + a modifier for all "
                "NPCs; players equal or higher go before the NPCs, lower ones after; the GM orders within the "
                "groups and re-rolls (RollInitiative again) when they choose.",
            readings=[
                "The GM's modifier is the highest of all the GM's NPCs, foes and allies (\"the group of all NPCs, "
                "both foes and allies\"; the combat chapter names the enemy NPCs).",
            ]),
    Section(chapter="dice", heading="Willpower Rolls", support="enforced",
            how="WillpowerRoll (GM): a D20 at or under the character's Willpower holds, over it breaks; the GM "
                "describes what follows.",
            readings=["An NPC's morale (MoraleCheck) rolls against its Stat Block's Morale, or its Willpower "
                      "without one."]),
    Section(chapter="dice", heading="Opposed Rolls", support="enforced",
            how="OpposedRoll (GM): each side rolls its Attribute + Skill (+ a flat bonus the rules give); the "
                "higher total wins.",
            readings=[
                "A tie has no winner: the GM decides.",
                "\"Beat your opposition by an entire difficulty level\": the winner's total reaches a difficulty "
                "level the loser's does not (13 against 12: Difficult against Normal), not a margin of points; "
                "what it does (an injured arm) is the GM's.",
            ]),
    Section(chapter="dice", heading="Levelling Up Skills", support="enforced",
            how="A Critical Success or Critical Failure marks the Skill rolled (SkillMarked): a check's, an attack's "
                "(its weapon's Skill; a Critical Miss is its Critical Failure), a rolled defence's (Parry the weapon's "
                "Skill, Evade and Dive Athletics), an opposed roll's; LongRest (GM) rolls a D20 for "
                "each mark (D4 6, D6 9, D8 12, D10 15, D12 18) and clears the marks; a Mere Skill at D10 or above "
                "may take a Mere Activation Point instead.",
            readings=[
                "An opposed roll has no target to be over or below: only \"the maximum value possible on both "
                "dice\" makes it a Critical Success (and marks its Skill).",
                "A Skill is marked once however many criticals; a D20 Skill cannot level and its mark is cleared.",
            ]),
]

COMBAT_CHAPTER: list[Section] = [
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
                "has no Difficulty Level to increase, an action without Base Damage none to reduce.",
            readings=[
                "In an opposed roll \"Reduce Dice Value\" reduces one of the roller's own two dice (after "
                "Advantage, Disadvantage and Conditions); \"Increase Roll Difficulty\" has no Difficulty Level to "
                "act on (the higher total wins) and is refused.",
            ]),
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
                "attacked at Advantage, Stand 1 AP. Recovering from Helpless applies Staggered for 2 turns.",
            readings=[
                "Deafened, \"until after the first blow\": the first attack from behind while Deafened, whether it "
                "lands or not, is met with the armour or taken; after it the character is aware of the attackers "
                "behind, and defends every later attack, from behind or not, as usual while the Deafened lasts.",
                "Deafened, \"an active defence\": every Defensive Action (Evade, Parry, Dive, Tank, Human Shield) "
                "and Helmet Sacrifice; taking the blow on the armour is the passive defence left.",
            ]),
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
    Section(heading="Common Actions", support="enforced",
            how="Dash, Take Cover, Notch Arrow, Reload Crossbow, Reload Gun (6, saved up over two turns), "
                "Inventory Item, Equip/Remove Armour, Stand, Healing cost their AP; Non-Combat Task and Use "
                "Ability at the GM's cost; Climb/Leap (1 AP, then the GM's Athletics check); Stabilise (3 AP); Dash "
                "doubles the turn's movement once a turn; Take Cover puts the combatant in cover until they move. "
                "A ranged weapon whose sheet names its reload (NotchArrow, ReloadCrossbow, ReloadGun) is spent by "
                "each shot (an attack, Suppression) and loaded again by that action (TakeAction weapon); one not "
                "reloadable (\"such as volley guns\") fires once a fight.",
            readings=["Ours: a weapon is loaded when the fight begins (the sheet's unloaded says otherwise); one "
                      "whose sheet names no reload (a thrown weapon) is not tracked, and its reloading is only its "
                      "AP. Arrows and bolts are not counted: the quiver is the table's."]),
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
            how="The GM picks or rolls the D6 mishap; each result applies its effect. After 2, RegainBalance "
                "(1 AP) gives Evade, Parry and Dive back, offered in the next moves while it applies (on one's "
                "turn, and out of turn: when attacked); after 4 against a shield the attacker is also Prone.",
            readings=[
                "2: the Action Point to regain the balance may be spent any time in that round, on one's own turn "
                "or when attacked (before choosing the defence); a Wounded or Afflicted combatant pays its Penalty "
                "Points in Action Points.",
                "4: \"armed with a shield\" is a shield among the opponent's weapons at hand, not dropped.",
            ]),
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

COVERAGE: list[Section] = [*DICE_CHAPTER, *COMBAT_CHAPTER]
