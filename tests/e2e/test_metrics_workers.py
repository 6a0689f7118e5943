"""Issue 42: "/metrics [...] is correct with `--workers N` (prometheus-client's multiprocess mode, or a
label for each worker)". A real ``fracas serve --workers 2``: whichever worker answers a scrape, it
counts every worker's commands and open live streams."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import httpx
import websockets

from tests.e2e.test_cli import serving
from tests.integration.http.test_metrics import parsed

KEY = "op-workers"


async def _play(base: str) -> None:
    op = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        tables = []
        for n in range(6):  # new connections each: uvicorn's workers share the socket, so both serve
            async with httpx.AsyncClient(base_url=base, timeout=30) as one:
                opened = (await one.post("/encounters", headers=op, json={"ruleset": "novus", "name": f"T{n}"})).json()
                gm = {"Authorization": f"Bearer {opened['gm_token']['token']}"}
                r = await one.post(f"/encounters/{opened['encounter_id']}/commands", headers=gm,
                                   json={"type": "RollInitiative"})
                assert r.status_code == 422  # nobody to roll for: refused
                tables.append((opened["encounter_id"], opened["gm_token"]["token"]))
        ws_base = "ws" + base.removeprefix("http")
        sockets = [await websockets.connect(f"{ws_base}/encounters/{enc}/live?token={token}") for enc, token in tables]
        try:
            for ws in sockets:
                await asyncio.wait_for(ws.recv(), 10)  # hello: the stream is open
            seen = []
            for _ in range(8):  # fresh connections: the scrapes reach both workers
                async with httpx.AsyncClient(base_url=base, timeout=30) as one:
                    r = await one.get("/metrics", headers=op)
                    assert r.status_code == 200, r.text
                    seen.append(parsed(r.text))
            for samples in seen:
                assert samples[("fracas_commands_total", (("outcome", "refused"), ("ruleset", "novus")))] == 6
                assert samples[("fracas_live_connections", (("transport", "websocket"),))] == 6
                assert samples[("fracas_live_frames_total", (("transport", "websocket"),))] >= 6
                assert samples[("fracas_pool_connections", (("state", "idle"),))] + samples[
                    ("fracas_pool_connections", (("state", "in_use"),))] >= 2  # both workers' pools
        finally:
            for ws in sockets:
                await ws.close()
        del c


def test_any_worker_counts_every_workers_commands_and_streams(database_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "metrics"  # the operator's folder for them (else fracas serve makes one)
    env = {**os.environ, "DATABASE_URL": database_url, "FRACAS_OPERATOR_KEY": KEY, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    with serving(env, "--workers", "2") as (base, _):
        asyncio.run(_play(base))
        counted = {p.stem.rsplit("_", 1)[1] for p in folder.glob("counter_*.db")}
    assert len(counted) >= 2, f"the commands and frames were counted by one process only: {counted}"
