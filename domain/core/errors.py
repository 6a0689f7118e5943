"""Rule violations: refusals a player can read, each with a stable code."""

from __future__ import annotations


# Every code a RuleViolation may carry: stable, for clients to switch on. A new refusal
# adds its code here first (RuleViolation refuses an unknown code).
CODES: dict[str, str] = {
    "aim_needs_targeted_hit": "Aiming an attack at the head or an unarmoured part needs a Targeted Hit.",
    "already_dashed": "Dash may double the movement once a turn.",
    "already_grappling": "One of them is already in a grapple.",
    "already_rerolled": "A check can be re-rolled only once.",
    "already_started": "The fight has already started.",
    "already_there": "The combatant is already at that range.",
    "already_tried": "That may be tried once a turn.",
    "cannot_act": "The combatant is dead or Helpless and cannot act.",
    "cannot_ease": "The check cannot be made easier.",
    "cannot_move": "The combatant cannot move (Entangled, Paralysed, held in a grapple).",
    "check_already_rolled": "The check has been rolled already.",
    "check_not_rolled": "The check has not been rolled yet.",
    "combatant_has_turn": "The combatant is acting now: end their turn first.",
    "condition_present": "The combatant already has that Condition.",
    "crippled": "A Crippled combatant cannot Dash, Climb or Leap.",
    "defence_not_allowed": "That defence is not possible now (see the exchange's choices).",
    "dice_missing": "Fewer dice were reported than the command rolls.",
    "dice_unavailable": "No dice are available for this roll.",
    "dice_unused": "More dice were reported than the command rolls.",
    "die_face_out_of_range": "A reported face is not on the die.",
    "duplicate_combatant": "A combatant with that id is already in the encounter.",
    "encounter_ended": "The encounter has ended.",
    "encounter_not_started": "The fight has not started yet.",
    "engaged_in_melee": "The combatant is in melee: Disengage first.",
    "exchange_pending": "An attack is still being resolved.",
    "fight_in_progress": "In-game days pass between fights, not during one.",
    "flashback_needs_narration": "A flashback needs its narration.",
    "fled": "The NPC has fled the battle and can no longer act.",
    "free_action_used": "Each kind of free action may be used once a turn.",
    "frightened": "A Frightened combatant cannot move closer to the source of their fear.",
    "initiative_not_rolled": "Initiative must be rolled (again) first.",
    "injuries_not_in_combat": "Injuries cannot be healed during combat.",
    "injury_already_treated": "The Injury has been treated already.",
    "injury_needs_surgery": "The Injury now requires a Surgery Check.",
    "injury_treatment_not_set": "The GM has not set the difficulty and recovery time of the Injury yet.",
    "invalid_id": "An id is malformed or reserved.",
    "invalid_mere_choice": "Only a Mere skill at D10 or above can give a Mere Activation Point.",
    "invalid_opposed_roll": "An opposed roll needs two different combatants.",
    "invalid_sheet": "The character sheet does not fit the ruleset.",
    "invalid_target": "That combatant cannot be attacked.",
    "invalid_text": "A name or label is empty, too long or has control characters.",
    "invalid_turn_order": "The order of play breaks the ruleset's rules.",
    "missing_detail": "The command lacks a detail this use needs.",
    "move_first": "The dropped weapon lies Near: move to it first.",
    "no_combatants": "The encounter has no combatants yet.",
    "no_condition": "The combatant does not have that Condition.",
    "no_helmet": "There is no intact Helmet to sacrifice.",
    "no_hero_points": "The combatant has no Hero Point to spend.",
    "no_hits_to_restore": "The combatant has taken no Hits.",
    "no_incoming_critical": "There is no incoming Critical Hit to turn into a regular Hit.",
    "no_secret_roll": "That event has no secret roll left to reveal.",
    "no_status": "The combatant does not have that Status Effect.",
    "no_such_attack": "No attack with that id is waiting for a decision.",
    "not_a_critical_failure": "The check is not a Critical Failure of this combatant's.",
    "not_a_set_action": "An Enemy performs only the Set Actions its Stat Block lists.",
    "not_dying": "The combatant is not beyond Helpless.",
    "not_enough_action_points": "The combatant has fewer Action Points than the action costs.",
    "not_enough_mere": "The caster has less Mere than the spell costs.",
    "not_grappling": "The combatant holds nobody in a grapple.",
    "not_hidden": "The combatant is not hidden.",
    "not_human": "That can only be attempted on a human target.",
    "not_in_cover": "The target is not behind cover.",
    "not_in_melee": "The combatant is not in melee with anyone able to fight.",
    "not_off_balance": "The combatant has not lost their balance this round (mishap 2).",
    "not_prone": "The combatant is not Prone.",
    "not_this_step": "The attack is waiting for another step.",
    "not_your_check": "The check was called for another combatant.",
    "not_your_decision": "The attack waits for another combatant's decision.",
    "not_your_turn": "It is someone else's turn.",
    "nothing_due": "No status of that kind is waiting to be settled this turn.",
    "nothing_to_disarm": "The target holds no weapon that can be knocked away.",
    "nothing_to_pick_up": "There is no dropped weapon of that name.",
    "out_of_range": "The weapon cannot reach that range band.",
    "penalty_not_applicable": "That penalty cannot apply to this action.",
    "penalty_points_owed": "Pay exactly the Penalty Points the action owes, one penalty each.",
    "precision_past_very_hard": "Precision cannot raise the defence past Very Hard.",
    "prone": "A Prone combatant must Stand first (1 AP).",
    "range_unknown": "The GM has not placed the two combatants yet (SetRange).",
    "reported_dice_not_allowed": "The encounter rolls its own dice.",
    "reroll_not_allowed": "Only a failed, not critically failed, check can be re-rolled.",
    "retcon_before_start": "A retcon cannot undo the start of the fight.",
    "retcon_mid_command": "A retcon goes back to the end of a command, not into the middle of its events.",
    "retcon_nothing_to_undo": "A retcon goes back to a version before the current one.",
    "retcon_out_of_reach": "A retcon goes back to the start of the current round at the furthest, or undoes the last command.",
    "retcon_undone": "That version was undone by an earlier retcon: send the commands again instead.",
    "special_action_spent": "That Special Action is limited to a single use per combat and has been used.",
    "special_action_this_turn": "Only a single Special Action can be used per turn.",
    "spell_costs_must_rise": "Each spell complexity must cost more Action Points and Mere than the one below.",
    "spell_mismatch": "An Enemy casts its Set Spell as its Stat Block lists it.",
    "staggered": "A Staggered combatant may perform a single action per turn, offensive or defensive.",
    "status_due": "A Bleeding or Burning must be settled before the combatant acts or ends the turn.",
    "status_present": "The combatant already has that Status Effect.",
    "statuses_first": "Status Effects must be stabilised before any Hit is healed.",
    "successes_unspent": "Every extra Success of an attack must be spent on Damage or Precision.",
    "suppressed": "The NPC is suppressed: unable to act this round.",
    "surgeon_in_party": "Someone in the party can perform Surgery: a Medical Check cannot treat the Injury.",
    "too_far": "The move goes further than the turn’s movement allows.",
    "too_many_weapons": "At most three weapons can be at hand.",
    "unknown_check": "No check with that id is in the encounter.",
    "unknown_combatant": "No combatant with that id is in the encounter.",
    "unknown_command": "The ruleset has no such command.",
    "unknown_injury": "The combatant has no Injury with that number.",
    "unknown_penalty": "No such penalty.",
    "unknown_ruleset": "The server runs no such ruleset.",
    "unknown_skill": "The combatant's sheet has no such skill.",
    "unknown_special_action": "The Enemy's Stat Block lists no such Special Action.",
    "unknown_spell": "The Enemy's Stat Block lists no such Set Spell.",
    "unknown_weapon": "The combatant has no such weapon at hand.",
    "wrong_range": "The attack names another range than the tracked one.",
    "wrong_weapon": "The weapon does not suit that kind of attack.",
}


class RuleViolation(Exception):
    """A command the rules refuse.

    ``code`` is stable (clients switch on it, listed in ``CODES``); ``message`` is written
    for a player.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        if code not in CODES:
            raise ValueError(f"unlisted rule violation code {code!r}: add it to domain.core.errors.CODES")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleViolation({self.code!r}, {self.message!r})"


_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-")


def clean_text(value: str, what: str, *, max_length: int = 200) -> str:
    """A name or label as players will read it: trimmed, not empty, no control characters."""
    text = value.strip()
    if not text:
        raise RuleViolation("invalid_text", f"{what} cannot be empty.")
    if len(text) > max_length:
        raise RuleViolation("invalid_text", f"{what} is longer than {max_length} characters.")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise RuleViolation("invalid_text", f"{what} cannot contain control characters.")
    return text


def check_id(value: str, what: str, reserved: frozenset[str] = frozenset()) -> str:
    """An identifier: 1 to 64 of letters, digits and ``_ . : -``, not one the rules reserve."""
    if not 1 <= len(value) <= 64 or not set(value) <= _ID_CHARS:
        raise RuleViolation(
            "invalid_id", f"{what} must be 1 to 64 letters, digits or the characters _ . : -", value=value[:64]
        )
    if value in reserved:
        raise RuleViolation("invalid_id", f"{what} “{value}” is reserved by the rules.", value=value)
    return value
