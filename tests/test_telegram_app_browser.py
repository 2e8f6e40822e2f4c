"""The Mini App in Chromium: a stand-in of Telegram's ``window.Telegram.
WebApp`` (Telegram's own script is not fetched: its address answers an empty script) with
genuinely signed initData and a dark theme; the Mini App's page signs the player in and
opens the tournament named by ``startapp``; every page opened from it takes Telegram's
colours and fits the 360-pixel viewport; the same initData in another web view is
refused with the site's message; outside Telegram the adapter does nothing."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import migrated
from test_telegram_app import TOKEN, init_data

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from tests.browser import needs_chromium, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 640}
THEME = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}
#: Telegram's object exists only on the page that loads Telegram's script (the Mini App's)
STAND_IN = """
if (location.pathname === "/telegram/app") {
  window.Telegram = { WebApp: {
    initData: %(data)s, themeParams: %(theme)s, colorScheme: "dark",
    viewportStableHeight: 600,
    ready: function () { window.telegramReady = true; }, expand: function () {},
    onEvent: function () {}
  } };
}
"""


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, int]]:
    db: Path = tmp_path_factory.mktemp("telegram") / "app.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    accounts = Accounts(service.store)
    organiser = accounts.create_user("olga", "password-olga", is_admin=True)
    tid = service.create_tournament(Regulations(name="Клубный турнир по круговой системе"))
    number = tid.tournament_id
    accounts.claim(number, organiser)
    for i in range(1, 7):  # guests without Telegram, added by the organiser
        service.add_player(number, PlayerInfo(f"Гость Очень-Длинная-Фамилия {i}", 2000 - i))
    service.draw_lots(number, LotsMethod.RATING)
    service.start(number)
    service.store.close()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
        with web_server(db) as url:
            yield url, number


def _context(browser: Any, data: str | None) -> Any:
    context = browser.new_context(viewport=PHONE)
    context.route(
        "https://telegram.org/**",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=""),
    )
    if data is not None:
        script = STAND_IN % {"data": json.dumps(data), "theme": json.dumps(THEME)}
        context.add_init_script(script)
    return context


def _look(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => ({
              bg: getComputedStyle(document.documentElement).getPropertyValue("--bg").trim(),
              body: getComputedStyle(document.body).backgroundColor,
              telegram: document.documentElement.classList.contains("in-telegram"),
              width: document.documentElement.scrollWidth,
              height: getComputedStyle(document.documentElement)
                .getPropertyValue("--tg-viewport-height").trim()
            })"""
        )
    )


def test_the_mini_app_signs_in_and_pages_take_telegrams_theme(
    site: tuple[str, int], browser: Any
) -> None:
    url, tid = site
    now = dt.datetime.now(dt.UTC)
    data = init_data(now, 4711, start_param=f"t{tid}")
    context = _context(browser, data)
    page = context.new_page()
    page.goto(url + "/telegram/app")
    page.wait_for_url(f"{url}/t/{tid}")
    assert "Пия Игрокова" in page.locator("header").inner_text()  # signed in
    too_wide = []
    for path in (f"/t/{tid}", f"/t/{tid}/rounds/1", f"/t/{tid}/standings", "/", "/account"):
        page.goto(url + path)
        look = _look(page)
        assert look["bg"] == "#17212b" and look["body"] == "rgb(23, 33, 43)", (path, look)
        assert look["telegram"], path
        if look["width"] > PHONE["width"]:
            too_wide.append((path, look["width"]))
    assert too_wide == []
    # the Mini App opened again in the same web view: signed in already, no second use
    page.goto(url + "/telegram/app")
    page.wait_for_url(f"{url}/t/{tid}")
    assert page.evaluate("window.telegramReady === undefined")  # a page of the site
    context.close()
    # the same initData in another web view (a copied link, a replay): refused
    other = _context(browser, data)
    replay = other.new_page()
    replay.goto(url + "/telegram/app")
    error = replay.locator("#tg-app-error")
    error.wait_for(state="visible")
    assert "already used" in error.inner_text()
    assert replay.evaluate("window.telegramReady") is True
    look = _look(replay)
    assert look["height"] == "600px" and look["width"] <= PHONE["width"]
    assert "Пия" not in replay.locator("header").inner_text()
    other.close()


def test_outside_telegram_the_adapter_does_nothing(site: tuple[str, int], browser: Any) -> None:
    url, tid = site
    context = _context(browser, None)
    page = context.new_page()
    page.goto(url + "/telegram/app")
    page.locator("#tg-app-outside").wait_for(state="visible")
    look = _look(page)
    assert look["bg"] == "#fff" and not look["telegram"]
    page.goto(url + f"/t/{tid}")
    assert _look(page)["body"] == "rgb(255, 255, 255)"
    context.close()
