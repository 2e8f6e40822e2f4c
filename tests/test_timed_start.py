"""A tournament starts by itself at its preset time, a knockout's field is 2ⁿ and closes
when full, and a super-blitz knockout plays one round a day — through the service with
a moved clock (days pass, nothing sleeps), on SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.clockwork import tick_all
from crosstable.service.series.outbox import outbox
from crosstable.service.timed_start import derived_seed, timed_start
from crosstable.store import Store
from crosstable.store.models import TournamentRow

T0 = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.UTC)
START = "2026-12-07T18:00:00+00:00"


def clocked(store: Store) -> tuple[Service, FixedClock]:
    clock = FixedClock(T0)
    return Service(store, clock=clock, random=random.Random(3)), clock


def knockout(service: Service, players: int, **details: str) -> int:
    tid = service.create_tournament(
        Regulations(name="Super-blitz", system=System.KNOCKOUT, details=details)
    ).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2000 + 10 * index))
    return tid


def kinds(store: Store) -> list[str]:
    with store.reading() as session:
        return [row.kind for row in outbox(session)]


def open_boards(service: Service, tid: int) -> list[tuple[int, int]]:
    return [(g.round, g.board) for g in service.overview(tid).games if g.result is None]


def test_r_ko_1_capacity_is_a_power_of_two_and_the_field_closes_when_full(store: Store) -> None:
    service, _clock = clocked(store)
    for bad in ("6", "1", "1024", "eight"):
        with pytest.raises(RuleError, match="power of two"):
            knockout(service, 0, capacity=bad)
    with pytest.raises(RuleError, match="only a knockout"):
        service.create_tournament(Regulations(name="RR", details={"capacity": "8"}))
    tid = knockout(service, 4, capacity="4")
    with pytest.raises(RuleError, match="the field is full"):
        service.add_player(tid, PlayerInfo("Fifth"))
    assert len(service.overview(tid).players) == 4
    with pytest.raises(RuleError, match="power of two"):
        service.edit_regulations(tid, detail_changes={"capacity": "12"})


def test_r_x_3_r_x_4_a_knockout_starts_at_its_time_and_plays_one_round_a_day(
    store: Store,
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 4, capacity="4", starts_at=START, round_time="18:00")
    assert tick_all(service) == []  # 12:00: not yet
    clock.advance(dt.timedelta(hours=6))
    said = tick_all(service)
    assert len(said) == 1 and "knockout started" in said[0] and "random order" in said[0]
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        seed = derived_seed(row)
        assert row.regulations["lots_seed"] == str(seed) and row.regulations["bracket"] == "random"
    assert str(seed) in said[0]
    assert kinds(store).count("round-starts") == 4  # both players of both games
    for rnd, board in open_boards(service, tid):
        service.record_result(tid, rnd, board, "1-0")
    clock.advance(dt.timedelta(hours=2))
    assert tick_all(service) == []  # decided, but one round a day: the final tomorrow
    clock.advance(dt.timedelta(hours=22))  # 2026-12-08 18:00
    said = tick_all(service)
    assert len(said) == 1 and "paired" in said[0]
    assert open_boards(service, tid) == [(2, 1)]
    with store.reading() as session:
        final = [r for r in outbox(session) if r.kind == "round-starts"][-1]
        assert final.payload["deadline"] == "2026-12-09T18:00:00+00:00"
        assert final.payload["round"] == 2
    clock.advance(dt.timedelta(days=1, minutes=1))  # the final's deadline passed, unplayed
    said = tick_all(service)
    assert len(said) == 1 and "results were due" in said[0]
    assert tick_all(service) == []  # the organiser is told once
    assert kinds(store).count("results-missing") == 1
    service.record_result(tid, 2, 1, "0-1")
    assert tick_all(service) == []  # over: the organiser finishes it
    assert service.knockout_state(tid).finished


def test_r_x_4_a_short_knockout_is_postponed_a_day_and_then_starts(store: Store) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 3, capacity="4", starts_at=START)
    clock.advance(dt.timedelta(hours=6))
    said = tick_all(service)
    assert said == [
        "tournament 1: cannot start (3 of 4 players registered); the start moved to "
        "2026-12-08T18:00:00+00:00"
    ]
    assert service.overview(tid).status == "registration"
    assert kinds(store) == ["start-moved"] * 4  # three players and the organiser
    service.add_player(tid, PlayerInfo("Late", rating=1900))
    assert tick_all(service) == []
    clock.advance(dt.timedelta(days=1))
    assert "knockout started" in tick_all(service)[0]


def test_r_x_4_wait_tells_the_organiser_once_and_a_round_robin_starts_by_itself(
    store: Store,
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 3, capacity="4", starts_at=START, if_short="wait")
    rr = service.create_tournament(
        Regulations(name="Club", details={"starts_at": "2026-12-07T19:00:00+01:00"})
    ).tournament_id
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(rr, PlayerInfo(name))
    clock.advance(dt.timedelta(hours=6))
    said = tick_all(service)
    assert len(said) == 2 and "cannot start yet (3 of 4" in said[0]
    assert said[1] == "tournament 2: tournament started: 3 rounds, 4 players"
    assert service.overview(rr).status == "running"
    assert tick_all(service) == [] and kinds(store) == ["start-waits"]
    service.add_player(tid, PlayerInfo("Late"))
    assert "knockout started" in tick_all(service)[0]


def test_r_ko_1_over_the_board_is_seeded_by_rating_and_waits_for_eligible_players(
    store: Store,
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 4, starts_at=START, venue_kind="otb")
    clock.advance(dt.timedelta(hours=6))
    said = tick_all(service)  # the portal's rule: an over-the-board event needs accounts
    assert len(said) == 1 and "cannot start yet" in said[0] and "over-the-board" in said[0]
    overview = service.overview(tid)
    assert overview.status == "registration"
    assert overview.settings["regulations"]["bracket"] == "seeded"
    by_rating = sorted(overview.players, key=lambda p: -(p.rating or 0))
    assert [p.start for p in by_rating] == [1, 2, 3, 4]  # lots by rating: 1 v 4, 2 v 3


@given(st.text(max_size=30), st.text(max_size=12), st.text(max_size=8))
def test_timed_settings_refuse_bad_text_clearly(when: str, capacity: str, daily: str) -> None:
    details = {"starts_at": when, "capacity": capacity, "round_time": daily}
    try:
        settings = timed_start(System.KNOCKOUT, details)
    except RuleError as error:
        assert str(error).startswith("regulations, ")
    else:
        if settings.capacity is not None:
            assert settings.capacity & (settings.capacity - 1) == 0
