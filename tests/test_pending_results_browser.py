"""The venue's connection drops (seed 004: the app keeps working offline): results the
organiser enters on the round page while offline wait in the browser, marked, and are
sent when the connection is back, each exactly once; one that conflicts with a result
entered meanwhile is not overwritten but listed as not recorded, with the server's
reason. Debian's Chromium against a real server on a SQLite file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, sign_in, web_server

pytestmark = needs_chromium


def _prepare(db: Path) -> tuple[int, str]:
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    try:
        accounts = Accounts(service.store)
        organiser = accounts.create_user("arbiter", "password-arbiter", is_master=True)
        tid = service.create_tournament(Regulations(name="Club")).tournament_id
        accounts.claim(tid, organiser)
        accounts.set_access(tid, approval="approved")
        for index in range(6):
            service.add_player(tid, PlayerInfo(f"Player {index + 1}", 2000 - index))
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4, 5, 6))
        service.start(tid)
        return tid, accounts.create_token(organiser.id)
    finally:
        service.store.close()


def _results(db: Path, tid: int) -> tuple[dict[int, str | None], list[str]]:
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    try:
        games = {g.board: g.result for g in service.overview(tid).games if g.round == 1}
        lines = [str(h.summary) for h in service.history(tid)]
        return games, lines
    finally:
        service.store.close()


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[tuple[str, Path, int, str]]:
    db = tmp_path / "venue.db"
    tid, token = _prepare(db)
    with web_server(db) as url:
        yield url, db, tid, token


def _waiting(page: Any) -> list[dict[str, Any]]:
    return list(json.loads(page.evaluate("localStorage.getItem('crosstable.pending.v1')") or "[]"))


def test_r_x_7_results_entered_offline_are_sent_once_when_the_connection_is_back(
    venue: tuple[str, Path, int, str],
) -> None:
    url, db, tid, token = venue
    with chromium() as browser:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        sign_in(page, url, "arbiter", "password-arbiter")
        page.goto(f"{url}/t/{tid}/rounds/1")

        # board 3: the server records it, but its answer is lost on the way back
        lost: list[int] = []
        held: list[Any] = []

        def lose_the_answer(route: Any) -> None:
            if not lost and route.request.method == "POST":
                lost.append(route.fetch().status)
                held.append(route)  # its answer is lost below, once the boards are redrawn
            else:
                route.continue_()

        page.route(f"**/t/{tid}/rounds/1/boards/3", lose_the_answer)
        page.click("#g1-3 button[data-result='½-½']")
        # the server has recorded it and told the page, which redraws the boards (its live
        # refresh) before it learns that the answer was lost, as a loaded machine or a slow
        # venue line orders them
        page.wait_for_selector("#g1-3.done")
        assert len(held) == 1
        held[0].abort()
        page.wait_for_selector("#pending-results:not([hidden])")
        assert lost == [200]

        context.set_offline(True)
        page.click("#g1-1 button[data-result='1-0']")
        page.click("#g1-2 button[data-result='0-1']")
        page.wait_for_function(
            "() => JSON.parse(localStorage.getItem('crosstable.pending.v1') || '[]').length === 3"
        )
        assert "Waiting to be sent when the connection is back: 3" in page.inner_text(
            "#pending-results"
        )
        assert page.locator("#g1-1.pending").count() == 1
        assert {item["params"]["result"] for item in _waiting(page)} == {"1-0", "0-1", "½-½"}
        games, _ = _results(db, tid)
        assert games[1] is None and games[2] is None and games[3] == "½-½"

        # meanwhile board 2 gets another result from another writer
        answer = httpx.post(
            f"{url}/api/v1/tournaments/{tid}/rounds/1/boards/2/result",
            json={"result": "1-0"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text

        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        page.wait_for_function(
            "() => JSON.parse(localStorage.getItem('crosstable.pending.v1') || '[]').length === 0"
        )
        page.wait_for_selector("#pending-results li.refused")
        refused = page.inner_text("#pending-results")
        assert "Not recorded: 1" in refused and "Board 2: 0-1" in refused
        assert "already has 1-0" in refused
        page.wait_for_selector("#g1-1.done")

        games, lines = _results(db, tid)
        assert games == {1: "1-0", 2: "1-0", 3: "½-½"}  # board 2 not overwritten
        assert sum("round 1 board 3" in line for line in lines) == 1  # recorded once
        assert sum("round 1 board 1" in line for line in lines) == 1

        page.click("#pending-results button")  # the refused one is dismissed
        page.wait_for_selector("#pending-results", state="hidden")
        context.close()
