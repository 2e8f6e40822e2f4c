"""Switching the push server on for an app (``crosstable serve --push-url``, or
``CROSSTABLE_PUSH_URL``): the :class:`~crosstable.web.push.Publisher`
started and stopped with the app, and on PostgreSQL its
:class:`~crosstable.web.push_leader.Leadership`. Without the setting nothing changes.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from crosstable.web import live_cells
from crosstable.web.i18n import LOCALES
from crosstable.web.push import PUBLIC, PUSH_PUBLIC_ENV, PUSH_URL_ENV, Publisher, check_push_url
from crosstable.web.push_leader import Leadership


def push_settings(url: str | None, public: str | None) -> tuple[str | None, str]:
    """The publisher URL (None: the embedded hub) and the public prefix, from the
    arguments or the environment."""
    url = url if url is not None else os.environ.get(PUSH_URL_ENV) or None
    public = public if public is not None else os.environ.get(PUSH_PUBLIC_ENV) or PUBLIC
    return (None if url is None else check_push_url(url)), public


def install(app: Any, site: Any, url: str | None, public: str | None = None) -> None:
    """Publish the live updates of ``app`` to nchan at ``url`` (None, and no
    ``CROSSTABLE_PUSH_URL``: nothing changes)."""
    url, public = push_settings(url, public)
    app.state.push = None
    if url is None:
        return
    service = site.service
    leadership = None
    if service.store.dialect == "postgresql":
        leadership = Leadership(service.store.url)
    publisher = Publisher(
        url,
        service.bus,
        site.render_live,
        service.revision,
        locales=tuple(LOCALES),
        public=public,
        leadership=leadership,
        render_in=site.render_live_in,
        data_of=lambda tid: live_cells.live_data(site, tid),
    )
    app.state.push = publisher
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(running: Any) -> AsyncIterator[Any]:
        publisher.start()
        try:
            async with inner(running) as state:
                yield state
        finally:
            publisher.stop()

    app.router.lifespan_context = lifespan
