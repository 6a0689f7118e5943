"""The ruleset's part of an encounter's state: each creature's body and start of combat, the attack
under way, and the same seen by a viewer from whom some are hidden (or once some are gone)."""

from __future__ import annotations

import operator
from collections.abc import Callable

import msgspec

from domain.core import reactions
from domain.core.concerns import CombatantId
from domain.core.encounter import (
    Combatant,
    EncounterState,
)
from domain.core.pending import Refusal
from domain.realms.body import Body
from domain.realms.codes import OWN_CODES
from domain.realms.data import DEFAULT_RULES, RealmsRules
from domain.realms.events import Collateral

replace = msgspec.structs.replace


AP = 4  # "your Action Points (AP) are set to 4"
FREE_INTERACTION = "free interaction"
FREE_ABILITY_ROLL = "free ability roll"
DODGE, SHIELD, BLOCK, BODY_SHIELD = "Dodge", "Shield Defense", "Weapon Block", "Body Shield"
SPLIT_EVADE = "Split Evade"  # allotting one split Evade to this attack (no AP: the Evade paid them)
COMBINATION, COUNTER = "Combination Attack", "Counter Power: "
COUNTERING = "Counter Power"  # its D20 rolls' type for the Multiple Action Penalty (in effect or not)
MENTAL = frozenset({"mental_fortitude", "resolve", "discernment"})
WAITING = Refusal(code="realms_attack_waiting", message=OWN_CODES["realms_attack_waiting"])
OVERCOME_DUE = Refusal(code="realms_overcome_due", message=OWN_CODES["realms_overcome_due"])


class Start(msgspec.Struct, frozen=True, kw_only=True):
    """The RM's say on how a creature starts combat (``SetInitiative``)."""

    roll_with: str | None = None
    surprised: bool = False
    initiator: bool = False


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True):
    """An attack under way: declared (waiting on a Dodge), then rolled (waiting on Defend)."""

    window: str
    attacker: CombatantId
    target: CombatantId
    attack: str
    kind: str
    targets: str
    distance: int
    penalty: int = 0
    range_penalty: int = 0
    obscurity: int = 0
    off_hand: bool = False
    thrown: bool = False
    non_lethal: bool = False
    stage: str = "declared"
    dodge: int = 0
    total: int = 0
    score: int = 0
    hit: bool = False
    critical: bool = False
    damage: int = 0
    block: int | None = None
    shield: int = 0
    body_shield: CombatantId | None = None
    defenders: list[CombatantId] = []
    help: int = 0  # Combination Attacks' Help Dice
    counters: list[CombatantId] = []  # who counters the Power, the first rolling
    counter_energy: int = 0  # the Energy the counterers spent
    determination: bool = False  # the attacker spends a Determination Die on the roll
    taken: dict[CombatantId, list[str]] = {}  # the Reactions each creature took before the roll
    evade: int = 0  # a split Evade allotted to this attack
    collateral: Collateral | None = None  # a Power in effect the roll may counter as well


class RealmsState(msgspec.Struct, kw_only=True):
    """The ruleset's part of the state: the RM's settings, each creature's body and start of
    combat, whether the initiator has taken its free first Action, and an attack under way."""

    data: RealmsRules = DEFAULT_RULES
    bodies: dict[CombatantId, Body] = msgspec.field(default_factory=dict)
    starts: dict[CombatantId, Start] = msgspec.field(default_factory=dict)
    initiator_acted: bool = False
    attack: PendingAttack | None = None
    window: reactions.ReactionWindow | None = None


# the ruleset's part of a state: a C call (asked several times on every event of a fold)
rules: Callable[[EncounterState], RealmsState] = operator.attrgetter("rules")


def body_of(state: EncounterState, cid: str) -> Body:
    return rules(state).bodies.get(cid) or Body()


def _seen_body(b: Body, hidden: frozenset[str]) -> Body:
    """A body as a viewer may see it: without a prepared attack on, or a hiding from, the hidden."""
    if b.prepared is not None and b.prepared.target in hidden:
        b = replace(b, prepared=None)
    if any(a.source in hidden for a in b.conditions.values() if a.source is not None):
        b = replace(b, conditions={k: replace(a, source=None) if a.source in hidden else a
                                   for k, a in b.conditions.items()})
    if b.stealth is not None and any(x in hidden for x in b.stealth.hidden_from):
        b = replace(b, stealth=replace(b.stealth, hidden_from=[x for x in b.stealth.hidden_from if x not in hidden]))
    return b


def leaving_out(r: RealmsState, gone: frozenset[str]) -> RealmsState:
    """The ruleset's state with nothing of the ``gone`` creatures in it (hidden from a viewer, or
    taken out of the fight): an attack on one is dropped, one's attack is a creature unseen's, and
    nobody else's body names them."""
    attack, window = r.attack, r.window
    if attack is not None and attack.target in gone:
        attack, window = None, None
    elif attack is not None and attack.attacker in gone:
        attack, window = _unseen_attacker(attack, window)
    if attack is not None and (attack.body_shield in gone or any(d in gone for d in attack.defenders)
                               or any(d in gone for d in attack.counters)
                               or any(d in gone for d in attack.taken)):
        attack = replace(attack, body_shield=None if attack.body_shield in gone else attack.body_shield,
                         taken={k: v for k, v in attack.taken.items() if k not in gone},
                         defenders=[d for d in attack.defenders if d not in gone],
                         counters=[d for d in attack.counters if d not in gone])
    if window is not None:
        window = replace(window, may_react=tuple(c for c in window.may_react if c not in gone),
                         answers={k: v for k, v in window.answers.items() if k not in gone})
    kept = {k: _seen_body(v, gone) for k, v in r.bodies.items() if k not in gone}
    return replace(r, bodies=kept, starts={k: v for k, v in r.starts.items() if k not in gone},
                   attack=attack, window=window)


UNSEEN = ""  # who attacks, to a viewer the attacker is hidden from
UNSEEN_ATTACK = "an attack by a creature unseen"


def _unseen_attacker(a: PendingAttack, w: reactions.ReactionWindow | None,
                     ) -> tuple[PendingAttack, reactions.ReactionWindow | None]:
    """An attack by a creature hidden from the viewer, as the viewer may know it: that it comes, what
    it targets, whether a Power ("You can React to a Power you see or hear being used") and, once it
    would hit, its damage (Defend "can be done after knowing the damage"); not who makes it, with what,
    from where ("Hidden: ... location unknown"), nor its roll. Its Reactions are prompted from this."""
    a = replace(a, attacker=UNSEEN, attack="", distance=0, penalty=0, range_penalty=0, obscurity=0, total=0, help=0)
    if w is not None:
        w = replace(w, actor=UNSEEN, trigger=UNSEEN_ATTACK)
    return a, w


def is_companion(c: Combatant) -> bool:
    return c.sheet.companion_of is not None
