"""The organiser's start by the clock in Debian's Chromium against a real server: a Russian
organiser sets a knockout's start time, time zone, capacity and daily round time on the
manage page; a capacity that is not a power of two is refused in Russian and nothing
changes; a full field says registration is closed. Waits are for the page, never sleeps."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_service_support import migrated

from crosstable.core.model import System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_in, web_server

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    db = tmp_path_factory.mktemp("autostart") / "cup.db"
    store = open_store(migrated(f"sqlite:///{db}"))
    service = Service(store)
    tid = service.create_tournament(
        Regulations(name="Суперблиц", system=System.KNOCKOUT)
    ).tournament_id
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"Игрок {index + 1}", rating=2000 + index))
    Accounts(store).create_user("organiser", "password-organiser", is_admin=True)
    store.close()
    with web_server(db) as url:
        yield url, tid


def test_r_x_3_r_x_4_an_organiser_sets_the_start_by_the_clock(cup: tuple[str, int]) -> None:
    url, tid = cup
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="ru-RU")
        page = context.new_page()
        sign_in(page, url, "organiser", "password-organiser")
        page.goto(f"{url}/t/{tid}/manage")
        assert "Старт по часам" in page.inner_text("#autostart h2")
        page.fill("#autostart-capacity", "6")
        page.click("#autostart-save")
        page.wait_for_selector(".flash.error")
        assert "степень двойки" in page.inner_text(".flash.error")
        assert page.input_value("#autostart-capacity") == ""  # nothing was stored
        page.fill("#autostart-starts-at", "2026-12-07T18:00")
        page.fill("#autostart-time-zone", "Europe/Moscow")
        page.fill("#autostart-capacity", "4")
        page.fill("#autostart-round-time", "18:00")
        page.select_option("#autostart-if-short", "postpone")
        page.click("#autostart-save")
        page.wait_for_selector("#autostart-field")
        assert "состав набран" in page.inner_text("#autostart-field")
        assert page.input_value("#autostart-round-time") == "18:00"
        assert page.input_value("#autostart-time-zone") == "Europe/Moscow"
        context.close()
