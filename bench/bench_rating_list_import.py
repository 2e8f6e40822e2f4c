"""Issue 25 item 6: a full-size rating list imported while results are recorded.

Builds (once, into ``--list``, default /tmp/players_list_1200k.zip) a list of
``--players`` players (default 1 200 000, FIDE's combined TXT layout, zipped), then on a
fresh database with a started 100-player round robin imports it twice (into an empty
store, then again: every player an update) while the main thread records a result
every ``--every`` seconds (after ``--control`` seconds of results with no import, the
machine's own spread). Prints the import's time, the process's peak memory while
importing, and how long the slowest result write took (how long a result waited for
the import), with the number of results recorded and refused.

    python bench/bench_rating_list_import.py [--players 1200000] [--db URL] [--list PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_rating_list import build

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.rating_lists import RatingLists
from crosstable.store import open_store


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tournament(service: Service, players: int = 100) -> tuple[int, list[tuple[int, int]]]:
    tid = service.create_tournament(
        Regulations(name="Club"),
        players=[PlayerInfo(f"Player {k}", 1500 + k) for k in range(1, players + 1)],
    ).tournament_id
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, players + 1)))
    service.start(tid)
    games = [(r, b) for r in range(1, players) for b in range(1, players // 2 + 1)]
    return tid, games


def imported_with_results(
    service: Service, path: Path, tid: int, games: list[tuple[int, int]], every: float
) -> dict[str, object]:
    lists = RatingLists(service)
    outcome: dict[str, object] = {}
    peak = [rss_mb()]
    before = peak[0]

    def importing() -> None:
        started = time.perf_counter()
        report = lists.import_file(path)
        outcome["import_s"] = round(time.perf_counter() - started, 1)
        outcome["players"] = report.players
        outcome["total"] = report.total
        outcome["batches"] = report.batches
        outcome["longest_batch_s"] = dict(report.longest)

    thread = threading.Thread(target=importing)
    waits: list[float] = []
    refused = 0
    thread.start()
    while thread.is_alive():
        time.sleep(every)
        peak[0] = max(peak[0], rss_mb())
        if not games:
            continue
        rnd, board = games.pop(0)
        started = time.perf_counter()
        try:
            service.record_result(tid, rnd, board, "1-0")
        except Exception as error:
            refused += 1
            print("refused:", error, file=sys.stderr)
        waits.append(time.perf_counter() - started)
    thread.join()
    outcome.update(
        results_recorded=len(waits) - refused,
        results_refused=refused,
        result_write_max_s=round(max(waits), 3) if waits else None,
        result_write_median_ms=round(sorted(waits)[len(waits) // 2] * 1000, 1) if waits else None,
        rss_before_mb=round(before),
        rss_peak_mb=round(peak[0]),
    )
    return outcome


def control(
    service: Service, tid: int, games: list[tuple[int, int]], seconds: float, every: float
) -> dict[str, object]:
    """Results recorded for ``seconds`` with no import running: the machine's own spread."""
    waits: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and games:
        time.sleep(every)
        rnd, board = games.pop(0)
        started = time.perf_counter()
        service.record_result(tid, rnd, board, "1-0")
        waits.append(time.perf_counter() - started)
    return {
        "results_recorded": len(waits),
        "result_write_max_s": round(max(waits), 3) if waits else None,
        "result_write_median_ms": round(sorted(waits)[len(waits) // 2] * 1000, 1)
        if waits
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--list", default="/tmp/players_list_1200k.zip")
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--control", type=float, default=60, help="seconds of results alone")
    args = parser.parse_args()
    path = Path(args.list)
    if not path.exists():
        started = time.perf_counter()
        build(path, args.players, random.Random(25))
        print(f"built {path} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(args.db or f"sqlite:///{folder}/bench.db")
        service = Service(store)
        tid, games = tournament(service)
        alone = control(service, tid, games, args.control, args.every)
        first = imported_with_results(service, path, tid, games, args.every)
        again = imported_with_results(service, path, tid, games, args.every)
        store.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "dialect": store.dialect,
                "list": str(path),
                "list_mb": round(path.stat().st_size / 2**20, 1),
                "results_without_import": alone,
                "first_import": first,
                "second_import": again,
                "process_peak_rss_mb": round(peak),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
