"""The team crosstable in a real browser (Debian's Chromium) against a real server: a
Russian reader sees the team table in the order of the service's standings, each row's
scores against the other teams, the matches and the board prizes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_service_support import make_service, migrated

from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, web_server
from tests.test_team_web import played_league

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, list[str]]]:
    db: Path = tmp_path_factory.mktemp("team-browser") / "teams.db"
    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        service = make_service(store)
        tid = played_league(service)
        order = [row.name for row in service.team_standings(tid).rows]
    finally:
        store.close()
    with web_server(db) as url:
        yield url, tid, order


def test_r_b_3_a_reader_sees_the_team_crosstable_in_russian(
    server: tuple[str, int, list[str]],
) -> None:
    url, tid, order = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="ru-RU")
        page = context.new_page()
        page.goto(f"{url}/t/{tid}/teams")
        assert "Таблица команд" in page.inner_text("main")
        rows = page.locator("#team-table tbody tr")
        assert rows.count() == 4
        names = [rows.nth(k).locator("td").nth(1).inner_text() for k in range(4)]
        assert [name.split(" ", 1)[1] for name in names] == order
        cells = rows.nth(0).locator("td")
        assert "×" in [cells.nth(k).inner_text() for k in range(2, 6)]
        assert page.locator(".match").count() == 6
        assert page.locator("#board-prizes tbody tr").count() >= 2
        context.close()
