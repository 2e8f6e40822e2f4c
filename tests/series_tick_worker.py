"""A ticking process for the kill -9 test (tests/test_series_ticker.py): one pass of the
in-process ticker (:class:`crosstable.service.series.ticker.Ticker`, the code
``crosstable serve`` runs) over DB with the clock standing at NOW, and — when KILL_AT is
not 0 — a SIGKILL of itself just before its KILL_AT-th SQL statement: a kill -9 at a
point chosen by the test, in the middle of whatever the pass was doing (a transaction
open, a group half made), with no sleeping and no timing.

    python tests/series_tick_worker.py DB NOW KILL_AT SEED
"""

from __future__ import annotations

import datetime as dt
import os
import random
import signal
import sys

from sqlalchemy import event

from crosstable.service import FixedClock, Service
from crosstable.service.series.ticker import Ticker
from crosstable.store import open_store


def main() -> None:
    db, now, kill_at, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    store = open_store(db)
    executed = 0

    def count(*_args: object) -> None:
        nonlocal executed
        executed += 1
        if executed == kill_at:
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    event.listen(store.engine, "before_cursor_execute", count)
    clock = FixedClock(dt.datetime.fromisoformat(now))
    service = Service(store, clock=clock, random=random.Random(seed))
    ticker = Ticker(service, send=None)
    done = ticker.pass_once()
    for line in done:
        print(line)
    print(f"statements {executed}", file=sys.stderr)
    store.close()


if __name__ == "__main__":
    main()
