"""Expelling a player in a real browser (Debian's Chromium) against a real server: the
organiser expels a Swiss player with the manage page's Expel form, and the standings
page shows them apart, last, with the word expelled instead of a place (FIDE's
checklist Q197-198)."""

from __future__ import annotations

from pathlib import Path

from crosstable.core.model import LotsMethod
from crosstable.service import Service
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium


def test_q197_q198_the_manage_page_expels_and_the_table_shows_it(tmp_path: Path) -> None:
    db = tmp_path / "expel.db"
    with web_server(db) as url, chromium() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/new")
        page.fill("input[name=name]", "Open")
        page.select_option("#format", "swiss")
        page.fill("#rounds", "3")
        page.fill(
            "textarea[name=list]",
            "Anna; 2000\nBoris; 1950\nClara; 1900\nDmitri; 1850\nEva; 1800\nFyodor; 1750",
        )
        press_create(page)
        page.wait_for_url("**/manage")
        tid = int(page.url.split("/t/")[1].split("/")[0])
        service = Service(open_store(f"sqlite:///{db}"))  # round 1, played meanwhile
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        service.publish_round(tid)
        for game in [g for g in service.overview(tid).games if g.round == 1]:
            service.record_result(tid, 1, game.board, "1-0")
        page.goto(f"{url}/t/{tid}/manage")
        form = page.locator("#expel-form")
        form.locator("select[name=start]").select_option("3")
        form.locator("input[name=from_round]").fill("2")
        form.locator("input[name=reason]").fill("left the hall during play")
        form.locator("button").click()
        page.wait_for_selector("text=player 3 Clara expelled from round 2")
        page.goto(f"{url}/t/{tid}")
        rows = page.locator("tbody tr[id^=p]")
        last = rows.nth(rows.count() - 1)
        assert last.get_attribute("id") == "p3"
        assert last.locator("td.place").inner_text().strip() == "expelled"
        places = [rows.nth(i).locator("td.place").inner_text().strip() for i in range(5)]
        assert places[0].startswith("1") and all(p[:1].isdigit() for p in places)
