"""Hypothesis through the server: random legal command sequences keep Action Points in
range, and replaying the stored events gives exactly the state the live path serves."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.rulesets import default_registry
from tests.conftest import TEMPLATE, app_client, with_database
from tests.integration.fight import add, command, open_encounter

RULESET = default_registry().get("places-of-power")

steps = st.lists(
    st.sampled_from(["act", "act", "end_turn", "end_turn", "reroll", "join"]), min_size=1, max_size=25
)
party = st.lists(st.tuples(st.sampled_from(["player", "gm"]), st.integers(-2, 4)), min_size=1, max_size=4)


async def _run(admin_dsn: str, members: list[tuple[str, int]], plan: list[str]) -> None:
    name = f"h_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    dsn = with_database(admin_dsn, name)
    try:
        async with app_client(dsn) as client:
            enc = await open_encounter(client)
            for i, (controller, mod) in enumerate(members):
                await add(client, enc, f"C{i}", controller=controller, modifier=mod)
            await command(client, enc, {"type": "RollInitiative"})
            live = (await command(client, enc, {"type": "StartEncounter"}))["state"]
            costs = {"NotchArrow": 1, "ReloadCrossbow": 3}
            for step in plan:
                turn = live["turn"]
                if step == "act":
                    c = live["combatants"][turn]
                    for action, cost in costs.items():
                        if cost <= c["action_points"]:
                            live = (await command(client, enc, {"type": "TakeAction", "combatant_id": turn,
                                                                "action": action}))["state"]
                            break
                    else:
                        r = await client.post(f"/encounters/{enc}/commands",
                                              json={"type": "TakeAction", "combatant_id": turn, "action": "NotchArrow"})
                        assert r.status_code == 422 and r.json()["code"] == "not_enough_action_points"
                elif step == "end_turn":
                    live = (await command(client, enc, {"type": "EndTurn", "combatant_id": turn}))["state"]
                elif step == "reroll":
                    live = (await command(client, enc, {"type": "RollInitiative"}))["state"]
                else:
                    r = await client.post(f"/encounters/{enc}/combatants", json={
                        "name": "Late", "side": "enemies", "controller": "gm"})
                    assert r.status_code == 201
                    live = r.json()["state"]
                for c in live["combatants"].values():
                    top = 6 if c["controller"] == "player" else 4
                    assert 0 <= c["action_points"] <= top
            served = (await client.get(f"/encounters/{enc}")).json()
            assert served == live
        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch(
                "SELECT type, schema_version, data::text AS data FROM events WHERE encounter_id = $1 ORDER BY version",
                uuid.UUID(enc),
            )
        finally:
            await conn.close()
        replayed = RULESET.replay([RULESET.decode_event(r["type"], r["schema_version"], r["data"]) for r in rows])
        assert replayed.version == len(rows)
        assert msgspec.to_builtins(RULESET.shown(replayed)) == served  # as shown: with the choices
        # a cold server (empty cache) derives the same state from the same events
        async with app_client(dsn) as cold:
            cold.headers["Authorization"] = client.headers["Authorization"]
            assert (await cold.get(f"/encounters/{enc}")).json() == served
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=party, plan=steps)
def test_replay_equals_live_state(pg_admin_dsn: str, template_dsn: str, members, plan) -> None:
    asyncio.run(_run(pg_admin_dsn, members, plan))
