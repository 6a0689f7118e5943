"""The coverage of the rules realms-combat.txt gives a bold lead-in ("Surprise.", "Multiple Action
Penalty.", "Non-Lethal Damage:"): one row each, under its heading's row (``part_of``), in the text's
order. Bullets are parts of the lead-in above them, and have none of their own."""

from __future__ import annotations

from domain.core.coverage import Section


def _lead(heading: str, support: str, how: str, *readings: str) -> Section:
    return Section(heading=heading, support=support, how=how, chapter="combat", readings=list(readings))  # type: ignore[arg-type]


NO_MAP = "no map is kept"

LEAD_INS: dict[str, list[Section]] = {
    "Initiative (Starting Combat)": [
        _lead("Creature Positions", "gm",
              f"Where each creature stands is the RM's to describe ({NO_MAP}): the distance an attack, a Movement or "
              "a Defend names is the acting creature's claim, the RM correcting one that is wrong (Retcon)."),
        _lead("Roll For Initiative", "enforced",
              "The initiator (SetInitiative initiator) takes its first Action for no AP before initiative is "
              "rolled, and only then; then everyone rolls a D20 and adds its bonus (RollInitiative), the initiator "
              "too; sides alternate from the highest roll, ties to the higher Acuity, then the RM's or the players' "
              "choice (SetTurnOrder)."),
        _lead("Example", "enforced", "The text's example gives the text's order (a test plays it through the "
              "server: Enemy 1, Player 1, Enemy 2, Player 2, Enemy 3, Player 3, Enemy 4, Enemy 5)."),
        _lead("Using Different Skills for Initiative", "gm",
              "The RM picks the Skill or Ability each creature's initiative adds (SetInitiative roll_with: Stealth, "
              "Deception, Insight or any Skill on its sheet); else the sheet's `initiative`, Acuity by default."),
        _lead("Other Skills", "gm", "Whether an Action established during gameplay allows another Skill is the "
              "RM's: SetInitiative roll_with names it."),
        _lead("Balancing Skill Variety", "gm", "The RM's: SetInitiative roll_with left out (null) returns a "
              "creature to its sheet's default (Acuity)."),
        _lead("Surprise", "enforced", "A creature the RM marks surprised (SetInitiative surprised) acts after the "
              "opposing side in round 1; from round 2 the normal initiative order (SetTurnOrder is refused if it "
              "breaks either)."),
        _lead("Rounds", "enforced", "A round is every creature's turn once; \"one round\" effects (an Evade, split "
              "Evades, a Prepared Action) last until the start of the same creature's next turn.",
              "The RM's: environmental effects (RealmsDealDamage, RealmsApplyCondition), and the ten seconds a "
              "round stands for."),
        _lead("Companions", "enforced", "Companions act after all other creatures, by Acuity until the players "
              "agree on an order (SetTurnOrder, which may only reorder them and ties).",
              "The RM's: ties in Acuity settled \"with contested D20 rolls\" at the table, the order then set "
              "(SetTurnOrder)."),
        _lead("Turns", "enforced", "Actions are taken on one's own turn (refused otherwise); Reactions outside it: "
              "an attack's Reaction windows, a Prepared Action, Detect, Command."),
        _lead("Communication", "gm", "Talk is the table's, at any time; one that involves an Ability Roll (a Taunt, "
              "a Persuade) is the Ability Roll Action (RealmsTakeAction), its Score the RM's (against)."),
    ],
    "Actions": [
        _lead("Action Points", "enforced", "AP set to 4 at the start of combat and at the end of each of one's "
              "turns (a Dying creature: 1; Stunned: fewer), spent on Actions on one's turn and on Reactions "
              "outside it; an improvised action at the RM's cost (RealmsImprovisedAction)."),
        _lead("0 AP Actions", "enforced", "One free Interaction and one free Ability Roll gained at the end of each "
              "turn (and at the start of combat: ours), further ones at their AP; the Free Action 0 AP, then 1 "
              "for each further one in the turn.",
              "The RM's: \"0 AP\" Actions of feats and other abilities (not on the sheet) are recorded at 0 AP "
              "(RealmsImprovisedAction) and do not count as the Free Action."),
        _lead("End-of-Turn Overcome Action", "enforced", "As a turn ends, before its AP, a creature with "
              "conditions that have a Defence and a Score is asked to roll (RealmsOvercome: roll or decline): one "
              "roll of each targeted Defence against every Score on it, in the order it picks; for 1 AP earlier "
              "in the turn (the Overcome Action), once a turn."),
        _lead("Overcome Action Example", "enforced", "Slow and Stun on Might and a damage over time on Fortitude: "
              "one Might roll against both Scores, one Fortitude roll against the other (tested)."),
        _lead("Multiple Action Penalty", "enforced", "-5 to the D20 roll of each repeat of the same Action or "
              "Reaction in a turn, stacking (-10, -15); Basic, Quick and Free Actions one type; a Reaction's roll "
              "(Weapon Block, Shield Defense, Counter Power, a counter of a Power in effect) counted as its own; "
              "the off-hand and Quick Attacks without it."),
    ],
    "Stealth/Hide Action (2 AP)": [
        _lead("Staying Hidden", "enforced", "1 AP at the end of each later turn to stay hidden, before the AP "
              "renew (none left: revealed); Hiding is immobile; a switch between Hiding and Stealthing (1 AP) "
              "spares that turn's upkeep."),
        _lead("Detection", "enforced", "The Detect Reaction (Perception against the Stealth score, 0 AP, then 1 "
              "each further in the round) or the Search Action (1 AP); once Detected on a turn, the Stealth/Hide "
              "Action costs 1 AP."),
        _lead("Triggering Detect or Search Actions", "gm",
              "Attacking: each creature the attacker is hidden from is offered the Detect Reaction, +3 to its "
              "roll (enforced).",
              f"The RM's ({NO_MAP}): what else reveals a hidden creature (noise, moving to lower Obscurity or "
              "through a line of sight); the Detect and Search commands are taken when the table allows."),
    ],
    "Grapple (2 AP)": [
        _lead("Escaping a Grapple", "enforced", "The Grappled creature's Overcome rolls Might against the "
              "grappler's Strength Score (10 + Strength, +2 per size it is smaller); meeting it ends the grapple.",
              "The RM's: another roll to escape (Charm against Resolve...), ruled by the RM, who ends the "
              "condition (RealmsRemoveCondition)."),
        _lead("Movement with Grapple", "enforced", "The Grappled creature takes no Movement; the grappler's Speed "
              "is halved (rounded up) and refused without the Strength to drag half the other's weight (the "
              "sheet's weight: +1 Strength per 200 kg).",
              "The RM's: carrying the grappled one instead (no carrying capacity in the texts), recorded at the "
              f"RM's cost (RealmsImprovisedAction); the grappled one staying within melee range ({NO_MAP}: the "
              "RM ends the grapple, RealmsRemoveCondition)."),
        _lead("Size and Grappling", "enforced", "+2 to the grapple roll and the Strength Score per size the "
              "target is smaller, -2 per size it is larger, refused more than one size larger."),
    ],
    "Power Improvisation (2 AP)": [
        _lead("Power Part Estimation", "gm", "The Parts and the estimated Energy are the RM's to give "
              "(RealmsImprovisePower parts and energy, each Part's Training Point cost from the Codex)."),
        _lead("Difficulty Score", "enforced", "10 + the Parts' Training Point costs, half (rounded up) for a Part "
              "one is proficient with."),
        _lead("Power Improvisation Roll", "enforced", "A Power Attack (d20 + the Power Bonus) against the "
              "Difficulty Score, its Successes or Failures counted (R9); the Power is used even on a failure."),
        _lead("Energy Cost", "enforced", "The estimate times the Energy Multiplier of the roll's result (R3), "
              "rounded up; more than one's Energy: the Power is not created, the Energy kept, the Action lost."),
        _lead("Action Used", "gm", "By default a Basic Action or Reaction (2 AP, enforced); another Action (a Free "
              "Reaction, a Long Action) is the RM's, its cost recorded as an improvised Action "
              "(RealmsImprovisedAction)."),
    ],
    "Counter Power (X AP)": [
        _lead("Multiple Counters", "enforced", "The first counterer rolls, adding the other counterers' Power "
              "Proficiency and +1 per 5 Energy all of them spent; a counter is itself countered the same way."),
        _lead("Countering Powers Already in Effect", "enforced", "RealmsCounterInEffect: the Power attack roll, +1 "
              "per 5 Energy, against the original attack score the RM gives (+1 per 5 Energy spent on it); "
              "exceeding it nullifies the Power or the part named; what that undoes is the RM's."),
        _lead("Collateral Countering", "enforced", "RealmsAttack collateral (a Power attack): its own roll also "
              "counters a Power in effect, or the part named, unless the attack itself was countered."),
    ],
    "Combination Attack (1 AP)": [
        _lead("Making Sense", "gm", "Whether an assist makes sense is the RM's: the RM closes the window before it "
              "(CloseReactions) or undoes it (Retcon)."),
    ],
    "Defend (1 AP)": [
        _lead("Shield Defense", "enforced", "A Strength attack roll meeting the attack roll, then the Shield Die "
              "off the damage, down to 0 (R18)."),
        _lead("Weapon Block", "enforced", "A weapon with the Block property one is proficient with: its attack "
              "roll becomes the Evasion, unless lower."),
        _lead("Body Shield", "enforced", "An ally steps in: the attack is on it, at its Evasion -2, double damage "
              "if it hits."),
    ],
    "Command (1 AP)": [
        _lead("Creature's Reaction", "enforced", "Commanded for a Reaction, a Companion may react, and acts on its "
              "upcoming turn without another Command."),
        _lead("Creature's Turn", "enforced", "An uncommanded Companion takes no Action on its turn until its owner "
              "Commands it (its owner is offered the Command)."),
        _lead("Action Point Limitation", "enforced", "Each further Command in a round controls one AP less; a "
              "Companion is Commanded once a round and gains no AP from another Command."),
    ],
    "Attacking": [
        _lead("Targeting", "enforced", "An attack targets Evasion by default, a Power the Defences on the sheet; "
              "with several, the attacker's one roll goes against Evasion or the first and each further one but "
              "the last, and the defender rolls the last (the untargeted Defence) against the attacker's Potency.",
              "Ours: the untargeted Defence is the Power's last (the RM orders the Power's Defences by what would "
              "hurt the defender most)."),
    ],
    "Attack Rolls": [
        _lead("Weapon Attack Roll", "enforced", "D20 + the Martial Bonus against the Defence, usually Evasion, "
              "within the weapon's range."),
        _lead("Martial Bonus", "enforced", "Martial Proficiency + the weapon's Ability (R4)."),
        _lead("Martial Proficiency", "enforced", "From the sheet (0 to 6)."),
        _lead("Martial Potency", "gm", "The Martial Bonus + 10: the Score a resisting roll is made against is the "
              "RM's to give when applying a martial effect (RealmsApplyCondition score)."),
        _lead("Relevant Weapon Abilities", "enforced", "R4: melee Strength, ranged Acuity, unarmed Strength or "
              "Agility (if proficient), finesse Agility, thrown Strength."),
        _lead("Power Attack Roll", "gm", "D20 + the Power Bonus against the Power's Defence, within its range "
              "(enforced).",
              "The RM's: sight of the target (\"Most Powers require sight\"), and a Power on several creatures: "
              "one attack is rolled at one target, the RM applying that roll's outcome to the others "
              "(RealmsDealDamage, RealmsApplyCondition)."),
        _lead("Power Bonus", "enforced", "Power Proficiency + the Power Ability."),
        _lead("Power Proficiency", "enforced", "From the sheet (0 to 6)."),
        _lead("Power Ability", "gm", "The sheet's power_ability: Acuity by default, Intelligence or Charisma, or "
              "another the RM allows (any Ability on the sheet)."),
        _lead("Power Potency", "enforced", "The Power Bonus + 10: the Score a defender's untargeted Defence rolls "
              "against (+2 for a charmer against the Charmed)."),
        _lead("Archetype Proficiency", "enforced", "No effect of its own: it \"does not directly influence "
              "gameplay\"."),
        _lead("Archetype Potency", "gm", "The higher Potency: the Score a resisting roll is made against is the "
              "RM's to give when applying an effect (RealmsApplyCondition score)."),
        _lead("Ranged Attacks", "enforced", "-5 within 1 space; up to four times the normal distance at -5; "
              "refused beyond."),
        _lead("Hitting", "enforced", "A hit when the total meets or beats the Evasion or Defence Score."),
    ],
    "Attacking Objects": [
        _lead("Targeting", "enforced", "A sheet marked `object` is hit without a roll, never critically, and "
              "fails every Defence."),
        _lead("Defenses", "enforced", "An attack on an object's Mental Fortitude, Resolve or Discernment is "
              "refused (it automatically fails).",
              "The RM's: an exception \"deemed appropriate\", applied by the RM (RealmsApplyCondition, "
              "RealmsDealDamage)."),
        _lead("Triggered Effects", "gm", "Feats and reaction Powers triggered by a hit are not on the sheet: the "
              "RM applies them, never for a hit on an object."),
    ],
    "Determine Damage": [
        _lead("Powers", "enforced", "A Power's damage dice + the Power Bonus; a Power without damage dice deals "
              "no Power Bonus."),
        _lead("Techniques", "gm", "Techniques are not on the sheet: the RM deals their damage (RealmsDealDamage), "
              "with the Martial Bonus when a weapon or Unarmed Prowess is part of one."),
        _lead("Proficiency", "enforced", "Without full proficiency half the Ability and no Martial Proficiency; "
              "partially proficient, the proficiency's die, at least 1d4; a weapon's properties only when "
              "proficient with them."),
        _lead("Damage Reductions", "enforced", "Reductions first (armour, falling by one each time in a turn; a "
              "Brace), then weaknesses and resistances; never below 1 unless immune (a shield may reach 0)."),
        _lead("Effects", "gm", "An attack's effects beyond damage are the RM's, after the damage "
              "(RealmsApplyCondition)."),
        _lead("Non-Lethal Damage", "enforced", "Declared with the attack (RealmsAttack non_lethal): damage that "
              "would bring the target to 0 or lower leaves it unconscious instead, at 0 Health.",
              "The RM's: the hour passing, then \"they regain 1 Health and consciousness\" (RealmsHeal 1)."),
    ],
    "Critical Hits": [
        _lead("Critical Multiplier", "enforced", "2x the damage dice, +1x per increase (the sheet's and the "
              "weapon's), the bonus once."),
        _lead("Critical Multiplier Example", "enforced", "3x on 3d6: 9d6 (tested)."),
        _lead("Critical Range", "enforced", "10 over the Defence, less the sheet's and the weapon's reductions; "
              "armour raises it (R19)."),
        _lead("Multiple Sources", "enforced", "Adjustments stack (a -2 feat and a -1 weapon: 7)."),
        _lead("Coup De Grâce", "enforced", "RealmsCoupDeGrace, outside of Combat, on a creature unconscious or (by "
              "the RM's word) asleep: a hit and a Critical Hit without a roll.",
              f"The RM's: being within 1 space ({NO_MAP})."),
    ],
    "Improvised Weapons & Unarmed Prowess": [
        _lead("Dual Wielding", "enforced", "Two Interchangeable weapons: after an attack Action, the off-hand "
              "Quick Action attack (1 AP) without the Multiple Action Penalty, its damage without the bonus.",
              "The RM's: Techniques and Powers on both weapons (not on the sheet)."),
        _lead("Improvised Weapons", "enforced", "1d4 and half Strength (doubled if negative) to melee attack and "
              "damage, never below 0.",
              "Ours: bludgeoning; another damage type \"that best fits the flavor\" is the RM's to deal "
              "(RealmsDealDamage damage_type)."),
        _lead("Thrown Improvised Weapons and Objects", "enforced", "Half Strength to attack and damage, double "
              "the higher of Agility or Strength in spaces, four times at -5.",
              "The RM's: \"it must weigh less than ½ of your carrying capacity\" (no carrying capacity in the "
              "texts): the thrower's claim, the RM undoing a throw that is too heavy (Retcon)."),
        _lead("Unarmed Prowess", "enforced", "Untrained, half Strength to the attack and as damage."),
        _lead("Attack Bonus & Damage", "enforced", "Trained, the higher of Strength or Agility + Martial "
              "Proficiency to attack and damage, with the prowess level's die (R5)."),
        _lead("Quick Attacks", "enforced", "After an unarmed attack Action, one unarmed Quick Action attack (1 AP) "
              "a turn without the Multiple Action Penalty."),
    ],
}
