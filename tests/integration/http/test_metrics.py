"""Issue 42, "Prometheus metrics": "`/metrics` in Prometheus's text format, through `prometheus-client`,
covering: commands, by ruleset and outcome; command latency, as a histogram; appends and
group-commit sizes; live connections and frames; webhook deliveries, lag and failures; PostgreSQL
pool use. It is guarded by the operator key [...] The tests parse it with `prometheus_client.parser`."
One process here (the tests' app): tests/e2e/test_metrics_workers.py has `--workers 2`."""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from server.settings import Settings
from tests.integration.fight import add, command, open_encounter
from tests.integration.receiver import receiving
from tests.integration.webhooks.test_webhooks import FAST, register, served

KEY = "op-metrics"


def parsed(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample, by its name and labels."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def scrape(client: httpx.AsyncClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = await client.get("/metrics", headers={"Authorization": f"Bearer {KEY}"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r.text
    return parsed(r.text)


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_count_what_the_server_did(database_url: str) -> None:
    with receiving(plan=lambda n: 500 if n == 0 else 200) as receiver:
        async with served(database_url, FAST, operator_key=KEY) as client:
            before = await scrape(client)
            client.headers["Authorization"] = f"Bearer {KEY}"
            enc = await open_encounter(client)
            await register(client, enc, receiver, after_version=0)
            await add(client, enc, "Mira", modifier=2)
            await add(client, enc, "Bandit", controller="gm")
            await command(client, enc, {"type": "StartEncounter"}, expect=422)  # refused: no initiative
            await command(client, enc, {"type": "RollInitiative"})
            await command(client, enc, {"type": "StartEncounter"})
            r = await client.get(f"/encounters/{enc}/live", params={"follow": "false"})
            assert r.status_code == 200
            version = (await client.get(f"/encounters/{enc}")).json()["version"]
            await receiver.until(lambda: receiver.versions()[-1:] == [version])
            after = await scrape(client)
    pop = {"ruleset": "places-of-power"}

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("fracas_commands_total", outcome="recorded", **pop) == 2
    assert grew("fracas_commands_total", outcome="refused", **pop) == 1
    assert grew("fracas_command_seconds_count", **pop) == 3
    assert value(after, "fracas_command_seconds_bucket", le="+Inf", **pop) == value(
        after, "fracas_command_seconds_count", **pop)
    assert grew("fracas_append_statements_total") >= 2  # the two recorded (and the adds, the opening)
    assert grew("fracas_append_group_commands_sum") >= grew("fracas_append_statements_total")
    assert grew("fracas_live_frames_total", transport="sse") >= 1
    assert value(after, "fracas_live_connections", transport="sse") == 0  # that stream has ended
    assert grew("fracas_webhook_failures_total") == 1 and grew("fracas_webhook_deliveries_total", outcome="failed") == 1
    assert grew("fracas_webhook_deliveries_total", outcome="delivered") >= 1
    assert grew("fracas_webhook_lag_seconds_count") >= 1
    assert value(after, "fracas_pool_connections", state="in_use") + value(
        after, "fracas_pool_connections", state="idle") >= 1


async def test_metrics_need_the_operator_key(database_url: str) -> None:
    async with served(database_url, FAST, operator_key=KEY) as client:
        r = await client.get("/metrics")
        assert r.status_code == 401 and r.json()["code"] == "operator_key_required"
        r = await client.get("/metrics", headers={"Authorization": "Bearer nope"})
        assert r.status_code == 403 and r.json()["code"] == "operator_key_invalid"
    settings: Any = Settings.from_env()
    async with served(database_url, FAST) as client:
        if settings.operator_key is None:
            r = await client.get("/metrics", headers={"Authorization": f"Bearer {KEY}"})
            assert r.status_code == 403 and r.json()["code"] == "operator_key_not_set"
