"""A combatant's standing in ``Novus`` (a mixin): Hit Points, helpless, can act, useless limbs, DEF."""

from __future__ import annotations

import msgspec

from domain.core.encounter import (
    Combatant,
    EncounterState,
)
from domain.core.errors import RuleViolation
from domain.novus import limbs, performing
from domain.novus.state import (
    rules,
)

replace = msgspec.structs.replace

FIRST_AID = "First Aid"  # N22: "try to stabilise himself with First Aid (TN 25)"


class Defending:
    """A combatant's standing in ``Novus`` (domain/novus/ruleset.py composes it)."""

    def hit_points(self, state: EncounterState, cid: str) -> int:
        return state.combatants[cid].sheet.hit_points - rules(state).hits_lost.get(cid, 0)

    def helpless(self, state: EncounterState, cid: str) -> bool:
        """N22: "At 0 to -10 hit points a character is helpless" (and past it, till the GM says)."""
        return self.hit_points(state, cid) <= 0

    def can_act(self, state: EncounterState, cid: str) -> bool:
        """Whether ``cid`` can act this round (named apart from core's ``may_act(state)``, who may move out
        of turn): not dead nor helpless; surprised: "if this puts an individual character's Initiative at
        or below zero, then that character will not be allowed to take action until the following round"."""
        r = rules(state)
        if cid in r.dead or self.helpless(state, cid):
            return False
        return not (state.round == 1 and cid in r.surprised and r.ip.get(cid, 0) <= 0)

    def require_able(self, state: EncounterState, c: Combatant, doing: str, skill: str | None = None) -> None:
        """N22: "At 0 to -10 hit points a character is helpless and can do nothing but try to stabilise
        himself with First Aid": the dead do nothing, the helpless only roll First Aid (``skill``) on themselves."""
        if c.id in rules(state).dead:
            raise RuleViolation("novus_cannot_act", f"{c.name} is dead: the dead do nothing ({doing}).")
        if self.helpless(state, c.id) and (skill or "").casefold() != FIRST_AID.casefold():
            raise RuleViolation("novus_cannot_act", f"{c.name} is helpless and can do nothing but try to stabilise "
                                f"himself with {FIRST_AID} ({doing}).")

    def surprised_now(self, state: EncounterState, cid: str) -> bool:
        return state.round == 1 and cid in rules(state).surprised

    def defence(self, state: EncounterState, cid: str, against_charge: bool = False) -> int:
        """N6: DEF = 15 + Speed bonus + 1 per 5 ranks of the best melee skill + shield + situational
        modifiers: a declared Dodge and Fighting Defensively (a DEF change from a declared action
        "lasts the whole round"), Defensive Posture; prone or helpless: "DEF 12 + magic bonuses only"."""
        r = rules(state)
        c = state.combatants[cid]
        if cid in r.prone or self.helpless(state, cid):
            return 12
        d = c.sheet.base_def()
        declared = r.declared.get(cid)
        if declared is not None:
            d += declared.defensive // 2
            d += performing.round_def(r.data, c.sheet, declared.actions, r.limb_hits.get(cid, {}))  # a Dodge's ...
        if r.posture.get(cid) == state.round:
            d += 2
        return d + self._mounted_def(state, cid, against_charge)

    def dodge_def(self, state: EncounterState, cid: str) -> int:
        """The Basic Dodge's DEF, less the -2 of each hit on the legs it uses (N14)."""
        r = rules(state)
        return limbs.hindered(r.data.dodge_def, r.data.limbs, r.limb_hits.get(cid, {}), "dodge")

    def _mounted_def(self, state: EncounterState, cid: str, against_charge: bool) -> int:
        """The DEF modifiers of riding this round: a Mounted Charge's (-4 with Mounted Combat I, else
        -9), a mounted attack's (against mounted foes 0, else -5; against foes on foot -3, else -8),
        -1 more after a failed Riding roll; a Dodge at the last moment against a charge, doubled."""
        r = rules(state)
        c = state.combatants[cid]
        d = 0
        declared = r.declared.get(cid)
        mc1 = c.sheet.talents.mounted_combat_1
        if cid in r.mounted and declared is not None:
            mods = [0]
            for a in declared.actions:
                if a.kind == "mounted_charge":
                    mods.append(-4 if mc1 else -9)
                elif a.kind == "attack" and a.target in state.combatants:
                    mods.append((0 if mc1 else -5) if a.target in r.mounted else (-3 if mc1 else -8))
            d += min(mods)
        if r.riding.get(cid) is False:
            d -= 1
        if against_charge and cid in r.late_dodge and cid not in r.mounted:
            d += self.dodge_def(state, cid)  # "the modifier to his DEF will be doubled before being applied"
        return d

    def useless_limbs(self, state: EncounterState, cid: str) -> list[str]:
        """N14: "If the total damage dealt to that limb becomes greater than the target's
        Constitution Stat Value, the limb is useless"."""
        con = state.combatants[cid].sheet.stats.constitution.value
        return [limb for limb, dealt in rules(state).limb_damage.get(cid, {}).items() if dealt > con]
