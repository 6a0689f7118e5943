"""Prometheus metrics (``GET /metrics``, the operator's): what a running server is doing.

- ``fracas_commands_total{ruleset, outcome}`` (``recorded``, ``refused``: a 4xx, ``failed``: a 5xx)
  and ``fracas_command_seconds{ruleset}``, from a command's arrival to its answer;
- ``fracas_append_statements_total`` and ``fracas_append_group_commands`` (commands per statement:
  the group commit's sizes);
- ``fracas_live_connections{transport}`` and ``fracas_live_frames_total{transport}``;
- ``fracas_webhook_deliveries_total{outcome}``, ``fracas_webhook_lag_seconds`` (an event's
  recording to its delivery) and ``fracas_webhook_failures_total``;
- ``fracas_pool_connections{state}`` (``in_use``, ``idle``): each process's PostgreSQL pool.

Under ``fracas serve`` the processes share ``PROMETHEUS_MULTIPROC_DIR`` (``share_metrics`` in
server/cli sets it before any process imports prometheus_client: its value class is chosen then),
and a scrape of any worker adds up every process's figures (prometheus-client's multiprocess mode).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

COMMANDS = Counter("fracas_commands", "Commands answered, by ruleset and outcome.", ["ruleset", "outcome"])
COMMAND_SECONDS = Histogram("fracas_command_seconds", "From a command's arrival to its answer.", ["ruleset"],
                            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
APPEND_STATEMENTS = Counter("fracas_append_statements", "Append statements the group commit started.")
GROUP_COMMANDS = Histogram("fracas_append_group_commands", "Commands appended in one statement.",
                           buckets=(1, 2, 4, 8, 16, 32, 64))
LIVE_CONNECTIONS = Gauge("fracas_live_connections", "Live streams open.", ["transport"],
                         multiprocess_mode="livesum")
LIVE_FRAMES = Counter("fracas_live_frames", "Live frames sent (each a message or a batch of them).", ["transport"])
WEBHOOK_DELIVERIES = Counter("fracas_webhook_deliveries", "Webhook posts, by outcome.", ["outcome"])
WEBHOOK_LAG = Histogram("fracas_webhook_lag_seconds", "From an event's recording to its delivery.",
                        buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300))
WEBHOOK_FAILURES = Counter("fracas_webhook_failures", "Webhook deliveries that failed (tried again later).")
POOL = Gauge("fracas_pool_connections", "PostgreSQL pool connections, by state.", ["state"],
             multiprocess_mode="livesum")

# the children used on every command, made once (``labels`` costs a look-up each time)
_commands: dict[tuple[str, str], Counter] = {}
_seconds: dict[str, Histogram] = {}


def command_answered(ruleset: str, status: int, seconds: float) -> None:
    outcome = "recorded" if status < 400 else "refused" if status < 500 else "failed"
    counter = _commands.get((ruleset, outcome))
    if counter is None:
        counter = _commands[(ruleset, outcome)] = COMMANDS.labels(ruleset, outcome)
    counter.inc()
    timer = _seconds.get(ruleset)
    if timer is None:
        timer = _seconds[ruleset] = COMMAND_SECONDS.labels(ruleset)
    timer.observe(seconds)


def pool_used(size: int, idle: int) -> None:
    POOL.labels("in_use").set(size - idle)
    POOL.labels("idle").set(idle)


def exposition() -> bytes:
    """The text format of every process's figures (each worker's, added up) or this one's."""
    if os.environ.get(MULTIPROC):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


async def watch_pool(pool: Any, every: float = 2.0) -> None:
    """Keep this process's pool figures fresh (a scrape reaches one worker; the others' are as they
    last set them), until cancelled."""
    while True:
        pool_used(pool.get_size(), pool.get_idle_size())
        await asyncio.sleep(every)
