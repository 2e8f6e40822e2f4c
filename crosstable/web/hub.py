"""Live updates: every change is pushed to everyone watching, by server-sent events.

The service publishes one notification per committed change on its event bus
(from the thread that made the change, or from the PostgreSQL listener when
another process made it). The hub hands it to the event loop, renders the new
crosstable *once* per language in use, encodes the events once and writes the
same bytes to the connection of every viewer of that tournament.

Renders of one tournament are coalesced: while one runs, further changes only
mark it dirty, and the next render reads the newest state — so a burst of
results costs a few renders, never one per viewer, and nobody is left on an
old table.

Viewers that ask for it get only the cells that changed since the table they
have, as data (:mod:`crosstable.web.live_cells`: row, column, typed value; the page
renders them): the hub keeps the newest table as data per tournament (one for every
language) and compares the new one with it, once for everyone. A language's table
is rendered only when one of its viewers needs the whole table (a new or lagging
viewer, a viewer without cells, a change of more than cells).

Writing costs one call per viewer, not a task: under uvicorn (httptools) the
hub writes the HTTP chunk, encoded once, straight to each connection's
transport, as the server's ``send`` would; elsewhere the viewer's ASGI ``send``
is run until it would wait. Both tricks lean on what uvicorn and asyncio do
inside, so they sit in :mod:`crosstable.web.uvicorn_direct`, whose tests pin
what they rely on. Either waits
only when that viewer's socket buffer is full (a slow phone). Such a viewer
gets its own task until the buffer drains; meanwhile its changes are kept and
only its newest table (the table is the whole state, so an older one is
useless), so a slow viewer costs a bounded amount of memory and never holds up
the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from crosstable.service.bus import EventBus, Notification
from crosstable.web.live_cells import TableData, changed_cells
from crosstable.web.uvicorn_direct import (
    Send,
    direct_connection,
    http_chunk,
    start_eagerly,
    write_chunk,
)

__all__ = ["Hub", "Message", "Viewer", "direct_connection", "encode", "start_eagerly"]

log = logging.getLogger(__name__)

#: renders the live fragment of a tournament for one language: (tournament, locale) → html
Renderer = Callable[[int, str], tuple[int, str]]
#: a tournament's live table as data (None: sent whole only, e.g. a knockout's bracket)
DataReader = Callable[[int], TableData | None]

#: a comment every so many seconds keeps proxies from closing a quiet stream
PING_SECONDS = 15.0
PING = b": ping\r\n\r\n"
#: change events kept for a viewer that cannot take them yet (beyond: one "refresh")
BACKLOG = 256


#: what a viewer gets of a message: the change alone, with the whole table, with the changed cells
CHANGE, TABLE, CELLS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Message:
    """What one broadcast gives the viewers of one language, encoded once."""

    revision: int  # of the table
    change: bytes  # the ``change`` event (empty for the first table of a new viewer)
    table: bytes  # the ``crosstable`` event (empty when the render failed)
    #: the ``cells`` event: the cells that differ from the table at revision ``base``
    cells: bytes = b""
    base: int = -1
    #: the HTTP/1.1 chunks of what viewers get (CHANGE, TABLE, CELLS), made once for all
    _chunks: dict[int, bytes] = field(default_factory=dict, compare=False, repr=False)

    def data(self, what: int) -> bytes:
        if what == TABLE:
            return self.change + self.table
        if what == CELLS:
            return self.change + self.cells
        return self.change

    def chunk(self, what: int) -> bytes:
        chunk = self._chunks.get(what)
        if chunk is None:
            chunk = self._chunks[what] = http_chunk(self.data(what))
        return chunk


@dataclass(eq=False, slots=True)
class Viewer:
    """One open event stream."""

    tournament_id: int
    locale: str
    send: Send
    #: the revision of the table the viewer has (or will have once the write in flight ends)
    revision: int = -1
    #: set when the stream is over (the hub shut down)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    #: a write that had to wait (the viewer's socket buffer was full)
    writing: asyncio.Task[None] | None = None
    changes: list[bytes] = field(default_factory=list)  # while ``writing``
    table: bytes = b""  # the newest table not yet written (while ``writing``)
    #: ``cells`` events not yet written, after ``table`` (while ``writing``)
    pending: list[bytes] = field(default_factory=list)
    #: more changes waited than BACKLOG: the revision of the newest (they become one refresh)
    overflowed: int = 0
    failed: bool = False
    #: the server's connection, written to directly (see :func:`direct_connection`)
    connection: Any = None
    #: the viewer takes ``cells`` events (only the cells that changed) instead of whole tables
    cells: bool = False

    def offer(self, message: Message) -> None:
        """Write ``message`` now, or keep it until the write in flight has finished."""
        what = CHANGE
        if message.revision > self.revision:
            if self.cells and message.cells and message.base == self.revision:
                what = CELLS
            elif message.table:
                what = TABLE
            if what:
                self.revision = message.revision
        if self.failed or not (message.change or what):
            return
        if self.writing is not None:
            if message.change:
                if len(self.changes) < BACKLOG:
                    self.changes.append(message.change)
                else:
                    self.overflowed = message.revision
            if what == TABLE:  # (the table is the whole state: cells before it are moot)
                self.table, self.pending = message.table, []
            elif what == CELLS:  # (they apply, in order, to the table written before)
                if len(self.pending) < BACKLOG:
                    self.pending.append(message.cells)
                else:  # too far behind: the next broadcast sends it the whole table
                    self.pending, self.revision = [], -1
            return
        connection = self.connection
        if connection is not None and write_chunk(connection, message.chunk(what)):
            return
        self.write(message.data(what))

    def write(self, data: bytes) -> None:
        """Write ``data`` (events or a comment) without a task unless the send has to wait."""
        if self.failed:
            return
        if self.writing is not None:
            return  # a ping while a write is stuck: nothing to add
        connection = self.connection
        if connection is not None and write_chunk(connection, http_chunk(data)):
            return
        message = {"type": "http.response.body", "body": data, "more_body": True}
        try:
            started = start_eagerly(self.send(message))
        except Exception:
            log.debug("a viewer's connection failed", exc_info=True)
            self.failed = True
            self.ended.set()
            return
        if started is not None:
            self.writing = asyncio.get_running_loop().create_task(self._drain(started))

    async def _drain(self, started: Coroutine[Any, Any, None]) -> None:
        try:
            await started
            while self.changes or self.table or self.pending or self.overflowed:
                pending = self.changes
                if self.overflowed:
                    pending = [refresh_event(self.overflowed)]
                data = b"".join(pending) + self.table + b"".join(self.pending)
                self.changes, self.table, self.pending, self.overflowed = [], b"", [], 0
                await self.send({"type": "http.response.body", "body": data, "more_body": True})
        except Exception:
            log.debug("a viewer's connection failed", exc_info=True)
            self.failed = True
            self.ended.set()
        finally:
            self.writing = None


class Hub:
    def __init__(
        self,
        bus: EventBus,
        render: Renderer,
        revision_of: Callable[[int], int],
        data_of: DataReader | None = None,
    ) -> None:
        self.bus = bus
        self.render = render
        self.data_of = data_of
        #: a tournament's current revision (NotFoundError if there is none)
        self.revision_of = revision_of
        self.viewers: dict[int, set[Viewer]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._running: set[int] = set()
        self._dirty: dict[int, list[Notification]] = {}
        self._pinger: asyncio.TimerHandle | None = None
        #: the last broadcast per (tournament, language): what a new viewer gets first
        self._latest: dict[tuple[int, str], Message] = {}
        self._rendering: dict[tuple[int, str], asyncio.Future[Message | None]] = {}
        #: the newest table per tournament as data: the next ``cells`` are its changes
        self._data: dict[int, TableData] = {}
        #: (for the debug log) when the oldest change not yet broadcast was published
        self._published: dict[int, float] = {}

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._unsubscribe = self.bus.subscribe(self._from_bus)
        self._pinger = loop.call_later(PING_SECONDS, self._ping)
        self._end_streams_on_exit()

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._pinger is not None:
            self._pinger.cancel()
            self._pinger = None
        self.end_all()

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())

    def join(self, tournament_id: int, locale: str, send: Send) -> Viewer:
        viewer = Viewer(tournament_id, locale, send)
        self.viewers.setdefault(tournament_id, set()).add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        group = self.viewers.get(viewer.tournament_id)
        if group is not None:
            group.discard(viewer)
            if not group:
                del self.viewers[viewer.tournament_id]
        if viewer.writing is not None:
            viewer.writing.cancel()

    async def current(self, tournament_id: int, locale: str, have: int = -1) -> Message | None:
        """The table at the current revision, if newer than the revision the viewer has
        (the last broadcast's bytes while they are current).

        Call it after :meth:`join`: any change after this read reaches the viewer
        by a broadcast, so the viewer cannot be left on an older table.
        """
        key = (tournament_id, locale)
        revision = await asyncio.to_thread(self.revision_of, tournament_id)
        if have >= revision:
            return None
        latest = self._latest.get(key)
        if latest is not None and latest.revision >= revision:
            return latest
        rendering = self._rendering.get(key)
        if rendering is None:  # viewers arriving together share one render
            rendering = asyncio.ensure_future(self._render(tournament_id, locale))
            self._rendering[key] = rendering
            rendering.add_done_callback(lambda _f: self._rendering.pop(key, None))
        message = await asyncio.shield(rendering)
        if message is None or message.revision >= revision:
            return message
        return await self._render(tournament_id, locale)  # that render had begun too early

    async def _render(self, tournament_id: int, locale: str) -> Message | None:
        try:
            revision, html = await asyncio.to_thread(self.render, tournament_id, locale)
        except Exception:  # the viewer stays and gets the next change
            log.exception("rendering the live crosstable of %s failed", tournament_id)
            return None
        message = Message(revision, b"", encode("crosstable", html, revision))
        if self.data_of is not None and tournament_id not in self._data:
            # (the table as data at the same revision: the next change's cells start there;
            # data kept at an older revision stays, since a broadcast of the changes since
            # is on its way and the viewers that have that table take their cells from it)
            try:
                data = await asyncio.to_thread(self.data_of, tournament_id)
            except Exception:
                log.exception("reading the live table of %s failed", tournament_id)
                data = None
            if data is not None and data.revision == revision:
                self._data[tournament_id] = data
        self._remember(tournament_id, locale, message)
        return message

    def _data_with_cells(
        self, tournament_id: int, before: TableData | None
    ) -> tuple[TableData | None, str | None]:
        """The table as data, and the cells that changed since ``before`` (when only
        cells did), as JSON for the ``cells`` event (in a worker thread)."""
        if self.data_of is None:
            return None, None
        data = self.data_of(tournament_id)
        cells = None
        if data is not None and before is not None and before.revision < data.revision:
            body = changed_cells(before, data)
            if body is not None:
                cells = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        return data, cells

    def _remember(self, tournament_id: int, locale: str, message: Message) -> None:
        latest = self._latest.get((tournament_id, locale))
        if message.table and (latest is None or latest.revision <= message.revision):
            self._latest[(tournament_id, locale)] = Message(message.revision, b"", message.table)

    def end_all(self) -> None:
        """End every stream (the server is shutting down; browsers reconnect elsewhere)."""
        for group in self.viewers.values():
            for viewer in group:
                viewer.ended.set()

    # -- from any thread ---------------------------------------------------------------

    def _from_bus(self, notification: Notification) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop may be shutting down
            loop.call_soon_threadsafe(self._changed, notification, time.time())

    # -- on the event loop -------------------------------------------------------------

    def _ping(self) -> None:
        for group in self.viewers.values():
            for viewer in list(group):
                viewer.write(PING)
        if self._loop is not None:
            self._pinger = self._loop.call_later(PING_SECONDS, self._ping)

    def _changed(self, notification: Notification, published: float = 0.0) -> None:
        tid = notification.tournament_id
        if tid not in self.viewers:
            for key in [k for k in self._latest if k[0] == tid]:
                del self._latest[key]
            self._data.pop(tid, None)
            return
        self._dirty.setdefault(tid, []).append(notification)
        self._published.setdefault(tid, published)
        if tid not in self._running:
            self._running.add(tid)
            asyncio.get_running_loop().create_task(self._broadcast(tid))

    def _need_table(self, tid: int, locale: str, base: int) -> bool:
        """Some viewer of ``locale`` needs the whole table (the cells do not fit its own)."""
        return any(
            not (viewer.cells and viewer.revision == base)
            for viewer in self.viewers.get(tid, ())
            if viewer.locale == locale
        )

    async def _broadcast(self, tid: int) -> None:
        try:
            while self._dirty.get(tid):
                changes = self._dirty.pop(tid)
                published = self._published.pop(tid, 0.0)
                locales = {v.locale for v in self.viewers.get(tid, ())}
                if not locales:
                    break
                summary = json.dumps(
                    [
                        {"seq": n.seq, "kind": n.kind, "summary": n.summary, "games": n.games}
                        for n in changes
                    ],
                    ensure_ascii=False,
                )
                last = max(n.seq for n in changes)
                began, woke = time.perf_counter(), time.time()
                messages: dict[str, Message] = {}
                before = self._data.get(tid)
                try:
                    data, cells = await asyncio.to_thread(self._data_with_cells, tid, before)
                except Exception:
                    log.exception("reading the live table of %s failed", tid)
                    data, cells = None, None
                if data is None:  # (no base for the next change's cells)
                    self._data.pop(tid, None)
                elif before is None or before.revision <= data.revision:
                    self._data[tid] = data
                base = -1 if before is None or cells is None else before.revision
                for locale in locales:
                    revision, html = (last if data is None else data.revision), ""
                    if cells is None or self._need_table(tid, locale, base):
                        try:
                            revision, html = await asyncio.to_thread(self.render, tid, locale)
                        except Exception:
                            log.exception("rendering the live crosstable of %s failed", tid)
                    usable = cells is not None and data is not None and data.revision == revision
                    messages[locale] = Message(
                        revision,
                        encode("change", summary, revision),
                        encode("crosstable", html, revision) if html else b"",
                        encode("cells", cells, revision) if usable and cells else b"",
                        base if usable else -1,
                    )
                    self._remember(tid, locale, messages[locale])
                rendered = time.perf_counter()
                viewers = list(self.viewers.get(tid, ()))
                for viewer in viewers:
                    message = messages.get(viewer.locale)
                    if message is not None:  # (a viewer of another language joined meanwhile)
                        viewer.offer(message)
                if log.isEnabledFor(logging.DEBUG):
                    log.debug(
                        "broadcast t%s r%s (%d changes): published at %.6f, "
                        "taken up after %.1f ms, rendered in %.1f ms, "
                        "%d viewers written in %.1f ms",
                        tid,
                        last,
                        len(changes),
                        published,
                        (woke - published) * 1000 if published else 0.0,
                        (rendered - began) * 1000,
                        len(viewers),
                        (time.perf_counter() - rendered) * 1000,
                    )
        finally:
            self._running.discard(tid)
            if self._dirty.get(tid):  # a change arrived after the loop ended
                self._running.add(tid)
                asyncio.get_running_loop().create_task(self._broadcast(tid))

    def _end_streams_on_exit(self) -> None:
        """End the streams when the server is told to stop (SIGINT/SIGTERM).

        A server waits for open responses before it shuts the application down,
        and an event stream never ends by itself; so the hub chains itself to the
        server's signal handlers (only when the server installed Python ones).
        """
        if threading.current_thread() is not threading.main_thread():
            return
        loop = self._loop
        for number in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(number)
            if not callable(previous) or previous is signal.default_int_handler:
                continue

            def handler(sig: int, frame: Any, previous: Any = previous) -> None:
                if loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self.end_all)
                previous(sig, frame)

            signal.signal(number, handler)


def encode(event: str, data: str, revision: int) -> bytes:
    """One server-sent event (``data`` may span lines).

    >>> encode("crosstable", "<p>a</p>", 7)
    b'event: crosstable\\r\\nid: 7\\r\\ndata: <p>a</p>\\r\\n\\r\\n'
    """
    lines = "".join(f"data: {line}\r\n" for line in data.splitlines() or [""])
    return f"event: {event}\r\nid: {revision}\r\n{lines}\r\n".encode()


def refresh_event(revision: int) -> bytes:
    """The ``change`` event that stands for changes a viewer missed: refresh everything.

    >>> refresh_event(9).decode().splitlines()[2]
    'data: [{"seq": 9, "kind": "refresh", "summary": "", "games": []}]'
    """
    body = [{"seq": revision, "kind": "refresh", "summary": "", "games": []}]
    return encode("change", json.dumps(body), revision)
