"""``fracas projections rebuild [NAME ...]``: rebuild read models from the event log;
``fracas projections run``: keep them up to date (the projector, ``server/store/projector.py``).

It uses the database every command does (``server/store/which_database.py``: ``DATABASE_URL``, or
the embedded PostgreSQL in ``FRACAS_DATA_DIR``), applies the migrations first (a no-op when up
to date), and may run while servers keep serving: see ``projections/rebuild.py``.

Exit codes: 0 rebuilt; 1 another rebuild of the same projection is running; 2 no such projection.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any


def add_commands(sub: Any) -> None:
    pr = sub.add_parser("projections", help="the read models built from the event log")
    psub = pr.add_subparsers(dest="projections_command", required=True)
    rb = psub.add_parser("rebuild", help="rebuild read models from the log, while servers keep serving")
    rb.add_argument("names", nargs="*", metavar="NAME",
                    help="the projections to rebuild (default: all): encounter_list, combatant_statistics")
    rb.add_argument("--batch-size", type=int, default=5000, help="events per transaction (default 5000)")
    rb.set_defaults(func=cmd_rebuild)
    run = psub.add_parser("run", help="keep the read models up to date, in this process (fracas serve starts one)")
    run.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)  # stop when this process is gone
    run.set_defaults(func=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    from server.store.projector import run
    from server.store.which_database import database_url

    dsn = database_url(serving=True)  # a server process: not as the owner
    try:
        import uvloop

        uvloop.run(run(dsn, args.parent))
    except ImportError:  # no uvloop (Windows)
        asyncio.run(run(dsn, args.parent))
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    from projections.catalog import named

    try:
        projections = named(args.names)
    except KeyError as exc:
        print(f"fracas projections rebuild: {exc.args[0]}", file=sys.stderr)
        return 2
    from server.store.which_database import database_url

    return asyncio.run(_rebuild(database_url(), projections, max(1, args.batch_size)))


async def _rebuild(dsn: str, projections: list[Any], batch_size: int) -> int:
    import asyncpg

    from projections.rebuild import RebuildBusy, rebuild
    from server.store.migrations import migrate

    conn = await asyncpg.connect(dsn)
    reader = None
    try:
        await migrate(conn)
        reader = await asyncpg.connect(dsn)  # the next batch is read on it while one is applied
        for p in projections:
            try:
                done = await rebuild(conn, p, batch_size=batch_size, reader=reader)
            except RebuildBusy as exc:
                print(f"fracas projections rebuild: {exc}", file=sys.stderr)
                return 1
            print(f"{done.projection}: {done.events:,} events in {done.seconds:.2f} s "
                  f"({done.rate:,.0f} events/s); generation {done.generation} is live")
    finally:
        if reader is not None:
            await reader.close()
        await conn.close()
    return 0
