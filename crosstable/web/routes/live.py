"""Server-sent events: the live crosstable for everyone watching a tournament (R-RR-12).

``GET /t/{id}/events?rev=N`` streams two kinds of events:

* ``crosstable`` — the crosstable fragment (HTML, in the viewer's language), with
  the revision as the event id; the page swaps it in without reloading;
* ``change`` — JSON: the changes (sequence number, kind, summary, games touched),
  for pages that refresh a part (the round view) and for apps.

A viewer that connects (or reconnects) with an older revision than the current
one gets the current table at once, so a dropped connection loses nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from crosstable.web import i18n
from crosstable.web.app import site_of
from crosstable.web.hub import encode

router = APIRouter(tags=["live"])


@router.get("/t/{tid}/events", summary="Live updates of one tournament (text/event-stream)")
async def events(tid: int, request: Request, rev: int | None = None) -> EventSourceResponse:
    site = site_of(request)
    await asyncio.to_thread(site.tables.revision, tid)  # 404 before the stream starts
    locale = i18n.current.get()
    last_id = request.headers.get("last-event-id")
    known = rev
    if last_id and last_id.isdigit():
        known = int(last_id)
    viewer = site.hub.join(tid, locale)

    async def stream() -> AsyncIterator[ServerSentEvent | bytes]:
        try:
            yield ServerSentEvent(comment="live")
            revision, html = await asyncio.to_thread(site.render_live, tid, locale)
            if known is None or known != revision:
                yield encode("crosstable", html, revision)
            while True:
                yield await viewer.queue.get()
        finally:
            site.hub.leave(viewer)

    return EventSourceResponse(stream(), ping=15, headers={"X-Accel-Buffering": "no"})
