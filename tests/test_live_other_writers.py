"""A result entered by another process reaches the pages open on a SQLite file.

The server (uvicorn, as ``crosstable serve`` runs it) and the command line are separate
processes on one SQLite file: the command line's ``crosstable result`` used to stay out of
the open pages until they were reloaded, because SQLite has no NOTIFY and only the
process that made a change told its pages. The server now reads the event log
(:class:`crosstable.service.poller.ChangePoller`); these tests fail without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.bus import EventBus, Notification
from crosstable.service.poller import ChangePoller
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, web_server

#: a bound on waiting, so a broken build fails instead of hanging (not a timing assertion)
PATIENCE = 20.0


def crosstable(db: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "crosstable", *args],
        env=dict(os.environ, CROSSTABLE_DB=str(db)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A started four-player round robin on a SQLite file (made in this process: what the
    tests look at is the command line's result), and a server on that file."""
    db = tmp_path_factory.mktemp("writers") / "club.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    players = [
        PlayerInfo(name, rating)
        for name, rating in (("Anna", 1900), ("Boris", 1850), ("Clara", 1800), ("Dmitri", 1750))
    ]
    tid = service.create_tournament(Regulations(name="Club evening"), players=players)
    service.draw_lots(tid.tournament_id, LotsMethod.RANDOM, seed=7)
    service.start(tid.tournament_id)
    service.store.close()
    with web_server(db) as url:
        yield db, url


def revision_of(url: str) -> int:
    return int(httpx.get(f"{url}/api/v1/tournaments/1", timeout=10).json()["revision"])


def test_a_command_line_result_reaches_an_open_event_stream(club: tuple[Path, str]) -> None:
    db, url = club
    before = revision_of(url)
    seen = b""
    with httpx.stream("GET", f"{url}/t/1/events?rev={before}", timeout=PATIENCE) as stream:
        chunks = stream.iter_raw()
        seen += next(chunks)  # the stream is open (": live")
        crosstable(db, "result", "1", "1", "1-0")
        deadline = time.monotonic() + PATIENCE
        while b"event: crosstable" not in seen and time.monotonic() < deadline:
            seen += next(chunks)
    assert b"event: crosstable" in seen, seen[-500:]
    assert revision_of(url) == before + 1


@needs_chromium
def test_a_command_line_result_shows_on_an_open_page(club: tuple[Path, str]) -> None:
    db, url = club
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
        page.goto(f"{url}/t/1")
        page.wait_for_selector("#live-state:not(.off)")
        before = page.locator("#live").inner_text()
        crosstable(db, "result", "1", "2", "0-1")
        page.wait_for_function(
            "before => document.querySelector('#live').innerText !== before",
            arg=before,
            timeout=PATIENCE * 1000,
        )
        assert page.locator("#live").inner_text() != before


def test_the_poller_publishes_other_processes_changes_once(tmp_path: Path) -> None:
    # a store and a bus of "this process", and changes committed by "another" (its own bus)
    here = Service(open_store(str(tmp_path / "poll.db")))
    there = Service(open_store(str(tmp_path / "poll.db")))
    tid = there.create_tournament(Regulations(name="Poll")).tournament_id
    seen: list[Notification] = []
    here.bus.subscribe(seen.append)
    # polls by hand (the thread's interval is an hour); the first, at start, counts what
    # is there as known
    poller = ChangePoller(here.store, here.bus, poll_interval=3600).start()
    for name in ("A", "B", "C"):
        there.add_player(tid, PlayerInfo(name))
    assert poller.poll() == [] and seen == []  # found, published at the next poll
    published = poller.poll()
    assert [n.seq for n in published] == [2, 3, 4] and [n.seq for n in seen] == [2, 3, 4]
    assert poller.poll() == []  # once
    # a change this process made and announced itself is not published again
    here.add_player(tid, PlayerInfo("D"))
    poller.poll()
    poller.poll()
    poller.stop()
    assert [n.seq for n in seen] == [2, 3, 4, 5]


def test_an_empty_bus_subscriber_is_harmless(tmp_path: Path) -> None:
    bus = EventBus()
    store: Any = open_store(str(tmp_path / "empty.db"))
    poller = ChangePoller(store, bus, poll_interval=0.05).start()
    poller.stop()
    assert poller.poll() == []
