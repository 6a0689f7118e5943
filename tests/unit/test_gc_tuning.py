"""The server tunes its garbage collector once started (server.app.tune_garbage_collector).

Run in a fresh interpreter: freezing the test process's own objects would keep them for the
rest of the run."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc
from server.app import tune_garbage_collector
tune_garbage_collector({threshold})
print(gc.get_threshold()[0], gc.get_freeze_count() > 0)
"""


def probe(threshold: int) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE.format(threshold=threshold)], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def test_startup_objects_are_frozen_and_the_young_generation_grows() -> None:
    assert probe(50_000) == "50000 True"


def test_zero_leaves_pythons_collector_alone() -> None:
    assert probe(0) == "700 False"
