"""A series on a 360 px phone in a real browser (Debian's Chromium) against a real server
(issue 11, "a Playwright test"): a player signs up, registers for a series' edition with
the page's button, is told in the site (the header's badge, the list); the stage starts
(a tick run by the test with its clock moved past the edition's start — the server keeps
the real clock) and the player sees his group on the edition's page and the stage-start
notification in the site. The pages do not scroll sideways at 360 px. Skipped locally
when ``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from test_service_support import migrated

from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_up, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 740}


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def _badge(page: Any) -> str:
    badge = page.locator("#unread-badge")
    return badge.inner_text() if badge.count() else "0"


def test_a_player_registers_on_a_phone_and_is_told_that_stage_one_starts(tmp_path: Any) -> None:
    db = tmp_path / "series.db"
    with web_server(db) as url:
        store = open_store(migrated(f"sqlite:///{db}"))
        now = dt.datetime.now(dt.UTC)
        # weekly, two days ahead: registration is open on the server's real clock
        weekday = (now.astimezone(dt.UTC).weekday() + 2) % 7
        organiser = Service(store, clock=FixedClock(now), random=random.Random(7))
        sid = organiser.create_series(
            SeriesSettings("Phone blitz", "weekly", "18:00", "Europe/Moscow", weekday=weekday)
        )
        edition = organiser.open_edition(sid)
        for index in range(15):  # 16 with Pia: the last table of 10 is 60 % full
            organiser.register_for_edition(edition, f"Player {index + 1:02d}", rating=1900 - index)
        start = dt.datetime.fromisoformat(organiser.edition_info(edition)["planned_start"])

        with chromium() as browser:
            context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="Asia/Tokyo")
            page = context.new_page()
            sign_up(page, url, "pia", "Pia Player")

            page.goto(f"{url}/series/{sid}")
            assert page.locator("#registration").get_attribute("data-phase") == "open"
            # the browser's zone (Tokyo) is shown and named; the series' zone is stated
            first = page.locator("time[data-local]").first
            assert first.get_attribute("data-zone") == "Asia/Tokyo"
            assert "(Asia/Tokyo)" in first.inner_text()
            assert "Europe/Moscow" in page.locator(".series-zones").inner_text()
            _no_sideways_scroll(page)
            page.click("#register")
            page.wait_for_selector("#registered-mark")
            assert page.locator("#registration").get_attribute("data-mine") == "yes"
            assert "16 players registered" in page.locator(".series-registered").inner_text()
            assert _badge(page) == "1"  # "registration confirmed"

            # the clock passes the start: the tick makes stage 1 and starts every game
            ticker = Service(
                store, clock=FixedClock(start + dt.timedelta(minutes=1)), random=random.Random(7)
            )
            done = ticker.tick()
            assert any("started" in step for step in done), done

            page.goto(f"{url}/series/{sid}/editions/1")
            mine = page.locator("#my-group")
            mine.wait_for()
            assert "Group" in mine.inner_text()
            row = page.locator(".group-standings li.mine")
            assert row.count() == 1 and "Pia Player" in row.inner_text()
            _no_sideways_scroll(page)
            assert _badge(page) == "2"

            page.click("#bell")
            page.wait_for_url(url + "/notifications")
            latest = page.locator(".notification").first
            assert latest.get_attribute("data-kind") == "stage-starts"
            assert "unread" in (latest.get_attribute("class") or "")
            assert "Stage 1 starts." in latest.inner_text()
            group_link = latest.locator("a.n-group")
            assert group_link.inner_text().startswith("Your group:")
            _no_sideways_scroll(page)
            page.click("#read-all button")
            page.wait_for_selector(".notification.read")
            assert _badge(page) == "0"
            group_link = page.locator(".notification a.n-group").first
            group_link.click()
            page.wait_for_url("**/t/*")
            assert "Pia Player" in page.content()
            context.close()
        store.engine.dispose()
