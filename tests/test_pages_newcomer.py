"""What a new user trips over on the pages (issue 15 items 2, 8–12), in Chromium.

One database holds what the checks need — a knockout of six with a match for third
place, a round robin where six players share 2nd place (all their games drawn), a round
with a player's own game and a disputed board, Swiss tournaments started but not paired,
a history with an undone change and an account link, a tournament with venue, dates,
arbiter and time control — and one browser visits the pages at 1280 px and 360 px, in
English and in Russian. Every check looks at what the page shows against what the
services say (the names, the colours, the places), never at fixed texts of the page
beyond the catalogue's translations.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.demo import PASSWORD, USERNAME, build_demo
from crosstable.web.routes import actions
from tests.browser import needs_chromium, web_server

pytestmark = needs_chromium

#: (viewport width, browser language): every check runs in each
VIEWS = [(1280, "en-US"), (1280, "ru-RU"), (360, "en-US"), (360, "ru-RU")]
IDS = [f"{w}px-{loc[:2]}" for w, loc in VIEWS]
PLAYER = ("reporter", "password-reporter")


def tr(text: str, locale: str) -> str:
    """``text`` as the catalogue translates it for ``locale`` ("ru-RU" → Russian)."""
    return i18n.translations(locale[:2]).ugettext(text)


def _players(prefix: str, count: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"{prefix} Игрок {i}", 2300 - 10 * i, "FM", "RUS") for i in range(count)]


def _build(db: Path) -> dict[str, Any]:
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    build_demo(service)
    accounts = Accounts(service.store)
    organiser = accounts.find_user(USERNAME)
    assert organiser is not None
    made: dict[str, Any] = {}

    def create(spec: actions.WizardSpec, players: list[PlayerInfo]) -> int:
        tid = service.create_tournament(spec.regulations(), actor=USERNAME).tournament_id
        accounts.claim(tid, organiser)
        for player in players:
            service.add_player(tid, player, actor=USERNAME)
        service.draw_lots(
            tid, LotsMethod.MANUAL, order=tuple(range(1, len(players) + 1)), actor=USERNAME
        )
        service.start(tid, actor=USERNAME)
        return tid

    # 15.2: six players, a match for third place
    # (lots seed 1: both quarter-finals begin with the lower player of the bracket as White)
    ko_spec = actions.WizardSpec(
        name="Кубок", format="knockout", third_place=True, details=(("lots_seed", "1"),)
    )
    made["knockout"] = create(ko_spec, _players("К", 6))
    # 15.9: 1 beats everyone, 8 loses to everyone, the six others draw among themselves
    shared = create(
        actions.WizardSpec(
            name="Чемпионат клуба",
            time_control="90+30",
            start_date=dt.date(2026, 12, 1),
            end_date=dt.date(2026, 12, 7),
            details=(("venue", "Москва, ЦДШ"), ("arbiter", "Иван Судейский")),
        ),
        _players("Ч", 8),
    )
    for game in service.overview(shared).games:
        if game.white == 1 or game.black == 8:
            result = "1-0"
        elif game.black == 1 or game.white == 8:
            result = "0-1"
        else:
            result = "½-½"
        service.record_result(shared, game.round, game.board, result, actor=USERNAME)
    made["shared"] = shared
    # 15.10, 15.11: a round being played: a player's own game, a disputed board; in the
    # history an account link and an undone result
    play = create(actions.WizardSpec(name="Вечерний турнир"), _players("В", 6))
    first = [g for g in service.overview(play).games if g.round == 1]
    mine, disputed, undone = first
    user = accounts.create_user(*PLAYER, display_name="Reporter")
    accounts.link_entry(play, mine.white, user.id, actor=USERNAME)  # start = number here
    service.report_result(play, 1, disputed.board, "1-0", player=disputed.white)
    service.report_result(play, 1, disputed.board, "0-1", player=disputed.black)
    service.record_result(play, 1, undone.board, "1-0", actor=USERNAME)
    service.undo(play, actor=USERNAME)
    made["play"], made["mine"], made["disputed"] = play, mine.board, disputed.board
    # 15.10: a Swiss per view, started, round 1 not published yet
    made["swiss"] = [
        create(actions.WizardSpec(name=f"Швейцарка {i}", format="swiss"), _players("Ш", 6))
        for i in range(len(VIEWS))
    ]
    # …and a Swiss per view with round 1 played, round 2 not published yet
    made["swiss_played"] = []
    for i in range(len(VIEWS)):
        tid = create(
            actions.WizardSpec(name=f"Швейцарка, тур 2 {i}", format="swiss"), [*_players("Т", 6)]
        )
        service.publish_round(tid, actor=USERNAME)
        for game in service.overview(tid).games:
            if game.white and game.black and game.result is None:
                result = "1-0" if game.white < game.black else "0-1"
                service.record_result(tid, game.round, game.board, result, actor=USERNAME)
        made["swiss_played"].append(tid)
    service.store.close()
    return made


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    db = tmp_path_factory.mktemp("newcomer") / "newcomer.db"
    made = _build(db)
    made["service"] = Service(open_store(migrated(f"sqlite:///{db}")))
    with web_server(db) as url:
        yield url, made
    made["service"].store.close()


@pytest.fixture(scope="module")
def signed_in(site: tuple[str, dict[str, Any]], browser: Any) -> dict[str, Any]:
    """The cookies of the organiser and of the player, signed in once."""
    url, _made = site
    states = {}
    for who, (name, password) in {"organiser": (USERNAME, PASSWORD), "player": PLAYER}.items():
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + "/signin")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", password)
        page.locator("form button").first.click()
        page.wait_for_url(url + "/")
        states[who] = context.storage_state()
        context.close()
    return states


def _page(browser: Any, view: tuple[int, str], state: Any = None) -> Any:
    width, locale = view
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=locale, storage_state=state
    )
    return context.new_page()


def _tops(locator: Any) -> list[float]:
    return [round(box["y"]) for box in (e.bounding_box() for e in locator.all())]


# -- 15.2 the bracket's match for third place, the headings in one line -----------------------


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_the_third_place_match_is_between_the_semi_finals_losers(
    site: tuple[str, dict[str, Any]], browser: Any, view: tuple[int, str]
) -> None:
    url, made = site
    locale = view[1]
    bracket = made["service"].bracket_view(made["knockout"])
    final_round = bracket["rounds"][-1]
    final, third = final_round["matches"]
    page = _page(browser, view)
    page.goto(f"{url}/t/{made['knockout']}/bracket")
    final_box, third_box = (
        page.locator(f"#slot-{final['slot']}"),
        page.locator(f"#slot-{third['slot']}"),
    )
    winners = [tr("winner of match %(s)s", locale) % {"s": s} for s in final["from"]]
    assert final_box.locator(".ko-name").all_inner_texts() == winners
    losers = [tr("loser of match %(s)s", locale) % {"s": s} for s in third["from"]]
    assert third_box.locator(".ko-name").all_inner_texts() == losers
    label = page.locator("#third-place-title")
    assert label.inner_text() == tr("Match for third place", locale)
    assert third_box.get_attribute("aria-labelledby") == "third-place-title"
    # the rounds' headings on one line (the quarter-final's byes no longer lift it)
    headings = page.locator(".ko-round h3")
    assert headings.count() == len(bracket["rounds"]) == 3
    assert len(set(_tops(headings))) == 1, _tops(headings)
    page.context.close()


# -- 15.8 the player page: the explanation on demand ------------------------------------------


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_the_player_page_shows_the_games_and_explains_on_demand(
    site: tuple[str, dict[str, Any]], browser: Any, view: tuple[int, str]
) -> None:
    url, made = site
    page = _page(browser, view)
    page.goto(f"{url}/t/{made['shared']}/players/2")
    rows = page.locator("#player-games tbody tr")
    assert rows.count() == 7
    for row in rows.all():  # nothing lies over any of the player's games
        row.scroll_into_view_if_needed()
        box = row.bounding_box()
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('tr') !== null",
            [box["x"] + 5, box["y"] + box["height"] / 2],
        )
        assert on_top, row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= view[0]
    panel = page.locator("#tb-details")
    assert panel.get_attribute("open") is None
    assert not page.locator(".explain-box").is_visible()
    panel.locator("summary").click()
    assert page.locator(".explain-box").is_visible()
    heads = page.locator(".explain-box h4").all_inner_texts()
    assert any("(DE)" in h for h in heads) and any("(SB)" in h for h in heads)
    page.context.close()


# -- 15.9 shared places as ranges, DE as FIDE defines it, games played ------------------------


def _expected_places(service: Service, tid: int) -> tuple[dict[str, str], dict[str, int]]:
    """Each player's place as the range the tied players hold, and games played, from
    the service's standings and games (computed here, not by the page's helper)."""
    view, tournament = service.snapshot(tid)
    from crosstable.core.standings.table import compute_standings

    standings = compute_standings(tournament, final=False)
    names = {p.start: p.name for p in view.players}
    ranks = {row.start: row.rank for row in standings.rows}
    places = {}
    for start, rank in ranks.items():
        same = sum(1 for r in ranks.values() if r == rank)
        places[names[start]] = f"{rank}–{rank + same - 1}" if same > 1 else str(rank)
    played = {name: 0 for name in names.values()}
    for game in view.games:
        if game.result in ("1-0", "0-1", "½-½"):
            played[names[game.white]] += 1
            played[names[game.black]] += 1
    return places, played


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_shared_places_show_as_ranges_with_games_played(
    site: tuple[str, dict[str, Any]], browser: Any, view: tuple[int, str]
) -> None:
    url, made = site
    locale = view[1]
    places, played = _expected_places(made["service"], made["shared"])
    assert sorted(places.values()).count("2–7") == 6  # the tournament is built that way
    page = _page(browser, view)
    page.goto(f"{url}/t/{made['shared']}/standings")
    heads = page.locator("#standings thead th").all_inner_texts()
    assert heads[:4] == [tr(t, locale) for t in ("Place", "Player", "Games", "Points")]
    seen_places, seen_played = {}, {}
    for row in page.locator("#standings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        name = cells[1].split(". ", 1)[1]
        seen_places[name], seen_played[name] = cells[0], int(cells[2])
        de = cells[4]  # DE: the six drew each other — tied, not separated: a dash, not 0
        assert de == "–", (name, cells)
    assert seen_places == places and seen_played == played
    # the column is a table's column (not laid out as the round view's grid of boards)
    shown = page.eval_on_selector_all(
        "#standings .played", "cells => cells.map(c => getComputedStyle(c).display)"
    )
    assert set(shown) == {"table-cell"}, shown
    # the crosstable and the player page write the place the same way
    page.goto(f"{url}/t/{made['shared']}")
    grid = {
        row.locator(".name").inner_text().split(" ", 1)[-1]: row.locator("td.place").inner_text()
        for row in page.locator("#live tbody tr").all()
    }
    assert {n.split(" ", 1)[-1]: p for n, p in places.items()} == {
        n.split(" ", 1)[-1]: p for n, p in grid.items()
    }
    page.goto(f"{url}/t/{made['shared']}/players/3")
    assert "2–7" in page.locator("main > p").first.inner_text()
    # the DE explanation says its value is a place in the mini-table
    page.locator("#tb-details summary").click()
    de_section = page.locator(".exp", has=page.locator("h4", has_text="(DE)"))
    assert de_section.locator("h4 b").inner_text() == "–"
    assert de_section.locator(".de-how").is_visible()
    page.context.close()


# -- 15.10 buttons, colours, a live tab, the phone tab bar, the icon --------------------------


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_result_buttons_sit_in_even_rows(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    url, made = site
    player = _page(browser, view, signed_in["player"])
    player.goto(f"{url}/t/{made['play']}/rounds/1")
    mine = player.locator(f"#g1-{made['mine']}")
    assert mine.locator(".label").is_visible()
    buttons = mine.locator("button.res-btn")
    assert buttons.count() == 3 and len(set(_tops(buttons))) == 1, _tops(buttons)
    player.context.close()
    organiser = _page(browser, view, signed_in["organiser"])
    organiser.goto(f"{url}/t/{made['play']}/rounds/1")
    card = organiser.locator(f"#g1-{made['disputed']}.disputed")
    decide = card.locator(".btn-row.decide button")
    results = card.locator(".btn-row.results button")
    assert decide.count() == 3 and results.count() == 3  # confirm ×2, reject; 1-0 ½-½ 0-1
    assert len(set(_tops(decide))) == 1 and len(set(_tops(results))) == 1
    assert _tops(decide)[0] < _tops(results)[0]
    for row in (decide, results):
        widths = [round(e.bounding_box()["width"]) for e in row.all()]
        assert max(widths) - min(widths) <= 1, widths
    organiser.context.close()


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_a_knockout_board_lists_white_first(
    site: tuple[str, dict[str, Any]], browser: Any, view: tuple[int, str]
) -> None:
    url, made = site
    games = [g for g in made["service"].overview(made["knockout"]).games if g.round == 1]
    bracket = made["service"].bracket_view(made["knockout"])
    tops = {m["players"][0]["start"] for m in bracket["rounds"][0]["matches"]}
    assert any(g.black in tops for g in games)  # the bracket's order is not the colours'
    page = _page(browser, view)
    page.goto(f"{url}/t/{made['knockout']}/rounds/1")
    items = page.locator("#ko-boards li")
    assert items.count() == len(games) == 2
    for game, item in zip(sorted(games, key=lambda g: g.board), items.all(), strict=True):
        text = item.inner_text()
        assert text.index(game.white_name) < text.index(game.black_name), text
        assert item.locator(".pc.w").count() == 1 and item.locator(".pc.b").count() == 1
    page.context.close()


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_a_guest_page_gains_the_rounds_tab_when_round_1_is_published(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    url, made = site
    locale = view[1]
    swiss = made["swiss"][VIEWS.index(view)]
    rounds = tr("Rounds", locale)
    guest = _page(browser, view)
    guest.goto(f"{url}/t/{swiss}")
    guest.wait_for_selector("#live-state:not(.off)")
    tabs = guest.locator("#tabs a")
    assert rounds not in tabs.all_inner_texts()
    organiser = _page(browser, view, signed_in["organiser"])
    organiser.goto(f"{url}/t/{swiss}/pairing")
    organiser.locator("#publish").click()
    organiser.wait_for_load_state()
    guest.locator("#tabs a", has_text=rounds).wait_for(timeout=10000)
    assert guest.locator("#tabs a", has_text=rounds).get_attribute("href") == (
        f"/t/{swiss}/rounds/1"
    )
    assert guest.locator("#tabs a[aria-current]").count() == 1  # still the crosstable's
    organiser.context.close()
    guest.context.close()


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_a_round_view_gains_the_next_rounds_link_when_it_is_published(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    url, made = site
    swiss = made["swiss_played"][VIEWS.index(view)]
    guest = _page(browser, view)
    guest.goto(f"{url}/t/{swiss}/rounds/1")
    assert guest.locator("nav.rounds a").all_inner_texts() == ["1"]
    organiser = _page(browser, view, signed_in["organiser"])
    organiser.goto(f"{url}/t/{swiss}/pairing")
    organiser.locator("#publish").click()
    organiser.wait_for_load_state()
    guest.locator("nav.rounds a", has_text="2").wait_for(timeout=10000)
    assert guest.locator("nav.rounds a").all_inner_texts() == ["1", "2"]
    assert guest.locator("nav.rounds a[aria-current]").inner_text() == "1"
    organiser.context.close()
    guest.context.close()


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_every_tab_is_in_sight_and_the_site_has_an_icon(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    url, made = site
    page = _page(browser, view, signed_in["organiser"])
    page.goto(f"{url}/t/{made['shared']}/regulations")
    nav = page.locator("#tabs")
    assert nav.locator("a").count() == 7  # with Manage: the longest bar
    right = nav.bounding_box()["x"] + nav.bounding_box()["width"]
    for link in nav.locator("a").all():
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right + 0.5, link.inner_text()
    assert page.evaluate("document.getElementById('tabs').scrollWidth") <= page.evaluate(
        "document.getElementById('tabs').clientWidth"
    )
    icon = page.request.get(url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] == "image/x-icon"
    assert icon.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page.context.close()


# -- 15.11 the history: unambiguous dates, revert only where it means something ---------------


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_the_history_dates_and_reverts(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    url, made = site
    items = made["service"].history(made["play"])
    page = _page(browser, view, signed_in["organiser"])
    page.goto(f"{url}/t/{made['play']}/history")
    entries = page.locator("ol.history > li")
    assert entries.count() == len(items)
    for entry in entries.all():
        when = entry.locator("time")
        moment = dt.datetime.fromisoformat(when.get_attribute("datetime"))
        text = when.inner_text()
        assert str(moment.year) in text and text.endswith(" UTC"), text
        assert f"{moment:%H:%M}" in text and not re.search(r"\d+/\d+/\d+", text), text
    by_seq = {item.seq: item for item in items}
    reverts = 0
    for entry in entries.all():
        seq = int(entry.locator(".seq").inner_text().lstrip("#"))
        item = by_seq[seq]
        offered = entry.locator("form button").count() == 1
        # nothing to go back to: undone already, no change of its own (who organises, an
        # account link: undo and revert pass over them), or the latest entry
        cannot = item.undone or item.kind in ("claim", "account-link") or seq == items[-1].seq
        assert offered == (not cannot), (seq, item.kind, item.undone)
        reverts += offered
    kinds = {i.kind for i in items}
    assert {"account-link", "claim"} <= kinds and any(i.undone for i in items)
    assert reverts >= 8  # creation, six players, the draw, the start, the reports…
    page.context.close()


# -- 15.12 what the printed crosstable and its PDF say about the tournament --------------------


@pytest.mark.parametrize("view", VIEWS, ids=IDS)
def test_the_printed_crosstable_says_where_when_and_who(
    site: tuple[str, dict[str, Any]],
    browser: Any,
    signed_in: dict[str, Any],
    view: tuple[int, str],
) -> None:
    from tests.test_web_print import read_pdf

    url, made = site
    locale = view[1]
    wanted = [
        "Москва, ЦДШ",
        "Иван Судейский",
        "90+30",
        "2026",
        f"1. {tr('Direct encounter', locale)}",
        f"3. {tr('Sonneborn-Berger', locale)}",
    ]
    labels = [tr(t, locale) for t in ("Venue", "Dates", "Arbiter", "Time control", "Tie-breaks")]
    page = _page(browser, view)
    page.goto(f"{url}/t/{made['shared']}/print/crosstable")
    details = page.locator("#print-details").inner_text()
    for text in wanted + labels:
        assert text in details, (text, details)
    answer = page.request.get(
        f"{url}/t/{made['shared']}/pdf/crosstable.pdf", headers={"Accept-Language": locale}
    )
    pdf = read_pdf(answer.body())
    drawn = pdf.text
    for text in wanted + labels:
        assert text in drawn, text
    heads = [tr(t, locale) for t in ("Player", "Rating", "Pts", "Place")]
    heads += [i18n.translations(locale[:2]).ugettext(i18n.TIEBREAK_HEADS[c]) for c in ("SB",)]
    for head in heads:
        assert head in pdf.strings, (head, pdf.strings[:40])
    assert not any(s.endswith("…") for s in pdf.strings[:40]), pdf.strings[:40]
    page.context.close()
    # the wizard's name of the tournament ("Название", not a person's "Имя")
    organiser = _page(browser, view, signed_in["organiser"])
    organiser.goto(f"{url}/new")
    label = organiser.locator("label", has=organiser.locator("input[name=name]")).first
    expected = "Название" if locale.startswith("ru") else "Tournament name"
    assert label.inner_text().strip() == expected
    organiser.context.close()
