"""A knockout of Bughouse pairs in a real browser (Debian's Chromium) against a real
server: the organiser creates it on /bughouse/new (linked from the team form), adds
the pairs and starts it on the team page, follows its link to the Bughouse page,
enters a match's board results on the round page and continues the knockout with the
Bughouse page's button; a Russian reader's Bughouse page, open
all along, shows the tie-break matches and then the champion without being reloaded."""

from __future__ import annotations

from pathlib import Path

from test_service_support import make_service, migrated

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_in, web_server

pytestmark = needs_chromium


def prepared(db: Path) -> None:
    """An administrator to run the event."""
    with open_store(migrated(f"sqlite:///{db}")) as store:
        Accounts(make_service(store).store).create_user("boss", "password-boss", is_admin=True)


def winning_results(db: Path, tid: int, rnd: int, pair: int) -> dict[int, str]:
    """The board results of store round ``rnd`` that give ``pair`` both games."""
    with open_store(f"sqlite:///{db}") as store:
        match = next(m for m in Service(store).bughouse_matches(tid) if m.number == rnd).match
    return {g.board: "1-0" if match.team_of[g.white] == pair else "0-1" for g in match.games}


def test_r_x_6_a_knockout_of_pairs_in_the_browser_updates_live(tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    prepared(db)
    with web_server(db) as url, chromium() as browser:
        org = browser.new_context(locale="en-US").new_page()
        sign_in(org, url, "boss", "password-boss")
        org.goto(url + "/teams/new")
        org.click("#bughouse-new-link a")  # the team form links to the Bughouse one
        org.fill("#bughouse-new input[name=name]", "Cup")
        org.select_option("#bughouse-new select[name=format]", "knockout")
        org.select_option("#bughouse-new select[name=tie_rule]", "playoff")
        org.click("#bughouse-new button")
        org.wait_for_url("**/teams")
        tid = int(org.url.split("/t/")[1].split("/")[0])
        for number, names in enumerate((("Aram", "Anahit"), ("Sargis", "Siran")), 1):
            org.fill("#add-team input[name=name]", f"Pair {number}")
            org.click("#add-team button")
            org.wait_for_selector(f"[data-team-number='{number}']")
            for k, name in enumerate(names):
                org.select_option("#add-member select[name=team]", str(number))
                org.fill("#add-member input[name=name]", name)
                org.fill("#add-member input[name=rating]", str(1900 + number))
                org.click("#add-member button")
                org.wait_for_selector(f"[data-team-number='{number}'] li:nth-child({k + 1})")
        org.click("#start-teams button")
        org.wait_for_selector(".flash")
        assert "knockout of pairs started" in org.inner_text(".flash")
        org.click("#bughouse-link a")  # the team page links to the Bughouse page
        org.wait_for_url(f"**/t/{tid}/bughouse")
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
