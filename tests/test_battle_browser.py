"""A battle-chess round in a real browser (Debian's Chromium) against a real server.

The organiser signs up, creates a battle-chess round robin in the wizard (set-up
time 5 minutes), draws lots and starts: round 1's colours are drawn by the
computer; round 2 says its colours are not drawn yet. A set-up timeout is entered
with the round page's button, and a spectator's live crosstable shows it with its
own mark (``1†``/``0†``) without reloading. Skipped locally when
``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import chromium, needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("battle") / "battle.db"
    with web_server(db) as url:
        yield url


def test_a_setup_timeout_shows_in_the_live_crosstable(server: str) -> None:
    url = server
    with chromium() as browser:
        organiser = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
        org = organiser.new_page()
        sign_up(org, url, "arbiter", "Chief Arbiter")

        org.goto(url + "/new")
        org.fill("input[name=name]", "Battle club")
        org.fill("textarea[name=list]", "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750")
        org.check("#battle")
        org.fill("#setup-minutes", "5")
        press_create(org)
        org.wait_for_url("**/manage")
        tid = org.url.split("/t/")[1].split("/")[0]
        org.fill("input[name=seed]", "2026")
        org.click("form[action$='/manage/lots'] button")
        org.wait_for_selector("text=seed 2026")
        org.click("form[action$='/manage/start'] button")
        org.wait_for_url("**/rounds/1")
        assert org.locator("#battle-colours").get_attribute("data-drawn") == "yes"

        spectator = browser.new_context(viewport={"width": 1000, "height": 800}, locale="ru-RU")
        watcher = spectator.new_page()
        watcher.goto(f"{url}/t/{tid}")
        watcher.wait_for_selector("#live-state:not(.off)")

        card = org.locator(".game:not(.free)").first
        board = int(card.locator(".board").inner_text())
        white = int(card.locator(".white").inner_text().split(".", 1)[0])
        black = int(card.locator(".black").inner_text().split(".", 1)[0])
        card.locator("details.setup summary").click()
        card.locator("button[data-result=setup-black]").click()
        org.wait_for_selector(f"#g1-{board}.done")
        assert "0-1†" in org.locator(f"#g1-{board} .result").inner_text()
        _wait_cell(watcher, white, black, "0†")
        _wait_cell(watcher, black, white, "1†")

        org.goto(f"{url}/t/{tid}/rounds/2")
        assert org.locator("#battle-colours").get_attribute("data-drawn") == "no"
        org.click("#draw-colours")
        org.wait_for_selector("#battle-colours[data-drawn=yes]")
        organiser.close()
        spectator.close()


def _wait_cell(watcher: Any, row: int, column: int, text: str) -> None:
    index = column - 1 if column < row else column - 2
    watcher.wait_for_function(
        f"() => (document.querySelectorAll('#live tbody tr#p{row} td.res')[{index}]"
        f" || {{textContent: ''}}).textContent.trim() === '{text}'",
        timeout=5000,
    )
