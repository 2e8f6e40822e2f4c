"""The live page through nginx/nchan in Chromium (issue 17 item 1): the page's
EventSource is sent on to nchan, app.js applies the ``live`` events (cells, a whole
table), and a page whose table is too old for the cells reads the table nchan keeps.
One ``serve --push-url`` process on SQLite (nchan needs no PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.push_rig import AppProcess, Portal, PushServer, free_port, nginx_binary, prepare
from tests.browser import needs_chromium

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx with nchan is not installed"),
]


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[str, Portal]]:
    db = f"sqlite:///{tmp_path / 'push.db'}"
    portal = prepare(db, tournaments=1, players=6)
    port = free_port()
    nginx = PushServer(tmp_path / "nginx", [port]).start()
    app = AppProcess(db, port, nginx.publish_url, log=tmp_path / "app.log").start()
    try:
        yield nginx.base_url, portal
    finally:
        app.stop()
        nginx.stop()


def post(base: str, portal: Portal, rnd: int, board: int, result: str) -> int:
    import httpx

    tid = portal.tournaments[0]
    response = httpx.post(
        f"{base}/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
        json={"result": result},
        headers={"Authorization": f"Bearer {portal.token}"},
    )
    assert response.status_code == 200, response.text
    return int(response.json()["seq"])


def at_revision(page: Any, revision: int) -> None:
    page.wait_for_function(
        "r => { const w = document.querySelector('#live [data-revision]');"
        " return w && w.dataset.revision === String(r); }",
        arg=revision,
        timeout=60000,  # (a bound, not a measure: a loaded CI machine is slow)
    )


def table_text(page: Any) -> str:
    return str(page.inner_text("#live table"))


def test_the_live_page_follows_results_through_nchan(
    deployment: tuple[str, Portal], browser: Any
) -> None:
    base, portal = deployment
    tid = portal.tournaments[0]
    page = browser.new_page(locale="ru-RU")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#live-state:not(.off)")
    before = table_text(page)

    # cells: one result changes a few cells of the table the page has (the first
    # publication to the channel is a marker, then the table at once: app.js waits
    # for the table and does not read it from the app)
    revision = post(base, portal, 1, 1, "1-0")
    at_revision(page, revision)
    assert table_text(page) != before
    page.wait_for_timeout(1500)
    assert not [url for url in asked if url.endswith(f"/t/{tid}/live")]
    fresh = browser.new_page(locale="ru-RU")
    fresh.goto(f"{base}/t/{tid}")
    assert table_text(page) == table_text(fresh)

    # a page whose table is older than the cells' base reads nchan's whole table
    page.evaluate("document.querySelector('#live [data-revision]').dataset.revision = '1'")
    page.evaluate(
        "document.querySelector('#live').dataset.events ="
        " document.querySelector('#live').dataset.events.replace(/rev=\\d+/, 'rev=1')"
    )
    revision = post(base, portal, 1, 2, "½-½")
    at_revision(page, revision)
    fresh.goto(f"{base}/t/{tid}")
    assert table_text(page) == table_text(fresh)
    assert "½" in table_text(page)


def test_a_page_that_subscribes_after_a_marker_reads_the_table(
    deployment: tuple[str, Portal],
    browser: Any,
) -> None:
    # The English channel has no spectator: a result there is published as a marker
    # (no table). A page rendered before that result, whose event stream reaches nchan
    # only after it (held here), gets the marker from nchan's kept messages and reads the
    # table itself (nchan's table channel has none: from the app).
    base, portal = deployment
    tid = portal.tournaments[0]
    page = browser.new_page(locale="en-US")
    held: list[Any] = []
    page.route("**/t/*/events*", lambda route: held.append(route))
    page.goto(f"{base}/t/{tid}")
    for _ in range(600):  # (until the page has asked for its stream)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not open its event stream"
    before = table_text(page)
    revision = post(base, portal, 1, 3, "0-1")
    held[0].continue_()
    at_revision(page, revision)
    assert table_text(page) != before
    fresh = browser.new_page(locale="en-US")
    fresh.goto(f"{base}/t/{tid}")
    assert table_text(page) == table_text(fresh)
