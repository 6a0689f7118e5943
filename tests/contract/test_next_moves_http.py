"""The next moves' contract through the HTTP API, against PostgreSQL, for every ruleset the
server offers (issue 37, "Contract properties over every registered ruleset"):

- *Sound*: every offered action sent as it is (with random faces for the dice it lists, the
  encounter's dice being ``reported``) is accepted;
- *Live*: in every state reached that is not over, some viewer has a move or a decision;
- *Complete (sampled)*: a command of the ruleset's walk (its package's contract.py)
  that the server accepts while no decision waits was offered in shape: its type and its actor
  among the actions;
- *Hidden*: no player's ``actions`` or ``waiting_on`` carry a hidden combatant's id or name, nor
  the version of an event about one.

The table: players and NPCs with the walk's random sheets, one NPC hidden, through the API.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.ruleset import Ruleset
from server.cli.autoplay import faces_for
from tests.conftest import app_client
from tests.contract.rulesets import OFFERED, each_ruleset
from tests.contract.walk import UNLIKELY, walk_of

STEPS = 60


async def _send(client: Any, enc: str, body: dict[str, Any], faces: list[int], headers: dict[str, str],
                rng: random.Random) -> Any:
    """Send ``body``, rolling the dice a ``dice_missing`` names (as a client does); the last answer."""
    for _ in range(32):
        r = await client.post(f"/encounters/{enc}/commands", headers=headers,
                              json={**body, "dice": faces} if faces else body)
        if r.status_code == 422 and r.json().get("code") == "dice_missing":
            faces = [*faces, rng.randint(1, int(r.json()["details"]["needed_sides"]))]
            continue
        if r.status_code == 422 and r.json().get("code") == "dice_unused":
            faces = faces[:int(r.json()["details"]["used"])]
            continue
        return r
    raise AssertionError(f"the dice of {body} never settled")


def _text(value: Any) -> str:
    return json.dumps(value)


async def _seat(client: Any, ruleset: Ruleset, rng: random.Random) -> tuple[str, dict[str, str], dict[str, dict[str, str]], dict[str, str]]:
    r = await client.post("/encounters", json={"ruleset": ruleset.id, "name": "Next moves", "dice_policy": "reported"})
    assert r.status_code == 201, r.text
    enc = r.json()["encounter_id"]
    gm = {"Authorization": f"Bearer {r.json()['gm_token']['token']}"}
    walk = walk_of(ruleset)
    players: dict[str, dict[str, str]] = {}
    hidden: dict[str, str] = {}
    for i, (controller, secret) in enumerate([("player", False), ("player", False), ("gm", False), ("gm", True)]):
        name = f"Zq{UNLIKELY} {i}" if secret else f"Fighter {i}"
        r = await client.post(f"/encounters/{enc}/combatants", headers=gm, json={
            "name": name, "side": "party" if controller == "player" else "enemies", "controller": controller,
            "sheet": walk.sheet(rng, controller == "gm"), "hidden": secret})
        assert r.status_code == 201, r.text
        cid = r.json()["events"][0]["data"]["combatant_id"]
        if secret:
            hidden[cid] = name
        if controller == "player":
            t = await client.post(f"/encounters/{enc}/tokens", headers=gm, json={"role": "player", "combatant_ids": [cid]})
            players[cid] = {"Authorization": f"Bearer {t.json()['token']}"}
    return enc, gm, players, hidden


def _in_shape(body: dict[str, Any], actor_field: str | None, offered: list[dict[str, Any]]) -> bool:
    """Whether an action of ``body``'s type, for the same actor, was offered."""
    for a in offered:
        c = a["command"]
        if c["type"] != body["type"]:
            continue
        if actor_field is None or c.get(actor_field) == body.get(actor_field):
            return True
    return False


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
@each_ruleset(OFFERED)
async def test_offered_moves_are_sound_live_complete_and_hide_nothing(ruleset: Ruleset, database_url: str,
                                                                      seed: int) -> None:
    rng = random.Random(seed)
    walk = walk_of(ruleset)
    async with app_client(database_url) as client:
        enc, gm, players, hidden = await _seat(client, ruleset, rng)
        viewers = [gm, *players.values()]
        sent = 0
        for _ in range(STEPS):
            answers = [(who, (await client.get(f"/encounters/{enc}/actions", headers=who)).json()) for who in viewers]
            gm_moves = answers[0][1]
            state = (await client.get(f"/encounters/{enc}", headers=gm)).json()
            # hidden: nothing a player is offered or told names a hidden combatant, or an event about one
            concealed_versions = {int(v) for v in state.get("concealed_events", {})}
            for who, moves in answers[1:]:
                text = _text({"actions": moves["actions"], "waiting_on": moves["waiting_on"]})
                for cid, name in hidden.items():
                    if cid in state.get("concealed", []):
                        assert cid not in text and name not in text, f"a player's next moves name {name}: {text}"
                for a in moves["actions"]:
                    named = _versions_named(a["command"])
                    assert not named & concealed_versions, f"a player's action names a hidden event: {a}"
            if state["status"] == "ended":
                break
            offered = [(who, a) for who, moves in answers for a in moves["actions"]]
            moving = [(who, a) for who, a in offered if a["kind"] in ("decision", "move")]
            if state["status"] == "active" and not gm_moves["over"]:
                assert moving, f"live: the fight waits on {gm_moves['waiting_on']} and nobody is offered a move"
                assert gm_moves["waiting_on"], "the fight is not over and waits on nobody"
            # complete (sampled): a walk command the server takes was offered in shape (while no
            # decision waits: then the answers are what is offered, whatever else the engine takes)
            deciding = any(a["kind"] == "decision" for _, a in offered)
            # (not once the fight is over: then only its end is offered, whatever the engine still takes)
            if state["status"] == "active" and not deciding and not gm_moves["over"] and rng.random() < 0.3:
                for move in walk.moves(ruleset, await _replayed(client, enc, gm, ruleset), rng)[:3]:
                    body = msgspec.to_builtins(move)
                    actor = type(move).actor_field
                    r = await client.post(f"/encounters/{enc}/commands", headers=gm, json=body)
                    if r.status_code == 200:
                        assert _in_shape(body, actor, [a for _, a in offered]), \
                            f"{body['type']} was taken but not offered: {body}"
                        break
                    assert r.status_code < 500, r.text
                continue
            # sound: an offered action, sent as it is, is accepted
            if gm_moves["over"]:
                chosen = next(((w, a) for w, a in offered if a["command"]["type"] == "EndEncounter"), None)
            elif state["status"] == "setup":
                chosen = next(((w, a) for w, a in offered if a["command"]["type"] == "StartEncounter"), None) \
                    or next(((w, a) for w, a in offered if a["command"]["type"] == "RollInitiative"), None)
            else:
                chosen = rng.choice(moving)
            assert chosen is not None, f"nothing to do at {state['status']}: {gm_moves}"
            who, action = chosen
            r = await _send(client, enc, action["command"], faces_for(action, rng), who, rng)
            assert r.status_code == 200, f"the offer {action['label']} {action['command']} was refused: {r.text}"
            sent += 1
        assert sent > 5


# fields that name an event by its version (Realms lets a target react to an attack by a creature
# unseen, its Hidden rule: the window's id carries the attack's version, which the events already
# show as Redacted; so a window id is not counted here)
REFS = ("attack", "version", "check", "exchange", "to_version")


def _versions_named(command: dict[str, Any]) -> set[int]:
    """The event versions a command's reference fields name (``attack: 15``, ``window: "attack:15:roll"``)."""
    out: set[int] = set()
    for key in REFS:
        value = command.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out.add(value)
        elif isinstance(value, str):
            out.update(int(part) for part in value.replace("-", ":").split(":") if part.isdigit())
    return out


async def _replayed(client: Any, enc: str, gm: dict[str, str], ruleset: Ruleset) -> Any:
    """The encounter's state replayed from its history (as the GM reads it), in the domain's types."""
    events, after = [], 0
    while True:
        page = (await client.get(f"/encounters/{enc}/events?after={after}&limit=500", headers=gm)).json()
        events += [ruleset.decode_event(e["type"], e["schema_version"], msgspec.json.encode(e["data"]))
                   for e in page["events"]]
        after = page["next_after"]
        if not page["has_more"]:
            return ruleset.replay(events)
