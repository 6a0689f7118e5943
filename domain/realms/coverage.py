"""The coverage table: what the engine does with each heading of realms-combat.txt. A reading
"Setting" is the RM's (``SetRealmsRules``), with the default realms-gaps.md names; "Ours" marks a
reading of the text where it leaves a choice."""

from __future__ import annotations

import msgspec

from domain.core.coverage import Section
from domain.realms.lead_ins import LEAD_INS


def _row(heading: str, support: str, how: str, *readings: str) -> Section:
    return Section(heading=heading, support=support, how=how, chapter="combat", readings=list(readings))  # type: ignore[arg-type]


_HEADINGS = [
    _row("Combat Encounters", "enforced", "The chapter: an encounter of the realms ruleset."),
    _row("Combat Encounters", "enforced", "Combat in cycles of turns, each creature taking Actions (its AP) and "
         "Reactions; whether someone retaliates is the table's, the RM starts the fight (StartEncounter)."),
    _row("Initiative (Starting Combat)", "enforced",
         "Everyone rolls a D20 + a bonus: Acuity by default, the sheet's `initiative` (an Ability or Skill), or the "
         "RM's pick per creature (SetInitiative roll_with). Sides alternate from the side of the highest roll, each "
         "highest first, ties to the higher Acuity, then the RM's or players' choice (SetTurnOrder, refused unless "
         "it only settles ties or the Companions' order). Surprised creatures (SetInitiative surprised) act after "
         "the opposing side in round 1 only; Companions act last (by Acuity until the players agree on an order); "
         "the defeated (dead) are dropped at the start of the next round, their side moving up into their places, "
         "but for the first place. The initiator (SetInitiative initiator) takes its first Action (an attack, a "
         "Grapple, an Action of the Action table, Stealth or Hide) for no AP before initiative is rolled, and only "
         "then; once initiative is rolled it is gone. Rounds: "
         "\"one round\" effects (Evade) last until the start of the same creature's next turn.",
         "Ours: the natural 20/1 (R8) applies to attack, Defence and Overcome rolls, not to initiative.",
         "Ours: creature positions and marching order are the table's (no map is kept).",
         "Ours: before initiative nobody has AP yet (\"At the start of combat ... your Action Points (AP) are set "
         "to 4\"), so the initiator's free Action is answered by no Reaction that costs AP."),
    _row("Actions", "enforced",
         "AP set to 4 at the start of combat and at the end of each of one's turns (a Dying creature: 1), spent on "
         "one's turn for Actions (RealmsTakeAction: the Action table R1, Basic 2, Quick 1, Free 0 then 1, Movement "
         "1 (the Speed, then the Speed again, ½, ¼), Interaction 1, Ability Roll 1, Skill Encounter Action 2, "
         "Evade 1, Brace 1, Focus 1, Search 1, Overcome 1), and outside it for Reactions. One free Interaction and one free Ability Roll at the end of "
         "each turn. The Multiple Action Penalty: -5 per repeat of a D20 Action or Reaction in a turn, stacking, "
         "Basic, Quick and Free one type. Improvised actions at the RM's cost (RealmsImprovisedAction).",
         "Setting: Evade gives +evade_bonus (2, R1) to Evasion against the next attack on it, +1 for each further "
         "Evade before that attack (the README's \"+1 per extra use\"); unused, it runs out at the start of one's "
         "next turn (\"one round\"). Split instead (RealmsTakeAction split), each Evade is allotted to one attack on "
         "the creature in that time, before its roll (the Split Evade Reaction, no AP), +evade_bonus against it "
         "alone; whole and split Evades are not mixed (refused).",
         "Ours: the free Interaction and Ability Roll are there at the start of combat too.",
         "The End-of-Turn Overcome: as a turn ends, before its AP, a creature with conditions the RM gave a "
         "Defence and a Score (RealmsApplyCondition) is asked (RealmsOvercome: roll or decline, in the order it "
         "picks): one roll of each targeted Defence against every Score on it, meeting one overcomes it (R7); "
         "for 1 AP earlier in the turn (the Overcome Action), once a turn.",
         "Conditions (R23-R24), each once (the RM's new one replaces the old, levels never add): Stunned (AP lost "
         "at once and at the turn's end, never below 1), Dazed (no Reactions), Exposed, Staggered, Faint and "
         "Exhausted (Evasion and Defences), Weakened and Exhausted (every d20), Grappled (-2 to its attacks, +2 to "
         "hit it, no Movement), Prone (+2 from melee, -2 from afar, Speed halved), Blinded and Invisible (-4, "
         "Complete Obscurity), Hidden (+2), Immobile, Slowed, Bleed (Health at the turn's start; healing takes it "
         "off first), Resilient, Susceptible, Deafened (resistant to Sonic).",
         "Charmed and Frightened name their source (RealmsApplyCondition source): the Charmed creature's attacks on "
         "its charmer are refused (\"can't harm the charmer\"), the charmer's Potency against it +2; the "
         "Frightened creature's attacks and grapples against the source take -level. Restrained: no weapon attack "
         "(\"all weapons require at least one hand\"), Shield Defense or Weapon Block.",
         "The RM's (RealmsModifyRoll: a bonus or penalty on a creature's next d20 roll): the charmer's +2 on "
         "Charisma rolls against the Charmed (a roll names no target), Frightened's -½ level \"while seeing it\" "
         "(sight is the table's, no map); which other Actions need the arms (Grapple is \"an open hand or "
         "appendage\") is the RM's to rule, undoing one taken (Retcon).",
         "Movement (R1): the first use moves up to the Speed, the second the Speed again, the third half of it, "
         "the fourth a quarter (rounded up, R14); a fifth in a turn is refused. Brace: the next damage (of an "
         "attack or the RM's) reduced by Vitality, never below 1 (ours: it waits until that damage; a second "
         "Brace before it is refused). Focus: +2 to the creature's next d20 roll of any kind (ours: likewise "
         "once; \"also raises a targeted Score\" is the RM's, RealmsModifyRoll). Search (the Action's roll) "
         "finds a hidden creature through RealmsDetect search."),
    _row("Additional Actions", "enforced", "The section: the Actions below."),
    _row("Stealth/Hide Action (2 AP)", "enforced",
         "RealmsStealthHide: the sheet's Stealth or Hide Skill (else Stealth, else Agility), +1 per level of "
         "Obscurity or -4 unobscured: Hidden (+2 to its attacks) from each opposing creature whose Discernment "
         "score the roll surpasses; 1 AP to stay hidden at the end of each later turn, before the AP renew (none "
         "left: revealed); Hiding is immobile; switching (1 AP) spares that turn's upkeep; detection by the Detect "
         "Reaction (Perception against the score, 0 AP, then 1 each further in the round) or the Search Action (1 "
         "AP), +3 once the hidden creature attacked; once Detected on a turn, the Stealth/Hide Action costs 1 AP.",
         "Ours: the Obscurity level is the hider's claim (no map); which moves trigger a Detect, and that a hiding "
         "creature stays Obscured, are the table's; the Detect needs no revealing first."),
    _row("Grapple (2 AP)", "enforced",
         "RealmsGrapple: a Strength Unarmed Prowess attack (Martial Proficiency + Strength if trained, else half "
         "Strength) against Might or Reflexes, +2 per size the target is smaller, -2 per size larger, refused more "
         "than one size larger; on a success the target is Grappled (-2 to its attacks, +2 to hit it, no Movement), "
         "escaped by the Overcome, Might against the grappler's Strength Score (10 + Strength, +2 per size smaller); "
         "optional unarmed damage.",
         "Moving while grappling: the grappler's Speed halved (rounded up), refused without the Strength to drag "
         "half the grappled one's weight (the sheet's weight, in kg: +1 Strength per 200 kg); a weight not on the "
         "sheet is the RM's to judge.",
         "Ours: the Strength needed is half the weight / 200 kg, rounded up.",
         "The RM's: carrying the grappled one instead (no carrying capacity in the texts: recorded at the RM's "
         "cost, RealmsImprovisedAction), the grappled one staying within melee range (no map: the RM ends the "
         "grapple, RealmsRemoveCondition), and other escape rolls (ruled by the RM, RealmsRemoveCondition)."),
    _row("Prepared Actions (X AP)", "enforced",
         "A prepared attack (RealmsPrepare: its trigger, target, weapon or Power, distance), its AP and Energy paid "
         "on one's turn, used as a Reaction later (RealmsUsePrepared: no AP then); unused by the start of one's next "
         "turn, it is lost with what it cost.",
         "Any other Action of the Action table may be prepared the same way (RealmsPrepare action, with the roll "
         "and spaces it will take, checked and paid now; not the Overcome, the turn's end's), used as a Reaction "
         "with its roll then.",
         "Ours: a prepared attack is not used while another attack waits for its Reactions; whether another "
         "Reaction cancels it is the RM's (RealmsUsePrepared is the player's call, \"as long as it's a reasonable "
         "response\")."),
    _row("Power Improvisation (2 AP)", "enforced",
         "RealmsImprovisePower (the RM's, who determines the Difficulty Score and the Energy cost): the Difficulty "
         "Score is 10 + the Parts' Training Point costs (half, rounded up, for a Part one is proficient with); a "
         "Power Attack against it; the Energy Multiplier by its Successes or Failures (R3, ±3 meaning 3 or more), "
         "rounded up; more than one's Energy: the Power fails, the Energy kept, the 2 AP lost. Its effects are the "
         "RM's (RealmsDealDamage, RealmsApplyCondition).",
         "\"As a Basic Action or Reaction\": on one's turn a Basic Action (the initiator's free first Action "
         "too), outside it a Reaction (2 AP then; not while Dazed), its repeats counted as their own type for the "
         "Multiple Action Penalty. A Determination Die may be spent on its roll."),
    _row("Reactions", "enforced", "Reactions spend AP outside one's turn (or on it); they answer an attack's "
         "reaction windows: before the roll Dodge (1 AP, +1 Evasion), Combination Attack and Counter Power; once it "
         "would hit, with its damage known, Defend. A Dazed creature takes none.",
         "Help (RealmsHelp, 1 AP, 2 with an Interaction): the helper's Help Die (R12, from its bonus in the "
         "Ability or Skill named) added to the ally's next Ability or Skill roll this round; Detect: see "
         "Stealth/Hide. A Reaction's repeated D20 roll in a turn takes the Multiple Action Penalty.",
         "An attack by a creature hidden from the defender is prompted all the same (Dodge, Counter Power, "
         "Defend), from what the defender may know: an attack comes, on which Defence, whether a Power, and once it "
         "would hit its damage; not who makes it, with what, from where, nor its roll (Hidden: \"location "
         "unknown\")."),
    _row("Additional Reactions", "enforced", "The section: the Reactions below."),
    _row("Counter Power (X AP)", "enforced",
         "Before a Power attack's roll, anyone with a Power they can pay for may counter it (the Power's AP and "
         "Energy); the first counterer's Power attack roll, with the other counterers' Power Proficiency and +1 "
         "per 5 Energy they spent, against the attack roll with +1 per 5 of its Energy: exceeding it nullifies "
         "the Power (no hit).",
         "Before the roll a creature takes each Reaction it may (a Dodge and a Counter, its AP permitting: the "
         "text limits Reactions by AP only), one of each; once the attack would hit, one Defend (in one of its "
         "three ways).",
         "Countering a Power already in effect (RealmsCounterInEffect, on one's turn or as a Reaction, at the "
         "Power's AP and Energy): the Power attack roll, +1 per 5 Energy, against the original attack score the RM "
         "gives, +1 per 5 Energy spent on it; exceeding it nullifies the Power, or the part of it named (\"at the "
         "discretion of the Realm Master\"); what ending it undoes is the RM's (RealmsRemoveCondition...).",
         "Collateral Countering (RealmsAttack collateral, a Power attack only): the attack's own roll, +1 per 5 "
         "Energy of its Power, against a Power in effect's original attack score (+1 per 5 Energy spent on it) "
         "counters it as well, or the part named, unless the attack itself was countered.",
         "Ours: a counter of a counter is a Counter Power like any other (the text has no rule of its own for it); "
         "the RM's: a Power in effect is not kept as state, so its attack score and what ending it undoes come "
         "from the log and the RM (RealmsRemoveCondition...)."),
    _row("Combination Attack (1 AP)", "enforced",
         "Before the roll, each ally of the attacker with AP and an Attack Bonus (its first weapon's) may add its "
         "Help Die (R12: the bonus rounded up to an even number, d2 to d12), rolled once for both, to the Attack "
         "and Damage Rolls.",
         "Ours: the die is rolled once for both rolls (the text's first option); whether the help makes sense is "
         "the table's."),
    _row("Defend (1 AP)", "enforced",
         "Once an attack would hit and its damage is known, each creature of the target's side with AP may Defend "
         "(1 AP): Shield Defense (R18: a Strength attack roll meeting the attack roll, then the Shield Die off the "
         "damage, down to 0), Weapon Block (a weapon with the Block property it is proficient with: its attack roll "
         "becomes the Evasion unless lower), Body Shield (an ally steps in: -2 Evasion, double damage if it hits).",
         "Ours: being within 1 space of the attacker and the ally is the defender's claim (no map is kept)."),
    _row("Command (1 AP)", "enforced",
         "A Companion (a sheet's companion_of) takes Actions and Reactions in a round only once its owner Commands "
         "it (RealmsCommand, the owner's 1 AP, at any time: at the start of its turn or for its Reaction); each "
         "further Command by the owner in the round controls one AP less; once a Companion a round.",
         "Ours: being aware of the Companion and able to communicate with it is the table's."),
    _row("Attacking", "gm", "An attack names its target, in range: melee 1 space, a weapon's or Power's own "
         "range; ranged attacks within 1 space at -5, up to four times the normal distance at -5.",
         "The RM's (no map is kept): the distance an attack names is the attacker's claim, checked only "
         "against the range; so are \"within 1 space\" (Defend, Coup de Grâce, Search's 2 spaces), line of "
         "sight (\"Most Powers require sight\") and the Obscurity levels a Stealth/Hide or an attack claims "
         "(R11 \"Attacks take −1 per level\": RealmsAttack's obscurity, 0-4, counted beyond the Complete "
         "Obscurity a Blinded attacker or an Invisible target already has); the RM undoes a claim that is wrong "
         "(Retcon) or gives a bonus or penalty for what the engine does not see (RealmsModifyRoll)."),
    _row("Attack Rolls", "enforced",
         "D20 + the Martial Bonus (Martial Proficiency + the weapon's Ability, R4: melee Strength, ranged Acuity, "
         "finesse Agility, thrown Strength) or the Power Bonus (Power Proficiency + Power Ability), never both; "
         "natural 20 +2, natural 1 -2 (R8); a hit when the total meets or beats Evasion or the Power's Defence; "
         "Successes and Failures (R9) told. Potency is the Bonus + 10.",
         "The Determination Die (R10): a player's character holds the determination_dice setting (1) as the "
         "encounter starts, the RM setting what it holds (RealmsSetDetermination, up to 3: a later fight of the "
         "session); spent (determination) on an attack, an Action's roll, a Grapple, one Defence's Overcome roll, "
         "a Stealth/Hide, a Detect or Search, a Power Improvisation or a counter of a Power in effect, the d20 is "
         "re-rolled and the better kept.",
         "Ours (R10 (c): \"nothing in the excerpt; optional engine feature\"): the die is spent as the roll is "
         "asked for, not after seeing it (a roll resolves at once, so nothing waits on it); not on the rolls of "
         "a Reaction in an attack's window (Weapon Block, Shield Defense: their core React command carries no "
         "such choice) nor on the Help Die (no d20).",
         "Setting: partial_success (U-R5, \"unclear\"): a Partial Success meets the Score or exceeds it by at most "
         "1 (default, the gap file's) or exceeds it by exactly 1; a Partial Failure misses by 1. A narrative flag, "
         "told on an Action's roll against the RM's Score (not on an attack: it would tell an NPC's Defence).",
         "Several Defences at once (a Power's also_targets): the attacker's one roll against Evasion or the first "
         "Defence and each further one but the last; the defender rolls the last (the untargeted Defence) against "
         "the attacker's Potency, overcoming it on meeting it; the effects on each are the RM's.",
         "Ours: the untargeted Defence is the Power's last (the RM orders the Power's Defences by what would hurt "
         "the defender most)."),
    _row("Attacking Objects", "enforced", "A sheet marked `object` is hit without a roll, never critically; an "
         "attack on its Mental Fortitude, Resolve or Discernment is refused (it automatically fails); it takes no "
         "Reactions."),
    _row("Determine Damage", "enforced",
         "Damage dice + the Martial or Power Bonus (a Power only when it deals damage); without full proficiency "
         "(the sheet's largest die per damage type) half the Ability and no proficiency, partially proficient the "
         "proficiency's die, at least 1d4. Reductions first (armour's, falling by one each time it applies in a "
         "turn, none against Psychic, Spiritual or Sonic, double if resistant, none if vulnerable; a shield's, down "
         "to 0), then resistances (halved, two sources immune), vulnerabilities (doubled) and immunities; never "
         "below 1 unless immune. Non-lethal: unconscious instead of 0 Health or lower. Dying at 0 or below (prone, AP "
         "1 at once and 1 at the end of its turns), escalating damage at the start of its turns until stabilised "
         "(RealmsStabilise, or any healing), restarting at 1d4 if damaged again; death at minus the maximum Health; "
         "Companions die at 0; healing (RealmsHeal) up to the maximum, above 0 ends Dying; one Exhausted level on "
         "being stabilised or revived.",
         "Setting: dying_damage, the chapter's 1d4, 2d4, 4d4 (default) or the appendix's 1d4, 1d8, 2d8, 4d8 (R22: "
         "the publisher contradicts itself).",
         "Energy (R20): one's own Powers, Counters, Prepared attacks and Improvisations are refused beyond one's "
         "Energy; an effect draining it (RealmsChangeEnergy, the RM's) stops at 0, each point it would go below "
         "dealing 1 damage; restored Energy stops at the maximum. Healing from a Power adds the healer's Power "
         "Bonus (RealmsHeal healer); Overheal (RealmsHeal overheal, the RM's to say of an effect) goes over the "
         "maximum and stacks, damage taking it first, until a recovery.",
         "Ours: the damage of Energy below 0 is the points themselves, not reduced by armour or resistances.",
         "Recovery (R25, RealmsRecover, outside of combat): a partial recovery of 1 to 3 2-hour blocks, each ¼ of "
         "the maximum Health and Energy or ½ of one, rounded up (R14); a full recovery restores both and takes one "
         "Exhausted level; either ends Overheal. The 24 hours without a Full recovery (maxima cut by ¼) are the "
         "RM's, who keeps the time.",
         "Ours: an unconscious creature (U-R4: not a condition of the rulebook) cannot act; healing above 0 wakes it."),
    _row("Critical Hits", "enforced",
         "A Critical Hit at the Critical Range over the Defence (10, less the sheet's and the weapon's adjustments, "
         "stacking; the target's armour raises it, R19): the damage dice times the Critical Multiplier (2x, +1x per "
         "increase), the bonus once.",
         "Coup de Grâce (RealmsCoupDeGrace, outside of Combat: before it starts or once it has ended) on a "
         "creature unconscious or, by the RM's word, asleep: a hit and a Critical Hit without a roll.",
         "Ours: being within 1 space is the attacker's claim (no map)."),
    _row("Improvised Weapons & Unarmed Prowess", "enforced",
         "Improvised weapons: 1d4 and half Strength (doubled if negative) to attack and damage, never below 0; "
         "thrown: double the higher of Agility or Strength in spaces, four times at -5. Unarmed: half Strength to "
         "attack and as damage untrained; trained, the higher of Strength or Agility + Martial Proficiency and the "
         "prowess level's die (R5); the Quick Attack once a turn after an unarmed attack Action, without the "
         "penalty. Dual wielding: two Interchangeable weapons, the off-hand Quick Action attack without the penalty "
         "and without the bonus to its damage.",
         "The RM's: \"it must weigh less than ½ of your carrying capacity\": neither the chapter nor the gap file "
         "gives a carrying capacity, so what is thrown is the thrower's claim, the RM undoing a throw that is too "
         "heavy (Retcon)."),
]


def _with_lead_ins(rows: list[Section]) -> list[Section]:
    """Each heading's row, then a row for each rule under it that the text gives a bold lead-in."""
    out: list[Section] = []
    for row in rows:
        out.append(row)
        if row.heading not in {r.heading for r in out[:-1]}:  # "Combat Encounters" is a heading twice
            out += [msgspec.structs.replace(s, part_of=row.heading) for s in LEAD_INS.get(row.heading, [])]
    return out


SECTIONS = _with_lead_ins(_HEADINGS)
