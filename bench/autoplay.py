"""``python -m bench.autoplay``: whole fights of every ruleset played from the next moves alone.

Starts ``fracas serve`` on a free port with its own embedded PostgreSQL (or uses ``--url``), then
plays ``--fights`` fights of each ruleset through ``server.cli.autoplay`` (reported dice, the GM and
each player with their own token, only what ``GET /encounters/{id}/actions`` offers) and prints,
for each ruleset, fights finished, commands, stalls, refused offers, 5xx, the dice a command
asked for beyond those listed, and the time. The target (issue 37): every ruleset, 50 seeds
each, 0 stalls, 0 refused offers and 0 5xx. A benchmark: it prints, it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from domain.rulesets import default_registry
from server.cli.autoplay import run

FRACAS = str(Path(shutil.which("fracas") or Path(__file__).resolve().parents[1] / ".venv" / "bin" / "fracas"))


@contextlib.contextmanager
def served() -> Iterator[str]:
    """``fracas serve`` with an embedded PostgreSQL in a fresh folder, on a free port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="fracas-autoplay-") as tmp:
        os.chmod(tmp, 0o755)
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env.update(FRACAS_DATA_DIR=os.path.join(tmp, "pgdata"), FRACAS_RATE_LIMIT="0")
        proc = subprocess.Popen([FRACAS, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/health", timeout=1).status_code == 200:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("fracas serve did not come up")
                time.sleep(0.2)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="all", help="a ruleset id, or all (default)")
    parser.add_argument("--fights", type=int, default=50, help="fights per ruleset (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    args = parser.parse_args()
    ids = [r.id for r in default_registry().all()] if args.ruleset == "all" else [args.ruleset]
    with contextlib.ExitStack() as stack:
        base = args.url or stack.enter_context(served())
        for rid in ids:
            started = time.perf_counter()
            tally = run(base, rid, args.seed, args.fights)
            took = time.perf_counter() - started
            print(f"{rid}: {tally.line()}, {took:.1f} s ({tally.commands / took:.0f} commands/s)", flush=True)
            for refused in tally.refused[:5]:
                print(f"  refused: {refused}")


if __name__ == "__main__":
    main()
