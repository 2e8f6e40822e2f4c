"""The wizard's round-robin schedule and portal Swiss settings in a real browser
(Debian's Chromium) against a real server: the Schedule choice shows for a round robin
only, the Swiss's initial order and even field for a Swiss only; a round robin created on
the circle method starts on it (round 1 as the circle method pairs it), and a Russian
organiser's portal Swiss with an odd field is refused in Russian at the start."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from crosstable.core.schedule.kinds import ScheduleKind, round_robin_table
from tests.browser import chromium, needs_chromium, press_create, sign_in, sign_up, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("circle") / "circle.db"
    with web_server(db) as url:
        yield url


def test_r_rr_6_r_sw_1_the_wizard_offers_and_keeps_the_choices(server: str) -> None:
    url = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-US")
        page = context.new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/new")
        assert page.locator("#schedule").is_visible()
        assert not page.locator("#initial_order").is_visible()
        page.select_option("#format", "swiss")
        assert page.locator("#initial_order").is_visible()
        assert not page.locator("#schedule").is_visible()
        page.select_option("#format", "round-robin")
        page.fill("input[name=name]", "Circle club")
        page.fill("textarea[name=list]", "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750\nEva")
        page.select_option("#schedule", "circle")
        press_create(page)
        page.wait_for_url("**/manage")
        # by rating, so that the starting numbers are the list's order (by lot they are
        # random, and the boards below would name other players)
        page.select_option("form[action$='/manage/lots'] select[name=method]", "rating")
        page.click("form[action$='/manage/lots'] button")
        page.wait_for_selector("text=Start: make the schedule (circle method)")
        page.click("form[action$='/manage/start'] button")
        page.wait_for_url("**/rounds/1")
        first = round_robin_table(ScheduleKind.CIRCLE, 5).rounds[0]
        text = page.inner_text("main")
        names = {1: "Anna", 2: "Boris", 3: "Clara", 4: "Dmitri", 5: "Eva"}
        for white, black in first.boards:  # each board's White listed before its Black
            assert text.index(names[white]) < text.index(names[black])
        assert names[first.bye or 0] in text

        russian = browser.new_context(viewport={"width": 1000, "height": 900}, locale="ru-RU")
        org = russian.new_page()
        sign_in(org, url, "arbiter", "password-arbiter")
        org.goto(url + "/new")
        org.select_option("#format", "swiss")
        org.fill("input[name=name]", "Портал")
        org.fill("textarea[name=list]", "Анна; 1900\nБорис\nКлара")
        org.select_option("#initial_order", "portal")
        org.check("input[name=even_field]")
        press_create(org)
        org.wait_for_url("**/manage")
        org.click("form[action$='/manage/lots'] button")
        org.click("form[action$='/manage/start'] button")
        org.wait_for_selector("text=положение требует чётного числа участников")
