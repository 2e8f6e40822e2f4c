"""The offline app in Debian's Chromium (issue 28 item 5): loaded once from the server,
the network cut, a round robin run to the end with the core under Pyodide, the page
reloaded with no network, and everything found again; then a Swiss, a knockout, a
Bughouse round robin and a knockout of pairs in the same page; the exports give the
same standings."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import chromium, needs_chromium, web_server

from crosstable.core.standings.table import compute_standings
from crosstable.formats.json_io import tournament_from_json
from crosstable.offline.app import view
from crosstable.offline.build import DEFAULT_OUT, build
from crosstable.offline.exchange import import_document

pytestmark = needs_chromium
READY = "#status[data-ready=yes]"
#: Pyodide's first start compiles 8.6 MB of WebAssembly: generous on a shared machine
LOAD_MS = 240_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server with the built app (built here when the install step has not run)."""
    out = Path(os.environ.get("CROSSTABLE_OFFLINE_DIR") or DEFAULT_OUT)
    if not (out / "manifest.json").is_file():
        build(out)
    folder = tmp_path_factory.mktemp("offline")
    with web_server(folder / "site.db") as url:
        yield url


def test_r_x_7_a_round_robin_in_the_browser_alone_survives_a_reload_offline(
    served: str, tmp_path: Path
) -> None:
    with chromium() as browser:
        context = browser.new_context(accept_downloads=True)
        page = context.new_page()
        began = time.monotonic()
        page.goto(served + "/offline/")
        page.wait_for_selector(READY, timeout=LOAD_MS)
        loaded = time.monotonic() - began
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        context.set_offline(True)
        page.fill("#tname", "Club")
        page.click("#create")
        for name, rating in (("Anna", "1900"), ("Boris", "1800"), ("Vera", "1700"), ("Gleb", "")):
            page.fill("#pname", name)
            page.fill("#prating", rating)
            page.click("#add")
        page.fill("#pname", "")
        page.click("#add")  # refused by the core, shown, nothing changes
        assert page.inner_text("#error")
        page.click("#start")
        selects = page.locator("select[data-round]")
        assert selects.count() == 6  # 3 rounds of 2 boards
        for index in range(6):
            selects.nth(index).select_option("1-0" if index % 3 else "½-½")
        page.locator("select[data-round]").nth(5).select_option("0-1")
        page.click("#undo")  # back to 1-0 on the last board
        assert page.locator("select[data-round]").nth(5).input_value() == "1-0"
        table = page.inner_text("#standings")
        assert page.is_visible("#finished")
        assert page.locator("#backups li").count() >= 10  # a backup before every change
        began = time.monotonic()
        page.reload()
        page.wait_for_selector(READY, timeout=LOAD_MS)
        reloaded = time.monotonic() - began
        assert page.inner_text("#standings") == table
        assert page.inner_text("#tournament") == "Club"
        with page.expect_download() as download:
            page.click("#export")
        exported = tmp_path / "club.json"
        download.value.save_as(exported)
        page.click("#discard")  # still offline: a Swiss, paired by the Dutch engine in Python
        page.select_option("#kind", "swiss")
        page.fill("#tname", "Open")
        page.click("#create")
        for name in ("Anna", "Boris", "Vera", "Gleb", "Dina"):
            page.fill("#pname", name)
            page.fill("#prating", "1500")
            page.click("#add")
        page.fill("#rounds", "3")
        page.click("#start")
        page.click("#pair")
        assert page.locator("select[data-round]").count() == 2  # two boards and a bye
        # equal ratings: starting numbers by name, and the last (Vera) has the bye
        assert page.inner_text("#app").split("Standings")[0].split("Bye")[1].strip() == ": Vera"
        page.click("#discard")  # a knockout with an armageddon, exported for the server
        page.select_option("#kind", "knockout")
        page.fill("#tname", "Cup")
        page.click("#create")
        for name, rating in (("Anna", "1900"), ("Boris", "1800"), ("Vera", "1700")):
            page.fill("#pname", name)
            page.fill("#prating", rating)
            page.click("#add")
        page.select_option("#tie_rule", "armageddon")
        page.click("#start")
        page.select_option("select[data-slot='2'][data-game='1']", "½-½")
        page.select_option("select[data-slot='2'][data-game='2']", "0-1")  # the armageddon
        page.click("#pair")
        page.select_option("select[data-slot='3'][data-game='1']", "1-0")
        assert page.is_visible("#finished")
        with page.expect_download() as download:
            page.click("#export")
        cup = tmp_path / "cup.json"
        download.value.save_as(cup)
        page.click("#discard")  # a Bughouse round robin of three pairs, the rule "first"
        page.select_option("#kind", "bughouse")
        page.fill("#tname", "Bughouse")
        page.click("#create")
        for number, (first, second) in enumerate(
            (("Aram", "Ani"), ("Sargis", "Siran"), ("Mher", "Mari")), 1
        ):
            page.fill("#pname", f"Pair {number}")
            page.fill("#p1name", first)
            page.fill("#p1rating", str(1700 + 50 * number))
            page.fill("#p2name", second)
            page.click("#add")
        page.select_option("#rule", "first")
        page.click("#start")
        assert page.locator("select[data-round]").count() == 6  # a match of two boards a round
        for index in range(6):
            page.locator("select[data-round]").nth(index).select_option("1-0")
        assert page.inner_text("span[data-match='1:1']") == "…"  # no game marked first yet
        for rnd in (1, 2, 3):
            page.click(f"button[data-first='{rnd}:2']")  # board 2: the Black pair won first
        assert page.inner_text("span[data-match='1:1']") == "0-2"
        assert page.is_visible("#finished")
        pairs_table = page.inner_text("#standings")
        with page.expect_download() as download:
            page.click("#export")
        bughouse = tmp_path / "bughouse.json"
        download.value.save_as(bughouse)
        page.click("#discard")  # a knockout of two pairs: a drawn match, the lower-rated wins
        page.select_option("#kind", "bughouse")
        page.fill("#tname", "Pairs cup")
        page.click("#create")
        for number in (1, 2):
            page.fill("#pname", f"Pair {number}")
            page.fill("#p1name", f"A{number}")
            page.fill("#p1rating", str(1800 + 100 * number))
            page.fill("#p2name", f"B{number}")
            page.fill("#p2rating", "1700")
            page.click("#add")
        page.select_option("#system", "knockout")
        page.click("#start")
        for board in (1, 2):
            page.select_option(f"select[data-round='1'][data-board='{board}']", "1-0")
        assert page.is_visible("#finished")
        # Pair 2 is rated higher (pair 1 of the bracket): the drawn match goes to Pair 1
        placings = page.inner_text("#placings").splitlines()[1:]
        assert sorted(placings) == ["1\tPair 1", "2\tPair 2"]
        context.close()
    print(f"offline app: first load {loaded:.1f} s, offline reload {reloaded:.1f} s")
    document = json.loads(exported.read_text(encoding="utf-8"))
    tournament = tournament_from_json({k: v for k, v in document.items() if k != "offline"})
    rows = compute_standings(tournament.tournament).rows
    shown = [line.split("\t") for line in table.strip().splitlines()[1:]]
    assert [(r.name, str(r.rank)) for r in rows] == [(cells[1], cells[0]) for cells in shown]
    knockout = json.loads(cup.read_text(encoding="utf-8"))
    opened = import_document({k: v for k, v in knockout.items() if k != "offline"})
    assert knockout["knockout"]["settings"]["tie_rule"] == "armageddon"
    assert len(knockout["knockout"]["games"]) == 3 and view(opened) == view(knockout["offline"])
    pairs = json.loads(bughouse.read_text(encoding="utf-8"))
    opened = import_document({k: v for k, v in pairs.items() if k != "offline"})
    assert pairs["bughouse"]["rule"] == "first" and len(pairs["bughouse"]["first"]) == 3
    shown = view(opened)
    assert shown == view(pairs["offline"])
    assert [(r["name"], r["points"]) for r in shown["standings"]] == [
        (cells[1], float(cells[2]))
        for cells in (line.split("\t") for line in pairs_table.strip().splitlines()[1:])
    ]
