"""A qualifier confirms his place in stage 2 on a 360 px phone (issue 11; R-SE-2: a later
stage's registration is open for two weeks from its start), in a real browser (Debian's
Chromium) against a real server: the stage-start notification offers the form, the
confirmation is a plain form post (the page works without script), the edition's page
then says the place is confirmed and offers no second confirmation, and nothing scrolls
sideways. The season is built by the test with its clock a few days back, so stage 2 is
under way on the server's real clock. Skipped locally when ``CROSSTABLE_CHROMIUM`` is
not set (in CI a skip is a failure)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from test_series_service import current_groups, play_all
from test_service_support import migrated

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.series import SeriesSettings
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_in, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 740}


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def _stage_two(db: Any) -> tuple[Service, int, str]:
    """16 players with accounts in groups of 4; stage 1 played, stage 2 started — all
    before the real now; the login of a player of stage 2."""
    store = open_store(migrated(f"sqlite:///{db}"))
    clock = FixedClock(dt.datetime.now(dt.UTC) - dt.timedelta(days=4))
    service = Service(store, clock=clock, random=random.Random(4))
    sid = service.create_series(
        SeriesSettings(
            "Quads",
            "workdays",
            "19:00",
            "Europe/Moscow",
            max_group_size=4,
            final_min=4,
            super_final_players=0,
        )
    )
    edition = service.open_edition(sid)
    accounts = Accounts(store)
    for index in range(16):
        name = f"Player {index + 1:02d}"
        user = accounts.create_user(f"player{index + 1:02d}", "password-player", display_name=name)
        service.register_for_edition(edition, name, rating=1500 + index, user_id=user.id)
    start = dt.datetime.fromisoformat(service.edition_info(edition)["planned_start"])
    clock.advance(start + dt.timedelta(minutes=1) - clock.now())
    service.tick()
    _kind, tids = current_groups(store, edition)
    play_all(service, tids, random.Random(1))
    clock.advance(dt.timedelta(hours=1))
    service.tick()
    kind, tids = current_groups(store, edition)
    assert kind == "groups" and clock.now() < dt.datetime.now(dt.UTC)
    player = service.tournament(tids[0]).players[0].name
    return service, sid, "player" + player.split()[-1]


def test_a_qualifier_confirms_his_place_on_a_phone(tmp_path: Any) -> None:
    db = tmp_path / "stages.db"
    with web_server(db) as url:
        service, sid, login = _stage_two(db)
        with chromium() as browser:
            context = browser.new_context(viewport=PHONE, locale="ru-RU", timezone_id="Asia/Tokyo")
            page = context.new_page()
            sign_in(page, url, login, "password-player")

            page.goto(url + "/notifications")
            latest = page.locator(".notification").first
            assert latest.get_attribute("data-kind") == "stage-starts"
            assert "Подтвердите участие" not in latest.inner_text()  # (the mail's text)
            button = latest.locator("#confirm-place")
            assert button.inner_text() == "Подтвердить участие"
            _no_sideways_scroll(page)
            page.goto(f"{url}/series/{sid}/editions/1")
            assert page.locator("#stage-place time[data-local]").count() == 1
            _no_sideways_scroll(page)
            page.click("#confirm-place")
            page.wait_for_url(f"{url}/series/{sid}/editions/1")
            assert "Ваше участие в этом туре подтверждено." in page.locator("#flash").inner_text()
            assert page.locator("#confirm-place").count() == 0
            assert "подтверждено" in page.locator("#stage-place").inner_text()
            _no_sideways_scroll(page)
            context.close()
        kinds = [h["kind"] for h in service.series_history(sid)]
        assert kinds.count("stage-register") == 1
        service.store.engine.dispose()
