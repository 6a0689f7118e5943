"""The coverage table: what the engine does with each heading of novus-combat.txt (and each row of
its Action Points table). "Ours" marks a reading the text leaves open; the GM's settings are
``SetNovusRules`` (domain/novus/data.py)."""

from __future__ import annotations

from domain.core.coverage import Section
from domain.novus.actions import TABLE


def _row(heading: str, support: str, how: str, *readings: str) -> Section:
    return Section(heading=heading, support=support, how=how, chapter="combat", readings=list(readings))  # type: ignore[arg-type]

SECTIONS = [
    _row("Combat Move Name (#)", "enforced", "The Combat Moves are the GM's data (SetNovusRules moves; domain/novus/"
         "moves.py), each with its Character Point cost (0: a Basic move), family, the action it is performed as, "
         "its stat line and its effects. An attack names its move (none: the Basic Melee Attack, a missile weapon's "
         "Basic Shot); the Dodge and the Block are the Basic Dodge's and Basic Block's rows. An advanced move must "
         "be learnt for the Combat Skill of the weapon it is used with (N18: \"Moves are bought separately for each "
         "Combat Skill\": the sheet's skills[i].moves), a Basic one needs 1 rank in the weapon's Combat Skill (the "
         "plain attack none: anyone may attack untrained); an attack with no Combat Skill (Brawling, \"untrained/"
         "unskilled\") uses Basic moves only; an unknown move is refused (novus_unknown_move).",
         "N18's cap: \"1 per 5 ranks without Combat Training, 1 per 3 ranks with Combat Training I, 1 per rank with "
         "Combat Training II\" (the sheet's talents combat_training_1, combat_training_2): a sheet with more "
         "advanced moves for a Combat Skill than its ranks allow is refused when added (novus_moves_over_cap, "
         "naming the field, the skill and the cap); the Basic moves (0 CP) and names the table lacks do not count.",
         "Default (N19): Basic Melee Attack; Basic Dodge (DEF +3, 3 AP: the publisher texts disagree on 2 or 3 AP); "
         "Basic Block (3 AP); Basic Disarm (BMA; a hit makes the foe save vs Str at TN 15 + 1 per 5 over DEF, or "
         "the weapon flies 1-10 ft: disarmed, shown on the sheet, its attacks refused or lapsed till a GM action "
         "naming it picks it up); All Out Attack (6 CP: AB +2, DEF -2, BMA+2, +4 Base Damage, not while Fighting "
         "Defensively); Cut (5 CP: AB +1, DEF +1, BMA, edged weapons only, Base Damage only, ignores armour); "
         "Basic Shot (-4 AB per full range increment of the attack's distance); Brace (+5 that only offsets range "
         "penalties).",
         "Ours: which moves are advanced is the encounter's table (SetNovusRules moves), so the cap is checked at "
         "AddCombatant against it, and a SetNovusRules whose table would put a seated sheet over the cap is refused; "
         "a sheet already over it (stored before the cap) keeps playing. The flat combat_moves of sheets written "
         "before moves were per skill is still read, as learnt for every Combat Skill of the sheet (so stored fights "
         "replay and load), and counts against each one's cap. A Combat Skill: a weapon's skill, a melee one, or one "
         "with moves. A Dodge or Block move is learnt for the skill of the weapon the action names.",
         "Ours: Basic Disarm deals no damage (N19 names only the save); the weapon at stake is the one of the "
         "foe's declared attack, else its first melee weapon; Brace is advanced (its CP was not found); a move's "
         "DEF counts once a round however often it is used; the full range increments are those in the distance.",
         "The GM's: the Character Point cost of each move and whether the sheet paid for it (CP are spent on the "
         "sheet, not in the fight).",
         "The GM's: Snap Attack and the Unarmed moves were not found (U-N5): the GM adds them as rows of the moves table."),
    _row("AB: # DEF: # AP: # Rng: #", "enforced", "Each move's stat line: AB added to the rolls made with it (the "
         "attack, the Block), DEF to the user's DEF for the whole round it is declared, AP \"BMA\" (a Basic Melee "
         "Attack with the weapon's size), \"BMA+n\" or a number, Rng in feet (none: the weapon's range increment)."),
    _row("Brawling", "enforced", "An attack with no weapon (or an unarmed one without a skill) is a Brawling attack: AB "
         "the sum of the Str and Dex bonuses, DR 0, Base Damage the Str bonus; 3 AP (Basic Unarmed/Natural Attacks)."),
    _row("Called Shots", "enforced", "called_shot arm or leg -4, head -8; the hit takes the Called Shot AR of the "
         "location instead of the AR. A head hit earns 1 extra Boon Point per full (target's Con bonus + 5) the damage "
         "exceeds, spent only on the GM's impairing Boons (N14). Hits on a limb are counted in the state.",
         "The GM's: impairing_boons (default Daze Foe; the list is cut off, U-N3).",
         "The Combat Boons on offer (N15; SetNovusRules boons) each do what the table says: damage (Adrenal Surge, "
         "Strong Attack, Skilled Attack), Daze Foe, Defensive Posture, Knock Prone, Initiative Boost (+2 IP next "
         "round per BP), Disarm Foe (the foe saves vs Str at TN 15 + the attacker's ranks in the weapon's Combat "
         "Skill, or the weapon flies 1-10 ft: disarmed), Attack Boost (+1 AB per BP on the first attack roll he "
         "makes next round, his primary attack), Inspiring Attack (+1 IP per BP next round to each other combatant "
         "of his side), Lightning Attack (a second, plain attack at once with the same weapon, on the same foe or "
         "another the player names, NovusSpendBoons lightning_target; counted as none of the declared actions). A \"2+\" Boon is named once per Boon Point, at least twice.",
         "Ours: Lightning Attack follows a melee attack only (its text for ranged weapons is cut off). The table's: "
         "whether another foe is \"within range and sight\" (the engine keeps no positions): each foe the player "
         "sees is offered.",
         "Not offered (the engine cannot do what they say; a GM who adds them to boons gets them recorded only): "
         "Bleeder (\"slashing or piercing weapons only\": piercing is not on the sheet; stopping Bleeding by "
         "others' First Aid is cut off, U-N4; the GM's NovusHarm deals its hits), Combat Shuffle (positions are "
         "the table's), Rapid Reload (a bow's load is not kept: reloading is only its AP).",
         "Snag Points (N4: \"Snag Points come from very low (imploding) rolls and are spent on the Snag table\"): "
         "an attack roll that imploded and missed earns them, and the GM spends them at once (NovusSpendSnags; "
         "the fight waits) on the Snag table (N17; SetNovusRules snags, the spell Snags left out): a fumbled "
         "weapon back after a round, a strained muscle (-1 to all actions), hurting oneself for 1d10 less AR, a "
         "broken item or weapon (double its damage, no armour), a new attack on the nearest friend the GM names; "
         "the rest are recorded for the GM.",
         "The GM's (U-N7: how Snag Points are earned exactly, the threshold below the TN, was not found): "
         "snag_step (SetNovusRules). Default (ours): 1 Snag Point for every full 10 points the imploded total "
         "falls short of DEF, the mirror of the Boon Points; none: no Snag Points. Ours: only attack rolls earn "
         "them (a save or a skill roll records its implosion only).",
         "Each hit on a limb takes 2 off the actions that use it: an attack's or a Block's AB, a Dodge's DEF (never "
         "below +0); a limb whose damage is past the target's Constitution Stat Value is useless (shown on the "
         "sheet): the actions that need it are refused (novus_useless_limb), and one declared before lapses.",
         "The GM's: which actions use which limb (SetNovusRules limbs) and whether a useless limb refuses them "
         "(useless_refuses). Ours: the default, arms for attacks, Mounted Charges and Blocks; legs for moves, "
         "runs, Dodges and Mounted Charges."),
    _row("Cancelling an Action", "enforced", "NovusCancel, once one has declared and before one's actions resolve "
         "(while others still declare, or in the resolve phase), once a round: the declared AP come back and the replacement (instead) is performed at once, before the action whose IP it "
         "is: a melee attack at half AB, a move of up to 3 AP, another action at -5, an Instantaneous spell, "
         "Counterspell, a Dodge; never against the foe of the cancelled melee attack; refused once the first of "
         "several attacks is made. Offered as a prompt (never waited for) to each with actions declared and not yet "
         "resolved, with the replacements the rules take then.",
         "Ours: the cancelled actions' AP are returned and the replacement's spent; cancelled while others still "
         "declare, the replacement is performed then, and at one's IP nothing is left to resolve.",
         "A Block (3 AP, N19), declared or cancelled into, stops the next melee attack on the character this "
         "round if 2d10 + its AB (less what it shifts to DEF) reaches TN 10 + the attack's AB.",
         "Ours: a Block stops one attack; it is tried on the first melee attack that comes."),
    _row("Control Zone (CZ)", "enforced", "An attack's position: front, flank (+2) or rear (+4), named by the "
         "attacker; a move names the Control Zones it enters or crosses (through) and leaves (leaves), and its event "
         "(and the log) says how far each reaches. The sheet's creature_size and humanoid give the reach: 5', a Large "
         "humanoid 10', a Huge one 15' (control_zone_reach, shown with the sheet).",
         "The GM's: a non-humanoid's Control Zone (the sheet's control_zone, in feet: its shape \"is likely to depend "
         "upon the shape of the creature\"). Ours: without it, the reach of a humanoid of its size.",
         "Ours: positions are not tracked, so the move names the zones; the reach is for the table to judge them."),
    _row("Disengaging from Melee", "enforced", "Disengaging is an action of 1 AP; a move after it this round leaves "
         "the foes' Control Zones (leaves) without an Opportunity Attack; the move takes its own AP."),
    _row("Fighting Defensively", "enforced", "NovusDeclare's defensive: points of the named melee weapon's skill "
         "(in hand: one on the sheet) shifted from AB to DEF, +1 DEF for every 2, for the whole round; refused with a "
         "Dodge; the attacks with that skill lose them; up to half the skill when preparing a Set or Reroll "
         "Initiative.", "A Block's roll counts the blocker's AB less its shift to DEF, against TN 10 + the attacker's "
         "AB less its own shift with that skill (N19: \"Both sides count only the AB not shifted to DEF\").",
         "The GM's: a Parry (no Parry move was found in the retrieved texts, U-N5): a row of the moves table if the GM adds one."),
    _row("Firing Into Melee", "enforced", "into_melee on a missile attack: -2; near names the others within 5' of "
         "its path, the closest first. A hit resolves normally; a miss asks each in turn for a Saving Throw vs Spd "
         "(NovusRollStraySave, a decision the fight waits for) against the attack's total: made, the next saves; "
         "failed, Base Damage + 1 a point failed by, less AR, and no one further.",
         "The GM's: the DEF modifiers added to that Save (stray_modifiers; default the shield and a declared Dodge, "
         "the text's examples)."),
    _row("Haste", "enforced", "NovusSetHaste (GM): 10 AP a round from the next round, not 5; never more than one spell "
         "(Cast a Spell, Counterspell, Instantaneous spell) a round."),
    _row("Holding an Action", "enforced", "NovusHold: before declaring (as one's turn to declare comes), free; after "
         "declaring and before resolving, the declared AP back less 1 AP lost. NovusActHeld: the actions declared "
         "anew within what is left, at an IP (ip, or at: the combatant whose IP) lower than one's own and not below "
         "the next to resolve's (once one's turn is over); none or a higher IP: resolved at once. At the IP of the "
         "one due to resolve next, the fight waits for both sides' Opposed Saving Throws (NovusRollOpposedSave, a "
         "prompt each; rolled at once with the server's dice): the higher total goes first, the holder at once, "
         "the other resolving first and the held actions right after.",
         "Ours (the procedure is not given, U-N7, the gap file's proposed reading): both roll a Saving Throw of "
         "the GM's stat (held_save, default Speed), the higher total wins; a tie is rolled again (held_save_tie: "
         "or the holder, or the other, goes first).",
         "Ours: a hold not acted on by the round's end lapses.",
         "Ours: a player's held actions at the IP of one hidden from him are no contest and resolve at once (the "
         "Opposed Saving Throw's prompt would tell him someone is there).",
         "Offered as a prompt (never waited for) to each who may still hold."),
    _row("Improvised Weapons", "enforced", "improvised on an attack with the weapon it most resembles: the better of "
         "its skill and Brawling, -4; half of Base + Scaled Damage, before AR.",
         "Ours: the half is taken of the damage before armour, rounded down."),
    _row("Mounted Charge", "enforced", "mounted_charge (NovusSetMounted first): 8 AP, 6 with Mounted Combat II (it runs "
         "into the next round, using all of this one's); AB +4 and DEF -4 with Mounted Combat I, else -1 and -9, the "
         "DEF for the whole round; a Riding roll (no AP) at TN 20, 25, 30 for 2x, 3x, 4x pace, a failure -1 to AB and "
         "DEF; 15 extra damage per multiple of the pace; a foe's declared Pole Arm attack on a charger without one "
         "(or the charger's on a foe without one) resolves first whatever the initiative; a Dodge the unmounted "
         "target performs on cancelling counts double against the charge.",
         "Ours: the mount is taken to move faster than a human (the text's condition is the GM's to rule); the "
         "Riding roll adds the sheet's Riding skill (0 without it)."),
    _row("Mounted Combat", "enforced", "Mounted (NovusSetMounted, trained or not): a Riding roll (no AP) with the "
         "round's first mounted attack, TN 23, 18 on a trained mount, a failure -1 to AB and DEF this round; against "
         "mounted foes AB and DEF 0 with Mounted Combat I, else -5 and -5; against foes on foot -2 AB and -3 DEF, else "
         "-7 and -8; each mounted attack 2 more AP, 1 with Mounted Combat II.",
         "Ours: with attacks on several foes the worst DEF modifier stands for the round."),
    _row("Multiple Attacks from High Skill", "enforced", "An attack with more_targets (one more attack each; a foe "
         "again for a second attack on it) and split (each attack's AB): at most one more attack per 10 points of the "
         "melee skill's total bonus; the AB split is the skill's less 4 an extra attack, 2 an extra foe and the "
         "Fighting Defensively shift, and must be shared out whole; refused with Advanced Combat Training or Two "
         "Weapon Combo. The first attack is made at one's IP, the rest at the end of the round.",
         "Ours: the attacks take the AP of one Basic Melee Attack with the weapon (the text gives no cost).",
         "Hidden foes: the declaration records each attack on its own, with its share (as Multiple Weapon Attacks "
         "each weapon's): one who does not see a foe sees neither the attack on him nor that there is one; the AP "
         "are seen while one foe attacked is."),
    _row("Multiple Attacks in 1 Round", "enforced", "Several attacks declared (Hasted, or small costs): the first at "
         "one's IP with the other actions, the rest in an end-of-round phase (highest IP first) that the round "
         "waits for; once the first is made NovusCancel may only cancel the remaining attacks.",
         "Multiple Weapon Attacks (\"Multiple Weapon Attacks in 1 round 5\"): a multiple_weapon_attacks action, 5 AP, "
         "names each attack's target and weapon (target and weapon, then more_targets and more_weapons); the first "
         "is made at one's IP, the other at the end of the round, each as a plain attack with its weapon. Offered "
         "when the sheet allows it.",
         "Ours: the skills, talents and capabilities that allow it are not listed; the one the sheet names is Two "
         "Weapon Combo (talents.two_weapon_combo), read as one attack with each of two one-handed weapons; a "
         "mounted character's takes the row's 5 AP (the text gives no extra for it). Other grants (Advanced "
         "Combat Training, a situation) are the GM's: a sheet flag the GM sets."),
    _row("Off-Hand Attacks", "enforced", "off_hand on an attack: -4 unless the sheet's talent ambidextrous; each weapon "
         "names the hand it was learnt in."),
    _row("One Handed Weapons in Two Hands", "enforced", "two_hands on a one-handed melee weapon's attack: 1 more AP "
         "and 2 more Base Damage."),
    _row("Opportunity Attack (OA)", "enforced", "A move that enters or crosses a foe's Control Zone (or leaves it "
         "without Disengaging) without an attack declared on that foe opens a reaction window: each such foe who may "
         "act and has an attack left this round may React with an Opportunity Attack outside the initiative cycle, "
         "or pass. The reaction names how many of his attacks it uses (opportunity attack, or N opportunity attacks, "
         "up to those left); each takes one of his declared attacks (the first, or the last of those at the round's "
         "end) and the rest are made at his IP as declared; Boon Points earned on the way are spent before the next; "
         "the move goes on once all have answered.",
         "Ours: each attack of the OA is the declared one it uses, with its weapon and its share of the AB, at the "
         "one who moves (a missile attack's goes to the first melee weapon, or Brawling; none declared: one attack "
         "so)."),
    _row("Reroll Initiative", "enforced", "A declared action of 4 AP: no attack of any sort that round, Fighting "
         "Defensively up to half the skill; at the round's end 2d10 + Speed + Wisdom bonuses again, the IP for "
         "the rest of the combat; refused in a round with a surprise modifier."),
    _row("Set Initiative", "enforced", "A declared action of 2 AP: next round's IP is 20 + the bonuses (as if the "
         "2d10 showed 20), for that round only; not on consecutive rounds, no attacks that round, Fighting "
         "Defensively up to half the skill; refused in a round with a surprise modifier."),
    _row("Simple & Complex Actions", "gm", "gm_action names one of the encounter's Simple (1-2 AP) or Complex (2-5 AP) "
         "actions, each named and costed by the GM (SetNovusRules actions; the ranges are checked).",
         "Helpless and dying (N22: \"At 0 to -10 hit points a character is helpless and can do nothing but try to "
         "stabilise himself with First Aid (TN 25)\"): at 0 Hit Points or below a character is helpless (shown on "
         "the sheet; DEF 12): his declarations and turns pass without him (domain/novus/passing.py), and all he may "
         "do is roll First Aid on himself (NovusRollSkill, First Aid, TN 25: offered); his holds, cancels and other "
         "rolls are refused (novus_cannot_act). The dead do nothing at all: their rolls, saves, holds and cancels "
         "are refused; no harm or healing reaches them.",
         "The GM's (U-N4: dying past helpless was not retrieved): death_below (SetNovusRules). Default (ours): none, "
         "no number of hits kills and the GM takes the dead out of the fight (RemoveCombatant); a number (below "
         "-10: 0 to -10 is helpless) makes a character dead once his Hit Points fall below it, and then a helpless "
         "foe is offered as a target (a blow can kill him). Whether a helpless character keeps losing hits "
         "(NovusHarm) and what a made First Aid roll does (NovusHeal, or the GM's word: stabilised is not defined) "
         "are the GM's; others' First Aid is cut off (the GM's NovusHeal).",
         "Ours: the default list (Pick up an item 1; Change weapons 2; Apply first aid 5; Start a fire 5) from the "
         "text's examples."),
    _row("Simultaneous Actions", "gm", "The GM costs a combination as one of the encounter's actions (SetNovusRules) "
         "and calls for the roll (NovusRollSave: a Save vs Spd in the text's example, which is missing)."),
    _row("Situational Modifiers", "gm", "The GM's: a modifier the text cannot codify is the GM's ruling (Retcon, "
         "NovusHarm); the flank, rear, Called Shot, off-hand and surprise modifiers are applied."),
    _row("Surprise", "enforced", "NovusRollGroupPerception (GM): one Perception roll for a side, by its member "
         "with the highest skill bonus. Who is surprised: by the GM's results table (SetNovusRules surprise_beaten_by: "
         "once every side has rolled, a side whose total another's beats by that much), or named by the GM "
         "(NovusSetSurprised, before the fight): -20 IP in the first round; at 0 or below, no action until the next "
         "round (his turn passes without him, as a helpless character's does: domain/novus/passing.py); otherwise only one of the actions allowed when Cancelling; +4 to attack a surprised character; no "
         "Set or Reroll Initiative that round.",
         "The GM's: the Perception results table is missing (U-N1): none by default (the GM names who); an ambush "
         "is the GM's to name too."),
    _row("Action Points", "enforced", "5 AP a round (10 Hasted), spent as the actions are declared; an action may run "
         "into the next round only if it uses all of this round's AP (the next round has that much less). The table's "
         "rows below; Perform Instantaneous Spell Action (if any): 3 AP. Also Dodge 3, Disengage 1, Set Initiative 2, "
         "Reroll Initiative 4.",
         "Hidden combatants: the AP of an action aimed at one hidden from the table are kept apart, by him, in the "
         "declaration, a hold, held actions and a cancel (ap_on, carried_on, refund_on): a player or a spectator "
         "who does not see him sees neither the action nor the AP it took, in the events, the log, the state's "
         "declarations and AP, and the statistics; nor, in the next round, the AP such an action carried into it "
         "(owed_unseen)."),
    _row("Action\tAP", "enforced", "The table's columns: each row's action and its cost."),
    *[_row(f"{name}\t{ap}", "gm" if kind == "gm_action" else "enforced",
           f"The action {kind}: {ap} AP" + (" (the weapon's size, kind and two hands decide, and the Combat Move's AP: BMA, BMA+n or its own)."
                                            if kind == "attack" else "."))
      for name, kind, ap in TABLE if len(f"{name}\t{ap}") < 45],
]
