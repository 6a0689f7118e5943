"""Players join from their phones (issue 38): "Links carry what a page needs in their fragment:
the answer that opens an encounter includes the GM console link, and the answer that mints a
token includes that token's player or spectator link. The public base: FRACAS_PUBLIC_URL, else
the request's own base URL"; and "GET /encounters/{id}/timeline.svg also takes ?token= under the
same checks as the live stream's ?token=, so the GM can open it in a tab"."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from server.settings import Settings
from tests.conftest import app_client
from tests.integration.fight import POP, add, mint, open_encounter, started_fight


def fragment(link: str) -> dict[str, str]:
    """What a page reads of its link: ``#enc=...&token=...`` (a browser never sends it)."""
    parts = urlsplit(link)
    assert not parts.query, link  # the token rides in no query string: a server would log it
    return {k: v[0] for k, v in parse_qs(parts.fragment, strict_parsing=True).items()}


def page_of(link: str) -> str:
    parts = urlsplit(link)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


async def test_opening_an_encounter_answers_the_gms_console_link(client: httpx.AsyncClient) -> None:
    r = await client.post("/encounters", json={"ruleset": POP, "name": "At the ford"})
    assert r.status_code == 201, r.text
    opened = r.json()
    enc, gm = opened["encounter_id"], opened["gm_token"]
    link = gm["link"]
    assert page_of(link) == "http://testserver/"  # the console, at the address the request reached
    assert fragment(link) == {"enc": enc, "token": gm["token"]}  # what server/web/gm.js reads
    as_gm = await client.get(f"/encounters/{enc}/tokens", headers={"Authorization": f"Bearer {fragment(link)['token']}"})
    assert as_gm.status_code == 200  # the link's token is the GM's


async def test_a_retried_open_links_the_secret_issued_anew(client: httpx.AsyncClient) -> None:
    """A retry with the same Idempotency-Key replays the stored answer (which never holds a secret)
    with the GM token's secret issued anew: its link holds the new one, not the lost one."""
    body = {"ruleset": POP, "name": "Retried"}
    first = (await client.post("/encounters", json=body, headers={"Idempotency-Key": "open-1"})).json()
    again = (await client.post("/encounters", json=body, headers={"Idempotency-Key": "open-1"})).json()
    assert again["encounter_id"] == first["encounter_id"] and again["gm_token"]["token"] != first["gm_token"]["token"]
    assert fragment(again["gm_token"]["link"])["token"] == again["gm_token"]["token"]
    assert fragment(first["gm_token"]["link"])["token"] == first["gm_token"]["token"]
    assert again["state"] == first["state"] and again["events"] == first["events"]  # the rest as it was


async def test_minting_answers_the_player_and_spectator_links(client: httpx.AsyncClient) -> None:
    enc = await open_encounter(client)
    mira = await add(client, enc, "Mira")
    kess = await add(client, enc, "Kess")
    player = (await client.post(f"/encounters/{enc}/tokens",
                                json={"role": "player", "combatant_ids": [mira, kess], "label": "Ana"})).json()
    assert page_of(player["link"]) == "http://testserver/play"
    assert fragment(player["link"]) == {"enc": enc, "me": mira, "token": player["token"]}  # server/web/play.js
    spectator = (await client.post(f"/encounters/{enc}/tokens", json={"role": "spectator"})).json()
    assert page_of(spectator["link"]) == "http://testserver/watch"
    assert fragment(spectator["link"]) == {"enc": enc, "token": spectator["token"]}  # server/web/watch.js
    for issued, role in ((player, "player"), (spectator, "spectator")):  # each link's token is that token
        secret = fragment(issued["link"])["token"]
        r = await client.get(f"/encounters/{enc}/live", params={"follow": "false"},
                             headers={"Authorization": f"Bearer {secret}"})
        assert r.status_code == 200 and f'"role":"{role}"' in r.text
    listed = (await client.get(f"/encounters/{enc}/tokens")).json()
    assert all("link" not in t for t in listed)  # a link holds a secret: shown once, as the secret is
    # a retried mint: the same token, its secret issued anew, and the link holds the new one
    first = (await client.post(f"/encounters/{enc}/tokens", json={"role": "spectator"},
                               headers={"Idempotency-Key": "mint-1"})).json()
    again = (await client.post(f"/encounters/{enc}/tokens", json={"role": "spectator"},
                               headers={"Idempotency-Key": "mint-1"})).json()
    assert again["id"] == first["id"] and fragment(again["link"])["token"] == again["token"] != first["token"]


async def test_the_links_carry_the_address_the_request_reached(database_url: str) -> None:
    """Without FRACAS_PUBLIC_URL, a link is made of the request's own scheme, host and port: a
    phone that reached the server by its network address is handed links to that address."""
    async with app_client(database_url) as c:
        c.base_url = httpx.URL("http://192.168.1.20:8123")  # only the Host header changes: an in-process app
        opened = (await c.post("/encounters", json={"ruleset": POP, "name": "On the LAN"})).json()
        assert opened["gm_token"]["link"].startswith("http://192.168.1.20:8123/#enc=")
        c.headers["Authorization"] = f"Bearer {opened['gm_token']['token']}"
        spectator = (await c.post(f"/encounters/{opened['encounter_id']}/tokens", json={"role": "spectator"})).json()
        assert spectator["link"].startswith("http://192.168.1.20:8123/watch#enc=")


@contextmanager
def public_url(monkeypatch: pytest.MonkeyPatch, value: str) -> Iterator[Settings]:
    monkeypatch.setenv("FRACAS_PUBLIC_URL", value)
    yield Settings.from_env()


async def test_fracas_public_url_is_the_base_of_every_link(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server behind a proxy: FRACAS_PUBLIC_URL, not the address the proxy reached it by."""
    with public_url(monkeypatch, "https://fracas.example.org/table/") as settings:
        assert settings.public_url == "https://fracas.example.org/table"
    async with app_client(database_url, settings) as c:
        opened = (await c.post("/encounters", json={"ruleset": POP, "name": "Behind a proxy"})).json()
        enc, gm = opened["encounter_id"], opened["gm_token"]
        assert page_of(gm["link"]) == "https://fracas.example.org/table/"
        assert fragment(gm["link"]) == {"enc": enc, "token": gm["token"]}
        c.headers["Authorization"] = f"Bearer {gm['token']}"
        mira = await add(c, enc, "Mira")
        player = (await c.post(f"/encounters/{enc}/tokens", json={"role": "player", "combatant_ids": [mira]})).json()
        assert page_of(player["link"]) == "https://fracas.example.org/table/play"
        spectator = (await c.post(f"/encounters/{enc}/tokens", json={"role": "spectator"})).json()
        assert page_of(spectator["link"]) == "https://fracas.example.org/table/watch"


@pytest.mark.parametrize("bad", ["fracas.example.org", "ftp://fracas.example.org", "https://x.org/?a=1",
                                 "https://x.org/#top", "https://"])
def test_a_public_url_that_is_no_http_address_is_refused(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("FRACAS_PUBLIC_URL", bad)
    with pytest.raises(ValueError, match="FRACAS_PUBLIC_URL"):
        Settings.from_env()


# ----------------------------------------------------------------------------- the timeline in a tab


@contextmanager
def without_header(client: httpx.AsyncClient) -> Iterator[httpx.AsyncClient]:
    """The client without its default ``Authorization`` (the GM's): as a browser tab opens a link."""
    saved = client.headers.pop("Authorization", None)
    try:
        yield client
    finally:
        if saved is not None:
            client.headers["Authorization"] = saved


def problem(r: httpx.Response) -> tuple[int, str | None]:
    return r.status_code, (r.json().get("code") if r.headers.get("content-type", "").startswith("application/problem")
                           else None)


async def test_the_timeline_takes_the_token_as_a_query_parameter(client: httpx.AsyncClient) -> None:
    enc, mira, _ = await started_fight(client)
    r = await client.post(f"/encounters/{enc}/combatants", json={
        "name": "Lurking Assassin", "side": "enemies", "controller": "gm", "hidden": True})
    lurker = r.json()["events"][0]["data"]["combatant_id"]
    gm_secret = client.headers["Authorization"].removeprefix("Bearer ")
    player = (await mint(client, enc, "player", [mira]))["Authorization"].removeprefix("Bearer ")
    by_header = {who: await client.get(f"/encounters/{enc}/timeline.svg", headers={"Authorization": f"Bearer {s}"})
                 for who, s in (("gm", gm_secret), ("player", player))}
    with without_header(client):
        assert problem(await client.get(f"/encounters/{enc}/timeline.svg")) == (401, "token_required")
        for who, secret in (("gm", gm_secret), ("player", player)):
            tab = await client.get(f"/encounters/{enc}/timeline.svg", params={"token": secret})
            assert tab.status_code == 200 and tab.headers["content-type"].startswith("image/svg+xml")
            assert tab.text == by_header[who].text, who  # the same picture, filtered for the same viewer
            assert tab.headers["cache-control"] == "no-store"  # an address with a token: kept by no cache
            assert tab.headers["referrer-policy"] == "no-referrer"
            assert "default-src 'none'" in tab.headers["content-security-policy"]
        assert lurker in by_header["gm"].text and lurker not in by_header["player"].text
        # spelt as the live stream takes it: the name percent-decoded
        spelt = await client.get(f"/encounters/{enc}/timeline.svg?%74oken={player}")
        assert spelt.status_code == 200 and spelt.text == by_header["player"].text


async def test_a_bad_token_in_the_timelines_query_is_refused_as_in_the_header(client: httpx.AsyncClient) -> None:
    enc, _, _ = await started_fight(client)
    other = await open_encounter(client, "Elsewhere")  # from here the client speaks as that one's GM
    other_gm = client.headers["Authorization"].removeprefix("Bearer ")
    revoked = (await client.post(f"/encounters/{other}/tokens", json={"role": "spectator"})).json()
    assert (await client.delete(f"/encounters/{other}/tokens/{revoked['id']}")).status_code == 204
    cases = {
        "unknown": "frc_" + "x" * 43,
        "revoked": revoked["token"],
        "another encounter's": other_gm,
        "empty": "",
    }
    with without_header(client):
        for name, secret in cases.items():
            url = f"/encounters/{enc}/timeline.svg"
            in_query = await client.get(url, params={"token": secret})
            in_header = await client.get(url, headers={"Authorization": f"Bearer {secret}"}) if secret else None
            expected = problem(in_header) if in_header is not None else (401, "token_required")
            assert problem(in_query) == expected, name
            assert in_query.status_code in (401, 403) and "<svg" not in in_query.text, name
        assert problem(await client.get(f"/encounters/{enc}/timeline.svg", params={"token": other_gm})) == \
            (403, "wrong_encounter")
        assert problem(await client.get(f"/encounters/{uuid.uuid4()}/timeline.svg", params={"token": cases["unknown"]})) \
            == (401, "token_invalid")
