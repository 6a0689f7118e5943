"""Logs as lines of JSON (``FRACAS_LOG_FORMAT=json``) or plain text (the default).

In JSON, every log record is one line (``time``, ``level``, ``logger``, ``message``, ``error`` with
its traceback), and every HTTP request and live stream gets one line of its own from ``RequestLines``
(logger ``fracas.requests``): ``request_id`` (the client's ``X-Request-Id`` if it sent a sensible
one that is no token, else a new one, echoed in the answer), ``method``, ``path`` (never the query: it may carry
``?token=``), ``encounter``, ``command`` (the command's type, for ``POST .../commands``),
``status`` and ``duration_ms``. Never a token: each field is passed through ``redaction.redact``
as the line is made, extra fields included, as every text line is by the record factory.
"""

from __future__ import annotations

import json
import logging
import logging.config
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from server.auth.redaction import redact

FORMATS = ("text", "json")
REQUESTS = logging.getLogger("fracas.requests")
FIELDS = ("request_id", "method", "path", "encounter", "command", "status", "duration_ms")
_ENCOUNTER = re.compile(r"^/encounters/([0-9a-fA-F-]{36})(?:/|$)")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")

ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def log_format(value: str | None) -> str:
    """``FRACAS_LOG_FORMAT``'s value, checked: ``text`` (unset) or ``json``."""
    chosen = (value or "text").strip().lower()
    if chosen not in FORMATS:
        raise ValueError(f"FRACAS_LOG_FORMAT is {value!r}: it takes text or json")
    return chosen


class JsonLines(logging.Formatter):
    """One JSON object a record, on one line, with no token secret in it."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        for key in FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["error"] = record.exc_text
        return json.dumps({k: redact(v) if isinstance(v, str) else v for k, v in out.items()},
                          ensure_ascii=False, default=str)


def uvicorn_log_config(fmt: str) -> dict[str, Any] | None:
    """The ``log_config`` ``uvicorn.run`` applies in each worker: None (its own) for text; for JSON,
    every logger (uvicorn's, Fracas's, the root) through ``JsonLines`` on standard error, and
    uvicorn's access lines left to ``RequestLines``, which says more."""
    if fmt != "json":
        return None
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": "server.logs.JsonLines"}},
        "handlers": {"json": handler},
        "root": {"handlers": ["json"], "level": "INFO"},
        "loggers": {"uvicorn": {"handlers": [], "propagate": True},
                    "uvicorn.error": {"handlers": [], "propagate": True},
                    "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"}},
    }


def use_json_logs() -> None:
    """This process's logs as JSON lines (the ``fracas`` command's own process)."""
    logging.config.dictConfig(uvicorn_log_config("json"))  # type: ignore[arg-type]


def request_lines(app: ASGIApp) -> ASGIApp:
    """ASGI middleware: one ``fracas.requests`` line for each request and live stream once it is
    answered (or closed), with the request id echoed as ``X-Request-Id``."""

    async def middleware(scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                         send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        given = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"x-request-id"), "")
        request_id = given if _REQUEST_ID.match(given) and redact(given) == given else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        status: list[int] = []

        async def sending(message: Any) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                status.append(message["status"])
                message = {**message, "headers": [*message.get("headers", ()),
                                                  (b"x-request-id", request_id.encode())]}
            elif kind == "websocket.accept":
                status.append(101)
            elif kind == "websocket.close" and not status:
                status.append(403)
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            path = scope.get("path", "")
            found = _ENCOUNTER.match(path)
            REQUESTS.info("%s %s %s", scope.get("method", "WS"), path, status[0] if status else "-", extra={
                "request_id": request_id, "method": scope.get("method", "WEBSOCKET"), "path": path,
                "encounter": found.group(1).lower() if found else None,
                "command": scope["state"].get("command_type"), "status": status[0] if status else None,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2)})

    return middleware
