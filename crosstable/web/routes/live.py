"""Server-sent events: the live crosstable for everyone watching a tournament.

``GET /t/{id}/events?rev=N`` streams these events:

* ``crosstable`` — the crosstable fragment (HTML, in the viewer's language), with
  the revision as the event id; the page swaps it in without reloading;
* ``cells`` — only with ``&cells=1`` (the pages ask for it): instead of the whole
  fragment, the cells that changed since the table the viewer has, as data
  (:mod:`crosstable.web.live_cells`): ``{"revision", "base", "cells": [{"row",
  "col", "value"}, …]}`` (row: a starting number; col: ``o5``, ``r3``, ``pts``,
  ``tb:BH``, ``place``; value: typed), and ``"order"`` when a Swiss table's rows
  moved; the page writes each cell as the template does. A viewer gets them only
  when the server knows it has the table at ``base``; a page whose table is not at
  ``base`` reconnects for the whole table. Any change of more than cells (a
  withdrawal, the final note) sends the whole fragment;
* ``change`` — JSON: the changes (sequence number, kind, summary, games touched),
  for pages that refresh a part (the round view) and for apps. A viewer that
  missed changes (it reconnected, or it was too slow to take them all) gets one
  change of kind ``refresh``: refresh everything.

A viewer that connects (or reconnects: the browser sends ``Last-Event-ID``)
with an older revision than the current one gets the current table at once,
so a dropped connection loses nothing; the comment ``: live`` follows once the
viewer is in step. A comment every 15 seconds keeps proxies from closing a
quiet stream.

With a push server (``crosstable serve --push-url``, :mod:`crosstable.web.push`)
this address answers ``307`` to the nchan location of the tournament's channel in
the viewer's language (a reconnecting browser's ``Last-Event-ID`` goes along):
there every change arrives as one event ``live`` whose JSON carries the revision,
the ``change`` list and the changed ``cells`` or the whole ``table``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from crosstable.core.errors import CrosstableError
from crosstable.web import i18n
from crosstable.web.hub import Hub, Message, direct_connection, refresh_event
from crosstable.web.site import site_of

router = APIRouter(tags=["live"])

LIVE = b": live\r\n\r\n"


class LiveStream(Response):
    """The event stream of one viewer: the hub writes to it, this waits for the end.

    Leaner than a generic streaming response: no task, timer or queue per viewer
    (the hub writes every event straight to the connection), only a wait for the
    viewer to go away.
    """

    media_type = "text/event-stream"

    def __init__(
        self, hub: Hub, tournament_id: int, locale: str, known: int | None, cells: bool = False
    ) -> None:
        # (not Response.__init__: that would add "content-length: 0")
        self.status_code = 200
        self.background = None
        self.raw_headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"),
        ]
        self.hub = hub
        self.tournament_id = tournament_id
        self.locale = locale
        self.known = known
        self.cells = cells

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        hub = self.hub
        # the events go straight to the server: the middleware only adds headers (app._App)
        send = scope.get("crosstable.send", send)
        viewer = hub.join(self.tournament_id, self.locale, send)
        viewer.revision = -1 if self.known is None else self.known
        viewer.connection = direct_connection(send, scope)
        viewer.cells = self.cells

        gone = False

        async def watch() -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            viewer.ended.set()

        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            try:
                current = await hub.current(self.tournament_id, self.locale, viewer.revision)
            except CrosstableError:  # the tournament is gone
                current = None
                viewer.ended.set()
            if current is not None and current.revision > viewer.revision:
                changed = refresh_event(current.revision) if self.known is not None else b""
                viewer.offer(Message(current.revision, changed, current.table))
            # in step with the tournament: from here on, everything comes by broadcasts
            viewer.write(LIVE)
            await viewer.ended.wait()
        finally:
            watcher.cancel()
            hub.leave(viewer)
        if not (gone or viewer.failed):  # the server is stopping: end the response properly
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})


@router.get(
    "/t/{tid}/events",
    summary="Live updates of one tournament (text/event-stream)",
    response_class=LiveStream,
    status_code=200,
)
async def events(
    tid: int, request: Request, rev: int | None = None, cells: bool = False
) -> Response:
    site = site_of(request)
    current = await asyncio.to_thread(site.service.revision, tid)  # 404 before the stream starts
    known = rev
    last_id = request.headers.get("last-event-id")
    publisher = getattr(request.app.state, "push", None)
    if publisher is not None:  # the push server streams it (web/push.py)
        target = publisher.subscribe_url(tid, i18n.current.get(), last_id)
        return RedirectResponse(target, status_code=307, headers={"cache-control": "no-store"})
    if last_id and last_id.isdigit():
        known = int(last_id)
    if known is not None and known > current:  # a table from another database's past
        known = None
    return LiveStream(site.hub, tid, i18n.current.get(), known, cells)
