"""The hidden-information property through the server, for every ruleset it offers: a random
walk of the ruleset's commands (tests/contract/walk.py, some NPCs hidden with distinctive names
and ids) is stored as the server stores commands, then read as a player and as a spectator on
every read path (tests/integration/http/test_hidden_property.py's ``read_all``: the state, events,
log, summary, statistics, audit, list, live stream, each past state). No byte names a combatant
still hidden. And a player's command naming a hidden combatant gets exactly the answer the
same command naming an id never in the fight gets (the id sent may be echoed back)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import asyncpg
import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fights import append
from domain.core.ruleset import Ruleset
from server.auth.tokens import new_secret
from tests.conftest import app_client
from tests.contract.rulesets import OFFERED, each_ruleset
from tests.contract.walk import Table, walk_of, walked
from tests.integration.read_models import until_projected
from tests.integration.http.test_hidden_property import read_all
from tests.integration.http.test_leaks import bearer, compact


def player_commands(table: Table, me: str) -> list[tuple[dict[str, Any], str]]:
    """The walk's moves for the turn, sent as ``me``, each naming a hidden combatant where it
    named another: (the command's JSON, the hidden id it names)."""
    state, walk = table.state, walk_of(table.ruleset)
    hidden = [c for c in table.hidden if c in state.concealed and c in state.combatants]
    if not hidden or state.turn is None:
        return []
    out = []
    for move in walk.moves(table.ruleset, state, table.rng):
        text = json.dumps(msgspec.to_builtins(move)).replace(f'"{state.turn}"', f'"{me}"')
        others = [c for c in state.combatants if c != me and c not in state.concealed and f'"{c}"' in text]
        if others:
            target = table.rng.choice(hidden)
            out.append((json.loads(text.replace(f'"{others[0]}"', f'"{target}"')), target))
    return out


async def ask_about_the_hidden(client: Any, enc: str, table: Table, me: str, headers: dict[str, str]) -> list[str]:
    """Each player's command naming a hidden combatant, answered as one naming a stranger; the
    replies' text, the echo of the id sent taken out."""
    out = []
    for body, target in player_commands(table, me):
        stranger = str(uuid.uuid4())
        told = await client.post(f"/encounters/{enc}/commands", headers=headers,
                                 json=json.loads(json.dumps(body).replace(target, stranger)))
        r = await client.post(f"/encounters/{enc}/commands", json=body, headers=headers)
        assert r.status_code < 500, r.text
        assert (r.status_code, r.text.replace(target, stranger)) == (told.status_code, told.text), \
            f"a command naming a hidden combatant is answered unlike one naming no one: {body}"
        out.append(r.text.replace(target, "<an id the player sent>"))
        if r.status_code == 200:
            break  # the fight moved on
    return out


@each_ruleset(OFFERED)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), steps=st.integers(10, 40))
async def test_nothing_hidden_reaches_a_player_or_a_spectator_on_any_path(
        database_url: str, ruleset: Ruleset, seed: int, steps: int) -> None:
    # a fresh encounter each example: the examples share one database, and may draw one seed twice
    table = walked(ruleset, seed, steps, encounter_id=str(uuid.uuid4()))
    if not any(c in table.state.concealed for c in table.hidden):  # a walk with someone still hidden, if one can be had
        table = walked(ruleset, seed + 1, steps, encounter_id=str(uuid.uuid4()))
    gm_secret = new_secret()
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    try:
        await append(pool, table, gm_secret=gm_secret)
    finally:
        await pool.close()
    enc, gm = table.encounter_id, bearer(gm_secret)
    state = table.state
    players = [c for c, x in state.combatants.items() if x.controller == "player"]
    me = state.turn if state.turn in players else players[0]
    still_hidden = {cid: name for cid, name in table.hidden.items() if cid in state.concealed}
    async with app_client(database_url) as client:
        async def mint(body: dict[str, Any]) -> dict[str, str]:
            r = await client.post(f"/encounters/{enc}/tokens", json=body, headers=gm)
            assert r.status_code == 201, r.text
            return bearer(r.json()["token"])

        viewers = {"player": await mint({"role": "player", "combatant_ids": [me]}),
                   "spectator": await mint({"role": "spectator"})}
        await until_projected(client, enc, gm)
        version = (await client.get(f"/encounters/{enc}", headers=gm)).json()["version"]
        seen_by_gm = "".join(compact(r) for r in await read_all(client, enc, gm, version))
        for cid, name in still_hidden.items():
            assert cid in seen_by_gm and name in seen_by_gm  # the test looks for things that are there
        replies = await ask_about_the_hidden(client, enc, table, me, viewers["player"])
        await until_projected(client, enc, gm)
        version = (await client.get(f"/encounters/{enc}", headers=gm)).json()["version"]
        for who, headers in viewers.items():
            texts = [(r, compact(r), r.text) for r in await read_all(client, enc, headers, version)]
            texts += [(None, t, t) for t in (replies if who == "player" else [])]
            for r, text, raw in texts:
                for cid, name in still_hidden.items():
                    where = f"{r.request.method} {r.request.url}" if r is not None else "a command's reply"
                    for trace in (cid, name):
                        assert trace not in text and trace not in raw, \
                            f"{trace!r} reached the {who} in {where}: {text[:1500]}"


def test_the_walks_name_some_combatants_hidden() -> None:
    """The property above looks at something: walks do seat hidden NPCs."""
    for ruleset in OFFERED:
        assert any(walked(ruleset, seed, 5).hidden for seed in range(6)), ruleset.id
