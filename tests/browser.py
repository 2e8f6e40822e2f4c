"""What the browser tests share: a real server on a free port, Debian's Chromium
(tests/chromium.py, kept apart so that tests/conftest.py can offer it without importing the
service layer), and signing in on a page.
"""

from __future__ import annotations

import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from test_service_support import migrated

from crosstable.web.app import create_app
from crosstable.web.demo import PASSWORD, USERNAME
from tests.chromium import ARGS, CHROMIUM, chromium, needs_chromium


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
    """``crosstable.web`` under uvicorn on the SQLite file ``db``, on a free port of
    loopback: yields its URL once it answers, and stops it afterwards. A file not made yet
    starts as a copy of the migrated template (the server need not run every migration at
    its start).

    The server runs in a thread of the test's process, which has imported the product
    already: a process of its own spent about a second and a half importing it again for
    each server, some fifty times a run. It is the same server: uvicorn's, with its own
    event loop, the app as ``crosstable serve`` makes it, its own store, and the poll of
    the event log that brings it what the test writes through another store. Its secret
    is ``CROSSTABLE_SECRET`` while it runs, as the environment of a server process."""
    if not db.exists():
        migrated(f"sqlite:///{db}")
    with socket.socket() as listening, pytest.MonkeyPatch.context() as environment:
        listening.bind(("127.0.0.1", 0))
        port = int(listening.getsockname()[1])
        environment.setenv("CROSSTABLE_SECRET", secret)
        app = create_app(f"sqlite:///{db}")
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [listening]}, name=f"web :{port}", daemon=True
        )
        thread.start()
        try:
            deadline = time.monotonic() + START_WITHIN
            while not server.started:
                if not thread.is_alive():
                    pytest.fail("the server stopped at start-up")
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not start within {START_WITHIN:.0f} s")
                time.sleep(0.01)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(15)
            app.state.site.service.store.close()


def press_create(page: Any) -> None:
    """Submit the new-tournament form with its *Create* button from the keyboard.

    The wizard's preview above the button is redrawn a moment after each field changes
    (htmx, 300 ms later), which moves the button down; a mouse click aimed between
    Playwright's stability check and the redraw lands beside it, and the form is never
    sent. Enter on the focused button submits it wherever it has moved to."""
    page.locator("#create").press("Enter")


def sign_in(page: Any, url: str, username: str, password: str) -> None:
    """Sign ``page`` in on the site at ``url`` with the sign-in form, and wait until the
    site has taken it to its home page."""
    page.goto(url + "/signin")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.narrow-form button")
    page.wait_for_url(url + "/")


def sign_up(
    page: Any, url: str, username: str, display_name: str = "", *, rating: int | None = None
) -> None:
    """Open an account on the site at ``url`` with the sign-up form (password
    ``password-USERNAME``), and wait until the site has taken ``page`` to its home page."""
    page.goto(url + "/signup")
    page.fill("input[name=username]", username)
    if display_name:
        page.fill("input[name=display_name]", display_name)
    if rating:
        page.fill("input[name=rating]", str(rating))
    page.fill("input[name=password]", "password-" + username)
    page.click("form.narrow-form button")
    page.wait_for_url(url + "/")


def demo_signed_in(browser: Any, url: str, **context: Any) -> tuple[Any, Any]:
    """A new browser context (``context``: its viewport, locale …) and its page, signed in
    as the demo's organiser on the site at ``url``."""
    opened = browser.new_context(**context)
    page = opened.new_page()
    sign_in(page, url, USERNAME, PASSWORD)
    return opened, page


__all__ = [
    "ARGS",
    "CHROMIUM",
    "chromium",
    "demo_signed_in",
    "free_port",
    "needs_chromium",
    "press_create",
    "sign_in",
    "sign_up",
    "wait_until_served",
    "web_server",
]
