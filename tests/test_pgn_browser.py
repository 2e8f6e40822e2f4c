"""The game page in a real browser (Debian's Chromium; issue 16 item 4): the board
picture shows, the arrow keys and Home/End step through the moves (static/game.js),
and with JavaScript off the move list and the final position are there and the links
step. Skipped locally when ``CROSSTABLE_CHROMIUM`` is not set (in CI a skip is a
failure)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_service_support import migrated

from crosstable.cli import main
from tests.browser import needs_chromium, web_server

pytestmark = needs_chromium

GAME = (
    '[White "Anna"]\n[Black "Dmitri"]\n[Result "1-0"]\n\n'
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
)


def _tournament(tmp_path: Path) -> Path:
    db = tmp_path / "web.db"
    args = ["--db", str(db)]
    assert main(["new", "Club", *args]) == 0
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        assert main(["player", "add", name, *args]) == 0
    return db


def _started(db: Path) -> None:
    from crosstable.core.model import LotsMethod
    from crosstable.service import Service
    from crosstable.store import open_store

    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        service = Service(store)
        tid = service.tournaments()[0].id
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        service.start(tid)
        service.record_moves(tid, 1, 1, GAME)
    finally:
        store.close()


def _ply(page: object) -> str:
    return str(page.locator("#game-board").get_attribute("src")).rsplit("=", 1)[-1]  # type: ignore[attr-defined]


def test_the_arrow_keys_step_through_the_moves(tmp_path: Path, browser: Any) -> None:
    db = _tournament(tmp_path)
    _started(db)
    with web_server(db) as url:
        page = browser.new_context(viewport={"width": 900, "height": 800}).new_page()
        page.goto(url + "/t/1/rounds/1/boards/1")
        assert _ply(page) == "7"
        board = page.locator("#game-board")
        board.wait_for()
        assert page.evaluate("document.getElementById('game-board').naturalWidth") > 0
        page.keyboard.press("ArrowLeft")
        assert _ply(page) == "6"
        assert page.locator(".game-moves a.current").inner_text() == "Nf6"
        page.keyboard.press("Home")
        assert _ply(page) == "0"
        page.keyboard.press("ArrowRight")
        assert _ply(page) == "1" and page.locator(".game-moves a.current").inner_text() == "e4"
        assert page.url.endswith("?ply=1#game-view")
        page.keyboard.press("End")
        assert _ply(page) == "7"
        page.locator(".game-moves a[data-ply='3']").click()
        assert _ply(page) == "3" and page.url.endswith("?ply=3#game-view")
        page.screenshot(path=str(tmp_path / "game.png"))


def test_without_javascript_the_links_step(tmp_path: Path, browser: Any) -> None:
    db = _tournament(tmp_path)
    _started(db)
    with web_server(db) as url:
        page = browser.new_context(java_script_enabled=False).new_page()
        page.goto(url + "/t/1/rounds/1/boards/1")
        assert _ply(page) == "7"
        assert page.locator(".game-moves a").count() == 7
        page.locator("#nav-first").click()
        assert _ply(page) == "0"
        page.locator("#nav-next").click()
        assert _ply(page) == "1"
