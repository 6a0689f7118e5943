"""Settings from the environment (and CLI flags, which set the same variables)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    database_url: str | None
    data_dir: Path
    pool_size: int
    max_body_bytes: int

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            data_dir=Path(os.environ.get("FRACAS_DATA_DIR", ".fracas/pgdata")).expanduser().resolve(),
            pool_size=int(os.environ.get("FRACAS_POOL_SIZE", "10")),
            max_body_bytes=int(os.environ.get("FRACAS_MAX_BODY_BYTES", str(256 * 1024))),
        )
