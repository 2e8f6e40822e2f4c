"""The service's read model (issue 14 item 1): what the pages read, and the one reading of
recorded changes both kept copies replay (crosstable.service.tables, service.live)."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_support import db_url, make_service, service, started, store  # noqa: F401

from crosstable.core.changes import (
    GameNoted,
    PlayerAdded,
    Reload,
    ResultRecorded,
    read_event,
)
from crosstable.core.row_changes import RowChange
from crosstable.service import Service
from crosstable.service.crosstable import build_crosstable
from crosstable.service.errors import NotFoundError
from crosstable.service.live import read_events
from crosstable.service.loading import load_live
from crosstable.store import Store
from crosstable.store.models import TournamentRow


def _result(round_number: int, board: int, after: dict[str, str | None]) -> list[RowChange]:
    before = dict.fromkeys(after)
    key = {"round": round_number, "board": board}
    return [RowChange("games", key, before, after)]


def test_recorded_changes_are_read_once_for_every_copy() -> None:
    events = [_result(1, 2, {"result": "10"}), _result(2, 1, {"white_report": "01"})]
    assert read_events(events) == [
        ResultRecorded(1, 2, result="10"),
        GameNoted(2, 1, reports=(("white_report", "01"),)),
    ]
    player = [RowChange("entries", {"number": 1}, {}, {"name": "X"})]
    # anything but results: the copies reload
    assert read_events([events[0], player]) == [ResultRecorded(1, 2, result="10"), Reload("")]
    assert read_event("player-add", player) == (PlayerAdded("player-add"),)
    assert read_events([[]]) == [Reload("")]  # (no row changes is not a result either)


def _live_states(db: Store, tid: int) -> dict[tuple[int, int], tuple[object, ...]]:
    with db.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        source = load_live(session, row)
    assert source is not None
    return {
        spot: (g.white, g.black, g.result, g.reason, g.version) for spot, g in source.games.items()
    }


def test_both_kept_copies_follow_results_made_by_another_process(store: Store) -> None:
    """Results, a forfeit, a report and a correction made by another service on the same
    database: the read model's state and the write side's live table both replay them
    and equal what a reload gives (SQLite and PostgreSQL)."""
    service = make_service(store)
    other = Service(store)  # another process (its own kept tables)
    tid = started(service, players=6)
    service.table_state(tid)
    service.record_result(tid, 1, 1, "1-0")  # the live table is kept from here on
    other.record_result(tid, 1, 2, "+-")
    white = other.overview(tid).games[2].white
    other.report_result(tid, 1, 3, "0-1", player=white or 0)
    other.correct_result(tid, 1, 1, "½-½")
    state = service.table_state(tid)
    view, tournament = service.snapshot(tid)
    assert (state.view, state.tournament) == (view, tournament)
    assert state.table == build_crosstable(view, tournament)
    assert service.crosstable(tid) == (view, state.table)
    # the write side catches up in its next change (the same reading of the history)
    service.record_result(tid, 2, 1, "0-1")
    table = service.live_tables.checkout(tid)
    assert table is not None
    service.live_tables.checkin(tid, table)
    assert table.revision == service.revision(tid)
    kept = {
        spot: (g.white, g.black, g.result, g.reason, g.version) for spot, g in table.games.items()
    }
    assert kept == _live_states(store, tid)
    assert service.table_state(tid).view == service.overview(tid)


def test_the_pages_reads_through_the_service(service: Service) -> None:
    tid = started(service, players=5)
    assert service.revision(tid) == service.overview(tid).revision
    assert service.key_used(tid, None) is False
    service.record_result(tid, 1, 1, "1-0", idempotency_key="k-1")
    assert service.key_used(tid, "k-1") is True
    assert service.key_used(tid, "k-2") is False
    assert service.teams(tid) == {}
    assert service.planned_rounds(tid) is None
    byes = service.byes(tid)  # five players: one free each round, not listed as a bye
    assert byes == []
    with pytest.raises(NotFoundError):
        service.revision(tid + 100)
    with pytest.raises(NotFoundError):
        service.crosstable(tid + 100)
    assert service.read_model is service.read_model  # one per service
