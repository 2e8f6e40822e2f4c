"""The manage page's rating-list look-up in a real browser (Debian's Chromium): typing
a name fills the <datalist> from the API, choosing a player fills the FIDE ID and the
rating, and "Add" registers the player with the list's details; in the wizard, choosing
a player adds their line to the player list. Skipped locally when
``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a failure)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from crosstable.cli import main
from tests.browser import needs_chromium, sign_up, web_server
from tests.rating_list_files import fide_txt, zipped

pytestmark = needs_chromium


def test_typing_a_name_offers_the_lists_players_and_fills_the_form(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "web.db"
    listed = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    assert main(["ratinglist", "import", str(listed), "--db", str(db)]) == 0
    assert main(["new", "Club", "--time-control", "90+30", "--db", str(db)]) == 0
    with web_server(db) as url:
        context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
        page = context.new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/t/1/manage")  # the first account administers the site
        name = page.locator("#add-players input[name=name]")
        name.fill("car")
        page.wait_for_selector("#rating-list-found option:nth-child(2)", state="attached")
        options = page.locator("#rating-list-found option")
        assert options.count() == 2
        assert options.first.get_attribute("value") == "Carlsen, Magnus"
        assert "1503014" in (options.first.get_attribute("label") or "")
        name.fill("Carlsen, Magnus")  # what choosing the suggestion types
        assert page.locator("#add-players input[name=fide_id]").input_value() == "1503014"
        assert page.locator("#add-players input[name=rating]").input_value() == "2831"
        page.click("#add-players button")
        page.wait_for_selector("text=Carlsen, Magnus")
        assert "1 player registered" in page.content()
        # the wizard: choosing a player adds their line to the list, with the rating of
        # the type the time control gives (rapid: Carlsen 2823; Hou has none, so her
        # standard rating stands in, as the default order of rating lists says)
        page.goto(url + "/new")
        page.fill("input[name=time_control]", "15+10")
        finder = page.locator("#wizard-rating-list")
        for typed, chosen in (("hou", "Hou, Yifan"), ("carl", "Carlsen, Magnus")):
            finder.fill(typed)
            page.wait_for_selector(
                f'#wizard-rating-list-found option[value="{chosen}"]', state="attached"
            )
            finder.fill(chosen)
        assert page.locator("#wizard-list").input_value().splitlines() == [
            "Hou, Yifan; 2633; GM; CHN; ; 13300474",
            "Carlsen, Magnus; 2823; GM; NOR; ; 1503014",
        ]
        assert finder.input_value() == ""
        context.close()


def test_r_b_1_q117_a_custom_lists_player_is_offered_and_registered_with_their_source(
    tmp_path: Path,
    browser: Any,
) -> None:
    """The add-player form offers a custom list's player (labelled RUS:4101) beside
    FIDE's; choosing one registers them from that list, its rating as the national one."""
    db = tmp_path / "web.db"
    listed = tmp_path / "rus.csv"
    listed.write_text("id;name;rating;fed\n4101;Petrov, Ivan;2105;RUS\n", encoding="utf-8")
    assert main(["ratinglist", "import", str(listed), "--custom", "RUS", "--db", str(db)]) == 0
    assert main(["new", "Club", "--db", str(db)]) == 0
    with web_server(db) as url:
        context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-US")
        page = context.new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/t/1/manage")
        name = page.locator("#add-players input[name=name]")
        name.fill("petr")
        option = "#rating-list-found option[value='Petrov, Ivan (RUS:4101)']"
        page.wait_for_selector(option, state="attached")
        assert "RUS:4101" in (page.locator(option).get_attribute("label") or "")
        name.fill("Petrov, Ivan (RUS:4101)")  # what choosing the suggestion types
        assert page.locator("#add-players input[name=list_player]").input_value() == "RUS:4101"
        assert name.input_value() == "Petrov, Ivan"
        page.click("#add-players button")
        page.wait_for_selector("text=1 player registered")
        context.close()
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT name, rating, national_rating, rating_source FROM entries"
        ).fetchall()
    assert rows == [("Petrov, Ivan", None, 2105, "RUS:4101")]
