"""Health/Trauma's own violation codes."""

from domain.core.errors import ruleset_codes

OWN_CODES = ruleset_codes({
    "ht_initiative_tested": "The character has made their Initiative Test: the GM's RollInitiative orders everyone next.",
    "ht_combat_begun": "Initiative Tests are made before Combat begins: the fight has begun.",
    "ht_initiative_order": "Initiative Tests are placed in descending order: the GM orders only equal results.",
    "ht_dead": "The character is dead: death is final, and no command brings them back.",
    "ht_in_coma": "The character is in a coma until their Trauma is reduced to 0, and cannot act.",
    "ht_stunned": "The character is Stunned (a failed Fear save) and can't act on this turn.",
    "ht_dazed_move_only": "The character is Dazed (a gut wound) and may only take the move action until treated.",
    "ht_needs_arms": "Both arms are maimed: no actions that would require them.",
    "ht_crawl_only": "Both legs are maimed: only the Crawl Move Actions.",
    "ht_out_of_range": "The target is out of range: base to base contact, or within the readied weapon's Range or Reach.",
    "ht_unknown_weapon": "The character has no such weapon on their sheet.",
    "ht_not_readied": "That weapon is not readied: draw it first (an action that draws a weapon, such as Draw a weapon).",
    "ht_already_readied": "That weapon is already readied.",
    "ht_draws_no_weapon": "That action draws no weapon: send it without one.",
    "ht_unknown_action": "That action is not on this encounter's action list.",
    "ht_not_a_target": "An attack needs another combatant, not yet dead, to attack.",
    "ht_attack_waiting": "An attack waits for its target's Reaction: answer it (or the GM closes it) first.",
    "ht_no_injury_due": "The character has no injury roll due.",
    "ht_injury_due": "The character's injury roll is still due: roll it first.",
    "ht_fear_save_due": "The character is reeling: they must take the Fear MSvs at the start of their turn first.",
    "ht_no_fear_save_due": "The character has no Fear save due.",
    "ht_not_dying": "The character is not dying.",
    "ht_full_health": "The character's health is at its maximum: they cannot be healed over it.",
    "ht_bad_amount": "Healing needs an amount of 1 or more, or dice to roll (1 to 10 of them).",
    "ht_not_dazed": "The character has no untreated gut wound.",
    "ht_still_dying": "A dying character cannot recuperate: stabilise them first.",
})
