"""Issue 24: outbound webhooks, against a receiver the tests start on 127.0.0.1.

"Delivery is at least once, in version order per encounter, each delivery carrying the
encounter id, versions, the events as that view may see them ... and the readable log's lines
for them." Signed as Standard Webhooks say (tests/integration/webhooks/test_standard_webhooks.py); a failing receiver retried with
backoff and paused after too many failures; addresses checked at registration; two server
processes deliver each event once; a hidden combatant reaches a spectator webhook only as
``Redacted``; the receiver never sees a token."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from server.settings import Settings
from server.webhooks.delivery import WebhookSettings
from tests.conftest import app_client
from tests.integration.fight import add, command, mint, open_encounter
from tests.integration.receiver import HANG, WEBHOOK_ID, Receiver, receiving

# Tests reach their own receiver on 127.0.0.1; retries come quickly, a claim lapses soon.
FAST = WebhookSettings(allow_private=True, backoff_seconds=0.05, max_backoff_seconds=0.2, lease_seconds=1.0,
                       poll_seconds=0.2, timeout_seconds=3.0, max_failures=50)


@asynccontextmanager
async def served(database_url: str, webhooks: WebhookSettings = FAST, operator_key: str | None = None
                 ) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings.from_env()
    if operator_key is not None:
        settings = Settings(**{**settings.__dict__, "operator_key": operator_key})
    async with app_client(database_url, settings, webhook_settings=webhooks) as client:
        yield client


async def fight(client: httpx.AsyncClient, enc: str, *, hidden: bool = False) -> dict[str, str]:
    """Mira and a Bandit (and, if asked, a hidden Lurker), initiative rolled, the fight begun,
    two turns ended: the ids by name."""
    ids = {"Mira": await add(client, enc, "Mira", modifier=2),
           "Bandit": await add(client, enc, "Bandit", controller="gm", modifier=1)}
    if hidden:
        r = await client.post(f"/encounters/{enc}/combatants", json={
            "name": "Zqlurker", "side": "enemies", "controller": "gm", "hidden": True,
            "sheet": {"initiative_modifier": 0}})
        assert r.status_code == 201, r.text
        ids["Lurker"] = r.json()["events"][0]["data"]["combatant_id"]
    await command(client, enc, {"type": "RollInitiative"})
    await command(client, enc, {"type": "StartEncounter"})
    for _ in range(2):
        state = (await client.get(f"/encounters/{enc}")).json()
        await command(client, enc, {"type": "EndTurn", "combatant_id": state["turn"]})
    return ids


async def register(client: httpx.AsyncClient, enc: str, receiver: Receiver, path: str = "/hook",
                   expect: int = 201, **body: Any) -> dict[str, Any]:
    r = await client.post(f"/encounters/{enc}/webhooks", json={"url": receiver.url(path), **body})
    assert r.status_code == expect, r.text
    return r.json()


async def recovered(client: httpx.AsyncClient, enc: str, timeout: float = 10.0) -> dict[str, Any]:
    """The encounter's one webhook once its failures are cleared (else as it was at the deadline)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        [seen] = (await client.get(f"/encounters/{enc}/webhooks")).json()
        if seen["failures"] == 0 or asyncio.get_running_loop().time() > deadline:
            return dict(seen)
        await asyncio.sleep(0.02)


async def version_of(client: httpx.AsyncClient, enc: str) -> int:
    return (await client.get(f"/encounters/{enc}")).json()["version"]


async def test_deliveries_arrive_in_order_signed_with_the_log_and_no_token(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            gm_token = client.headers["Authorization"].split()[1]
            hook = await register(client, enc, receiver, after_version=0)
            assert hook["secret"].startswith("whsec_") and hook["status"] == "active"
            ids = await fight(client, enc)
            player = await mint(client, enc, "player", [ids["Mira"]])
            await command(client, enc, {"type": "EndTurn", "combatant_id": (await client.get(
                f"/encounters/{enc}")).json()["turn"]}, Authorization=client.headers["Authorization"])
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
            listed = (await client.get(f"/encounters/{enc}/webhooks")).json()
            assert [w["webhook_id"] for w in listed] == [hook["webhook_id"]] and "secret" not in listed[0]
            assert listed[0]["delivered_version"] == version and listed[0]["last_status"] == 200
    assert receiver.versions() == list(range(1, version + 1))  # every event, once, in order
    for r in receiver.ok():
        body = r.json
        assert r.signed_by(hook["secret"]) and body["webhook_id"] == hook["webhook_id"]
        assert body["encounter_id"] == enc and body["view"] == "spectator"
        assert body["version"] == body["events"][-1]["version"] and body["after_version"] < body["events"][0]["version"]
        assert body["log"], "each delivery tells its events in the log's words"
        for secret in (gm_token, player["Authorization"].split()[1]):
            assert secret not in r.body.decode() and secret not in str(r.headers)
    told = [line for r in receiver.ok() for line in r.json["log"]]
    assert any("Mira" in line for line in told)
    assert not receiver.ok()[0].signed_by("whsec_another"), "a signature checks the secret"


async def test_a_hidden_combatant_reaches_a_spectator_webhook_only_as_redacted(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            await register(client, enc, receiver, "/spectator", after_version=0)
            await register(client, enc, receiver, "/gm", view="gm", after_version=0)
            ids = await fight(client, enc, hidden=True)
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions("/spectator")[-1:] == [version]
                                 and receiver.versions("/gm")[-1:] == [version])
            spectator = b"".join(r.body for r in receiver.ok("/spectator")).decode()
            gm = b"".join(r.body for r in receiver.ok("/gm")).decode()
            assert ids["Lurker"] in gm and "Zqlurker" in gm  # the GM's view has it
            assert ids["Lurker"] not in spectator and "Zqlurker" not in spectator
            types = [e["type"] for r in receiver.ok("/spectator") for e in r.json["events"]]
            assert "Redacted" in types
            # revealed, it is the table's from then on
            await command(client, enc, {"type": "RevealCombatant", "combatant_id": ids["Lurker"]})
            await receiver.until(lambda: receiver.versions("/spectator")[-1:] == [version + 1])
            assert "Zqlurker" in receiver.ok("/spectator")[-1].body.decode()


async def test_a_failing_receiver_is_retried_and_gets_every_event_once_it_recovers(database_url: str) -> None:
    with receiving(plan=lambda n: 500 if n < 4 else 200) as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            hook = await register(client, enc, receiver, after_version=0)
            await fight(client, enc)
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
            seen = await recovered(client, enc)  # the deliverer records the 200 once the receiver has answered
    assert [r.answered for r in receiver.received[:4]] == [500] * 4
    delivered = receiver.versions()
    assert sorted(set(delivered)) == list(range(1, version + 1)), "no gap"
    assert delivered == sorted(delivered), "in version order"
    assert seen["status"] == "active" and seen["failures"] == 0 and seen["last_error"] is None
    assert hook["webhook_id"] == seen["webhook_id"]
    ids: dict[bytes, set[str]] = {}  # a body sent again (a retry) is the same message: the same webhook-id
    for r in receiver.received:
        ids.setdefault(r.body, set()).add(r.headers[WEBHOOK_ID])
    assert all(len(one) == 1 for one in ids.values()) and len(set.union(*ids.values())) == len(ids)


async def test_after_too_many_failures_the_webhook_is_paused_and_says_why_until_resumed(database_url: str) -> None:
    answers = {"status": 503}
    with receiving(plan=lambda n: answers["status"]) as receiver:
        async with served(database_url, WebhookSettings(**{**FAST.__dict__, "max_failures": 3})) as client:
            enc = await open_encounter(client)
            hook = await register(client, enc, receiver, after_version=0)
            await fight(client, enc)
            url = f"/encounters/{enc}/webhooks"
            await receiver.until(lambda: len(receiver.received) >= 3)
            for _ in range(100):
                [seen] = (await client.get(url)).json()
                if seen["status"] == "paused":
                    break
                await receiver.until(lambda: True)
            assert seen["status"] == "paused" and seen["failures"] == 3, seen
            assert seen["last_status"] == 503 and "503" in seen["last_error"]
            assert len(receiver.received) == 3  # paused: no more attempts
            answers["status"] = 200
            r = await client.post(f"{url}/{hook['webhook_id']}/resume", json={})
            assert r.status_code == 200 and r.json()["status"] == "active"
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
            assert receiver.versions() == list(range(1, version + 1))


async def test_a_refused_address_is_refused_at_registration_with_a_clear_problem(database_url: str) -> None:
    strict = WebhookSettings(**{**FAST.__dict__, "allow_private": False})
    async with served(database_url, strict) as client:
        enc = await open_encounter(client)
        for url, why in (("http://127.0.0.1:9/hook", "loopback"), ("http://10.1.2.3/hook", "private"),
                         ("http://169.254.169.254/latest", "link-local"), ("http://localhost:9/", "private"),
                         ("ftp://example.org/x", "only http"), ("http://user:pw@example.org/", "credentials"),
                         ("not a url", "only http"),
                         # issue 40: IPv6 forms that carry an IPv4 address are judged as that address
                         ("http://[::127.0.0.1]:9/", "127.0.0.1"), ("http://[::ffff:10.0.0.1]/", "private"),
                         ("http://[64:ff9b::7f00:1]/", "127.0.0.1"), ("http://[64:ff9b::a9fe:a9fe]/", "169.254.169.254"),
                         ("http://[2002:7f00:1::1]/", "127.0.0.1"), ("http://[2002:a00:1::1]/", "10.0.0.1"),
                         ("http://[64:ff9b:1::7f00:1]/", "private")):
            r = await client.post(f"/encounters/{enc}/webhooks", json={"url": url})
            assert r.status_code == 422, (url, r.text)
            assert r.json()["code"] == "webhook_address_refused" and why in r.json()["detail"], (url, r.json())
        r = await client.post(f"/encounters/{enc}/webhooks", json={"url": "http://127.0.0.1:9/", "event_types": ["Nope"]})
        assert r.status_code == 422
        r = await client.post(f"/encounters/{enc}/webhooks", json={"url": "https://93.184.216.34/", "event_types": ["Nope"]})
        assert r.status_code == 422 and r.json()["code"] == "unknown_event_type"
        assert (await client.get(f"/encounters/{enc}/webhooks")).json() == []


async def test_only_the_gm_registers_and_the_event_types_asked_for_are_delivered(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            spectator = await mint(client, enc, "spectator")
            r = await client.post(f"/encounters/{enc}/webhooks", json={"url": receiver.url()}, headers=spectator)
            assert r.status_code == 403 and r.json()["code"] == "read_only_token"
            ids = await fight(client, enc)
            player = await mint(client, enc, "player", [ids["Mira"]])
            r = await client.post(f"/encounters/{enc}/webhooks", json={"url": receiver.url()}, headers=player)
            assert r.status_code == 403 and r.json()["code"] == "gm_only"
            hook = await register(client, enc, receiver, after_version=0, event_types=["TurnEnded"])
            version = await version_of(client, enc)
            await receiver.until(lambda: len(receiver.versions()) == 2)
            assert {e["type"] for r in receiver.ok() for e in r.json["events"]} == {"TurnEnded"}
            r = await client.delete(f"/encounters/{enc}/webhooks/{hook['webhook_id']}")
            assert r.status_code == 204
            assert (await client.delete(f"/encounters/{enc}/webhooks/{hook['webhook_id']}")).status_code == 404
            assert (await client.get(f"/encounters/{enc}/webhooks")).json() == []
            assert version > 2


async def test_a_discord_webhook_gets_the_logs_lines_as_messages(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            await register(client, enc, receiver, after_version=0, format="discord")
            await fight(client, enc)
            await receiver.until(lambda: any("Mira" in r.json["content"] for r in receiver.ok()))
    for r in receiver.ok():
        assert set(r.json) == {"content", "allowed_mentions"} and 0 < len(r.json["content"]) <= 2000
        assert r.json["allowed_mentions"] == {"parse": []}


async def test_a_slow_receiver_never_holds_back_another(database_url: str) -> None:
    with receiving(plan=lambda n: HANG) as slow, receiving() as fast:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            await register(client, enc, slow, after_version=0)
            await register(client, enc, fast, after_version=0)
            await fight(client, enc)
            version = await version_of(client, enc)
            await fast.until(lambda: fast.versions()[-1:] == [version])  # while the slow one still hangs
            assert slow.arrived and not slow.received
            slow.released.set()


@asynccontextmanager
async def two_processes_delivering(database_url: str, receiver: Receiver
                                   ) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient, str]]:
    """Two server processes on one database (both as the GM), an encounter whose webhook posts
    to ``receiver`` from version 0, and its fight begun: (one, two, the encounter)."""
    async with served(database_url) as one, served(database_url) as two:
        enc = await open_encounter(one)
        two.headers["Authorization"] = one.headers["Authorization"]
        await register(one, enc, receiver, after_version=0)
        await fight(one, enc)
        yield one, two, enc


async def test_two_server_processes_deliver_each_event_once(database_url: str) -> None:
    with receiving() as receiver:
        async with two_processes_delivering(database_url, receiver) as (one, two, enc):
            for _ in range(3):
                state = (await two.get(f"/encounters/{enc}")).json()
                await command(two, enc, {"type": "EndTurn", "combatant_id": state["turn"]})
            version = await version_of(one, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
    assert receiver.versions() == list(range(1, version + 1))


async def test_a_deliverer_keeps_only_an_encounters_newest_events_and_still_tells_the_whole_story(
        database_url: str, monkeypatch: Any) -> None:
    """The soak's memory (issue 43): a deliverer kept every event of up to 256 encounters. It keeps
    the newest few; a story told on by the other process reads what it missed from PostgreSQL,
    and the lines delivered are still the readable log's."""
    from server.webhooks import delivery

    monkeypatch.setattr(delivery, "EVENTS_KEPT", 3)
    with receiving() as receiver:
        async with two_processes_delivering(database_url, receiver) as (one, two, enc):
            for client in (two, one, two, one, two):  # the two processes take turns to deliver
                state = (await client.get(f"/encounters/{enc}")).json()
                await command(client, enc, {"type": "EndTurn", "combatant_id": state["turn"]})
                version = await version_of(one, enc)
                await receiver.until(lambda v=version: receiver.versions()[-1:] == [v])
            spectator = await mint(one, enc, "spectator")
            log = (await one.get(f"/encounters/{enc}/log", headers=spectator)).json()
            kept = [c._transport.app.state.deliverer._recent.get(enc) for c in (one, two)]  # type: ignore[attr-defined]
    assert receiver.versions() == list(range(1, version + 1))
    assert [line for r in receiver.ok() for line in r.json["log"]] == [e["sentence"] for e in log["entries"]]
    assert version > 10 and all(k is None or len(k.events) <= 3 for k in kept), "only the newest few are kept"


async def test_the_operators_webhook_receives_every_encounter_from_now_on(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url, operator_key="op-key") as client:
            r = await client.post("/webhooks", json={"url": receiver.url()})
            assert r.status_code == 401 and r.json()["code"] == "operator_key_required"
            r = await client.post("/webhooks", json={"url": receiver.url()}, headers={"Authorization": "Bearer nope"})
            assert r.status_code == 403 and r.json()["code"] == "operator_key_invalid"
            client.headers["Authorization"] = "Bearer op-key"
            r = await client.post("/webhooks", json={"url": receiver.url(), "view": "gm"})
            assert r.status_code == 201, r.text
            hook = r.json()
            assert hook["encounter_id"] is None
            assert [w["webhook_id"] for w in (await client.get("/webhooks")).json()] == [hook["webhook_id"]]
            encounters, gm = [], {}
            for name in ("First", "Second"):
                client.headers["Authorization"] = "Bearer op-key"
                encounters.append(await open_encounter(client, name=name))
                gm[encounters[-1]] = client.headers["Authorization"]
                await fight(client, encounters[-1])
            for enc in encounters:
                client.headers["Authorization"] = gm[enc]
                version = await version_of(client, enc)
                await receiver.until(lambda enc=enc, version=version: [
                    e["version"] for r in receiver.ok() if r.json["encounter_id"] == enc
                    for e in r.json["events"]][-1:] == [version])
            client.headers["Authorization"] = "Bearer op-key"
            assert (await client.delete(f"/webhooks/{hook['webhook_id']}")).status_code == 204
    for enc in encounters:
        delivered = [e["version"] for r in receiver.ok() if r.json["encounter_id"] == enc for e in r.json["events"]]
        assert delivered == sorted(set(delivered)) and delivered[0] == 1


async def test_a_server_without_an_operator_key_registers_no_webhook_for_every_encounter(database_url: str) -> None:
    async with served(database_url) as client:
        r = await client.post("/webhooks", json={"url": "https://example.org/hook"})
        assert r.status_code == 403 and r.json()["code"] == "operator_key_not_set"


async def test_a_redirect_is_not_followed_and_a_long_answer_is_not_read_to_its_end(database_url: str) -> None:
    """"no redirects followed; a short timeout and a cap on the response read.\""""
    with receiving(plan=lambda n: 302 if n == 0 else 200) as receiver:
        receiver.answer_bytes = 20 * 1024 * 1024  # 20 MiB of answer: read no further than the cap
        async with served(database_url) as client:
            enc = await open_encounter(client)
            await register(client, enc, receiver, after_version=0)
            await receiver.until(lambda: len(receiver.received) >= 1)
            [seen] = (await client.get(f"/encounters/{enc}/webhooks")).json()
            for _ in range(200):
                if seen["last_status"] is not None:
                    break
                await receiver.until(lambda: True)
                [seen] = (await client.get(f"/encounters/{enc}/webhooks")).json()
            assert seen["last_status"] == 302 and "redirects are not followed" in seen["last_error"]
            await fight(client, enc)
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
    assert "/elsewhere" not in receiver.arrived
    assert receiver.versions() == list(range(1, version + 1))


async def test_a_delivery_connects_to_the_address_that_was_checked(database_url: str) -> None:
    """The host is resolved and checked before each delivery, and the delivery connects to that
    address (the name's ``Host`` kept): a name that resolves elsewhere a moment later reaches
    nothing the check did not see."""
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            r = await client.post(f"/encounters/{enc}/webhooks",
                                  json={"url": f"http://localhost:{receiver.port}/hook", "after_version": 0})
            assert r.status_code == 201, r.text
            await receiver.until(lambda: bool(receiver.ok()))
    assert receiver.ok()[0].headers["Host"] == f"localhost:{receiver.port}"


def test_pinning_keeps_the_name_for_the_host_header_and_tls() -> None:
    from server.webhooks.delivery import pinned

    assert pinned("https://bot.example.org:8443/in?x=1", "93.184.216.34") == (
        "https://93.184.216.34:8443/in?x=1", {"Host": "bot.example.org:8443"}, {"sni_hostname": "bot.example.org"})
    assert pinned("http://bot.example.org/in", "2606:2800:220:1::1") == (
        "http://[2606:2800:220:1::1]/in", {"Host": "bot.example.org"}, {})
