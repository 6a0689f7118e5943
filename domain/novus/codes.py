"""Novus' own violation codes."""

from domain.core.errors import ruleset_codes

OWN_CODES = ruleset_codes({
    "novus_initiative_once": "Initiative is rolled once per combat: the Initiative Points stand for the rest of it.",
    "novus_too_many_ap": "The declared actions take more Action Points than the character has this round.",
    "novus_one_spell": "No amount of Haste allows casting more than one spell a round.",
    "novus_not_a_target": "An attack needs another combatant in the fight as its target.",
    "novus_unknown_weapon": "The character has no such weapon on their sheet.",
    "novus_unknown_action": "That Simple or Complex action is not one the GM has costed for this encounter.",
    "novus_bad_action": "That declared action does not fit the rules (see the message).",
    "novus_nothing_declared": "The character has no declared action left that this could apply to.",
    "novus_end_of_round_attacks": "The remaining attacks are made at the end of the round, before it ends.",
    "novus_resolve_first": "Resolve the declared actions before ending the turn.",
    "novus_boons_due": "Boon Points were earned: they must be spent at once, before anything else happens.",
    "novus_no_boons_due": "The character has no Boon Points to spend now.",
    "novus_unknown_boon": "That Boon is not one the GM allows in this encounter.",
    "novus_boons_over": "The Boons chosen cost more Boon Points than were earned, or break a Boon's rule.",
    "novus_cannot_act": "The character cannot act now (helpless, or surprised at 0 IP or below).",
    "novus_surprised": "A surprised character may only take the actions allowed when Cancelling an Action.",
    "novus_not_now": "That cannot be done at this point of the round.",
    "novus_no_repeat": "Set Initiative cannot be performed on consecutive rounds.",
    "novus_not_holding": "The character holds no action to perform now (or their own IP has not passed yet).",
    "novus_waits_for_reactions": "A move waits for the Opportunity Attacks it allows: answer them first.",
    "novus_stray_save_due": "A missed shot into melee waits for the Saving Throws of those near its path.",
    "novus_no_stray_save": "No shot into melee waits for this character's Saving Throw.",
    "novus_not_mounted": "A Mounted Charge is made mounted (the GM's NovusSetMounted).",
    "novus_no_such_side": "No one in the fight is on that side.",
    "novus_unknown_move": "That Combat Move is not one of this encounter's (the GM's moves).",
    "novus_move_not_known": "The character has not learnt that Combat Move (or lacks the rank in the skill it needs).",
    "novus_disarmed": "That weapon was knocked away by a Disarm: it must be picked up first.",
    "novus_bad_amount": "An amount of 1 or more is needed.",
})
