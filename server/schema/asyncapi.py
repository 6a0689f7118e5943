"""The live stream's AsyncAPI 3.0 document (``openapi/asyncapi.json``, served at
``/schema/asyncapi.json``), made from the very types the server sends (server/live/feed.py's
messages, through msgspec's JSON Schema) and its close codes (server/live/streams.py): the
WebSocket and the Server-Sent Events channels of ``/encounters/{encounter_id}/live``, every
message, the query parameters, and how a stream ends. ``fracas regen`` writes it, with the
TypeScript types of the live messages made from it (``render_live_typescript``)."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import msgspec

from server.schema.typescript import ts_type, type_name
from server.version import VERSION

DEFAULT_ASYNCAPI = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.json"
DEFAULT_LIVE_TYPESCRIPT = Path(__file__).resolve().parents[1] / "web" / "fracas-live.d.ts"
_REF = "#/components/schemas/"
_REFERENCED = re.compile(r'"#/components/schemas/([^"]+)"')

# Each WebSocket close code, and why (4000 + the HTTP status of the same refusal: docs/live.md).
CLOSE_CODES = {
    1000: "caught_up: a stream with follow=false sent what there was",
    1001: "server_shutdown: the server process is stopping; reconnect with after= the last version",
    1012: "the server restarts: reconnect to any process with after= the last version",
    4400: "a bad query parameter (invalid_after, after_beyond_version, invalid_batch, invalid_state)",
    4401: "token_required or token_invalid",
    4403: "wrong_encounter, or token_revoked while the stream ran",
    4404: "encounter_not_found",
    4408: "slow_consumer: the client stopped reading; resume with after= the last version",
    4429: "rate_limited",
    4503: "database_unavailable: reconnect in a few seconds with after= the last version",
}

_QUERY = {
    "type": "object",
    "properties": {
        "token": {"type": "string", "description": "The token, where the client cannot send `Authorization: Bearer`."},
        "after": {"type": "integer", "minimum": 0, "description": "Send what came after this version (default 0)."},
        "state": {"enum": ["patch", "full"], "description": "`full`: a whole `state` each time instead of `patch`."},
        "batch": {"type": "boolean", "description": "WebSocket: each frame is the JSON array of one batch's messages."},
        "follow": {"type": "boolean", "description": "SSE: `false` sends what is there and ends (default true)."},
    },
}


def _message_types() -> tuple[type, ...]:
    from server.live.feed import LiveMessage

    return typing.get_args(LiveMessage)


def render_asyncapi() -> dict[str, Any]:
    """The document (AsyncAPI 3.0.0)."""
    kinds = _message_types()
    _, schemas = msgspec.json.schema_components(kinds, ref_template=_REF + "{name}")
    messages = {}
    for kind in kinds:
        name, tag = kind.__name__, kind.__struct_config__.tag
        messages[name] = {
            "name": tag, "title": tag, "summary": (kind.__doc__ or tag).split("\n\n")[0].replace("\n", " ").strip(),
            "contentType": "application/json", "payload": {"$ref": _REF + name},
        }
    refs = {name: {"$ref": f"#/components/messages/{name}"} for name in messages}
    closes = "\n".join(f"- {code}: {why}" for code, why in CLOSE_CODES.items())
    channel = {
        "address": "/encounters/{encounter_id}/live",
        "parameters": {"encounter_id": {"description": "The encounter's id (a UUID)."}},
        "messages": refs,
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Fracas live stream", "version": VERSION,
            "description": "The live stream of an encounter (docs/live.md): every message carries `type` and "
                           "`version`, the client has every event up to `version` and resumes with `after=` it. "
                           "Each token sees what its role may see.",
            "license": {"name": "MIT", "url": "https://opensource.org/license/mit"},
        },
        "defaultContentType": "application/json",
        "servers": {
            "websocket": {"host": "localhost:8000", "protocol": "ws",
                          "description": "One JSON message a text frame (`?batch=true`: one batch's array)."},
            "sse": {"host": "localhost:8000", "protocol": "http",
                    "description": "Server-Sent Events (`text/event-stream`): `event:` the type, `id:` the version, "
                                   "`data:` the JSON; `Last-Event-ID` resumes."},
        },
        "channels": {
            "liveWebSocket": {**channel, "title": "The live stream over WebSocket",
                              "servers": [{"$ref": "#/servers/websocket"}],
                              "description": f"Close codes:\n{closes}",
                              "bindings": {"ws": {"query": _QUERY, "bindingVersion": "0.1.0"}},
                              "x-close-codes": {str(c): why for c, why in CLOSE_CODES.items()}},
            "liveSse": {**channel, "title": "The live stream as Server-Sent Events",
                        "servers": [{"$ref": "#/servers/sse"}],
                        "description": "A refusal at connection is an ordinary problem response (RFC 9457)."},
        },
        "operations": {
            "sendLiveWebSocket": {"action": "send", "channel": {"$ref": "#/channels/liveWebSocket"},
                                  "summary": "The server sends the fight as it happens.",
                                  "messages": [{"$ref": f"#/channels/liveWebSocket/messages/{n}"} for n in messages]},
            "sendLiveSse": {"action": "send", "channel": {"$ref": "#/channels/liveSse"},
                            "summary": "The server sends the fight as it happens.",
                            "messages": [{"$ref": f"#/channels/liveSse/messages/{n}"} for n in messages]},
        },
        "components": {"schemas": dict(sorted(schemas.items())), "messages": messages},
    }


def render_asyncapi_text() -> str:
    """The document as ``fracas regen`` writes it to openapi/asyncapi.json."""
    return json.dumps(render_asyncapi(), indent=2, ensure_ascii=False) + "\n"


LIVE_HEADER = """\
// fracas-live.d.ts: the messages of the live stream (/encounters/{id}/live).
// Generated from openapi/asyncapi.json by `fracas regen`: do not edit by hand (a test fails when this
// file is stale). The schemas the API document has too are its own (fracas-api.d.ts).
"""


def render_live_typescript(document: dict[str, Any], api_schemas: set[str]) -> str:
    """The live messages' declarations: each message's type, ``LiveMessage`` their union, and the
    schemas they use that the API document lacks; those it has are imported from fracas-api.d.ts."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    local = [n for n in schemas if n not in api_schemas]
    used = set(_REFERENCED.findall(json.dumps([schemas[n] for n in local])))
    shared = sorted(n for n in used if n in api_schemas)
    out = [LIVE_HEADER]
    if shared:
        out.append(f"import type {{ {', '.join(type_name(n) for n in shared)} }} from \"./fracas-api.js\";\n")
    out.append("\n")
    for name in sorted(local):
        doc = schemas[name].get("description")
        if doc:
            out.append("/** " + " ".join(doc.split()) + " */\n")
        out.append(f"export type {type_name(name)} = {ts_type(schemas[name])};\n\n")
    names = [type_name(m["payload"]["$ref"].removeprefix(_REF)) for m in document["components"]["messages"].values()]
    out.append("/** One message of the live stream (with `?batch=true`, a WebSocket frame is an array of them). */\n")
    out.append("export type LiveMessage =\n" + "".join(f"  | {n}\n" for n in names).rstrip("\n") + ";\n")
    return "".join(out)
