"""The coverage table: what the engine does with each heading of health-trauma-combat.txt.
Every default named "ours" is a value of the GM's data (``SetHealthTraumaRules``), not the game's."""

from __future__ import annotations

from domain.core.coverage import Section


def _row(heading: str, support: str, how: str, *readings: str) -> Section:
    return Section(heading=heading, support=support, how=how, chapter="combat", readings=list(readings))  # type: ignore[arg-type]


SECTIONS = [
    _row("Combat", "enforced", "The chapter: an encounter of the health-trauma ruleset."),
    _row("Structure of Combat", "enforced", "Initiative, rounds and turns below, in core's encounter lifecycle."),
    _row("Initiative", "enforced", "Each participant makes an Initiative Test: a player their own (HTRollInitiativeTest, "
         "before the GM's RollInitiative; refused once the fight has begun and for the dead), the GM's RollInitiative "
         "the rest (the NPCs, and any player who has not); "
         "the order is descending, ties to the higher bonus, then the first added; the GM's SetTurnOrder may reorder "
         "equal results only (one who joined the fight without a test after those with one).",
         "Ours: the Initiative Test is 1D20 (initiative_die) + the sheet's initiative_bonus: the text gives no formula."),
    _row("Rounds", "enforced", "Rounds run from the top of initiative down; a new round begins once each has ended "
         "their turn; a dead character's turn ends as it comes (skipped)."),
    _row("Turn", "enforced", "A turn is four quarters: Quarter 1, Half 2, Full 4; one Quick Action each turn and one "
         "Reaction between turns (refilled at the end of one's turn), each refused once used.",
         "Ours: the action list (Move, Crawl, Aim, Draw a weapon, Brace) and an attack as a Half action: the text's list is missing."),
    _row("Attacking", "enforced", "With the readied weapon only (the sheet's readied one, its first by default, until "
         "an action that draws a weapon readies another: HTTakeAction Draw a weapon with its weapon); "
         "in range only (distance 0 is base to base, else within the readied weapon's Range or Reach); "
         "the opposed test; on a hit the weapon's Damage less Protection reduces health. The target's Reaction, if "
         "left, is offered while the attack waits, or passing to keep it (a React with Pass, or PassReaction).",
         "Ours: 1D20 + combat skill - penalty against 1D20 + Guard, higher total hits (the Test Number's formula is missing).",
         "Ours: the Dodge Reaction (+2 Guard): the text names Reactions but lists none.",
         "Ours: one weapon is readied at a time; drawing one (a Quick Action) makes it the readied one."),
    _row("Health, Injury, Dying, and Death", "enforced", "The section: health, healing, Wounded, Trauma, dying, death below."),
    _row("Health", "enforced", "Maximum health is five plus Physique, with the sheet's health_adjustment "
         "(\"Certain Abilites may change effect this\"), less Trauma. The served state shows each combatant's "
         "health, maximum_health, trauma, wounded, dying, dead, injuries and conditions on its sheet; of an NPC's, "
         "players and spectators see its wound level (trauma, wounded, dying, dead, injuries, conditions), never "
         "its Health (at full it is five plus its Physique): not in the state, the events (HTHarmed, HTHealed) nor "
         "the log, which tell them the damage without it."),
    _row("Healing", "gm", "HTHeal: an amount given or dice rolled; refused at maximum; never over the maximum; "
         "a dying character healed above 0 is no longer dying.",
         "Ours: the amounts of spells, items and the Medicine Skill are the GM's (the text gives none)."),
    _row("Being Wounded", "enforced", "Below half of the maximum health: Wounded, shown, no penalty of its own."),
    _row("Trauma", "enforced", "Each point of Trauma lowers the maximum health by one; damage taken while dying is "
         "Trauma point for point; HTRecuperate (GM) brings Trauma back to 0.",
         "Ours: recuperating is a GM command (the text gives no rule)."),
    _row("Dying", "enforced", "At 0 or below: dying and an injury roll due (1D10 + 5 per injury had, on the chart); one "
         "point of damage at each round's end; death at Trauma equal to or above the maximum health, or on the "
         "Mortal Blow. Each result's rule: lucky escape; -X until Trauma is 0; reeling (Fear MSvs at each turn's "
         "start once stabilised or healed, Stunned on a failure; a coma if rolled again); maimed (1D6 table; the "
         "same part again removed with 3 + 1D3 Trauma; both arms, legs, eyes); gut wound (BSvs Damage Taken, "
         "Dazed and move only, no Reaction, until HTTreatWound); HTStabilise ends dying.",
         "Ours: the chart's bands 1-3 lucky escape, 4-6 sliced muscle, 7-9 reeling, 10-12 maimed, 13-15 gut wound, 16+ Mortal Blow.",
         "Ours: X = 1; the 1D6 table left arm, right arm, left leg, right leg, left eye, right eye, each marked as "
         "one of the arms, legs or eyes (a GM's table marks its own parts: \"both your arms\" is every part it "
         "marks as an arm).",
         "Ours: MSvs/BSvs N is 1D10 + the sheet's save bonus - penalty, passed above N; the Fear save is against the "
         "character's Trauma when it is made (fear_save_against: or their Trauma when the result was rolled, or the "
         "damage of the hit that put them into the dying state).",
         "Ours: Trauma is compared with the maximum health before Trauma (five plus Physique, adjusted); "
         "trauma_death: lowered_maximum compares it with the maximum Trauma has lowered.",
         "Ours: Stabilising is a GM command with no test (the text gives none); a gut wound ends on recuperating."),
    _row("Death", "enforced", "Death is final: every command about a dead character is refused (a Retcon undoes a "
         "mistake; it is not a resurrection)."),
]
