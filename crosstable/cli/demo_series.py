"""``crosstable demo --series [--no-serve]`` (DESIGN.md names it): a workdays
series with a simulated season in the demo database — three editions over three weeks
of injected time (the first postponed for lack of players, then 40 in four groups; a
forfeit-only group winner who does not go on; the final and the super-final), and the
next edition open on the real calendar — summarised, then served (the demo login sees
the notifications a player gets). Built once and kept, like the round-robin demo
(``--reset`` starts afresh)."""

from __future__ import annotations

import datetime as dt
import random

import typer

from crosstable.cli import serve as server
from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web.demo import PASSWORD, USERNAME
from crosstable.web.demo_series import DemoClock, build_series_demo, find_series_demo, summary


def series_demo(database: str, host: str, port: int, *, serve: bool, reset: bool) -> None:
    """Simulate the season in ``database`` (already emptied when ``reset``), unless it
    holds it already; print its summary; then serve the demo unless ``serve`` is false."""
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    store = open_store(database)
    with store:
        clock = DemoClock(now)
        service = Service(store, clock=clock, random=random.Random(2026))
        made = None if reset else find_series_demo(service)
        if made is None:
            made = build_series_demo(service, clock, now=now)
            said = (
                f"Demo series built in {database}: {made.games} games played by the "
                "service, every step done by the clock-driven tick."
            )
        else:
            said = f"Demo series kept in {database} as it was left (--reset rebuilds it)."
        lines = summary(service, made.series)
    typer.echo("\n".join([*lines, "", said]))
    if not serve:
        return
    url = f"http://{host}:{port}"
    banner = (
        f"\nSeries demo: {url}{made.path}  (editions, groups, qualifiers, notifications)\n"
        f"Sign in as {USERNAME} / {PASSWORD}\n"
        "Stop with Ctrl-C."
    )
    server.run(database, host=host, port=port, banner=banner)
