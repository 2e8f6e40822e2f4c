"""A knockout of Bughouse pairs in a real browser (Debian's Chromium) against a real
server: the organiser enters a match's board results on the round page and continues
the knockout with the Bughouse page's button; a Russian reader's Bughouse page, open
all along, shows the tie-break matches and then the champion without being reloaded."""

from __future__ import annotations

from pathlib import Path

from test_service_support import make_service, migrated

from crosstable.service import PlayerInfo, Service
from crosstable.service.accounts import Accounts
from crosstable.service.teams.bughouse import KnockoutOptions
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, web_server

pytestmark = needs_chromium


def prepared(db: Path) -> int:
    """Two pairs in a knockout whose drawn match goes to rapid matches, started; an
    administrator to run it."""
    with open_store(migrated(f"sqlite:///{db}")) as store:
        service = make_service(store)
        Accounts(service.store).create_user("boss", "password-boss", is_admin=True)
        options = KnockoutOptions(tie_rule="playoff")
        tid = service.create_bughouse_tournament("Cup", knockout=options).tournament_id
        for number, names in enumerate((("Aram", "Anahit"), ("Sargis", "Siran")), 1):
            service.add_team(tid, f"Pair {number}")
            for name in names:
                service.add_team_member(tid, number, PlayerInfo(name, 1900 + number))
        service.start(tid)
        return tid


def winning_results(db: Path, tid: int, rnd: int, pair: int) -> dict[int, str]:
    """The board results of store round ``rnd`` that give ``pair`` both games."""
    with open_store(f"sqlite:///{db}") as store:
        match = next(m for m in Service(store).bughouse_matches(tid) if m.number == rnd).match
    return {g.board: "1-0" if match.team_of[g.white] == pair else "0-1" for g in match.games}


def test_r_x_6_a_knockout_of_pairs_in_the_browser_updates_live(tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    tid = prepared(db)
    with web_server(db) as url, chromium() as browser:
        org = browser.new_context(locale="en-US").new_page()
        org.goto(url + "/signin")
        org.fill("input[name=username]", "boss")
        org.fill("input[name=password]", "password-boss")
        org.click("form.narrow-form button")
        org.wait_for_url(url + "/")
        reader = browser.new_context(locale="ru-RU").new_page()
        reader.goto(f"{url}/t/{tid}/bughouse")
        assert "Сетка" in reader.inner_text("main")
        assert reader.locator(".match[data-round='2']").count() == 0

        def enter(rnd: int, results: dict[int, str]) -> None:
            org.goto(f"{url}/t/{tid}/rounds/{rnd}")
            for board, result in results.items():
                label = f"button[aria-label='Board {board}: {result}']"
                org.click(label)
                org.wait_for_function(f'() => !document.querySelector("{label}")')

        enter(1, {1: "1-0", 2: "1-0"})  # one game each: a drawn match
        org.goto(f"{url}/t/{tid}/bughouse")
        org.click("#bughouse-pair button")  # continue: the rapid matches
        org.wait_for_selector(".flash")
        assert "matches added" in org.inner_text(".flash")
        reader.wait_for_selector(".match[data-round='3']", timeout=15000)  # no reload
        enter(2, winning_results(db, tid, 2, 2))
        enter(3, winning_results(db, tid, 3, 2))
        reader.wait_for_selector("#champion", timeout=15000)
        assert "2. Pair 1" in reader.inner_text("#champion")  # pair 2: the lower rated
