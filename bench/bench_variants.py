"""Timing of the variant generators (Scheveningen, quads, lots, duration).

Run: python bench/bench_variants.py   (results go to docs/benchmarks.md by hand)
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable

from crosstable.core.duration import estimate_duration
from crosstable.core.lots import Entrant, draw_by_lot, draw_by_rating
from crosstable.core.schedule.groups import plan_group_stage
from crosstable.core.schedule.quads import quads
from crosstable.core.schedule.scheveningen import scheveningen


def timed(label: str, call: Callable[[], object], repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    print(f"| {label} | {best * 1000:.2f} ms |")


def main() -> None:
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| case | best of 3 |\n|---|---|")
    for n in (10, 50, 100, 200):
        timed(f"scheveningen {n} boards, single", lambda n=n: scheveningen(n))
    for n in (10, 50, 98, 100, 198, 200):
        timed(f"scheveningen {n} boards, double", lambda n=n: scheveningen(n, cycles=2))
    timed("quads 1 000 000 players", lambda: quads(1_000_000))
    field = [Entrant(str(i), f"P{i}", 1000 + i % 1500) for i in range(1, 10_001)]
    timed("lots by lot, 10 000 entrants", lambda: draw_by_lot(field, 12345))
    timed("lots by rating, 10 000 entrants", lambda: draw_by_rating(field))
    timed(
        "duration estimate ×10 000",
        lambda: [estimate_duration(12, "40/90,30+30") for _ in range(10_000)],
    )
    timed("group plan 1024 players, 256 groups", lambda: plan_group_stage(1024, groups=256))


if __name__ == "__main__":
    main()
