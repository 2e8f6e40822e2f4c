"""A team Swiss on the team page in a real browser (Debian's Chromium) against a real
server: after two rounds paired by the Olympiad rules, an Armenian reader sees the team
table in the order of the service's standings with a team Swiss's tie-breaks, and every
match of both rounds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_service_support import make_service, migrated

from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo, Service
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, web_server

pytestmark = needs_chromium

TEAMS = {"Ararat": 2100, "Sevan": 2000, "Masis": 2300, "Aragats": 2200, "Hrazdan": 1900}


def played_swiss(service: Service) -> int:
    settings = TeamSettings.from_details({"team_boards": "2", "team_system": "swiss"})
    tid = service.create_team_swiss("Olympiad", settings, rounds=3).tournament_id
    for number, (name, rating) in enumerate(TEAMS.items(), 1):
        service.add_team(tid, name)
        for k in range(2):
            service.add_team_member(tid, number, PlayerInfo(f"{name} {k + 1}", rating - k))
    service.start(tid)
    for number in (1, 2):
        service.pair_team_round(tid)
        for match in service.team_matches(tid)[number - 1]:
            for g in match.games:
                service.record_result(tid, number, g.board, "1-0" if g.board % 3 else "½-½")
    return tid


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, list[str]]]:
    db: Path = tmp_path_factory.mktemp("team-swiss-browser") / "swiss.db"
    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        service = make_service(store)
        tid = played_swiss(service)
        order = [row.name for row in service.team_standings(tid).rows]
    finally:
        store.close()
    with web_server(db) as url:
        yield url, tid, order


def test_r_b_3_a_reader_sees_a_team_swiss_on_the_team_page(
    server: tuple[str, int, list[str]],
) -> None:
    url, tid, order = server
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="hy-AM")
        page = context.new_page()
        page.goto(f"{url}/t/{tid}/teams")
        rows = page.locator("#team-table tbody tr")
        assert rows.count() == 5
        names = [rows.nth(k).locator("td").nth(1).inner_text() for k in range(5)]
        assert [name.split(" ", 1)[1] for name in names] == order
        header = page.locator("#team-table thead").inner_text()
        assert "BH:MP-C1" in header and "EMGSB" in header
        assert page.locator(".match").count() == 4  # two matches a round, one team free
        context.close()
