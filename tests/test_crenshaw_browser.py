"""The wizard creates a round robin on US Chess's Crenshaw-Berger tables and starts it, in
a real browser (Debian's Chromium) against a real server: round 1 is the quad table's
(1-4, 2-3), and a field of six on them is refused in the wizard with the reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import chromium, needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("crenshaw") / "crenshaw.db"
    with web_server(db) as url:
        yield url


def test_r_x_14_the_wizard_creates_and_starts_a_crenshaw_round_robin(server: str) -> None:
    url = server
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/new")
        page.fill("input[name=name]", "Six on the US tables")
        page.fill("textarea[name=list]", "A\nB\nC\nD\nE\nF")
        page.select_option("#schedule", "crenshaw")
        press_create(page)
        page.wait_for_selector("text=Crenshaw-Berger table for 6 players is not published")
        assert "/new" in page.url
        page.fill("input[name=name]", "Quad")
        page.fill("textarea[name=list]", "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750")
        page.select_option("#schedule", "crenshaw")
        press_create(page)
        page.wait_for_url("**/manage")
        page.select_option("form[action$='/manage/lots'] select[name=method]", "rating")
        page.click("form[action$='/manage/lots'] button")
        page.wait_for_selector("text=Start: make the schedule (Crenshaw-Berger tables)")
        page.click("form[action$='/manage/start'] button")
        page.wait_for_url("**/rounds/1")
        text = page.inner_text("main")
        # the quad table's round 1: 1-4 and 2-3, White first
        assert text.index("Anna") < text.index("Dmitri")
        assert text.index("Boris") < text.index("Clara")
        assert text.index("Anna") < text.index("Boris")
        page.goto(page.url[: -len("1")] + "2")  # round 2: 3-1 and 4-2 (Berger's is 4-3, 1-2)
        text = page.inner_text("main")
        assert text.index("Clara") < text.index("Anna") < text.index("Dmitri")
        assert text.index("Dmitri") < text.index("Boris")
