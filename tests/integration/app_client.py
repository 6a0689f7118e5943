"""The server's app in the test process, started and stopped as ``fracas serve`` would, with an
HTTP client speaking to it: against the fixtures' PostgreSQL, with the default registry or another."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from domain.core.ruleset import Registry
from server.app import create_app
from server.settings import Settings


@asynccontextmanager
async def app_client(database_url: str, settings: Settings | None = None,
                     registry: Registry | None = None) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(database_url, settings or Settings.from_env(), registry=registry)
    for hook in app.on_startup:
        await hook(app)
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
            yield c
    finally:
        for hook in app.on_shutdown:
            await hook(app)
