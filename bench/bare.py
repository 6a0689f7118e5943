"""The ceiling: a bare Litestar app that decodes a small JSON body with msgspec and INSERTs one row.

Same stack as Fracas (Litestar, msgspec, the pool ``server.store.database.create_pool`` makes,
uvicorn + uvloop + httptools, one worker), none of its work (no replay, decide, hash chain or big reply). Run by
``python -m bench.append --with-bare``; alone::

    DATABASE_URL=postgresql://... python -m bench.bare --port 8001

It writes to ``bench_raw`` (created by ``bench.append``).
"""

from __future__ import annotations

import argparse
import sys
import uuid
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get, post

from server.store.database import create_pool
from server.settings import Settings

INSERT = "INSERT INTO bench_raw (encounter_id, version, data) VALUES ($1, $2, $3::jsonb)"


class AppendBody(msgspec.Struct, forbid_unknown_fields=True):
    """One event to append, as the bench sends it."""

    encounter_id: uuid.UUID
    version: int
    data: msgspec.Raw


_decoder = msgspec.json.Decoder(AppendBody)
_OK = b'{"appended":1}'


@post("/append", status_code=200)
async def append(request: Request[Any, Any, Any]) -> Response[bytes]:
    body = _decoder.decode(await request.body())
    await request.app.state.pool.execute(INSERT, body.encounter_id, body.version, bytes(body.data).decode())
    return Response(content=_OK, media_type="application/json")


@get("/health")
async def health(request: Request[Any, Any, Any]) -> Response[bytes]:
    await request.app.state.pool.fetchval("SELECT 1")
    return Response(content=b'{"status":"ok"}', media_type="application/json")


def create_app() -> Litestar:
    """The app, with the pool Fracas makes (DATABASE_URL, FRACAS_POOL_SIZE or 10 connections)."""
    settings = Settings.from_env()
    dsn = settings.database_url
    if not dsn:
        raise RuntimeError("set DATABASE_URL")

    async def startup(app: Litestar) -> None:
        app.state.pool = await create_pool(dsn, settings.pool_size)

    async def shutdown(app: Litestar) -> None:
        await app.state.pool.close()

    return Litestar(route_handlers=[append, health], on_startup=[startup], on_shutdown=[shutdown])


def serve(factory: str, prog: str, description: str, port: int, argv: list[str] | None) -> int:
    """Run a ceiling app (``module:create_app``) as ``bench.append`` starts it: uvicorn, one worker,
    uvloop and httptools, as Fracas is served."""
    import uvicorn

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=port)
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    uvicorn.run(factory, factory=True, host=args.host, port=args.port, workers=1, loop="uvloop",
                http="httptools", log_level=args.log_level, access_log=False)
    return 0


def main(argv: list[str] | None = None) -> int:
    return serve("bench.bare:create_app", "python -m bench.bare", "The bare ceiling app.", 8001, argv)


if __name__ == "__main__":
    sys.exit(main())
