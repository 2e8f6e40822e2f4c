"""Debian's Chromium through Playwright, for the browser tests.

``CROSSTABLE_CHROMIUM`` names the browser (scripts/test.sh sets it to
``/usr/bin/chromium``); without it the browser tests are skipped locally, and in
CI a skip is a failure (tests/conftest.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright, for one test or for one file's
    tests (the ``browser`` fixture of tests/conftest.py; a file runs on one worker, its
    tests together).

    (One browser for all the files of a worker was tried: Playwright's synchronous API
    keeps its event loop marked as running in the thread while it runs, so every later
    test in that worker that calls ``asyncio.run`` failed.)"""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
