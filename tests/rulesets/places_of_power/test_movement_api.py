"""Range bands, moving, Dash, Disengage, Shove and Pull your Punch through HTTP, against the
real server and PostgreSQL, with reported dice. Each test ends by replaying the stored
events and comparing the result with what the server serves the GM.

Rules quoted are from ../shared/rules/places-of-power-combat.txt. The table (Mira and Kess,
players with their own tokens; the Bandit, the GM's NPC) is test_attack_exchange's:
Mira Strength D10, Agility D8, Athletics D6, a Knife (Melee) and a Pistol (Close, Near);
Kess Strength D8, Agility D8, Athletics D6; the Bandit Strength D10, Agility D6,
Athletics D6, a Knife and an Axe.
"""

from __future__ import annotations

from typing import Any

from tests.integration.fight import command
from tests.rulesets.places_of_power.test_attack_exchange_api import BANDIT, PLAYERS_FIRST, Table, assert_replays, choices, flat


def key(t: Table, a: str, b: str) -> str:
    """How ``rules.positions.ranges`` names the pair: the two ids, sorted."""
    return "|".join(sorted((t.id(a), t.id(b))))


async def positions(t: Table) -> dict[str, Any]:
    return dict((await t.state())["rules"]["positions"])


async def place(t: Table, a: str, b: str, band: str) -> None:
    (placed,) = flat(await t.gm("SetRange", a=t.id(a), b=t.id(b), band=band))
    assert (placed["type"], placed["band"]) == ("RangeSet", band)


async def move(t: Table, who: str, toward: str, band: str, *, expect: int = 200) -> Any:
    out = await t.send(who, "Move", expect=expect, combatant_id=t.id(who), toward=t.id(toward), band=band)
    return flat(out) if expect == 200 else out


async def test_the_gm_places_and_a_player_moves_with_their_own_token(client: Any, conn: Any) -> None:
    """"Everything in a combat encounter is considered to be either at Melee, Close, Near, Far,
    or Long Range." "Far: ... will required more than a single movement action to reach ...
    You can spend an Action Point to use your Dash ability to reach something that is Far from
    you in a single turn." "Dash (1 AP): Double your normal movement range for this turn.\""""
    t = await Table(client).open(PLAYERS_FIRST)
    # Placing combatants is the GM's: a player's token cannot.
    refused = await t.send("Mira", "SetRange", expect=403, a=t.id("Mira"), b=t.id("Bandit"), band="Melee")
    assert refused["code"] == "gm_only"
    await place(t, "Mira", "Bandit", "Far")
    assert (await positions(t))["ranges"] == {key(t, "Mira", "Bandit"): "Far"}

    # Far to Melee is 8 half-steps; a turn's movement is 4: a 422 problem with the code.
    r = await client.post(f"/encounters/{t.enc}/commands", headers=t.tokens["Mira"],
                          json={"type": "Move", "combatant_id": t.id("Mira"), "toward": t.id("Bandit"),
                                "band": "Melee"})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["code"] == "too_far"
    assert problem["details"] == {"needed": 8, "left": 4}
    # Kess's token cannot move Mira.
    refused = await t.send("Kess", "Move", expect=403, combatant_id=t.id("Mira"), toward=t.id("Bandit"),
                           band="Near")
    assert refused["code"] == "not_your_combatant"

    # Dash, then the whole way.
    (dashed,) = flat(await t.send("Mira", "TakeAction", combatant_id=t.id("Mira"), action="Dash"))
    assert (dashed["type"], dashed["action"], dashed["action_points"]) == ("ActionTaken", "Dash", 1)
    again = await t.send("Mira", "TakeAction", expect=422, combatant_id=t.id("Mira"), action="Dash")
    assert again["code"] == "already_dashed"
    (moved,) = await move(t, "Mira", "Bandit", "Melee")
    assert (moved["type"], moved["from_band"], moved["band"], moved["half_steps"]) == ("Moved", "Far", "Melee", 8)
    p = await positions(t)
    assert p["ranges"] == {key(t, "Mira", "Bandit"): "Melee"}
    assert (p["used"], p["dashed"], p["moved"]) == (8, True, True)
    assert await t.ap("Mira") == 2
    # Mira's own token reads the positions too.
    r = await client.get(f"/encounters/{t.enc}", headers=t.tokens["Mira"])
    assert r.status_code == 200, r.text
    assert r.json()["rules"]["positions"]["ranges"] == {key(t, "Mira", "Bandit"): "Melee"}

    # An attack names the tracked band: the Pistol at Near is refused, they are at Melee.
    refused = await t.send("Mira", "Attack", [4, 6], expect=422, combatant_id=t.id("Mira"), target=t.id("Bandit"),
                           attack="Ranged", weapon="Pistol", band="Near")
    assert refused["code"] == "wrong_range"
    # A free action: one of each kind a turn.
    shout = {"type": "FreeAction", "combatant_id": t.id("Mira"), "kind": "ShoutCommand", "words": "Flank him!"}
    (taken,) = flat(await command(client, t.enc, shout, **t.tokens["Mira"]))
    assert (taken["type"], taken["words"]) == ("FreeActionTaken", "Flank him!")
    refused = await command(client, t.enc, shout, expect=422, **t.tokens["Mira"])
    assert refused["code"] == "free_action_used"

    # The next turn (Kess's) starts with fresh movement; the bands stay.
    await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"))
    p = await positions(t)
    assert (p["used"], p["dashed"], p["moved"], p["free_actions"]) == (0, False, False, [])
    assert p["ranges"] == {key(t, "Mira", "Bandit"): "Melee"}
    await assert_replays(t, conn)


async def test_disengage_then_move_and_a_shove(client: Any, conn: Any) -> None:
    """"If you wish to pull back from melee combat you must spend 1 Action Point and roll an
    Athletics + Agility Check at Normal difficulty. If you are successful then you
    automatically move out of range of your opponent. You are then free to move as normal".
    "Shove (1 AP): ... an Opposed Roll between your Athletics + Strength value and your
    targets Athletics + Strength value ... If you succeed then your target moves to Near range.
    If they are on the edge of something ... they will be considered Prone.\""""
    t = await Table(client).open(PLAYERS_FIRST)
    await place(t, "Mira", "Bandit", "Melee")
    await place(t, "Kess", "Bandit", "Close")
    refused = await move(t, "Mira", "Bandit", "Close", expect=422)
    assert refused["code"] == "engaged_in_melee"

    # Agility D8 + Athletics D6: 5 + 4 = 9, Normal: out of the Knife's and Axe's reach (Close).
    (rolled,) = flat(await t.send("Mira", "Disengage", [5, 4], combatant_id=t.id("Mira")))
    assert rolled["type"] == "DisengageRolled"
    assert [(d["sides"], d["face"], d["source"]) for d in rolled["dice"]] == [(8, 5, "reported"), (6, 4, "reported")]
    assert (rolled["total"], rolled["success"], rolled["action_points"]) == (9, True, 1)
    assert rolled["ranges"] == {t.id("Bandit"): "Close"}
    refused = await t.send("Mira", "Disengage", [8, 6], expect=422, combatant_id=t.id("Mira"))
    assert refused["code"] == "not_in_melee"
    (moved,) = await move(t, "Mira", "Bandit", "Near")  # the Move Action is still there
    assert moved["half_steps"] == 2
    assert (await positions(t))["ranges"][key(t, "Mira", "Bandit")] == "Near"
    assert await t.ap("Mira") == 2
    await t.send("Mira", "EndTurn", combatant_id=t.id("Mira"))

    # Kess shoves the Bandit at Close over an edge: Strength D8 + Athletics D6, 6 + 4 = 10
    # against Strength D10 + Athletics D6, 3 + 2 = 5.
    (shoved,) = flat(await t.send("Kess", "Shove", [6, 4, 3, 2], combatant_id=t.id("Kess"), target=t.id("Bandit"),
                                  edge=True))
    assert shoved["type"] == "ShoveRolled"
    assert (shoved["success"], shoved["fell"], shoved["action_points"]) == (True, True, 1)
    assert [d["sides"] for s in shoved["roll"]["sides"] for d in s["dice"]] == [8, 6, 10, 6]
    p = await positions(t)
    assert p["ranges"][key(t, "Kess", "Bandit")] == "Near"
    assert (await t.sheet("Bandit"))["prone"] is True
    # At Near now: out of a Shove's reach.
    refused = await t.send("Kess", "Shove", [6, 4, 3, 2], expect=422, combatant_id=t.id("Kess"),
                           target=t.id("Bandit"))
    assert refused["code"] == "out_of_range"
    await assert_replays(t, conn)


async def test_an_attack_exchange_ending_in_a_pulled_punch(client: Any, conn: Any) -> None:
    """"Pull your Punch (1 AP): If you inflict enough damage on a target that the would be
    killed outright, and they fail to defend against it, you can choose to spend an extra
    Action Point to reduce that damage down to the point that they would be rendered Helpless
    instead. However, you do need to re-roll your attack, and succeed\""""
    t = await Table(client).open(PLAYERS_FIRST, bandit={**BANDIT, "hits": 3})
    await place(t, "Mira", "Bandit", "Melee")
    # Strength D10 + Knife D8: 4 + 6 = 10 at Normal: the Knife's 2 Hits on an NPC at 3: killing.
    declared, _rolled = await t.attack("Mira", "Bandit", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    attack = declared["attack_id"]
    (blow,) = await t.defend("Bandit", attack, "TakeIt")
    assert (blow["type"], blow["damage"]) == ("LethalBlow", 2)
    ex = await t.exchange()
    assert (ex["stage"], ex["awaiting"]) == ("pull", t.id("Mira"))
    assert choices(ex) == {"PullYourPunch": 1, "LetItLand": 0}
    assert (await t.sheet("Bandit"))["hits"] == 3
    # Kess's token cannot decide for Mira; the turn waits.
    refused = await t.send("Kess", "PullYourPunch", [5, 4], expect=403, combatant_id=t.id("Mira"), attack=attack)
    assert refused["code"] == "not_your_combatant"
    refused = await t.send("Mira", "EndTurn", expect=422, combatant_id=t.id("Mira"))
    assert refused["code"] == "exchange_pending"

    # The re-roll: 5 + 4 = 9, Normal: success: 1 Hit, to exactly Helpless.
    pulled, hit, ended = flat(await t.send("Mira", "PullYourPunch", [5, 4], combatant_id=t.id("Mira"),
                                           attack=attack))
    assert pulled["type"] == "PunchPulled"
    assert [(d["sides"], d["face"]) for d in pulled["dice"]] == [(10, 5), (8, 4)]
    assert (pulled["success"], pulled["difficulty"], pulled["action_points"]) == (True, "Normal", 1)
    assert (hit["type"], hit["damage"], hit["hits"], hit["dead"], hit["helpless"]) == ("HitsTaken", 1, 4, False, True)
    assert (ended["type"], ended["result"]) == ("ExchangeEnded", "pulled")
    bandit = await t.sheet("Bandit")
    assert (bandit["hits"], bandit["dead"]) == (4, False)
    assert await t.ap("Mira") == 1
    assert await t.exchange() is None
    await assert_replays(t, conn)


async def test_a_failed_pull_lands_the_full_blow(client: Any, conn: Any) -> None:
    """"If you fail then the target takes the full damage.\""""
    t = await Table(client).open(PLAYERS_FIRST, bandit={**BANDIT, "hits": 3})
    declared, _ = await t.attack("Mira", "Bandit", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    await t.defend("Bandit", declared["attack_id"], "TakeIt")
    pulled, hit, _ = flat(await t.send("Mira", "PullYourPunch", [2, 3], combatant_id=t.id("Mira"),
                                       attack=declared["attack_id"]))
    assert (pulled["success"], hit["damage"], hit["dead"]) == (False, 2, True)
    assert (await t.sheet("Bandit"))["dead"] is True
    await assert_replays(t, conn)
