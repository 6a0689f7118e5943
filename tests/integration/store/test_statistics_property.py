"""Hypothesis: random fights, projected in batches of any size, give the statistics a direct fold
of their events gives, for the GM and for a player (who must not see hidden combatants), and
the encounter list holds what the rules' own state says.

The direct fold reads the typed events (decoded by the ruleset, as the server replays them)
and is written apart from ``projections/combatant_statistics.py``, by what each rule means.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter, defaultdict
from typing import Any

import asyncpg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fights import Fight, random_fight, store
from domain.core.encounter import CombatantAdded, RoundStarted, TurnEnded
from domain.places_of_power.actions import ActionTaken
from domain.places_of_power.attacks import AttackDeclared, AttackRolled, DefenceRolled, ExchangeEnded, HitsTaken
from domain.places_of_power.check_rolls import CheckRolled
from domain.places_of_power.pull_your_punch import PunchPulled
from projections import combatant_statistics
from projections.catalog import all_projections
from projections.event_log import Decoder
from projections.runner import ensure_checkpoint, run_batch
from tests.conftest import TEMPLATE, with_database

# Every event of these fights that carries a cost or an outcome class is one the direct fold reads.
FOLDED = (AttackDeclared, AttackRolled, ExchangeEnded, DefenceRolled, HitsTaken, ActionTaken, CheckRolled,
          PunchPulled)
BALANCES = (CombatantAdded, TurnEnded, RoundStarted)  # their action_points are what is left, not a cost


def direct(fight: Fight, unseen: set[str]) -> dict[str, Counter[str]]:
    """Each combatant's statistics, leaving out everything that involves one of ``unseen``."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    attacks: dict[int, tuple[str, str]] = {}

    def add(who: str, other: str, stat: str, n: int) -> None:
        if n and who not in unseen and other not in unseen:
            out[who][stat] += n

    for e in fight.events:
        if not isinstance(e, FOLDED + BALANCES):
            assert not hasattr(e, "action_points") and not hasattr(e, "outcome"), f"fold {type(e).__name__} too"
        match e:
            case AttackDeclared():
                attacks[e.attack_id] = (e.attacker, e.defender)
                add(e.attacker, e.defender, "attacks_made", 1)
                add(e.attacker, e.defender, "action_points_spent", e.action_points)
            case AttackRolled():
                attacker, defender = attacks[e.attack_id]
                add(attacker, defender, "rolls", 1)
                add(attacker, defender, "outcome:" + e.outcome, 1)
            case ExchangeEnded() if e.result in ("hit", "tanked", "shielded", "pulled"):
                add(*attacks[e.attack_id], "attacks_landed", 1)
            case DefenceRolled():
                attacker, _ = attacks[e.attack_id]
                add(e.defender, attacker, "defences_tried", 1)
                add(e.defender, attacker, "defences_won", int(e.success))
                add(e.defender, attacker, "action_points_spent", e.action_points)
            case HitsTaken():
                attacker, defender = attacks[e.attack_id]
                dealer = defender if e.combatant_id == attacker else attacker  # a Riposte hits the attacker
                add(e.combatant_id, dealer, "hits_taken", e.damage)
                add(dealer, e.combatant_id, "hits_dealt", e.damage)
            case ActionTaken():
                add(e.combatant_id, "", "action_points_spent", e.action_points)
            case CheckRolled():
                add(e.combatant_id, "", "rolls", 1)
                add(e.combatant_id, "", "outcome:" + e.outcome, 1)
            case PunchPulled():
                add(e.combatant_id, attacks[e.attack_id][1], "action_points_spent", e.action_points)
    return {who: +c for who, c in out.items() if +c}


def projected(stats: combatant_statistics.Statistics) -> dict[str, Counter[str]]:
    out = {}
    for c in stats.combatants:
        counts = Counter({k: getattr(c, k) for k in combatant_statistics.COUNTS})
        counts.update({"outcome:" + k: n for k, n in c.outcomes.items()})
        if +counts:
            out[c.combatant_id] = +counts
    return out


async def _run(admin_dsn: str, fights: list[Fight], batch_size: int) -> None:
    name = f"s_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    dsn = with_database(admin_dsn, name)
    try:
        conn = await asyncpg.connect(dsn)
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
        try:
            for i in range(0, len(fights), 2):  # a transaction or more, with encounters interleaved in batches
                await store(conn, fights[i:i + 2])
            decoder = Decoder()
            for p in all_projections():
                await ensure_checkpoint(conn, p)
                while await run_batch(conn, p, decoder, batch_size):
                    pass
            for fight in fights:
                state = fight.state
                concealed = set(state.concealed)
                for unseen in (set(), concealed):  # the GM, then a player
                    stats = await combatant_statistics.statistics(pool, fight.encounter_id, frozenset(unseen))
                    assert projected(stats) == direct(fight, unseen)
                    assert {c.combatant_id for c in stats.combatants} == {
                        e.combatant_id for e in fight.events if isinstance(e, CombatantAdded)} - unseen
                    assert stats.version == state.version
                row = await conn.fetchrow("SELECT * FROM encounter_list WHERE encounter_id = $1",
                                          uuid.UUID(fight.encounter_id))
                present = set(state.combatants)
                assert (row["status"], row["round"], row["version"], row["name"]) == (
                    state.status, state.round, state.version, state.name)
                assert (row["combatants"], row["hidden_combatants"]) == (
                    len(present - concealed), len(present & concealed))
        finally:
            await pool.close()
            await conn.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


fight_plans = st.lists(
    st.fixed_dictionaries({
        "seed": st.integers(0, 2**32), "steps": st.integers(0, 60), "combatants": st.integers(2, 4),
        "hidden": st.booleans(), "reveal": st.booleans(), "end": st.booleans(),
    }),
    min_size=1, max_size=4,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plans=fight_plans, batch_size=st.integers(1, 300))
def test_projected_statistics_equal_a_direct_fold_of_the_events(pg_admin_dsn: str, template_dsn: str,
                                                                plans: list[dict[str, Any]], batch_size: int) -> None:
    fights = [random_fight(random.Random(p.pop("seed")), encounter_id=str(uuid.uuid4()), **p) for p in plans]
    asyncio.run(_run(pg_admin_dsn, fights, batch_size))
