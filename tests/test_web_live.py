"""The live crosstable's event streams at the ASGI level: every change reaches every viewer,
once rendered and encoded for all, a reconnecting viewer catches up, a slow viewer holds
nobody up and ends on the newest table, and the streams end when the server stops."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import migrated

from bench.push_rig import apply_cells
from crosstable.service import Service
from crosstable.service.bus import Notification
from crosstable.store import open_store
from crosstable.web import hub as hub_module
from crosstable.web.app import create_app
from crosstable.web.demo import build_demo
from crosstable.web.hub import (
    Message,
    Viewer,
    direct_connection,
    encode,
    http_chunk,
    refresh_event,
    start_eagerly,
)
from tests.browser import chromium, needs_chromium, wait_until_served, web_server

EVENT = re.compile(r"event: (\w+)\r\nid: (\d+)\r\n((?:data: .*\r\n)+)\r\n")


class Stream:
    """One GET of the app, driven by hand: what the server sent, and a way to hang up."""

    def __init__(self, app: Any, path: str, headers: dict[str, str] | None = None) -> None:
        self.app = app
        path, _, query = path.partition("?")
        raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"test"), *raw],
            "client": ("127.0.0.1", 1),
            "server": ("test", 80),
        }
        self.start: dict[str, Any] | None = None
        self.body = b""
        self.complete = False
        self.arrived = asyncio.Event()
        self.hang_up = asyncio.Event()
        self._asked = False
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _receive(self) -> dict[str, Any]:
        if not self._asked:
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.hang_up.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.start = message
        else:
            self.body += message.get("body", b"")
            self.complete = not message.get("more_body", False)
        self.arrived.set()

    async def _run(self) -> None:
        await self.app(self.scope, self._receive, self._send)

    def events(self) -> list[tuple[str, int, str]]:
        text = self.body.decode()
        return [
            (kind, int(ident), "\n".join(line[6:] for line in data.splitlines()))
            for kind, ident, data in EVENT.findall(text)
        ]

    def tables(self) -> list[int]:
        return [ident for kind, ident, _ in self.events() if kind == "crosstable"]

    async def wait_for(self, check: Callable[[], bool], seconds: float = 10) -> None:
        async def until() -> None:
            while not check():
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(until(), seconds)

    async def close(self) -> None:
        self.hang_up.set()
        await asyncio.wait_for(self.task, 10)


@pytest.fixture()
def live(tmp_path: Path):  # type: ignore[no-untyped-def]
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'live.db'}")))
    demo = build_demo(service)
    app = create_app(service=service)
    return app, service, demo["tournaments"][1]


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


async def _record(service: Service, tid: int, rnd: int, board: int, result: str) -> int:
    change = await asyncio.to_thread(service.record_result, tid, rnd, board, result, actor="test")
    return int(change.seq)


def test_every_viewer_gets_every_change_and_the_right_table(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        renders: list[tuple[int, str]] = []
        render = site.hub.render
        site.hub.render = lambda t, loc: renders.append((t, loc)) or render(t, loc)
        revision = service.overview(tid).revision
        viewers = [Stream(app, f"/t/{tid}/events?rev={revision}") for _ in range(3)]
        viewers += [Stream(app, f"/t/{tid}/events") for _ in range(3)]
        russian = Stream(app, f"/t/{tid}/events", {"Accept-Language": "ru"})
        everyone = [*viewers, russian]
        for viewer in everyone[:3]:
            await viewer.wait_for(lambda v=viewer: b": live" in v.body)
        for viewer in everyone[3:]:
            await viewer.wait_for(lambda v=viewer: v.tables() == [revision])
        assert all(v.tables() == [] for v in everyone[:3]), "an up-to-date viewer gets no table"
        # viewers arriving together share one render (per language)
        assert sorted(loc for _t, loc in renders) == ["en", "ru"]
        renders.clear()
        for viewer in everyone:
            viewer.body = b""
        assert viewers[0].start is not None
        headers = dict(viewers[0].start["headers"])
        assert headers[b"content-type"].startswith(b"text/event-stream")
        assert headers[b"x-content-type-options"] == b"nosniff"  # the middleware's headers

        seq = await _record(service, tid, 2, 1, "1-0")
        for viewer in everyone:
            await viewer.wait_for(lambda v=viewer: seq in v.tables())
        # one render per language, not per viewer
        assert sorted(loc for _t, loc in renders) == ["en", "ru"]
        _rev, english = site.render_live(tid, "en")
        _rev, russian_html = site.render_live(tid, "ru")
        for viewer in viewers:
            kinds = [(kind, ident) for kind, ident, _ in viewer.events()]
            assert kinds == [("change", seq), ("crosstable", seq)]
            change, table = viewer.events()
            assert f'"seq": {seq}' in change[2] and '"kind": "result"' in change[2]
            assert table[2] == english, "the fragment is the table at that revision"
        assert russian.events()[1][2] == russian_html != english
        for viewer in everyone:
            await viewer.close()
        assert site.hub.count == 0
        site.hub.stop()

    run(scenario)


def test_a_reconnecting_viewer_catches_up(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        old = service.overview(tid).revision
        seq = await _record(service, tid, 2, 1, "½-½")
        # the browser reconnects with the id of the last event it had
        back = Stream(app, f"/t/{tid}/events?rev={old}", {"Last-Event-ID": str(old)})
        await back.wait_for(lambda: seq in back.tables())
        change, table = back.events()
        assert change[0] == "change" and '"kind": "refresh"' in change[2]
        assert table[2] == site.render_live(tid, "en")[1]
        # a first visit without a revision gets the table, without a refresh
        fresh = Stream(app, f"/t/{tid}/events")
        await fresh.wait_for(lambda: fresh.tables() == [seq])
        assert [kind for kind, _i, _d in fresh.events()] == ["crosstable"]
        # a revision from another database's past is treated as none
        future = Stream(app, f"/t/{tid}/events?rev={seq + 1000}")
        await future.wait_for(lambda: future.tables() == [seq])
        for stream in (back, fresh, future):
            await stream.close()
        site.hub.stop()

    run(scenario)


def test_an_unknown_tournament_is_404_before_any_stream(live) -> None:  # type: ignore[no-untyped-def]
    app, _service, _tid = live

    async def scenario() -> None:
        stream = Stream(app, "/t/999/events")
        await asyncio.wait_for(stream.task, 10)
        assert stream.start is not None and stream.start["status"] == 404

    run(scenario)


def test_a_slow_viewer_holds_nobody_up_and_ends_on_the_newest_table(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        revision = service.overview(tid).revision
        quick = Stream(app, f"/t/{tid}/events?rev={revision}")
        slow = Stream(app, f"/t/{tid}/events?rev={revision}")
        for stream in (quick, slow):
            await stream.wait_for(lambda s=stream: b": live" in s.body)
        # the slow viewer's socket is full: its sends wait until we let them go
        gate = asyncio.Event()
        original = slow._send

        async def stuck(message: dict[str, Any]) -> None:
            await gate.wait()
            await original(message)

        (slow_viewer,) = [v for v in site.hub.viewers[tid] if v.send.__self__ is slow]
        slow_viewer.send = stuck
        seqs = []
        for board in range(1, 6):
            seqs.append(await _record(service, tid, 2, board, "1-0"))
            await quick.wait_for(lambda: seqs[-1] in quick.tables())
        assert slow.tables() == []
        gate.set()
        await slow.wait_for(lambda: seqs[-1] in slow.tables())
        changes = [i for kind, i, _d in slow.events() if kind == "change"]
        assert changes == seqs, "every change, in order"
        assert slow.tables()[-1] == seqs[-1] and len(slow.tables()) <= 2, "no stale tables"
        assert quick.tables() == seqs
        for stream in (quick, slow):
            await stream.close()
        site.hub.stop()

    run(scenario)


def test_streams_end_when_the_server_stops(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        revision = service.overview(tid).revision
        stream = Stream(app, f"/t/{tid}/events?rev={revision}")
        await stream.wait_for(lambda: b": live" in stream.body)
        site.hub.stop()
        await asyncio.wait_for(stream.task, 10)
        assert stream.complete and site.hub.count == 0

    run(scenario)


def test_quiet_streams_are_pinged(live, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site
    monkeypatch.setattr(hub_module, "PING_SECONDS", 0.01)

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        stream = Stream(app, f"/t/{tid}/events?rev={service.overview(tid).revision}")
        await stream.wait_for(lambda: b": ping" in stream.body)
        await stream.close()
        site.hub.stop()

    run(scenario)


def test_a_failed_render_still_tells_the_change(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        stream = Stream(app, f"/t/{tid}/events?rev={service.overview(tid).revision}")
        await stream.wait_for(lambda: b": live" in stream.body)

        def broken(_tid: int, _locale: str) -> tuple[int, str]:
            raise RuntimeError("template error")

        site.hub.render = broken
        seq = await _record(service, tid, 3, 1, "0-1")
        await stream.wait_for(lambda: any(i == seq for _k, i, _d in stream.events()))
        assert [kind for kind, _i, _d in stream.events()] == ["change"]
        await stream.close()
        site.hub.stop()

    run(scenario)


def test_viewers_that_take_cells_get_only_the_changed_cells(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        cells = Stream(app, f"/t/{tid}/events?cells=1")
        russian = Stream(app, f"/t/{tid}/events?cells=1", {"Accept-Language": "ru"})
        whole = Stream(app, f"/t/{tid}/events")
        first = service.overview(tid).revision
        for stream in (cells, russian, whole):
            await stream.wait_for(lambda s=stream: s.tables() == [first])
        pages = {cells: site.render_live(tid, "en")[1], russian: site.render_live(tid, "ru")[1]}
        results = [(2, 1, "1-0"), (2, 2, "½-½"), (2, 1, "0-1"), (3, 1, "0-1")]
        for rnd, board, result in results:
            if (rnd, board) == (2, 1):
                change = service.correct_result if result == "0-1" else service.record_result
            else:
                change = service.record_result
            seq = (await asyncio.to_thread(change, tid, rnd, board, result)).seq
            for stream, locale in ((cells, "en"), (russian, "ru")):
                await stream.wait_for(
                    lambda s=stream, n=seq: any(i == n for _k, i, _d in s.events())
                )
                kind, ident, data = stream.events()[-1]
                assert (kind, ident) == ("cells", seq)
                assert len(data) < len(pages[stream]) / 3, "much less than the table"
                patch = json.loads(data)
                assert patch["base"] == seq - 1 and patch["revision"] == seq
                assert {cell["row"] for cell in patch["cells"]} <= set(range(1, 11))
                applied = apply_cells(pages[stream], patch)  # the cells as app.js writes them
                assert applied == site.render_live(tid, locale)[1]
                pages[stream] = applied
            await whole.wait_for(lambda n=seq: n in whole.tables())
        assert [k for k, _i, _d in whole.events()].count("cells") == 0, "only when asked for"
        # a change of more than cells (a withdrawal marks the row): the whole table
        seq = (await asyncio.to_thread(service.withdraw, tid, 10)).seq
        await cells.wait_for(lambda: seq in cells.tables())
        assert cells.events()[-1][:2] == ("crosstable", seq)
        for stream in (cells, russian, whole):
            await stream.close()
        site.hub.stop()

    run(scenario)


def test_a_viewer_joining_before_a_change_is_told_keeps_the_others_cells(
    live, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Another process commits a result; before this server hears of it (the SQLite
    poll), a spectator opens the page and gets the new table. The spectators who
    were there still get only the cells that changed, and the newcomer no second table."""
    app, service, tid = live
    site = app.state.site
    writer = Service(open_store(service.store.url))  # (another process: another bus)

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        first = service.overview(tid).revision
        there = Stream(app, f"/t/{tid}/events?rev={first}&cells=1")
        await there.wait_for(lambda: b": live" in there.body)
        # (a change this server makes and tells at once: the hub has the table as data)
        before = await _record(service, tid, 2, 2, "1-0")
        await there.wait_for(lambda: before in there.tables())
        change = await asyncio.to_thread(writer.record_result, tid, 2, 1, "1-0")
        newcomer = Stream(app, f"/t/{tid}/events?rev={before}&cells=1")
        await newcomer.wait_for(lambda: change.seq in newcomer.tables())
        service.bus.publish(  # (as the poll publishes it)
            Notification(tournament_id=tid, seq=change.seq, kind="result", summary="")
        )
        await there.wait_for(lambda: any(i == change.seq for _k, i, _d in there.events()))
        await newcomer.wait_for(
            lambda: ("change", change.seq) in [e[:2] for e in newcomer.events()]
        )
        assert [e[:2] for e in there.events()][-2:] == [
            ("change", change.seq),
            ("cells", change.seq),
        ]
        assert newcomer.tables() == [change.seq]
        for stream in (there, newcomer):
            await stream.close()
        site.hub.stop()

    try:
        run(scenario)
    finally:
        writer.store.close()


def test_no_cells_for_a_table_without_data(live) -> None:  # type: ignore[no-untyped-def]
    """A table the hub has no data of (a knockout's bracket) goes whole to every viewer,
    also to those that take cells."""
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        site.hub.data_of = lambda _t: None
        stream = Stream(app, f"/t/{tid}/events?cells=1")
        await stream.wait_for(lambda: len(stream.tables()) == 1)
        for board in (1, 2):
            seq = (await asyncio.to_thread(service.record_result, tid, 2, board, "1-0")).seq
            await stream.wait_for(lambda n=seq: n in stream.tables())
        assert [k for k, _i, _d in stream.events()].count("cells") == 0
        await stream.close()
        site.hub.stop()

    run(scenario)


def test_changes_of_other_tournaments_are_not_sent(live) -> None:  # type: ignore[no-untyped-def]
    app, service, tid = live
    site = app.state.site

    async def scenario() -> None:
        site.hub.start(asyncio.get_running_loop())
        stream = Stream(app, f"/t/{tid}/events?rev={service.overview(tid).revision}")
        await stream.wait_for(lambda: b": live" in stream.body)
        service.bus.publish(Notification(tournament_id=tid + 100, seq=1, kind="result", summary=""))
        seq = await _record(service, tid, 3, 2, "1-0")
        await stream.wait_for(lambda: seq in stream.tables())
        assert [i for _k, i, _d in stream.events()] == [seq, seq]
        await stream.close()
        site.hub.stop()

    run(scenario)


# -- the viewer's writing, with a fake connection ---------------------------------------


class Connection:
    """A connection whose sends can be made to wait, like a full socket buffer."""

    def __init__(self) -> None:
        self.data = b""
        self.open = asyncio.Event()
        self.open.set()

    async def send(self, message: dict[str, Any]) -> None:
        if not self.open.is_set():
            await self.open.wait()
        self.data += message["body"]


def _chunks(raw: bytes) -> bytes:
    """The body of a chunked HTTP/1.1 stream (an error if it is not well formed)."""
    body, at = b"", 0
    while at < len(raw):
        end = raw.index(b"\r\n", at)
        size = int(raw[at:end], 16)
        assert size > 0 or raw[end:] == b"\r\n\r\n", "only the last chunk is empty"
        body += raw[end + 2 : end + 2 + size]
        assert raw[end + 2 + size : end + 4 + size] == b"\r\n", "a chunk ends with CRLF"
        at = end + 4 + size
    return body


class _Flow:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    @property
    def write_paused(self) -> bool:
        return not self.connection.open.is_set()


class ServerConnection:
    """What the hub writes to directly (uvicorn's httptools connection): its transport
    takes chunks at once, its ``send`` waits while the buffer is over the high-water mark."""

    __module__ = "uvicorn.protocols.http.httptools_impl"

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.raw = b""
        self.response_started = True
        self.chunked_encoding = True
        self.response_complete = False
        self.disconnected = False
        self.flow = _Flow(connection)
        self.transport = self

    def write(self, chunk: bytes) -> None:
        assert not self.flow.write_paused, "no direct write while the buffer is full"
        self.raw += chunk
        self.connection.data += _chunks(chunk)

    async def send(self, message: dict[str, Any]) -> None:
        if self.flow.write_paused:
            await self.connection.open.wait()
        self.write(http_chunk(message["body"]))


def _message(revision: int, with_table: bool) -> Message:
    change = encode("change", f'[{{"seq": {revision}}}]', revision)
    table = encode("crosstable", f"<table>{revision}</table>", revision) if with_table else b""
    return Message(revision, change, table)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=8),
    st.booleans(),
)
def test_a_viewer_gets_every_change_in_order_and_the_newest_table(
    steps: list[tuple[bool, bool, bool]], backlog: int, direct: bool
) -> None:
    """Whatever the moments its connection stalls, a viewer gets every change in order (or
    one refresh when too many waited), tables only ever newer, and ends on the newest —
    through the server's ``send`` or written straight to the server's connection."""

    async def scenario() -> None:
        connection = Connection()
        viewer = Viewer(1, "en", connection.send)
        if direct:
            server = ServerConnection(connection)
            viewer.send = server.send
            viewer.connection = direct_connection(server.send, {"method": "GET"})
            assert viewer.connection is server
        newest = 0
        for revision, (with_table, stall, release) in enumerate(steps, start=1):
            if stall:
                connection.open.clear()
            viewer.offer(_message(revision, with_table))
            newest = revision if with_table else newest
            if release:
                connection.open.set()
                await asyncio.sleep(0)
        connection.open.set()
        while viewer.writing is not None:
            await asyncio.sleep(0)
        events = EVENT.findall(connection.data.decode())
        tables = [int(i) for kind, i, _d in events if kind == "crosstable"]
        changes = [int(i) for kind, i, d in events if kind == "change" and "refresh" not in d]
        refreshed = any("refresh" in d for _k, _i, d in events)
        assert tables == sorted(set(tables)), "tables only ever newer"
        assert (tables[-1] if tables else 0) == newest
        if refreshed:
            assert changes == sorted(set(changes))
        else:
            assert changes == list(range(1, len(steps) + 1))

    hub_backlog = hub_module.BACKLOG
    hub_module.BACKLOG = backlog
    try:
        asyncio.run(scenario())
    finally:
        hub_module.BACKLOG = hub_backlog


def test_start_eagerly_runs_to_the_first_wait_and_hands_over_errors() -> None:
    async def scenario() -> None:
        seen: list[str] = []

        async def writes(fail: bool) -> None:
            seen.append("before")
            await asyncio.sleep(0.001)
            if fail:
                raise OSError("connection reset")
            seen.append("after")

        rest = start_eagerly(writes(False))
        assert seen == ["before"] and rest is not None
        await rest
        assert seen == ["before", "after"]
        failing = start_eagerly(writes(True))
        assert failing is not None
        with pytest.raises(OSError):
            await failing
        # cancelling the rest cancels the coroutine where it waits
        stopped: list[bool] = []

        async def waits() -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                stopped.append(True)
                raise

        pending = start_eagerly(waits())
        assert pending is not None
        task = asyncio.get_running_loop().create_task(pending)
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert stopped == [True]

    asyncio.run(scenario())


def test_the_refresh_event_stands_for_missed_changes() -> None:
    assert refresh_event(4).startswith(b"event: change\r\nid: 4\r\n")


def test_only_a_known_server_connection_is_written_to_directly() -> None:
    server = ServerConnection(Connection())
    assert direct_connection(server.send, {"method": "GET"}) is server
    assert direct_connection(server.send, {"method": "HEAD"}) is None, "a HEAD has no body"
    assert direct_connection(Connection().send, {"method": "GET"}) is None, "another server"
    server.chunked_encoding = False
    assert direct_connection(server.send, {"method": "GET"}) is None
    del server.flow
    assert direct_connection(server.send, {"method": "GET"}) is None, "another uvicorn"


# -- the crosstable kept up to date from the history's row changes ------------------------

RESULTS = ("1-0", "0-1", "½-½")
SPOT = st.tuples(st.integers(min_value=1, max_value=5), st.integers(min_value=1, max_value=3))
CHANGE = st.one_of(
    st.tuples(st.just("record"), SPOT, st.sampled_from(RESULTS)),
    st.tuples(st.just("correct"), SPOT, st.sampled_from((*RESULTS, None))),
    st.tuples(st.just("forfeit"), SPOT, st.sampled_from(("white", "black", "both"))),
    st.tuples(st.just("report"), SPOT, st.sampled_from(RESULTS), st.booleans()),
    st.tuples(st.just("confirm"), SPOT),
    st.tuples(st.just("reject"), SPOT),
    st.tuples(st.just("withdraw"), st.integers(min_value=1, max_value=6)),
    st.tuples(st.just("undo")),
)


def _six_player_round_robin(service: Service) -> int:
    from crosstable.core.model import LotsMethod
    from crosstable.service import PlayerInfo, Regulations

    tid = service.create_tournament(Regulations(name="six", tiebreaks=("SB", "DE"))).tournament_id
    for n in range(6):
        service.add_player(tid, PlayerInfo(f"Player {n + 1}", 2000 - 10 * n))
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, 7)))
    service.start(tid)
    return int(tid)


def _apply(service: Service, tid: int, change: tuple[Any, ...]) -> None:
    from crosstable.core.errors import CrosstableError

    kind, *args = change
    try:
        if kind == "record":
            (rnd, board), result = args
            service.record_result(tid, rnd, board, result)
        elif kind == "correct":
            (rnd, board), result = args
            service.correct_result(tid, rnd, board, result)
        elif kind == "forfeit":
            (rnd, board), absent = args
            service.mark_forfeit(tid, rnd, board, absent=absent)
        elif kind == "report":
            (rnd, board), result, white = args
            for game in service.overview(tid).games:
                if (game.round, game.board) == (rnd, board):
                    player = game.white if white else game.black
                    service.report_result(tid, rnd, board, result, player=player or 0)
        elif kind == "confirm":
            (rnd, board) = args[0]
            service.confirm_result(tid, rnd, board)
        elif kind == "reject":
            (rnd, board) = args[0]
            service.reject_reports(tid, rnd, board)
        elif kind == "withdraw":
            service.withdraw(tid, args[0])
        else:
            service.undo(tid)
    except CrosstableError:  # (refused by the rules: nothing changed)
        pass


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(CHANGE, st.booleans()), min_size=1, max_size=30))
def test_the_cached_crosstable_is_the_table_a_reload_gives(
    changes: list[tuple[tuple[Any, ...], bool]],
) -> None:
    """Whatever changes happen, and whenever the table is looked at (after one change or
    after several), the cached crosstable equals the one a full reload builds."""
    from crosstable.service.crosstable import build_crosstable
    from crosstable.service.tables import ReadModel, snapshot

    service = Service(open_store("sqlite:///:memory:"))
    tid = _six_player_round_robin(service)
    cache = ReadModel(service.store)
    cache.get(tid)
    for change, look in changes:
        _apply(service, tid, change)
        if look:
            view, table = cache.get(tid)
            fresh_view, tournament = snapshot(service.store, tid)
            assert view == fresh_view
            assert table == build_crosstable(fresh_view, tournament)
            assert cache._items[tid].tournament == tournament  # what the next change builds on
    view, table = cache.get(tid)
    fresh_view, tournament = snapshot(service.store, tid)
    assert (view, table) == (fresh_view, build_crosstable(fresh_view, tournament))


def test_results_update_the_cached_crosstable_without_a_reload(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Results (also made by another process on the same database) are applied from the
    history; anything else, or a tournament created again under the same number, reloads."""
    from crosstable.service import tables
    from crosstable.service.crosstable import build_crosstable

    url = f"sqlite:///{tmp_path / 'cache.db'}"
    service = Service(open_store(url))
    other = Service(open_store(url))  # another serve process
    tid = _six_player_round_robin(service)
    cache = service.read_model
    cache.get(tid)
    loads: list[int] = []
    load = tables._load
    monkeypatch.setattr(
        tables, "_load", lambda session, row: loads.append(row.id) or load(session, row)
    )

    def check() -> None:
        view, table = cache.get(tid)
        fresh_view, tournament = service.overview(tid), service.tournament(tid)
        assert (view, table) == (fresh_view, build_crosstable(fresh_view, tournament))

    service.record_result(tid, 1, 1, "1-0")
    check()
    other.record_result(tid, 1, 2, "½-½")
    other.report_result(tid, 1, 3, "0-1", player=other.overview(tid).games[2].white or 0)
    service.correct_result(tid, 1, 1, "0-1")
    check()
    assert loads == [], "results are applied, not reloaded"
    service.withdraw(tid, 6)
    check()
    assert loads == [tid], "a withdrawal reloads"
    for n in range(tables.CATCH_UP + 1):
        other.correct_result(tid, 1, 1, RESULTS[n % 2])
    check()
    assert loads == [tid, tid], "too far behind: reloaded"


# -- a real server ----------------------------------------------------------------------


@pytest.mark.parametrize("http", ["httptools", "h11"])
def test_a_real_server_pushes_results_and_stops_with_its_spectators(
    tmp_path: Path, http: str
) -> None:
    """uvicorn end to end: a spectator's socket gets the result posted through the API, and
    SIGTERM ends the open stream properly instead of waiting for the spectator to leave.
    (With httptools the hub writes the events to the connection itself, with h11 through
    the server's ``send``: both make the same well-formed chunked stream.)"""
    import json
    import os
    import signal
    import socket
    import subprocess
    import sys

    from crosstable.service.accounts import Accounts

    db = tmp_path / "serve.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    demo = build_demo(service)
    tid = demo["tournaments"][1]
    accounts = Accounts(service.store)
    user = accounts.find_user(demo["username"])
    assert user is not None
    token = accounts.create_token(user.id, "test")
    revision = service.overview(tid).revision
    service.store.close()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = dict(os.environ, CROSSTABLE_DB=str(db), CROSSTABLE_SECRET="live-test")
    command = [sys.executable, "-m", "uvicorn", "crosstable.web.app:create_app", "--factory"]
    command += ["--http", http, "--port", str(port), "--log-level", "warning"]
    server = subprocess.Popen(command, env=env)
    try:
        wait_until_served(server, f"tcp://127.0.0.1:{port}")  # slow when every core runs tests
        spectator = socket.create_connection(("127.0.0.1", port), timeout=10)
        spectator.sendall(
            f"GET /t/{tid}/events?rev={revision} HTTP/1.1\r\nHost: t\r\n\r\n".encode()
        )
        received = b""

        def read_until(marker: bytes) -> None:
            nonlocal received
            while marker not in received:
                chunk = spectator.recv(65536)
                assert chunk, received[-500:]
                received += chunk

        read_until(b": live")
        body = json.dumps({"result": "1-0"}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as poster:
            poster.sendall(
                f"POST /api/v1/tournaments/{tid}/rounds/2/boards/1/result HTTP/1.1\r\n"
                f"Host: t\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            answer = b""
            while chunk := poster.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
        seq = json.loads(answer.partition(b"\r\n\r\n")[2])["seq"]
        read_until(f"event: crosstable\r\nid: {seq}\r\n".encode())
        head = received.partition(b"\r\n\r\n")[0].lower()
        assert b"text/event-stream" in head and b"transfer-encoding: chunked" in head
        server.send_signal(signal.SIGTERM)
        read_until(b"\r\n0\r\n\r\n")  # the stream's last chunk: the response ended properly
        events = _chunks(received.partition(b"\r\n\r\n")[2]).decode()
        assert [kind for kind, _i, _d in EVENT.findall(events)] == ["change", "crosstable"]
        assert events.startswith(": live\r\n\r\n")
        assert server.wait(15) in (0, -signal.SIGTERM)  # (uvicorn re-raises the signal)
        spectator.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


# -- a browser applies the changed cells ------------------------------------------------

#: what a cell of the page's table shows (the page's own render has whitespace between
#: tags, the live events have none)
CELLS_JS = """() => Array.from(document.querySelectorAll('#live tr')).map(tr =>
    Array.from(tr.children).map(c => [c.tagName, c.className, c.textContent.trim(),
                                      c.getAttribute('title')]))"""
#: record the live events the page's EventSource gets (before the page's scripts run)
SEEN_JS = """(() => {
  const Original = window.EventSource;
  window.seen = [];
  window.EventSource = function (url) {
    const source = new Original(url);
    for (const kind of ["crosstable", "cells"]) {
      source.addEventListener(kind, (e) => window.seen.push(kind + " " + e.lastEventId));
    }
    return source;
  };
})();"""


@needs_chromium
def test_a_browser_keeps_its_table_with_the_changed_cells(tmp_path: Path) -> None:
    """A spectator's page (Chromium) takes ``cells`` events and its table stays the table
    a fresh page load shows; a page whose table is not the one the cells change asks for
    the whole table again."""
    import urllib.request

    from crosstable.service.accounts import Accounts

    db = tmp_path / "browser.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")))
    tid = build_demo(service)["tournaments"][1]
    accounts = Accounts(service.store)
    user = accounts.find_user("demo")
    assert user is not None
    token = accounts.create_token(user.id, "test")
    service.store.close()

    with web_server(db, secret="live-test") as url, chromium() as browser:

        def post(rnd: int, board: int, result: str) -> int:
            request = urllib.request.Request(
                f"{url}/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
                data=json.dumps({"result": result}).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                return int(json.loads(answer.read())["seq"])

        watcher = browser.new_page()
        watcher.add_init_script(SEEN_JS)
        watcher.goto(f"{url}/t/{tid}")
        watcher.wait_for_selector("#live-state:not(.off)")
        fresh = browser.new_page()
        wrap = "#live [data-revision]"
        for n, (rnd, board, result) in enumerate([(2, 1, "1-0"), (2, 2, "½-½"), (3, 4, "0-1")]):
            if n == 2:  # the page's table is not the one the next cells change
                watcher.evaluate(f"document.querySelector('{wrap}').dataset.revision = '1'")
            seq = post(rnd, board, result)
            watcher.wait_for_function(  # a function, not a text: the CSP forbids eval
                f"() => document.querySelector('{wrap}').dataset.revision === '{seq}'"
                f" && window.seen.some(e => e.endsWith(' {seq}'))",
                timeout=15000,
            )
            fresh.goto(f"{url}/t/{tid}")
            assert watcher.evaluate(CELLS_JS) == fresh.evaluate(CELLS_JS)
        seen = watcher.evaluate("window.seen")
        assert any(kind.startswith("cells ") for kind in seen), seen
        assert seen[-1] == f"crosstable {seq}", "a mismatch asks for the whole table"
