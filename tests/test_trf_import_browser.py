"""The import page in a real browser (Debian's Chromium) against a real server: a TRF whose
last round breaks the Dutch rules shows the level-3 confirmation; Cancel stores nothing,
Confirm opens the new tournament; a contradictory file shows the form again with its line
and column."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import chromium, needs_chromium, sign_up, web_server
from tests.test_trf_import_recheck import SWISS, swapped

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("trf-import") / "import.db"
    with web_server(db) as url:
        yield url


def test_r_or_5_the_import_page_confirms_a_round_off_the_rules_in_chromium(
    server: str, tmp_path: Path
) -> None:
    url = server
    trf = tmp_path / "swapped.trf"
    trf.write_text(swapped(SWISS, 1, 3, 5), encoding="utf-8")
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.click("#import-link")  # the list's button for organisers
        page.wait_for_url(url + "/import")
        page.set_input_files("#trf-import input[name=file]", str(trf))
        page.click("#trf-import-go")
        page.wait_for_selector("#confirm")
        said = page.inner_text("#confirm")
        assert "Confirmation needed (level 3)" in said
        assert "imported round 5 does not follow the FIDE Dutch system" in said
        page.click("#confirm-cancel")
        page.wait_for_url(url + "/import")
        page.goto(url + "/")
        assert "AutoTest Tournament 1000" not in page.inner_text("main")  # nothing stored
        page.goto(url + "/import")
        page.set_input_files("#trf-import input[name=file]", str(trf))
        page.click("#trf-import-go")
        page.wait_for_selector("#confirm")
        page.click("#confirm-go")
        page.wait_for_url("**/manage")
        assert "AutoTest Tournament 1000" in page.inner_text("body")
        page.goto(url + "/import")
        page.fill(
            "textarea[name=trf]", SWISS.replace("    4.0    2     4 b 1", "    4.0    2     4 b 0")
        )
        page.click("#trf-import-go")
        page.wait_for_selector("#import-error")
        assert "upload:2:99" in page.inner_text("#import-error")
