"""Berger schedules: full-table build against caissify-pairings, and O(1) lookups.

Run:  pip install caissify-pairings   (in your shell only; never a product dependency)
      python bench/bench_berger.py [--players 2000] [--repeat 7]

Both generators are timed in one process, alternately, each run after a full
garbage collection, with the collector on (as a program runs them). Before timing,
the two tables are compared board by board: they must be identical.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from crosstable.core.schedule import (
    berger_opponent,
    berger_round,
    berger_schedule,
    berger_table,
    circle_table,
    verify_schedule,
)


def timed(build: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    result = build()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def summary(times: list[float]) -> str:
    return f"best {min(times):.3f} s, median {statistics.median(times):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    n, repeat = args.players, args.repeat
    print(f"python {sys.version.split()[0]} on {platform.machine()}, {n} players, {repeat} runs")

    try:
        from caissify_pairings.engines.round_robin import berger_schedule as caissify
    except ImportError:
        caissify = None
        print("caissify-pairings is not installed: only our own figures follow")

    ours_rounds = berger_table(n).rounds
    if caissify is not None:
        theirs = caissify(n if n % 2 == 0 else n + 1)
        same = all(
            list(r.boards) == [tuple(b) for b in t if n + 1 not in b]
            for r, t in zip(ours_rounds, theirs, strict=True)
        )
        print(f"tables identical to caissify-pairings: {same}")

    ours: list[float] = []
    peer: list[float] = []
    for _ in range(repeat):
        ours.append(timed(lambda: berger_table(n)))
        if caissify is not None:
            peer.append(timed(lambda: caissify(n)))
    print(f"crosstable berger_table({n}):          {summary(ours)}")
    if peer:
        print(f"caissify-pairings berger_schedule({n}): {summary(peer)}")
        print(
            f"speed-up: {min(peer) / min(ours):.1f}x (best), "
            f"{statistics.median(peer) / statistics.median(ours):.1f}x (median)"
        )
        gc.disable()
        try:
            ours_off = [timed(lambda: berger_table(n)) for _ in range(repeat)]
            peer_off = [timed(lambda: caissify(n)) for _ in range(repeat)]
        finally:
            gc.enable()
        print(
            f"with the garbage collector off: crosstable {summary(ours_off)}; "
            f"caissify {summary(peer_off)}; "
            f"speed-up {statistics.median(peer_off) / statistics.median(ours_off):.1f}x (median)"
        )

    paired = [timed(lambda: [r.boards for r in berger_table(n).rounds]) for _ in range(3)]
    print(f"berger_table({n}) and every (white, black) pair materialised: {summary(paired)}")
    double = [timed(lambda: berger_schedule(n, cycles=2)) for _ in range(3)]
    print(f"double round robin berger_schedule({n}, cycles=2): {summary(double)}")
    circle = [timed(lambda: circle_table(n)) for _ in range(3)]
    print(f"circle_table({n}): {summary(circle)}")

    rng = random.Random(2026)
    rounds = n - 1 if n % 2 == 0 else n
    queries = [(rng.randint(1, rounds), rng.randint(1, n)) for _ in range(200_000)]
    start = time.perf_counter()
    for number, player in queries:
        berger_opponent(n, number, player)
    per_lookup = (time.perf_counter() - start) / len(queries)
    print(f"berger_opponent({n}, r, p): {per_lookup * 1e6:.2f} µs per lookup (200 000 random)")
    for size in (100, 10_000, 1_000_000):
        start = time.perf_counter()
        for number, player in queries[:50_000]:
            berger_opponent(size, (number - 1) % (size - 1) + 1, (player - 1) % size + 1)
        each = (time.perf_counter() - start) / 50_000
        print(f"  players={size:>9,}: {each * 1e6:.2f} µs per lookup (size-independent: O(1))")
    start = time.perf_counter()
    for number in range(1, 201):
        berger_round(n, number)
    print(f"berger_round({n}, r): {(time.perf_counter() - start) / 200 * 1e3:.3f} ms per round")

    schedule = berger_schedule(n, cycles=2)
    start = time.perf_counter()
    report = verify_schedule(schedule)
    print(
        f"verify_schedule of the double ({report.games:,} games): "
        f"{time.perf_counter() - start:.2f} s, ok={report.ok}"
    )


if __name__ == "__main__":
    main()
