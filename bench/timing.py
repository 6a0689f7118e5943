"""Best-of-N timing for the in-process benches."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any


def best(repeat: int, work: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> float:
    """The shortest of ``repeat`` runs of ``work()``, in seconds (of ``clock``: wall time by
    default; ``time.thread_time``: the CPU this thread used, which a busy host's other
    processes taking the cores skew less)."""
    times = []
    for _ in range(repeat):
        t = clock()
        work()
        times.append(clock() - t)
    return min(times)


async def abest(repeat: int, work: Callable[[], Awaitable[Any]]) -> float:
    """The shortest of ``repeat`` runs of ``await work()``, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        await work()
        times.append(time.perf_counter() - t)
    return min(times)
