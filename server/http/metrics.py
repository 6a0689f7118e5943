"""``GET /metrics``: the server's Prometheus metrics (server/metrics.py), for the operator."""

from __future__ import annotations

from litestar import Request, Response, get

from server import metrics
from server.auth.operator import check_operator_key
from server.http.api import errors


@get("/metrics", opt={"token": "operator_only"}, operation_id="getMetrics", tags=["health"],
     summary="Prometheus metrics (operator)", responses=errors(401, 403, 429),
     description="Prometheus's text format: commands by ruleset and outcome, their latency, appends and "
                 "group-commit sizes, live connections and frames, webhook deliveries, lag and failures, "
                 "PostgreSQL pool use; with `--workers N`, every worker's added up. Needs the server's "
                 "operator key (`Authorization: Bearer <key>`); a server with none refuses it (403 "
                 "`operator_key_not_set`).",
     media_type=metrics.CONTENT_TYPE)
async def get_metrics(request: Request) -> Response[bytes]:
    check_operator_key(request)
    pool = getattr(request.app.state, "pool", None)
    if pool is not None:  # this worker's now (the others' from their last look: ``watch_pool``)
        metrics.pool_used(pool.get_size(), pool.get_idle_size())
    return Response(content=metrics.exposition(), media_type=metrics.CONTENT_TYPE)


METRICS_ROUTES = [get_metrics]
