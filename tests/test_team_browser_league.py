"""A small team league end to end in a real browser (Debian's Chromium) against a
real server: the organiser creates it on /teams/new, adds three teams and their
players (a captain, a reserve), starts it, puts the reserve on board 2 of the first
match and enters its board results on the round page; a Russian reader's team page,
open all along, shows the match's score without being reloaded."""

from __future__ import annotations

from pathlib import Path

from test_service_support import migrated

from crosstable.service import Service
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_up, web_server

pytestmark = needs_chromium

TEAMS = {
    "Ararat": ["Aram", "Anahit", "Arsen"],
    "Sevan": ["Sargis", "Siran", "Samvel"],
    "Masis": ["Mher", "Mariam", "Mane"],
}


def test_r_b_3_a_team_league_in_the_browser(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    with web_server(db) as url, chromium() as browser:
        org = browser.new_context(locale="en-US").new_page()
        sign_up(org, url, "arbiter")
        org.goto(url + "/teams/new")
        org.fill("#team-new input[name=name]", "Club League")
        org.fill("#team-new input[name=boards]", "2")
        org.click("#team-new button")
        org.wait_for_url("**/teams")
        teams_url = org.url
        for number, (team, players) in enumerate(TEAMS.items(), 1):
            org.fill("#add-team input[name=name]", team)
            org.click("#add-team button")
            org.wait_for_selector(f"[data-team-number='{number}']")
            for k, player in enumerate(players):
                org.select_option("#add-member select[name=team]", str(number))
                org.fill("#add-member input[name=name]", player)
                if k == 0:
                    org.check("#add-member input[name=captain]")
                org.click("#add-member button")
                org.wait_for_selector(f"[data-team-number='{number}'] li:nth-child({k + 1})")
        org.click("#start-teams button")
        org.wait_for_selector("#team-table")
        with open_store(migrated(f"sqlite:///{db}")) as store:
            service = Service(store)
            tid = service.tournaments()[0].id
            first = service.team_matches(tid)[0]
            # (an odd field: the team drawn to sit out round 1 has no line-up to set)
            side = next(
                t
                for t in service.team_list(tid)
                if any(t.start in (m.white, m.black) for m in first)
            )
            match = next(m for m in first if side.start in (m.white, m.black))
        reader = browser.new_context(locale="ru-RU").new_page()
        reader.goto(teams_url)
        assert "Таблица команд" in reader.inner_text("main")
        # the captain's line-up (here the organiser's): the reserve on board 2
        form = org.locator(f".match[data-round='1'] form.lineup[data-team='{side.start}']")
        form.locator("select[name=board_2]").select_option(str(side.members[2].start))
        form.locator("button").click()
        org.wait_for_selector(".flash")
        assert f"line-up of team {side.name} set" in org.inner_text(".flash")
        # the board results, on the round page as every game's
        org.goto(f"{url}/t/{tid}/rounds/1")
        for game in match.games:
            org.click(f"button[aria-label='Board {game.board}: 1-0']")
            org.wait_for_function(
                f"() => !document.querySelector(\"button[aria-label='Board {game.board}: 1-0']\")"
            )
        score = f".match[data-round='1'][data-white='{match.white}'] .score"
        # the live part is swapped in after each change: no reload
        reader.wait_for_function(
            f"() => document.querySelector(\"{score}\")?.textContent.trim() === '1–1'",
            timeout=15000,
        )
        seated = reader.inner_text(f".match[data-round='1'][data-white='{match.white}'] tbody")
        second, reserve = TEAMS[side.name][1:3]
        assert reserve in seated and second not in seated
