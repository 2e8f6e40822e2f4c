"""What a newcomer tripped over on the pages (issue 29 items 1, 9, 13 and 14), in
Debian's Chromium against a real server, in English and Russian:

* the organiser's round page with reports waiting and disputes fits a 360 px phone
  (the document never scrolls sideways);
* the forfeit buttons are there without hovering or opening anything, each labelled in
  words (its text and its aria-label), not only with a symbol;
* a battle-chess round whose colours are not drawn yet says "colours drawn before the
  game" instead of White and Black, on the round page and the player page;
* the series' awards are readable in the light and the dark colour scheme: the
  contrast of each award's text against its background is at least 4.5:1 (WCAG AA),
  computed from the browser's computed colours.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_series_news import PLAYERS, _series, run_edition
from test_series_service import MORNING
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.demo import USERNAME, build_demo
from tests.browser import demo_signed_in, needs_chromium, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 740}
LOCALES = ["en-US", "ru-RU"]
UNDRAWN = {"en-US": "colours drawn before the game", "ru-RU": "цвета определяются перед партией"}


def _long(count: int) -> list[PlayerInfo]:
    return [
        PlayerInfo(f"Константинопольская-Длиннофамильная {i}", 2300 - 11 * i, "WFM", "RUS")
        for i in range(1, count + 1)
    ]


def _build(db: Path) -> dict[str, int]:
    service = Service(open_store(migrated(f"sqlite:///{db}")), random=random.Random(29))
    build_demo(service)
    accounts = Accounts(service.store)
    organiser = accounts.find_user(USERNAME)
    assert organiser is not None

    def create(regulations: Regulations, players: list[PlayerInfo]) -> int:
        tid = service.create_tournament(regulations, actor=USERNAME).tournament_id
        accounts.claim(tid, organiser)
        for player in players:
            service.add_player(tid, player, actor=USERNAME)
        service.draw_lots(tid, LotsMethod.RATING, actor=USERNAME)
        service.start(tid, actor=USERNAME)
        return tid

    # round 1 of eight: board 1 reported by one player (waiting), board 2 disputed,
    # board 3 reported alike by both (a result), board 4 nothing yet
    pending = create(Regulations(name="Споры и заявки"), _long(8))
    service.report_result(pending, 1, 1, "1-0", player=1)
    games = {g.board: g for g in service.overview(pending).games if g.round == 1}
    service.report_result(pending, 1, 2, "1-0", player=games[2].white or 0)
    service.report_result(pending, 1, 2, "0-1", player=games[2].black or 0)
    service.report_result(pending, 1, 4, "½-½", player=games[4].black or 0)

    battle = create(
        Regulations(name="Боевые шахматы", details={"variant": "battle", "setup_minutes": "5"}),
        _long(6),
    )
    service.store.close()
    return {"pending": pending, "battle": battle}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int]]]:
    db = tmp_path_factory.mktemp("newcomer") / "newcomer.db"
    kinds = _build(db)
    with web_server(db) as url:
        yield url, kinds


def _signed_in(browser: Any, url: str, locale: str, **options: Any) -> tuple[Any, Any]:
    return demo_signed_in(browser, url, viewport=PHONE, locale=locale, **options)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_round_page_with_reports_and_disputes_fits_a_phone(
    site: tuple[str, dict[str, int]], locale: str, browser: Any
) -> None:
    url, kinds = site
    context, page = _signed_in(browser, url, locale)
    page.goto(f"{url}/t/{kinds['pending']}/rounds/1")
    assert page.locator(".game.disputed").count() == 1  # the page shows what is measured
    assert page.locator(".btn-row.decide").count() == 3  # two waiting, one disputed
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > 360.5)
            .map(e => e.tagName + '.' + e.className).slice(0, 8)"""
    )
    context.close()
    assert width <= PHONE["width"], (locale, width, wide)


@pytest.mark.parametrize("locale", LOCALES)
def test_forfeit_buttons_are_visible_and_labelled(
    site: tuple[str, dict[str, int]], locale: str, browser: Any
) -> None:
    url, kinds = site
    context, page = _signed_in(browser, url, locale)
    page.goto(f"{url}/t/{kinds['pending']}/rounds/1")
    card = page.locator("#g1-4")  # a game without a result: results and forfeits
    forfeits = card.locator(
        "button[data-result='+-'], button[data-result='-+'], button[data-result='--']"
    )
    assert forfeits.count() == 3
    seen = []
    for i in range(3):
        button = forfeits.nth(i)
        assert button.is_visible(), i  # without a hover, a click or an opened box
        box = button.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 32
        opacity = button.evaluate("b => Number(getComputedStyle(b).opacity)")
        assert opacity >= 0.9
        text = button.inner_text()
        label = button.get_attribute("aria-label") or ""
        # words, not only "+-": at least three letters in the text and in the label
        assert sum(ch.isalpha() for ch in text) >= 3, text
        assert sum(ch.isalpha() for ch in label) >= 3, label
        seen.append((text, label))
    assert len({label for _t, label in seen}) == 3  # each says which forfeit
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= PHONE["width"]


@pytest.mark.parametrize("locale", LOCALES)
def test_battle_games_before_the_colour_draw_say_so(
    site: tuple[str, dict[str, int]], locale: str, browser: Any
) -> None:
    url, kinds = site
    tid = kinds["battle"]
    phrase = UNDRAWN[locale]
    white, black = ("White", "Black") if locale == "en-US" else ("Белые", "Чёрные")
    context, page = _signed_in(browser, url, locale)
    page.goto(f"{url}/t/{tid}/rounds/2")  # round 1 drawn at the start, round 2 not yet
    games = page.locator(".game")
    assert games.count() == 3
    for i in range(3):
        game = games.nth(i)
        assert phrase in game.inner_text().lower()
        assert game.locator(".pc").count() == 0  # no white and black piece marks
        marks = game.locator(f".pair [aria-label*='{white}'], .pair [aria-label*='{black}']")
        assert marks.count() == 0
    page.goto(f"{url}/t/{tid}/rounds/1")  # drawn: White and Black as usual
    assert page.locator(".game .pc").count() == 6
    assert phrase not in page.locator(".games").inner_text().lower()
    page.goto(f"{url}/t/{tid}/players/1")
    rows = page.locator("#player-games tbody tr")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    context.close()
    assert len(texts) == 5
    assert phrase in texts[1].lower() and white not in texts[1] and black not in texts[1]
    assert all(phrase not in t.lower() for t in texts[:1])


# -- the series' awards ------------------------------------------------------------------


@pytest.fixture(scope="module")
def awards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    db = tmp_path_factory.mktemp("awards") / "awards.db"
    store = open_store(migrated(f"sqlite:///{db}"))
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(3))
    sid = _series(service)
    run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    clock.advance(dt.timedelta(minutes=1))
    store.close()
    with web_server(db) as url:
        yield url, sid


CONTRAST = """
(el) => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  // the background actually behind the element: the first ancestor that paints one
  const background = (node) => {
    let colour = [255, 255, 255];
    const stack = [];
    for (let n = node; n; n = n.parentElement) stack.push(n);
    for (const n of stack.reverse()) {
      const c = parse(getComputedStyle(n).backgroundColor);
      const alpha = c.length > 3 ? c[3] : 1;
      if (c.length >= 3 && alpha > 0) {
        colour = colour.map((v, i) => v * (1 - alpha) + c[i] * alpha);
      }
    }
    return colour;
  };
  const out = [];
  for (const n of [el, ...el.querySelectorAll('*')]) {
    if (![...n.childNodes].some(t => t.nodeType === 3 && t.textContent.trim())) continue;
    const fg = parse(getComputedStyle(n).color).slice(0, 3);
    const bg = background(n);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push([n.tagName, (a + 0.05) / (b + 0.05)]);
  }
  return out;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", LOCALES)
def test_series_awards_are_readable(
    awards: tuple[str, int], locale: str, scheme: str, browser: Any
) -> None:
    url, sid = awards
    context = browser.new_context(viewport=PHONE, locale=locale, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{url}/series/{sid}/awards")
    items = page.locator(".series-badges li")
    assert items.count() >= 3
    worst = []
    for i in range(items.count()):
        ratios = items.nth(i).evaluate(CONTRAST)
        assert ratios, i  # the award has text
        worst.append(min(r for _tag, r in ratios))
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert min(worst) >= 4.5, (locale, scheme, sorted(worst)[:3])
    assert width <= PHONE["width"]
