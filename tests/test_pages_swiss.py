"""A Swiss and a knockout run end to end in a real browser (Debian's Chromium, headless).

(a) An organiser creates a nine-player, five-round Swiss in the wizard (the preview
shows ⌈log₂ 9⌉ = 4 rounds until five are typed in), draws lots by rating, starts it,
and then, round by round, approves and publishes the Dutch system's pairing and
enters every result with one tap. Before round 3 she changes the pairing (the
colours of board 1 swapped): the review shows the warning, publishing shows it
again and the history records the manual pairing. A player has a half-point bye
in round 5. The final standings page shows the places and points the standings
engine computes from what the server stored.

(b) An organiser creates an eight-player knockout in the wizard (one game a match,
the portal's tie rule: on a draw the lower-rated player goes on), enters the
results, continues the knockout round by round, and the bracket shows the
champion; the drawn match is decided by the tie rule.

Everything runs on a 360-pixel-wide phone screen. Skipped locally when
``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import needs_chromium, press_create, sign_up, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 740}

#: nine players, ratings all different: drawing lots by rating gives number 1 to the first
SWISS = [
    ("Anna Petrova", 2105),
    ("Boris Orlov", 2040),
    ("Clara Smirnova", 1987),
    ("Denis Volkov", 1930),
    ("Elena Kuznetsova", 1874),
    ("Fyodor Lebedev", 1822),
    ("Galina Sokolova", 1790),
    ("Igor Popov", 1755),
    ("Yana Morozova", 1702),
]
KNOCKOUT = [
    ("Karl Adler", 2210),
    ("Lena Berg", 2150),
    ("Max Claus", 2080),
    ("Nina Dorn", 2010),
    ("Otto Ebert", 1950),
    ("Paula Fink", 1890),
    ("Rolf Graf", 1820),
    ("Sara Hahn", 1760),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("web") / "swiss.db"
    with web_server(db) as url:
        yield url, db


@pytest.fixture(scope="module")
def organiser(server: tuple[str, Path], browser: Any) -> Iterator[Any]:
    """The site's first account (its administrator) on a phone."""
    url, _db = server
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    sign_up(page, url, "arbiter", "Chief Arbiter")
    yield page
    context.close()


def _service(db: Path) -> Any:
    """The server's database, read directly (to compare the pages with the services)."""
    from crosstable.service import Service
    from crosstable.store import open_store

    return Service(open_store(f"sqlite:///{db}"))


def _swiss_result(white: int, black: int) -> str:
    """A result by starting numbers: a draw when the two numbers sum to a multiple of 5,
    else the lower number (the higher rating) wins."""
    if (white + black) % 5 == 0:
        return "½-½"
    return "1-0" if white < black else "0-1"


def _no_overflow(page: Any) -> None:
    """Nothing but the tables' own scrolling boxes is wider than the phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, (page.url, width)


def _enter_round(page: Any, rnd: int) -> None:
    cards = page.locator(".game:not(.free)")
    for index in range(cards.count()):
        card = cards.nth(index)
        board = int(card.locator(".board").inner_text())
        white = int(card.locator(".white").inner_text().split(".", 1)[0])
        black = int(card.locator(".black").inner_text().split(".", 1)[0])
        card.locator(".res-btn", has_text=_swiss_result(white, black)).first.click()
        page.wait_for_selector(f"#g{rnd}-{board}.done")


def test_organiser_runs_a_nine_player_swiss(
    server: tuple[str, Path], organiser: Any, tmp_path: Path
) -> None:
    url, db = server
    org = organiser

    # the wizard: Swiss, nine players; the preview shows the default ⌈log₂ 9⌉ = 4 rounds
    org.goto(url + "/new")
    org.fill("input[name=name]", "Autumn Swiss")
    org.select_option("select[name=format]", "swiss")
    org.fill("textarea[name=list]", "\n".join(f"{n}; {r}" for n, r in SWISS))
    org.wait_for_function("() => document.querySelector('#pv-players')?.textContent.trim() === '9'")
    assert org.locator("#pv-rounds").inner_text().strip() == "4"
    assert org.locator("#pv-pab").is_visible()
    org.fill("input[name=rounds]", "5")
    org.wait_for_function("() => document.querySelector('#pv-rounds')?.textContent.trim() === '5'")
    assert org.locator("#pv-games").inner_text().strip() == "20"
    org.select_option("select[name=initial_colour]", "white")
    _no_overflow(org)
    press_create(org)
    org.wait_for_url("**/manage")
    tid = int(org.url.split("/t/")[1].split("/")[0])

    org.select_option("select[name=method]", "rating")
    org.click("form[action$='/manage/lots'] button")
    org.wait_for_selector("text=Starting numbers are drawn")
    org.click("form[action$='/manage/start'] button")
    org.wait_for_url(f"**/t/{tid}/pairing")
    service = _service(db)
    # a spectator watches the Swiss table; it fills in live, without reloading
    spectator = organiser.context.browser.new_context(viewport=PHONE, locale="en-US")
    watcher = spectator.new_page()
    watcher.goto(f"{url}/t/{tid}")
    watcher.wait_for_selector("#live-state:not(.off)")

    for rnd in range(1, 6):
        if rnd == 5:  # player 9 cannot come to the last round: a half-point bye
            org.goto(f"{url}/t/{tid}/byes")
            org.select_option("#bye-form select[name=start]", "9")
            org.select_option("#bye-form select[name=round]", "5")
            org.select_option("#bye-form select[name=kind]", "H")
            org.click("#bye-form button")
            org.wait_for_selector("#bye-list >> text=Yana Morozova")
        org.goto(f"{url}/t/{tid}/pairing")
        org.wait_for_selector("#pairing-boards")
        proposal = service.propose_round(tid)
        assert proposal.round == rnd
        shown = [
            tuple(int(cell.split(".", 1)[0]) for cell in row.locator("td").all_inner_texts()[1:])
            for row in org.locator("#pairing-boards tbody tr").all()
        ]
        assert shown == [tuple(b) for b in proposal.boards], rnd  # what the engine proposes
        if rnd == 5:
            assert "half-point bye" in org.locator("#pairing-absent").inner_text()
            assert not org.locator("#pairing-pab").count()
        else:
            assert org.locator("#pairing-pab").inner_text().startswith("Pairing-allocated bye")
        _no_overflow(org)
        if rnd == 3:  # the organiser swaps the colours of board 1
            org.click("#edit-pairing")
            org.wait_for_selector("#edit-form")
            white, black = proposal.boards[0]
            org.select_option("#white_1", str(black))
            org.select_option("#black_1", str(white))
            _no_overflow(org)
            org.click("#review")
            warning = org.wait_for_selector("#pairing-warning")
            assert "colours reversed" in warning.inner_text()
            assert org.locator("#publish").inner_text() == "Validate pairings"  # the phase is open
            org.click("#publish")
            org.wait_for_selector("#confirm")  # FIDE mode: a hand pairing is level 3
            assert "colours reversed" in org.locator("#confirm").inner_text()
            org.click("#confirm-go")
            org.wait_for_url(f"**/t/{tid}/rounds/3")
            flash = org.locator(".flash.warn").inner_text()
            assert "manual pairing" in flash and "colours reversed" in flash
        else:
            org.click("#publish")
            org.wait_for_url(f"**/t/{tid}/rounds/{rnd}")
        _no_overflow(org)
        _enter_round(org, rnd)
        # the spectator's table has the round and its points, within seconds
        tournament = service.tournament(tid)
        total = float(sum(tournament.score(p.start) for p in tournament.players))
        watcher.wait_for_function(
            "([rounds, total]) => document.querySelectorAll('#live table.sw thead th.rd')"
            ".length === rounds && [...document.querySelectorAll('#live table.sw td.pts')]"
            ".reduce((s, td) => s + Number(td.textContent.trim().replace('½', '.5')"
            ".replace(/^\\./, '0.')), 0) === total",
            arg=[rnd, total],
            timeout=5000,
        )

    # the history records the manual pairing
    org.goto(f"{url}/t/{tid}/history")
    assert "manual pairing" in org.locator(".history").inner_text()

    org.goto(f"{url}/t/{tid}/manage")
    finish = org.locator("form[action$='/manage/finish'] button")
    if finish.count():  # (else it finished by itself with its last result)
        finish.click()
        org.wait_for_url(f"**/t/{tid}")
    else:
        org.goto(f"{url}/t/{tid}")
    org.wait_for_selector("#live .final")
    watcher.wait_for_selector("#live .final", timeout=5000)
    spectator.close()
    assert org.locator("#live table.sw thead th.rd").count() == 5

    # the final standings: places and points as the standings engine computes them
    from crosstable.core.standings.table import compute_standings

    expected = compute_standings(service.tournament(tid), final=True)
    org.goto(f"{url}/t/{tid}/standings")
    rows = org.locator("#standings tbody tr")
    assert rows.count() == 9
    seen = []
    for row in expected.rows:
        line = org.locator(f"#s{row.start}")
        place = line.locator("td.place").inner_text().strip()
        points = line.locator("td.pts").inner_text().strip()
        seen.append((row.start, place, points))
        assert place == str(row.rank), (row.start, place, row.rank)
        assert points == _points_text(row.points), (row.start, points, row.points)
    assert [s for s, _p, _q in seen] == [r.start for r in expected.rows]
    org.screenshot(path=str(tmp_path / "swiss.png"), full_page=True)


def _points_text(value: Any) -> str:
    from crosstable.web.i18n import points_text

    return points_text(value, "en")


def test_organiser_runs_an_eight_player_knockout(
    server: tuple[str, Path], organiser: Any, tmp_path: Path
) -> None:
    url, db = server
    org = organiser
    org.goto(url + "/new")
    org.fill("input[name=name]", "Cup")
    org.select_option("select[name=format]", "knockout")
    org.fill("textarea[name=list]", "\n".join(f"{n}; {r}" for n, r in KNOCKOUT))
    org.wait_for_function("() => document.querySelector('#pv-bracket')?.textContent.trim() === '8'")
    assert org.locator("#pv-rounds").inner_text().strip() == "3"
    assert org.locator("#pv-matches").inner_text().strip() == "7"
    assert org.locator("#pv-byes").inner_text().strip().startswith("0")
    org.fill("textarea[name=list]", "\n".join(f"{n}; {r}" for n, r in KNOCKOUT[:6]))
    org.wait_for_function(
        "() => document.querySelector('#pv-byes')?.textContent.trim().startsWith('2')"
    )
    org.fill("textarea[name=list]", "\n".join(f"{n}; {r}" for n, r in KNOCKOUT))
    org.wait_for_function("() => document.querySelector('#pv-players')?.textContent.trim() === '8'")
    org.select_option("select[name=match_format]", "1")
    org.select_option("select[name=tie_rule]", "lower-rated")
    _no_overflow(org)
    press_create(org)
    org.wait_for_url("**/manage")
    tid = int(org.url.split("/t/")[1].split("/")[0])
    org.select_option("select[name=method]", "rating")
    org.click("form[action$='/manage/lots'] button")
    org.wait_for_selector("text=Starting numbers are drawn")
    org.click("form[action$='/manage/start'] button")
    org.wait_for_url(f"**/t/{tid}/rounds/1")

    # seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6; the higher seed wins, except: 4 v 5 is drawn
    # (the lower-rated player, number 5, goes on) and in the final number 2 wins
    rating = {start: r for start, (_n, r) in enumerate(KNOCKOUT, 1)}
    for rnd in (1, 2, 3):
        if rnd > 1:
            org.wait_for_url(f"**/t/{tid}/rounds/{rnd}")
        cards = org.locator(".game:not(.free)")
        assert cards.count() == {1: 4, 2: 2, 3: 1}[rnd]
        for index in range(cards.count()):
            card = cards.nth(index)
            board = int(card.locator(".board").inner_text())
            white = int(card.locator(".white").inner_text().split(".", 1)[0])
            black = int(card.locator(".black").inner_text().split(".", 1)[0])
            if {white, black} == {4, 5}:
                result = "½-½"
            elif rnd == 3:
                result = "1-0" if white == 2 else "0-1"
            else:
                result = "1-0" if rating[white] > rating[black] else "0-1"
            card.locator(".res-btn", has_text=result).first.click()
            org.wait_for_selector(f"#g{rnd}-{board}.done")
        _no_overflow(org)
        if rnd < 3:
            org.click("#continue")
    org.wait_for_selector("#champion")
    assert "Lena Berg" in org.locator("#champion").inner_text()

    org.goto(f"{url}/t/{tid}/bracket")
    champion = org.wait_for_selector("#champion")
    assert "Lena Berg" in champion.inner_text()
    drawn = org.locator("#slot-2")  # round 1, second match: 4 v 5
    assert "Otto Ebert" in drawn.locator(".ko-player.winner").inner_text()
    assert "lower-rated player goes on" in drawn.locator(".ko-how").inner_text()
    assert org.locator(".ko-round").count() == 3
    final = org.locator("#ko-round-3 .ko-match")
    assert "Lena Berg" in final.locator(".ko-player.winner").inner_text()
    view = _service(db).bracket_view(tid)
    assert view["champion"]["name"] == "Lena Berg"
    org.screenshot(path=str(tmp_path / "bracket.png"), full_page=True)
