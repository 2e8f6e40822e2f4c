"""Live updates (R-RR-12): every change is pushed to everyone watching, by server-sent events.

The service publishes one notification per committed change on its event bus
(from the thread that made the change, or from the PostgreSQL listener when
another process made it). The hub hands it to the event loop, renders the new
crosstable *once* per language in use and puts it on the queue of every
viewer of that tournament. Renders of one tournament are coalesced: while one
runs, further changes only mark it dirty, and the next render reads the
newest state — so a burst of results costs a few renders, never one per
viewer, and nobody is ever left on an old table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from crosstable.service.bus import EventBus, Notification

log = logging.getLogger(__name__)

#: renders the live fragment of a tournament for one language: (tournament, locale) → html
Renderer = Callable[[int, str], tuple[int, str]]


@dataclass(eq=False)
class Viewer:
    tournament_id: int
    locale: str
    #: encoded server-sent events (encoded once per language, shared by every viewer)
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(64))


class Hub:
    def __init__(self, bus: EventBus, render: Renderer) -> None:
        self.bus = bus
        self.render = render
        self.viewers: dict[int, set[Viewer]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._running: set[int] = set()
        self._dirty: dict[int, list[Notification]] = {}

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._unsubscribe = self.bus.subscribe(self._from_bus)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())

    def join(self, tournament_id: int, locale: str) -> Viewer:
        viewer = Viewer(tournament_id, locale)
        self.viewers.setdefault(tournament_id, set()).add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        group = self.viewers.get(viewer.tournament_id)
        if group is not None:
            group.discard(viewer)
            if not group:
                del self.viewers[viewer.tournament_id]

    # -- from any thread ---------------------------------------------------------------

    def _from_bus(self, notification: Notification) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop may be shutting down
            loop.call_soon_threadsafe(self._changed, notification)

    # -- on the event loop -------------------------------------------------------------

    def _changed(self, notification: Notification) -> None:
        tid = notification.tournament_id
        if tid not in self.viewers:
            return
        self._dirty.setdefault(tid, []).append(notification)
        if tid not in self._running:
            self._running.add(tid)
            asyncio.get_running_loop().create_task(self._broadcast(tid))

    async def _broadcast(self, tid: int) -> None:
        try:
            while self._dirty.get(tid):
                changes = self._dirty.pop(tid)
                viewers = list(self.viewers.get(tid, ()))
                if not viewers:
                    break
                summary = json.dumps(
                    [
                        {"seq": n.seq, "kind": n.kind, "summary": n.summary, "games": n.games}
                        for n in changes
                    ],
                    ensure_ascii=False,
                )
                pages: dict[str, tuple[int, str]] = {}
                for locale in {v.locale for v in viewers}:
                    try:
                        pages[locale] = await asyncio.to_thread(self.render, tid, locale)
                    except Exception:
                        log.exception("rendering the live crosstable of %s failed", tid)
                last = max(n.seq for n in changes)
                encoded: dict[str, bytes] = {}
                for locale in {v.locale for v in viewers}:
                    revision, html = pages.get(locale, (last, ""))
                    message = encode("change", summary, revision)
                    if html:
                        message += encode("crosstable", html, revision)
                    encoded[locale] = message
                for viewer in viewers:
                    self._offer(viewer, encoded[viewer.locale])
        finally:
            self._running.discard(tid)
            if self._dirty.get(tid):  # a change arrived after the loop ended
                self._running.add(tid)
                asyncio.get_running_loop().create_task(self._broadcast(tid))

    @staticmethod
    def _offer(viewer: Viewer, item: bytes) -> None:
        queue = viewer.queue
        if queue.full():  # a slow viewer: drop the oldest, the newest table is what counts
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()
        queue.put_nowait(item)


def encode(event: str, data: str, revision: int) -> bytes:
    """One server-sent event (``data`` may span lines).

    >>> encode("crosstable", "<p>a</p>", 7)
    b'event: crosstable\\r\\nid: 7\\r\\ndata: <p>a</p>\\r\\n\\r\\n'
    """
    lines = "".join(f"data: {line}\r\n" for line in data.splitlines() or [""])
    return f"event: {event}\r\nid: {revision}\r\n{lines}\r\n".encode()
