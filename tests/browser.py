"""What the browser tests share: a real server process on a free port and Debian's Chromium.

``CROSSTABLE_CHROMIUM`` names the browser (scripts/test.sh sets it to
``/usr/bin/chromium``); without it the browser tests are skipped locally, and in
CI a skip is a failure (tests/conftest.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CROSSTABLE_CHROMIUM")
#: mark a module's tests as needing the browser
needs_chromium = pytest.mark.skipif(not CHROMIUM, reason="CROSSTABLE_CHROMIUM is not set")

#: headless Chromium as root in a container, without the background services
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: how long a server may take to start: generous, as the suite runs on every core at once
#: (pytest-xdist) on machines that others share; a server that stopped fails at once
START_WITHIN = 180.0


def wait_until_served(process: subprocess.Popen[Any], url: str) -> None:
    """Wait until the server ``process`` answers ``url`` (an ``http://`` URL, or
    ``tcp://host:port`` for a bare connection); fail if it stops or takes too long."""
    deadline = time.monotonic() + START_WITHIN
    while True:
        try:
            if url.startswith("tcp://"):
                host, _, port = url.removeprefix("tcp://").rpartition(":")
                socket.create_connection((host, int(port)), timeout=5).close()
            else:
                with urllib.request.urlopen(url, timeout=5):
                    pass
            return
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"the server stopped at start-up (exit {process.returncode})")
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not start within {START_WITHIN:.0f} s")
            time.sleep(0.05)


@contextmanager
def web_server(db: Path, secret: str = "test-secret") -> Iterator[str]:
    """``crosstable.web`` under uvicorn on the SQLite file ``db``: yields its URL once it
    answers, and stops it afterwards."""
    port = free_port()
    env = dict(os.environ, CROSSTABLE_DB=str(db), CROSSTABLE_SECRET=secret)
    command = [sys.executable, "-m", "uvicorn", "crosstable.web.app:create_app", "--factory"]
    options = ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen([*command, *options], env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_served(process, url + "/")
        yield url
    finally:
        process.terminate()
        process.wait(15)


#: the running Playwright and Chromium of this process (``chromium`` starts them,
#: ``close_chromium`` stops them at the end of each test module: tests/conftest.py)
RUNNING: dict[str, Any] = {}


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright: one browser for a test module's
    tests (starting it costs more than most page tests), each test's pages in contexts
    of its own, which are closed when it ends (a context shares no cookies, storage or
    cache with another)."""
    browser = RUNNING.get("browser")
    if browser is None or not browser.is_connected():
        close_chromium()
        from playwright.sync_api import sync_playwright

        manager = sync_playwright()
        RUNNING["manager"] = manager
        RUNNING["browser"] = browser = manager.start().chromium.launch(
            executable_path=CHROMIUM, args=ARGS
        )
    before = list(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                context.close()


def close_chromium() -> None:
    """Stops this process's Chromium and Playwright, if they run."""
    browser, manager = RUNNING.pop("browser", None), RUNNING.pop("manager", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if manager is not None:
            manager.__exit__(None, None, None)
