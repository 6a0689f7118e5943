"""RealmsRPG's own violation codes."""

from domain.core.errors import ruleset_codes

OWN_CODES = ruleset_codes({
    "realms_dead": "The creature is dead.",
    "realms_unconscious": "The creature is unconscious and cannot act.",
    "realms_not_a_target": "An attack needs another creature (or object), not yet dead, as its target.",
    "realms_unknown_attack": "The attacker has no such weapon or Power on their sheet.",
    "realms_out_of_range": "The target is beyond the attack's range (four times a ranged weapon's normal distance at most).",
    "realms_no_effect": "The attack targets a Defence an inanimate object does not have: it automatically fails.",
    "realms_not_enough_energy": "The Power costs more Energy than the creature has: you can't push your own Energy below 0.",
    "realms_attack_waiting": "An attack waits for Reactions (or for the RM to close them): answer it first.",
    "realms_no_off_hand": "The off-hand Quick Action attack needs an attack Action this turn and two Interchangeable weapons.",
    "realms_no_quick_attack": "The Quick Attack comes after an Unarmed Prowess attack Action, once a turn.",
    "realms_too_far": "A Movement covers at most the creature's Speed in spaces (and at least one).",
    "realms_unknown_roll": "The roll names neither an Ability, a Defence nor one of the sheet's Skills.",
    "realms_not_dying": "The creature is not Dying (or is already stabilised).",
    "realms_full_health": "Healing restores Health up to the maximum: the creature is at its maximum.",
    "realms_bad_amount": "Healing needs an amount or dice to roll, not both.",
    "realms_initiative_rolled": "Initiative is already rolled: the RM sets how a creature starts combat before the roll.",
    "realms_cannot_react": "The creature cannot take that Reaction now.",
    "realms_overcome_due": "The End-of-Turn Overcome waits: roll it (or decline it) before the turn ends.",
    "realms_no_overcome_due": "No Overcome is due: it comes at the end of one's turn, or as the 1 AP Action for conditions with a Score.",
    "realms_no_condition": "The creature does not have that condition.",
    "realms_not_commanded": "A Companion acts only once its owner Commands it this round.",
    "realms_not_your_companion": "Only a Companion's owner Commands it, once a round.",
    "realms_nothing_prepared": "The creature has no prepared Action to use.",
    "realms_not_hidden": "The creature is not Hiding or Stealthing from this one.",
    "realms_hiding_immobile": "While hiding, you remain immobile: switch to Stealthing (1 AP) to move.",
    "realms_no_coup_de_grace": "A Coup de Grâce is outside of Combat, on a creature unconscious or asleep.",
    "realms_no_help": "A Help is for an ally, with a bonus of at least +1 in the Ability or Skill.",
    "realms_too_large": "You cannot grapple creatures more than one size larger than you.",
})
