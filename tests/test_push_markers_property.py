"""Markers (crosstable/web/push.py, issue 17.4) against the definitional path, the
whole table on every change: spectators who come and go, and follow what app.js does
with what they get (cells on the table they hold, a table, and after a marker or cells
that do not fit, the table channel's table, else the app's), all end at the table the
app renders, whatever nchan answered of the subscribers at each publication, and
whichever of two app processes published each change (cells on the other's table)."""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.push_rig import apply_cells
from crosstable.service.bus import EventBus
from crosstable.web.live_cells import TableData, cell_html
from tests.test_push import FakeNchan, change, counted, publisher


class Table:
    """A tournament's table of three cells, as the app renders it at each revision."""

    def __init__(self) -> None:
        self.revision = 1
        self.cells = ["", "", ""]

    def render(self, _tid: int, locale: str) -> tuple[int, str]:
        rows = "".join(
            f'<tr id="p{n}"><th>{n}</th>{cell_html(n, "pts", c, {}, ",.", False)}</tr>'
            for n, c in enumerate(self.cells, 1)
        )
        head = '<thead><tr><th>№</th><th data-col="pts">P</th></tr></thead>'
        wrap = (
            f'<div class="xt-wrap" data-revision="{self.revision}" '
            "data-num=\",.\" data-words='{}'>"
        )
        return self.revision, f"{wrap}<table>{head}<tbody>{rows}</tbody></table></div>"

    def data(self, _tid: int) -> TableData:
        rows = {n: {"pts": c} for n, c in enumerate(self.cells, 1)}
        return TableData(self.revision, "three players", rows, (1, 2, 3))

    def revision_of(self, _tid: int) -> int:
        return self.revision


class Page:
    """One spectator's table, as app.js keeps it."""

    def __init__(self, revision: int, html: str) -> None:
        self.revision, self.html = revision, html
        self.wanted = -1  # a newer revision it must read itself
        self.from_app = 0

    def take(self, message: dict[str, Any]) -> None:
        revision = int(message["revision"])
        if revision <= self.revision:
            return
        if "cells" in message and message["base"] == self.revision:
            html = apply_cells(self.html, message)
            if html is not None:
                self.revision, self.html = revision, html
                return
        if "table" in message:
            self.revision, self.html = revision, message["table"]
            return
        self.wanted = max(self.wanted, revision)  # a marker (or cells that do not fit)

    def settle(self, nchan: FakeNchan, t: Table) -> None:
        """A moment later: the table channel's table, else the app's."""
        if self.revision >= self.wanted:
            return
        kept = nchan.messages("7-en.table")
        if kept and int(kept[-1]["revision"]) >= self.wanted:
            self.revision, self.html = int(kept[-1]["revision"]), kept[-1]["table"]
        else:
            self.revision, self.html = t.render(7, "en")
            self.from_app += 1


steps = st.lists(
    st.one_of(
        # a change recorded by one of two app processes (the other's table read from nchan)
        st.tuples(st.just("change"), st.integers(0, 5), st.integers(0, 1)),
        st.tuples(st.just("load"), st.just(0), st.just(0)),  # a page renders its table …
        st.tuples(st.just("subscribe"), st.integers(0, 20), st.just(0)),  # … then subscribes
        st.tuples(st.just("leave"), st.integers(0, 20), st.just(0)),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=40, deadline=None)
@given(steps=steps)
def test_spectators_end_at_the_apps_table_through_markers(steps: list[Any]) -> None:
    nchan, t = FakeNchan(), Table()
    buses = (EventBus(), EventBus())
    pushes = [counted(nchan, partial(publisher, nchan, t, bus)) for bus in buses]
    pages: list[Page] = []
    loading: list[Page] = []  # (rendered, not subscribed yet: nchan does not count them)
    seen = 0
    try:
        for kind, value, process in steps:
            nchan.subscribers["7-en"] = len(pages)
            if kind == "change":
                t.revision += 1  # one cell changes (which, and to what: value)
                t.cells[value % 3] = ("½", "1")[value // 3]
                bus = buses[process]
                bus.publish(change(bus, t.revision))
            elif kind == "load":
                loading.append(Page(*t.render(7, "en")))
            elif kind == "subscribe":  # nchan's kept messages first
                if loading:
                    page = loading.pop(value % len(loading))
                    for message in nchan.messages("7-en")[-16:]:
                        page.take(message)
                    pages.append(page)
            elif pages:
                pages.pop(value % len(pages))
            sent = nchan.messages("7-en")
            for message in sent[seen:]:
                for page in pages:
                    page.take(message)
            seen = len(sent)
            for page in pages:
                page.settle(nchan, t)
    finally:
        for push in pushes:
            push.stop()
        nchan.close()
    newest = t.render(7, "en")
    assert all((page.revision, page.html) == newest for page in pages)
