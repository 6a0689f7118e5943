"""Deliveries signed as the Standard Webhooks specification says (standardwebhooks.com), so a
receiver verifies one in a line with its official libraries (PyPI and npm ``standardwebhooks``):

- ``webhook-id``: the message's id, the same for the same body (a receiver drops repeats by it);
- ``webhook-timestamp``: Unix seconds (a receiver refuses old ones: replays);
- ``webhook-signature``: ``v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">``, keyed by the
  secret's bytes: a ``whsec_`` secret is base64 of 32 random bytes.

A webhook made before Fracas signed this way has a secret in another alphabet (``whsec_`` and URL-safe
base64 text): its standard signature is keyed by the secret's text as bytes (the libraries take a raw
key), and it still gets the old ``Fracas-Signature`` headers besides, until its owner rotates its
secret (``POST .../webhooks/{id}/secret``); docs/webhooks.md says how it moves over.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

PREFIX = "whsec_"
ID, TIMESTAMP, SIGNATURE = "webhook-id", "webhook-timestamp", "webhook-signature"
# the headers of the webhooks made before (their secrets are not base64 of bytes): kept for them only
LEGACY_SIGNATURE, LEGACY_TIMESTAMP, LEGACY_WEBHOOK_ID = "Fracas-Signature", "Fracas-Timestamp", "Fracas-Webhook-Id"


def new_secret() -> str:
    """A ``whsec_`` secret: standard base64 of 32 random bytes."""
    return PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def is_standard(secret: str) -> bool:
    """Whether ``secret`` is a Standard Webhooks secret (``whsec_`` and strict base64 of 24 to 64 bytes)."""
    if not secret.startswith(PREFIX):
        return False
    try:
        key = base64.b64decode(secret[len(PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        return False
    return 24 <= len(key) <= 64


def key_of(secret: str) -> bytes:
    """The HMAC key of ``secret``: a standard one's bytes (as the official libraries read a ``whsec_``
    secret); an older one's text, as bytes (which those libraries take as a raw key)."""
    return base64.b64decode(secret[len(PREFIX):]) if is_standard(secret) else secret.encode()


def message_id(webhook_id: str, body: bytes) -> str:
    """The ``webhook-id`` of ``body`` delivered to ``webhook_id``: the same body, the same id (a retry of
    it too), so a receiver that keeps the ids it has seen drops a repeat."""
    return "msg_" + hashlib.sha256(webhook_id.encode() + b"\0" + body).hexdigest()[:32]


def signature(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: ``v1,`` and the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"."""
    mac = hmac.new(key_of(secret), f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def legacy_signature(secret: str, timestamp: int, body: bytes) -> str:
    """The old ``Fracas-Signature``: ``sha256=`` and the hex HMAC-SHA256 of "<timestamp>.<body>" keyed by
    the secret's text (sent only for a webhook whose secret predates the standard ones)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def headers(webhook_id: str, secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    """What a delivery of ``body`` carries to say who sent it: the standard headers, and for a webhook
    with an old secret the old ones too."""
    msg_id = message_id(webhook_id, body)
    out = {ID: msg_id, TIMESTAMP: str(timestamp), SIGNATURE: signature(secret, msg_id, timestamp, body)}
    if not is_standard(secret):
        out |= {LEGACY_WEBHOOK_ID: webhook_id, LEGACY_TIMESTAMP: str(timestamp),
                LEGACY_SIGNATURE: legacy_signature(secret, timestamp, body)}
    return out
