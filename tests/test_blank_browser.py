"""Blank tables in a real browser (Debian's Chromium) against a real server: a Russian
reader follows the home page's link to the blank papers, downloads a Berger table, and
the crosstable form downloads the blank crosstable of the size typed in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_newcomer_prints import read

from crosstable.core.schedule.blank import berger_sheet
from tests.browser import chromium, needs_chromium, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("blank-browser") / "blank.db"
    with web_server(db) as url:
        yield url


def test_r_x_5_a_reader_downloads_blank_tables_from_the_home_page(
    server: str, tmp_path: Path
) -> None:
    with chromium() as browser:
        context = browser.new_context(
            viewport={"width": 1000, "height": 800}, locale="ru-RU", accept_downloads=True
        )
        page = context.new_page()
        page.goto(server + "/")
        page.click("#home-blank")
        page.wait_for_url("**/print/blank")
        assert "Бланки таблиц" in page.inner_text("h1")
        with page.expect_download() as berger:
            page.click("a[href='/print/blank/berger.pdf?players=7']")
        path = tmp_path / "berger7.pdf"
        berger.value.save_as(path)
        drawn = read(path.read_bytes())
        assert "Таблица Бергера на 7 участников" in {t.text for t in drawn.texts}
        marked = [t.text for t in drawn.texts if " — " in t.text and "(свободен)" in t.text]
        assert len(marked) == len(berger_sheet(7).rounds)  # each round's pair with the bye
        page.fill("#blank-crosstable-form input[name=players]", "14")
        page.fill("#blank-crosstable-form input[name=tiebreaks]", "3")
        with page.expect_download() as blank:
            page.click("#blank-crosstable-form button")
        path = tmp_path / "blank14.pdf"
        blank.value.save_as(path)
        texts = {t.text for t in read(path.read_bytes()).texts}
        assert {"14", "Доп. 3", "Место"} <= texts and "Доп. 4" not in texts
        context.close()
