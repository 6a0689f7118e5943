"""The server tunes its garbage collector once started (server.app.tune_garbage_collector).

Run in a fresh interpreter: freezing the test process's own objects would keep them for the
rest of the run."""

from __future__ import annotations

import os
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


PACE = """
import asyncio, gc, weakref
import server.app as app

class Node:
    pass

def cycle():
    node = Node()
    node.me = node
    return node

async def main():
    gc.set_threshold(10**9, 10**9, 10**9)  # no collection by the count: only the pace's
    app.FULL_COLLECTION_SECONDS = {full}
    old = cycle()
    gc.collect(0)  # it lives through a young collection: an older generation's now
    old_gone, old = weakref.ref(old), None
    young_gone = weakref.ref(cycle())
    task = asyncio.create_task(app.pace_collector(0.01))
    await asyncio.sleep(0.2)
    task.cancel()
    print(young_gone() is None, old_gone() is None)

asyncio.run(main())
"""


def paced(full: float) -> str:
    return subprocess.run([sys.executable, "-c", PACE.format(full=full)], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_young_generation_is_collected_by_the_clock_and_every_generation_now_and_then() -> None:
    """Python collects when allocations outnumber deallocations by the threshold; a server that
    frees the last state's objects as it makes the next hardly moves that count, and its young
    generation grew to 300,000 objects, each collection a 50-230 ms pause (bench/journal)."""
    assert paced(full=3600) == "True False", "young garbage goes within the pace; older waits for a full collection"
    assert paced(full=0.05) == "True True", "a full collection now and then takes the older garbage too"


STARTED = """
import asyncio, sys
from server.app import create_app
from server.settings import Settings

async def main():
    settings = Settings.from_env()
    app = create_app(sys.argv[1], settings)
    for hook in app.on_startup:
        await hook(app)
    task = getattr(app.state, "collector", None)
    running = task is not None and not task.done()
    for hook in app.on_shutdown:
        await hook(app)
    await asyncio.sleep(0)
    print(running, task is None or task.cancelled())

asyncio.run(main())
"""


async def test_a_server_process_paces_its_collector_unless_told_not_to(database_url: str) -> None:
    def started(**env: str) -> str:
        return subprocess.run([sys.executable, "-c", STARTED, database_url], capture_output=True, text=True,
                              check=True, env={**os.environ, "FRACAS_PROJECTIONS": "external", **env}).stdout.strip()

    assert started(FRACAS_GC_THRESHOLD="50000") == "True True", "paced from start-up, stopped at shut-down"
    assert started(FRACAS_GC_THRESHOLD="50000", FRACAS_GC_PACE="0") == "False True"
    assert started(FRACAS_GC_THRESHOLD="0") == "False True", "Python's collector left alone: no pace either"
