"""Places of Power's Critical Miss - Melee, mishap 2, through the server with reported dice: the
Action Point that regains the balance is offered in the next moves (``GET /encounters/{id}/actions``)
whenever it applies, on one's own turn and when attacked, and accepted as offered."""

from __future__ import annotations

from typing import Any

from tests.rulesets.places_of_power.test_attack_exchange_api import (
    PLAYERS_FIRST,
    Table,
    assert_replays,
    choices,
    flat,
    next_turn_of,
)

REGAIN = "Regain your balance (1 AP)"


async def offered(t: Table, who: str) -> dict[str, Any]:
    """The moves ``who``'s player is offered now, by label."""
    r = await t.client.get(f"/encounters/{t.enc}/actions", headers=t.tokens[who])
    assert r.status_code == 200, r.text
    return {a["label"]: a for a in r.json()["actions"]}


async def test_the_action_point_that_regains_the_balance_is_offered_while_it_applies(client: Any, conn: Any) -> None:
    """Critical Miss - Melee: "2. You are left unbalanced and struggling to keep your feel. You can
    spend an Action Point to regain your balance, otherwise you cannot use Evade, Parry, or Dive
    for the rest of this round." """
    t = await Table(client).open(PLAYERS_FIRST)
    assert REGAIN not in await offered(t, "Mira")
    declared, *_ = await t.attack("Mira", "Bandit", [3, 3], attack="LightMelee", weapon="Knife", band="Melee")
    await t.gm("ResolveMishap", attack=declared["attack_id"], result=2)
    mine = await offered(t, "Mira")  # on her own turn
    assert mine[REGAIN]["command"] == {"type": "RegainBalance", "combatant_id": t.id("Mira")}
    assert mine[REGAIN]["cost"] == {"AP": 1}

    await next_turn_of(t, "Bandit")
    declared, _ = await t.attack("Bandit", "Mira", [4, 6], attack="LightMelee", weapon="Knife", band="Melee")
    assert choices(await t.exchange()) == {"Tank": 2, "Armour": 0, "TakeIt": 0}  # no Evade, Parry or Dive
    mine = await offered(t, "Mira")  # when attacked: her answer, or the Action Point first
    assert REGAIN in mine and not any(label.startswith("Evade") for label in mine)
    out = await t.send("Mira", "RegainBalance", **{k: v for k, v in mine[REGAIN]["command"].items() if k != "type"})
    assert flat(out) == [{"type": "BalanceRegained", "combatant_id": t.id("Mira"), "action_points": 1}]
    assert choices(out["state"]["rules"]["exchange"]) == {"Evade": 1, "Parry": 1, "Armour": 0, "TakeIt": 0}
    assert REGAIN not in await offered(t, "Mira")  # regained: nothing left to regain
    evaded, ended = await t.defend("Mira", declared["attack_id"], "Evade", [6, 5])
    assert (evaded["success"], ended["result"]) == (True, "avoided")
    await assert_replays(t, conn)
