"""Keep token secrets out of every log line.

Live streams take the token as ``?token=`` (a browser's WebSocket and EventSource cannot set
headers), and uvicorn writes the query string as the client sent it: in ``WebSocket <path>
[accepted]`` lines and, with ``--access-log``, in every request's line. The server reads query
parameters after percent-decoding their names (``?%74oken=`` is ``token``), so the redaction
decodes each name the same way before it compares; it hides the value of any parameter named
``token`` in any case or spelling, and any ``frc_`` secret anywhere in a line (in a path, a
message, a traceback).

It works on every log record the process makes (a log record factory: whichever logger,
handler or formatter writes it): the message, its arguments, the traceback and the stack.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote_plus

REDACTED = "[redacted]"
# a query parameter: its separator, its name as sent, its value as sent (to the next & or space)
_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;?\s\"'<>]{1,100})=(?P<value>[^&\s]*)")
_SECRET = re.compile(r"frc_[A-Za-z0-9_\-]{8,}")


def _is_token_name(name: str) -> bool:
    for _ in range(3):  # as the server decodes it, and past a second encoding too
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return name.strip().lower() == "token"


def _parameter(m: re.Match[str]) -> str:
    if not _is_token_name(m["name"]):
        return m[0]
    value = m["value"]
    quote = value[-1] if value[-1:] in ("\"", "'") else ""  # the closing quote of a quoted path
    return f"{m['lead']}{m['name']}={REDACTED}{quote}"


def redact(text: str) -> str:
    """``text`` without token secrets: the values of ``token`` parameters, and ``frc_`` secrets."""
    if "=" in text:
        text = _PARAMETER.sub(_parameter, text)
    if "frc_" in text:
        text = _SECRET.sub("frc_" + REDACTED, text)
    return text


def _redact_arg(arg: Any) -> Any:
    if isinstance(arg, str):
        return redact(arg)
    if arg is None or isinstance(arg, (int, float)):
        return arg
    if isinstance(arg, (bytes, bytearray)):
        return redact(bytes(arg).decode("latin-1"))
    try:
        text = str(arg)
    except Exception:  # an argument that cannot be shown is not shown by the formatter either
        return arg
    cleaned = redact(text)
    return arg if cleaned == text else cleaned


_formatter = logging.Formatter()


def redact_record(record: logging.LogRecord) -> None:
    """Redact a record in place: message, arguments (each kept in its place: uvicorn's access
    formatter reads them one by one), traceback (formatted now, redacted) and stack."""
    template = record.msg if isinstance(record.msg, str) else str(record.msg)
    cleaned = redact(template)
    if record.args and cleaned != template:  # a secret in the template itself: the whole message
        try:
            cleaned = redact(record.getMessage())
        except (TypeError, ValueError):
            pass
        record.args = None
    record.msg = cleaned
    if isinstance(record.args, tuple):
        record.args = tuple(_redact_arg(a) for a in record.args)
    elif isinstance(record.args, dict):
        record.args = {k: _redact_arg(v) for k, v in record.args.items()}
    if record.exc_info and not record.exc_text:
        record.exc_text = _formatter.formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = redact(record.exc_text)
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


def keep_tokens_out_of_logs() -> None:
    """Redact every log record this process makes from now on (idempotent)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "redacts_tokens", False):
        return

    def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        redact_record(record)
        return record

    redacting.redacts_tokens = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(redacting)
