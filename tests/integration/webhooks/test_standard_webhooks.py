"""Issue 42: "Sign deliveries as the Standard Webhooks specification says: the headers `webhook-id`,
`webhook-timestamp` and `webhook-signature: v1,<base64>`; a `whsec_` secret. A receiver then verifies
in one line with the official libraries (PyPI `standardwebhooks`, npm `standardwebhooks`). Tests
verify real deliveries with the Python library, and with the npm library where node is present."
And "Say in the README how existing webhooks move over": a webhook made before keeps its old
``Fracas-Signature`` headers until its secret is rotated (docs/webhooks.md)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import shutil
import subprocess
from pathlib import Path

import asyncpg
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tests.integration.fight import open_encounter
from tests.integration.receiver import receiving
from tests.integration.schema.test_redocly_lint import TOOLING, tool
from tests.integration.webhooks.test_webhooks import fight, register, served, version_of

NODE, NPM = shutil.which("node"), shutil.which("npm")
LEGACY = ("fracas-signature", "fracas-timestamp", "fracas-webhook-id")


def _lower(headers: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


async def test_a_delivery_verifies_with_the_official_python_library_and_carries_nothing_else(database_url: str) -> None:
    with receiving(plan=lambda n: 500 if n < 2 else 200) as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            await fight(client, enc)
            version = await version_of(client, enc)
            hook = await register(client, enc, receiver, after_version=0)  # one body, retried twice
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
    secret = hook["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:], validate=True)) == 32
    first = receiver.received[0]
    for r in receiver.received:
        headers = _lower(r.headers)
        payload = Webhook(secret).verify(r.body, headers)  # the receiver's one line
        assert payload["webhook_id"] == hook["webhook_id"] and payload["version"] == version
        assert headers["webhook-signature"].startswith("v1,") and headers["webhook-id"].startswith("msg_")
        assert not set(LEGACY) & set(headers), "a new webhook gets the standard headers only"
        assert headers["webhook-id"] == _lower(first.headers)["webhook-id"], "a retry is the same message"
    assert [r.answered for r in receiver.received] == [500, 500, 200]


async def test_an_older_webhook_keeps_its_old_signature_until_its_secret_is_rotated(database_url: str) -> None:
    """A webhook registered before (its secret as they were made: ``whsec_`` and URL-safe text) gets
    the standard headers and the old ones; once rotated, a standard secret and the standard headers
    only, and the old secret verifies nothing."""
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            hook = await register(client, enc, receiver)  # from now on: nothing due before the fight
            old = "whsec_" + secrets.token_urlsafe(32)
            conn = await asyncpg.connect(database_url)
            try:
                await conn.execute("UPDATE webhooks SET secret = $2 WHERE id = $1", hook["webhook_id"], old)
            finally:
                await conn.close()
            await fight(client, enc)
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
            before = len(receiver.received)
            r = await client.post(f"/encounters/{enc}/webhooks/{hook['webhook_id']}/secret")
            assert r.status_code == 200, r.text
            rotated = r.json()
            assert rotated["webhook_id"] == hook["webhook_id"] and rotated["secret"] != old
            assert "secret" not in (await client.get(f"/encounters/{enc}/webhooks")).json()[0]
            r = await client.post(f"/encounters/{enc}/webhooks/{'0' * 8}-0000-4000-8000-{'0' * 12}/secret")
            assert r.status_code == 404 and r.json()["code"] == "webhook_not_found"
            state = (await client.get(f"/encounters/{enc}")).json()
            r = await client.post(f"/encounters/{enc}/commands", json={"type": "EndTurn", "combatant_id": state["turn"]})
            assert r.status_code == 200, r.text
            after = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [after])
    for r in receiver.received[:before]:
        headers = _lower(r.headers)
        stamp = headers["fracas-timestamp"]
        mac = hmac.new(old.encode(), f"{stamp}.".encode() + r.body, hashlib.sha256).hexdigest()
        assert headers["fracas-signature"] == f"sha256={mac}", "the old verify still works"
        assert headers["fracas-webhook-id"] == hook["webhook_id"]
        Webhook(old.encode()).verify(r.body, headers)  # and the library takes the old secret as a raw key
    for r in receiver.received[before:]:
        headers = _lower(r.headers)
        assert not set(LEGACY) & set(headers)
        Webhook(rotated["secret"]).verify(r.body, headers)
        with pytest.raises(WebhookVerificationError):
            Webhook(old.encode()).verify(r.body, headers)


async def test_the_operator_rotates_a_webhook_for_every_encounter(database_url: str) -> None:
    with receiving() as receiver:
        async with served(database_url, operator_key="op-key") as client:
            client.headers["Authorization"] = "Bearer op-key"
            hook = (await client.post("/webhooks", json={"url": receiver.url()})).json()
            r = await client.post(f"/webhooks/{hook['webhook_id']}/secret")
            assert r.status_code == 200 and r.json()["secret"] != hook["secret"] and r.json()["encounter_id"] is None
            client.headers["Authorization"] = "Bearer nope"
            r = await client.post(f"/webhooks/{hook['webhook_id']}/secret")
            assert r.status_code == 403 and r.json()["code"] == "operator_key_invalid"


VERIFY_JS = """
const { Webhook } = require("standardwebhooks");
const { secret, headers, body } = JSON.parse(require("fs").readFileSync(0, "utf8"));
const payload = new Webhook(secret).verify(Buffer.from(body, "base64").toString("utf8"), headers);
process.stdout.write(JSON.stringify({ webhook_id: payload.webhook_id, version: payload.version }));
"""


@pytest.mark.skipif(NODE is None or NPM is None, reason="node or npm is not installed")
async def test_a_delivery_verifies_with_the_official_npm_library(database_url: str, tmp_path: Path) -> None:
    tool("standardwebhooks")
    with receiving() as receiver:
        async with served(database_url) as client:
            enc = await open_encounter(client)
            hook = await register(client, enc, receiver, after_version=0)
            await fight(client, enc)
            version = await version_of(client, enc)
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
    for r in receiver.ok():
        given = {"secret": hook["secret"], "headers": _lower(r.headers), "body": base64.b64encode(r.body).decode()}
        # run in tests/tooling: require() finds the library there
        out = subprocess.run([str(NODE), "-e", VERIFY_JS], input=json.dumps(given), capture_output=True, text=True,
                             timeout=60, cwd=TOOLING, check=False)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["webhook_id"] == hook["webhook_id"]
        given["headers"]["webhook-signature"] = "v1," + base64.b64encode(b"\0" * 32).decode()
        forged = subprocess.run([str(NODE), "-e", VERIFY_JS], input=json.dumps(given), capture_output=True,
                                text=True, timeout=60, cwd=TOOLING, check=False)
        assert forged.returncode != 0, "the npm library refuses a signature that is not ours"
