"""Bounded live tables in each process (issue 17 item 3): the write side's live tables
and the pages' read model keep at most a number and an estimated number of bytes of
tournaments, the least recently used let go first; a tournament let go is rebuilt
from the database when a result or a reader needs it, with the same standings. The
estimates are checked against tracemalloc's count of what a table really holds."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import gc
import tracemalloc

import pytest
from test_service_support import db_url, make_service, service, started, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.live import LiveTables, live_standings, table_bytes
from crosstable.service.tables import ReadModel, state_bytes


def _first_open(service: Service, tid: int) -> tuple[int, int]:
    game = next(g for g in service.overview(tid).games if g.result is None)
    return game.round, game.board


def test_live_tables_let_the_least_recently_used_go(service: Service) -> None:
    tids = [started(service, 6) for _ in range(4)]
    for tid in tids:
        service.record_result(tid, *_first_open(service, tid), "1-0", actor="x")
    tables = service.live_tables
    kept = {tid: tables.checkout(tid) for tid in tids}
    size = table_bytes(kept[tids[0]])  # type: ignore[arg-type]
    bounded = LiveTables(capacity=100, max_bytes=size * 2 + size // 2)
    for tid in tids:
        bounded.checkin(tid, kept[tid])  # type: ignore[arg-type]
    assert bounded.stats() == (2, 2 * size) and bounded.evicted == 2
    assert bounded.checkout(tids[0]) is None and bounded.checkout(tids[2]) is not None
    by_count = LiveTables(capacity=3, max_bytes=10**9)
    for tid in tids:
        by_count.checkin(tid, kept[tid])  # type: ignore[arg-type]
    by_count.checkin(tids[1], by_count.checkout(tids[1]))  # type: ignore[arg-type]  # used again
    by_count.checkin(tids[0], kept[tids[0]])  # type: ignore[arg-type]  # lets tids[2] go
    assert [by_count.checkout(t) is not None for t in tids] == [True, True, False, True]


def test_a_table_let_go_is_rebuilt_with_the_same_standings(service: Service) -> None:
    service.live_tables = LiveTables(capacity=1)
    tids = [started(service, 8) for _ in range(3)]
    for _ in range(6):  # results across the three: each one finds its table let go
        for tid in tids:
            service.record_result(tid, *_first_open(service, tid), "1-0", actor="x")
    assert service.live_tables.stats()[0] == 1 and service.live_tables.evicted >= 15
    for tid in tids:
        stored = service.live_standings(tid)
        assert stored is not None and stored.pop("revision") == service.overview(tid).revision
        assert stored == live_standings(service.tournament(tid))


def test_the_read_model_is_bounded_by_bytes(service: Service) -> None:
    tids = [started(service, 6) for _ in range(4)]
    model = ReadModel(service.store, size=100, max_bytes=1)
    for tid in tids:
        view, table = model.get(tid)
        assert view.id == tid and table is not None
    assert model.stats()[0] == 1  # only the last read is kept
    again, _table = model.get(tids[0])  # brought back from the database
    assert again.revision == service.overview(tids[0]).revision


def test_the_estimates_are_near_what_a_table_holds(service: Service) -> None:
    """tracemalloc's count of the memory kept per tournament, within ±50 % of the
    estimates the bounds use (for 8 and 16 players)."""
    for players in (8, 16):
        tids = [started(service, players) for _ in range(6)]
        spots = {tid: _first_open(service, tid) for tid in tids}
        for tid in tids:
            service.live_tables.checkout(tid)
        model = ReadModel(service.store)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for tid in tids:
                service.record_result(tid, *spots[tid], "1-0", actor="x")
            gc.collect()
            middle = tracemalloc.get_traced_memory()[0]
            for tid in tids:
                model.get(tid)
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        live = (middle - before) / len(tids)
        page = (after - middle) / len(tids)
        table = service.live_tables.checkout(tids[0])
        assert table is not None
        assert 0.5 < live / table_bytes(table) < 1.5, (players, live, table_bytes(table))
        state = model.current(tids[0])
        assert 0.5 < page / state_bytes(state) < 1.5, (players, page, state_bytes(state))


def test_a_process_bounds_are_set_from_its_environment(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A portal process keeps every running tournament (docs/deploy.md): the numbers
    of live tables and of read-model tables come from its environment; a value that
    is not a positive whole number keeps the default."""
    monkeypatch.setenv("CROSSTABLE_READ_MODEL_TABLES", "12000")
    monkeypatch.setenv("CROSSTABLE_LIVE_TABLES", "11000")
    assert ReadModel(service.store).size == 12000
    assert LiveTables().capacity == 11000
    monkeypatch.setenv("CROSSTABLE_READ_MODEL_TABLES", "-5")
    assert ReadModel(service.store).size == 256
    tids = [started(service, 6) for _ in range(3)]
    monkeypatch.setenv("CROSSTABLE_READ_MODEL_TABLES", "2")
    model = ReadModel(service.store)
    for tid in tids:
        model.get(tid)
    assert model.stats()[0] == 2
