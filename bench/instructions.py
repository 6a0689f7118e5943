"""Instructions counted by valgrind's callgrind: a figure the rest of a shared host cannot move.

On this 2-core machine CPU time moves 15-30% from one run to the next with whatever else runs
(bench/README.md); the instructions a piece of work executes move ~0.2%, so a change of 1% shows
in one pair of runs. A bench re-runs itself under ``valgrind --tool=callgrind
--instr-atstart=no`` (``run``) and marks the work to count (``counted``): start-up, imports and
warm-ups are not counted. Every instruction weighs alike (a cache miss or a system call's time in
the kernel is not in it), so a gain is confirmed in time on a quiet host. Needs Debian's
``valgrind``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator

ENV = "FRACAS_BENCH_CALLGRIND"  # set in the process that runs under callgrind


def available() -> bool:
    return shutil.which("valgrind") is not None and shutil.which("callgrind_control") is not None


def under_callgrind() -> bool:
    """This process is the one ``run`` started: it should count its work and print nothing else."""
    return os.environ.get(ENV) == "1"


def _toggle(state: str) -> None:
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True)


@contextlib.contextmanager
def counted() -> Iterator[None]:
    """Count the instructions of the block (only under ``run``; elsewhere it does nothing)."""
    if not under_callgrind():
        yield
        return
    _toggle("on")
    try:
        yield
    finally:
        _toggle("off")


def run(module: str, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``python -m module *args`` under callgrind: the instructions its ``counted`` blocks executed,
    and what it printed. Hash randomisation off, so set iteration (and with it the work) is the same
    every run. ``env``: more settings for that process only (never this one's environment: a test
    calling this in pytest's process would hand them to every server started after it)."""
    if not available():
        raise RuntimeError("counting instructions needs valgrind (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="fracas-callgrind-") as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/out.%p",
             sys.executable, "-m", module, *args],
            capture_output=True, text=True, env={**os.environ, **(env or {}), ENV: "1", "PYTHONHASHSEED": "0"},
        )
    found = [int(n.replace(",", "")) for n in re.findall(r"Collected : ([\d,]+)", done.stderr)]
    if done.returncode != 0 or not found:
        raise RuntimeError(f"{module} under callgrind failed ({done.returncode}):\n"
                           f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return max(found), done.stdout  # the process that did the work (a child it started counts nothing)
