"""A Swiss table's live cells in Chromium, in Russian: the page writes each changed cell
from its data (opponent, colour, result, points with the page's decimal comma, the
places, the rows' new order) and its table stays the one a fresh page load shows."""

from __future__ import annotations

from pathlib import Path

from test_service_support import migrated

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from tests.browser import chromium, needs_chromium, web_server
from tests.test_web_live import CELLS_JS, SEEN_JS


@needs_chromium
def test_a_swiss_page_writes_the_changed_cells_itself(tmp_path: Path) -> None:
    db = tmp_path / "swiss.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    tid = service.create_tournament(regulations).tournament_id
    for index in range(6):
        service.add_player(tid, PlayerInfo(f"Игрок {index + 1}", rating=2300 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.publish_round(tid)  # (round 1)
    service.store.close()

    with web_server(db, secret="cells-test") as url, chromium() as browser:
        watcher = browser.new_page(locale="ru-RU")
        watcher.add_init_script(SEEN_JS)
        watcher.goto(f"{url}/t/{tid}")
        watcher.wait_for_selector("#live-state:not(.off)")
        fresh = browser.new_page(locale="ru-RU")
        wrap = "#live [data-revision]"
        # (another process records them: the server reads its changes from the log)
        writer = Service(open_store(migrated(f"sqlite:///{db}")))
        try:
            for board, result in ((3, "1-0"), (1, "0-1"), (2, "1/2-1/2")):
                seq = writer.record_result(tid, 1, board, result).seq
                watcher.wait_for_function(
                    f"() => document.querySelector('{wrap}').dataset.revision === '{seq}'"
                    f" && window.seen.some(e => e.endsWith(' {seq}'))",
                    timeout=15000,
                )
                fresh.goto(f"{url}/t/{tid}")
                assert watcher.evaluate(CELLS_JS) == fresh.evaluate(CELLS_JS)
                order = (
                    "() => Array.from(document.querySelectorAll('#live tbody tr')).map(r => r.id)"
                )
                assert watcher.evaluate(order) == fresh.evaluate(order)
        finally:
            writer.store.close()
        seen = watcher.evaluate("window.seen")
        # (the first change after the page came is a whole table: the hub keeps no table
        # as data of a tournament before a change, as it kept no HTML before)
        assert [kind.split()[0] for kind in seen[-2:]] == ["cells"] * 2, seen
        assert "½" in watcher.inner_text("#live table")
