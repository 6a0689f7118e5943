"""No token in the logs of a real ``fracas serve``, however the request spells it (issue 16).

"A token is never written to a log, however the query parameter is spelt." Live streams take
``?token=`` (a browser's WebSocket and EventSource cannot set headers); the server reads the
parameter after percent-decoding its name, as any query parameter, so ``?%74oken=`` is a token
too, and uvicorn's lines (``WebSocket ... [accepted]``, and with ``--access-log`` every
request) carry the query string as the client sent it.
"""

from __future__ import annotations

import asyncio
import json
import os
from urllib.parse import quote

import httpx
import websockets

from tests.e2e.test_cli import serving


def encoded(text: str) -> str:
    """Every character percent-encoded: ``%74%6F%6B%65%6E`` for ``token``."""
    return "".join(f"%{b:02X}" for b in text.encode())


async def _streams(base: str) -> tuple[str, list[str]]:
    """Open an encounter and listen to it with a player token spelt every way the server takes;
    returns the secret and the query strings used."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        opened = (await c.post("/encounters", json={"ruleset": "places-of-power", "name": "Logs"})).json()
        enc, gm = opened["encounter_id"], {"Authorization": f"Bearer {opened['gm_token']['token']}"}
        mira = (await c.post(f"/encounters/{enc}/combatants", headers=gm,
                             json={"name": "Mira", "side": "party", "controller": "player"})).json()
        mira_id = mira["events"][0]["data"]["combatant_id"]
        secret = (await c.post(f"/encounters/{enc}/tokens", headers=gm,
                               json={"role": "player", "combatant_ids": [mira_id]})).json()["token"]
        queries = [f"token={secret}", f"%74oken={secret}", f"after=0&t%6Fken={secret}", f"%74oken={quote(secret)}",
                   f"{encoded('token')}={encoded(secret)}", f"TOKEN=x&%74OKEN=y&%74oken={secret}&a=b"]
        ws_base = "ws" + base.removeprefix("http")
        for query in queries:
            async with websockets.connect(f"{ws_base}/encounters/{enc}/live?{query}") as ws:
                hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert (hello["type"], hello["role"]) == ("hello", "player"), (query, hello)  # the token was taken
            r = await c.get(f"/encounters/{enc}/live?{query}&follow=false")
            assert r.status_code == 200 and "event: hello" in r.text, (query, r.text[:200])
        assert (await c.get(f"/encounters/{secret}")).status_code == 404  # a secret sent where none belongs
        assert (await c.get(f"/encounters/{enc}/live?{queries[1]}&after=x")).status_code == 400
    return secret, queries


def test_no_token_reaches_the_logs_however_the_parameter_is_spelt(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    with serving(env, "--access-log") as (base, proc):
        secret, queries = asyncio.run(_streams(base))
    out = proc.stdout.read() if proc.stdout else ""
    assert '"WebSocket /encounters/' in out and '"GET /encounters/' in out  # the lines that would carry it
    assert out.count("[redacted]") >= 2 * len(queries)
    body = secret.removeprefix("frc_")
    for spelt in (secret, body, quote(secret), encoded(secret), encoded(body), body[:12]):
        assert spelt not in out, f"{spelt!r} is in the log:\n" + "\n".join(
            line for line in out.splitlines() if spelt in line)
