"""Webhook routes: the GM registers, lists, resumes and deletes an encounter's webhooks; the
operator (with the operator key) does the same for webhooks that receive every encounter.
Delivery itself is ``server/webhooks/delivery.py``'s."""

from __future__ import annotations

import uuid
from typing import Annotated

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import PathParameter

from server.auth.operator import check_operator_key
from server.auth.tokens import authorize
from server.http.api import (
    GUARDED_READ_ERRORS,
    GUARDED_WRITE_ERRORS,
    JSON,
    EncounterId,
    service_of,
)
from server.http.problems import Problem, decode_body
from server.webhooks.delivery import (
    Format,
    IssuedWebhook,
    View,
    WebhookStore,
    WebhookView,
    known_event_types,
    refused_address,
)

WebhookId = Annotated[uuid.UUID, PathParameter(
    description="The webhook's id (`webhook_id` in the answer that registered it).")]
_encode = msgspec.json.Encoder().encode


class NewWebhook(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``url``: http(s), never a private address unless the operator allows it; ``view``: what it
    receives as (a spectator's view, or the GM's); ``event_types``: only these (the types as the
    view sees them, ``Redacted`` included; default: all); ``format``: ``fracas`` (the events and
    the log's lines, signed) or ``discord`` (the log's lines as a Discord incoming webhook's
    messages); ``after_version``: deliver the events after it (default: the current version)."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]
    view: View = "spectator"
    event_types: Annotated[list[str], msgspec.Meta(min_length=1, max_length=200)] | None = None
    format: Format = "fracas"
    after_version: Annotated[int, msgspec.Meta(ge=0)] | None = None


class ResumeWebhook(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``{}`` resumes from the first event not delivered; ``after_version`` (an encounter's
    webhook only) skips ahead: the events after it come next."""

    after_version: Annotated[int, msgspec.Meta(ge=0)] | None = None


class NewSecret(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``{}`` (or no body): a new secret asks nothing more."""


_new_decoder = msgspec.json.Decoder(NewWebhook)
_secret_decoder = msgspec.json.Decoder(NewSecret)


async def _no_more(request: Request) -> None:
    """A body that may be left out, or ``{}``; anything else is refused as any body is."""
    body = await request.body()
    if body.strip():
        decode_body(_secret_decoder, body, "invalid_body")
_resume_decoder = msgspec.json.Decoder(ResumeWebhook)


def store_of(request: Request) -> WebhookStore:
    return request.app.state.webhooks


async def _checked(request: Request, new: NewWebhook, types: set[str]) -> None:
    refused = await refused_address(new.url, request.app.state.webhook_settings.allow_private)
    if refused is not None:
        raise Problem(422, "webhook_address_refused", "Address refused", f"This URL may not receive webhooks: {refused}.",
                      url=new.url)
    unknown = sorted(set(new.event_types or ()) - known_event_types(types))
    if unknown:
        raise Problem(422, "unknown_event_type", "Unknown event type",
                      f"No event of these types is ever delivered: {', '.join(unknown)}.", event_types=unknown)


def _not_found(webhook_id: uuid.UUID) -> Problem:
    return Problem(404, "webhook_not_found", "Webhook not found", f"There is no webhook {webhook_id} here.")


# ------------------------------------------------------------------- an encounter's


@post("/encounters/{encounter_id:uuid}/webhooks", opt={"body": NewWebhook, "token": "gm"},
      operation_id="registerWebhook", status_code=201, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Register a webhook on the encounter (GM)",
      description="The encounter's events are posted to `url` as they happen, at least once and in version order, "
                  "as `view` may see them (the hidden-information rules of the live stream), with the readable log's "
                  "lines; each delivery is signed (docs/webhooks.md). The `secret` is shown this once. An address "
                  "that is not http(s), or private, is refused (422 `webhook_address_refused`).")
async def register_webhook(request: Request, encounter_id: EncounterId) -> Response[IssuedWebhook]:
    enc = str(encounter_id)
    await authorize(request, enc, write=True, gm_only=True)
    new: NewWebhook = decode_body(_new_decoder, await request.body(), "invalid_body")
    ruleset = await service_of(request).ruleset_of(enc)
    await _checked(request, new, {t.__struct_config__.tag for t in ruleset.event_types})
    current = (await service_of(request).current(enc)).version
    if new.after_version is not None and new.after_version > current:
        raise Problem(422, "version_not_found", "No such version",
                      f"after_version {new.after_version} is past the encounter's version {current}.")
    issued = await store_of(request).register(enc, new.url, new.view, new.event_types, new.format, new.after_version)
    return Response(content=_encode(issued), status_code=201, media_type=JSON)


@get("/encounters/{encounter_id:uuid}/webhooks", opt={"token": "gm"}, operation_id="listWebhooks",
     tags=["webhooks"], responses=GUARDED_READ_ERRORS, summary="The encounter's webhooks (GM)",
     description="Each webhook with its status (`paused` after too many failures in a row), the receiver's last "
                 "HTTP status and error, and `delivered_version`; never a secret.")
async def list_webhooks(request: Request, encounter_id: EncounterId) -> list[WebhookView]:
    enc = str(encounter_id)
    await authorize(request, enc, gm_only=True)
    return await store_of(request).list(enc)


@post("/encounters/{encounter_id:uuid}/webhooks/{webhook_id:uuid}/resume", opt={"body": ResumeWebhook, "token": "gm"},
      operation_id="resumeWebhook", status_code=200, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Resume a paused webhook (GM)",
      description="It is tried again at once, from the first event it has not delivered (or, with "
                  "`after_version`, from the event after it).")
async def resume_webhook(request: Request, encounter_id: EncounterId, webhook_id: WebhookId) -> WebhookView:
    enc = str(encounter_id)
    await authorize(request, enc, write=True, gm_only=True)
    resume: ResumeWebhook = decode_body(_resume_decoder, await request.body(), "invalid_body")
    current = (await service_of(request).current(enc)).version
    if resume.after_version is not None and resume.after_version > current:
        raise Problem(422, "version_not_found", "No such version",
                      f"after_version {resume.after_version} is past the encounter's version {current}.")
    found = await store_of(request).resume(str(webhook_id), enc, resume.after_version)
    if found is None:
        raise _not_found(webhook_id)
    return found


_ROTATE = ("A new `whsec_` secret, shown this once; the old one signs nothing from now on. A webhook made before "
           "deliveries were signed as Standard Webhooks say gets a secret the standard libraries take, and no "
           "longer the old `Fracas-Signature` headers (docs/webhooks.md).")


@post("/encounters/{encounter_id:uuid}/webhooks/{webhook_id:uuid}/secret", opt={"body": NewSecret, "token": "gm"},
      operation_id="rotateWebhookSecret", status_code=200, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Give a webhook a new signing secret (GM)", description=_ROTATE)
async def rotate_webhook_secret(request: Request, encounter_id: EncounterId, webhook_id: WebhookId) -> IssuedWebhook:
    enc = str(encounter_id)
    await authorize(request, enc, write=True, gm_only=True)
    await _no_more(request)
    issued = await store_of(request).rotate(str(webhook_id), enc)
    if issued is None:
        raise _not_found(webhook_id)
    return issued


@delete("/encounters/{encounter_id:uuid}/webhooks/{webhook_id:uuid}", opt={"token": "gm"},
        operation_id="deleteWebhook", status_code=204, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
        summary="Delete a webhook (GM)", description="Nothing more is delivered to it.")
async def delete_webhook(request: Request, encounter_id: EncounterId, webhook_id: WebhookId) -> None:
    enc = str(encounter_id)
    await authorize(request, enc, write=True, gm_only=True)
    if not await store_of(request).delete(str(webhook_id), enc):
        raise _not_found(webhook_id)


# ------------------------------------------------------------------- the operator's


@post("/webhooks", opt={"body": NewWebhook, "token": "operator_only"}, operation_id="addServerWebhook",
      status_code=201, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Register a webhook for every encounter (operator)",
      description="As an encounter's webhook, for the events of every encounter from now on (`after_version` is "
                  "not taken). Needs the server's operator key; a server with none refuses (403 `operator_key_not_set`).")
async def register_server_webhook(request: Request) -> Response[IssuedWebhook]:
    check_operator_key(request)
    new: NewWebhook = decode_body(_new_decoder, await request.body(), "invalid_body")
    if new.after_version is not None:
        raise Problem(422, "invalid_body", "Invalid body", "after_version is for an encounter's webhook only.")
    types = {t.__struct_config__.tag for r in service_of(request).registry.all() for t in r.event_types}
    await _checked(request, new, types)
    issued = await store_of(request).register(None, new.url, new.view, new.event_types, new.format, None)
    return Response(content=_encode(issued), status_code=201, media_type=JSON)


@get("/webhooks", opt={"token": "operator_only"}, operation_id="listServerWebhooks", tags=["webhooks"],
     responses=GUARDED_READ_ERRORS, summary="The webhooks for every encounter (operator)")
async def list_server_webhooks(request: Request) -> list[WebhookView]:
    check_operator_key(request)
    return await store_of(request).list(None)


@post("/webhooks/{webhook_id:uuid}/resume", opt={"body": ResumeWebhook, "token": "operator_only"},
      operation_id="resumeServerWebhook", status_code=200, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Resume a paused webhook (operator)", description="Send `{}`: `after_version` is an encounter's.")
async def resume_server_webhook(request: Request, webhook_id: WebhookId) -> WebhookView:
    check_operator_key(request)
    resume: ResumeWebhook = decode_body(_resume_decoder, await request.body(), "invalid_body")
    if resume.after_version is not None:
        raise Problem(422, "invalid_body", "Invalid body", "after_version is for an encounter's webhook only.")
    found = await store_of(request).resume(str(webhook_id), None)
    if found is None:
        raise _not_found(webhook_id)
    return found


@post("/webhooks/{webhook_id:uuid}/secret", opt={"body": NewSecret, "token": "operator_only"},
      operation_id="rotateServerWebhook",
      status_code=200, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS,
      summary="Give a webhook a new signing secret (operator)", description=_ROTATE)
async def rotate_server_webhook_secret(request: Request, webhook_id: WebhookId) -> IssuedWebhook:
    check_operator_key(request)
    await _no_more(request)
    issued = await store_of(request).rotate(str(webhook_id), None)
    if issued is None:
        raise _not_found(webhook_id)
    return issued


@delete("/webhooks/{webhook_id:uuid}", opt={"token": "operator_only"}, operation_id="deleteServerWebhook",
        status_code=204, tags=["webhooks"], responses=GUARDED_WRITE_ERRORS, summary="Delete a webhook (operator)")
async def delete_server_webhook(request: Request, webhook_id: WebhookId) -> None:
    check_operator_key(request)
    if not await store_of(request).delete(str(webhook_id), None):
        raise _not_found(webhook_id)


WEBHOOK_ROUTES = [register_webhook, list_webhooks, resume_webhook, rotate_webhook_secret, delete_webhook,
                  register_server_webhook, list_server_webhooks, resume_server_webhook, rotate_server_webhook_secret,
                  delete_server_webhook]
