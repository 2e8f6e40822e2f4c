"""A portal's series on PostgreSQL at 10 000 registrations: the registration, the tick
that makes stage 1, and a tick with nothing due (issue 11; docs/benchmarks.md).

    python bench/bench_series_pg.py --pg "$CROSSTABLE_TEST_PG_URL" --players 10000

The same edition as ``bench_series.py`` (a workdays series, groups of at most 10, two
qualifiers a group), in a schema of its own made for the run and dropped after it
(``--keep`` keeps it): ``--players`` players register themselves one transaction each,
the clock (injected) moves past the deadline — one tick closes the registration — and
past the start: one tick makes stage 1 (every group a round robin created, drawn and
started, all its games at once, a "stage starts" outbox row per player; the next
edition opens by itself in the same tick). Then a tick with nothing due, stage 1
running. Prints one JSON line of figures, with the load average before and after.
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import time
import uuid
from urllib.parse import quote

from sqlalchemy import func, select

from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import open_store
from crosstable.store.models import GameRow
from crosstable.store.series_models import SeriesGroupRow

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def schema_url(base: str, schema: str) -> str:
    options = quote(f"-csearch_path={schema}")
    return base + ("&" if "?" in base else "?") + f"options={options}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", required=True, help="a postgresql:// URL (a schema is made)")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the bench's schema")
    args = parser.parse_args()
    import psycopg

    schema = "bench_series_" + uuid.uuid4().hex[:10]
    with psycopg.connect(args.pg, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    figures: dict[str, object] = {
        "players": args.players,
        "db": "postgresql",
        "load_before": [round(x, 2) for x in os.getloadavg()],
        "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    store = open_store(schema_url(args.pg, schema))
    try:
        run(store, args, figures)
    finally:
        store.close()
        if not args.keep:
            with psycopg.connect(args.pg, autocommit=True) as connection:
                connection.execute(f"DROP SCHEMA {schema} CASCADE")
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(figures, ensure_ascii=False))


def run(store: object, args: argparse.Namespace, figures: dict[str, object]) -> None:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(args.seed))  # type: ignore[arg-type]
    series = service.create_series(
        SeriesSettings("Bench", "workdays", "19:00", "Europe/Moscow", time_control="G/5")
    )
    edition = service.open_edition(series)

    began = time.perf_counter()
    for index in range(args.players):
        service.register_for_edition(edition, f"Player {index + 1:05d}", rating=1200 + index % 1500)
    spent = time.perf_counter() - began
    figures["register_s"] = round(spent, 1)
    figures["register_ms_each"] = round(1000 * spent / max(1, args.players), 2)

    clock.advance(dt.timedelta(hours=6, minutes=30))  # past the deadline (18:00 in Moscow)
    began = time.perf_counter()
    figures["deadline_said"] = service.tick()[:2]
    figures["deadline_tick_ms"] = round(1000 * (time.perf_counter() - began), 1)

    clock.advance(dt.timedelta(hours=1))  # past the start (19:00 in Moscow)
    began, cpu = time.perf_counter(), time.process_time()
    said = service.tick()
    spent = time.perf_counter() - began
    figures["stage1_tick_s"] = round(spent, 1)
    figures["stage1_tick_cpu_s"] = round(time.process_time() - cpu, 1)
    figures["stage1_said"] = said
    with service.store.reading() as session:
        tids = [
            g.tournament_id
            for g in session.scalars(select(SeriesGroupRow))
            if g.tournament_id is not None
        ]
        games = session.scalar(
            select(func.count()).select_from(GameRow).where(GameRow.tournament_id.in_(tids))
        )
    figures["stage1_groups"], figures["stage1_games"] = len(tids), int(games or 0)
    figures["stage1_ms_per_game"] = round(1000 * spent / max(1, int(games or 0)), 2)

    clock.advance(dt.timedelta(minutes=5))
    idle = []
    for _ in range(5):
        began = time.perf_counter()
        assert service.tick() == []
        idle.append(round(1000 * (time.perf_counter() - began), 1))
    figures["idle_tick_ms"] = idle


if __name__ == "__main__":
    main()
