"""RFC 9457 problem details: every error the API returns, each with a stable ``code``."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from domain.core.errors import RuleViolation
from server.store import outage
from server.http.body_errors import explain
from server.store.events import UnstorableText

log = logging.getLogger("fracas")

PROBLEM_JSON = "application/problem+json"


class ProblemDetails(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An error, as RFC 9457 describes it, with Fracas's stable ``code``."""

    type: str = "about:blank"
    title: str
    status: int
    code: str
    detail: str | None = None
    instance: str | None = None
    details: dict[str, Any] | None = None


class Problem(Exception):
    """Raise to answer with a problem: ``code`` is stable, ``detail`` is for people."""

    def __init__(self, status: int, code: str, title: str, detail: str | None = None, **details: Any) -> None:
        super().__init__(detail or title)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.details = details or None
        self.headers: dict[str, str] = {}


_TITLES = {
    400: ("bad_request", "Bad request"),
    401: ("unauthorized", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    406: ("not_acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    412: ("version_mismatch", "Precondition failed"),
    413: ("request_too_large", "Request body too large"),
    415: ("unsupported_media_type", "Unsupported media type"),
    422: ("unprocessable", "Unprocessable request"),
    429: ("too_many_requests", "Too many requests"),
    500: ("internal_error", "Internal server error"),
    503: ("unavailable", "Service unavailable"),
}

_encoder = msgspec.json.Encoder()


def problem_response(p: ProblemDetails, headers: dict[str, str] | None = None) -> Response[bytes]:
    return Response(content=_encoder.encode(p), status_code=p.status, media_type=PROBLEM_JSON, headers=headers)


def _on_problem(request: Request, exc: Problem) -> Response[bytes]:
    return problem_response(
        ProblemDetails(
            title=exc.title, status=exc.status, code=exc.code, detail=exc.detail,
            instance=request.url.path, details=exc.details,
        ),
        exc.headers or None,
    )


def _on_rule_violation(request: Request, exc: RuleViolation) -> Response[bytes]:
    return problem_response(
        ProblemDetails(
            title="Not allowed by the rules", status=422, code=exc.code, detail=exc.message,
            instance=request.url.path, details=dict(exc.details) or None,
        )
    )


def _on_http(request: Request, exc: HTTPException) -> Response[bytes]:
    status = exc.status_code
    code, title = _TITLES.get(status, ("error", "Error"))
    detail = exc.detail if isinstance(exc.detail, str) else None
    if isinstance(exc, ValidationException):
        code = "invalid_parameter"
        extra = exc.extra if isinstance(exc.extra, list) else None
        msgs = [f"{e.get('key')}: {e.get('message')}" for e in extra or [] if isinstance(e, dict)]
        detail = "; ".join(msgs) or detail
    if status == 404 and detail in (None, "Not Found"):
        detail = f"Nothing is at {request.method} {request.url.path}."
    if status == 405:
        detail = f"{request.method} is not allowed on {request.url.path}."
    headers = {k: v for k, v in (exc.headers or {}).items()} or None
    return problem_response(
        ProblemDetails(title=title, status=status, code=code, detail=detail, instance=request.url.path), headers
    )


def database_unavailable(detail: str = outage.DETAIL, **details: Any) -> Problem:
    """503: PostgreSQL cannot be reached just now (``server/store/outage.py``); retry after a while."""
    p = Problem(503, outage.CODE, outage.TITLE, detail, **details)
    p.headers["Retry-After"] = str(outage.RETRY_AFTER_SECONDS)
    return p


def _on_unexpected(request: Request, exc: Exception) -> Response[bytes]:
    if outage.is_outage(exc):  # PostgreSQL is away: 503, not a fault of the server
        outage.outages.warn("database unavailable on %s %s: %s: %s", request.method, request.url.path,
                            type(exc).__name__, exc)
        return _on_problem(request, database_unavailable())
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return problem_response(
        ProblemDetails(
            title="Internal server error", status=500, code="internal_error",
            detail="Something went wrong on the server.", instance=request.url.path,
        )
    )


def _on_unstorable(request: Request, exc: UnstorableText) -> Response[bytes]:
    return problem_response(
        ProblemDetails(
            title="Invalid request body", status=422, code="invalid_text",
            detail="Text cannot contain the NUL character (\\u0000).", instance=request.url.path,
        )
    )


def empty_body(example: str = "") -> Problem:
    """An empty body: said as such, not as a parser's "Input data was truncated"."""
    return Problem(400, "malformed_json", "Malformed JSON", f"The body is empty: send a JSON object{example}.")


def malformed(exc: Exception) -> Problem:
    """Bytes that are not JSON (or JSON nested too deeply to read)."""
    if isinstance(exc, RecursionError):
        return Problem(400, "malformed_json", "Malformed JSON", "The body is nested too deeply.")
    return Problem(400, "malformed_json", "Malformed JSON", f"The body is not valid JSON: {exc}.")


def decode_body(decoder: msgspec.json.Decoder, body: bytes, invalid_code: str) -> Any:
    """Decode a request body strictly; every way it can be wrong is a 4xx problem that names
    the field (and the values an enum allows)."""
    if not body.strip():
        raise empty_body()
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        why = explain(decoder.type, str(exc))
        raise Problem(422, invalid_code, "Invalid request body", why.detail, **why.details) from exc
    except (RecursionError, msgspec.DecodeError) as exc:
        raise malformed(exc) from exc


def decode_query(kind: type[msgspec.Struct], params: dict[str, list[str]]) -> Any:
    """Query parameters (each name's values, as text) as a ``kind``: a parameter given once is
    one value, read from its text (``3``, ``true``); a fault is a 400 ``invalid_parameter``
    that names the parameter (and the values an enum allows)."""
    values = {k: v[0] if len(v) == 1 else v for k, v in params.items()}
    try:
        return msgspec.convert(values, kind, strict=False)
    except msgspec.ValidationError as exc:
        why = explain(kind, str(exc), "The query")
        raise Problem(400, "invalid_parameter", "Bad request", why.detail, **why.details) from exc


def status_of(exc: BaseException) -> int:
    """The status the handlers below answer ``exc`` with (for the metrics, before they do)."""
    if isinstance(exc, Problem):
        return exc.status
    if isinstance(exc, (RuleViolation, UnstorableText)):
        return 422
    if isinstance(exc, HTTPException):
        return exc.status_code
    return 503 if outage.is_outage(exc) else 500


EXCEPTION_HANDLERS = {
    UnstorableText: _on_unstorable,
    Problem: _on_problem,
    RuleViolation: _on_rule_violation,
    HTTPException: _on_http,
    Exception: _on_unexpected,
}
