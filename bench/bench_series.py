"""A season of a portal's series: creating a stage, ending it, and a tick with nothing to do.

    python bench/bench_series.py --db /tmp/series.db --players 10000
    python bench/bench_series.py --db "$(bash scripts/postgres.sh)" --players 2000

One edition of a workdays series (groups of at most 10, two qualifiers a group) gets
``--players`` self-registered players; the clock (injected, as in the tests) moves past the
deadline and one ``tick`` creates stage 1: the groups (the core's sizes and snake seeding),
each a round robin created, drawn and started with all its games at once, and a
"stage starts" outbox row per player. Every game then gets a result through
``Service.record_result`` (timed apart: that is the store's figure, bench_store.py), the
clock moves on, and one ``tick`` ends the stage (the qualifiers by the core's rule) and
creates stage 2 the same way. Last, a tick with nothing due. Prints one JSON line of
figures (seconds, and per group / per game). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import time
from pathlib import Path

from sqlalchemy import select

from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import open_store
from crosstable.store.models import GameRow
from crosstable.store.series_models import SeriesGroupRow, SeriesStageRow

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.db.startswith("postgresql") and Path(args.db).exists():
        Path(args.db).unlink()
    store = open_store(args.db)
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(args.seed))
    rng = random.Random(args.seed)
    figures: dict[str, object] = {"players": args.players, "db": store.dialect}
    series = service.create_series(
        SeriesSettings("Bench", "workdays", "19:00", "Europe/Moscow", time_control="G/5")
    )
    edition = service.open_edition(series)

    began = time.perf_counter()
    for index in range(args.players):
        service.register_for_edition(edition, f"Player {index + 1:05d}", rating=1200 + index % 1500)
    figures["register_s"] = round(time.perf_counter() - began, 2)

    clock.advance(dt.timedelta(hours=6, minutes=30))  # past the deadline (18:00 in Moscow)
    figures["deadline_said"] = service.tick()[:2]
    clock.advance(dt.timedelta(hours=1))  # past the start (19:00 in Moscow)
    began, cpu = time.perf_counter(), time.process_time()
    said = service.tick()
    figures["stage1_tick_s"] = round(time.perf_counter() - began, 2)
    figures["stage1_tick_cpu_s"] = round(time.process_time() - cpu, 2)
    figures["stage1_said"] = said[:2]
    groups, games = _stage(store, edition, 1)
    figures["stage1_groups"], figures["stage1_games"] = len(groups), len(games)
    figures["stage1_ms_per_game"] = round(1000 * figures["stage1_tick_s"] / max(1, len(games)), 3)

    began = time.perf_counter()
    for tid, rnd, board in games:
        service.record_result(tid, rnd, board, rng.choice(("1-0", "0-1", "1/2-1/2")))
    figures["results_s"] = round(time.perf_counter() - began, 2)

    clock.advance(dt.timedelta(minutes=5))
    began, cpu = time.perf_counter(), time.process_time()
    said = service.tick()
    figures["stage_end_tick_s"] = round(time.perf_counter() - began, 2)
    figures["stage_end_tick_cpu_s"] = round(time.process_time() - cpu, 2)
    figures["stage_end_said"] = said[:2]
    groups2, games2 = _stage(store, edition, 2)
    figures["stage2_groups"], figures["stage2_games"] = len(groups2), len(games2)

    began = time.perf_counter()
    service.tick()
    figures["idle_tick_ms"] = round(1000 * (time.perf_counter() - began), 1)
    figures["load"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(figures))
    store.close()


def _stage(
    store: object, edition: int, number: int
) -> tuple[list[int], list[tuple[int, int, int]]]:
    with store.reading() as session:  # type: ignore[attr-defined]
        stage = session.scalars(
            select(SeriesStageRow).where(
                SeriesStageRow.edition_id == edition, SeriesStageRow.number == number
            )
        ).one_or_none()
        if stage is None:
            return [], []
        tids = [
            g.tournament_id
            for g in session.scalars(
                select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id)
            )
            if g.tournament_id is not None
        ]
        games = [
            (g.tournament_id, g.round, g.board)
            for g in session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id.in_(tids))
                .order_by(GameRow.tournament_id, GameRow.round, GameRow.board)
            )
        ]
    return tids, games


if __name__ == "__main__":
    main()
