"""Results recorded per second through the service layer, live standings updated each time.

    python bench/bench_store.py --db /tmp/bench.db --writers 1 2 4
    python bench/bench_store.py --db "$(bash scripts/postgres.sh)" --writers 1 2 4 8

Each writer process records every result of its own round robins (``--players``
players each; one tournament per writer by default) through
``Service.record_result``: one transaction per result, with the event log, the
live standings recomputed and stored, and the change notification. The database
runs with the settings the product ships with (SQLite: WAL, synchronous=NORMAL;
``CROSSTABLE_SQLITE_SYNCHRONOUS=FULL`` for the stricter one; PostgreSQL: its
defaults, synchronous_commit=on). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import time
import uuid

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store

RESULTS = ("1-0", "½-½", "0-1")


def prepare(url: str, tournaments: int, players: int) -> list[int]:
    store = open_store(url)
    service = Service(store)
    ids = []
    for index in range(tournaments):
        tid = service.create_tournament(
            Regulations(name=f"bench {index}", tiebreaks=("DE", "SB", "WIN"))
        ).tournament_id
        for number in range(players):
            service.add_player(tid, PlayerInfo(f"Player {number + 1}", rating=2400 - number))
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        ids.append(tid)
    store.close()
    return ids


def writer(url: str, tournament_ids: list[int], start_at: float) -> tuple[int, float, float]:
    store = open_store(url)
    service = Service(store)
    games = []
    for tid in tournament_ids:
        games += [(tid, g.round, g.board) for g in service.overview(tid).games]
    while time.time() < start_at:
        time.sleep(0.001)
    began = time.perf_counter()
    cpu = time.process_time()
    for index, (tid, round_number, board) in enumerate(games):
        service.record_result(tid, round_number, board, RESULTS[index % 3])
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - cpu
    store.close()
    return len(games), elapsed, cpu


def run(url: str, writers: int, per_writer: int, players: int) -> dict[str, object]:
    ids = prepare(url, writers * per_writer, players)
    groups = [ids[i * per_writer : (i + 1) * per_writer] for i in range(writers)]
    start_at = time.time() + 1.5
    context = multiprocessing.get_context("spawn")
    began = time.perf_counter()
    with context.Pool(writers) as pool:
        outcomes = pool.starmap(writer, [(url, group, start_at) for group in groups])
    wall = time.perf_counter() - began - max(0.0, start_at - time.time() + 1.5) - 1.5
    recorded = sum(n for n, _, _ in outcomes)
    slowest = max(t for _, t, _ in outcomes)
    cpu = sum(c for _, _, c in outcomes)
    return {
        "db": "postgresql" if url.startswith("postgres") else "sqlite",
        "writers": writers,
        "players": players,
        "results": recorded,
        "seconds": round(slowest, 3),
        "results_per_second": round(recorded / slowest, 1),
        "ms_per_result_per_writer": round(1000 * slowest * writers / recorded, 2),
        "writer_cpu_ms_per_result": round(1000 * cpu / recorded, 2),
        "load_average": round(os.getloadavg()[0], 1),
        "wall_seconds_incl_spawn": round(wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tournaments-per-writer", type=int, default=1)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    print(
        json.dumps(
            {
                "machine": f"{platform.machine()} {os.cpu_count()} cpus",
                "python": platform.python_version(),
                "sqlite_synchronous": os.environ.get("CROSSTABLE_SQLITE_SYNCHRONOUS", "NORMAL"),
                "date": time.strftime("%Y-%m-%d"),
            }
        )
    )
    for writers in args.writers:
        url = args.db
        if not url.startswith("postgres"):
            url = f"{args.db}.{uuid.uuid4().hex[:8]}"
        print(json.dumps(run(url, writers, args.tournaments_per_writer, args.players)), flush=True)


if __name__ == "__main__":
    main()
