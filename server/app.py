"""The Litestar application."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import License

from domain.core.ruleset import Registry
from domain.rulesets import default_registry
from projections import visibility
from projections.catalog import all_projections
from projections.runner import ProjectionRunner
from projections.wakeup import CHANNEL, Wakeup
from server import metrics
from server.auth.limits import TokenBuckets, rate_limit
from server.auth.redaction import keep_tokens_out_of_logs
from server.auth.tokens import TokenStore
from server.http.api import ROUTES
from server.http.audit import AUDIT_ROUTES
from server.http.docs import asyncapi_document, assets_router, render_plugins
from server.http.history import HISTORY_ROUTES
from server.http import agents
from server.http.agents import AGENT_ROUTES
from server.http.metrics import METRICS_ROUTES
from server.http.problems import EXCEPTION_HANDLERS
from server.http.read_models import READ_MODEL_ROUTES
from server.http.web_pages import WEB_ROUTES
from server.live.streams import LIVE_ROUTES, start_live, stop_live
from server.logs import request_lines
from server.schema.openapi_doc import document
from server.settings import Settings
from server.store.database import create_pool
from server.store.encounters import EncounterService
from server.store.events import EventStore
from server.store.migrations import migrate_dsn
from server.store.snapshots import Snapshots
from server.version import VERSION
from server.webhooks.delivery import Deliverer, WebhookSettings, WebhookStore
from server.webhooks.routes import WEBHOOK_ROUTES

log = logging.getLogger("fracas")


def tune_garbage_collector(threshold: int) -> None:
    """Once started, freeze what start-up made (modules, the app, its routes: never garbage)
    so that no collection walks it again, and let the youngest generation grow to
    ``threshold`` objects before a collection (Python's default: 700). A command allocates a
    few hundred short-lived objects, nearly all freed by reference counting; with the default
    the collector ran every few commands and its older generations' passes, over every cached
    state, showed in the tail latency (``bench/README.md``). Cycles are still collected.
    ``threshold`` 0 leaves Python's settings."""
    if threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, 50, 100)


FULL_COLLECTION_SECONDS = 300.0  # every generation, now and then: cycles that outlived the young one


async def pace_collector(seconds: float) -> None:
    """Collect the youngest generation every ``seconds``, and every generation every
    ``FULL_COLLECTION_SECONDS``. Python starts a collection when allocations outnumber
    deallocations by the threshold; here each commit frees the last head's views and next moves
    as it makes new ones, so that count hardly moved while the young generation grew to 300,000
    objects, and each collection paused a worker 50-230 ms (p99 at 300 tables 230-370 ms;
    bench/journal). By the clock, a collection walks only what the last ``seconds`` made."""
    loop = asyncio.get_running_loop()
    full = loop.time() + FULL_COLLECTION_SECONDS
    while True:
        await asyncio.sleep(seconds)
        if loop.time() >= full:
            gc.collect()
            full = loop.time() + FULL_COLLECTION_SECONDS
        else:
            gc.collect(0)


def create_app(
    database_url: str | None = None, settings: Settings | None = None, registry: Registry | None = None,
    webhook_settings: WebhookSettings | None = None,
) -> Litestar:
    """``registry``: the rulesets served (default: ``domain.rulesets``; a test adds its own)."""
    settings = settings or Settings.from_env()
    webhook_settings = webhook_settings or WebhookSettings.from_env()
    dsn = database_url or settings.database_url
    registry = registry or default_registry()
    visibility.serve(registry)  # what each viewer may see is filtered by the served rulesets' own rules
    keep_tokens_out_of_logs()  # live streams take ?token=: keep it out of every log line

    async def startup(app: Litestar) -> None:
        if not dsn:
            raise RuntimeError("No database: set DATABASE_URL, or start with `fracas serve`.")
        applied = await migrate_dsn(dsn)  # as the connecting user; the pool then runs as fracas_writer
        pool = await create_pool(dsn, settings.pool_size, wake_after_commit=True)
        log.info("Migrations: %s", ", ".join(applied) if applied else "up to date")
        app.state.pool = pool
        app.state.tokens = TokenStore(pool)
        app.state.snapshots = Snapshots(pool, registry, settings.snapshot_every)
        app.state.service = EncounterService(EventStore(pool), registry, app.state.tokens,
                                             snapshots=app.state.snapshots)
        app.state.wakeup = Wakeup(dsn)
        await app.state.wakeup.start()
        store = app.state.service.store
        store.on_commit = app.state.wakeup.announce  # readers are told after the commit ...
        store.wake_channel = CHANNEL  # ... or, by an append alone in flight, from its own transaction
        app.state.wakeup.own_backends = store.notifying_backends
        # the read models follow the log in the background (one process at a time runs each),
        # here or in a projector process beside the workers (``fracas serve``: server/store/projector.py)
        if settings.projections != "external":
            app.state.projections = ProjectionRunner(dsn, all_projections(registry), wakeup=app.state.wakeup)
            await app.state.projections.start()
        app.state.live = await start_live(app)
        app.state.webhooks = WebhookStore(pool)
        app.state.webhook_settings = webhook_settings
        if webhook_settings.enabled:  # every process delivers; a lease makes each delivery one process's
            # its claims and records commit without waiting for the disk: one lost in a crash only
            # means those events are delivered again (at least once); events are never written there
            app.state.webhook_pool = await create_pool(dsn, 2, settings={"synchronous_commit": "off"})
            app.state.deliverer = Deliverer(app.state.webhook_pool, app.state.service, app.state.wakeup,
                                            webhook_settings)
            await app.state.deliverer.start()
        app.state.pool_watch = asyncio.create_task(metrics.watch_pool(pool))
        app.state.agents = await agents.start(app)  # /mcp: AI agents, under the same tokens
        tune_garbage_collector(settings.gc_threshold)
        if settings.gc_threshold > 0 and settings.gc_pace > 0:
            app.state.collector = asyncio.create_task(pace_collector(settings.gc_pace), name="fracas-gc-pace")

    async def shutdown(app: Litestar) -> None:
        for task in ("pool_watch", "collector"):
            running = getattr(app.state, task, None)
            if running is not None:
                running.cancel()
        door = getattr(app.state, "agents", None)
        if door is not None:
            await door.stop()
        deliverer = getattr(app.state, "deliverer", None)
        if deliverer is not None:
            await deliverer.stop()
            await app.state.webhook_pool.close()
        await stop_live(app)
        projections = getattr(app.state, "projections", None)
        if projections is not None:
            await projections.stop()
        wakeup = getattr(app.state, "wakeup", None)
        if wakeup is not None:
            await wakeup.stop()
        snapshots = getattr(app.state, "snapshots", None)
        if snapshots is not None:
            await snapshots.close()
        pool = getattr(app.state, "pool", None)
        if pool is not None:
            await pool.close()

    middleware: list[Any] = [request_lines] if settings.log_format == "json" else []  # outermost: every answer
    if settings.rate_limit > 0:
        middleware.append(rate_limit(TokenBuckets(settings.rate_limit, settings.rate_burst)))
    cors = None
    if settings.cors_origins:
        cors = CORSConfig(
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type", "If-Match", "Idempotency-Key"],
            expose_headers=["ETag", "Location", "Retry-After"],
        )
    app = Litestar(
        route_handlers=[*ROUTES, *AUDIT_ROUTES, *HISTORY_ROUTES, *LIVE_ROUTES, *READ_MODEL_ROUTES, *WEBHOOK_ROUTES, *METRICS_ROUTES, *AGENT_ROUTES,
                        assets_router(), asyncapi_document, *WEB_ROUTES],
        middleware=middleware,
        # JSON logs: the logging set up for them (server/logs.py) stays as it is; else Litestar's own
        **({"logging_config": None} if settings.log_format == "json" else {}),
        cors_config=cors,
        on_startup=[startup],
        on_shutdown=[shutdown],
        exception_handlers=EXCEPTION_HANDLERS,  # type: ignore[arg-type]
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Fracas",
            version=VERSION,
            description=(
                "An event-sourced combat server for tabletop role-playing games. Every error is an "
                "RFC 9457 problem (application/problem+json) with a stable `code`."
            ),
            license=License(name="MIT", identifier="MIT"),  # OpenAPI 3.1: an SPDX identifier, or a url
            path="/schema",
            render_plugins=render_plugins(),  # served from the server's own files: server/http/docs.py
        ),
        debug=bool(os.environ.get("FRACAS_DEBUG")),
    )
    app.state.settings = settings
    document(app, registry)
    return app
