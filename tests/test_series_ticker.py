"""The in-process ticker of ``crosstable serve`` (issue 11 item 6) and a kill -9 of the
ticking process at random moments of a simulated edition (SQLite and PostgreSQL).

The kill test plays one edition (15 players, stage 1 in two groups, the final, the
super-final; results posted by the test, the stronger player winning every game, so
the places do not depend on the lots) twice: once ticked in-process without a
hitch (the reference, on a database of the same kind, counting each pass's SQL
statements), once with each due moment's pass in a child process
(tests/series_tick_worker.py: the ticker's pass) killed with SIGKILL just before a
statement drawn (seeded) from all the statements of that pass, then one clean pass. The
two runs must have done the same steps once each: the same recorded step keys in the
same order, the same tournaments and games (none made twice), the same outbox rows,
news, awards and results."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select
from test_series_news import PLAYERS, _series, _service, play_by_rating
from test_series_service import current_groups
from test_service_support import db_url, new_database  # noqa: F401

from crosstable.service import Service
from crosstable.service.series.tick_lock import tick_lock
from crosstable.service.series.ticker import Ticker
from crosstable.store import Store, open_store
from crosstable.store.models import GameRow, TournamentRow
from crosstable.store.series_models import (
    SeriesAwardRow,
    SeriesEventRow,
    SeriesNewsRow,
    SeriesOutboxRow,
    SeriesResultRow,
)

WORKER = Path(__file__).with_name("series_tick_worker.py")
ROOT = Path(__file__).resolve().parents[1]
#: the seed of the kill points (one per due moment, drawn from all of its pass's statements)
SEED = 11


def wait_until_the_lock_is_free(service: Service) -> None:
    """Until the tick's lock can be taken: a killed child's PostgreSQL session keeps its
    advisory lock until the server notices the closed connection (bounded: 60 s)."""
    deadline = time.monotonic() + 60
    while True:
        with tick_lock(service) as mine:
            if mine:
                return
        assert time.monotonic() < deadline, "the killed pass's lock was never released"
        time.sleep(0.05)


def test_a_pass_ticks_then_sends_and_reports() -> None:
    calls: list[str] = []

    class Fake:
        def tick(self) -> list[str]:
            calls.append("tick")
            return ["edition 1: registration closed with 15 players"]

    seen: list[list[str]] = []
    ticker = Ticker(Fake(), send=lambda: calls.append("send"), on_pass=seen.append)  # type: ignore[arg-type]
    assert ticker.pass_once() == ["edition 1: registration closed with 15 players"]
    assert calls == ["tick", "send"] and seen == [
        ["edition 1: registration closed with 15 players"]
    ]
    with pytest.raises(ValueError, match="positive"):
        Ticker(Fake(), interval=0)  # type: ignore[arg-type]


def test_a_failing_pass_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    passes = threading.Event()
    count = [0]

    class Flaky:
        def tick(self) -> list[str]:
            count[0] += 1
            if count[0] == 1:
                raise RuntimeError("the database went away")
            return []

    def after(_done: list[str]) -> None:
        if count[0] >= 2:
            passes.set()

    ticker = Ticker(Flaky(), interval=0.01, on_pass=after)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="crosstable.ticker"):
        ticker.start()
        try:
            assert passes.wait(30), "the second pass never ran"
        finally:
            ticker.stop()
    assert count[0] >= 2 and "the series tick failed" in caplog.text


def test_serve_ticks_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    from crosstable.cli import main, serve

    seen: list[Any] = []
    monkeypatch.setattr(serve, "run", lambda db, **options: seen.append(options["tick_every"]))
    assert main(["serve", "--db", "x.db"]) == 0
    assert main(["serve", "--db", "x.db", "--tick-every", "5"]) == 0
    assert main(["serve", "--db", "x.db", "--no-tick"]) == 0
    assert seen == [60.0, 5.0, None]
    assert main(["serve", "--tick-every", "0"]) == 2


# -- kill -9 -------------------------------------------------------------------------------


def play(store: Store, tick: Callable[[Service, dt.datetime], None]) -> None:
    """One edition from registration to the super-final, ticked by ``tick``."""
    service, clock = _service(store)
    sid = _series(service)
    edition = service.open_edition(sid)
    for name, rating, user in [("Forfeiter", 2500, None), *PLAYERS]:
        service.register_for_edition(edition, name, rating=rating, user_id=user)
    start = dt.datetime.fromisoformat(service.edition_info(edition)["planned_start"])
    clock.advance(start + dt.timedelta(minutes=1) - clock.now())
    tick(service, clock.now())
    for _ in range(3):
        _kind, tids = current_groups(store, edition)
        play_by_rating(service, tids, "Forfeiter")
        clock.advance(dt.timedelta(hours=1))
        tick(service, clock.now())
    assert service.edition_info(edition)["state"] == "finished"


def record_of(store: Store) -> dict[str, Any]:
    """What the run did, in terms independent of ids and of the drawn colours."""
    with store.reading() as session:
        tournaments = list(session.scalars(select(TournamentRow).order_by(TournamentRow.id)))
        games = Counter(t for t in session.scalars(select(GameRow.tournament_id)))
        names = {t.id: t.name for t in tournaments}
        return {
            "steps": [
                e.step
                for e in session.scalars(select(SeriesEventRow).order_by(SeriesEventRow.id))
                if e.step
            ],
            "tournaments": sorted((t.name, t.status, games[t.id]) for t in tournaments),
            "outbox": sorted(
                (r.kind, r.recipient, str(r.payload.get("stage")))
                for r in session.scalars(select(SeriesOutboxRow))
            ),
            "news": [n.title for n in session.scalars(select(SeriesNewsRow).order_by("id"))],
            "awards": sorted(
                (a.stage_kind, a.group_letter, a.place, a.name, a.points)
                for a in session.scalars(select(SeriesAwardRow))
            ),
            "results": sorted(
                (r.stage_number, r.name, r.place, r.points, r.wins, r.played)
                for r in session.scalars(select(SeriesResultRow))
            ),
            "groups": sorted(names[t] for t in games),
        }


def test_a_ticking_process_killed_at_random_moments_loses_no_step_and_does_none_twice(
    db_url: str, tmp_path: Path
) -> None:
    # the reference, on a database of the same kind: its passes make as many statements
    # as the killed run's (the same state, the same dialect), so each kill point below
    # is drawn from the whole of its pass and always kills
    statements: list[int] = []

    def counted(service: Service, _now: dt.datetime) -> None:
        made = [0]

        def count(*_args: object) -> None:
            made[0] += 1

        event.listen(service.store.engine, "before_cursor_execute", count)
        try:
            service.tick()
        finally:
            event.remove(service.store.engine, "before_cursor_execute", count)
        statements.append(made[0])

    with new_database(db_url.partition(":")[0], tmp_path, "reference") as reference_url:
        reference = open_store(reference_url)
        try:
            play(reference, counted)
            expected = record_of(reference)
        finally:
            reference.close()
    assert len(expected["steps"]) == 9 and expected["news"]  # with "series 1: edition 2 opens"
    assert len(statements) == 4 and min(statements) > 1, statements

    rng = random.Random(SEED)
    kills: list[tuple[str, int, int]] = []
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}

    def killed_pass(service: Service, now: dt.datetime) -> None:
        # a child process ticks and is killed before a statement drawn from all of its
        # pass's; then a clean pass 11 minutes later, here (a killed SQLite tick leaves
        # its lease for ten; PostgreSQL's lock goes with the dead connection once the
        # server has seen it close, which on a loaded machine is not at once)
        kill_at = rng.randint(1, statements[len(kills)])
        ran = subprocess.run(
            [sys.executable, str(WORKER), db_url, now.isoformat(), str(kill_at), "7"],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        kills.append((now.isoformat(), kill_at, ran.returncode))
        # a pass may be shorter than the reference's (a step an earlier killed run's clean
        # pass already did): a kill point past its end lets it finish, which it must do
        # cleanly; the others are killed
        made = int(ran.stderr.rsplit("statements", 1)[-1].split()[0]) if ran.returncode == 0 else 0
        assert ran.returncode == -signal.SIGKILL or (ran.returncode == 0 and made < kill_at), (
            kills,
            ran.stdout,
            ran.stderr,
        )
        service.clock.advance(dt.timedelta(minutes=11))  # type: ignore[attr-defined]
        wait_until_the_lock_is_free(service)
        service.tick()

    store = open_store(db_url)
    try:
        play(store, killed_pass)
        found = record_of(store)
    finally:
        store.close()
    assert len(kills) == len(statements)  # every due moment had its pass
    assert sum(code == -signal.SIGKILL for _at, _kill, code in kills) >= len(kills) // 2, kills
    for key in expected:
        assert found[key] == expected[key], (key, kills)


def test_two_schemas_of_one_postgresql_database_tick_apart() -> None:
    """PostgreSQL's advisory locks are per database: the tick's lock carries the schema,
    so a site in another schema (or another test run) never holds this one's back."""
    import uuid

    from test_series_news import PLAYERS as NAMES
    from test_service_support import PG_URL, pg_schema_url

    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schemas = ["t_" + uuid.uuid4().hex[:16] for _ in range(2)]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        for schema in schemas:
            connection.execute(f"CREATE SCHEMA {schema}")
    stores = [open_store(pg_schema_url(PG_URL, schema)) for schema in schemas]
    try:
        holder, _clock = _service(stores[0])
        service, clock = _service(stores[1])
        sid = _series(service)
        edition = service.open_edition(sid)
        for name, rating, _user in [("One more", 1000, None), *NAMES]:
            service.register_for_edition(edition, name, rating=rating)
        clock.advance(dt.timedelta(hours=8))
        with tick_lock(holder) as mine:  # the other schema's tick is under way
            assert mine
            assert len(service.tick()) == 4  # closed, stage 1 made, started, edition 2 opened
    finally:
        for opened in stores:
            opened.close()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            for schema in schemas:
                connection.execute(f"DROP SCHEMA {schema} CASCADE")
