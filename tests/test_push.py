"""The push publisher (crosstable/web/push.py, issue 17 item 1) against a stand-in for
nchan's publisher location: who publishes, what a message holds, the newest state after
a race, nginx down and restarted; the redirect of the event stream; --push-url checked.
The real nginx/nchan runs in tests/test_push_deploy.py."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Any

import pytest

from crosstable.service.bus import EventBus, Notification
from crosstable.web.live_cells import TableData
from crosstable.web.push import Publisher, PushUrlError, check_push_url


class FakeNchan:
    """nchan's publisher location as the publisher sees it: POST keeps a message in a
    channel, GET answers 200 for a channel that exists, else 404; ``down`` answers 503."""

    def __init__(self) -> None:
        self.channels: dict[str, list[dict[str, Any]]] = {}
        self.down = False
        #: channels whose messages are refused with this status (e.g. 413: too large)
        self.refuse: dict[str, int] = {}
        #: channels whose answer counts subscribers, as nchan's does (others answer
        #: with no body: the publisher then counts the channel as watched)
        self.subscribers: dict[str, int] = {}
        #: answer with a count for every channel (0 unless ``subscribers`` says otherwise)
        self.counting = False
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: object) -> None:
                pass

            def _answer(self, status: int) -> None:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if fake.down:
                    self._answer(503)
                    return
                name = self.path.rsplit("/", 1)[1]
                if name in fake.refuse:
                    self._answer(fake.refuse[name])
                    return
                with fake.lock:
                    fake.channels.setdefault(name, []).append(body)
                    watching = fake.subscribers.get(name, 0 if fake.counting else None)
                if watching is None:
                    self._answer(201)
                    return
                info = json.dumps({"messages": 1, "requested": 0, "subscribers": watching})
                self.send_response(201 if watching else 202)
                self.send_header("Content-Length", str(len(info)))
                self.end_headers()
                self.wfile.write(info.encode())

            def do_GET(self) -> None:
                if fake.down:
                    self._answer(503)
                    return
                if self.path.endswith("/last"):  # a table channel's kept message
                    kept = fake.messages(self.path.rsplit("/", 2)[1])
                    if not kept:
                        self._answer(403)
                        return
                    last = json.dumps(kept[-1]).encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(last)))
                    self.end_headers()
                    self.wfile.write(last)
                    return
                self._answer(200 if self.path.rsplit("/", 1)[1] in fake.channels else 404)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/publish"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def messages(self, name: str) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.channels.get(name, []))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def nchan() -> Iterator[FakeNchan]:
    fake = FakeNchan()
    try:
        yield fake
    finally:
        fake.close()


def fragment(revision: int, cell: str = "½") -> str:
    return (
        f'<div data-revision="{revision}"><table><tr><th>1</th><td>{cell}</td></tr>'
        "<tr><th>2</th><td>0</td></tr></table></div>"
    )


class Tournament:
    """A tournament's state as the renderer sees it (revision, the one cell)."""

    def __init__(self) -> None:
        self.revision = 1
        self.cell = "½"
        self.renders = 0
        #: after this many renders the revision moves on (another process's change)
        self.move_after: int | None = None

    def render(self, _tid: int, locale: str) -> tuple[int, str]:
        self.renders += 1
        revision = self.revision
        if self.move_after is not None and self.renders >= self.move_after:
            self.move_after = None
            self.revision += 1
            self.cell = "1"
        return revision, fragment(revision, self.cell) + locale

    def revision_of(self, _tid: int) -> int:
        return self.revision

    def data(self, _tid: int) -> TableData:
        """The table as data, as the live cells read it (player 1's points: the cell)."""
        rows = {1: {"pts": self.cell}, 2: {"pts": "0"}}
        return TableData(self.revision, "two players", rows, (1, 2))


def counted(nchan: FakeNchan, start: Callable[[], Publisher]) -> Publisher:
    """A publisher ``start`` makes once nchan counts subscribers, after nchan has answered
    it with a count (its sentinel's). nchan counts before the publisher starts: its first
    sentinel check runs at once, and a sentinel posted uncounted is not posted again."""
    nchan.counting = True
    push = start()
    for _ in range(5000):
        if push.counts_subscribers:
            return push
        threading.Event().wait(0.002)
    raise AssertionError("the publisher did not post its sentinel")


def publisher(nchan: FakeNchan, t: Tournament, bus: EventBus, **options: Any) -> Publisher:
    return Publisher(
        nchan.url,
        bus,
        t.render,
        t.revision_of,
        locales=("en",),
        retry_every=0.05,
        **({"data_of": t.data} | options),
    ).start()


def change(bus: EventBus, seq: int, origin: str | None = None) -> Notification:
    return Notification(
        7,
        seq,
        "result",
        f"R1 B1 #{seq}",
        ((1, 1),),
        origin=bus.origin if origin is None else origin,
    )


def test_own_change_is_published_once_per_channel_table_then_cells(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1))
        t.revision, t.cell = 2, "1"
        bus.publish(change(bus, 2))
    finally:
        push.stop()
    first, second = nchan.messages("7-en")
    assert first["revision"] == 1 and first["table"] == fragment(1) + "en"
    assert first["change"][0]["summary"] == "R1 B1 #1" and first["full"] == "/push/table/7-en.table"
    # only a cell changed since the revision before: the cells, not the table
    assert second["base"] == 1 and "table" not in second
    assert second["cells"] == [{"row": 1, "col": "pts", "value": "1"}]
    # and the table channel keeps the table as data for another process's cells
    assert nchan.messages("7-en.table")[-1]["data"]["rows"] == {
        "1": {"pts": "1"},
        "2": {"pts": "0"},
    }
    # the table channel has the whole table at each revision
    assert [m["revision"] for m in nchan.messages("7-en.table")] == [1, 2]
    assert nchan.messages("7-en.table")[-1]["table"] == fragment(2, "1") + "en"


@pytest.mark.parametrize(
    ("turns", "cells"),
    [
        # two app processes take turns with a tournament's results: each reads the table
        # the other published (the table channel's, as nchan keeps it), sends the cells
        ([(1, "½"), (2, "1"), (3, "0")], [None, (1, "1"), (2, "0")]),
        # nchan keeps revision 1 and revision 3 is published: cells of 1 → 3 would fit no
        # page (pages at 2 apply only cells of base 2), so the whole table goes
        ([(1, "½"), (3, "1")], [None, None]),
    ],
)
def test_cells_after_another_process_published_the_revision_before(
    nchan: FakeNchan, turns: list[tuple[int, str]], cells: list[tuple[int, str] | None]
) -> None:
    t = Tournament()
    buses = (EventBus(), EventBus())
    pushes = [publisher(nchan, t, bus) for bus in buses]
    try:
        for turn, (revision, cell) in enumerate(turns):
            t.revision, t.cell = revision, cell
            bus = buses[turn % 2]
            bus.publish(change(bus, revision))
    finally:
        for push in pushes:
            push.stop()
    sent = nchan.messages("7-en")
    assert [None if "table" in m else (m["base"], m["cells"][0]["value"]) for m in sent] == cells
    assert all(("table" in m) != ("cells" in m) for m in sent)


def test_every_language_comes_from_one_reading_of_the_table(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    readings: list[tuple[str, ...]] = []

    def render_in(tid: int, locales: tuple[str, ...]) -> list[tuple[int, str]]:
        readings.append(locales)
        return [(t.revision, fragment(t.revision) + locale) for locale in locales]

    push = Publisher(
        nchan.url, bus, t.render, t.revision_of, locales=("en", "ru"), render_in=render_in
    ).start()
    try:
        bus.publish(change(bus, 1))
    finally:
        push.stop()
    assert readings == [("en", "ru")] and t.renders == 0
    assert nchan.messages("7-ru")[0]["table"] == fragment(1) + "ru"
    assert nchan.messages("7-en.table")[0]["table"] == fragment(1) + "en"


def test_a_channel_nobody_watches_gets_a_marker_and_no_table(nchan: FakeNchan) -> None:
    # nchan answers that 7-en has no subscriber: a marker of the revision, nothing rendered,
    # nothing in the table channel; once someone watches, the table follows the marker at
    # once, and afterwards the cells come alone; when they leave, markers again
    bus, t = EventBus(), Tournament()
    push = counted(nchan, lambda: publisher(nchan, t, bus))
    try:
        bus.publish(change(bus, 1))
        (marker,) = nchan.messages("7-en")
        assert marker == {
            "revision": 1,
            "fetch": True,
            "change": marker["change"],
            "full": "/push/table/7-en.table",
        }
        assert marker["change"][0]["summary"] == "R1 B1 #1"
        assert t.renders == 0 and nchan.messages("7-en.table") == []
        assert push.markers == 1

        nchan.subscribers["7-en"] = 3  # a spectator subscribed meanwhile
        t.revision, t.cell = 2, "1"
        bus.publish(change(bus, 2))
        assert [("fetch" in m, m["revision"]) for m in nchan.messages("7-en")[1:]] == [
            (True, 2),
            (False, 2),
        ]
        assert nchan.messages("7-en")[-1]["table"] == fragment(2, "1") + "en"
        assert nchan.messages("7-en.table")[-1]["revision"] == 2 and t.renders == 1

        t.revision = 3
        bus.publish(change(bus, 3))  # watched: the cells only, no marker
        third = nchan.messages("7-en")[-1]
        assert third["revision"] == 3 and third["base"] == 2 and "fetch" not in third
        assert push.markers == 2 and t.renders == 2

        nchan.subscribers["7-en"] = 0  # the spectator left (nchan says so with the cells)
        t.revision = 4
        bus.publish(change(bus, 4))  # still the cells: the last answer said 3
        t.revision = 5
        bus.publish(change(bus, 5))
        assert nchan.messages("7-en")[-1]["fetch"] is True
        assert [m["revision"] for m in nchan.messages("7-en.table")] == [2, 3, 4]
    finally:
        push.stop()


def test_a_marker_is_of_the_change_or_when_none_is_given_of_the_newest_revision(
    nchan: FakeNchan,
) -> None:
    # a marker says the change it stands for (no read of the revision: a newer change is
    # published by whoever committed it); published again with no change (after an
    # outage), it says the database's revision
    bus, t = EventBus(), Tournament()
    push = counted(nchan, lambda: publisher(nchan, t, bus))
    try:
        t.revision = 3
        bus.publish(change(bus, 2))
        push.publish(7, [])
    finally:
        push.stop()
    assert [m["revision"] for m in nchan.messages("7-en")] == [2, 3]
    assert nchan.messages("7-en")[1]["change"][0]["kind"] == "refresh"


def test_each_language_is_watched_on_its_own(nchan: FakeNchan) -> None:
    # spectators read the Russian table only: the English channel gets markers, and only
    # the Russian table is rendered
    bus, t = EventBus(), Tournament()
    readings: list[tuple[str, ...]] = []

    def render_in(tid: int, locales: tuple[str, ...]) -> list[tuple[int, str]]:
        readings.append(locales)
        return [(t.revision, fragment(t.revision) + locale) for locale in locales]

    nchan.subscribers["7-ru"] = 2
    push = counted(
        nchan,
        lambda: Publisher(
            nchan.url,
            bus,
            t.render,
            t.revision_of,
            locales=("en", "ru"),
            render_in=render_in,
            retry_every=0.05,
        ).start(),
    )
    try:
        bus.publish(change(bus, 1))
        t.revision = 2
        bus.publish(change(bus, 2))
    finally:
        push.stop()
    assert readings == [("ru",), ("ru",)]
    assert [("fetch" in m) for m in nchan.messages("7-en")] == [True, True]
    assert [("fetch" in m) for m in nchan.messages("7-ru")] == [True, False, False]


def test_another_process_change_is_not_published_here(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1, origin="another-process"))
    finally:
        push.stop()
    assert nchan.messages("7-en") == []


class Lead:
    """A stand-in for :class:`crosstable.web.push_leader.Leadership`."""

    def __init__(self, leader: bool) -> None:
        self.leader = leader
        self.on_taken: Any = None

    def start(self) -> Lead:
        return self

    def stop(self) -> None:
        pass


def test_an_unannounced_change_is_published_by_the_leader_only(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    follower = Lead(False)
    push = publisher(nchan, t, bus, leadership=follower)
    try:
        bus.publish(change(bus, 1, origin=""))  # found by the listener's poll
        assert nchan.messages("7-en") == []
        follower.leader = True  # the leader died: this process took the lock over
        follower.on_taken()
        assert [m["revision"] for m in nchan.messages("7-en")] == [1]
        bus.publish(change(bus, 1, origin=""))
        assert len(nchan.messages("7-en")) == 2
    finally:
        push.stop()


def test_a_newer_revision_meanwhile_is_published_too(nchan: FakeNchan) -> None:
    # another process committed revision 2 while this one rendered revision 1: its
    # message could reach nchan after ours; so the newest state goes out again
    bus, t = EventBus(), Tournament()
    t.move_after = 1
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1))
    finally:
        push.stop()
    revisions = [m["revision"] for m in nchan.messages("7-en")]
    assert revisions == [1, 2]
    assert nchan.messages("7-en")[1]["change"][0]["kind"] == "refresh"
    assert nchan.messages("7-en.table")[-1]["revision"] == 2


def test_nchan_down_then_back_gets_the_newest_state(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    push = publisher(nchan, t, bus)
    try:
        nchan.down = True
        bus.publish(change(bus, 1))  # does not raise, does not wait
        t.revision, t.cell = 2, "1"
        bus.publish(change(bus, 2))
        assert nchan.messages("7-en") == []
        nchan.down = False
        assert push.flush(10)
    finally:
        push.stop()
    (message,) = nchan.messages("7-en")
    assert message["revision"] == 2
    assert [c["seq"] for c in message["change"]] == [1, 2]


@pytest.mark.parametrize("status", [413, 500])
def test_a_message_nchan_refuses_does_not_hold_up_the_others(nchan: FakeNchan, status: int) -> None:
    """A tournament whose message nchan refuses (too large for the location, its temp
    file not writable) is logged, not sent again, and the other tournaments' changes
    still go out at once: the publisher does not count nchan as down."""
    bus, t = EventBus(), Tournament()
    nchan.refuse["7-en.table"] = status
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1))
        other = Notification(8, 1, "result", "R1 B1", ((1, 1),), origin=bus.origin)
        bus.publish(other)
        assert [m["revision"] for m in nchan.messages("8-en")] == [1]  # at once
        assert push.flush(1)  # nothing kept to send again
        del nchan.refuse["7-en.table"]
        t.revision, t.cell = 2, "1"
        bus.publish(change(bus, 2))  # the next change publishes the newest state
    finally:
        push.stop()
    assert [m["revision"] for m in nchan.messages("7-en.table")] == [2]


def test_nginx_restarted_publishes_the_recent_tournaments_again(nchan: FakeNchan) -> None:
    bus, t = EventBus(), Tournament()
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1))
        sentinel = f"alive-{bus.origin}"
        published = threading.Event()
        for _ in range(200):
            if nchan.messages(sentinel):
                published.set()
                break
            published.wait(0.02)
        assert published.is_set()
        with nchan.lock:  # nginx restarted: nchan's memory is empty
            nchan.channels.clear()
        assert push.flush(10)
        for _ in range(200):
            if nchan.messages("7-en"):
                break
            published.clear()
            published.wait(0.02)
    finally:
        push.stop()
    assert [m["revision"] for m in nchan.messages("7-en")] == [1]
    assert nchan.messages("7-en.table")[0]["table"] == fragment(1) + "en"


def test_after_an_outage_it_saw_and_a_restart_every_recent_tournament_goes_again(
    nchan: FakeNchan,
) -> None:
    """nginx went down (a publish failed), came back with nchan's memory empty: not only
    the tournament changed meanwhile is published again, also one published just
    before (its message may have been lost on the way)."""
    bus, t = EventBus(), Tournament()
    push = publisher(nchan, t, bus)
    try:
        bus.publish(change(bus, 1))  # tournament 7, published
        assert [m["revision"] for m in nchan.messages("7-en")] == [1]
        nchan.down = True
        other = Notification(8, 1, "result", "R1 B1", ((1, 1),), origin=bus.origin)
        bus.publish(other)  # tournament 8, while nginx is down: kept
        waited = threading.Event()
        waited.wait(0.3)  # (several retries see it down)
        with nchan.lock:  # nginx restarted: nchan's memory is empty
            nchan.channels.clear()
        nchan.down = False
        assert push.flush(10)
        for _ in range(200):
            if nchan.messages("7-en") and nchan.messages("8-en"):
                break
            waited.wait(0.02)
    finally:
        push.stop()
    # (both after the restart emptied nchan; the same revision twice is skipped by pages)
    assert {m["revision"] for m in nchan.messages("8-en")} == {1}
    assert {m["revision"] for m in nchan.messages("7-en")} == {1}
    assert nchan.messages("7-en.table")[-1]["table"] == fragment(1) + "en"


def test_this_process_hears_of_a_change_before_the_others_are_told() -> None:
    # the push publisher runs in the bus callback: a process that dies before it has
    # published never sent the NOTIFY either (the listeners' poll then finds the change)
    from crosstable.service import frame

    order: list[str] = []
    bus = EventBus()
    bus.subscribe(lambda _n: order.append("bus"))
    stub = SimpleNamespace(store=SimpleNamespace(dialect="postgresql"), bus=bus)
    notifier = SimpleNamespace(send=lambda _n: order.append("notify"))
    original = frame.notifier_for
    frame.notifier_for = lambda _store: notifier  # type: ignore[assignment]
    try:
        frame.ChangeFrame.announce(stub, change(bus, 1))  # type: ignore[arg-type]
    finally:
        frame.notifier_for = original
    assert order == ["bus", "notify"]


def test_push_url_is_checked() -> None:
    assert check_push_url(" http://10.0.0.2:8080/push/publish/ ") == (
        "http://10.0.0.2:8080/push/publish"
    )
    for bad in ("https://x/push", "127.0.0.1:8080", "http:///push", "http://x/p?q=1"):
        with pytest.raises(PushUrlError, match="not an http:// URL"):
            check_push_url(bad)


def test_serve_refuses_a_bad_push_url(capsys: pytest.CaptureFixture[str]) -> None:
    from crosstable.cli import main

    assert main(["serve", "--db", "sqlite:///:memory:", "--push-url", "ftp://x"]) == 2
    assert "push URL ftp://x: not an http:// URL" in capsys.readouterr().err


def test_event_stream_redirects_to_nchan_with_push(nchan: FakeNchan, tmp_path: Any) -> None:
    from crosstable.service import Service
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient
    from tests.test_service_support import migrated, started

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'push.db'}")))
    tid = started(service, 4)
    app = create_app(service=service, push_url=nchan.url)
    with TestClient(app) as client:
        response = client.get(f"/t/{tid}/events?rev=1&cells=1", follow_redirects=False)
        assert response.status_code == 307
        assert response.headers["location"] == f"/push/live/{tid}-en"
        response = client.get(
            f"/t/{tid}/events",
            headers={"Last-Event-ID": "1796140544:3", "Accept-Language": "ru"},
            follow_redirects=False,
        )
        assert response.headers["location"] == f"/push/live/{tid}-ru?last_event_id=1796140544%3A3"
        # a result recorded in this process reaches nchan in both languages
        client.cookies.clear()
        service.record_result(tid, 1, 1, "1-0")
        assert nchan.messages(f"{tid}-en")[-1]["revision"] == service.revision(tid)
        assert "table" in nchan.messages(f"{tid}-ru")[-1]
        # the table is read once for both languages, each rendered as a page renders it
        site = app.state.site
        english, russian = site.render_live_in(tid, ("en", "ru"))
        assert english == site.render_live(tid, "en") and russian == site.render_live(tid, "ru")
        assert english[0] == russian[0] and english[1] != russian[1]
        assert nchan.messages(f"{tid}-ru.table")[-1]["table"] == russian[1]
    service.store.close()


def test_one_process_leads_and_another_takes_over_when_it_dies() -> None:
    # the advisory lock on real PostgreSQL: one holder; when its connection goes (a
    # kill -9 closes it) another process's Leadership takes the lock and is told so
    from tests.test_service_support import PG_URL

    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    from crosstable.web.push_leader import Leadership

    schema = "lead_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    from tests.test_service_support import pg_schema_url

    url = pg_schema_url(PG_URL, schema)
    first, second = Leadership(url, every=0.05), Leadership(url, every=0.05)
    led, taken = threading.Event(), threading.Event()
    first.on_taken, second.on_taken = led.set, taken.set
    try:
        first.start()
        assert led.wait(10)
        second.start()
        while second.attempts < 3:  # it tried, and the lock is held
            taken.wait(0.05)
        assert first.leader and not second.leader and not taken.is_set()
        first.stop()  # the holder dies: its connection, and the lock, go
        assert taken.wait(10)
        assert second.leader and not first.leader
    finally:
        first.stop()
        second.stop()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def test_a_change_nobody_announced_is_published_by_the_leader_from_the_log(
    nchan: FakeNchan, monkeypatch: pytest.MonkeyPatch
) -> None:
    # process A commits a result and dies before publishing it (so before its NOTIFY);
    # process B's listener finds the change by polling, and B, the leader, publishes it
    from tests.test_service_support import PG_URL, pg_schema_url, started

    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    from crosstable.service import PostgresListener, Service, frame
    from crosstable.store import open_store
    from crosstable.web.push_leader import Leadership

    schema = "lost_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    url = pg_schema_url(PG_URL, schema)
    process_a, process_b = Service(open_store(url)), Service(open_store(url))
    listener = None
    push = None
    try:
        tid = started(process_a, 4)
        # A's NOTIFYs never leave (it dies right after its commit)
        silent = SimpleNamespace(send=lambda _n: None)
        monkeypatch.setattr(frame, "notifier_for", lambda _store: silent)
        leadership = Leadership(url, every=0.05)
        push = Publisher(
            nchan.url,
            process_b.bus,
            lambda t, _loc: (process_b.revision(t), fragment(process_b.revision(t))),
            process_b.revision,
            locales=("en",),
            leadership=leadership,
        ).start()
        listener = PostgresListener(url, process_b.bus, poll_interval=0.1).start()
        done = threading.Event()
        for _ in range(200):
            if leadership.leader:
                break
            done.wait(0.05)
        process_a.record_result(tid, 1, 1, "1-0")
        revision = process_a.revision(tid)
        for _ in range(200):  # (two polls at most: 0.2 s)
            if nchan.messages(f"{tid}-en"):
                break
            done.wait(0.05)
        (message,) = nchan.messages(f"{tid}-en")
        assert message["revision"] == revision
        assert message["change"][0]["kind"] == "result"
    finally:
        if listener is not None:
            listener.stop()
        if push is not None:
            push.stop()
        process_a.store.close()
        process_b.store.close()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def test_the_push_url_may_come_from_the_environment(
    nchan: FakeNchan, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every process of a deployment gets the same setting: CROSSTABLE_PUSH_URL
    from crosstable.web.app import create_app

    monkeypatch.setenv("CROSSTABLE_PUSH_URL", nchan.url + "/")
    monkeypatch.setenv("CROSSTABLE_PUSH_PUBLIC", "/live-push/")
    app = create_app(f"sqlite:///{tmp_path / 'env.db'}")
    assert app.state.push.url == nchan.url
    assert app.state.push.subscribe_url(3, "en") == "/live-push/live/3-en"
    monkeypatch.delenv("CROSSTABLE_PUSH_URL")
    assert create_app(f"sqlite:///{tmp_path / 'env.db'}").state.push is None
    monkeypatch.setenv("CROSSTABLE_PUSH_URL", "nchan:8080")
    with pytest.raises(PushUrlError):
        create_app(f"sqlite:///{tmp_path / 'env.db'}")
