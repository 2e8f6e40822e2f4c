"""Issue 14: CPU per result (the process's own time) of recording a result and of the pages'
table read after it, in one process on SQLite in memory: 16-player round robins (DE, SB,
WIN), every result, as docs/benchmarks.md "Issue 14 before/after" reports.

    python bench/bench_read_model.py [--tournaments 4] [--db URL]

(Runs on trees from before the read model too: then the web's CrosstableCache is read.)
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store


def run(tournaments: int = 4, db: str = "sqlite:///:memory:") -> dict[str, object]:
    service = Service(open_store(db))
    cache: Any = getattr(service, "read_model", None)
    if cache is None:  # (a tree from before issue 14)
        from crosstable.web.views import CrosstableCache  # type: ignore[attr-defined]

        cache = CrosstableCache(service)
    rec = page = 0.0
    n = 0
    for t in range(tournaments):
        tid = service.create_tournament(
            Regulations(name=f"b{t}", tiebreaks=("DE", "SB", "WIN"))
        ).tournament_id
        for k in range(16):
            service.add_player(tid, PlayerInfo(f"Player {k + 1}", rating=2400 - k))
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        cache.get(tid)
        games = [(g.round, g.board) for g in service.overview(tid).games]
        for i, (r, b) in enumerate(games):
            a = time.process_time()
            service.record_result(tid, r, b, ("1-0", "0-1", "½-½")[i % 3])
            m = time.process_time()
            cache.get(tid)
            e = time.process_time()
            rec += m - a
            page += e - m
            n += 1
    return {
        "results": n,
        "record_ms": round(rec * 1000 / n, 3),
        "page_table_ms": round(page * 1000 / n, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=4)
    parser.add_argument(
        "--db", default="sqlite:///:memory:", help="SQLite file or postgresql:// URL"
    )
    args = parser.parse_args()
    print(json.dumps(run(args.tournaments, args.db)))


if __name__ == "__main__":
    main()
