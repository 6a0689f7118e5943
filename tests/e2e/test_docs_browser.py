"""The API docs as a newcomer opens them, with no internet: a real ``fracas serve``, and
Debian's Chromium, offline (every host but 127.0.0.1 fails to resolve). Issue 17: "/schema
(Scalar) and /schema/swagger are blank pages without internet". Each page must show the
operations, and ask for nothing but this server."""

from __future__ import annotations

import os

import pytest

from server.http.api import ROUTES
from tests.e2e import chromium
from tests.e2e.test_cli import serving

pytestmark = pytest.mark.skipif(
    not chromium.installed(),
    reason=f"Chromium is not installed ({chromium.CHROMIUM}): `apt-get install -y chromium` (.ci/run does)",
)

# what each page shows once it has read the OpenAPI document: operations' summaries
SHOWN = ["Open an encounter", "Send a command", "Add a combatant (GM)", "List encounters"]


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url}


@pytest.mark.parametrize("page", ["/schema", "/schema/swagger"])
async def test_the_docs_render_their_operations_offline(env: dict[str, str], page: str) -> None:
    assert ROUTES  # the summaries above are those of server/http/api.py and server/http/read_models.py
    with serving(env) as (base, _), chromium.browser() as devtools:
        seen = await chromium.visit(devtools, base + page, SHOWN)
    for summary in SHOWN:
        assert summary in seen.text, f"{page} does not show {summary!r}:\n{seen.text[:2000]}"
    elsewhere = [u for u in seen.requests if not u.startswith((base + "/", "data:", "blob:", "about:"))]
    assert elsewhere == [], f"{page} asked for {elsewhere}"
    assert any(u.endswith(".js") for u in seen.requests), seen.requests
    assert seen.failed == [], seen.failed
