"""Leaving FIDE mode in a real browser (Debian's Chromium) against a real server: the
organiser presses *Leave FIDE mode*, reads the level-4 warning with its consequences on
two confirmation pages (the first can be cancelled, nothing changes), confirms twice,
and every organiser page then shows the marker. Skipped locally when
``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import chromium, needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("fide") / "fide.db"
    with web_server(db) as url:
        yield url


def test_leaving_fide_mode_takes_two_confirmations_and_marks_the_pages(server: str) -> None:
    url = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
        page = context.new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/new")
        page.fill("input[name=name]", "FIDE club")
        page.fill("textarea[name=list]", "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750")
        press_create(page)
        page.wait_for_url("**/manage")
        tid = page.url.split("/t/")[1].split("/")[0]
        assert page.locator("#fide-off").count() == 0

        page.click("#leave-fide-mode")
        page.wait_for_selector("#confirm")
        assert "Confirmation 1 of 2 (level 4)" in page.locator("#confirm-title").inner_text()
        assert "rating officer" in page.locator(".consequences").inner_text()
        page.click("#confirm-cancel")  # cancelled: still in FIDE mode
        page.wait_for_url("**/manage")
        assert page.locator("#fide-off").count() == 0

        page.click("#leave-fide-mode")
        page.wait_for_selector("#confirm")
        page.click("#confirm-go")
        page.wait_for_selector("text=Confirmation 2 of 2")
        page.click("#confirm-go")
        page.wait_for_url("**/manage")
        assert "Not in FIDE mode" in page.locator("#fide-off").inner_text()
        for where in ("history", "regulations", "standings"):
            page.goto(f"{url}/t/{tid}/{where}")
            assert page.locator("#fide-off").count() == 1, where
        context.close()
