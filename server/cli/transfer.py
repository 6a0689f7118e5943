"""The ``fracas export``, ``fracas verify`` and ``fracas import`` subcommands.

``export`` and ``import`` use the database every command does (``server/store/which_database.py``:
``DATABASE_URL``, or the embedded PostgreSQL in ``FRACAS_DATA_DIR``); ``verify`` needs no
server and no database: it reads the file and runs the audit (``projections/``) on it.

Exit codes: 0 done (verified); 1 the file does not verify, or the import or export is
refused; 2 the file cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OK, FAILED, UNREADABLE = 0, 1, 2


def add_commands(sub: Any) -> None:
    """Register the three subcommands on ``fracas``'s subparsers."""
    ex = sub.add_parser("export", help="write an encounter's events as NDJSON, with what is needed to verify them")
    ex.add_argument("encounter_id")
    ex.add_argument("--output", "-o", default="-", help="the file to write (default: standard output)")
    ex.add_argument(
        "--include-seed", action="store_true",
        help="carry the dice seed of a fight that has not ended (to move it to another server); keep such a "
             "file secret",
    )
    ex.set_defaults(func=cmd_export)

    ve = sub.add_parser("verify", help="check an export file offline: hash chain, seed, every seeded roll")
    ve.add_argument("file", help="the export file ('-': standard input)")
    ve.set_defaults(func=cmd_verify)

    im = sub.add_parser("import", help="load an export file into this database (it is verified first)")
    im.add_argument("file", help="the export file ('-': standard input)")
    im.set_defaults(func=cmd_import)


def _lines(path: str) -> Iterator[bytes]:
    if path == "-":
        yield from sys.stdin.buffer
        return
    with Path(path).open("rb") as f:
        yield from f


def _fail(command: str, message: str, status: int) -> int:
    print(f"fracas {command}: {message}", file=sys.stderr)
    return status


def cmd_export(args: argparse.Namespace) -> int:
    import asyncpg

    from server.store.migrations import migrate
    from server.store.transfer import TransferRefused, export_encounter
    from server.store.which_database import database_url

    dsn = database_url()

    async def run() -> Any:
        conn = await asyncpg.connect(dsn)
        try:
            await migrate(conn)  # a fresh database (the embedded one, first run) has no tables yet
            return await export_encounter(conn, args.encounter_id, include_seed=args.include_seed)
        finally:
            await conn.close()

    try:
        exported = asyncio.run(run())
    except TransferRefused as exc:
        return _fail("export", f"{exc} ({exc.code})", FAILED)
    if args.output == "-":
        sys.stdout.buffer.writelines(exported.lines)
        sys.stdout.flush()
    else:
        Path(args.output).write_bytes(b"".join(exported.lines))
    report = exported.audit.report
    where = "standard output" if args.output == "-" else args.output
    print(f"exported encounter {args.encounter_id}: {report.events} events (head {report.head_hash}) to {where}",
          file=sys.stderr)
    if not report.ok:
        print("warning: the log does not verify; exported as it is:", file=sys.stderr)
        _print_summary(report, sys.stderr)
    return OK


def cmd_verify(args: argparse.Namespace) -> int:
    from projections.export_file import FileUnreadable, read_file

    try:
        file, result = read_file(_lines(args.file))
    except (FileUnreadable, OSError) as exc:
        return _fail("verify", str(exc), UNREADABLE)
    h = file.header
    print(f"{h.encounter_id} ({h.ruleset}, “{h.name}”), exported {h.exported_at.isoformat()}")
    if h.seed is not None and not h.seed_revealed:
        print("note: this file carries the secret dice seed of a fight that had not ended")
    _print_summary(result.report, sys.stdout)
    if result.state is not None:
        print(f"Replays to version {result.state.version}: {result.state.status}, round {result.state.round}, "
              f"{len(result.state.combatants)} combatant(s).")
    return OK if result.report.ok else FAILED


def cmd_import(args: argparse.Namespace) -> int:
    import asyncpg

    from projections.export_file import FileUnreadable
    from server.store.migrations import migrate
    from server.store.transfer import TransferRefused, import_encounter
    from server.store.which_database import database_url

    dsn = database_url()

    async def run() -> Any:
        conn = await asyncpg.connect(dsn)
        try:
            await migrate(conn)
            return await import_encounter(conn, _lines(args.file))
        finally:
            await conn.close()

    try:
        imported = asyncio.run(run())
    except (FileUnreadable, OSError) as exc:
        return _fail("import", str(exc), UNREADABLE)
    except TransferRefused as exc:
        return _fail("import", f"refused ({exc.code}): {exc}", FAILED)
    state = imported.audit.state
    assert state is not None
    print(f"imported encounter {imported.encounter_id}: {imported.events} events, verified; it replays to "
          f"version {state.version} ({state.status}, round {state.round})")
    print(f"GM token (shown once; the exporting server's tokens do not travel): {imported.gm_token}")
    return OK


def _print_summary(report: Any, stream: Any) -> None:
    from projections.audit import summary

    for line in summary(report):
        print(line, file=stream)
