"""The check-in page on a 360 px phone-sized tablet and the venue screen, in Debian's
Chromium against a real server (issue 16.5).

Check-in: a helper's tablet shows the names; a tap on a name and a tap on Confirm check
the player in (two taps), the page never scrolls sideways at 360 px. Venue: a screen that
scrolls by itself (the standings of a field longer than the screen) and shows a result
recorded elsewhere without reloading. Waits are for conditions in the page, never sleeps.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from tests.browser import needs_chromium, sign_in, web_server

pytestmark = needs_chromium

FIELD = 20  # more lines than a small screen holds: the venue has to scroll


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, int]]:
    db = tmp_path_factory.mktemp("hall") / "hall.db"
    store = open_store(migrated(f"sqlite:///{db}"))
    service = Service(store, clock=FixedClock(dt.datetime(2026, 12, 1, 17, 0, tzinfo=dt.UTC)))
    tid = service.create_tournament(Regulations(name="Зал клуба")).tournament_id
    for i in range(FIELD):
        service.add_player(tid, PlayerInfo(f"Игрок Длиннофамильный {i + 1:02d}", rating=2200 - i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    accounts = Accounts(store)
    helper = accounts.create_user("tablet", "password-tablet")
    accounts.set_staff(tid, helper.id, "helper")
    token = accounts.create_token(helper.id, "venue test")
    store.close()
    with web_server(db) as url:
        yield url, token, tid


def test_check_in_on_a_360_px_tablet_in_two_taps(hall: tuple[str, str, int], browser: Any) -> None:
    url, _token, tid = hall
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    sign_in(page, url, "tablet", "password-tablet")
    page.goto(f"{url}/t/{tid}/checkin")
    assert page.locator("#checkin-names li").count() == FIELD
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360, wide
    page.click("#checkin-names li[data-start='3'] a")  # tap 1: the name
    page.wait_for_selector("#confirm-button")
    assert "Игрок Длиннофамильный" in page.inner_text("#confirm .who")
    box = page.locator("#confirm-button").bounding_box()
    assert box is not None and box["width"] >= 300 and box["height"] >= 44
    page.click("#confirm-button")  # tap 2: confirm
    page.wait_for_selector("#checkin-names li[data-start='3'][data-present='yes']")
    assert "Присутствуют: 1" in page.inner_text("#checkin-count")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_the_venue_scrolls_by_itself_and_shows_a_new_result(
    hall: tuple[str, str, int],
    browser: Any,
) -> None:
    url, token, tid = hall
    context = browser.new_context(viewport={"width": 1280, "height": 480}, locale="en-US")
    page = context.new_page()
    page.goto(f"{url}/t/{tid}/venue?speed=6")
    page.wait_for_selector("#venue-state:not(.off)")
    page.wait_for_function(
        "() => document.querySelector('#venue-standings').scrollTop > 40", timeout=20_000
    )
    assert page.locator("header nav, nav.account").count() == 0
    first = page.locator("#venue-pairings tr[data-board='1'] td.res")
    assert first.inner_text() == "–"
    # the result comes in through the server (the API, as a game server or the
    # arbiter's phone sends it), so the server's live updates carry it
    request = urllib.request.Request(
        f"{url}/api/v1/tournaments/{tid}/rounds/1/boards/1/result",
        data=json.dumps({"result": "1-0"}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
    page.wait_for_function(
        "() => document.querySelector(\"#venue-pairings tr[data-board='1'] td.res\")"
        ".textContent === '1-0'",
        timeout=20_000,
    )
    # the standings follow: the winner of board 1 has a point
    assert "1" in page.inner_text("#venue-table tbody tr:first-child td.pts")
    context.close()
