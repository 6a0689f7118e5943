"""Issue 16's property: over whole random fights, nothing hidden reaches a player or a spectator.

"A hypothesis property over whole fights: random legal command sequences with hidden
combatants acting, being targeted, moved, checked, revealed; distinctive random names and
sheet values. For the player and the spectator, on every read path ..., the bytes received
contain no hidden id, no hidden name and no NPC sheet value, until the reveal."

A fight is played through the decider (bench/fights.py drives the attack exchanges), with
ranges set, moves, Morale and Willpower checks, opposed rolls, taunts and grapples besides,
some of them on a hidden NPC; it is stored as the server stores commands, then read as a
player and as a spectator on every path; and the player sends commands naming the hidden.
The NPCs' weapon skills have distinctive names: a value off an NPC's sheet.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import asyncpg
import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fights import Fight, append
from domain.core.encounter import AddCombatant, EndTurn, RevealCombatant, RollInitiative, StartEncounter
from domain.places_of_power.check_rolls import CallForCheck, RollCheck
from domain.places_of_power.contests import Contestant, OpposedRoll, WillpowerRoll
from domain.places_of_power.grapples import Grapple
from domain.places_of_power.morale import MoraleCheck
from domain.places_of_power.movement import Move, SetRange
from domain.places_of_power.non_lethal import Taunt
from server.auth.tokens import new_secret
from tests.conftest import app_client
from tests.integration.read_models import until_projected
from tests.integration.http.test_leaks import bearer, compact

BANDS = ("Melee", "Close", "Near", "Far", "Long")
distinct = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=8, max_size=8)


def sheet(weapon_skill: str, modifier: int) -> dict[str, Any]:
    knife = {"name": "Knife", "skill": weapon_skill, "kind": "melee",
             "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
    return {"initiative_modifier": modifier, "attributes": {"strength": "D10", "agility": "D8"},
            "skills": {weapon_skill: "D8", "Athletics": "D6", "Brawling": "D6", "Persuasion": "D6"},
            "weapons": [knife]}


class Table:
    """The fight and what must stay unseen in it."""

    def __init__(self, seed: int, names: list[str], hidden: int, steps: int, reveal: bool) -> None:
        rng = random.Random(seed)
        self.fight = f = Fight.open(rng, encounter_id=str(uuid.uuid4()))  # a new one each time it is run
        self.ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in names]
        self.names = {cid: "Zy" + n.capitalize() for cid, n in zip(self.ids, names)}
        self.players = self.ids[:2]
        self.npcs = self.ids[2:]
        self.hidden = self.npcs[-hidden:]
        self.skills = {cid: "Qw" + n for cid, n in zip(self.ids, names)}  # each NPC's weapon skill
        for cid in self.ids:
            npc = cid in self.npcs
            f.send(AddCombatant(combatant_id=cid, name=self.names[cid], side="enemies" if npc else "party",
                                controller="gm" if npc else "player", hidden=cid in self.hidden,
                                sheet=sheet(self.skills[cid] if npc else "Knife", rng.randint(-1, 3))))
        f.send(RollInitiative(secret=rng.random() < 0.3))
        f.send(StartEncounter())
        for i in range(steps):
            self.extra(rng)
            f.step()
            if reveal and i == steps // 2:
                f.attempt(RevealCombatant(combatant_id=self.hidden[0]))

    def extra(self, rng: random.Random) -> None:
        """Now and then, something besides the turn's attack: the GM's or the turn's."""
        f, ids = self.fight, list(self.fight.state.combatants)
        if getattr(f.state.rules, "exchange", None) is not None or len(ids) < 2:
            return
        a, b = rng.sample(ids, 2)
        turn, r = f.state.turn, rng.random()
        if r < 0.15:
            f.attempt(SetRange(a=a, b=b, band=rng.choice(BANDS)))
        elif r < 0.2:
            npcs = [c for c in ids if c in self.npcs]
            f.attempt(MoraleCheck(combatant_ids=rng.sample(npcs, min(2, len(npcs))), one_roll=rng.random() < 0.5))
        elif r < 0.25:
            f.attempt(WillpowerRoll(combatant_id=a))
        elif r < 0.3:
            check = f.state.version + 1
            if f.attempt(CallForCheck(combatant_id=a, attribute="agility", skill="Athletics", difficulty="Normal")):
                f.attempt(RollCheck(combatant_id=a, check=check))
        elif r < 0.35:
            f.attempt(OpposedRoll(first=Contestant(combatant_id=a, attribute="strength", skill="Brawling"),
                                  second=Contestant(combatant_id=b, attribute="strength", skill="Brawling")))
        elif turn is not None and r < 0.45:
            other = rng.choice([c for c in ids if c != turn])
            move = rng.choice([Move(combatant_id=turn, toward=other, band=rng.choice(BANDS)),
                               Taunt(combatant_id=turn, target=other, engaged=rng.random() < 0.5), Grapple(combatant_id=turn, target=other)])
            f.attempt(move)

    def unseen(self) -> list[str]:
        """What no player or spectator byte may hold: the ids and names of the combatants still
        hidden, and every NPC's weapon skill (a value off its sheet)."""
        hidden = [c for c in self.hidden if c in self.fight.state.concealed]
        return [*hidden, *(self.names[c] for c in hidden), *(self.skills[c] for c in self.npcs)]


async def read_all(client: httpx.AsyncClient, enc: str, headers: dict[str, str], version: int) -> list[httpx.Response]:
    base = f"/encounters/{enc}"
    gets: list[tuple[str, dict[str, Any]]] = [
        (base, {}), (f"{base}/events", {}), (f"{base}/log", {}), (f"{base}/log", {"format": "text"}),
        (f"{base}/summary", {}), (f"{base}/statistics", {}), (f"{base}/audit", {}), ("/encounters", {}),
        (f"{base}/timeline.svg", {}),
        (f"{base}/live", {"after": 0, "follow": "false"}),
        (f"{base}/live", {"after": version // 2, "follow": "false"}),
        (f"{base}/live", {"after": version // 2, "follow": "false", "state": "full"}),
    ]
    after = 0
    while True:  # the events, page by page
        r = await client.get(f"{base}/events", params={"after": after, "limit": 7}, headers=headers)
        gets.append((f"{base}/events", {"after": after, "limit": 7}))
        if not r.json()["has_more"]:
            break
        after = r.json()["next_after"]
    gets += [(f"{base}/state", {"at": v}) for v in range(1, version + 1)]
    out = []
    for path, params in gets:
        r = await client.get(path, params=params, headers=headers)
        assert r.status_code == 200, (path, params, r.text)
        out.append(r)
    return out


async def commands_naming_the_hidden(client: httpx.AsyncClient, enc: str, table: Table,
                                     headers: dict[str, str]) -> list[tuple[httpx.Response, str]]:
    """What the player's commands are answered: ones naming every combatant, hidden or not. A
    command naming a hidden combatant must get the answer the same command naming an id that
    was never in the fight gets (which may repeat the id sent): each reply comes with the text
    to check, that echo taken out once it is shown to be the stranger's answer."""
    me = table.players[0]
    out = []
    for other in table.ids[1:]:
        for body in ({"type": "Attack", "combatant_id": me, "target": other, "attack": "LightMelee", "band": "Melee"},
                     {"type": "Taunt", "combatant_id": me, "target": other},
                     {"type": "Move", "combatant_id": me, "toward": other, "band": "Near"},
                     {"type": "EndTurn", "combatant_id": me}):
            hidden = other in table.fight.state.concealed and other in json.dumps(body)
            if hidden:
                stranger = str(uuid.uuid4())
                unknown = json.loads(json.dumps(body).replace(other, stranger))
                told = await client.post(f"/encounters/{enc}/commands", json=unknown, headers=headers)
            r = await client.post(f"/encounters/{enc}/commands", json=body, headers=headers)
            assert r.status_code < 500, r.text
            text = r.text
            if hidden:
                assert (r.status_code, text.replace(other, stranger)) == (told.status_code, told.text), \
                    "a command naming a hidden combatant is answered unlike one naming no one"
                text = text.replace(other, "<an id the player sent>")
            out.append((r, text))
            if r.status_code == 200:
                return out  # the fight moved on: the reads after it are checked again
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), names=st.lists(distinct, min_size=5, max_size=5, unique=True),
       hidden=st.integers(1, 2), steps=st.integers(8, 40), reveal=st.booleans())
async def test_nothing_hidden_reaches_a_player_or_a_spectator(
        database_url: str, seed: int, names: list[str], hidden: int, steps: int, reveal: bool) -> None:
    table = Table(seed, names, hidden, steps, reveal)
    gm_secret = new_secret()
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    try:
        await append(pool, table.fight, gm_secret=gm_secret)
    finally:
        await pool.close()
    enc, gm = table.fight.encounter_id, bearer(gm_secret)
    async with app_client(database_url) as client:
        async def mint(body: dict[str, Any]) -> dict[str, str]:
            r = await client.post(f"/encounters/{enc}/tokens", json=body, headers=gm)
            assert r.status_code == 201, r.text
            return bearer(r.json()["token"])

        viewers = {"player": await mint({"role": "player", "combatant_ids": [table.players[0]]}),
                   "spectator": await mint({"role": "spectator"})}
        await until_projected(client, enc, gm)
        version = (await client.get(f"/encounters/{enc}", headers=gm)).json()["version"]
        seen_by_gm = "".join(compact(r) for r in await read_all(client, enc, gm, version))
        for trace in table.unseen():
            if trace in table.fight.state.concealed:
                assert trace in seen_by_gm  # the test looks for things that are there
        replies = await commands_naming_the_hidden(client, enc, table, viewers["player"])
        await until_projected(client, enc, gm)
        version = (await client.get(f"/encounters/{enc}", headers=gm)).json()["version"]
        for who, headers in viewers.items():
            responses = [(r, r.text) for r in await read_all(client, enc, headers, version)]
            for r, raw in responses + (replies if who == "player" else []):
                text = compact(r) if raw == r.text else raw
                for trace in table.unseen():
                    assert trace not in text and trace not in raw, \
                        f"{trace!r} reached the {who} in {r.request.method} {r.request.url}: {text[:2000]}"
