"""Magical Combat: casting spells, their cost in Action Points and Mere, and Mere as a resource.

"When using magic in combat, your spells do 1 Hit of Base damage for each level of complexity
involved in the spell. A spell that has no modifiers will do 1 Hit of Base Damage, while a
spell using the maximum 3 modifiers will do 4 Hits of Base damage. The cost to perform spells,
in both Action Points and Mere, also increases with the complexity of the spell."

"Note: If a spell is used for healing purposes, then the number of Hits healed is equal to the
Base Damage associated with the spell's complexity."

"Cast Spell (Varied): Cast one of the spells you know and for which you have the require Mere
to use."

"Set Spells: Unlike Player Characters, Enemies, if they use magic at all, have a list of Set
Spells they can use. These Spells have a Mere type, a Mere Cost, and a Description of what they
do. ... it is just assumed that if a Spell is listed they have the required connection to the
Mere to pull it off." "Mere use is also grouped into a single Skill called Magic."

Our reading, where the text is silent (each a GM parameter, never a hidden constant):

- The cost per complexity is not in the text ("increases with the complexity"): the GM sets
  the table (``SetSpellCosts``: Action Points, Mere and the casting difficulty for complexity
  0..3). Until then ``DEFAULT_SPELL_COSTS``: 1, 2, 3, 4 Action Points, 1, 2, 3, 4 Mere, all at
  Normal. Both costs must rise with the complexity, as the text says.
- The roll: the Mere skill (an Enemy's Magic skill) + the Attribute the caster names, at the
  table's difficulty for the complexity. Penalty Points are paid as on any action.
- A damaging spell with a target is an attack: its roll goes through the attack exchange
  (extra Successes, the target's defence, armour, Hits), as a ranged attack at the band named.
- A healing spell rolls too (casting is one action, whatever the spell does): any success
  heals the full complexity + 1 Hits (never below 0); a failure heals nothing. "Status Effects
  must always be resolved before you can treat any Hits": a target with a Status Effect is
  refused.
- A spell with neither target nor healing (a ward, a light) is rolled and paid; the GM applies
  what it does.
- Mere is spent when the spell is cast, whatever the roll (as Action Points are). An Enemy pays
  its Set Spell's Mere Cost from its sheet's Mere too (the GM gives it Mere with the sheet or
  ``SetMere``); its Affinity and Activation are assumed. A player's Activation Level per
  colour is not on the sheet: the GM judges whether a player may use that many modifiers.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.core.concerns import CombatantId, EventRef
from domain.core.dice import Dice, DieRoll
from domain.core.encounter import Combatant, Command, EncounterState, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import AttackDeclared, AttackRolled, ExchangeEnded, can_act, edges
from domain.places_of_power.checks import Difficulty, dice_for, judge
from domain.places_of_power.grapples import penalty_owed
from domain.places_of_power.harm import apply_penalties
from domain.places_of_power.sheet import CONDITION_OF, Attribute, sides
from domain.places_of_power.stat_block import SetSpell
from domain.places_of_power.table import rules, sheet, spend, with_rules, with_sheet
from domain.places_of_power.weapons import RangeBand, extra_successes

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Complexity = Annotated[int, msgspec.Meta(ge=0, le=3)]
SUCCESSES = ("Partial Success", "Full Success", "Critical Success")
# "Mere use is also grouped into a single Skill called Magic."
ENEMY_MERE_SKILL = "Magic"


class SpellCost(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What casting a spell of one complexity costs, and the difficulty it is rolled at."""

    action_points: Annotated[int, msgspec.Meta(ge=1, le=6)]
    mere: Annotated[int, msgspec.Meta(ge=0, le=99)]
    difficulty: Difficulty = "Normal"


# Our reading (the text gives no numbers): one more Action Point and one more Mere per modifier.
DEFAULT_SPELL_COSTS: tuple[SpellCost, ...] = tuple(SpellCost(action_points=n, mere=n) for n in (1, 2, 3, 4))


def base_damage(complexity: int) -> int:
    """"1 Hit of Base damage for each level of complexity": no modifiers 1 Hit, 3 modifiers 4."""
    return complexity + 1


def spell_costs(state: EncounterState) -> tuple[SpellCost, ...]:
    """The cost table in force: the GM's, or ``DEFAULT_SPELL_COSTS``."""
    return tuple(rules(state).spell_costs or DEFAULT_SPELL_COSTS)


# ------------------------------------------------------------------------- commands


class CastSpell(Command, tag="CastSpell"):
    """Cast a spell on your turn (AP and Mere by its complexity, see ``SetSpellCosts``): roll the
    Mere skill + ``attribute``. A player names the Mere colour (``mere``, a Mere skill on the
    sheet) and ``complexity`` (modifiers, 0..3); an Enemy with a Stat Block casts one of its Set
    Spells by name (colour, complexity, Mere Cost and healing come from the block; Magic skill).
    ``healing``: heals complexity + 1 Hits of ``target`` (default: yourself). Otherwise, with a
    ``target``, the spell attacks at range ``band`` with complexity + 1 Hits of Base Damage and
    the attack exchange follows. Reported dice: the Attribute die, then the Mere skill's die."""

    actor_field = "combatant_id"
    combatant_id: CombatantId
    spell: Name
    attribute: Attribute
    target: CombatantId | None = None
    mere: Name | None = None
    complexity: Complexity | None = None
    healing: bool | None = None
    band: RangeBand | None = None
    penalties: Annotated[list[str], msgspec.Meta(max_length=4)] = msgspec.field(default_factory=list)
    # Against an Exposed target, as for any attack: Advantage or an extra Hit of Base Damage.
    exposed: Literal["Advantage", "Damage"] = "Advantage"


class SetSpellCosts(Command, tag="SetSpellCosts"):
    """The GM sets what spells cost: four entries, for complexity 0, 1, 2 and 3, each with its
    Action Points, Mere and casting difficulty. Both costs must rise with the complexity."""

    costs: Annotated[list[SpellCost], msgspec.Meta(min_length=4, max_length=4)]


class SetMere(Command, tag="SetMere"):
    """The GM sets how much Mere a combatant has left to cast with (restoring it, say)."""

    combatant_id: CombatantId
    mere: Annotated[int, msgspec.Meta(ge=0, le=999)]


COMMANDS = (CastSpell, SetSpellCosts, SetMere)

# --------------------------------------------------------------------------- events


class SpellCast(Event, tag="SpellCast"):
    """A spell was cast and its Mere spent. A damaging spell's attack follows
    (``attack_id``); any other spell's roll follows in ``SpellRolled``."""

    caster: CombatantId
    spell: str
    mere: str
    complexity: int
    healing: bool
    mere_spent: int
    target: CombatantId | None = None
    attack_id: EventRef | None = None


class SpellRolled(Event, tag="SpellRolled"):
    """The roll of a spell that is not an attack; ``hits_healed``: Hits a healing spell took
    off the target."""

    caster: CombatantId
    spell: str
    action_points: int
    dice: list[DieRoll]
    total: int
    difficulty: str
    outcome: str
    target: CombatantId | None = None
    hits_healed: int = 0

    def dice_rolled(self) -> list[DieRoll]:
        return list(self.dice)


class SpellCostsSet(Event, tag="SpellCostsSet"):
    costs: list[SpellCost]


class MereSet(Event, tag="MereSet"):
    combatant_id: CombatantId
    mere: int
    reason: str = ""


EVENTS = (SpellCast, SpellRolled, SpellCostsSet, MereSet)

# ---------------------------------------------------------------------------- rules


class Spell(msgspec.Struct, frozen=True, kw_only=True):
    """The spell as cast: its colour, complexity, whether it heals, its Mere cost and the skill
    rolled."""

    name: str
    mere: str
    complexity: int
    healing: bool
    mere_cost: int
    skill: str


def _set_spell(c: Combatant, cmd: CastSpell) -> SetSpell:
    block = sheet(c).stat_block
    assert block is not None
    found = next((s for s in block.set_spells if s.name == cmd.spell), None)
    if found is None:
        listed = ", ".join(s.name for s in block.set_spells) or "none"
        raise RuleViolation("unknown_spell", f"{c.name}'s Stat Block lists no Set Spell “{cmd.spell}” "
                            f"(Set Spells: {listed}).", spell=cmd.spell)
    for field, given, listed_value in (("mere", cmd.mere, found.mere), ("complexity", cmd.complexity, found.complexity),
                                       ("healing", cmd.healing, found.healing)):
        if given is not None and given != listed_value:
            raise RuleViolation("spell_mismatch", f"{found.name} is listed with {field} {listed_value!r}, "
                                f"not {given!r}: an Enemy casts its Set Spells as listed.", field=field)
    return found


def _spell(state: EncounterState, c: Combatant, cmd: CastSpell) -> Spell:
    """The spell ``c`` casts: an Enemy's Set Spell, or a player's spell as the command describes it."""
    s = sheet(c)
    if s.stat_block is not None:
        listed = _set_spell(c, cmd)
        # "Mere use is also grouped into a single Skill called Magic"; a colour skill also serves
        skill = ENEMY_MERE_SKILL if s.skill_die(ENEMY_MERE_SKILL) else listed.mere
        if s.skill_die(skill) is None:
            raise RuleViolation("unknown_skill", f"{c.name} has no skill “{ENEMY_MERE_SKILL}” on their sheet.",
                                skill=ENEMY_MERE_SKILL)
        return Spell(name=listed.name, mere=listed.mere, complexity=listed.complexity, healing=listed.healing,
                     mere_cost=listed.mere_cost, skill=skill)
    if cmd.mere is None or cmd.complexity is None:
        raise RuleViolation("missing_detail", "A spell names its Mere colour (`mere`) and its `complexity` (0..3).")
    if cmd.mere not in s.mere_skills:
        raise RuleViolation("unknown_skill", f"{c.name} has no Mere skill “{cmd.mere}” on their sheet.",
                            skill=cmd.mere)
    return Spell(name=cmd.spell, mere=cmd.mere, complexity=cmd.complexity, healing=bool(cmd.healing),
                 mere_cost=spell_costs(state)[cmd.complexity].mere, skill=cmd.mere)


def _check_target(ruleset: object, state: EncounterState, c: Combatant, spell: Spell, cmd: CastSpell
                  ) -> Combatant | None:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    if spell.healing:
        target = ruleset.combatant(state, cmd.target or c.id)
        t = sheet(target)
        if t.dead:
            raise RuleViolation("invalid_target", f"{target.name} is dead.")
        # "Status Effects must always be resolved before you can treat any Hits a target has suffered."
        if t.statuses:
            names = ", ".join(x.name for x in t.statuses)
            raise RuleViolation("statuses_first", f"{target.name}'s Status Effects ({names}) must be resolved "
                                "before their Hits can be treated.", statuses=[x.name for x in t.statuses])
        if t.hits == 0:
            raise RuleViolation("no_hits_to_restore", f"{target.name} has taken no Hits.")
        return target
    if cmd.target is None:
        return None
    target = ruleset.combatant(state, cmd.target)
    if target.id == c.id:
        raise RuleViolation("invalid_target", "A combatant cannot attack themselves.")
    if sheet(target).dead:
        raise RuleViolation("invalid_target", f"{target.name} is already dead.")
    if cmd.band is None:
        raise RuleViolation("missing_detail", "A spell aimed at a target names the range `band` it is cast at.")
    return target


def _edges(c: Combatant, attacked: Combatant | None, cmd: CastSpell) -> tuple[bool, bool, int]:
    """Advantage, Disadvantage and extra Base Damage of the casting roll: a spell attack meets
    the target's state as any attack does (``attacks.edges``); a Condition on the Attribute
    puts the roll at Disadvantage."""
    conditioned = CONDITION_OF[cmd.attribute] in sheet(c).conditions
    if attacked is None:
        return False, conditioned, 0
    advantage, disadvantage, extra = edges(c, attacked, cmd.exposed)
    return advantage, disadvantage or conditioned, extra


def cast(ruleset: object, state: EncounterState, cmd: CastSpell, dice: Dice) -> list[Event]:
    from domain.core.ruleset import Ruleset

    assert isinstance(ruleset, Ruleset)
    c = ruleset.require_turn(state, cmd.combatant_id)
    if rules(state).exchange is not None:
        raise RuleViolation("exchange_pending", "An attack is still being resolved.")
    can_act(c)
    spell = _spell(state, c, cmd)
    s = sheet(c)
    # "Cast one of the spells you know and for which you have the require Mere to use."
    if s.mere < spell.mere_cost:
        raise RuleViolation("not_enough_mere", f"{c.name} has {s.mere} Mere left; {spell.name} needs "
                            f"{spell.mere_cost}.", available=s.mere, cost=spell.mere_cost)
    target = _check_target(ruleset, state, c, spell, cmd)
    attacking = target is not None and not spell.healing
    cost = spell_costs(state)[spell.complexity]
    skill_die = s.skill_die(spell.skill)
    assert skill_die is not None
    advantage, disadvantage, extra = _edges(c, target if attacking else None, cmd)
    a, k = dice_for(sides(s.attribute_die(cmd.attribute)), sides(skill_die), advantage, disadvantage)
    damage = base_damage(spell.complexity) + extra if attacking else 0
    pay = apply_penalties(cmd.penalties, penalty_owed(state, c.id), difficulty=cost.difficulty, dice=(a, k),
                          cost=cost.action_points, base_damage=damage)
    ruleset.spend_action_points(c, pay.cost, f"casting {spell.name}")
    attack_id = state.version + 2 if attacking else None  # the version of its AttackDeclared
    label = f"attack {attack_id}" if attacking else f"spell {spell.name}"
    rolled = [dice.roll(n, f"{label}: {what}", c.id)
              for n, what in zip(pay.dice, (cmd.attribute.title(), spell.skill), strict=True)]
    total = sum(d.face for d in rolled)
    outcome, _ = judge([d.face for d in rolled], [d.sides for d in rolled], pay.difficulty)
    events: list[Event] = [SpellCast(
        caster=c.id, spell=spell.name, mere=spell.mere, complexity=spell.complexity, healing=spell.healing,
        mere_spent=spell.mere_cost, target=target.id if target else None, attack_id=attack_id,
    )]
    if not attacking:
        healed = 0
        if target is not None and outcome in SUCCESSES:
            # "the number of Hits healed is equal to the Base Damage associated with the spell's complexity"
            healed = min(base_damage(spell.complexity), sheet(target).hits)
        return [*events, SpellRolled(
            caster=c.id, spell=spell.name, action_points=pay.cost, dice=rolled, total=total,
            difficulty=pay.difficulty, outcome=outcome, target=target.id if target else None, hits_healed=healed,
        )]
    assert target is not None and attack_id is not None and cmd.band is not None
    # The same events an attack emits: the exchange (Successes, defence, armour, Hits) takes over.
    hit = outcome in SUCCESSES
    events += [
        AttackDeclared(
            attack_id=attack_id, attacker=c.id, defender=target.id, attack="Spell", weapon=spell.name,
            band=cmd.band, gun=False, melee=False, modifiers=[], aim="body", difficulty=pay.difficulty,
            base_damage=pay.base_damage, action_points=pay.cost, penalties=list(cmd.penalties),
        ),
        AttackRolled(attack_id=attack_id, dice=rolled, total=total,
                     outcome="Critical Miss" if outcome == "Critical Failure" else outcome,
                     extra=extra_successes(total, pay.difficulty) if hit else 0),
    ]
    if outcome == "Failure":
        events.append(ExchangeEnded(attack_id=attack_id, result="missed"))
    return events


def set_costs(cmd: SetSpellCosts) -> list[Event]:
    # "The more complex the spell, the more Action Points it costs to perform, and the more
    # Mere it uses to do so."
    for lower, higher in zip(cmd.costs, cmd.costs[1:]):
        if higher.action_points <= lower.action_points or higher.mere <= lower.mere:
            raise RuleViolation("spell_costs_must_rise", "Each complexity must cost more Action Points and more "
                                "Mere than the one below it.")
    return [SpellCostsSet(costs=list(cmd.costs))]


def set_mere(cmd: SetMere) -> list[Event]:
    return [MereSet(combatant_id=cmd.combatant_id, mere=cmd.mere, reason="the GM")]


DECISIONS = {
    CastSpell: lambda r, s, c, d: cast(r, s, c, d),
    SetSpellCosts: lambda r, s, c, d: set_costs(c),
    SetMere: lambda r, s, c, d: set_mere(c),
}


def evolve(state: EncounterState, event: Event) -> EncounterState | None:
    match event:
        case SpellCast():
            return with_sheet(state, event.caster, mere=sheet(state.combatants[event.caster]).mere - event.mere_spent)
        case SpellRolled():
            state = spend(state, event.caster, event.action_points)
            if event.target is None or not event.hits_healed:
                return state
            hits = sheet(state.combatants[event.target]).hits
            return with_sheet(state, event.target, hits=max(0, hits - event.hits_healed))
        case SpellCostsSet():
            return with_rules(state, spell_costs=list(event.costs))
        case MereSet():
            return with_sheet(state, event.combatant_id, mere=event.mere)
    return None
