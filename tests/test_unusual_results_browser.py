"""The round page's "More…" choice in a real browser (Debian's Chromium) against a real
server: the organiser opens it and taps an arbiter's ½-0 and a game played but not rated;
each board shows its result without a reload (FIDE checklist Q180–186). Skipped locally
when ``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import chromium, needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("unusual") / "unusual.db"
    with web_server(db) as url:
        yield url


def test_r_b_1_q180_more_offers_the_unusual_results_on_the_round_page(server: str) -> None:
    url = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
        org = context.new_page()
        sign_up(org, url, "arbiter", "Chief Arbiter")
        org.goto(url + "/new")
        org.fill("input[name=name]", "Club")
        org.fill("textarea[name=list]", "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750")
        press_create(org)
        org.wait_for_url("**/manage")
        org.fill("input[name=seed]", "2026")
        org.click("form[action$='/manage/lots'] button")
        org.wait_for_selector("text=seed 2026")
        org.click("form[action$='/manage/start'] button")
        org.wait_for_url("**/rounds/1")

        first = org.locator("#g1-1")
        first.locator("details.unusual summary").click()
        first.locator("details.unusual button[data-result='½-0']").click()
        org.wait_for_selector("#g1-1.done")
        assert org.locator("#g1-1 .result").inner_text().strip() == "½-0"
        org.reload()  # (the live page may redraw the boards meanwhile, closing "More…")
        second = org.locator("#g1-2")
        second.locator("details.unusual summary").click()
        second.locator("details.unusual button[data-result='1-0u']").click()
        org.wait_for_selector("#g1-2.done")
        assert org.locator("#g1-2 .result").inner_text().strip() == "1-0 game not rated"
        context.close()
