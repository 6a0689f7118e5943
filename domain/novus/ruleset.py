"""The ``novus`` ruleset: the decider for shared/rules/novus-combat.txt (with novus-gaps.md).

A round has three phases (core's ``Phases``): every combatant declares from the lowest Initiative
Point to the highest, then the declared actions resolve from the highest to the lowest, each on
the combatant's turn (core's turn goes down the order of play, highest IP first), then the attacks
left for the end of the round. The attacks themselves are in ``domain/novus/attacking.py``, the
state in ``domain/novus/state.py``.
"""

from __future__ import annotations

import msgspec

from domain.core import reactions
from domain.core.coverage import Section
from domain.core.demo import DemoFight
from domain.core.encounter import (
    Event,
)
from domain.core.log import Sentence
from domain.core.ruleset import CommandInfo, Ruleset
from domain.core.tally import Exchange, Tally, attack_tallies, harm_tallies
from domain.novus import fate, holding, snags
from domain.novus.attacking import Attacking
from domain.novus.cancelling import Cancelling
from domain.novus.codes import OWN_CODES
from domain.novus.concealing import Concealing
from domain.novus.deciding import Deciding
from domain.novus.declaring import Declaring
from domain.novus.defending import Defending
from domain.novus.events import (
    COMMANDS,
    EVENTS,
    ActionsDeclared,
    AttackRolled,
    BoonsSpent,
    Damaged,
    SaveRolled,
)
from domain.novus.folding import Folding
from domain.novus.holding import Holding
from domain.novus.odds import AttackOdds, AttackOddsQuery, attack_odds
from domain.novus.offering import Offering
from domain.novus.opportunity import Opportunity
from domain.novus.passing import Passing
from domain.novus.pending import Pending
from domain.novus.resolving import Resolving
from domain.novus.rounds import Rounds
from domain.novus.sheet import NovusSheet
from domain.novus.shown import VISIBLE
from domain.novus.state import AP, NovusRules, rules  # noqa: F401  (AP, rules: re-exported for the tests' fight)
from domain.novus.upcasting import NOVUS_SCHEMA_VERSIONS, NOVUS_UPCASTERS

replace = msgspec.structs.replace


class Novus(Offering, Passing, Folding, Concealing, Pending, Deciding, Declaring, Holding, Cancelling, Resolving,
            Rounds, Defending, fate.Fate, snags.Snags, Opportunity, Attacking, Ruleset):
    """Novus, composed of its parts (each a module named from the game's words)."""

    id = "novus"
    listed = 3
    capabilities = frozenset({"demo", "coverage", "odds", "tally"})
    name = "Novus"
    sheet_type = NovusSheet
    own_codes = OWN_CODES
    extra_commands = (*COMMANDS, *holding.COMMANDS, *snags.COMMANDS, *reactions.COMMANDS)
    extra_events = (*EVENTS, *holding.EVENTS, *snags.EVENTS, *reactions.EVENTS)
    rule_texts = {"combat": "novus-combat.txt"}
    odds_query = AttackOddsQuery
    odds_answer = AttackOdds
    odds_operation_id = "getNovusAttackOdds"
    visible_sheet_fields = VISIBLE  # what players and spectators see of an NPC: its state, not its Hit Points
    schema_versions = NOVUS_SCHEMA_VERSIONS  # old payloads read through domain/novus/upcasting.py
    upcasters = NOVUS_UPCASTERS

    def odds(self, query: AttackOddsQuery) -> AttackOdds:
        """The exact chances of an attack: a hit, each number of Boon Points, a Nova Roll."""
        return attack_odds(query)

    # ------------------------------------------------------------ hooks

    def initial_rules(self) -> NovusRules:
        return NovusRules()


    refill_moments = frozenset({"round_start"})  # those of resources() below












    def command_info(self) -> list[CommandInfo]:
        return [CommandInfo(type=t.__struct_config__.tag, summary=(t.__doc__ or "").split("\n")[0],
                            who="player" if t.actor_field else "gm") for t in (*COMMANDS, *holding.COMMANDS, *snags.COMMANDS)]

    # ---------------------------------------------------------- the round










    # ------------------------------------------------------ who must decide




    # ---------------------------------------------------------- decider



    # ----------------------------------------------------- declaring












    # ----------------------------------------------------- holding



    # ----------------------------------------------------- cancelling




    # ----------------------------------------------------- resolving




    # ---------------------------------------------------------- evolve










    # ---------------------------------------------------------- who sees what



    # ---------------------------------------------------------- what it tells

    def sentences(self) -> dict[str, Sentence]:
        from domain.novus.log import SENTENCES
        return SENTENCES

    def tally(self, event: Event, exchange: Exchange | None) -> list[Tally]:
        match event:
            case AttackRolled():  # with Boon Points to spend, the damage is counted once they are
                boons = event.boon_points or event.head_boon_points
                return attack_tallies(event.combatant_id, event.target, hit=event.hit,
                                      damage=0 if boons else event.damage)
            case BoonsSpent():
                return harm_tallies(event.combatant_id, event.target, event.damage)
            case Damaged():
                return [Tally(event.combatant_id, "hits_taken", event.damage)] if not event.from_attack else []
            case ActionsDeclared():
                # those aimed at one hidden are counted against him: who does not see him does not count them
                return [*([Tally(event.combatant_id, "action_points_spent", event.ap)] if event.ap else []),
                        *(Tally(event.combatant_id, "action_points_spent", n, opponent=o)
                          for o, n in event.ap_on.items() if n)]
            case SaveRolled():
                return [Tally(event.combatant_id, "rolls", 1)]
        return []

    def counted_events(self) -> frozenset[type[Event]]:
        return frozenset({AttackRolled, BoonsSpent, Damaged, ActionsDeclared, SaveRolled})

    def coverage(self) -> list[Section]:
        from domain.novus.coverage import SECTIONS
        return SECTIONS

    def demo(self) -> DemoFight | None:
        from domain.novus.demo import AmbushAtTheFord
        return AmbushAtTheFord()
