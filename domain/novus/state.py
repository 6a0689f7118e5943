"""The Novus ruleset's state and its constants: each declaration, what waits (Boon Points, a stray
shot's saves), mounts, and everything the round keeps (``NovusRules``, in ``EncounterState.rules``)."""

from __future__ import annotations

import operator
from collections.abc import Callable

import msgspec

from domain.core import reactions
from domain.core.concerns import CombatantId
from domain.core.encounter import EncounterState
from domain.core.pending import Refusal
from domain.core.phases import Phase, PhasePosition, Phases
from domain.novus.actions import Action
from domain.novus.codes import OWN_CODES
from domain.novus.data import DEFAULT_DATA, NovusData
from domain.novus.sheet import Skill

replace = msgspec.structs.replace

AP = "AP"
_NO_SKILL = Skill(name="none")
# "the primary attack roll is made at the character's initiative point, and any remaining attack
# rolls are made at the end of the round": a third phase, of those with attacks left
PHASES = Phases((Phase("declare", "ascending"), Phase("resolve", "descending"), Phase("end of round", "descending")))
SURPRISE = -20  # "it receives a -20 modifier to Initiative for the first round of combat"
SURPRISED_AB = 4  # "When attacking a person who is surprised, the attacker gains a +4 modifier"
CALLED_SHOT = {"arm": -4, "leg": -4, "head": -8}
LOCATION = {"arm": "arms", "leg": "legs", "head": "head"}
POSITION = {"front": 0, "flank": 2, "rear": 4}
HELPLESS_TO = -10  # N22: "At 0 to -10 hit points a character is helpless"
RESOLVE_FIRST = Refusal(code="novus_resolve_first", message=OWN_CODES["novus_resolve_first"])
LATE_FIRST = Refusal(code="novus_end_of_round_attacks", message=OWN_CODES["novus_end_of_round_attacks"])
BOONS_DUE = Refusal(code="novus_boons_due", message=OWN_CODES["novus_boons_due"])
# "A character who has canceled his action(s) for the round may perform one of the following"
OPPORTUNITY = "opportunity attack"
STRAY = Refusal(code="novus_stray_save_due", message=OWN_CODES["novus_stray_save_due"])
WAITS = Refusal(code="novus_waits_for_reactions", message=OWN_CODES["novus_waits_for_reactions"])
ATTACKS = ("attack", "mounted_charge", "multiple_weapon_attacks")  # (the last split into attacks once declared)
CANCEL_KINDS = ("attack", "move", "run", "instant_spell", "counterspell", "dodge", "block")


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """A character's declared actions this round; ``done``: how many have resolved, in the order
    of ``schedule``: at one's IP every action but the attacks after the first; those at the end."""

    actions: list[Action]
    ap: int
    done: int = 0
    defensive: int = 0
    defensive_weapon: str | None = None
    cancelled: bool = False  # cancelled this round ("A character who has canceled his action(s) for the round")
    unseen_ap: dict[CombatantId, int] = {}  # of ``ap``, those of actions aimed at one hidden when declared, by whom

    def unseen(self, concealed: list[str]) -> dict[str, int]:
        """Of ``ap``, the AP of the actions aimed at those of ``concealed`` (hidden from the table now)."""
        return {t: n for t, n in self.unseen_ap.items() if t in concealed} if self.unseen_ap else {}

    @property
    def schedule(self) -> list[int]:
        attacks = [i for i, a in enumerate(self.actions) if a.kind in ATTACKS]
        late = attacks[1:]
        return [i for i in range(len(self.actions)) if i not in late] + late

    @property
    def at_ip(self) -> int:
        """How many of the schedule resolve at the character's IP (all of one action: asked of every
        declaration as each round's resolutions end, and most are one action)."""
        n = len(self.actions)
        if n < 2:
            return n
        attacks = [a for a in self.actions if a.kind in ATTACKS]
        return n - max(len(attacks) - 1, 0)

    @property
    def late_left(self) -> int:
        n = len(self.actions)
        return max(n - max(self.done, n if n < 2 else self.at_ip), 0)  # one action: at the IP (``at_ip``)

    def next_actions(self, late: bool) -> list[Action]:
        order = self.schedule
        upto = len(order) if late else self.at_ip
        return [self.actions[i] for i in order[self.done:upto]]


class BoonsDue(msgspec.Struct, frozen=True, kw_only=True):
    """An attack that hit waits for its Boon Points to be spent ("spent at once")."""

    attacker: CombatantId
    target: CombatantId
    points: int
    head_points: int
    base_damage: int
    scaled: int
    armour: int
    skill_ranks: int
    halved: bool = False
    called_shot: str | None = None
    instead: bool = False  # earned by a cancelling action, out of the character's turn
    charge_damage: int = 0
    at: int = 0  # the version of the attack that earned them (the decision's id: stable while it waits)
    weapon: str | None = None  # the weapon of the attack (none: Brawling): a Lightning Attack's, a Disarm's ranks'
    missile: bool = False  # made with a missile weapon (Lightning Attack: its text for ranged weapons is cut off)


class SnagsDue(msgspec.Struct, frozen=True, kw_only=True):
    """An attack roll that imploded and missed earned Snag Points: the GM spends them at once."""

    roller: CombatantId
    points: int
    weapon: str | None = None  # the weapon in hand (none: Brawling)
    at: int = 0  # the version of the roll that earned them


class StrayShot(msgspec.Struct, frozen=True, kw_only=True):
    """A shot into melee that missed: those near its path save vs Spd in turn, the closest first."""

    attacker: CombatantId
    tn: int
    base_damage: int
    near: list[CombatantId]
    at: int = 0  # the version of the shot


class HeldContest(msgspec.Struct, frozen=True, kw_only=True):
    """A held action taken at the IP of ``other``, who has not resolved yet: "the GM should Opposed
    Saving Throws to determine which goes first". ``saves``: the totals rolled so far; ``winner``:
    who goes first once decided (the holder's actions then wait for the other's resolution)."""

    holder: CombatantId
    other: CombatantId
    saves: dict[CombatantId, int] = msgspec.field(default_factory=dict)
    winner: CombatantId | None = None

    @property
    def waiting(self) -> bool:
        return self.winner is None


class Mount(msgspec.Struct, frozen=True, kw_only=True):
    trained: bool = False


class NovusRules(msgspec.Struct, kw_only=True):
    """The ruleset's part of the state."""

    data: NovusData = DEFAULT_DATA
    position: PhasePosition = msgspec.field(default_factory=PhasePosition)
    declarers: list[CombatantId] = msgspec.field(default_factory=list)  # who declares this round, highest IP first
    declared: dict[CombatantId, Declaration] = msgspec.field(default_factory=dict)
    resolved: list[CombatantId] = msgspec.field(default_factory=list)
    ip: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # this round's Initiative Points
    rolled_ip: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # for the rest of the combat
    hits_lost: dict[CombatantId, int] = msgspec.field(default_factory=dict)
    hasted: list[CombatantId] = msgspec.field(default_factory=list)
    surprised: list[CombatantId] = msgspec.field(default_factory=list)
    carried: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # AP owed to the next round
    # of ``carried``, those of an action at one hidden when declared, by him; and, from the next round on,
    # those that round's AP are short by (``owed_unseen``): who does not see him is shown them unspent
    carried_unseen: dict[CombatantId, dict[CombatantId, int]] = msgspec.field(default_factory=dict)
    owed_unseen: dict[CombatantId, dict[CombatantId, int]] = msgspec.field(default_factory=dict)
    set_initiative: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # the round it was prepared in
    reroll: list[CombatantId] = msgspec.field(default_factory=list)  # to reroll as the round ends
    boost: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # IP next round (Initiative Boost)
    posture: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # round of +2 DEF (Defensive Posture)
    dazed: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # round of -4 to all actions (Daze Foe)
    prone: list[CombatantId] = msgspec.field(default_factory=list)
    limb_hits: dict[CombatantId, dict[str, int]] = msgspec.field(default_factory=dict)
    limb_damage: dict[CombatantId, dict[str, int]] = msgspec.field(default_factory=dict)
    dead: list[CombatantId] = msgspec.field(default_factory=list)
    boons_due: BoonsDue | None = None
    holding: list[CombatantId] = msgspec.field(default_factory=list)
    window: reactions.ReactionWindow | None = None  # a move waiting for the Opportunity Attacks it allows
    stray: StrayShot | None = None
    mounted: dict[CombatantId, Mount] = msgspec.field(default_factory=dict)
    riding: dict[CombatantId, bool] = msgspec.field(default_factory=dict)  # this round's Riding roll: made?
    late_dodge: list[CombatantId] = msgspec.field(default_factory=list)  # a Dodge performed on cancelling
    blocks_used: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # Blocks made this round
    # in a view without the hidden (a player's): one of them moves now in this phase, unseen
    unseen_mover: bool = False
    unseen_waits: tuple[str, ...] = ()  # and what of theirs the fight waits for (the refusals' codes)
    pending_shift: tuple[int, str | None] | None = None
    fate_points: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # earned by Nova Rolls (N1)  # the Fighting Defensively of a declaration being checked  # a missed shot into melee waiting for the Saves of those near its path
    perception: dict[str, int] = msgspec.field(default_factory=dict)  # each side's group Perception total
    attacked: list[CombatantId] = msgspec.field(default_factory=list)  # who has made an attack this round
    disengaged: list[CombatantId] = msgspec.field(default_factory=list)  # who Disengaged this round
    contest: HeldContest | None = None  # a held action at another's IP: the opposed Saving Throws
    snags_due: SnagsDue | None = None
    broken: dict[CombatantId, list[str]] = msgspec.field(default_factory=dict)  # weapons broken by a Snag
    fumbled: dict[CombatantId, dict[str, int]] = msgspec.field(default_factory=dict)  # weapon: the round it is back
    strained: dict[CombatantId, int] = msgspec.field(default_factory=dict)  # -1 to all actions till this round
    oa_more: dict[CombatantId, tuple[CombatantId, int]] = msgspec.field(default_factory=dict)  # OA: at whom, how many more
    initiative_novas: list[CombatantId] = msgspec.field(default_factory=list)  # Fate Points of the initiative roll
    disarmed: dict[CombatantId, list[str]] = msgspec.field(default_factory=dict)  # weapons knocked away (Disarm)
    # Attack Boost: "+1 AB per BP on the primary attack next round": the round, and the AB
    attack_boost: dict[CombatantId, tuple[int, int]] = msgspec.field(default_factory=dict)


# the ruleset's part of a state: a C call (asked several times on every event of a fold)
rules: Callable[[EncounterState], NovusRules] = operator.attrgetter("rules")


# The round's books kept by combatant: each a dict keyed by the id, or a list of ids.
_BY_ID = ("declared", "ip", "rolled_ip", "hits_lost", "carried", "carried_unseen", "owed_unseen", "set_initiative", "boost", "posture", "dazed",
          "limb_hits", "fate_points", "limb_damage", "mounted", "riding", "blocks_used", "disarmed", "broken",
          "fumbled", "strained", "attack_boost")
_IDS = ("declarers", "resolved", "hasted", "surprised", "reroll", "prone", "dead", "holding", "late_dodge",
        "attacked", "disengaged", "initiative_novas")


# where each of those books is in a NovusRules' fields (``msgspec.structs.astuple``: all at once)
_AT = {name: i for i, name in enumerate(NovusRules.__struct_fields__)}
_BY_ID_AT = tuple((name, _AT[name]) for name in _BY_ID)
_IDS_AT = tuple((name, _AT[name]) for name in _IDS)


def leaving_out(r: NovusRules, gone: frozenset[str]) -> NovusRules:
    """The round's state with nothing kept of each of the ``gone`` (hidden from a viewer, or taken
    out of the fight) in the round's books: their IP, Hits lost, mount, Haste, hits on limbs ...
    (a book that holds none of them is kept as it is: most hold none; none: ``r`` itself)."""
    changes: dict[str, object] = {}
    values = msgspec.structs.astuple(r)
    for name, i in _BY_ID_AT:
        d = values[i]
        if d and not gone.isdisjoint(d):
            changes[name] = {k: v for k, v in d.items() if k not in gone}
    for name, i in _IDS_AT:
        xs = values[i]
        if xs and not gone.isdisjoint(xs):
            changes[name] = [c for c in xs if c not in gone]
    moved = r.position.moved
    if moved and not gone.isdisjoint(moved):
        changes["position"] = replace(r.position, moved=tuple(c for c in moved if c not in gone))
    if r.oa_more:
        oa_more = {k: v for k, v in r.oa_more.items() if k not in gone and v[0] not in gone}
        if len(oa_more) != len(r.oa_more):
            changes["oa_more"] = oa_more
    if r.contest is not None and gone & {r.contest.holder, r.contest.other}:
        changes["contest"] = None
    if r.snags_due is not None and r.snags_due.roller in gone:
        changes["snags_due"] = None
    return replace(r, **changes) if changes else r


def taken_out(r: NovusRules, gone: str) -> NovusRules:
    """The round once the GM takes ``gone`` out of the fight: nothing of theirs kept, an attack
    declared on them lapses when its time comes, and what waited on them no longer does (Boon Points
    of a hit by or on them, their save near a stray shot, their Opportunity Attack, their move's)."""
    changes: dict[str, object] = {}  # those of the books below that change (most do not)
    if any(a.target == gone for v in r.declared.values() for a in v.actions):
        changes["declared"] = {
            k: replace(v, actions=[replace(a, target=None) if a.target == gone else a for a in v.actions])
            if gone in [a.target for a in v.actions] else v for k, v in r.declared.items()}
    due = r.boons_due
    if due is not None and gone in (due.attacker, due.target):
        changes["boons_due"] = None
    stray = r.stray
    if stray is not None:
        near = [c for c in stray.near if c != gone]
        changes["stray"] = replace(stray, near=near) if near and stray.attacker != gone else None
    window = r.window
    if window is not None:
        changes["window"] = None if window.actor == gone else replace(
            window, may_react=tuple(c for c in window.may_react if c != gone),
            answers={k: v for k, v in window.answers.items() if k != gone})
    return leaving_out(replace(r, **changes) if changes else r, frozenset((gone,)))
