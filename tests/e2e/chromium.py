"""Headless Chromium (Debian's ``chromium``) driven over the DevTools protocol with the
``websockets`` client the project already has: open a page as a person would, wait for what
it shows, and list every request the page made.

The browser runs offline: every host name but 127.0.0.1 fails to resolve, so a page that
needs the internet shows it by not rendering, and each request it tried is listed anyway.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.e2e.test_cli import free_port

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [  # as /work/.library/env/machines/python.md: without them Chromium calls home at every start
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",  # no internet, whatever the machine has
    "--window-size=1400,1000",  # a desktop: narrower, Scalar folds its list of operations into a menu
]


def installed() -> bool:
    return shutil.which(CHROMIUM) is not None


@dataclass
class Visit:
    """What a page did: the requests it made (URLs), the ones that failed, its visible text."""

    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    text: str = ""


@contextmanager
def browser() -> Iterator[str]:
    """A headless Chromium with a fresh profile; yields its DevTools HTTP address."""
    port = free_port()
    # Chromium's helpers (renderers, crash handler) may still write to the profile for a moment
    # after the browser exits: the whole process group is stopped, and the folder's removal
    # does not fail the test over a file written late.
    with tempfile.TemporaryDirectory(prefix="fracas-chromium-", ignore_cleanup_errors=True) as profile:
        proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--remote-debugging-port={port}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/json/version", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("Chromium did not start") from None
                    time.sleep(0.1)
            yield base
        finally:
            _stop_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _stop_group(proc, signal.SIGKILL)
                proc.wait()
            time.sleep(0.2)  # the helpers' last writes
            _stop_group(proc, signal.SIGKILL)


def _stop_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


async def visit(devtools: str, url: str, shows: list[str], timeout: float = 60) -> Visit:
    """Open ``url`` in a page of the browser at ``devtools``; wait until its visible text holds
    every one of ``shows`` (or ``timeout`` seconds), and tell what it did."""
    pages = [t for t in httpx.get(f"{devtools}/json/list").json() if t["type"] == "page"]
    seen = Visit()
    ids = itertools.count(1)
    async with websockets.connect(pages[0]["webSocketDebuggerUrl"], max_size=None) as ws:
        answers: dict[int, asyncio.Future[Any]] = {}

        async def listen() -> None:
            async for raw in ws:
                message = json.loads(raw)
                if "id" in message and message["id"] in answers:
                    answers.pop(message["id"]).set_result(message.get("result"))
                elif message.get("method") == "Network.requestWillBeSent":
                    seen.requests.append(message["params"]["request"]["url"])
                elif message.get("method") == "Network.loadingFailed":
                    seen.failed.append(message["params"].get("errorText", ""))

        async def send(method: str, **params: Any) -> Any:
            n = next(ids)
            answers[n] = asyncio.get_running_loop().create_future()
            await ws.send(json.dumps({"id": n, "method": method, "params": params}))
            return await asyncio.wait_for(answers[n], 30)

        listener = asyncio.create_task(listen())
        try:
            await send("Network.enable")
            await send("Page.enable")
            await send("Page.navigate", url=url)
            deadline = time.monotonic() + timeout
            while True:
                result = await send("Runtime.evaluate", returnByValue=True,
                                    expression="document.body ? document.body.innerText : ''")
                seen.text = result["result"].get("value") or ""
                if all(s in seen.text for s in shows) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.5)
            await asyncio.sleep(1)  # what it fetches once drawn (fonts, icons) is listed too
        finally:
            listener.cancel()
    return seen
