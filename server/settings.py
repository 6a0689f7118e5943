"""Settings from the environment (and CLI flags, which set the same variables)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from server.http.lan import check_public_url
from server.logs import log_format


@dataclass(frozen=True)
class Settings:
    database_url: str | None
    data_dir: Path
    pool_size: int
    max_body_bytes: int
    operator_key: str | None = None
    rate_limit: float = 50.0  # requests per second per token (0: off)
    rate_burst: int = 100
    cors_origins: tuple[str, ...] = ()
    snapshot_every: int = 1000  # a state snapshot every this many versions (0: none)
    gc_threshold: int = 50_000  # the collector's youngest generation threshold once started (0: Python's)
    gc_pace: float = 0.1  # seconds between the young generation's collections (server.app.pace_collector; 0: off)
    projections: str = "inline"  # "external": the app runs no read-model runner (a projector process does)
    # the address links are made with (FRACAS_PUBLIC_URL: a server behind a proxy); None: each request's own
    public_url: str | None = None
    # FRACAS_LOG_FORMAT: "text" (the default) or "json" (one line a record, one a request: server/logs.py)
    log_format: str = "text"

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            data_dir=Path(os.environ.get("FRACAS_DATA_DIR", ".fracas/pgdata")).expanduser().resolve(),
            pool_size=int(os.environ.get("FRACAS_POOL_SIZE", "10")),
            max_body_bytes=int(os.environ.get("FRACAS_MAX_BODY_BYTES", str(256 * 1024))),
            operator_key=os.environ.get("FRACAS_OPERATOR_KEY") or None,
            log_format=log_format(os.environ.get("FRACAS_LOG_FORMAT")),
            rate_limit=float(os.environ.get("FRACAS_RATE_LIMIT", "50")),
            rate_burst=int(os.environ.get("FRACAS_RATE_BURST", "100")),
            cors_origins=tuple(o.strip() for o in os.environ.get("FRACAS_CORS_ORIGINS", "").split(",") if o.strip()),
            snapshot_every=int(os.environ.get("FRACAS_SNAPSHOT_EVERY", "1000")),
            gc_threshold=int(os.environ.get("FRACAS_GC_THRESHOLD", "50000")),
            gc_pace=float(os.environ.get("FRACAS_GC_PACE", "0.1")),
            projections=os.environ.get("FRACAS_PROJECTIONS", "inline"),
            public_url=check_public_url(os.environ["FRACAS_PUBLIC_URL"])
            if os.environ.get("FRACAS_PUBLIC_URL", "").strip() else None,
        )
