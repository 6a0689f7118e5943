"""Token secrets never reach a log line (issue 16: "A token is never written to a log, however
the query parameter is spelt")."""

from __future__ import annotations

import logging
from urllib.parse import parse_qsl

import pytest

from server.auth.redaction import keep_tokens_out_of_logs, redact, redact_record

SECRET = "frc_aWfsmI5M9Eb5eV_Mp-g3Tz3gUHTjapcVNpG_6j6geiI"
BODY = SECRET.removeprefix("frc_")


def every_char(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode())


@pytest.mark.parametrize("query", [
    f"token={SECRET}", f"%74oken={SECRET}", f"t%6Fken={BODY}", f"%74%6F%6B%65%6E={every_char(SECRET)}",
    f"after=3&%2574oken={BODY}", f"TOKEN={BODY}", f"a=1&tok%65n={BODY}&b=2", f"token={every_char(BODY)}",
])
def test_a_token_parameter_is_redacted_however_its_name_is_spelt(query: str) -> None:
    line = f'127.0.0.1:5 - "GET /encounters/e/live?{query} HTTP/1.1" 200'
    cleaned = redact(line)
    assert BODY not in cleaned and every_char(BODY) not in cleaned and "[redacted]" in cleaned
    assert cleaned.endswith(' HTTP/1.1" 200') and "/encounters/e/live?" in cleaned
    # the other parameters stay
    for name, value in parse_qsl(query):
        if name in ("after", "a", "b"):
            assert f"{name}={value}" in cleaned


def test_a_secret_anywhere_else_is_redacted() -> None:
    assert redact(f"GET /encounters/{SECRET}") == "GET /encounters/frc_[redacted]"
    assert redact('"WebSocket /x?token=abc" [accepted]') == '"WebSocket /x?token=[redacted]" [accepted]'
    assert redact("nothing=here&tokens=1") == "nothing=here&tokens=1"


def test_every_record_of_the_process_is_redacted(caplog: pytest.LogCaptureFixture) -> None:
    """The message, its arguments (of any type), a template that holds a secret, a traceback."""
    keep_tokens_out_of_logs()
    keep_tokens_out_of_logs()  # once is enough: not twice over
    log = logging.getLogger("anything.at.all")
    with caplog.at_level(logging.INFO):
        log.info("%s %s %d", f"/live?%74oken={SECRET}", f"x {SECRET}".encode(), 3)
        log.info(f"/live?token={SECRET}&after=%s", 5)
        try:
            raise ValueError(f"/live?%74oken={SECRET}")
        except ValueError:
            log.exception("failed")
    text = caplog.text
    assert BODY not in text and "3" in text and "after=5" in text and "ValueError" in text


def test_a_record_keeps_its_arguments_in_place() -> None:
    """uvicorn's access formatter reads the five arguments one by one."""
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/live?%74oken={SECRET}", "1.1", 200), None)
    redact_record(record)
    assert isinstance(record.args, tuple) and len(record.args) == 5 and record.args[4] == 200
    assert record.args[2] == "/live?%74oken=[redacted]"
